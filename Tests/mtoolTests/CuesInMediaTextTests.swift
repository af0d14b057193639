import Foundation
import Testing

// mtool cues on SRT, ASS and mov_text streams inside media files: each read as its source file
// is (Tests/Fixtures/inmedia-text, from Scripts/make-inmedia-text-fixtures.sh).

@Suite struct CuesInMediaTextTests {
  let folder = fixtures + "/inmedia-text/"

  /// WebVTT of `file` without cue identifiers (an .srt file's numbers), stderr dropped.
  private func vtt(_ file: String) throws -> String {
    let result = try runMtool(["cues", folder + file, "--to", "vtt"])
    #expect(result.status == 0)
    return result.stdout
  }

  @Test(arguments: ["srt-mkvmerge.mks", "srt-zlib-mkvmerge.mks"])
  func srtInMatroskaIsReadAsItsSourceFile(file: String) throws {
    // Each block goes through the SRT cue-text reading: `{\an8}` is a position, not text.
    let expected =
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n<i>Hello</i> world\nsecond line\n\n"
      + "00:00:03.000 --> 00:00:04.000 line:0\ntop\n\n"
      + "00:00:05.000 --> 00:00:06.000 line:0 align:left\nleft <b>third</b>\n"
    #expect(try vtt(file) == expected)
    let source = try vtt("cues.srt").replacing(/\n\n\d\n/, with: "\n\n")
    #expect(source == expected)
  }
}

extension CuesInMediaTextTests {
  @Test(arguments: ["ass-mkvmerge.mks", "ass-ffmpeg.mks"])
  func assInMatroskaIsReadWithItsScriptHeader(file: String) throws {
    // The CodecPrivate header's styles (Top: yellow, bold, italic, \an8), PlayRes 1920x1080
    // (\pos(960,540) is the centre) and WrapStyle 2 (\n a line break) apply to the blocks.
    let expected =
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nplain\n\n"
      + "00:00:03.000 --> 00:00:04.000 line:0\n"
      + "<c.yellow><b><i>top yellow bold italic</i></b></c>\n\n"
      + "00:00:05.000 --> 00:00:06.000 line:50%,end position:50%,center\ncentre\n\n"
      + "00:00:07.000 --> 00:00:08.000\nsoft\nbreak under WrapStyle 2\n\n"
      + "00:00:09.000 --> 00:00:10.000\n<u>no such style</u>, commas, kept\n"
    #expect(try vtt(file) == expected)
    #expect(try vtt("styled.ass") == expected)
  }
}

extension CuesInMediaTextTests {
  @Test func movTextStylesAreKept() throws {
    // The styl boxes FFmpeg's mov_text encoder wrote from the source's <i>, <b>, <u>.
    let expected =
      "WEBVTT\n\n00:00:00.500 --> 00:00:01.500\n<i>Große</i> and <b>bold</b> é <u>under</u>\n\n"
      + "00:00:02.000 --> 00:00:03.000\nplain <b><i>both</i></b>\nline two\n"
    #expect(try vtt("tx3g-ffmpeg.mp4") == expected)
    #expect(try vtt("tx3g.srt").replacing(/\n\n\d\n/, with: "\n\n") == expected)
    let json = try runMtool(["cues", folder + "tx3g-ffmpeg.mp4", "--json"])
    #expect(json.status == 0)
    #expect(json.stdout.contains("\"diagnostics\":[]"))
  }
}
