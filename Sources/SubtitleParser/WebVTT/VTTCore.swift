/// The WebVTT parser algorithm as a line-driven state machine over normalised text (LF line
/// ends only). It stores byte offsets, never pointers, so the text may grow between calls
/// (the incremental parser appends to it).
struct VTTCore {
  enum Phase {
    /// Waiting for the signature line.
    case signature
    /// The signature line is done; the next line decides whether there is a header block.
    case headerStart
    /// Header done: collecting blocks.
    case blocks
  }

  enum BlockKind {
    case other
    case cue
    case style
    case region
  }

  // Results.
  /// The cues, or with `cueStorage` the cues past its capacity.
  var cues: [Cue] = []
  /// Where the cues go first when set (the storage of the cue array `WebVTT.parse` builds):
  /// `storedCues` of its `cueCapacity` are written. Stores there skip the uniqueness and
  /// capacity checks of `append`; the cues past its capacity go to `cues`.
  /// (Only `WebVTT.parse` sets it, for the duration of one call: a core held elsewhere, as
  /// `WebVTTStreamParser` holds one, never has it set.)
  nonisolated(unsafe) var cueStorage: UnsafeMutablePointer<Cue>?
  var cueCapacity = 0
  var storedCues = 0
  var regions: [Region] = []
  var styles: [String] = []
  var diagnostics = DiagnosticLog()
  var header: String = ""
  var timestampMap: TimestampMap?

  // Parser state.
  var phase: Phase = .signature
  var seenCue = false
  /// 1-based number of the line being processed.
  var lineNumber = 0
  /// The last region index for each hash of an identifier's bytes: with `regionIndex(_:)`,
  /// "the last region whose identifier is value" in O(1) per cue setting, however many
  /// regions the file defines.
  var regionByHash: [Int: Int] = [:]

  // Block state ("collect a WebVTT block").
  var inBlock = false
  var inHeader = false
  var lineCount = 0
  var bufferStart = 0
  var bufferEnd = 0
  var bufferEmpty = true
  var seenArrow = false
  var kind: BlockKind = .other
  var cue = Cue(textRange: 0..<0, startTime: 0, endTime: 0)
  var cueTextStart = 0
  var blockStartLine = 0
  var blockReported = false
  /// The unfinished last line of the previous `advance` (the incremental parser's): where it
  /// starts, how far it was scanned and whether that part holds `-->`, so that a long line
  /// arriving in many chunks is scanned once, not once per chunk.
  var partialLine: (start: Int, scanned: Int, arrow: Bool) = (-1, 0, false)

  mutating func diagnose(
    _ reason: @autoclosure () -> String, offset: Int, line: Int? = nil
  ) {
    diagnostics.add(line: line ?? lineNumber, offset: offset, reason())
  }

  // MARK: - Signature

  /// Checks the signature given the first bytes of the text. Returns nil when more input is
  /// needed to decide (fewer than 7 bytes and not at the end).
  static func signatureIsValid(_ p: UnsafeBufferPointer<UInt8>, count: Int, final: Bool) -> Bool? {
    if count < 7 && !final { return nil }
    guard count >= 6, VTTSyntax.hasPrefix(p, start: 0, end: count, "WEBVTT") else { return false }
    if count == 6 { return true }
    let next = p[6]
    return next == 0x20 || next == 0x09 || next == 0x0A
  }

  /// Handles the signature line `p[0..<end]` (the signature must already be valid).
  mutating func signatureLine(_ p: UnsafeBufferPointer<UInt8>, end: Int) {
    assert(Self.signatureIsValid(p, count: p.count, final: true) == true, "invalid signature")
    lineNumber = 1
    if end > 7 {
      header = String(decoding: UnsafeBufferPointer(rebasing: p[7..<end]), as: UTF8.self)
    }
    phase = .headerStart
  }

  // MARK: - Driving

