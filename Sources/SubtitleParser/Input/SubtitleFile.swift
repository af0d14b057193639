/// The entry point for subtitle files of unknown format and encoding: detects both, transcodes
/// to UTF-8 and dispatches to the WebVTT or SRT parser.
public enum SubtitleFile {
  /// Parses a subtitle file.
  ///
  /// Encoding: a forced `encoding` is used as given. Otherwise a UTF-16 byte order mark (or
  /// UTF-16 looking ASCII, reported with a diagnostic) selects UTF-16; everything else is read
  /// as UTF-8. For SRT, input that is not valid UTF-8 is read as windows-1252 instead, with a
  /// diagnostic; WebVTT follows its specification (invalid sequences become U+FFFD). In both
  /// formats NUL characters become U+FFFD, with a diagnostic per line (in SRT and SSA/ASS, the
  /// NUL bytes that end the file are padding: dropped, with one diagnostic). TTML without a forced
  /// encoding or a UTF-16 byte order mark is decoded as its XML declaration says (see
  /// `TTML.parse(_:)`; invalid UTF-8 becomes U+FFFD, with a diagnostic per line).
  ///
  /// Format: a forced `format` is used as given. Otherwise a `WEBVTT` signature (after an
  /// optional byte order mark, followed by a space, tab, line end or the end) means WebVTT, a
  /// first line `[Script Info]` SSA/ASS, and an SRT timing line among the first 64 lines SRT. For a named file, pass
  /// `format(forPath:)` (as `mtool cues` does): a `.vtt` is then WebVTT whatever its start, and
  /// the content decides only for other names and standard input.
  ///
  /// - Parameters:
  ///   - bytes: The file content; the caller keeps ownership.
  ///   - format: The format to parse as, or `nil` to detect it.
  ///   - encoding: The source encoding, or `nil` to detect it.
  /// - Returns: The document. Transcoding diagnostics come first (for WebVTT, also one for
  ///   the invalid UTF-8 sequences and NUL bytes of each line the parser replaces with
  ///   U+FFFD); their `offset` is a byte offset in `bytes`. The list is bounded as
  ///   `Diagnostic` describes.
  /// - Throws: `SubtitleError.notSubtitles` when the input is neither format, is empty (or
  ///   only white space; also as forced SRT) or is SRT without a timing line,
  ///   `SubtitleError.badSignature` for WebVTT without a valid signature, for SSA/ASS
  ///   `SubtitleError.missingSection` or `.badFormatLine` (see `SubStationAlpha.parse(_:)`),
  ///   and for TTML `SubtitleError.unsupportedEncoding` when its XML declaration names an
  ///   encoding that cannot be decoded (and none is forced).
  /// - Complexity: O(*n*).
  public static func parse(
    _ bytes: [UInt8], format: SubtitleFormat? = nil, encoding: TextEncoding? = nil
  ) throws(SubtitleError) -> SubtitleDocument {
    let decoded = decode(bytes, encoding: encoding, reportingNUL: false)
    var utf8 = decoded.0
    var diagnostics = decoded.1
    let validated = decoded.2 != nil
    let chosen: SubtitleFormat
    let blank = { utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }
    if let format {
      // An empty `.srt` holds no subtitles (an empty `.vtt` has no signature).
      if format == .srt && blank() {
        throw SubtitleError.notSubtitles(reason: "the input is empty")
      }
      chosen = format
    } else if hasWebVTTSignature(utf8) {
      chosen = .webVTT
    } else if SubStationAlpha.looksLikeSSA(utf8) {
      chosen = .ass
    } else if TTML.looksLikeTTML(utf8) {
      chosen = .ttml
    } else if SubRip.looksLikeSRT(utf8) {
      chosen = .srt
    } else if blank() {
      throw SubtitleError.notSubtitles(reason: "the input is empty")
    } else {
      throw SubtitleError.notSubtitles(
        reason: "neither a WEBVTT signature nor an SRT timing line at the start")
    }
    var document: SubtitleDocument
    switch chosen {
    case .webVTT:
      // The parser replaces NUL (and, in text not transcoded, invalid UTF-8) with U+FFFD
      // without a word: the damaged files are decoded again for the diagnostics, which then
      // give offsets in the file's bytes.
      // (The parser tells whether there was anything to replace: clean files take no pass of
      // their own for this.)
      var repaired = false
      document = try WebVTT.parse(utf8, storedCueLimit: Int.max, repaired: &repaired)
      if repaired && validated {
        // Transcoded text is valid UTF-8: what the parser replaced is NUL.
        (_, diagnostics, _) = decode(bytes, encoding: encoding, reportingNUL: true)
      } else if repaired {
        diagnostics.append(
          contentsOf: TextEncoding.repairUTF8(bytes, reportingNUL: true).diagnostics)
      }
    case .srt, .ass:
      // NUL characters become U+FFFD here, as the WebVTT parser makes them, each line's with
      // a diagnostic (offsets in the file's bytes). SSA/ASS, which old files write in their
      // ANSI code page, is read as SRT is: windows-1252 when it is not UTF-8.
      // NUL bytes that end the file are padding some writers and copies leave: dropped with
      // one diagnostic, not text of the last cue.
      let padding = nulPadding(utf8)
      if padding > 0 { utf8.removeLast(padding) }
      let hasNUL = containsNUL(utf8)
      if validated, hasNUL {
        (utf8, diagnostics, _) = decode(bytes, encoding: encoding, reportingNUL: true)
        utf8.removeLast(nulPadding(utf8))
      }
      if padding > 0 {
        let wide = decoded.2 == .utf16LE || decoded.2 == .utf16BE
        let at = utf8.count
        let line = utf8.withUnsafeBufferPointer { TextEncoding.lineNumber(of: at, in: $0) }
        diagnostics.add(
          line: line, offset: bytes.count - padding * (wide ? 2 : 1),
          "NUL bytes that end the file ignored (padding)")
      }
      if !validated, let bad = TextEncoding.firstInvalidUTF8(in: utf8) {
        let line = utf8.withUnsafeBufferPointer { TextEncoding.lineNumber(of: bad, in: $0) }
        diagnostics.add(
          line: line, offset: bad,
          "invalid UTF-8 (byte 0x\(hex(utf8[bad]))); the file is read as windows-1252")
        utf8 = TextEncoding.windows1252.transcode(utf8).utf8
      }
      if !validated, hasNUL {
        bytes.withUnsafeBufferPointer {
          TextEncoding.reportNUL($0, from: 0, end: $0.count - padding, into: &diagnostics)
        }
      }
      if hasNUL { utf8 = replacingNUL(utf8) }
      document = chosen == .srt ? try SubRip.parse(utf8) : try SubStationAlpha.parse(utf8)
    case .ttml:
      // An encoding given, or detected from a UTF-16 byte order mark, has been decoded; else
      // the XML declaration names it (UTF-8 by default, invalid sequences reported).
      document = validated ? try TTML.parse(utf8: utf8) : try TTML.parse(bytes)
    }
    if !diagnostics.isEmpty {
      diagnostics.append(contentsOf: document.diagnostics)
      document.diagnostics = diagnostics.list
    }
    return document
  }

