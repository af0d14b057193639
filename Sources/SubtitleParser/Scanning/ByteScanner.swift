#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte search over raw UTF-8 (or any) bytes: the line splitting and byte lookup the parsers
/// build on.
///
/// Each search exists in three flavours that give identical results: `scalar` (the reference,
/// one byte at a time), `vector` (32 bytes per step with `SIMD32<UInt8>` compares) and `memchr`
/// (the platform C library). The parsers use the flavour `ByteScanner.Kernel.fastest` names,
/// chosen by measurement (see the subtitle benchmark).
///
/// Not part of the module's API: it is public only to the benchmarks and fuzz targets, which
/// measure and compare the kernels (`@_spi(Benchmarks) import SubtitleParser`).
@_spi(Benchmarks)
public enum ByteScanner {
  /// Which implementation a search uses.
  public enum Kernel: String, Hashable, Sendable, CaseIterable {
    /// One byte at a time; the reference the others are tested against.
    case scalar
    /// 32 bytes per step with portable SIMD compares.
    case vector
    /// The C library's `memchr`.
    case memchr
  }

  /// The index of the first `byte` in `bytes[range]`, or `range.upperBound` when there is none.
  ///
  /// - Parameters:
  ///   - byte: The byte to look for.
  ///   - bytes: The bytes to search; the caller keeps ownership.
  ///   - range: The indices to search; clamped to `bytes.indices`.
  ///   - kernel: The implementation to use.
  /// - Complexity: O(*n*) where *n* is the length of `range`.
  public static func firstIndex(
    of byte: UInt8, in bytes: [UInt8], range: Range<Int>? = nil, kernel: Kernel = .memchr
  ) -> Int {
    let whole = 0..<bytes.count
    let r = (range ?? whole).clamped(to: whole)
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return r.upperBound }
      return find(byte, base, r.lowerBound, r.upperBound, kernel)
    }
  }

  /// The index of the first byte in `bytes[range]` that is either `a` or `b`, or
  /// `range.upperBound` when there is none.
  ///
  /// - Parameters:
  ///   - a: One byte to look for.
  ///   - b: The other byte to look for.
  ///   - bytes: The bytes to search; the caller keeps ownership.
  ///   - range: The indices to search; clamped to `bytes.indices`.
  ///   - kernel: `.scalar` or `.vector` (`.memchr` runs two `memchr` calls).
  /// - Complexity: O(*n*) where *n* is the length of `range`.
  public static func firstIndex(
    ofEither a: UInt8, _ b: UInt8, in bytes: [UInt8], range: Range<Int>? = nil,
    kernel: Kernel = .vector
  ) -> Int {
    let whole = 0..<bytes.count
    let r = (range ?? whole).clamped(to: whole)
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return r.upperBound }
      switch kernel {
      case .scalar: return findEitherScalar(a, b, base, r.lowerBound, r.upperBound)
      case .vector: return findEitherVector(a, b, base, r.lowerBound, r.upperBound)
      case .memchr:
        let first = find(a, base, r.lowerBound, r.upperBound, .memchr)
        return find(b, base, r.lowerBound, first, .memchr)
      }
    }
  }

  /// The number of occurrences of `byte` in `bytes` (for example `\n` to count lines).
  ///
  /// - Parameters:
  ///   - byte: The byte to count.
  ///   - bytes: The bytes to scan; the caller keeps ownership.
  ///   - kernel: The implementation to use.
  /// - Complexity: O(*n*).
  public static func count(of byte: UInt8, in bytes: [UInt8], kernel: Kernel = .vector) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      switch kernel {
      case .scalar: return countScalar(byte, base, 0, buffer.count)
      case .vector: return countVector(byte, base, 0, buffer.count)
      case .memchr:
        var n = 0
        var i = 0
        while i < buffer.count {
          i = find(byte, base, i, buffer.count, .memchr)
          if i < buffer.count { n += 1 }
          i += 1
        }
        return n
      }
    }
  }

  /// The start offsets of every line in `bytes` (the first line starts at 0; each `\n` starts
  /// another line after it). Only `\n` ends a line here; parsers normalise `\r` first.
  ///
  /// - Parameters:
  ///   - bytes: The bytes to split; the caller keeps ownership.
  ///   - kernel: The implementation to use.
  /// - Returns: Line start offsets, ascending; empty for empty input.
  /// - Complexity: O(*n*).
  public static func lineStarts(in bytes: [UInt8], kernel: Kernel = .memchr) -> [Int] {
    var starts: [Int] = []
    guard !bytes.isEmpty else { return starts }
    starts.append(0)
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var i = 0
      let n = buffer.count
      while true {
        i = find(0x0A, base, i, n, kernel)
        if i >= n - 1 { break }
        i += 1
        starts.append(i)
      }
    }
    return starts
  }

  // MARK: - Kernels (internal; pointer based)

  @inline(__always)
  static func find(
    _ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ kernel: Kernel
  ) -> Int {
    switch kernel {
    case .scalar: return findScalar(byte, base, from, end)
    case .vector: return findVector(byte, base, from, end)
    case .memchr: return findMemchr(byte, base, from, end)
    }
  }

  @inline(__always)
  static func findMemchr(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int)
    -> Int
  {
    guard from < end else { return end }
    guard let hit = memchr(base + from, Int32(byte), end - from) else { return end }
    return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
  }

  static func findScalar(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int)
    -> Int
  {
    var i = from
    while i < end {
      if base[i] == byte { return i }
      i += 1
    }
    return end
  }

  @inline(__always)
  static func findVector(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int)
    -> Int
  {
    var i = from
    let raw = UnsafeRawPointer(base)
    let needle: SIMD32<UInt8> = SIMD32(repeating: byte)
    while i + 32 <= end {
      let block: SIMD32<UInt8> = raw.loadUnaligned(fromByteOffset: i, as: SIMD32<UInt8>.self)
      let hit = firstSetLane(block .== needle)
      if hit < 32 { return i + hit }
      i += 32
    }
    return findScalar(byte, base, i, end)
  }

  static func findEitherScalar(
    _ a: UInt8, _ b: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int
  ) -> Int {
    var i = from
    while i < end {
      let c = base[i]
      if c == a || c == b { return i }
      i += 1
    }
    return end
  }

  static func findEitherVector(
    _ a: UInt8, _ b: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int
  ) -> Int {
    var i = from
    let raw = UnsafeRawPointer(base)
    let va: SIMD32<UInt8> = SIMD32(repeating: a)
    let vb: SIMD32<UInt8> = SIMD32(repeating: b)
    while i + 32 <= end {
      let block: SIMD32<UInt8> = raw.loadUnaligned(fromByteOffset: i, as: SIMD32<UInt8>.self)
      let hit = firstSetLane((block .== va) .| (block .== vb))
      if hit < 32 { return i + hit }
      i += 32
    }
    return findEitherScalar(a, b, base, i, end)
  }

  static func countScalar(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int)
    -> Int
  {
    var n = 0
    var i = from
    while i < end {
      if base[i] == byte { n += 1 }
      i += 1
    }
    return n
  }

  static func countVector(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int)
    -> Int
  {
    var n = 0
    var i = from
    let raw = UnsafeRawPointer(base)
    let needle: SIMD32<UInt8> = SIMD32(repeating: byte)
    while i + 32 <= end {
      // Per-lane byte counters: a set mask lane is 0xFF, so subtracting it adds one. At most
      // 255 blocks before the counters are summed, so no lane wraps.
      var counters: SIMD32<UInt8> = .zero
      var blocks = 0
      while blocks < 255 && i + 32 <= end {
        let block: SIMD32<UInt8> = raw.loadUnaligned(fromByteOffset: i, as: SIMD32<UInt8>.self)
        counters = counters &- unsafeBitCast(block .== needle, to: SIMD32<UInt8>.self)
        blocks &+= 1
        i += 32
      }
      n += laneSum(counters)
    }
    return n + countScalar(byte, base, i, end)
  }

  /// The number of `counted` bytes in `base[from..<end]`, and whether `seen` occurs there:
  /// two questions about the same bytes in one pass. Scalar reference.
  static func countAndSeekScalar(
    _ counted: UInt8, _ seen: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int
  ) -> (count: Int, seen: Bool) {
    var n = 0
    var found = false
    var i = from
    while i < end {
      if base[i] == counted { n += 1 }
      if base[i] == seen { found = true }
      i += 1
    }
    return (n, found)
  }

  /// Vector version of `countAndSeekScalar`, 32 bytes per step: `countVector`'s loop with the
  /// second compare added, kept apart so that a count alone does not pay for that compare.
  static func countAndSeekVector(
    _ counted: UInt8, _ seen: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int
  ) -> (count: Int, seen: Bool) {
    var n = 0
    var i = from
    let raw = UnsafeRawPointer(base)
    let needle: SIMD32<UInt8> = SIMD32(repeating: counted)
    let other: SIMD32<UInt8> = SIMD32(repeating: seen)
    var any: SIMDMask<SIMD32<Int8>> = SIMDMask(repeating: false)
    while i + 32 <= end {
      // Per-lane byte counters, summed before any lane can wrap (see `countVector`).
      var counters: SIMD32<UInt8> = .zero
      var blocks = 0
      while blocks < 255 && i + 32 <= end {
        let block: SIMD32<UInt8> = raw.loadUnaligned(fromByteOffset: i, as: SIMD32<UInt8>.self)
        counters = counters &- unsafeBitCast(block .== needle, to: SIMD32<UInt8>.self)
        any .|= block .== other
        blocks &+= 1
        i += 32
      }
      n += laneSum(counters)
    }
    let tail = countAndSeekScalar(counted, seen, base, i, end)
    return (n + tail.count, tail.seen || firstSetLane(any) < 32)
  }

  /// The index of the first byte `>= 0x80` in `base[from..<end]`, or `end`.
  static func firstNonASCIIScalar(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int {
    var i = from
    while i < end {
      if base[i] >= 0x80 { return i }
      i += 1
    }
    return end
  }

  /// Vector version of `firstNonASCIIScalar`.
  static func firstNonASCIIVector(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int {
    var i = from
    let raw = UnsafeRawPointer(base)
    let limit: SIMD32<UInt8> = SIMD32(repeating: 0x7F)
    while i + 32 <= end {
      let block: SIMD32<UInt8> = raw.loadUnaligned(fromByteOffset: i, as: SIMD32<UInt8>.self)
      let hit = firstSetLane(limit .< block)
      if hit < 32 { return i + hit }
      i += 32
    }
    return firstNonASCIIScalar(base, i, end)
  }

  /// The 64 bytes at `raw + at` as four 16-byte vectors, in order.
  @inline(__always)
  static func load64(_ raw: UnsafeRawPointer, _ at: Int) -> (
    SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>
  ) {
    (
      raw.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self),
      raw.loadUnaligned(fromByteOffset: at &+ 16, as: SIMD16<UInt8>.self),
      raw.loadUnaligned(fromByteOffset: at &+ 32, as: SIMD16<UInt8>.self),
      raw.loadUnaligned(fromByteOffset: at &+ 48, as: SIMD16<UInt8>.self)
    )
  }

  /// The 64 lanes of four 16-lane masks as one integer (lane k of `a` is bit k, of `b` bit
  /// 16 + k, and so on), gathered with multiplies, not a lane loop. `skipEmpty` tests for no
  /// set lane first: a saving where that is the rule, a mispredicted branch where it varies.
  @inline(__always)
  static func bitMask(
    _ a: SIMDMask<SIMD16<Int8>>, _ b: SIMDMask<SIMD16<Int8>>, _ c: SIMDMask<SIMD16<Int8>>,
    _ e: SIMDMask<SIMD16<Int8>>, skipEmpty: Bool = true
  ) -> UInt64 {
    let wa = unsafeBitCast(a, to: (UInt64, UInt64).self)
    let wb = unsafeBitCast(b, to: (UInt64, UInt64).self)
    let wc = unsafeBitCast(c, to: (UInt64, UInt64).self)
    let we = unsafeBitCast(e, to: (UInt64, UInt64).self)
    if skipEmpty && wa.0 | wa.1 | wb.0 | wb.1 | wc.0 | wc.1 | we.0 | we.1 == 0 { return 0 }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let magic: UInt64 = 0x0102_0408_1020_4080
    func gather(_ w: UInt64) -> UInt64 { ((w & ones) &* magic) >> 56 }
    return gather(wa.0) | gather(wa.1) << 8 | gather(wb.0) << 16 | gather(wb.1) << 24
      | gather(wc.0) << 32 | gather(wc.1) << 40 | gather(we.0) << 48 | gather(we.1) << 56
  }

  /// The lowest lane set in the 32 lanes `low` then `high`, or 32 when none is.
  @inline(__always)
  static func firstSetLane(_ low: SIMDMask<SIMD16<Int8>>, _ high: SIMDMask<SIMD16<Int8>>) -> Int {
    let a = unsafeBitCast(low, to: (UInt64, UInt64).self)
    let b = unsafeBitCast(high, to: (UInt64, UInt64).self)
    if a.0 | a.1 | b.0 | b.1 == 0 { return 32 }
    if a.0 != 0 { return a.0.trailingZeroBitCount &>> 3 }
    if a.1 != 0 { return 8 &+ a.1.trailingZeroBitCount &>> 3 }
    if b.0 != 0 { return 16 &+ b.0.trailingZeroBitCount &>> 3 }
    return 24 &+ b.1.trailingZeroBitCount &>> 3
  }

  /// The lowest lane set in `mask`, or 32 when none is. The mask's lanes are all-ones or
  /// all-zeros bytes, so viewing them as four 64-bit words and counting trailing zero bits
  /// finds the first set lane without a lane loop.
  @inline(__always)
  static func firstSetLane(_ mask: SIMDMask<SIMD32<Int8>>) -> Int {
    let words = unsafeBitCast(mask, to: (UInt64, UInt64, UInt64, UInt64).self)
    if words.0 != 0 { return words.0.trailingZeroBitCount &>> 3 }
    if words.1 != 0 { return 8 &+ words.1.trailingZeroBitCount &>> 3 }
    if words.2 != 0 { return 16 &+ words.2.trailingZeroBitCount &>> 3 }
    if words.3 != 0 { return 24 &+ words.3.trailingZeroBitCount &>> 3 }
    return 32
  }

  /// The sum of the 16 byte lanes of `v`, with 64-bit word arithmetic (no lane loop).
  @inline(__always)
  static func laneSum(_ v: SIMD16<UInt8>) -> Int {
    let words = unsafeBitCast(v, to: (UInt64, UInt64).self)
    let low: UInt64 = 0x00FF_00FF_00FF_00FF
    func pairs(_ w: UInt64) -> UInt64 { (w & low) &+ ((w >> 8) & low) }
    let s = pairs(words.0) &+ pairs(words.1)
    let folded = (s & 0x0000_FFFF_0000_FFFF) &+ ((s >> 16) & 0x0000_FFFF_0000_FFFF)
    return Int((folded & 0xFFFF_FFFF) &+ (folded >> 32))
  }

  /// The sum of the 32 byte lanes of `v`, with 64-bit word arithmetic (no lane loop).
  @inline(__always)
  static func laneSum(_ v: SIMD32<UInt8>) -> Int {
    let words = unsafeBitCast(v, to: (UInt64, UInt64, UInt64, UInt64).self)
    let low: UInt64 = 0x00FF_00FF_00FF_00FF
    func pairs(_ w: UInt64) -> UInt64 { (w & low) &+ ((w >> 8) & low) }
    // Four 16-bit sums per word, at most 4 x 510, then fold them.
    let s = pairs(words.0) &+ pairs(words.1) &+ pairs(words.2) &+ pairs(words.3)
    let folded = (s & 0x0000_FFFF_0000_FFFF) &+ ((s >> 16) & 0x0000_FFFF_0000_FFFF)
    return Int((folded & 0xFFFF_FFFF) &+ (folded >> 32))
  }

  /// The number of lanes set in `mask`.
  @inline(__always)
  static func setLaneCount(_ mask: SIMDMask<SIMD32<Int8>>) -> Int {
    let words = unsafeBitCast(mask, to: (UInt64, UInt64, UInt64, UInt64).self)
    let bits =
      words.0.nonzeroBitCount &+ words.1.nonzeroBitCount &+ words.2.nonzeroBitCount
      &+ words.3.nonzeroBitCount
    return bits &>> 3
  }
}
