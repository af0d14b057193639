import SubtitleParser
import Testing

@testable import MediaTracks

/// `read()`, `readWithMarkup()` and `document()` of one text subtitle stream give the same cues
/// at the same times: the fixtures of `Scripts/make-inmedia-text-fixtures.sh` (SRT and ASS in
/// Matroska by mkvmerge and FFmpeg, mov_text in MP4).
@Suite struct InMediaTextReadTests {
  static let files = [
    "srt-mkvmerge.mks", "srt-zlib-mkvmerge.mks", "ass-mkvmerge.mks", "ass-ffmpeg.mks",
    "tx3g-ffmpeg.mp4",
  ]

  private func reader(_ file: String) -> SubtitleStreamReader {
    SubtitleStreamReader(path: fixtures + "/inmedia-text/" + file, streamIndex: 0)
  }

  @Test(arguments: files)
  func readWithMarkupGivesTheDocumentsCues(file: String) throws {
    let reader = reader(file)
    let document = try reader.document()
    let (markup, cues) = try reader.readWithMarkup()
    #expect(markup.rawValue == document.format.rawValue)
    #expect(cues.map(\.text) == document.cues.map { document.text(of: $0) })
    #expect(cues.map(\.startTime) == document.cues.map(\.startTime))
    #expect(cues.map(\.endTime) == document.cues.map(\.endTime))
  }

  @Test(arguments: files)
  func readGivesTheDocumentsCues(file: String) throws {
    let reader = reader(file)
    let document = try reader.document()
    let cues = try reader.read()
    // SRT keeps its own markup; ASS override blocks and mov_text styles are not in that syntax.
    let plain = document.format == .ass || file.hasPrefix("tx3g")
    let texts = document.cues.map { plain ? document.plainText(of: $0) : document.text(of: $0) }
    #expect(cues.map(\.text) == texts)
    #expect(cues.map(\.startTime) == document.cues.map(\.startTime))
    #expect(cues.map(\.endTime) == document.cues.map(\.endTime))
  }

  @Test(arguments: ["srt-mkvmerge.mks", "srt-zlib-mkvmerge.mks"])
  func srtBlocksAreReadAsSRTCueText(file: String) throws {
    // `{\an8}` and `{\an7}{\i1}` are override blocks, not text, as in the source file.
    let expected = ["<i>Hello</i> world\nsecond line", "top", "left <b>third</b>"]
    #expect(try reader(file).read().map(\.text) == expected)
    let (markup, cues) = try reader(file).readWithMarkup()
    #expect(markup == .subRip)
    #expect(cues.map(\.text) == expected)
  }

  @Test(arguments: ["ass-mkvmerge.mks", "ass-ffmpeg.mks"])
  func assBlocksAreReadWithTheScriptHeader(file: String) throws {
    let cues = try reader(file).read()
    #expect(
      cues.map(\.text) == [
        "plain", "top yellow bold italic", "centre", "soft\nbreak under WrapStyle 2",
        "no such style, commas, kept",
      ])
    let times = cues.map { [$0.startTime, $0.endTime] }
    #expect(times == [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]])
    // With the markup: the Top style's bold, italic and yellow are in the text, so a document
    // of these texts shows what document() shows.
    let (markup, marked) = try reader(file).readWithMarkup()
    #expect(markup == .ass)
    let rebuilt = SubtitleDocument(
      format: .ass, timedTexts: marked.map { ($0.startTime, $0.endTime, $0.text) })
    let document = try reader(file).document()
    #expect(
      rebuilt.cues.map { rebuilt.cueTree(of: $0) } == document.cues.map { document.cueTree(of: $0) }
    )
  }
}
