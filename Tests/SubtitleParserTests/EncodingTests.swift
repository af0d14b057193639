import Testing

@testable import SubtitleParser

@Test func detectsByteOrderMarks() {
  #expect(TextEncoding.detect([0xEF, 0xBB, 0xBF, 0x31]) == (.utf8, 3))
  #expect(TextEncoding.detect([0xFF, 0xFE, 0x31, 0x00]) == (.utf16LE, 2))
  #expect(TextEncoding.detect([0xFE, 0xFF, 0x00, 0x31]) == (.utf16BE, 2))
  #expect(TextEncoding.detect([0x31, 0x00, 0x0A, 0x00]) == (.utf16LE, 0))
  #expect(TextEncoding.detect([0x00, 0x31, 0x00, 0x0A]) == (.utf16BE, 0))
  #expect(TextEncoding.detect(Array("1\n00".utf8)) == (.utf8, 0))
}

func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> [UInt8] {
  var out: [UInt8] = []
  let units = (bom ? [0xFEFF] : []) + Array(text.utf16)
  for u in units {
    let hi = UInt8(u >> 8)
    let lo = UInt8(u & 0xFF)
    out += bigEndian ? [hi, lo] : [lo, hi]
  }
  return out
}

@Test(arguments: [false, true])
func utf16RoundTripsToUTF8(bigEndian: Bool) {
  let text = "1\n00:00:01,000 --> 00:00:02,000\nÄpfel 😀 €\n"
  let encoding: TextEncoding = bigEndian ? .utf16BE : .utf16LE
  let result = encoding.transcode(utf16(text, bigEndian: bigEndian, bom: true))
  #expect(result.utf8 == Array(text.utf8))
  #expect(result.diagnostics.isEmpty)
}

@Test func unpairedSurrogatesBecomeReplacementCharacters() {
  // "a", lone high surrogate, "b", lone low surrogate, odd trailing byte.
  let bytes: [UInt8] = [0x61, 0x00, 0x00, 0xD8, 0x62, 0x00, 0x00, 0xDC, 0x63]
  let result = TextEncoding.utf16LE.transcode(bytes)
  #expect(String(decoding: result.utf8, as: UTF8.self) == "a\u{FFFD}b\u{FFFD}\u{FFFD}")
  // The two unpaired halves on one line are one diagnostic with a count of 2.
  #expect(result.diagnostics.map(\.offset) == [2, 8])
  #expect(result.diagnostics.map(\.count) == [2, 1])
}

@Test func singleByteTables() {
  let bytes: [UInt8] = [0x41, 0x80, 0x93, 0x94, 0xA4, 0xBD, 0xE9]
  #expect(
    String(decoding: TextEncoding.windows1252.transcode(bytes).utf8, as: UTF8.self)
      == "A€\u{201C}\u{201D}¤½é")
  #expect(
    String(decoding: TextEncoding.isoLatin1.transcode(bytes).utf8, as: UTF8.self)
      == "A\u{80}\u{93}\u{94}¤½é")
  #expect(
    String(decoding: TextEncoding.isoLatin9.transcode(bytes).utf8, as: UTF8.self)
      == "A\u{80}\u{93}\u{94}€œé")
  // Every byte decodes to valid UTF-8 in every single-byte table.
  let all = (0...255).map { UInt8($0) }
  for encoding in [TextEncoding.windows1252, .isoLatin1, .isoLatin9] {
    let out = encoding.transcode(all).utf8
    #expect(TextEncoding.firstInvalidUTF8(in: out) == nil)
    #expect(String(decoding: out, as: UTF8.self).unicodeScalars.count == 256)
  }
}