  /// The number of NUL bytes that end `bytes`: padding after the last line (a NUL followed by
  /// anything, a line end included, is text). 0 when the last byte is not NUL.
  static func nulPadding(_ bytes: [UInt8]) -> Int {
    var k = bytes.count
    while k > 0 && bytes[k - 1] == 0 { k -= 1 }
    return bytes.count - k
  }

  /// Whether `bytes` holds a zero byte.
  static func containsNUL(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { p in
      p.baseAddress.map { ByteScanner.findMemchr(0, $0, 0, p.count) < p.count } ?? false
    }
  }

  /// `bytes` with each zero byte replaced by U+FFFD.
  static func replacingNUL(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    bytes.withUnsafeBufferPointer { p in
      guard let base = p.baseAddress else { return }
      out.reserveCapacity(p.count + 16)
      var start = 0
      while start < p.count {
        let zero = ByteScanner.findMemchr(0, base, start, p.count)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<zero]))
        if zero == p.count { break }
        out.append(contentsOf: [0xEF, 0xBF, 0xBD] as [UInt8])
        start = zero + 1
      }
    }
    return out
  }

  /// The text as UTF-8 when it needs transcoding (a forced encoding, or a detected one other
  /// than UTF-8), with the transcoding diagnostics and the encoding used; `bytes` itself,
  /// no diagnostics and `nil` otherwise.
  static func decode(_ bytes: [UInt8], encoding: TextEncoding?, reportingNUL: Bool) -> (
    [UInt8], DiagnosticLog, TextEncoding?
  ) {
    var diagnostics = DiagnosticLog()
    if let encoding {
      let result = encoding.transcode(bytes, reportingNUL: reportingNUL)
      diagnostics.append(contentsOf: result.diagnostics)
      return (result.utf8, diagnostics, encoding)
    }
    let (detected, bom) = TextEncoding.detect(bytes)
    guard detected != .utf8 else { return (bytes, diagnostics, nil) }
    let result = detected.transcode(bytes, reportingNUL: reportingNUL)
    if bom == 0 {
      diagnostics.add(
        line: 1, offset: 0,
        "no byte order mark; read as \(detected.rawValue) from its zero bytes")
    }
    diagnostics.append(contentsOf: result.diagnostics)
    return (result.utf8, diagnostics, detected)
  }

  /// Parses `bytes` as the format named by a file's extension (`.vtt`, `.srt`), or detects the
  /// format when the extension is neither: an explicit `vtt` is WebVTT however the content
  /// starts (a damaged signature is an error, as in browsers), an explicit `srt` is SRT.
  ///
  /// - Parameters:
  ///   - bytes: The file content.
  ///   - pathExtension: The extension without the dot, in any case.
  ///   - encoding: The source encoding, or `nil` to detect it.
  /// - Throws: As `parse(_:format:encoding:)`.
  public static func parse(
    _ bytes: [UInt8], pathExtension: String, encoding: TextEncoding? = nil
  ) throws(SubtitleError) -> SubtitleDocument {
    try parse(bytes, format: SubtitleFormat(pathExtension: pathExtension), encoding: encoding)
  }

  /// The format a file's name gives: WebVTT for a name ending in `.vtt`, SRT for `.srt` (in any
  /// case), `nil` for any other name, for `-` (standard input) and for a name that is only an
  /// extension (`.vtt`, a hidden file): the content decides then.
  ///
  /// - Parameter path: A file path or name; only its last component counts.
  /// - Complexity: O(*n*) in the length of `path`.
  public static func format(forPath path: String) -> SubtitleFormat? {
    let name = path.utf8.split(separator: 0x2F, omittingEmptySubsequences: false).last ?? []
    guard let dot = name.lastIndex(of: 0x2E), dot != name.startIndex else { return nil }
    let ext = name[name.index(after: dot)...]
    return SubtitleFormat(pathExtension: String(decoding: ext, as: UTF8.self))
  }

  /// Whether `utf8` starts (after an optional byte order mark) with `WEBVTT` followed by a
  /// space, a tab, a line end or the end of the input.
  ///
  /// - Parameter utf8: The file content as UTF-8.
  /// - Complexity: O(1).
  public static func hasWebVTTSignature(_ utf8: [UInt8]) -> Bool {
    var i = 0
    if utf8.count >= 3, utf8[0] == 0xEF, utf8[1] == 0xBB, utf8[2] == 0xBF { i = 3 }
    let signature: [UInt8] = [0x57, 0x45, 0x42, 0x56, 0x54, 0x54]
    guard utf8.count >= i + 6 else { return false }
    for k in 0..<6 where utf8[i + k] != signature[k] { return false }
    if utf8.count == i + 6 { return true }
    let next = utf8[i + 6]
    return next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D
  }
}

extension SubtitleFormat {
  /// The format a file extension names: `vtt` (WebVTT), `srt` (SRT), `ass` or `ssa` (SSA/ASS),
  /// `ttml`, `dfxp` or `xml` (TTML), in any case; `nil` for any other extension.
  ///
  /// - Parameter pathExtension: The extension without the dot.
  public init?(pathExtension: String) {
    switch pathExtension.lowercased() {
    case "ssa": self = .ass
    case "dfxp", "xml": self = .ttml
    case let name: self.init(rawValue: name)
    }
  }
}
