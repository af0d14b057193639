extension ByteScanner {
  /// `source[from...]` with each CRLF and each lone CR replaced by LF.
  ///
  /// 64-byte blocks, each searched for CRs (into a bit mask); the text between two CRs is
  /// copied as one segment, 48 bytes at once (see `LineEndBlockWriter`), so each byte is
  /// stored about once and the work depends on the number of line ends, hardly on the length
  /// of the lines.
  static func replacingLineEnds(_ source: UnsafeBufferPointer<UInt8>, from: Int) -> [UInt8] {
    var count = 0
    return replacingLineEnds(source, from: from, counting: 0x3E, count: &count)
  }

  /// `replacingLineEnds(_:from:)`, also counting the `counted` bytes of `source[from...]`
  /// (`counted` must not be CR or LF) in the same pass.
  static func replacingLineEnds(
    _ source: UnsafeBufferPointer<UInt8>, from: Int, counting counted: UInt8, count: inout Int
  ) -> [UInt8] {
    count = 0
    let n = source.count
    guard from < n, let s = source.baseAddress else { return [] }
    var total = 0
    defer { count = total }
    return [UInt8](unsafeUninitializedCapacity: n - from + 64) { destination, written in
      written = 0
      guard let d = destination.baseAddress else { return }
      let sourceRaw = UnsafeRawPointer(s)
      let destinationRaw = UnsafeMutableRawPointer(d)
      HugePages.advise(destinationRaw, count: destination.count)
      let positions = UnsafeMutablePointer<Int>.allocate(
        capacity: LineEndBlockWriter.positionCapacity)
      defer { positions.deallocate() }
      var block = LineEndBlockWriter(
        source: sourceRaw, destination: destinationRaw, from: from, counting: counted,
        positions: positions)
      var i = from
      // The output never runs ahead of the input, so the stores past it stay within the
      // capacity; the loads stay below `i + 128 <= n`. The counts are summed every 63 blocks.
      while i + 128 <= n {
        let last = min(n - 128, i + 62 * 64)
        while i <= last {
          let (a, b, c, e) = ByteScanner.load64(sourceRaw, i)
          block.write(a, b, c, e, readAt: i)
          i &+= 64
        }
        block.sumCounts()
      }
      written = block.writeTail(from: i, end: n)
      total += block.finish()
    }
  }
}

/// The 64-byte block step the line-end rewriters share (`ByteScanner.replacingLineEnds` for
/// SRT, `VTTScan.validLineEndsReplaced` for WebVTT). The output is the source cut at each CR
/// into segments: the bytes from just after one CR up to the next. A block is only read: a
/// byte value is counted in it, and the offsets of its CRs (found in a bit mask) are noted.
/// Every `sumCounts` then copies, for each CR noted, the segment it ends to the destination,
/// 48 bytes at once (more in a loop for the few longer ones), and writes an LF after it when
/// no LF follows the CR (a CRLF keeps its LF as the first byte of the next segment). Each byte
/// is stored about once, and the work per CR does not depend on where in the block the CR is.
///
/// Noting first and copying later keeps the branches predictable: a block takes four CRs
/// without a test each (a line averages 20 to 40 bytes), and the copying runs as one loop
/// over many blocks' CRs, where a loop per block would end at a varying count.
struct LineEndBlockWriter {
  let source: UnsafeRawPointer
  let destination: UnsafeMutableRawPointer
  let needle: SIMD16<UInt8>
  let returns: SIMD16<UInt8> = SIMD16(repeating: 0x0D)
  /// Per-lane counts of the counted byte, at most 4 a block: the caller has them summed
  /// (`sumCounts`) at least every 63 blocks.
  var counters: SIMD16<UInt8> = .zero
  var total = 0
  /// Source offset of the segment not copied yet (just after the last CR seen).
  var pending: Int
  /// Destination offset where that segment goes.
  var written = 0
  /// The source offsets of the CRs noted since the last `sumCounts`, in order: room for
  /// `LineEndBlockWriter.positionCapacity` (63 blocks' worth, and the slots written past the
  /// last one). Owned by the caller.
  let positions: UnsafeMutablePointer<Int>
  /// How many of `positions` hold a CR.
  var noted = 0

  /// The room `positions` must have: every byte of 63 blocks a CR, and four slots more.
  static let positionCapacity = 63 * 64 + 4

  /// A writer whose output starts with `source[from]` at `destination`, noting CRs in
  /// `positions` (at least `positionCapacity` elements, owned by the caller).
  init(
    source: UnsafeRawPointer, destination: UnsafeMutableRawPointer, from: Int,
    counting counted: UInt8, positions: UnsafeMutablePointer<Int>
  ) {
    assert(counted != 0x0A && counted != 0x0D, "the counted byte is a line end")
    self.positions = positions
    self.source = source
    self.destination = destination
    needle = SIMD16(repeating: counted)
    pending = from
  }

