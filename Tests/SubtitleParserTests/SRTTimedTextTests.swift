import Testing

@testable import SubtitleParser

// SRT cue texts as an in-media stream delivers them (Matroska S_TEXT/UTF8 blocks): read as the
// same texts in an .srt file are.

@Test func timedSRTTextsAreReadAsAFilesCueTexts() throws {
  let texts: [(startTime: Double, endTime: Double, text: String)] = [
    (1, 2.5, "<i>Hello</i> world\nsecond line"), (3, 4, "{\\an8}top"),
    (5, 6, "{\\an7}{\\i1}left{\\i0} <b>third</b>"),
  ]
  let document = SubRip.document(timedTexts: texts)
  let file = try srt(
    "1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i> world\nsecond line\n\n"
      + "2\n00:00:03,000 --> 00:00:04,000\n{\\an8}top\n\n"
      + "3\n00:00:05,000 --> 00:00:06,000\n{\\an7}{\\i1}left{\\i0} <b>third</b>\n")
  #expect(document.format == .srt)
  #expect(document.cues.map { document.text(of: $0) } == file.cues.map { file.text(of: $0) })
  #expect(document.cues.map { document.text(of: $0) }[1] == "top")
  #expect(document.cues.map(\.settings) == file.cues.map(\.settings))
  #expect(document.cues[1].settings == SubRip.settings(forASSAlignment: 8))
  #expect(document.cues.map(\.startTime) == [1, 3, 5])
  #expect(document.cues.map(\.endTime) == [2.5, 4, 6])
  // The removed `{\i1}` is named, as in a file.
  #expect(document.diagnostics.count == file.diagnostics.count)
  #expect(document.diagnostics.contains { $0.reason.contains("{\\i1}") })
}

@Test func timedSRTTextsWithoutBracesAreKeptAsGiven() {
  let document = SubRip.document(timedTexts: [(0, 1, "a < b"), (1, 2, "")])
  #expect(document.cues.map { document.text(of: $0) } == ["a < b", ""])
  #expect(document.diagnostics.isEmpty)
  #expect(SubRip.document(timedTexts: []).cues.isEmpty)
}
