/// An incremental WebVTT parser: feed the file in chunks as they arrive.
///
/// Feeding every chunk of a file and then calling `finish()` gives the same document as
/// `WebVTT.parse` on the whole file, whatever the chunk boundaries (also inside a UTF-8
/// sequence, a CRLF pair or the byte order mark).
public struct WebVTTStreamParser: Sendable {
  private var core = VTTCore()
  private var text: [UInt8] = []
  private var position = 0
  private var normalizer = VTTScan.Normalizer()
  /// Input bytes not yet normalised: the possible start of a BOM, or an unfinished UTF-8
  /// sequence (at most three bytes).
  private var carry: [UInt8] = []
  private var sawStart = false
  private var delivered = 0
  private var finished = false
  /// The error that failed the parser, thrown again by every later call.
  private var failure: SubtitleError?

  /// Creates a parser that has seen no input.
  public init() {}

  /// The document parsed so far. Its `text` grows as chunks arrive; cues are listed once their
  /// block has ended.
  public var document: SubtitleDocument { core.document(text: text) }

  /// Feeds the next chunk of the file.
  ///
  /// - Parameter chunk: The next raw bytes (UTF-8), any size; the caller keeps ownership.
  /// - Returns: The cues completed by this chunk, in file order (their ranges index into
  ///   `document.text`).
  /// - Throws: `SubtitleError.badSignature` as soon as the first bytes show that this is
  ///   not a WebVTT file; the parser then stays failed, and every later `feed` and `finish()`
  ///   throws the same error.
  /// - Complexity: O(chunk size) amortised.
  public mutating func feed(_ chunk: [UInt8]) throws(SubtitleError) -> [Cue] {
    try consume(chunk, final: false)
  }

  /// Ends the input: the last line and block are processed.
  ///
  /// - Returns: The cues completed by the end of the input.
  /// - Throws: `SubtitleError.badSignature` when the file is not WebVTT.
  public mutating func finish() throws(SubtitleError) -> [Cue] {
    try consume([], final: true)
  }

  private mutating func consume(_ chunk: [UInt8], final: Bool) throws(SubtitleError) -> [Cue] {
    if let failure { throw failure }
    if finished { return [] }
    var input = chunk
    if !carry.isEmpty {
      input = carry + chunk
      carry = []
    }
    input.withUnsafeBufferPointer { p in
      var start = 0
      if !sawStart {
        if p.count < 3 && !final && p.elementsEqual([0xEF, 0xBB, 0xBF].prefix(p.count)) {
          carry = Array(p)
          return
        }
        sawStart = true
        if WebVTT.hasByteOrderMark(p) { start = 3 }
      }
      let used = normalizer.append(p, from: start, end: p.count, final: final, to: &text)
      if start + used < p.count { carry = Array(p[(start + used)...]) }
    }
    do {
      try text.withUnsafeBufferPointer { p throws(SubtitleError) in
        try core.advance(p, position: &position, final: final)
      }
    } catch {
      finished = true
      failure = error
      throw error
    }
    if final { finished = true }
    let fresh = Array(core.cues[delivered...])
    delivered = core.cues.count
    return fresh
  }
}
