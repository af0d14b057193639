/// The sample count an ALAC (Apple Lossless) frame states in its own header: a frame that
/// holds fewer samples than the stream's frame length (the last one) says how many, which is
/// what a decoder gives for it.
///
/// The frame starts with its first element's header (as Apple's reference ALAC decoder reads
/// it): 3 bits of element type (0 a single channel, 1 a channel pair, 3 LFE), 4 of element
/// instance, 12 unused, 1 bit saying the sample count follows, 2 bits of uncompressed low
/// bytes, 1 bit for an uncompressed frame, then the count, 32 bits big-endian.
enum ALACFrames {
  /// The samples per channel `bytes` (the start of one frame, at least 7 bytes) states it
  /// holds, or `nil` when its header states none (a frame of the stream's full length) or
  /// is not an ALAC element header.
  static func statedSamples(_ bytes: [UInt8]) -> Int64? {
    guard bytes.count >= 7, [0, 1, 3].contains(bytes[0] >> 5) else { return nil }
    // Bits 19 (the count's flag) and 23-54 (the count) of the frame.
    guard bytes[2] & 0x10 != 0 else { return nil }
    var bits: UInt64 = 0
    for byte in bytes[2..<7] { bits = bits << 8 | UInt64(byte) }
    // Bytes 2-6 hold bits 16-55: the count is bits 23-54, 1 bit above the last.
    let samples = Int64((bits >> 1) & 0xFFFF_FFFF)
    return samples > 0 ? samples : nil
  }
}
