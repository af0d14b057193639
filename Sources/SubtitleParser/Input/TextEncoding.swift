/// A text encoding subtitle files come in, and the transcoding of it to UTF-8.
///
/// `detect(_:)` looks at byte order marks only (plus a cheap UTF-16 check for files without
/// one); everything else is read as UTF-8, and SRT and SSA/ASS text that is not UTF-8 in the
/// single-byte code page `detectCodePage(_:)` tells from its letters. The single-byte tables are written out from the published
/// code charts (WHATWG Encoding for windows-1252, ISO/IEC 8859-1 and 8859-15; the others in
/// `TextEncoding+CodePages.swift`).
public enum TextEncoding: String, Hashable, Sendable, Codable, CaseIterable {
  /// UTF-8, with or without a byte order mark.
  case utf8 = "UTF-8"
  /// UTF-16, little endian.
  case utf16LE = "UTF-16LE"
  /// UTF-16, big endian.
  case utf16BE = "UTF-16BE"
  /// UTF-32, little endian.
  case utf32LE = "UTF-32LE"
  /// UTF-32, big endian.
  case utf32BE = "UTF-32BE"
  /// Windows code page 1252 (Western European), as WHATWG defines it.
  case windows1252 = "windows-1252"
  /// ISO/IEC 8859-1 (Latin-1): bytes are the code points U+0000 to U+00FF.
  case isoLatin1 = "ISO-8859-1"
  /// ISO/IEC 8859-15 (Latin-9): Latin-1 with the euro sign and seven other changes.
  case isoLatin9 = "ISO-8859-15"
  /// Windows code page 1250 (Central European: Polish, Czech, Hungarian, Croatian, …).
  case windows1250 = "windows-1250"
  /// Windows code page 1251 (Cyrillic: Russian, Ukrainian, Serbian, Bulgarian, …).
  case windows1251 = "windows-1251"
  /// Windows code page 1253 (Greek).
  case windows1253 = "windows-1253"
  /// Windows code page 1254 (Turkish).
  case windows1254 = "windows-1254"
  /// ISO/IEC 8859-2 (Latin-2, Central European).
  case isoLatin2 = "ISO-8859-2"
  /// ISO/IEC 8859-5 (Cyrillic).
  case isoCyrillic = "ISO-8859-5"
  /// ISO/IEC 8859-7 (Greek, with the 2003 additions: euro, drachma and ypogegrammeni signs).
  case isoGreek = "ISO-8859-7"
  /// KOI8-R (Russian, RFC 1489).
  case koi8R = "KOI8-R"

  /// Looks an encoding up by name, ignoring case, `-` and `_` (`utf8`, `UTF-16le`, `cp1252`,
  /// `latin1`, `latin-9`, `cp1251`, `latin2`, `koi8r`, `greek`, …).
  ///
  /// - Parameter name: The encoding name as a user would type it.
  /// - Throws: `SubtitleError.unknownEncoding` for a name that is not supported.
  public init(name: String) throws(SubtitleError) {
    var key = ""
    for c in name.lowercased() where c != "-" && c != "_" && c != " " { key.append(c) }
    switch key {
    case "utf8": self = .utf8
    case "utf16le", "utf16": self = .utf16LE
    case "utf16be": self = .utf16BE
    case "utf32le", "utf32": self = .utf32LE
    case "utf32be": self = .utf32BE
    case "windows1252", "cp1252", "win1252": self = .windows1252
    case "iso88591", "latin1", "l1": self = .isoLatin1
    case "iso885915", "latin9", "l9", "latin0", "csisolatin9": self = .isoLatin9
    case "windows1250", "cp1250", "win1250", "xcp1250": self = .windows1250
    case "windows1251", "cp1251", "win1251", "xcp1251": self = .windows1251
    case "windows1253", "cp1253", "win1253", "xcp1253": self = .windows1253
    case "windows1254", "cp1254", "win1254", "xcp1254": self = .windows1254
    case "iso88592", "latin2", "l2", "csisolatin2", "isoir101": self = .isoLatin2
    case "iso88595", "cyrillic", "csisolatincyrillic", "isoir144": self = .isoCyrillic
    case "iso88597", "greek", "greek8", "csisolatingreek", "isoir126", "elot928", "ecma118":
      self = .isoGreek
    case "koi8r", "koi8", "cskoi8r": self = .koi8R
    default: throw SubtitleError.unknownEncoding(name)
    }
  }

