/// The `HH:MM:SS` + separator + `mmm` timestamp both formats write (SRT with `,`, WebVTT with
/// `.`), read in two word loads: the module's one word-at-a-time timestamp reader, with
/// `readScalar` as its reference.
///
/// Two fused line kernels read the same timestamp as part of a whole timing line and are kept
/// on purpose: `SRTParser.canonicalStamps` (both timestamps, the arrow and the line feed in four
/// loads, for the cue-number fast path) and `VTTSyntax.vectorTimestamp` (one 16-byte vector
/// test per timestamp and arrow). Each is tested against the general reader of its format.
enum TimestampWord {
  /// The time at `at` in milliseconds when `base[at..<at + 12]` is `HH:MM:SS` then `separator`
  /// then three digits, with minutes and seconds below 60; nil otherwise. What follows the
  /// timestamp is the caller's to check.
  ///
  /// - Precondition: the 12 bytes from `at` are readable.
  @inline(__always)
  static func read(_ base: UnsafePointer<UInt8>, at: Int, separator: UInt8) -> Int64? {
    let raw = UnsafeRawPointer(base + at)
    let head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    // Bytes 8 to 11 (the separator and the milliseconds) in the low half.
    let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt64.self)) >> 32
    // Digits in bytes 0 1 3 4 6 7 of `head` (high nibble 3, and adding 6 keeps it 3 only for
    // 0...9), `:` in bytes 2 and 5; the separator in byte 0 of `tail`, digits in bytes 1 to 3.
    let digitBytes: UInt64 = 0xFFFF_00FF_FF00_FFFF
    let highNibbles: UInt64 = 0xF0F0_00F0_F000_F0F0
    let threes: UInt64 = 0x3030_0030_3000_3030
    let d = head & digitBytes
    let millisDigits = tail & 0xFFFF_FF00
    guard d & highNibbles == threes, (d &+ 0x0606_0006_0600_0606) & highNibbles == threes,
      head & ~digitBytes == 0x0000_3A00_003A_0000, tail & 0xFF == UInt64(separator),
      millisDigits & 0xF0F0_F000 == 0x3030_3000,
      (millisDigits &+ 0x0606_0600) & 0xF0F0_F000 == 0x3030_3000
    else { return nil }
    let v = d &- threes
    // Byte pairs to values: byte i becomes 10 x digit(i) + digit(i + 1).
    let pairs = (v &* 10) &+ (v >> 8)
    let hours = Int64(pairs & 0xFF)
    let minutes = Int64((pairs >> 24) & 0xFF)
    let seconds = Int64((pairs >> 48) & 0xFF)
    guard minutes < 60 && seconds < 60 else { return nil }
    let m = (millisDigits >> 8) &- 0x30_3030
    let millis = Int64(m & 0xFF) &* 100 &+ Int64((m >> 8) & 0xFF) &* 10 &+ Int64(m >> 16)
    return ((hours &* 60 &+ minutes) &* 60 &+ seconds) &* 1000 &+ millis
  }

  /// Scalar reference for `read`: the same answer, one byte at a time.
  static func readScalar(_ base: UnsafePointer<UInt8>, at: Int, separator: UInt8) -> Int64? {
    func digit(_ k: Int) -> Int64? {
      let value = base[at + k] &- 0x30
      return value < 10 ? Int64(value) : nil
    }
    guard base[at + 2] == 0x3A, base[at + 5] == 0x3A, base[at + 8] == separator,
      let h1 = digit(0), let h2 = digit(1), let m1 = digit(3), let m2 = digit(4),
      let s1 = digit(6), let s2 = digit(7), let t1 = digit(9), let t2 = digit(10),
      let t3 = digit(11)
    else { return nil }
    let minutes = m1 * 10 + m2
    let seconds = s1 * 10 + s2
    guard minutes < 60 && seconds < 60 else { return nil }
    return (((h1 * 10 + h2) * 60 + minutes) * 60 + seconds) * 1000 + t1 * 100 + t2 * 10 + t3
  }
}
