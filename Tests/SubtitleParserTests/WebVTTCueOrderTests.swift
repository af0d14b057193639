import Testing

@testable import SubtitleParser

/// WebVTT requires cues in order of non-decreasing start time; SRT files do not always keep it.
@Suite struct WebVTTCueOrderTests {
  static let outOfOrder = Array(
    """
    1
    00:00:05,000 --> 00:00:06,000
    third

    2
    00:00:01,000 --> 00:00:02,000
    first

    3
    00:00:05,000 --> 00:00:07,000
    fourth, same start as third

    4
    00:00:03,000 --> 00:00:04,000
    second

    """.utf8)

  @Test func webVTTIsWrittenInStableStartTimeOrder() throws {
    let source = try SubRip.parse(Self.outOfOrder)
    let vtt = try WebVTT.parse(source.webVTT())
    #expect(
      vtt.cues.map { vtt.text(of: $0) } == [
        "first", "second", "third", "fourth, same start as third",
      ]
    )
    #expect(vtt.cues.map { vtt.id(of: $0) } == ["2", "4", "1", "3"])
  }

  @Test func theConversionKeepsCuePositionsAndSaysItReorders() throws {
    let source = try SubRip.parse(Self.outOfOrder)
    let converted = source.converted(to: .webVTT)
    // Position for position with the source, so indices into one fit the other.
    #expect(
      converted.cues.map { converted.text(of: $0) } == [
        "third", "first", "fourth, same start as third", "second",
      ])
    let notes = converted.diagnostics.filter { $0.reason.contains("start-time order") }
    #expect(notes.count == 1)
    #expect(notes.first?.line == 6)
    #expect(notes.first?.reason.hasPrefix("2 cue(s)") == true)
  }

  @Test func cuesInOrderAreWrittenAsTheyAreWithoutANote() throws {
    let source = try SubRip.parse(
      Array(
        "1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:01,000 --> 00:00:03,000\nB\n\n3\n00:00:04,000 --> 00:00:05,000\nC\n"
          .utf8))
    #expect(SubtitleDocument.startTimeOrder(of: source.cues) == nil)
    let converted = source.converted(to: .webVTT)
    #expect(converted.diagnostics.isEmpty)
    let vtt = try WebVTT.parse(converted.webVTT())
    #expect(vtt.cues.map { vtt.text(of: $0) } == ["A", "B", "C"])
  }

  @Test func srtIsWrittenInFileOrder() throws {
    let source = try SubRip.parse(Self.outOfOrder)
    let again = try SubRip.parse(source.srt())
    #expect(again.cues.map { again.text(of: $0) } == source.cues.map { source.text(of: $0) })
  }
}
