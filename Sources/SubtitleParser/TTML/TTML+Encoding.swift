extension TTML {
  /// An encoding an XML declaration can name, as this reader decodes it.
  enum DeclaredEncoding: Hashable, Sendable {
    /// UTF-8.
    case utf8
    /// UTF-16 (of either byte order, or unmarked).
    case utf16
    /// A single-byte encoding `TextEncoding` decodes.
    case singleByte(TextEncoding)

    /// The encoding an XML declaration's `name` stands for, by the WHATWG Encoding labels
    /// (case, `-`, `_` and spaces ignored) and the names `TextEncoding(name:)` takes, or `nil`
    /// for one this reader cannot decode.
    ///
    /// As in browsers, US-ASCII and ISO-8859-1 (with their aliases, `latin1` among them) are
    /// read as windows-1252: its bytes 0x80 to 0x9F are printable characters (`’`, `€`, `…`)
    /// where ISO-8859-1 has C1 controls, which no subtitle means.
    ///
    /// - Parameter name: The value of the declaration's `encoding`.
    /// - Complexity: O(*n*) in the length of `name`.
    init?(name: String) {
      var key = ""
      for c in name.lowercased() where c != "-" && c != "_" && c != " " { key.append(c) }
      switch key {
      case "utf8", "unicode11utf8", "unicode20utf8", "xunicode20utf8":
        self = .utf8
      case "utf16", "utf16le", "utf16be", "ucs2", "iso10646ucs2", "unicode", "csunicode",
        "unicodefeff", "unicodefffe":
        self = .utf16
      case "windows1252", "cp1252", "xcp1252", "win1252", "iso88591", "iso88591:1987", "latin1",
        "l1", "isoir100", "ibm819", "cp819", "csisolatin1", "usascii", "ascii", "ansix3.41968":
        self = .singleByte(.windows1252)
      default:
        // Any other single-byte encoding this module decodes (windows-1251, ISO-8859-2, KOI8-R,
        // ISO-8859-15, …), by the names `TextEncoding(name:)` takes.
        guard let encoding = try? TextEncoding(name: name),
          ![.utf16LE, .utf16BE, .utf32LE, .utf32BE].contains(encoding)
        else { return nil }
        self = encoding == .utf8 ? .utf8 : .singleByte(encoding)
      }
    }
  }

  /// A TTML document's bytes decoded to UTF-8, as XML 1.0 (4.3.3 and appendix F) says: a byte
  /// order mark decides (UTF-8 or UTF-16; UTF-16 looking ASCII without one is read as UTF-16
  /// too, with a diagnostic); else the XML declaration's `encoding`; else UTF-8.
  ///
  /// Invalid UTF-8 becomes U+FFFD, each line's with a diagnostic. A declaration naming UTF-16
  /// on 8-bit text, or a single-byte encoding after a UTF-8 byte order mark, is read as UTF-8,
  /// with a diagnostic.
  ///
  /// - Parameter bytes: The document.
  /// - Returns: The UTF-8 text (without a byte order mark) and the diagnostics, whose offsets
  ///   are byte offsets in `bytes`.
  /// - Throws: `SubtitleError.unsupportedEncoding` when the declaration names an encoding
  ///   that ``DeclaredEncoding`` does not list (and no byte order mark overrides it).
  /// - Complexity: O(*n*).
  static func decode(_ bytes: [UInt8]) throws(SubtitleError) -> TextEncoding.Transcoded {
    let (detected, bom) = TextEncoding.detect(bytes)
    var log = DiagnosticLog()
    if detected != .utf8 {
      if bom == 0 {
        log.add(
          line: 1, offset: 0,
          "no byte order mark; read as \(detected.rawValue) from its zero bytes")
      }
      let result = detected.transcode(bytes)
      log.append(contentsOf: result.diagnostics)
      return TextEncoding.Transcoded(utf8: result.utf8, diagnostics: log.list)
    }
    if let (name, offset) = declaredEncoding(bytes, from: bom) {
      switch DeclaredEncoding(name: name) {
      case .utf8?:
        break
      case .utf16?:
        log.add(
          line: 1, offset: offset,
          "the XML declaration names encoding '\(name)', but the text has no UTF-16 byte order "
            + "mark and is 8-bit; read as UTF-8")
      case .singleByte(let encoding)? where bom == 0:
        return encoding.transcode(bytes)
      case .singleByte?, nil:
        guard bom > 0 else { throw SubtitleError.unsupportedEncoding(name: name, offset: offset) }
        log.add(
          line: 1, offset: offset,
          "the XML declaration names encoding '\(name)', but a UTF-8 byte order mark starts "
            + "the file; read as UTF-8")
      }
    }
    let result = TextEncoding.repairUTF8(bytes)
    log.append(contentsOf: result.diagnostics)
    return TextEncoding.Transcoded(utf8: result.utf8, diagnostics: log.list)
  }

  /// The `encoding` of the XML declaration that starts `bytes` at `start` (after a byte order
  /// mark), and the byte offset of its value; `nil` when there is no declaration, it names no
  /// encoding or it does not end within its first 1 KiB.
  ///
  /// - Parameters:
  ///   - bytes: The document.
  ///   - start: Where the declaration would start.
  /// - Complexity: O(1): at most 1 KiB is read.
  static func declaredEncoding(_ bytes: [UInt8], from start: Int) -> (name: String, offset: Int)? {
    let end = min(bytes.count, start + 1024)
    let opening: [UInt8] = Array("<?xml".utf8)
    guard end - start > opening.count,
      bytes[start..<(start + opening.count)].elementsEqual(opening),
      bytes[start + opening.count].isXMLSpaceByte
    else { return nil }
    var index = start + opening.count
    func skipSpaces() {
      while index < end, bytes[index].isXMLSpaceByte { index += 1 }
    }
    // Pseudo-attributes: name, `=`, a quoted value; up to `?>`.
    while true {
      skipSpaces()
      guard index < end, bytes[index] != UInt8(ascii: "?") else { return nil }
      let nameStart = index
      while index < end, !bytes[index].isXMLSpaceByte, bytes[index] != UInt8(ascii: "="),
        bytes[index] != UInt8(ascii: "?")
      {
        index += 1
      }
      let name = bytes[nameStart..<index]
      skipSpaces()
      guard index < end, bytes[index] == UInt8(ascii: "=") else { return nil }
      index += 1
      skipSpaces()
      guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
      else { return nil }
      let quote = bytes[index]
      index += 1
      let valueStart = index
      while index < end, bytes[index] != quote { index += 1 }
      guard index < end else { return nil }
      if name.elementsEqual("encoding".utf8) {
        let value = String(decoding: bytes[valueStart..<index], as: UTF8.self).trimmingASCIISpaces
        return value.isEmpty ? nil : (value, valueStart)
      }
      index += 1
    }
  }
}