  /// Processes every complete line of `p` from `position` on, advancing `position` past
  /// them. With `final`, the unterminated remainder is processed as the last line and the
  /// open block is closed.
  ///
  /// - Throws: `SubtitleError.badSignature` when the text does not start with the WebVTT
  ///   signature.
  mutating func advance(
    _ p: UnsafeBufferPointer<UInt8>, position positionInOut: inout Int, final: Bool
  ) throws(SubtitleError) {
    // The position in a local, which stays in a register (stored back on the way out).
    var position = positionInOut
    defer { positionInOut = position }
    let count = p.count
    if phase == .signature {
      guard let valid = Self.signatureIsValid(p, count: count, final: final) else { return }
      guard valid else { throw .badSignature(line: 1, offset: 0) }
      let end = VTTScan.lineEnd(p, from: max(0, partialLine.scanned), end: count)
      if end == count && !final {
        partialLine.scanned = count
        return
      }
      signatureLine(p, end: end)
      position = min(end + 1, count)
    }
    if let base = p.baseAddress, position < count {
      // Line ends and arrows are found 64 bytes per step, each block classified once.
      var lines = LineCursor(base, count)
      // A line the inner loop looked at and left to the outer one.
      var pending = false
      var end = 0
      var arrow = false
      if partialLine.start == position && partialLine.scanned - 2 > position {
        // Resume the unfinished line where its scan stopped (an arrow may end two bytes on).
        (end, arrow) = lines.line(from: partialLine.scanned - 2)
        arrow = arrow || partialLine.arrow
        pending = true
      }
      while position < count {
        if !pending { (end, arrow) = lines.line(from: position) }
        pending = false
        if end == count {
          partialLine = (position, count, arrow)
          break
        }
        if arrow && phase == .blocks && end > position
          && (!inBlock || (!inHeader && lineCount == 1 && !seenArrow))
        {
          // A timing line that starts a block or follows its first line (what `line` and
          // `blockLine` do for it): the cue starts here.
          lineNumber &+= 1
          if !inBlock { beginBlock(header: false, start: position) }
          lineCount &+= 1
          seenArrow = true
          createCue(p, start: position, end: end, eof: false)
        } else if !inBlock && phase == .blocks && end > position {
          // The first line of a block without an arrow (a cue identifier, mostly): what `line`
          // and `blockLine` do for it.
          lineNumber &+= 1
          beginBlock(header: false, start: position)
          lineCount = 1
          bufferEmpty = false
          bufferEnd = end
        } else {
          line(p, start: position, end: end, eof: false, arrow: arrow)
        }
        position = end &+ 1
        // The text lines of a cue in a loop of their own (what `blockLine` does for them):
        // its exit is one branch per cue whose outcome varies, not one per line.
        guard inBlock && kind == .cue else { continue }
        while position < count {
          (end, arrow) = lines.line(from: position)
          if end == position || end == count || arrow {
            if end == position && end < count {
              // The blank line that ends the cue (what `line` and `blockLine` do for it).
              lineNumber &+= 1
              lineCount &+= 1
              endCue()
              position = end &+ 1
            } else {
              pending = true
            }
            break
          }
          lineNumber &+= 1
          lineCount &+= 1
          if bufferEmpty {
            bufferStart = position
            bufferEmpty = false
          }
          bufferEnd = end
          position = end &+ 1
        }
      }
    }
    if final {
      line(p, start: position, end: count, eof: true)
      position = count
      finish(p)
    }
  }

  /// The document built so far, with `text` as its text.
  func document(text: [UInt8]) -> SubtitleDocument {
    SubtitleDocument(
      format: .webVTT, text: text, header: header, regions: regions, styles: styles, cues: cues,
      diagnostics: diagnostics.list, timestampMap: timestampMap)
  }

  // MARK: - Lines

  /// Processes one line `p[start..<end]` (without its LF). `eof` is true for the last line
  /// of the input when it has no terminating LF (or is the empty remainder after the last LF).
  mutating func line(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, eof: Bool, arrow: Bool? = nil
  ) {
    lineNumber += 1
    switch phase {
    case .signature:
      return
    case .headerStart:
      phase = .blocks
      if start == end { return }
      beginBlock(header: true, start: start)
    case .blocks:
      if !inBlock {
        if start == end { return }
        beginBlock(header: false, start: start)
      }
    }
    blockLine(
      p, start: start, end: end, eof: eof,
      arrow: arrow ?? VTTScan.containsArrow(p, start: start, end: end))
  }

  /// Ends the input: closes any open block.
  mutating func finish(_ p: UnsafeBufferPointer<UInt8>) {
    if inBlock { endBlock(p) }
  }

