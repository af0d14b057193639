import Foundation
import Testing

@testable import SubtitleParser

// Timing lines as real files write them, read as FFmpeg's SRT demuxer or Media3's
// `SubripParser` read them, each repair a diagnostic that says what the time was read as.

/// The reasons of `document`'s diagnostics, each with its line.
private func reasons(_ document: SubtitleDocument) -> [String] {
  document.diagnostics.map { "\($0.line): \($0.reason)" }
}

@Test func threeDigitSecondsAreReadByValueWithADiagnostic() throws {
  let document = try SubRip.parse(
    Array(
      "5\n00:00:013,567 --> 00:00:14,901\nFifth\n\n6\n00:00:015,567 --> 00:00:015,901\nx\n".utf8))
  #expect(document.cues.map(\.startTime) == [13.567, 15.567])
  #expect(document.cues.map(\.endTime) == [14.901, 15.901])
  #expect(
    reasons(document) == [
      "1: cue number 5 out of sequence (expected 1)",
      "2: minutes or seconds not two digits wide; read as 00:00:13,567 --> 00:00:14,901",
      "6: minutes or seconds not two digits wide; read as 00:00:15,567 --> 00:00:15,901",
    ])
}

/// Seconds or minutes of 60 and more are added as given, as both readers add them: 75 s is
/// 1 min 15 s. The diagnostic shows the time so read.
@Test func fieldsOf60OrMoreAreAddedAndShown() throws {
  let document = try SubRip.parse(
    Array("1\n00:00:75,000 --> 00:00:076,500\nA\n\n2\n00:75:00,000 --> 01:15:01,000\nB\n".utf8))
  #expect(document.cues.map(\.startTime) == [75, 4500])
  #expect(document.cues.map(\.endTime) == [76.5, 4501])
  #expect(
    reasons(document) == [
      "2: minutes or seconds not two digits wide; read as 00:01:15,000 --> 00:01:16,500",
      "2: minutes or seconds of 60 or more, added as given; read as 00:01:15,000 --> 00:01:16,500",
      "6: minutes or seconds of 60 or more, added as given; read as 01:15:00,000 --> 01:15:01,000",
    ])
}

@Test func millisecondFieldsAreACountOfMilliseconds() throws {
  let document = try SubRip.parse(
    Array("1\n00:00:01,5 --> 00:00:01,50\nA\n\n2\n00:00:01,1234 --> 00:00:03,000000\nB\n".utf8))
  #expect(document.cues.map(\.startTime) == [1.005, 2.234])
  #expect(document.cues.map(\.endTime) == [1.05, 3])
  #expect(
    reasons(document) == [
      "2: fewer than 3 millisecond digits, read as milliseconds",
      "6: more than 3 millisecond digits, read as milliseconds; read as 00:00:02,234 --> 00:00:03,000",
    ])
}

@Test func spacingSeparatorsAndMissingPartsAreRepairs() throws {
  let document = try SubRip.parse(
    Array(
      ("1\n00: 00: 01, 000 --> 00: 00: 02, 000\nA\n\n2\n00:00:03.000-->00:00:04.000\nB\n\n"
        + "3\n05:00 --> 06:00\nC\n\n4\n00:00:07 --> 00:00:08\nD\n").utf8))
  #expect(document.cues.map(\.startTime) == [1, 3, 300, 7])
  #expect(
    reasons(document) == [
      "2: spaces inside a timestamp ignored",
      "6: '.' before the milliseconds read as ','",
      "6: spacing around '-->' other than one space on each side",
      "10: timestamp without hours read as MM:SS",
      "10: timestamp without milliseconds",
      "14: timestamp without milliseconds",
    ])
}

