import Testing

@testable import SubtitleParser

/// The legacy single-byte code pages of `--encoding`. The expected values were taken from
/// Python's codecs (`cp1250`, `cp1251`, `cp1253`, `cp1254`, `iso8859_2`, `iso8859_5`,
/// `iso8859_7`, `koi8_r`), with bytes those leave unassigned read as the C1 control of the same
/// value (0x80 to 0x9F, as WHATWG does) or U+FFFD.
@Suite struct CodePageTests {
  /// An encoding, text in it, and what that text is.
  struct Spot: Sendable, CustomStringConvertible {
    var encoding: TextEncoding
    var bytes: [UInt8]
    var text: String
    var description: String { encoding.rawValue }
  }

  static let spots: [Spot] = [
    Spot(
      encoding: .windows1250, bytes: [0xA3, 0xF3, 0x9F, 0xE6, 0x8C, 0x80, 0xA5, 0x8E],
      text: "ŁóźćŚ€ĄŽ"),
    Spot(
      encoding: .windows1251,
      bytes: [
        0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, 0x2C, 0x20, 0xEC, 0xE8, 0xF0, 0x21, 0x20, 0x80, 0x90,
        0xB9, 0x88, 0xAF, 0xBF,
      ], text: "Привет, мир! Ђђ№€Її"),
    Spot(
      encoding: .windows1253,
      bytes: [0xCA, 0xE1, 0xEB, 0xE7, 0xEC, 0xDD, 0xF1, 0xE1, 0x20, 0xA2, 0xB8, 0x80],
      text: "Καλημέρα ΆΈ€"),
    Spot(
      encoding: .windows1254,
      bytes: [
        0xDD, 0x73, 0x74, 0x61, 0x6E, 0x62, 0x75, 0x6C, 0x20, 0xF0, 0xFC, 0xFE, 0xFD, 0xF6, 0xE7,
        0x20, 0xD0, 0x80,
      ], text: "İstanbul ğüşıöç Ğ€"),
    Spot(
      encoding: .isoLatin2,
      bytes: [0xA3, 0xF3, 0x64, 0xBC, 0x20, 0xA1, 0xA6, 0xAF, 0x20, 0xE8, 0xF8],
      text: "Łódź ĄŚŻ čř"),
    Spot(
      encoding: .isoCyrillic,
      bytes: [0xBF, 0xE0, 0xD8, 0xD2, 0xD5, 0xE2, 0x20, 0xF0, 0xA1, 0xF1, 0xA2],
      text: "Привет №ЁёЂ"),
    Spot(
      encoding: .isoGreek,
      bytes: [0xCA, 0xE1, 0xEB, 0xE7, 0xEC, 0xDD, 0xF1, 0xE1, 0x20, 0xB6, 0xB8, 0xA4, 0xA5],
      text: "Καλημέρα ΆΈ€₯"),
    Spot(
      encoding: .koi8R,
      bytes: [
        0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4, 0x2C, 0x20, 0xCD, 0xC9, 0xD2, 0x21, 0x20, 0xB3, 0xA3,
        0xA0,
      ], text: "Привет, мир! Ёё═"),
  ]

  @Test(arguments: spots)
  func spotChecks(spot: Spot) {
    let result = spot.encoding.transcode(spot.bytes)
    #expect(String(decoding: result.utf8, as: UTF8.self) == spot.text)
    #expect(result.diagnostics.isEmpty)
  }

  /// `h = h * 31 + code point` over bytes 0x80 to 0xFF, modulo 2^32, as Python computed it.
  static let checksums: [(TextEncoding, UInt32)] = [
    (.windows1250, 1_054_258_614), (.windows1251, 1_746_477_756),
    (.windows1253, 3_160_047_858), (.windows1254, 1_493_409_314),
    (.isoLatin2, 3_969_021_669), (.isoCyrillic, 1_434_866_820),
    (.isoGreek, 1_019_939_404), (.koi8R, 2_706_884_444),
  ]

  @Test(arguments: checksums)
  func wholeTableChecksum(encoding: TextEncoding, expected: UInt32) {
    let high = (0x80...0xFF).map { UInt8($0) }
    let decoded = String(decoding: encoding.transcode(high).utf8, as: UTF8.self)
    let scalars = decoded.unicodeScalars.map(\.value)
    #expect(scalars.count == 128)
    var hash: UInt32 = 0
    for value in scalars { hash = hash &* 31 &+ value }
    #expect(hash == expected)
    // ASCII is ASCII.
    let ascii = (0..<0x80).map { UInt8($0) }
    #expect(encoding.transcode(ascii).utf8 == ascii)
  }

  @Test func unassignedBytesBecomeReplacementsWithDiagnostics() {
    // windows-1253 leaves 0xAA, 0xD2 and 0xFF unassigned; ISO-8859-7 0xAE, 0xD2 and 0xFF.
    let result = TextEncoding.windows1253.transcode([0x41, 0xAA, 0x0A, 0xD2, 0xFF, 0xE1])
    #expect(String(decoding: result.utf8, as: UTF8.self) == "A\u{FFFD}\n\u{FFFD}\u{FFFD}α")
    #expect(result.diagnostics.map(\.line) == [1, 2])
    #expect(result.diagnostics.map(\.count) == [1, 2])
    #expect(result.diagnostics.first?.reason.contains("0xAA") == true)
    let greek = TextEncoding.isoGreek.transcode([0xAE, 0xD2, 0xFF])
    #expect(String(decoding: greek.utf8, as: UTF8.self) == "\u{FFFD}\u{FFFD}\u{FFFD}")
    // An unassigned 0x98 in windows-1251 is the C1 control, as WHATWG reads it.
    #expect(
      String(decoding: TextEncoding.windows1251.transcode([0x98]).utf8, as: UTF8.self) == "\u{98}")
  }

  @Test(arguments: [
    ("windows-1251", TextEncoding.windows1251), ("CP1251", .windows1251),
    ("win-1250", .windows1250),
    ("cp1253", .windows1253), ("cp1254", .windows1254), ("latin2", .isoLatin2),
    ("ISO-8859-2", .isoLatin2), ("iso_8859-5", .isoCyrillic), ("cyrillic", .isoCyrillic),
    ("ISO-8859-7", .isoGreek), ("greek", .isoGreek), ("KOI8-R", .koi8R), ("koi8r", .koi8R),
    ("ISO-8859-15", .isoLatin9), ("latin-9", .isoLatin9),
  ])
  func namesAndAliases(name: String, encoding: TextEncoding) throws {
    #expect(try TextEncoding(name: name) == encoding)
    // Every encoding's own name finds it.
    #expect(try TextEncoding(name: encoding.rawValue) == encoding)
  }

  /// A windows-1251 SRT file read with the encoding forced, as `--encoding cp1251` does.
  @Test func windows1251SubtitlesParse() throws {
    var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
    bytes += [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, 0x0A]
    let document = try SubtitleFile.parse(bytes, format: .srt, encoding: .windows1251)
    #expect(document.cues.map { document.text(of: $0) } == ["Привет"])
    #expect(document.diagnostics.isEmpty)
  }
}