@Test func utf8ValidationMatchesStandardLibrary() {
  var rng = SplitMix(seed: 7)
  let pieces: [[UInt8]] = [
    Array("ab".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0x80], [0xC0, 0x80],
    [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0], [0xE2, 0x82],
    Array(repeating: 0x41, count: 40),
  ]
  for _ in 0..<500 {
    var bytes: [UInt8] = []
    for _ in 0..<Int(rng.next() % 8) { bytes += pieces[Int(rng.next() % UInt64(pieces.count))] }
    let valid = String(validating: bytes, as: UTF8.self) != nil
    #expect((TextEncoding.firstInvalidUTF8(in: bytes) == nil) == valid)
    let repaired = TextEncoding.utf8.transcode(bytes)
    #expect(repaired.utf8 == Array(String(decoding: bytes, as: UTF8.self).utf8))
    #expect(repaired.diagnostics.isEmpty == valid)
  }
}

@Test func encodingNames() throws {
  #expect(try TextEncoding(name: "utf8") == .utf8)
  #expect(try TextEncoding(name: "UTF-16BE") == .utf16BE)
  #expect(try TextEncoding(name: "cp1252") == .windows1252)
  #expect(try TextEncoding(name: "latin-9") == .isoLatin9)
  #expect(throws: SubtitleError.unknownEncoding("klingon")) { try TextEncoding(name: "klingon") }
}

@Test func srtInWindows1252FallsBackWithDiagnostic() throws {
  let bytes: [UInt8] = Array("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8) + [0xE9] + [0x0A]
  let document = try SubtitleFile.parse(bytes)
  #expect(document.format == .srt)
  #expect(document.cues.count == 1)
  #expect(document.text(of: document.cues[0]) == "Café")
  #expect(document.diagnostics.first?.line == 3)
  #expect(document.diagnostics.first?.reason.contains("windows-1252") == true)
}

@Test func utf16SRTWithBOMParses() throws {
  let text = "1\r\n00:00:01,000 --> 00:00:02,500\r\nGrüße\r\n"
  let document = try SubtitleFile.parse(utf16(text, bigEndian: false, bom: true))
  #expect(document.cues.count == 1)
  #expect(document.text(of: document.cues[0]) == "Grüße")
  #expect(document.cues[0].endTime == 2.5)
  #expect(document.diagnostics.isEmpty)
}

@Test func forcedEncodingIsUsed() throws {
  let bytes: [UInt8] = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8) + [0xA4, 0x0A]
  let latin9 = try SubtitleFile.parse(bytes, encoding: .isoLatin9)
  #expect(latin9.text(of: latin9.cues[0]) == "€")
  let latin1 = try SubtitleFile.parse(bytes, encoding: .isoLatin1)
  #expect(latin1.text(of: latin1.cues[0]) == "¤")
}

@Test func aUTF8ByteOrderMarkBeforeWindows1252TextIsSkipped() throws {
  // Some editors save single-byte text with a UTF-8 byte order mark: it must not become `ï»¿`
  // in front of the first cue number.
  let bytes: [UInt8] =
    [0xEF, 0xBB, 0xBF] + Array("1\r\n00:00:01,000 --> 00:00:02,000\r\ncaf".utf8)
    + [0xE9, 0x0D, 0x0A]
  let document = try SubtitleFile.parse(bytes)
  #expect(document.id(of: document.cues[0]) == "1")
  #expect(document.text(of: document.cues[0]) == "caf\u{E9}")
  #expect(document.diagnostics.count == 1)
  let forced = try SubtitleFile.parse(bytes, encoding: .windows1252)
  #expect(forced.id(of: forced.cues[0]) == "1")
}