  /// The encoding a file's leading bytes announce, and the length of its byte order mark.
  ///
  /// A UTF-8, UTF-16 or UTF-32 byte order mark decides (UTF-32LE's, `FF FE 00 00`, before
  /// UTF-16LE's). Without one, a file whose first 32-bit unit is an ASCII character with three
  /// zero bytes is taken as UTF-32 of that byte order, and one whose first two 16-bit units are
  /// ASCII characters with a zero high byte as UTF-16 (with `bomLength` 0); anything else is
  /// UTF-8.
  ///
  /// - Parameter bytes: The start of the file (the whole file is fine; at most 4 bytes are read).
  /// - Returns: The encoding and how many leading bytes are its byte order mark.
  /// - Complexity: O(1).
  public static func detect(_ bytes: [UInt8]) -> (encoding: TextEncoding, bomLength: Int) {
    let n = bytes.count
    if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
    if n >= 4, bytes[0] == 0xFF, bytes[1] == 0xFE, bytes[2] == 0, bytes[3] == 0 {
      return (.utf32LE, 4)
    }
    if n >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 0xFE, bytes[3] == 0xFF {
      return (.utf32BE, 4)
    }
    if n >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LE, 2) }
    if n >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BE, 2) }
    if n >= 4 {
      let printable = { (b: UInt8) in b >= 0x09 && b < 0x80 }
      if printable(bytes[0]), bytes[1] == 0, bytes[2] == 0, bytes[3] == 0 {
        return (.utf32LE, 0)
      }
      if bytes[0] == 0, bytes[1] == 0, bytes[2] == 0, printable(bytes[3]) {
        return (.utf32BE, 0)
      }
      if printable(bytes[0]), bytes[1] == 0, printable(bytes[2]), bytes[3] == 0 {
        return (.utf16LE, 0)
      }
      if bytes[0] == 0, printable(bytes[1]), bytes[2] == 0, printable(bytes[3]) {
        return (.utf16BE, 0)
      }
    }
    return (.utf8, 0)
  }

  /// The result of transcoding: UTF-8 bytes plus what had to be replaced.
  public struct Transcoded: Hashable, Sendable {
    /// The text as UTF-8 bytes, without any byte order mark.
    public var utf8: [UInt8]
    /// What was replaced by U+FFFD, bounded as `Diagnostic` describes: repeats of one repair
    /// on one line are one entry with a `count`, and past `Diagnostic.listLimit` entries the
    /// rest is one final entry.
    public var diagnostics: [Diagnostic]
  }

  /// Transcodes `bytes` from this encoding to UTF-8, dropping a leading byte order mark of this
  /// encoding (for the single-byte encodings, a UTF-8 one, with a diagnostic). Undecodable input (invalid UTF-8, unpaired UTF-16 surrogates, an odd trailing
  /// byte) becomes U+FFFD with a diagnostic; transcoding never fails.
  ///
  /// - Parameter bytes: The encoded text; the caller keeps ownership.
  /// - Returns: The UTF-8 bytes (shared with `bytes`, not copied, when they are valid UTF-8
  ///   without a byte order mark) and diagnostics whose `offset` is the byte offset in `bytes`.
  /// - Complexity: O(*n*).
  public func transcode(_ bytes: [UInt8]) -> Transcoded {
    transcode(bytes, reportingNUL: false)
  }

  /// `transcode(_:)`, with a diagnostic also for each NUL character (kept in the text: the
  /// WebVTT parser replaces them, and says so through these).
  func transcode(_ bytes: [UInt8], reportingNUL: Bool) -> Transcoded {
    switch self {
    case .utf8: return TextEncoding.repairUTF8(bytes, reportingNUL: reportingNUL)
    case .utf16LE:
      return TextEncoding.decodeUTF16(bytes, bigEndian: false, reportingNUL: reportingNUL)
    case .utf16BE:
      return TextEncoding.decodeUTF16(bytes, bigEndian: true, reportingNUL: reportingNUL)
    case .utf32LE:
      return TextEncoding.decodeUTF32(bytes, bigEndian: false, reportingNUL: reportingNUL)
    case .utf32BE:
      return TextEncoding.decodeUTF32(bytes, bigEndian: true, reportingNUL: reportingNUL)
    case .windows1252, .isoLatin1, .isoLatin9, .windows1250, .windows1251, .windows1253,
      .windows1254, .isoLatin2, .isoCyrillic, .isoGreek, .koi8R:
      // A leading UTF-8 byte order mark is an editor's, not the text `ï»¿`: some save
      // single-byte text with one.
      var log = DiagnosticLog()
      var start = 0
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
        log.add(line: 1, offset: 0, "UTF-8 byte order mark before \(rawValue) text skipped")
        start = 3
      }
      if reportingNUL {
        bytes.withUnsafeBufferPointer { TextEncoding.reportNUL($0, from: start, into: &log) }
      }
      let text = decodeSingleByte(bytes, from: start, log: &log)
      return Transcoded(utf8: text, diagnostics: log.list)
    }
  }

  /// The byte offset of the first invalid UTF-8 sequence in `bytes`, or `nil` when all of it is
  /// valid UTF-8 (a byte order mark is valid UTF-8).
  ///
  /// - Parameter bytes: The bytes to check.
  /// - Complexity: O(*n*); ASCII runs are checked 32 bytes at a time.
  public static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { buffer -> Int? in
      guard let base = buffer.baseAddress else { return nil }
      var i = 0
      let n = buffer.count
      while i < n {
        i = ByteScanner.firstNonASCIIVector(base, i, n)
        if i >= n { return nil }
        let length = utf8SequenceLength(base, i, n)
        if length == 0 { return i }
        i += length
      }
      return nil
    }
  }

  /// What `utf8OrSingleByte(_:from:)` made of a file that is not all UTF-8.
  struct MixedReading {
    /// The text as UTF-8.
    var utf8: [UInt8] = []
    /// What reading it replaced by U+FFFD (bytes the code page leaves unassigned).
    var diagnostics: [Diagnostic] = []
    /// How many valid multi-byte UTF-8 sequences the file holds, not counting those next to a
    /// byte that is not UTF-8: the letters of a single-byte code page form such sequences now
    /// and then (windows-1251 `Ві` is the valid UTF-8 of U+00B3), and are read with the bytes
    /// around them.
    var multiByteSequences = 0
    /// How many bytes were read in the single-byte code page, and how many of those came right
    /// after another non-ASCII byte.
    var fallbackBytes = 0
    var fallbackRuns = 0
    /// The runs of bytes read in the code page (between ASCII bytes, valid UTF-8 and the
    /// ends): how many, how many of an odd length, and the longest.
    var runs = 0
    var oddRuns = 0
    var longestRun = 0
    /// The offset of the non-ASCII byte before the first byte read in the code page that came
    /// right after one.
    var firstRun = -1
    /// The code page the bytes that are not UTF-8 are read in: the one detected
    /// (`detectCodePage(_:)`), else windows-1252.
    var encoding: TextEncoding = .windows1252
    /// Whether `encoding` was detected rather than taken by default.
    var detected = false

    /// Whether the bytes that are not UTF-8 look like another encoding's than windows-1252:
    /// most of them in runs, as double-byte encodings (Shift-JIS, GB18030, Big5, EUC-KR) and
    /// the Cyrillic and Greek code pages have them, where windows-1252 text has its accented
    /// letters and punctuation mostly between ASCII (under a quarter in runs in French, German
    /// or Portuguese text; over half in any of those encodings).
    var looksLikeAnotherEncoding: Bool {
      fallbackBytes >= 8 && fallbackRuns * 10 >= fallbackBytes * 4
    }

    /// Whether the bytes read in the code page come in pairs as a double-byte encoding's do
    /// (GB18030, Big5, EUC-KR): every run of an even length, over enough runs or a run long
    /// enough that a single-byte code page's words would not all be so by chance (half of
    /// its words have an odd length: three runs or one of ten bytes, all even, is 1 in 8 or
    /// rarer), and one run of two characters at least (Latin text has its accented letters
    /// alone or in twos, as in `süß`, never four in a row). Short CJK text scores as well in
    /// a Cyrillic code page's letters as in its own, so this outweighs the letters'
    /// statistics.
    var pairedLikeDoubleByte: Bool {
      oddRuns == 0 && longestRun >= 4 && (runs >= 3 || longestRun >= 10)
    }

    /// Whether the file is not read: no code page was detected, and the bytes do not look like
    /// windows-1252, the default.
    var refused: Bool { !detected && looksLikeAnotherEncoding }
  }

  /// `bytes` read as UTF-8 where it is valid and in a single-byte code page byte by byte where
  /// it is not (from `firstBad`, the first invalid sequence): a file in a code page, or a UTF-8
  /// file that joined one or had a line edited in it, reads right either way. The code page is
  /// detected from the bytes that are not UTF-8 (`detectCodePage(_:)`); when none is clearly
  /// best it is windows-1252, and the text is left empty when the bytes do not look like
  /// windows-1252 either (`MixedReading.refused`).
  ///
  /// - Complexity: O(*n*): a counting pass (ASCII skipped 32 bytes at a time), then the
  ///   transcoding (in one code page when there is no UTF-8 beyond ASCII, else a mixed one).
  static func utf8OrSingleByte(_ bytes: [UInt8], from firstBad: Int) -> MixedReading {
    var reading = MixedReading()
    var counts = ByteCounts()
    bytes.withUnsafeBufferPointer { buffer in
      guard let p = buffer.baseAddress else { return }
      let n = buffer.count
      var i = 0
      // Whether the byte before `i` is one read in the code page.
      var afterFallback = false
      var runLength = 0
      func endRun() {
        guard runLength > 0 else { return }
        reading.runs += 1
        if runLength & 1 == 1 { reading.oddRuns += 1 }
        reading.longestRun = max(reading.longestRun, runLength)
        runLength = 0
      }
      while true {
        let next = ByteScanner.firstNonASCIIVector(p, i, n)
        if next > i {
          afterFallback = false
          endRun()
        }
        i = next
        if i >= n { break }
        if !afterFallback, let length = utf8Sequence(p, i, n) {
          endRun()
          reading.multiByteSequences += 1
          i += length
          continue
        }
        reading.fallbackBytes += 1
        runLength += 1
        // (After any non-ASCII byte: a double-byte encoding's pairs are now and then valid
        // UTF-8 by chance, and count so.)
        var previous = ByteCounts.otherByte
        if i > 0 {
          let b = p[i - 1]
          if b >= 0x80 {
            reading.fallbackRuns += 1
            if reading.firstRun < 0 { reading.firstRun = i - 1 }
            if afterFallback { previous = Int(b &- 0x80) }
          } else {
            previous = ByteCounts.asciiClass(b)
          }
        }
        counts.add(p, i, n, previous: previous)
        afterFallback = true
        i += 1
      }
      endRun()
    }
    counts.endRun()
    if reading.pairedLikeDoubleByte {
      // Bytes in pairs: a double-byte encoding's, which no single-byte code page reads right.
    } else if let detected = detectCodePage(counts) {
      reading.encoding = detected
      reading.detected = true
      // A few valid sequences among many bytes of another code page than windows-1252 are its
      // letters by chance (windows-1251 `Ці`, a word of its own, is the UTF-8 of U+05B3).
      if detected != .windows1252 && reading.multiByteSequences * 4 <= reading.fallbackBytes {
        reading.multiByteSequences = 0
      }
    }
    if reading.refused { return reading }
    let encoding = reading.encoding
    if reading.multiByteSequences == 0 {
      // Every non-ASCII byte is in the code page.
      let transcoded = encoding.transcode(bytes)
      reading.utf8 = transcoded.utf8
      reading.diagnostics = transcoded.diagnostics
      return reading
    }
    var table: [UInt32] = []
    for b in UInt8(0x80)...0xFF {
      table.append(
        encoding.highTable.map { UInt32($0[Int(b - 0x80)]) }
          ?? UInt32(encoding.scalar(forHighByte: b)))
    }
    bytes.withUnsafeBufferPointer { buffer in
      guard let p = buffer.baseAddress else { return }
      let n = buffer.count
      var out: [UInt8] = []
      out.reserveCapacity(n + n / 8)
      out.append(contentsOf: buffer[0..<firstBad])
      var i = firstBad
      var afterFallback = false
      while i < n {
        let b = p[i]
        if b < 0x80 {
          out.append(b)
          afterFallback = false
          i += 1
          continue
        }
        if !afterFallback, let length = utf8Sequence(p, i, n) {
          for k in i..<(i + length) { out.append(p[k]) }
          i += length
          continue
        }
        appendUTF8(table[Int(b &- 0x80)], to: &out)
        afterFallback = true
        i += 1
      }
      reading.utf8 = out
    }
    return reading
  }

  /// The length of the valid multi-byte UTF-8 sequence at `i` when it is one and the byte after
  /// it is not one that starts no valid sequence (a single-byte code page's letters form such
  /// pairs by chance), else nil.
  @inline(__always)
  static func utf8Sequence(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int? {
    // Only C2...F4 start a multi-byte sequence, and only before a continuation byte (an
    // accented letter in windows-1252 is mostly followed by ASCII: no full check).
    let b = p[i]
    guard b &- 0xC2 <= 0xF4 - 0xC2 && i + 1 < n && p[i + 1] & 0xC0 == 0x80 else { return nil }
    let length = utf8SequenceLength(p, i, n)
    guard length > 0 else { return nil }
    let after = i + length
    if after < n && p[after] >= 0x80 && utf8SequenceLength(p, after, n) == 0 { return nil }
    return length
  }

  // MARK: - Internals

  /// The length of the valid UTF-8 sequence starting at `i`, or 0 when it is not valid
  /// (`UTF8Sequence.classify` with the input ending at `n`).
  @inline(__always)
  static func utf8SequenceLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
    if p[i] < 0x80 { return 1 }
    let buffer = UnsafeBufferPointer(start: p, count: n)
    guard case .valid(let length) = UTF8Sequence.classify(buffer, at: i, end: n, final: true)
    else { return 0 }
    return length
  }

  /// The length of the maximal subpart of an ill-formed sequence at `i` (Unicode 3.9, the
  /// "substitution of maximal subparts" practice WHATWG also follows): a valid lead byte plus the
  /// continuation bytes that were still acceptable, or a single byte.
  static func invalidSubpartLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
    let buffer = UnsafeBufferPointer(start: p, count: n)
    switch UTF8Sequence.classify(buffer, at: i, end: n, final: true) {
    case .invalid(let length), .valid(let length): return length
    case .needMore: return 1  // (not with `final`)
    }
  }

  /// UTF-8 in, UTF-8 out: drops a BOM and replaces each maximal invalid subpart with U+FFFD,
  /// one diagnostic per line (its `count` the number of subparts replaced there).
  static func repairUTF8(_ bytes: [UInt8], reportingNUL: Bool = false) -> Transcoded {
    let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    let start = bom ? 3 : 0
    var log = DiagnosticLog()
    guard let firstBad = firstInvalidUTF8(in: bytes) else {
      if reportingNUL {
        bytes.withUnsafeBufferPointer { reportNUL($0, from: start, into: &log) }
      }
      return Transcoded(utf8: bom ? Array(bytes[3...]) : bytes, diagnostics: log.list)
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 16)
    bytes.withUnsafeBufferPointer { buffer in
      guard let p = buffer.baseAddress else { return }
      if reportingNUL { reportNUL(buffer, from: start, end: firstBad, into: &log) }
      let n = buffer.count
      out.append(contentsOf: buffer[start..<firstBad])
      var i = firstBad
      var line = TextEncoding.lineNumber(of: firstBad, in: buffer)
      while i < n {
        let b = p[i]
        if b == 0x0D || (b == 0x0A && (i == 0 || p[i - 1] != 0x0D)) { line += 1 }
        let length = utf8SequenceLength(p, i, n)
        if length > 0 {
          if b == 0 && reportingNUL {
            log.add(line: line, offset: i, fold: .nul, "NUL byte replaced with U+FFFD")
          }
          out.append(contentsOf: buffer[i..<(i + length)])
          i += length
          continue
        }
        out.append(contentsOf: [0xEF, 0xBF, 0xBD] as [UInt8])
        log.add(
          line: line, offset: i, fold: .invalidUTF8,
          "invalid UTF-8 byte 0x\(hex(b)) replaced with U+FFFD")
        i += invalidSubpartLength(p, i, n)
      }
    }
    return Transcoded(utf8: out, diagnostics: log.list)
  }

  /// A diagnostic for each NUL byte of `bytes[from..<end]` (repeats on a line folded), lines
  /// counted from the start of `bytes`.
  static func reportNUL(
    _ bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int? = nil, into log: inout DiagnosticLog
  ) {
    guard let p = bytes.baseAddress else { return }
    let end = end ?? bytes.count
    var i = ByteScanner.findMemchr(0, p, from, end)
    guard i < end else { return }
    var line = lineNumber(of: i, in: bytes)
    var counted = i
    while i < end {
      // Lines between the last NUL and this one.
      while counted < i {
        let b = p[counted]
        if b == 0x0D || (b == 0x0A && (counted == 0 || p[counted - 1] != 0x0D)) { line += 1 }
        counted += 1
      }
      log.add(line: line, offset: i, fold: .nul, "NUL byte replaced with U+FFFD")
      i = ByteScanner.findMemchr(0, p, i + 1, end)
    }
  }

  /// The 1-based number of the line holding byte `index` of `bytes`, lines ending at LF, CR or
  /// CRLF as both parsers count them.
  static func lineNumber(of index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let p = bytes.baseAddress, index > 0 else { return 1 }
    let feeds = ByteScanner.countScalar(0x0A, p, 0, index)
    let returns = ByteScanner.countScalar(0x0D, p, 0, index)
    guard returns > 0 else { return 1 + feeds }
    var line = 1
    for i in 0..<index where p[i] == 0x0D || (p[i] == 0x0A && (i == 0 || p[i - 1] != 0x0D)) {
      line += 1
    }
    return line
  }

  static func decodeUTF16(
    _ bytes: [UInt8], bigEndian: Bool, reportingNUL: Bool = false
  ) -> Transcoded {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var log = DiagnosticLog()
    let n = bytes.count
    var i = 0
    if n >= 2 {
      let first =
        bigEndian
        ? (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) : (UInt16(bytes[1]) << 8 | UInt16(bytes[0]))
      if first == 0xFEFF { i = 2 }
    }
    var line = 1
    func unit(_ k: Int) -> UInt16 {
      bigEndian
        ? UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1])
        : UInt16(bytes[k + 1]) << 8 | UInt16(bytes[k])
    }
    var previous: UInt16 = 0
    while i + 1 < n {
      let u = unit(i)
      // Lines end at LF, CR or CRLF, as both parsers count them.
      if u == 0x0D || (u == 0x0A && previous != 0x0D) { line += 1 }
      previous = u
      if u < 0xD800 || u > 0xDFFF {
        if u == 0 && reportingNUL {
          log.add(line: line, offset: i, fold: .nul, "NUL character replaced with U+FFFD")
        }
        appendUTF8(UInt32(u), to: &out)
        i += 2
        continue
      }
      if u <= 0xDBFF, i + 3 < n {
        let low = unit(i + 2)
        if low >= 0xDC00 && low <= 0xDFFF {
          let scalar = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
          appendUTF8(scalar, to: &out)
          i += 4
          continue
        }
      }
      appendUTF8(0xFFFD, to: &out)
      log.add(
        line: line, offset: i, fold: .unpairedSurrogate,
        "unpaired UTF-16 surrogate 0x\(String(u, radix: 16)) replaced with U+FFFD")
      i += 2
    }
    if i < n {
      appendUTF8(0xFFFD, to: &out)
      log.add(line: line, offset: i, "odd trailing byte in UTF-16 replaced with U+FFFD")
    }
    return Transcoded(utf8: out, diagnostics: log.list)
  }

  /// UTF-32 in `bytes` (a leading byte order mark dropped) as UTF-8. A unit that is no Unicode
  /// scalar (a surrogate, or past U+10FFFF) and trailing bytes short of a unit become U+FFFD
  /// with a diagnostic; NUL characters are kept, with a diagnostic when `reportingNUL`.
  static func decodeUTF32(
    _ bytes: [UInt8], bigEndian: Bool, reportingNUL: Bool = false
  ) -> Transcoded {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count / 4 + 16)
    var log = DiagnosticLog()
    let n = bytes.count
    func unit(_ k: Int) -> UInt32 {
      bigEndian
        ? UInt32(bytes[k]) << 24 | UInt32(bytes[k + 1]) << 16 | UInt32(bytes[k + 2]) << 8
          | UInt32(bytes[k + 3])
        : UInt32(bytes[k + 3]) << 24 | UInt32(bytes[k + 2]) << 16 | UInt32(bytes[k + 1]) << 8
          | UInt32(bytes[k])
    }
    var i = n >= 4 && unit(0) == 0xFEFF ? 4 : 0
    var line = 1
    var previous: UInt32 = 0
    while i + 3 < n {
      let u = unit(i)
      // Lines end at LF, CR or CRLF, as both parsers count them.
      if u == 0x0D || (u == 0x0A && previous != 0x0D) { line += 1 }
      previous = u
      if u > 0x10FFFF || (0xD800...0xDFFF).contains(u) {
        appendUTF8(0xFFFD, to: &out)
        log.add(
          line: line, offset: i,
          "UTF-32 unit 0x\(String(u, radix: 16)) is no Unicode character; replaced with U+FFFD")
      } else {
        if u == 0 && reportingNUL {
          log.add(line: line, offset: i, fold: .nul, "NUL character replaced with U+FFFD")
        }
        appendUTF8(u, to: &out)
      }
      i += 4
    }
    if i < n {
      appendUTF8(0xFFFD, to: &out)
      log.add(line: line, offset: i, "trailing bytes short of a UTF-32 unit replaced with U+FFFD")
    }
    return Transcoded(utf8: out, diagnostics: log.list)
  }

  /// `bytes[start...]` in this single-byte encoding as UTF-8. A byte the code page leaves
  /// unassigned (a table entry of U+FFFD) becomes U+FFFD with a diagnostic in `log`, repeats on
  /// a line folded.
  func decodeSingleByte(_ bytes: [UInt8], from start: Int, log: inout DiagnosticLog) -> [UInt8] {
    var out: [UInt8] = []
    let twoByteLetters = self != .windows1252 && self != .isoLatin1 && self != .isoLatin9
    // Letters beyond Latin-1 (all of the Cyrillic and Greek ones) take two UTF-8 bytes.
    out.reserveCapacity(bytes.count + (twoByteLetters ? bytes.count : bytes.count / 8))
    guard let table = highTable else {
      for b in bytes[start...] {
        if b < 0x80 {
          out.append(b)
        } else {
          appendUTF8(UInt32(scalar(forHighByte: b)), to: &out)
        }
      }
      return out
    }
    // Lines are counted only from the first unassigned byte on (files rarely have one).
    var line = 0
    var counted = 0
    for i in start..<bytes.count {
      let b = bytes[i]
      if b < 0x80 {
        out.append(b)
        continue
      }
      let scalar = table[Int(b &- 0x80)]
      appendUTF8(UInt32(scalar), to: &out)
      if scalar == 0xFFFD {
        if line == 0 {
          line = bytes.withUnsafeBufferPointer { TextEncoding.lineNumber(of: i, in: $0) }
        } else {
          while counted < i {
            let c = bytes[counted]
            if c == 0x0D || (c == 0x0A && (counted == 0 || bytes[counted - 1] != 0x0D)) {
              line += 1
            }
            counted += 1
          }
        }
        counted = i
        log.add(
          line: line, offset: i, fold: .invalidUTF8,
          "byte 0x\(hex(b)), unassigned in \(rawValue), replaced with U+FFFD")
      }
    }
    return out
  }

  /// The code point of byte `b` (`>= 0x80`) in this single-byte encoding.
  func scalar(forHighByte b: UInt8) -> UInt16 {
    switch self {
    case .windows1252:
      if b >= 0x80 && b <= 0x9F { return TextEncoding.windows1252High[Int(b - 0x80)] }
      return UInt16(b)
    case .isoLatin9:
      switch b {
      case 0xA4: return 0x20AC
      case 0xA6: return 0x0160
      case 0xA8: return 0x0161
      case 0xB4: return 0x017D
      case 0xB8: return 0x017E
      case 0xBC: return 0x0152
      case 0xBD: return 0x0153
      case 0xBE: return 0x0178
      default: return UInt16(b)
      }
    default: return UInt16(b)
    }
  }

  /// windows-1252 bytes 0x80 to 0x9F (WHATWG index; the five unassigned bytes map to the C1
  /// control of the same value).
  static let windows1252High: [UInt16] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
  ]
}

/// Appends the UTF-8 encoding of `scalar` (assumed to be a valid Unicode scalar value).
@inline(__always)
func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
  switch scalar {
  case 0..<0x80:
    out.append(UInt8(scalar))
  case 0x80..<0x800:
    out.append(UInt8(0xC0 | (scalar >> 6)))
    out.append(UInt8(0x80 | (scalar & 0x3F)))
  case 0x800..<0x10000:
    out.append(UInt8(0xE0 | (scalar >> 12)))
    out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
    out.append(UInt8(0x80 | (scalar & 0x3F)))
  default:
    out.append(UInt8(0xF0 | (scalar >> 18)))
    out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
    out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
    out.append(UInt8(0x80 | (scalar & 0x3F)))
  }
}

/// Two upper-case hexadecimal digits.
func hex(_ b: UInt8) -> String {
  let digits: [Character] = Array("0123456789ABCDEF")
  return String(digits[Int(b >> 4)]) + String(digits[Int(b & 0x0F)])
}