/// What neither reader takes is text, never a timing line: inside a cue it stays the cue's
/// text; alone it makes no cue.
@Test(arguments: [
  "00:00:03,000 -> 00:00:04,000", "00:00:03:000 --> 00:00:04:000",
  "00.00.03,000 --> 00.00.04,000", "00 :00:03,000 --> 00:00:04,000", "00:00:03,000 --> ",
  "--> 00:00:04,000", "0x:00:03,000 --> 00:00:04,000", "10:30 --> 11:45 at the station",
  "-00:00:01,000 --> 00:00:02,000", "00:00:01,000 --> +00:00:02,000", "00:00:01 --> 00:00:02 x",
  "01:02 --> 01:03 X1:1 X2:2 Y1:3 Y2:4", "05: 00 --> 06: 00", "00:00:01, --> 00:00:02,000",
])
func lookAlikesStayText(line: String) throws {
  let document = try SubRip.parse(Array("1\n00:00:01,000 --> 00:00:02,000\nA\n\(line)\n".utf8))
  #expect(document.cues.count == 1)
  #expect(document.text(of: document.cues[0]) == "A\n" + line)
  #expect(throws: SubtitleError.self) { try SubRip.parse(Array("1\n\(line)\nText\n".utf8)) }
}

/// A WebVTT timing line without hours, settings and all, in a file renamed to `.srt`.
@Test func webVTTTimingLinesWithoutHoursAreRead() throws {
  let document = try SubRip.parse(
    Array("1\n01:02.500 --> 01:03.000 align:start line:0\nA\n".utf8))
  #expect(document.cues.map(\.startTime) == [62.5])
  #expect(
    reasons(document) == [
      "2: timestamp without hours read as MM:SS", "2: '.' before the milliseconds read as ','",
      "2: text after the end time ignored",
    ])
}

/// A field of more than nine digits gives no time: the cue is skipped, the next one stays.
@Test func absurdFieldsSkipTheCue() throws {
  let document = try SubRip.parse(
    Array(
      ("1\n00:00:1234567890,000 --> 00:00:1234567891,000\nA\n\n"
        + "2\n00:00:01,0000000001 --> 00:00:02,000\nB\n\n3\n00:00:05,000 --> 00:00:06,000\nC\n")
        .utf8))
  #expect(document.cues.map(\.startTime) == [5])
  #expect(
    document.diagnostics.filter { $0.reason.hasSuffix("cue skipped") }.map(\.line) == [2, 6])
}

/// The writer keeps a cue-text line that reads as a timing line in the wider forms (here once
/// its override block is removed) from becoming one.
@Test func writtenSRTKeepsWildLookingTextAsText() throws {
  let document = try SubRip.parse(
    Array("1\n00:00:01,000 --> 00:00:02,000\nA\n{\\b1}00:00:013,567 --> 00:00:14,901\n".utf8))
  #expect(document.text(of: document.cues[0]) == "A\n00:00:013,567 --> 00:00:14,901")
  let again = try SubRip.parse(document.srt())
  #expect(again.cues.count == 1)
  #expect(again.text(of: again.cues[0]).hasSuffix("00:00:013,567 --> 00:00:14,901"))
}

/// `../shared/realworld/subrip_typical_with_tags` beside the repository, if there.
private let realWorldSubrip: [UInt8]? = {
  var root = #filePath
  while let slash = root.lastIndex(of: "/"), !root.hasSuffix("/Tests") {
    root = String(root[..<slash])
  }
  let path =
    URL(fileURLWithPath: String(root.dropLast("/Tests".count))).deletingLastPathComponent().path
    + "/shared/realworld/subrip_typical_with_tags"
  return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}()

/// The Media3 test file that shows the class: 14 cues, as Media3 and FFmpeg read it.
@Test(
  .enabled(
    if: realWorldSubrip != nil,
    "../shared/realworld/subrip_typical_with_tags is not beside the repository"))
func realWorldSubripWithThreeDigitSeconds() throws {
  let bytes = try #require(realWorldSubrip)
  let document = try SubtitleFile.parse(bytes, pathExtension: "")
  #expect(document.format == .srt)
  #expect(document.cues.count == 14)
  #expect(document.cues.last?.startTime == 24.567)
  #expect(document.cues.last?.settings == SubRip.settings(forASSAlignment: 9))
  #expect(
    document.diagnostics.filter { $0.reason.hasPrefix("minutes or seconds not two") }.count == 10)
}