  /// Takes the block `a b c e`, read at source offset `i`: counts the counted byte in it and
  /// notes its CRs, whose segments the next `sumCounts` writes. The 112 bytes from `i` must be
  /// readable, and the destination must have room for 48 bytes past the end of the source
  /// bytes read so far. `sumCounts` must run at least every 63 blocks.
  @inline(__always)
  mutating func write(
    _ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>, _ c: SIMD16<UInt8>, _ e: SIMD16<UInt8>, readAt i: Int
  ) {
    counters = counters &- unsafeBitCast(a .== needle, to: SIMD16<UInt8>.self)
    counters = counters &- unsafeBitCast(b .== needle, to: SIMD16<UInt8>.self)
    counters = counters &- unsafeBitCast(c .== needle, to: SIMD16<UInt8>.self)
    counters = counters &- unsafeBitCast(e .== needle, to: SIMD16<UInt8>.self)
    var bits = ByteScanner.bitMask(
      a .== returns, b .== returns, c .== returns, e .== returns, skipEmpty: false)
    let count = bits.nonzeroBitCount
    // Four slots are written whatever the count (an empty mask gives `i + 64`, past the
    // count, so never read); a loop takes the rare fifth CR and those after it.
    let slots = positions + noted
    slots[0] = i &+ bits.trailingZeroBitCount
    bits &= bits &- 1
    slots[1] = i &+ bits.trailingZeroBitCount
    bits &= bits &- 1
    slots[2] = i &+ bits.trailingZeroBitCount
    bits &= bits &- 1
    slots[3] = i &+ bits.trailingZeroBitCount
    bits &= bits &- 1
    var k = 4
    while bits != 0 {
      slots[k] = i &+ bits.trailingZeroBitCount
      bits &= bits &- 1
      k &+= 1
    }
    noted &+= count
  }

  /// Writes the segments the noted CRs end, each followed by an LF when the CR is not part of
  /// a CRLF, and forgets them.
  @inline(__always)
  mutating func writeNoted() {
    var r = 0
    while r < noted {
      let cr = positions[r]
      r &+= 1
      copySegment(to: cr)
      if source.load(fromByteOffset: cr &+ 1, as: UInt8.self) != 0x0A {
        destination.storeBytes(of: 0x0A, toByteOffset: written, as: UInt8.self)
        written &+= 1
      }
      pending = cr &+ 1
    }
    noted = 0
  }

  /// Copies `source[pending..<end]` to `destination + written` and advances `written`. Copies
  /// 48 bytes, then 16 at a time while any are left: up to 47 bytes past `end` are read and
  /// written, to be overwritten by what comes next.
  @inline(__always)
  mutating func copySegment(to end: Int) {
    let s = pending
    let o = written
    let a: SIMD16<UInt8> = source.loadUnaligned(fromByteOffset: s, as: SIMD16<UInt8>.self)
    let b: SIMD16<UInt8> = source.loadUnaligned(fromByteOffset: s &+ 16, as: SIMD16<UInt8>.self)
    let c: SIMD16<UInt8> = source.loadUnaligned(fromByteOffset: s &+ 32, as: SIMD16<UInt8>.self)
    destination.storeBytes(of: a, toByteOffset: o, as: SIMD16<UInt8>.self)
    destination.storeBytes(of: b, toByteOffset: o &+ 16, as: SIMD16<UInt8>.self)
    destination.storeBytes(of: c, toByteOffset: o &+ 32, as: SIMD16<UInt8>.self)
    let length = end &- s
    var k = 48
    while k < length {
      let v: SIMD16<UInt8> = source.loadUnaligned(fromByteOffset: s &+ k, as: SIMD16<UInt8>.self)
      destination.storeBytes(of: v, toByteOffset: o &+ k, as: SIMD16<UInt8>.self)
      k &+= 16
    }
    written = o &+ length
  }

  /// Writes what is left after the last whole block: the pending segment up to `from`, then
  /// `source[from..<end]` one byte at a time, each CRLF and each lone CR as LF, counting the
  /// counted byte in these. A CRLF split by the last block boundary has its LF here: that LF
  /// starts the pending segment (`write` did not write the CR). Returns the destination offset
  /// after the last byte.
  mutating func writeTail(from: Int, end: Int) -> Int {
    writeNoted()
    let s = source.assumingMemoryBound(to: UInt8.self)
    let d = destination.assumingMemoryBound(to: UInt8.self)
    var o = written
    var k = pending
    while k + 16 <= from {
      let v: SIMD16<UInt8> = source.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
      destination.storeBytes(of: v, toByteOffset: o, as: SIMD16<UInt8>.self)
      k += 16
      o += 16
    }
    while k < from {
      d[o] = s[k]
      k += 1
      o += 1
    }
    var i = from
    while i < end {
      let byte = s[i]
      if byte == needle[0] { total += 1 }
      i += 1
      if byte == 0x0D {
        d[o] = 0x0A
        if i < end && s[i] == 0x0A { i += 1 }
      } else {
        d[o] = byte
      }
      o += 1
    }
    pending = end
    written = o
    return o
  }

  /// Moves the per-lane counts to the total, before they can wrap, and writes the segments
  /// of the CRs noted so far.
  @inline(__always)
  mutating func sumCounts() {
    writeNoted()
    total += ByteScanner.laneSum(counters)
    counters = .zero
  }

  /// The count of the counted byte over every block and tail written.
  mutating func finish() -> Int {
    total += ByteScanner.laneSum(counters)
    counters = .zero
    return total
  }
}
