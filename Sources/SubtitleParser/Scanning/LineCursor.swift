/// Sequential line splitting for the WebVTT and SRT parsers: each call gives the end of one line
/// and, when asked for, whether the line contains `-->` (the WebVTT parser's question; the SRT
/// parser tests its timing lines itself and leaves `arrows` off). Both come from one bit mask
/// per 64-byte block, of its events: its line feeds and, with `arrows`, the `>` of each `-->`
/// (found through loads one and two bytes earlier). The masks are made for a chunk of consecutive blocks at once, in a loop without
/// branches; the byte at an event tells which kind it is. A line is found from the mask
/// words of the block it starts in and the next one, by stepping over the events of its
/// arrows (mostly none or one), so a line that crosses into the next block costs no more
/// than one that does not. `from` must not decrease between calls. Agrees with
/// `VTTScan.lineEnd` and `VTTScan.containsArrow`.
struct LineCursor: ~Copyable {
  let base: UnsafePointer<UInt8>
  let end: Int
  /// Whether the ends of arrows are events (and `line(from:)` tells whether a line has one).
  let arrows: Bool
  /// Blocks per chunk.
  let capacity: Int
  /// The event masks of the chunk's blocks, then of the block after them (0 past the end):
  /// bit k of word j is set when `base[chunk + 64 * j + k]` is LF or ends an arrow.
  /// `capacity + 1` words, owned.
  let masks: UnsafeMutablePointer<UInt64>
  /// Offset of the chunk's first block.
  var chunk = 0
  /// Bytes the chunk's blocks span from `chunk` (0 before the first chunk).
  var covered = 0

