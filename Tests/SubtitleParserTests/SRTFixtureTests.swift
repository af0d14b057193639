import Foundation
import Testing

@testable import SubtitleParser

/// The bytes of `Tests/Fixtures/subtitles/<name>`.
func subtitleFixture(_ name: String) throws -> [UInt8] {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/subtitles/\(name)")
  return [UInt8](try Data(contentsOf: url))
}

/// The bytes of `Tests/Fixtures/subtitles-wild/<name>` (`Scripts/make-wild-srt.py`).
func wildSubtitleFixture(_ name: String) throws -> [UInt8] {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/subtitles-wild/\(name)")
  return [UInt8](try Data(contentsOf: url))
}

@Test func messyFixtureParsesWithEveryRepairReported() throws {
  let document = try SubtitleFile.parse(try subtitleFixture("messy.srt"))
  #expect(document.format == .srt)
  #expect(
    summary(document) == [
      "1|1.0|2.5|<i>Plain</i> & <font color=\"#FF0000\">red</font>",
      "|3.005|4.025|no number, dot separators, short milliseconds",
      // The stray text after a blank line is the cue's, as FFmpeg's demuxer reads it.
      "3|5.0|6.0|top, after a missing blank line\nstray text between cues",
      "9|3723.004|3724.005|bottom left\ntwo lines",
    ])
  #expect(document.cues[2].settings == SubRip.settings(forASSAlignment: 8))
  #expect(document.cues[3].settings == SubRip.settings(forASSAlignment: 1))
  let lines = document.diagnostics.map(\.line)
  #expect(lines == lines.sorted())
  #expect(document.diagnostics.count == 11)
  #expect(document.diagnostics.last?.reason == "hours field too large; cue skipped")
  // Writing and reading again keeps every cue and needs no more repairs.
  let again = try SubRip.parse(document.srt())
  #expect(meanings(again, ids: false) == meanings(document, ids: false))
  #expect(again.diagnostics.isEmpty)
}

@Test(arguments: [
  "basic-crlf-bom.srt", "basic-cr.srt", "basic-utf16le.srt", "basic-utf16be.srt",
  "basic-windows-1252.srt",
])
func basicFixtureInEveryEncoding(name: String) throws {
  let document = try SubtitleFile.parse(try subtitleFixture(name))
  #expect(
    summary(document) == [
      "1|0.5|1.5|Grüße, <b>Welt</b>!", "2|2.0|3.0|Zweite Zeile\nmit Umbruch",
    ])
  let fellBack = document.diagnostics.contains { $0.reason.contains("windows-1252") }
  #expect(fellBack == (name == "basic-windows-1252.srt"))
  #expect(document.diagnostics.count == (fellBack ? 1 : 0))
}

@Test func forcedLatin9Fixture() throws {
  let bytes = try subtitleFixture("euro-latin9.srt")
  let latin9 = try SubtitleFile.parse(bytes, encoding: TextEncoding(name: "latin9"))
  #expect(latin9.text(of: latin9.cues[0]) == "Preis: 5 €")
  let guessed = try SubtitleFile.parse(bytes)
  #expect(guessed.text(of: guessed.cues[0]) == "Preis: 5 ¤")
}

@Test func styledWebVTTFixtureToSRT() throws {
  let vtt = try SubtitleFile.parse(try subtitleFixture("styled.vtt"))
  #expect(vtt.format == .webVTT)
  let srt = vtt.converted(to: .srt)
  #expect(
    srt.srtString() == """
      1
      00:00:01,000 --> 00:00:02,000
      {\\an7}<i>top left</i> & more

      2
      00:00:03,000 --> 00:00:04,000
      {\\an6}<font color="yellow">middle right</font>

      3
      00:00:05,000 --> 00:00:06,000
      no SRT equivalent

      """)
  let reasons = srt.diagnostics.map(\.reason)
  #expect(reasons.contains { $0.contains("position:20% size:50%") })
  #expect(reasons.contains("<v> markup dropped (not in SRT)"))
}

@Test func notSubtitlesFixtureIsRejected() throws {
  let bytes = try subtitleFixture("not-subtitles.txt")
  #expect(throws: SubtitleError.self) { try SubtitleFile.parse(bytes) }
  #expect(throws: SubtitleError.self) { try SubtitleFile.parse(bytes, format: .webVTT) }
  #expect(throws: SubtitleError.self) { try SubtitleFile.parse(bytes, format: .srt) }
}
