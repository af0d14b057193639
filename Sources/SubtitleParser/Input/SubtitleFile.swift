/// The entry point for subtitle files of unknown format and encoding: detects both, transcodes
/// to UTF-8 and dispatches to the WebVTT or SRT parser.
public enum SubtitleFile {
  /// Parses a subtitle file.
  ///
  /// Encoding: a forced `encoding` is used as given. Otherwise a UTF-16 byte order mark (or
  /// UTF-16 looking ASCII, reported with a diagnostic) selects UTF-16; everything else is read
  /// as UTF-8. For SRT and SSA/ASS, input that is not valid UTF-8 is read in the single-byte
  /// code page its letters fit best (windows-1250, -1251, -1252, -1253, -1254, ISO-8859-2, -5,
  /// -7 or KOI8-R; see `TextEncoding+Detection.swift`), else windows-1252, with a diagnostic
  /// naming it: byte by byte where it is not valid UTF-8, so the UTF-8 in a file that also
  /// holds such lines stays as it is (input no code page reads clearly and whose invalid bytes
  /// come mostly in runs, as in Shift-JIS, GB18030, Big5 or EUC-KR, is
  /// `SubtitleError.undetectedEncoding`); WebVTT follows its specification (invalid sequences
  /// become U+FFFD). In both
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
  /// - Throws: `SubtitleError.unsupportedFormat` for a format that is not read here but is
  ///   recognised (`unsupportedFormat(_:)`; also as forced SRT), `SubtitleError.notSubtitles`
  ///   when the input is none of the formats, is empty (or only white space; also as forced
  ///   SRT) or is SRT without a timing line,
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
    } else if let name = unsupportedFormat(utf8) {
      throw SubtitleError.unsupportedFormat(name: name)
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
        let width =
          decoded.2 == .utf16LE || decoded.2 == .utf16BE
          ? 2 : decoded.2 == .utf32LE || decoded.2 == .utf32BE ? 4 : 1
        let at = utf8.count
        let line = utf8.withUnsafeBufferPointer { TextEncoding.lineNumber(of: at, in: $0) }
        diagnostics.add(
          line: line, offset: bytes.count - padding * width,
          "NUL bytes that end the file ignored (padding)")
      }
      if !validated, let bad = TextEncoding.firstInvalidUTF8(in: utf8) {
        let line = utf8.withUnsafeBufferPointer { TextEncoding.lineNumber(of: bad, in: $0) }
        let reading = TextEncoding.utf8OrSingleByte(utf8, from: bad)
        if reading.refused {
          let at = reading.firstRun
          throw SubtitleError.undetectedEncoding(
            line: utf8.withUnsafeBufferPointer { TextEncoding.lineNumber(of: at, in: $0) },
            offset: at)
        }
        let name = reading.encoding.rawValue
        diagnostics.add(
          line: line, offset: bad,
          reading.multiByteSequences == 0
            ? "invalid UTF-8 (byte 0x\(hex(utf8[bad]))); the file is read as \(name)"
            : "invalid UTF-8 (byte 0x\(hex(utf8[bad]))); such bytes are read as \(name),"
              + " the rest of the file as UTF-8")
        diagnostics.append(contentsOf: reading.diagnostics)
        utf8 = reading.utf8
      }
      if !validated, hasNUL {
        bytes.withUnsafeBufferPointer {
          TextEncoding.reportNUL($0, from: 0, end: $0.count - padding, into: &diagnostics)
        }
      }
      if hasNUL { utf8 = replacingNUL(utf8) }
      do throws(SubtitleError) {
        document = chosen == .srt ? try SubRip.parse(utf8) : try SubStationAlpha.parse(utf8)
      } catch {
        // A `.srt` name on another format's file (a MicroDVD `.sub` renamed) says which.
        if case .notSubtitles = error, chosen == .srt, let name = unsupportedFormat(utf8) {
          throw SubtitleError.unsupportedFormat(name: name)
        }
        throw error
      }
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

  /// The name of the subtitle format `bytes` is in when it is one that is not read here, told
  /// by its first non-blank line (or, for binary formats, its first bytes), else nil: MicroDVD
  /// (`{0}{25}text`), MPL2 (`[0][25]text`), TMPlayer (`0:00:01:text`), LRC lyrics
  /// (`[00:01.00]text`), SubViewer (`[INFORMATION]`, `00:00:01.00,00:00:02.00`), SAMI
  /// (`<SAMI>`), Scenarist SCC, EBU STL (its GSI block's `STLnn.01`), VobSub (an `.idx` or the
  /// MPEG program stream of its `.sub`) and JSON (as pysubs2 and others write subtitles).
  ///
  /// - Parameter bytes: The file content, as UTF-8 or bytes.
  /// - Complexity: O(1) after the leading white space.
  public static func unsupportedFormat(_ bytes: [UInt8]) -> String? {
    // The GSI block: a code page number, then the disk format code `STL25.01` or `STL30.01`.
    if bytes.count >= 11, bytes[3] == 0x53, bytes[4] == 0x54, bytes[5] == 0x4C,
      bytes[6] &- 0x30 < 10, bytes[7] &- 0x30 < 10, bytes[8] == 0x2E
    {
      return "EBU STL (Tech 3264) subtitles"
    }
    if bytes.count >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1, bytes[3] == 0xBA {
      return "an MPEG program stream (VobSub image subtitles)"
    }
    var i = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
    while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    var end = i
    while end < bytes.count, end - i < 256, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
    let line = bytes[i..<end]
    func starts(_ prefix: String, ignoringCase: Bool = false) -> Bool {
      line.count >= prefix.utf8.count
        && zip(line, prefix.utf8).allSatisfy { a, b in
          a == b || (ignoringCase && a | 0x20 == b | 0x20 && b | 0x20 &- 0x61 < 26)
        }
    }
    // A bracketed number, as MicroDVD and MPL2 start their lines: the index after it, or nil.
    func bracketed(_ from: Int, _ open: UInt8, _ close: UInt8, empty: Bool = false) -> Int? {
      guard from < end, bytes[from] == open else { return nil }
      var k = from + 1
      while k < end, bytes[k] &- 0x30 < 10 { k += 1 }
      guard k < end, bytes[k] == close, empty || k > from + 1 else { return nil }
      return k + 1
    }
    // `digits:` repeated: the index after `count` such fields (the last without its `:`).
    func clock(_ from: Int, fields: Int) -> Int? {
      var k = from
      for field in 0..<fields {
        let start = k
        while k < end, bytes[k] &- 0x30 < 10 { k += 1 }
        guard k > start, k - start <= 2 || field == 0 else { return nil }
        if field < fields - 1 {
          guard k < end, bytes[k] == 0x3A else { return nil }
          k += 1
        }
      }
      return k
    }
    if let k = bracketed(i, 0x7B, 0x7D), bracketed(k, 0x7B, 0x7D, empty: true) != nil {
      return "MicroDVD subtitles ({frame}{frame}text)"
    }
    if let k = bracketed(i, 0x5B, 0x5D), bracketed(k, 0x5B, 0x5D, empty: true) != nil {
      return "MPL2 subtitles ([decisecond][decisecond]text)"
    }
    if i < end, bytes[i] == 0x5B, let k = clock(i + 1, fields: 2), k < end,
      bytes[k] == 0x2E || bytes[k] == 0x5D
    {
      return "LRC lyrics ([mm:ss.xx]text)"
    }
    if let k = clock(i, fields: 3), k < end, bytes[k] == 0x3A || bytes[k] == 0x3D {
      return "TMPlayer subtitles (hh:mm:ss:text)"
    }
    if starts("[INFORMATION]") || starts("[SUBTITLE]") {
      return "SubViewer subtitles"
    }
    if let k = clock(i, fields: 3), k + 1 < end, bytes[k] == 0x2E,
      line[k...].contains(0x2C), !line.contains(0x3E)
    {
      return "SubViewer subtitles (hh:mm:ss.xx,hh:mm:ss.xx)"
    }
    if starts("<SAMI", ignoringCase: true) { return "SAMI subtitles" }
    if starts("Scenarist_SCC") { return "Scenarist SCC (CEA-608 caption data)" }
    if starts("# VobSub index file") { return "a VobSub index (image subtitles)" }
    if i + 1 < end, bytes[i] == 0x7B || bytes[i] == 0x5B {
      var k = i + 1
      while k < end, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
      if k == end || [0x22, 0x7B, 0x5B, 0x5D, 0x7D].contains(bytes[k]) { return "JSON" }
    } else if i + 1 == end, bytes[i] == 0x7B || bytes[i] == 0x5B {
      return "JSON"
    }
    return nil
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