  /// A cursor over `base[0..<end]` (which the caller keeps alive while the cursor is used),
  /// classifying `blocksPerChunk` 64-byte blocks at a time; without `arrows`, line feeds are
  /// the only events and every `arrow` answer is false.
  init(_ base: UnsafePointer<UInt8>, _ end: Int, arrows: Bool = true, blocksPerChunk: Int = 64) {
    self.base = base
    self.end = end
    self.arrows = arrows
    capacity = max(1, blocksPerChunk)
    masks = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity + 1)
  }

  deinit { masks.deallocate() }

  /// The index of the first LF at or after `from` (or `end`), and whether
  /// `base[from..<thatIndex]` contains `-->`.
  @inline(__always)
  mutating func line(from: Int) -> (end: Int, arrow: Bool) {
    // The common case inline: the line ends within 64 bytes. Bit i of `window` is the event
    // bit of `from + i`, from the words of the block `from` is in and the next one.
    let r = from &- chunk
    if r >= 0 && r < covered {
      let word = r &>> 6
      let k = UInt64(truncatingIfNeeded: r & 63)
      var window = masks[word] &>> k | (masks[word &+ 1] &<< 1) &<< (63 &- k)
      var arrow = false
      while window != 0 {
        let i = window.trailingZeroBitCount
        if base[from &+ i] == 0x0A { return (from &+ i, arrow) }
        // Arrows end at `from + 2` or later: their hyphens lie in the line.
        arrow = arrow || i >= 2
        window &= window &- 1
      }
    }
    return lineAcrossBlocks(from: from)
  }

  /// `line(from:)` for the other cases: a line that ends two or more blocks on, or not at
  /// all, or that starts outside the chunk.
  @inline(never)
  mutating func lineAcrossBlocks(from: Int) -> (end: Int, arrow: Bool) {
    if from &- chunk < 0 || from &- chunk >= covered {
      guard from < end else { return (end, false) }
      fill(at: from)
    }
    var r = from &- chunk
    var k = UInt64(truncatingIfNeeded: r & 63)
    var arrow = false
    while true {
      let word = r &>> 6
      var events = masks[word] & (~0 &<< k)
      while events != 0 {
        let event = chunk &+ word &* 64 &+ events.trailingZeroBitCount
        if base[event] == 0x0A { return (event, arrow) }
        if event >= from &+ 2 { arrow = true }
        events &= events &- 1
      }
      r = (word &+ 1) &* 64
      k = 0
      if chunk &+ r >= end { return (end, arrow) }
      if r >= covered {
        fill(at: chunk &+ covered)
        r = 0
      }
    }
  }

  /// Makes the chunk start at `at` (< `end`): the masks of up to `capacity` blocks from there
  /// and of the block after them. Blocks whose loads stay within `base[0..<end]` are
  /// classified with vector compares; the first block of the input and the last, partial,
  /// one byte by byte.
  mutating func fill(at: Int) {
    assert(at >= 0 && at < end, "chunk outside the input")
    chunk = at
    let blocks = min(capacity, (end &- at &+ 63) &>> 6)
    covered = blocks &* 64
    var j = 0
    var b = at
    if b < 2 {
      masks[0] = scalarEvents(at: b)
      j = 1
      b &+= 64
    }
    // Blocks wholly before `end`, up to and including the one after the chunk.
    let vectorEnd = min(blocks &+ 1, j &+ max(0, (end &- b) &>> 6))
    // The flag as a constant in each branch: the loop is compiled once per kind of events.
    if arrows {
      vectorBlocks(&j, &b, upTo: vectorEnd, arrows: true)
    } else {
      vectorBlocks(&j, &b, upTo: vectorEnd, arrows: false)
    }
    while j <= blocks {
      masks[j] = b < end ? scalarEvents(at: b) : 0
      j &+= 1
      b &+= 64
    }
  }

  /// The masks of blocks `j..<upTo` (blocks wholly before `end`), the first at `b`.
  @inline(__always)
  func vectorBlocks(_ j: inout Int, _ b: inout Int, upTo vectorEnd: Int, arrows: Bool) {
    while j < vectorEnd {
      assert(b >= 2 && b &+ 64 <= end, "vector block outside the input")
      masks[j] = Self.vectorEvents(base, at: b, arrows: arrows)
      j &+= 1
      b &+= 64
    }
  }

  /// The event mask of the block at `at` (`at >= 2`, `at + 64 <= end`).
  @inline(__always)
  static func vectorEvents(_ base: UnsafePointer<UInt8>, at: Int, arrows: Bool) -> UInt64 {
    let raw = UnsafeRawPointer(base + at)
    let feed: SIMD16<UInt8> = SIMD16(repeating: 0x0A)
    let greater: SIMD16<UInt8> = SIMD16(repeating: 0x3E)
    let hyphen: SIMD16<UInt8> = SIMD16(repeating: 0x2D)
    let (a, b, c, d) = ByteScanner.load64(raw, 0)
    /// The lanes of the 16 bytes at `offset` that are LF or end an arrow.
    func eventLanes(_ block: SIMD16<UInt8>, _ offset: Int) -> SIMDMask<SIMD16<Int8>> {
      guard arrows else { return block .== feed }
      let one: SIMD16<UInt8> = raw.loadUnaligned(fromByteOffset: offset - 1, as: SIMD16<UInt8>.self)
      let two: SIMD16<UInt8> = raw.loadUnaligned(fromByteOffset: offset - 2, as: SIMD16<UInt8>.self)
      return (block .== feed) .| ((block .== greater) .& (one .== hyphen) .& (two .== hyphen))
    }
    return ByteScanner.bitMask(
      eventLanes(a, 0), eventLanes(b, 16), eventLanes(c, 32), eventLanes(d, 48),
      skipEmpty: false)
  }

  /// The event mask of the block at `at`, one byte at a time (none at or past `end`).
  func scalarEvents(at: Int) -> UInt64 {
    var events: UInt64 = 0
    var i = at
    while i < min(at + 64, end) {
      let byte = base[i]
      if byte == 0x0A
        || (arrows && byte == 0x3E && i >= 2 && base[i - 1] == 0x2D && base[i - 2] == 0x2D)
      {
        events |= 1 << UInt64(i - at)
      }
      i += 1
    }
    return events
  }
}