@Test func encodingDiagnosticsCountCROnlyLines() throws {
  // Lines end at CR as the parsers count them; the transcoders counted only LF and put every
  // fault of a CR-only file on line 1.
  for ending in ["\r", "\r\n", "\n"] {
    let lines = ["WEBVTT", "", "00:01.000 --> 00:02.000", "A"]
    let head = Array((lines.joined(separator: ending) + ending + "B").utf8)
    let forced = try SubtitleFile.parse(head + [0xFF] + Array(ending.utf8), encoding: .utf8)
    #expect(forced.diagnostics.first?.line == 5, "\(forced.diagnostics)")
    let srtHead = Array(
      ["1", "00:00:01,000 --> 00:00:02,000", "A"].joined(separator: ending).utf8)
    let fallback = try SubtitleFile.parse(srtHead + Array(ending.utf8) + [0x42, 0xE9])
    #expect(fallback.diagnostics.first?.line == 4, "\(fallback.diagnostics)")
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in (lines.joined(separator: ending) + ending + "B").utf16 {
      utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    utf16 += [0x00, 0xD8]  // an unpaired high surrogate
    let decoded = try SubtitleFile.parse(utf16, encoding: .utf16LE)
    #expect(decoded.diagnostics.first?.line == 5, "\(decoded.diagnostics)")
  }
}

/// SRT that is not all UTF-8, as real files are: a UTF-8 file with a windows-1252 line (files
/// joined, a line edited in an ANSI editor), and files in encodings that are not read
/// (Shift-JIS, GB18030, Big5, EUC-KR).
@Suite struct MixedEncodingTests {
  static func srt(_ texts: [String]) -> [UInt8] {
    var out = ""
    for (i, text) in texts.enumerated() {
      out += "\(i + 1)\n00:00:0\(i + 1),000 --> 00:00:0\(i + 1),500\n\(text)\n\n"
    }
    return Array(out.utf8)
  }

  /// UTF-8 lines stay UTF-8; only the bytes that are not UTF-8 are read as windows-1252.
  @Test func aWindows1252LineInAUTF8File() throws {
    var bytes = Self.srt(["日本語の字幕です", "Café crème"])
    bytes += Array("3\n00:00:05,000 --> 00:00:06,000\nD".utf8) + [0xE9, 0x6A, 0xE0]
    bytes += Array(" vu \u{201C}ok\u{201D}\n".utf8)
    let document = try SubtitleFile.parse(bytes)
    #expect(
      document.cues.map { document.text(of: $0) } == [
        "日本語の字幕です", "Café crème", "Déjà vu \u{201C}ok\u{201D}",
      ])
    #expect(
      document.diagnostics.map(\.reason) == [
        "invalid UTF-8 (byte 0xE9); such bytes are read as windows-1252, the rest of the file"
          + " as UTF-8"
      ])
  }

  /// A windows-1252 file reads as before, smart quotes and all.
  @Test func aWindows1252File() throws {
    let bytes: [UInt8] =
      Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
      + [0x93, 0x53, 0x6D, 0x61, 0x72, 0x74, 0x94, 0x20, 0x47, 0x72, 0xFC, 0xDF, 0x65, 0x0A]
    let document = try SubtitleFile.parse(bytes)
    #expect(document.text(of: document.cues[0]) == "\u{201C}Smart\u{201D} Grüße")
    #expect(
      document.diagnostics.map(\.reason) == [
        "invalid UTF-8 (byte 0x93); the file is read as windows-1252"
      ])
  }

  /// windows-1251 and -1253 text, refused before, is read in its code page, even one short line
  /// of it.
  @Test(arguments: [
    ("cff0e8e2e5f22c20eae0ea20e4e5ebe03f", TextEncoding.windows1251, "Привет, как дела?"),
    ("c3e5e9e120f3eff52c20f4e920eadcede5e9f23b", .windows1253, "Γεια σου, τι κάνεις;"),
  ])
  func aCyrillicOrGreekLineIsDetected(hex: String, encoding: TextEncoding, text: String) throws {
    var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
    var i = hex.startIndex
    while i < hex.endIndex {
      let next = hex.index(i, offsetBy: 2)
      bytes.append(UInt8(hex[i..<next], radix: 16) ?? 0)
      i = next
    }
    let document = try SubtitleFile.parse(bytes + [0x0A])
    #expect(document.text(of: document.cues[0]) == text)
    #expect(document.diagnostics.first?.reason.hasSuffix("read as \(encoding.rawValue)") == true)
  }

  /// Shift-JIS, GB18030, Big5 and EUC-KR text was read as windows-1252 mojibake with exit 0;
  /// it is refused, saying where, and a forced encoding still reads it.
  @Test(arguments: [
    // こんにちは、元気ですか？カタカナ (Shift-JIS)
    "82b182f182c982bf82cd81418cb38b4382c582b782a981488346835e834a8369",
    // 简体中文字幕，这是测试 (GB18030)
    "bcf2cce5d6d0cec4d7d6c4bba3acd5e2cac7b2e2cad4",
    // 繁體中文字幕，這是測試 (Big5)
    "c163c5e9a4a4a4e5a672b9f5a141b36fac4fb4fab8d5",
    // 안녕하세요, 한국어 자막입니다 (EUC-KR)
    "bec8b3e7c7cfbcbcbfe42c20c7d1b1b9beee20c0dab8b7c0d4b4cfb4d9",
  ])
  func aDoubleByteFileIsRefused(hex: String) throws {
    var text: [UInt8] = []
    var i = hex.startIndex
    while i < hex.endIndex {
      let next = hex.index(i, offsetBy: 2)
      text.append(UInt8(hex[i..<next], radix: 16) ?? 0)
      i = next
    }
    let head = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
    let bytes = head + text + [0x0A]
    do {
      _ = try SubtitleFile.parse(bytes)
      Issue.record("read as a single-byte code page")
    } catch {
      guard case .undetectedEncoding(let line, let offset) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(line == 3)
      #expect(offset >= head.count && offset < bytes.count)
    }
    #expect(throws: SubtitleError.self) { try SubtitleFile.parse(bytes, format: .ass) }
    let forced = try SubtitleFile.parse(bytes, encoding: .windows1251)
    #expect(forced.cues.count == 1)
  }
}

