import SubtitleParser
import Testing

@Test func cueSettingsHaveIDLDefaults() {
  let settings = CueSettings()
  #expect(settings.vertical.rawValue == "")
  #expect(settings.line == nil)
  #expect(settings.snapToLines)
  #expect(settings.lineAlign == .start)
  #expect(settings.position == nil)
  #expect(settings.positionAlign == .auto)
  #expect(settings.size == 100)
  #expect(settings.align == .center)
}

@Test func documentSlicesTextLazily() {
  let bytes = Array("id1hello".utf8)
  let cue = Cue(idRange: 0..<3, textRange: 3..<8, startTime: 1, endTime: 2)
  let document = SubtitleDocument(format: .webVTT, text: bytes, cues: [cue])
  #expect(document.id(of: cue) == "id1")
  #expect(document.text(of: cue) == "hello")
}

@Test func shiftsClampAtZeroAndAtTheLargestTimestamp() throws {
  let document = try WebVTT.parse(
    Array("WEBVTT\n\n00:05.000 --> 00:01.000\nbackwards\n\n00:06.000 --> 00:07.000\nx\n".utf8))
  // A cue written to end before it starts: the shift leaves its start at 3 s and its end
  // before 0, which is clamped (it used to stay at -1 s without a word).
  let earlier = document.shifted(by: -2)
  #expect(earlier.cues[0].startTime == 3)
  #expect(earlier.cues[0].endTime == 0)
  #expect(earlier.diagnostics.count == 1)
  // A shift past 2^53 ms (or one whose product overflows) clamps there instead of producing
  // infinite or unprintable times.
  for shift in [1e17, 1e306] {
    let later = document.shifted(by: shift)
    #expect(later.cues.allSatisfy { $0.startTime == 9_007_199_254_740.992 })
    #expect(later.diagnostics.count == 2)
    // (The SRT writer's own ceiling is 999,999,999 hours.)
    #expect(later.srtString().contains("999999999:00:00,000 --> "), "\(later.srtString())")
  }
}

@Test func hugeWebVTTTimesSurviveWritingAndReading() throws {
  // The parser reads timestamps up to 2^53 ms; the writer clamped at 999,999,999 hours, so
  // a cue at 2,000,000,000 hours came back as a zero-length cue at half that time.
  let source =
    "WEBVTT\n\n2000000000:00:00.000 --> 2000000001:00:00.000\nx\n\n"
    + "2501999792:59:00.991 --> 2501999792:59:00.992\nlargest\n"
  let document = try WebVTT.parse(Array(source.utf8))
  #expect(document.cues.count == 2)
  let again = try WebVTT.parse(document.webVTT())
  #expect(again.cues.map(\.startTime) == document.cues.map(\.startTime))
  #expect(again.cues.map(\.endTime) == document.cues.map(\.endTime))
  #expect(again.cues[1].endTime == 9_007_199_254_740.992)
}

@Test func timedTextsBecomeADocumentInOneCall() {
  let document = SubtitleDocument(
    timedTexts: [
      (startTime: 1, endTime: 2.5, text: "<i>one</i>"),
      (startTime: 0.5, endTime: 4, text: "two\nlines"),
    ])
  #expect(document.format == .srt)
  #expect(document.cues.map(\.startTime) == [1, 0.5])
  #expect(document.cues.map(\.endTime) == [2.5, 4])
  #expect(document.text(of: document.cues[1]) == "two\nlines")
  #expect(document.plainText(of: document.cues[0]) == "one")
  #expect(document.diagnostics.isEmpty)
  let timeline = CueTimeline(cues: document.cues)
  #expect(timeline.active(at: 1.5) == [1, 0])
  // The texts read as the markup they are written in.
  let webVTT = SubtitleDocument(format: .webVTT, timedTexts: [(0, 1, "a &amp; b")])
  #expect(webVTT.plainText(of: webVTT.cues[0]) == "a & b")
  #expect(webVTT.srtString() == "1\n00:00:00,000 --> 00:00:01,000\na & b\n")
}
