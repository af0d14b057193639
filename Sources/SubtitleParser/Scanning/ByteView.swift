/// Read-only access to bytes that the caller keeps alive and unchanged while the view is used:
/// the parsers read their input through it rather than through raw pointers. Every access
/// asserts its bounds, so debug builds (and the tests and fuzzers, which run them) stop at the
/// first out-of-bounds read; release builds read unchecked, as the parsers' hot loops need.
///
/// The SIMD and word kernels (`ByteScanner`, `VTTScan`, `LineCursor`, `TimestampWord`) keep
/// their raw pointers: each states the bytes it reads, and the callers' views assert them.
/// (`assert` is compiled out of release builds, so the benchmarks measure the same code.)
struct ByteView {
  /// The first byte.
  let base: UnsafePointer<UInt8>
  /// The number of readable bytes from `base`.
  let count: Int

  /// A view of `count` bytes from `base`.
  @inline(__always)
  init(_ base: UnsafePointer<UInt8>, count: Int) {
    assert(count >= 0, "negative byte count")
    self.base = base
    self.count = count
  }

  /// The byte at `index`.
  @inline(__always)
  subscript(index: Int) -> UInt8 {
    assert(index >= 0 && index < count, "byte \(index) outside 0..<\(count)")
    return base[index]
  }

  /// The eight bytes from `offset` as a little-endian word (byte `offset` lowest).
  @inline(__always)
  func load(at offset: Int) -> UInt64 {
    assert(offset >= 0 && offset + 8 <= count, "word at \(offset) outside 0..<\(count)")
    return UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
  }

  /// The raw pointer to byte `offset`, for a kernel that reads `length` bytes from there.
  @inline(__always)
  func pointer(at offset: Int, reading length: Int) -> UnsafePointer<UInt8> {
    assert(offset >= 0 && length >= 0 && offset + length <= count, "kernel reads past the view")
    return base + offset
  }
}