  mutating func beginBlock(header: Bool, start: Int) {
    inBlock = true
    inHeader = header
    lineCount = 0
    bufferEmpty = true
    bufferStart = start
    bufferEnd = start
    seenArrow = false
    kind = .other
    blockStartLine = lineNumber
    blockReported = false
  }

  mutating func blockLine(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, eof: Bool, arrow: Bool
  ) {
    lineCount += 1
    if arrow {
      if !inHeader && (lineCount == 1 || (lineCount == 2 && !seenArrow)) {
        seenArrow = true
        createCue(p, start: start, end: end, eof: eof)
      } else {
        // "Let position be previous position": the line starts the next block.
        endBlock(p)
        beginBlock(header: false, start: start)
        blockLine(p, start: start, end: end, eof: eof, arrow: arrow)
        return
      }
    } else if start == end {
      endBlock(p)
      return
    } else {
      if !inHeader && lineCount == 2 && !seenCue && kind == .other && !bufferEmpty {
        if Self.isBlockKeyword(p, start: bufferStart, end: bufferEnd, "STYLE") {
          kind = .style
          bufferEmpty = true
        } else if Self.isBlockKeyword(p, start: bufferStart, end: bufferEnd, "REGION") {
          kind = .region
          bufferEmpty = true
        }
      }
      if bufferEmpty {
        bufferStart = start
        bufferEmpty = false
      }
      bufferEnd = end
    }
    if eof { endBlock(p) }
  }

  /// `keyword` followed only by ASCII whitespace.
  static func isBlockKeyword(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, _ keyword: StaticString
  ) -> Bool {
    guard VTTSyntax.hasPrefix(p, start: start, end: end, keyword) else { return false }
    var index = start + keyword.utf8CodeUnitCount
    while index < end {
      if !VTTSyntax.isWhitespace(p[index]) { return false }
      index += 1
    }
    return true
  }

  @inline(__always)
  mutating func createCue(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, eof: Bool
  ) {
    // The common `hh:mm:ss.ttt --> hh:mm:ss.ttt` (single spaces, two or three hour digits),
    // in two 16-byte vector tests, the cue built in place; any other form takes the general
    // path, which gives the same result for this one.
    guard let (first, second, rest) = VTTSyntax.canonicalTimings(p, start: start, end: end)
    else {
      createGeneralCue(p, start: start, end: end, eof: eof)
      return
    }
    // Both divisions in one instruction (each lane rounds as a scalar division would).
    let seconds = SIMD2<Double>(Double(first), Double(second)) / 1000
    cue = Cue(
      idRange: bufferEmpty ? start..<start : bufferStart..<bufferEnd, textRange: 0..<0,
      startTime: seconds[0], endTime: seconds[1], line: lineNumber)
    // (Most timing lines have no settings: the defaults are then stored once, as constants.)
    if rest < end { cue.settings = parsedSettings(p, start: rest, end: end) }
    kind = .cue
    bufferEmpty = true
    cueTextStart = eof ? end : end &+ 1
    seenCue = true
  }

  /// `createCue` for the timing lines its fast path leaves.
  @inline(never)
  mutating func createGeneralCue(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, eof: Bool
  ) {
    let idRange = bufferEmpty ? start..<start : bufferStart..<bufferEnd
    var parsed = Cue(
      idRange: idRange, textRange: 0..<0, startTime: 0, endTime: 0, line: lineNumber)
    if parseTimingsAndSettings(p, start: start, end: end, into: &parsed) {
      cue = parsed
      kind = .cue
      bufferEmpty = true
      cueTextStart = eof ? end : end + 1
      seenCue = true
    } else {
      kind = .other
      blockReported = true
    }
  }

  /// Closes a cue block: the cue gets its text range and joins the list.
  @inline(__always)
  mutating func endCue() {
    inBlock = false
    cue.textRange = bufferEmpty ? cueTextStart..<cueTextStart : bufferStart..<bufferEnd
    if let cueStorage, storedCues < cueCapacity {
      (cueStorage + storedCues).initialize(to: cue)
      storedCues &+= 1
    } else {
      cues.append(cue)
    }
  }

