extension ByteScanner {
  /// Sequential search for one byte (a line end) that classifies 64 bytes at a time into a bit
  /// mask and then answers each `next(from:)` from the mask: one pass over the data however
  /// short the lines are. `from` must not decrease between calls.
  struct Cursor {
    let base: UnsafePointer<UInt8>
    let end: Int
    let needle: SIMD32<UInt8>
    /// Whether most blocks hold the byte (line ends): a block is then gathered into `bits`
    /// without first testing it for none.
    let dense: Bool
    /// Start of the block `bits` describes.
    var block: Int
    /// Bit k set: `base[block + k]` is the needle. Only valid when `block + 64 <= end`.
    var bits: UInt64

    init(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ end: Int, dense: Bool = false) {
      self.base = base
      self.end = end
      self.needle = SIMD32(repeating: byte)
      self.dense = dense
      self.block = Int.min / 2
      self.bits = 0
    }

    /// The last answer and the `from` it was for: a later `from` up to that answer has the
    /// same answer, so sparse bytes are not searched for again and again.
    var hit = -1
    var hitFrom = Int.max

    /// The first index `>= from` holding the byte, or `end`.
    @inline(__always)
    mutating func next(from: Int) -> Int {
      if from >= hitFrom && from <= hit { return hit }
      let result = search(from)
      hit = result
      hitFrom = from
      return result
    }

    /// The first index `>= from` holding the byte, or `end`, without the cache of
    /// `next(from:)`: for dense bytes such as line ends.
    @inline(__always)
    mutating func search(_ from: Int) -> Int {
      // The common case first: the answer is in the block the mask describes. (`block`
      // starts far below any `from`, and indices stay far from overflow.)
      let k = from &- block
      if k >= 0 && k < 64 {
        let remaining = bits & (~0 << UInt64(k))
        if remaining != 0 { return block &+ remaining.trailingZeroBitCount }
      }
      return searchBlocks(from)
    }

    /// `search` when the answer is not in the current block.
    @inline(__always)
    mutating func searchBlocks(_ from: Int) -> Int {
      var k = from &- block
      if k < 0 || k >= 64 {
        guard from &+ 64 <= end else { return ByteScanner.findScalar(needle[0], base, from, end) }
        load(from)
        k = 0
      }
      var remaining = bits & (~0 << UInt64(k))
      while remaining == 0 {
        let nextBlock = block &+ 64
        guard nextBlock &+ 64 <= end else {
          return ByteScanner.findScalar(needle[0], base, nextBlock, end)
        }
        load(nextBlock)
        remaining = bits
      }
      return block &+ remaining.trailingZeroBitCount
    }

    @inline(__always)
    mutating func load(_ at: Int) {
      block = at
      let raw = UnsafeRawPointer(base + at)
      let a: SIMD32<UInt8> = raw.loadUnaligned(fromByteOffset: 0, as: SIMD32<UInt8>.self)
      let b: SIMD32<UInt8> = raw.loadUnaligned(fromByteOffset: 32, as: SIMD32<UInt8>.self)
      let ma = a .== needle
      let mb = b .== needle
      if !dense {
        // Most blocks have no sparse needle: skip the gathering multiplies for them.
        let any = unsafeBitCast(ma .| mb, to: (UInt64, UInt64, UInt64, UInt64).self)
        if any.0 | any.1 | any.2 | any.3 == 0 {
          bits = 0
          return
        }
      }
      bits = ByteScanner.bitMask(ma) | ByteScanner.bitMask(mb) << 32
    }
  }
}
