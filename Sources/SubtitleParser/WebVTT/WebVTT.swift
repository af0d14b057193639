/// The W3C WebVTT parser: file parsing ("WebVTT parser algorithm") and cue text parsing.
///
/// The parser reads raw bytes. It decodes them as UTF-8 the way the spec requires (one
/// leading byte order mark is skipped, invalid sequences and NUL become U+FFFD) and
/// normalises CRLF and CR line ends to LF. The resulting bytes become the document's `text`;
/// cues refer to their identifier and payload by byte ranges into it.
public enum WebVTT {
  /// Parses a whole WebVTT file.
  ///
  /// Everything the spec tells a parser to skip (a malformed timing line, an unknown cue
  /// setting, a malformed region setting, a block that is not a cue) is skipped and recorded
  /// in `diagnostics` with its line number and a reason.
  ///
  /// - Parameter bytes: The file content as raw bytes (UTF-8). The caller keeps ownership;
  ///   the document holds its own normalised copy.
  /// - Returns: The document: cues (times in seconds), regions, style sheets, header.
  /// - Throws: `SubtitleError.badSignature` when the file does not start with `WEBVTT`
  ///   followed by a space, tab, line end or the end of the file (the spec rejects such
  ///   files as a whole).
  /// - Complexity: O(n) in the number of bytes.
  public static func parse(_ bytes: [UInt8]) throws(SubtitleError) -> SubtitleDocument {
    try parse(bytes, storedCueLimit: Int.max)
  }

  /// `parse(_:)` with at most `storedCueLimit` cues written into the storage reserved for
  /// them, the others appended (for testing that path, which files do not reach).
  static func parse(_ bytes: [UInt8], storedCueLimit: Int) throws(SubtitleError)
    -> SubtitleDocument
  {
    var repaired = false
    return try parse(bytes, storedCueLimit: storedCueLimit, repaired: &repaired)
  }

  /// `parse(_:storedCueLimit:)`, setting `repaired` when the input held invalid UTF-8 or NUL
  /// (more than a byte order mark and line ends to change).
  static func parse(_ bytes: [UInt8], storedCueLimit: Int, repaired: inout Bool)
    throws(SubtitleError) -> SubtitleDocument
  {
    let (text, counted) = normalizeCounting(bytes)
    repaired = counted == nil
    var core = VTTCore()
    var failure: SubtitleError?
    // Every cue has a timing line with a `>`: their count bounds the cue count without the
    // copies of growing the array. Validation counts them on the way when the input needs
    // no repair; otherwise a pass of their own does (32 bytes a step).
    let arrows = text.withUnsafeBufferPointer { p in
      guard let base = p.baseAddress else { return 0 }
      return counted ?? ByteScanner.countVector(0x3E, base, 0, p.count)
    }
    // The cues are written straight into the array's storage, without the uniqueness and
    // capacity checks of an `append` per cue. Those past it (none in practice: a cue takes
    // more than 16 bytes) are appended to `core.cues`.
    var cues = [Cue](unsafeUninitializedCapacity: min(arrows, text.count / 16) + 1) {
      storage, initialized in
      HugePages.advise(storage)
      core.cueStorage = storage.baseAddress
      core.cueCapacity = min(storage.count, storedCueLimit)
      text.withUnsafeBufferPointer { p in
        var position = 0
        do throws(SubtitleError) {
          try core.advance(p, position: &position, final: true)
        } catch {
          failure = error
        }
      }
      initialized = core.storedCues
      core.cueStorage = nil
      core.cueCapacity = 0
    }
    if let failure { throw failure }
    cues += core.cues
    core.cues = cues
    return core.document(text: text)
  }

  /// The spec's input preprocessing: UTF-8 decode (one leading BOM skipped, invalid
  /// sequences → U+FFFD), NUL → U+FFFD, CRLF and CR → LF.
  ///
  /// - Parameter bytes: Raw file bytes.
  /// - Returns: Valid UTF-8 with LF line ends only.
  /// - Complexity: O(n).
  public static func normalize(_ bytes: [UInt8]) -> [UInt8] {
    normalizeCounting(bytes).text
  }

  /// `normalize(_:)`, and the number of `>` bytes in the result when the input needed no
  /// repair beyond the BOM and line ends (nil otherwise).
  static func normalizeCounting(_ bytes: [UInt8]) -> (text: [UInt8], arrows: Int?) {
    var text: [UInt8] = []
    var unchanged = false
    var arrows: Int? = nil
    bytes.withUnsafeBufferPointer { input in
      let start = hasByteOrderMark(input) ? 3 : 0
      // A file whose first 4 KiB hold a CR is checked, counted and rewritten in one pass;
      // when it turns out to need more than its line ends changed, the full normalisation
      // below takes over.
      let headEnd = min(start + 4096, input.count)
      if let base = input.baseAddress,
        ByteScanner.findMemchr(VTTScan.cr, base, start, headEnd) < headEnd,
        let rewritten = VTTScan.validLineEndsReplaced(input, from: start)
      {
        text = rewritten.text
        arrows = rewritten.arrows
        return
      }
      var sawCR = false
      var count = 0
      let valid = VTTScan.validRunEnd(
        input, from: start, end: input.count, final: true, stopAtCR: false, sawCR: &sawCR,
        arrows: &count)
      if valid == input.count {
        arrows = count
        // Valid UTF-8 without NUL: at most the BOM and the line ends change.
        if start == 0 && !sawCR {
          unchanged = true
        } else {
          text = ByteScanner.replacingLineEnds(input, from: start)
        }
        return
      }
      let clean = VTTScan.unchangedPrefixEnd(input, from: start)
      text.reserveCapacity(input.count + 16)
      text.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<clean]))
      var normalizer = VTTScan.Normalizer()
      _ = normalizer.append(input, from: clean, end: input.count, final: true, to: &text)
    }
    // Most files need no change: share the caller's storage instead of copying it.
    return (unchanged ? bytes : text, arrows)
  }

  static func hasByteOrderMark(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
    input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF
  }
}

extension TimestampMap {
  /// The MPEG-TS timestamp period: presentation times are 33-bit counts of 90 kHz ticks.
  public static let rolloverTicks: Int64 = 1 << 33

  /// Maps a cue time to an MPEG-TS presentation timestamp, as HLS defines for WebVTT
  /// segments: `mpegts + (cueTime − local) × 90 000`, rounded to the nearest tick and wrapped
  /// into the 33-bit range.
  ///
  /// - Parameter cueTime: A cue time in seconds (a `Cue.startTime` or `Cue.endTime`).
  /// - Returns: The presentation time in 90 kHz ticks, in `0..<2^33`.
  public func presentationTicks(forCueTime cueTime: Double) -> Int64 {
    let offset = (cueTime - local) * 90_000
    let clamped = max(-0x1p62, min(0x1p62, offset.rounded()))
    let raw = mpegts % Self.rolloverTicks + Int64(clamped) % Self.rolloverTicks
    let wrapped = raw % Self.rolloverTicks
    return wrapped < 0 ? wrapped + Self.rolloverTicks : wrapped
  }

  /// `presentationTicks(forCueTime:)` in seconds (ticks / 90 000).
  ///
  /// - Parameter cueTime: A cue time in seconds.
  /// - Returns: The wrapped presentation time in seconds, in `0..<95443.7176`.
  public func presentationTime(forCueTime cueTime: Double) -> Double {
    Double(presentationTicks(forCueTime: cueTime)) / 90_000
  }
}