/// `text` as UTF-32 of the given byte order, with or without a byte order mark.
func utf32(_ text: String, bigEndian: Bool, bom: Bool) -> [UInt8] {
  var out: [UInt8] = []
  let scalars = (bom ? [0xFEFF] : []) + text.unicodeScalars.map(\.value)
  for u in scalars {
    let bytes = [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
    out += bigEndian ? bytes : bytes.reversed()
  }
  return out
}

/// UTF-32 (what `iconv -t UTF-32` writes: a byte order mark, then little-endian units) was
/// taken for UTF-16 by its first two bytes, and an SRT file in it read as no cues (exit 65).
@Test(arguments: [false, true])
func utf32IsDetectedAndRead(bigEndian: Bool) throws {
  let text = "1\r\n00:00:01,000 --> 00:00:02,000\r\nGrüße 🎬\r\n"
  let encoding: TextEncoding = bigEndian ? .utf32BE : .utf32LE
  let marked = utf32(text, bigEndian: bigEndian, bom: true)
  #expect(TextEncoding.detect(marked) == (encoding, 4))
  #expect(TextEncoding.detect(utf32(text, bigEndian: bigEndian, bom: false)) == (encoding, 0))
  let result = encoding.transcode(marked)
  #expect(result.utf8 == Array(text.utf8))
  #expect(result.diagnostics.isEmpty)
  let document = try SubtitleFile.parse(marked, pathExtension: "srt")
  #expect(document.cues.map { document.text(of: $0) } == ["Grüße 🎬"])
  #expect(try TextEncoding(name: "UTF-32") == .utf32LE)
  #expect(try TextEncoding(name: "utf-32be") == .utf32BE)
}

@Test func utf32UnitsThatAreNoCharactersBecomeReplacementCharacters() {
  // "a", a surrogate, a unit past U+10FFFF, "b", then two bytes short of a unit.
  let bytes: [UInt8] = [0x61, 0, 0, 0, 0x00, 0xD8, 0, 0, 0, 0, 0x11, 0, 0x62, 0, 0, 0, 0x63, 0]
  let result = TextEncoding.utf32LE.transcode(bytes)
  #expect(String(decoding: result.utf8, as: UTF8.self) == "a\u{FFFD}\u{FFFD}b\u{FFFD}")
  #expect(!result.diagnostics.isEmpty)
}
