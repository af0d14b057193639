#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte-level kernels used by the WebVTT parser: line search and the input normalisation
/// (UTF-8 decode with U+FFFD replacement, NUL → U+FFFD, CRLF/CR → LF).
enum VTTScan {
  static let lf: UInt8 = 0x0A
  static let cr: UInt8 = 0x0D

  /// Index of the first LF in `buffer[from..<end]`, or `end`.
  @inline(__always)
  static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
    guard from < end, let base = buffer.baseAddress else { return end }
    guard let hit = memchr(base + from, 0x0A, end - from) else { return end }
    return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
  }

  /// Whether `buffer[start..<end]` contains the substring `-->`.
  @inline(__always)
  static func containsArrow(_ buffer: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Bool {
    guard end - start >= 3, let base = buffer.baseAddress else { return false }
    var from = start + 2
    while from < end {
      guard let hit = memchr(base + from, 0x3E, end - from) else { return false }
      let index = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
      if buffer[index - 1] == 0x2D && buffer[index - 2] == 0x2D { return true }
      from = index + 1
    }
    return false
  }
}
