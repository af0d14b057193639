import Foundation
import Testing

@testable import SubtitleParser

/// SRT files in the legacy code pages subtitles are found in, without a byte order mark or a
/// forced encoding: each is read in its code page, detected from its letters, with one
/// diagnostic naming it. The fixtures (Tests/Fixtures/codepages, from
/// Scripts/make-codepage-fixtures.py) hold five short cues each, and a UTF-8 copy to compare.
@Suite struct CodePageDetectionTests {
  static func fixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/codepages/\(name)")
    return [UInt8](try Data(contentsOf: url))
  }

  static func texts(_ document: SubtitleDocument) -> [String] {
    document.cues.map { document.text(of: $0) }
  }

  /// A fixture and the encoding it must be read in.
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var encoding: TextEncoding
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "pl-windows-1250", encoding: .windows1250),
    // Two letters of 105 outside ASCII (č, ř, besides ě and š): windows-1252 would read è, ø.
    Case(name: "cs-few-windows-1250", encoding: .windows1250),
    Case(name: "cs-iso-8859-2", encoding: .isoLatin2),
    Case(name: "hu-windows-1250", encoding: .windows1250),
    Case(name: "ru-windows-1251", encoding: .windows1251),
    Case(name: "ru-koi8-r", encoding: .koi8R),
    Case(name: "bg-windows-1251", encoding: .windows1251),
    Case(name: "uk-windows-1251", encoding: .windows1251),
    Case(name: "sr-windows-1251", encoding: .windows1251),
    Case(name: "el-windows-1253", encoding: .windows1253),
    Case(name: "el-iso-8859-7", encoding: .isoGreek),
    Case(name: "tr-windows-1254", encoding: .windows1254),
    Case(name: "fr-windows-1252", encoding: .windows1252),
  ]

  @Test(arguments: cases)
  func aCodePageIsDetected(_ item: Case) throws {
    let bytes = try Self.fixture(item.name + ".srt")
    let document = try SubtitleFile.parse(bytes)
    let reference = try SubtitleFile.parse(try Self.fixture(item.name + ".utf8.srt"))
    #expect(reference.diagnostics.isEmpty)
    #expect(Self.texts(document) == Self.texts(reference))
    #expect(document.cues.count == 5)
    #expect(document.diagnostics.count == 1)
    let bad = try #require(TextEncoding.firstInvalidUTF8(in: bytes))
    #expect(
      document.diagnostics.first?.reason
        == "invalid UTF-8 (byte 0x\(hex(bytes[bad]))); the file is read as \(item.encoding.rawValue)"
    )
    #expect(document.diagnostics.first?.offset == bad)
    // The same as SSA/ASS events, which old files also write in their ANSI code page.
    let forced = try SubtitleFile.parse(bytes, encoding: item.encoding)
    #expect(forced.diagnostics.isEmpty)
    #expect(Self.texts(forced) == Self.texts(reference))
  }

  /// `--encoding` (a forced encoding) still decides, even when it is the wrong one.
  @Test func aForcedEncodingOverridesDetection() throws {
    let bytes = try Self.fixture("ru-windows-1251.srt")
    let forced = try SubtitleFile.parse(bytes, encoding: .koi8R)
    #expect(forced.diagnostics.isEmpty)
    #expect(forced.text(of: forced.cues[0]).hasPrefix("ъ МЕ ГМЮЧ"))
    let detected = try SubtitleFile.parse(bytes)
    #expect(detected.text(of: detected.cues[0]) == "Я не знаю, что произошло вчера.")
  }

  /// Double-byte encodings are not read: refused as before, saying where, never read as a
  /// single-byte code page.
  @Test(arguments: ["cjk-shift-jis", "cjk-gb18030", "cjk-big5", "cjk-euc-kr"])
  func aDoubleByteFileIsRefused(_ name: String) throws {
    let bytes = try Self.fixture(name + ".srt")
    #expect(throws: SubtitleError.undetectedEncoding(line: 3, offset: 34)) {
      try SubtitleFile.parse(bytes)
    }
  }

  /// A one-cue file of short CJK text, as a player's charset tests have them: too few
  /// letters for the code pages' statistics (the GB18030 line reads as plausible ISO-8859-5,
  /// the EUC-KR one as windows-1251), but its bytes come in pairs, every run of them even,
  /// which a single-byte code page's words are not. Refused, never read as Cyrillic.
  @Test(
    arguments: [
      // GB18030: one run of 18 bytes (nine characters, no space).
      [
        0xD5, 0xE2, 0xCA, 0xC7, 0xD2, 0xBB, 0xB8, 0xF6, 0xD7, 0xD6, 0xC4, 0xBB, 0xB2, 0xE2,
        0xCA, 0xD4, 0xA1, 0xA3,
      ],
      // EUC-KR: four words of two to seven characters.
      [
        0xC0, 0xCC, 0xB0, 0xCD, 0xC0, 0xBA, 0x20, 0xC7, 0xD1, 0xB1, 0xB9, 0xBE, 0xEE, 0x20,
        0xC0, 0xDA, 0xB8, 0xB7, 0x20, 0xC5, 0xD7, 0xBD, 0xBA, 0xC6, 0xAE, 0xC0, 0xD4, 0xB4,
        0xCF, 0xB4, 0xD9, 0x2E,
      ],
    ] as [[UInt8]])
  func aShortDoubleByteCueIsRefused(_ text: [UInt8]) throws {
    let bytes = Array("1\r\n00:00:00,000 --> 00:00:05,000\r\n".utf8) + text + [0x0D, 0x0A]
    #expect(throws: SubtitleError.undetectedEncoding(line: 3, offset: 34)) {
      try SubtitleFile.parse(bytes)
    }
  }

  /// Cyrillic words of odd and even lengths are still read in their code page, and Latin
  /// text whose accented letters come in twos (`süß`) in windows-1252: only bytes that all
  /// pair up, in runs of two characters or more, are taken for a double-byte encoding.
  @Test(arguments: [
    ("Привет, как дела у тебя сегодня?", TextEncoding.windows1251),
    ("Größe, Füße, süß, Grüße", TextEncoding.windows1252),
  ])
  func shortSingleByteCuesAreStillRead(text: String, encoding: TextEncoding) throws {
    let bytes =
      Array("1\n00:00:00,000 --> 00:00:05,000\n".utf8) + TestCodePages.encode(text, encoding)
      + [0x0A]
    let document = try SubtitleFile.parse(bytes)
    #expect(Self.texts(document) == [text])
  }

  /// A UTF-8 file with one cue in windows-1251: the UTF-8 stays, the cue is read as
  /// windows-1251 (as a windows-1252 line is read as windows-1252).
  @Test func aWindows1251CueInAUTF8File() throws {
    let name = "ru-utf8-with-windows-1251-cue"
    let document = try SubtitleFile.parse(try Self.fixture(name + ".srt"))
    let reference = try SubtitleFile.parse(try Self.fixture(name + ".utf8.srt"))
    #expect(Self.texts(document) == Self.texts(reference))
    #expect(
      document.diagnostics.map(\.reason) == [
        "invalid UTF-8 (byte 0xCF); such bytes are read as windows-1251, the rest of the file"
          + " as UTF-8"
      ])
  }

  /// windows-1251 letters form valid UTF-8 pairs now and then (`Ці` is U+05B3): next to other
  /// bytes of the code page, or few among many, they are read in the code page too.
  @Test func lettersThatLookLikeUTF8AreReadInTheCodePage() throws {
    let text = "Ці слова. Він каже, що все добре, і ми підемо разом додому."
    let head = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
    let bytes = head + TestCodePages.encode(text, .windows1251) + [0x0A]
    #expect(TextEncoding.firstInvalidUTF8(in: bytes) != nil)
    let document = try SubtitleFile.parse(bytes)
    #expect(document.text(of: document.cues[0]) == text)
    #expect(document.diagnostics.count == 1)
  }

  /// Text that no code page reads clearly better than windows-1252 stays windows-1252: a single
  /// è could be Czech č, but is read as it always was.
  @Test func anAmbiguousFileStaysWindows1252() throws {
    let bytes = Array("1\n00:00:01,000 --> 00:00:02,000\nTr".utf8) + [0xE8] + Array("s bien\n".utf8)
    let document = try SubtitleFile.parse(bytes)
    #expect(document.text(of: document.cues[0]) == "Très bien")
    #expect(
      document.diagnostics.map(\.reason) == [
        "invalid UTF-8 (byte 0xE8); the file is read as windows-1252"
      ])
  }
}

/// Encodes text in a code page through its table (the inverse of `TextEncoding.transcode`).
enum TestCodePages {
  static func encode(_ text: String, _ encoding: TextEncoding) -> [UInt8] {
    var inverse: [UInt32: UInt8] = [:]
    for b in UInt8(0x80)...0xFF {
      let scalar =
        encoding.highTable.map { UInt32($0[Int(b - 0x80)]) }
        ?? UInt32(encoding.scalar(forHighByte: b))
      inverse[scalar] = b
    }
    return text.unicodeScalars.map { $0.value < 0x80 ? UInt8($0.value) : inverse[$0.value] ?? 0x3F }
  }
}
