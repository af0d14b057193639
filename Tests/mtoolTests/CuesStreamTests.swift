import Foundation
import Testing

// mtool cues FILE --stream N: an in-media text subtitle stream, WebVTT and TTML in MP4 included.

@Suite struct CuesStreamTests {
  let folder = fixtures + "/mp4-text/"

  @Test func webVTTInFragmentedMP4ConvertsToItsSource() throws {
    let vtt = try runMtool(["cues", folder + "wvtt-fragmented.mp4", "--stream", "0", "--to", "vtt"])
    #expect(vtt.status == 0)
    let source = try String(contentsOfFile: folder + "cues.vtt", encoding: .utf8)
    // The same cues, identifiers and settings as the file it was muxed from.
    #expect(vtt.stdout == source)
  }

  @Test func ttmlInMP4ListsItsCuesAtTheirTimes() throws {
    for file in ["stpp-fragmented.mp4", "stpp-ffmpeg.mp4"] {
      let result = try runMtool(["cues", folder + file, "--stream", "0", "--at", "10"])
      #expect(result.status == 0)
      #expect(result.stdout.contains("00:00:09.000 --> 00:00:13.000"))
      #expect(result.stdout.contains("Across two segments"))
      #expect(!result.stdout.contains("Second"))
    }
  }

  @Test func webVTTInMatroskaFromMkvmergeConvertsToWebVTT() throws {
    // CodecID S_TEXT/WEBVTT, which FFmpeg 5.1 does not name: read by the declaration.
    let mks = fixtures + "/othertools/webvtt-mkvmerge.mks"
    let vtt = try runMtool(["cues", mks, "--to", "vtt"])
    #expect(vtt.status == 0)
    #expect(
      vtt.stdout
        == "WEBVTT\n\n00:00:00.100 --> 00:00:01.000\nA <b>bold</b>\nline\n\n"
        + "00:00:01.200 --> 00:00:01.900\n&amp; two\n")
    #expect(try runMtool(["cues", mks, "--stream", "0", "--to", "vtt"]).stdout == vtt.stdout)
  }

  @Test func aMediaFileNameReadsItsDefaultTextTrack() throws {
    // multitrack.mkv: English SRT (#3) and French forced SRT (#4); neither is a default, so
    // the first is read, as --stream 3 reads it.
    let mkv = fixtures + "/multitrack.mkv"
    let plain = try runMtool(["cues", mkv, "--json"])
    #expect(plain.status == 0)
    #expect(plain.stdout == (try runMtool(["cues", mkv, "--stream", "3", "--json"])).stdout)
    #expect(plain.stdout.contains("Hello"))
    // A media file without text subtitles, a missing one and one that is not media.
    let none = try runMtool(["cues", fixtures + "/video-only.mp4"])
    #expect(none.status == 65)
    #expect(none.stderr == "mtool: cues: '\(fixtures)/video-only.mp4' has no text subtitle track\n")
    #expect(try runMtool(["cues", folder + "absent.mkv"]).status == 66)
    let junk = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(getpid()).mkv")
    try Data(repeating: 0x5A, count: 4096).write(to: junk)
    defer { try? FileManager.default.removeItem(at: junk) }
    let notMedia = try runMtool(["cues", junk.path])
    #expect(notMedia.status == 65)
    #expect(notMedia.stderr.split(separator: "\n").count == 1)
  }

  @Test func badStreamArgumentsAreUsageOrDataErrors() throws {
    let path = folder + "wvtt-fragmented.mp4"
    #expect(try runMtool(["cues", path, "--stream", "x"]).status == 64)
    #expect(try runMtool(["cues", path, "--stream", "0", "--format", "vtt"]).status == 64)
    #expect(try runMtool(["cues", "-", "--stream", "0"]).status == 64)
    let missing = try runMtool(["cues", path, "--stream", "3"])
    #expect(missing.status == 65)
    #expect(missing.stderr.split(separator: "\n").count == 1)
    #expect(try runMtool(["cues", folder + "absent.mp4", "--stream", "0"]).status == 66)
  }
}