  mutating func endBlock(_ p: UnsafeBufferPointer<UInt8>) {
    inBlock = false
    if inHeader {
      if !bufferEmpty { readHeader(p, start: bufferStart, end: bufferEnd) }
      return
    }
    switch kind {
    case .cue:
      endCue()
    case .style:
      styles.append(
        bufferEmpty
          ? ""
          : String(
            decoding: UnsafeBufferPointer(rebasing: p[bufferStart..<bufferEnd]), as: UTF8.self))
    case .region:
      var region = Region()
      if !bufferEmpty { parseRegionSettings(p, start: bufferStart, end: bufferEnd, into: &region) }
      var id = region.id
      let previous = id.isEmpty ? nil : id.withUTF8 { regionIndex($0) }
      if let previous {
        diagnose(
          "REGION id '\(region.id)' redefined; cues now refer to the later one"
            + " (the earlier is region \(previous))",
          offset: bufferStart, line: blockStartLine)
      }
      regions.append(region)
      if !id.isEmpty { regionByHash[id.withUTF8 { Self.idHash($0) }] = regions.count - 1 }
    case .other:
      guard !blockReported, !bufferEmpty else { return }
      if VTTSyntax.hasPrefix(p, start: bufferStart, end: bufferEnd, "NOTE") {
        let after = bufferStart + 4
        if after == bufferEnd || VTTSyntax.isWhitespace(p[after]) { return }
      }
      if seenCue
        && (Self.firstLineIs(p, start: bufferStart, end: bufferEnd, "STYLE")
          || Self.firstLineIs(p, start: bufferStart, end: bufferEnd, "REGION"))
      {
        diagnose(
          "STYLE/REGION block after the first cue ignored", offset: bufferStart,
          line: blockStartLine)
      } else {
        diagnose(
          "block without a timing line ignored", offset: bufferStart, line: blockStartLine)
      }
    }
  }

  static func firstLineIs(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, _ keyword: StaticString
  ) -> Bool {
    let lineEnd = VTTScan.lineEnd(p, from: start, end: end)
    return isBlockKeyword(p, start: start, end: lineEnd, keyword)
  }

  // MARK: - Header

  mutating func readHeader(_ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
    let text = String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
    // After the signature line's text, even when that is empty: a writer can then tell header
    // lines from text on the signature line.
    header += "\n" + text
    var lineStart = start
    var number = blockStartLine
    while lineStart <= end {
      let lineEnd = VTTScan.lineEnd(p, from: lineStart, end: end)
      if VTTSyntax.hasPrefix(p, start: lineStart, end: lineEnd, "X-TIMESTAMP-MAP=") {
        if let map = Self.timestampMap(p, start: lineStart + 16, end: lineEnd) {
          timestampMap = map
        } else {
          diagnose("malformed X-TIMESTAMP-MAP ignored", offset: lineStart, line: number)
        }
      }
      lineStart = lineEnd + 1
      number += 1
    }
  }

  /// `MPEGTS:<ticks>,LOCAL:<timestamp>` in either order.
  static func timestampMap(_ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> TimestampMap? {
    var mpegts: Int64?
    var local: Double?
    var fieldStart = start
    while fieldStart < end {
      var fieldEnd = fieldStart
      while fieldEnd < end && p[fieldEnd] != 0x2C { fieldEnd += 1 }
      if VTTSyntax.hasPrefix(p, start: fieldStart, end: fieldEnd, "MPEGTS:") {
        var value: Int64 = 0
        var index = fieldStart + 7
        guard index < fieldEnd else { return nil }
        while index < fieldEnd {
          guard VTTSyntax.isDigit(p[index]) else { return nil }
          let (times10, o1) = value.multipliedReportingOverflow(by: 10)
          let (sum, o2) = times10.addingReportingOverflow(Int64(p[index] &- 0x30))
          guard !o1, !o2 else { return nil }
          value = sum
          index += 1
        }
        mpegts = value
      } else if VTTSyntax.hasPrefix(p, start: fieldStart, end: fieldEnd, "LOCAL:") {
        var position = fieldStart + 6
        guard case .success(let millis) = VTTSyntax.collectTimestamp(p, &position, end: fieldEnd),
          position == fieldEnd
        else { return nil }
        local = Double(millis) / 1000
      } else {
        return nil
      }
      fieldStart = fieldEnd + 1
    }
    guard let mpegts, let local else { return nil }
    return TimestampMap(mpegts: mpegts, local: local)
  }
}
