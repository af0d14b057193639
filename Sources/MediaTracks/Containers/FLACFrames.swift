/// The length of a FLAC file whose STREAMINFO states no total (0: written to a pipe by an
/// encoder that did not know the length, and never written back), from its last frame: each
/// frame header numbers its frame (fixed block size) or its first sample (variable block
/// size) and states its block size, so the last one gives the count of samples. FFmpeg 5.1
/// states no length for such a file.
enum FLACFrames {
  /// The bytes at the end of the file searched for the last frame header.
  static let tailBytes = 1 << 20

  /// One frame header's facts.
  struct Header: Equatable {
    /// The frame's number (fixed block size) or its first sample's (variable block size).
    var number: Int64
    /// Samples per channel in the frame.
    var blockSize: Int
    /// Whether the stream numbers samples (variable block size) rather than frames.
    var variable: Bool
    /// The header's sample-rate code, channel count and sample size, which every frame of a
    /// stream shares.
    var key: UInt32
  }

  /// The duration in seconds of the FLAC file `source` holds when its STREAMINFO states no
  /// total, from its last frame; `nil` when the file is not FLAC, states a total (FFmpeg reads
  /// it) and `cutShort` is false, or no frame header matching the first one is found in its
  /// last ``tailBytes``. With `cutShort`, the length of a file that states a total and whose
  /// last frame ends before it (the file was cut short): up to that last frame, which the cut
  /// ends (encoders write whole frames); `nil` when the frames reach the total.
  static func duration(_ source: any ByteSource, cutShort: Bool = false) -> Double? {
    // "fLaC" (after any ID3v2 tag), then the STREAMINFO block: a 4-byte block header and 34
    // bytes of data.
    let base = ElementaryFrames.id3v2Length(source)
    let head = source.bytes(at: base, count: 42)
    guard head.count == 42, head.starts(with: Array("fLaC".utf8)), head[4] & 0x7F == 0 else {
      return nil
    }
    let info = Array(head[8...])
    let minimumBlock = Int(info[0]) << 8 | Int(info[1])
    let sampleRate = Int(info[10]) << 12 | Int(info[11]) << 4 | Int(info[12] >> 4)
    let total =
      Int64(info[13] & 0x0F) << 32 | Int64(info[14]) << 24 | Int64(info[15]) << 16
      | Int64(info[16]) << 8 | Int64(info[17])
    guard total == 0 || cutShort, sampleRate > 0, minimumBlock >= 16 else { return nil }
    // The first frame, after the metadata blocks, gives the fields every frame shares.
    var at: Int64 = base + 4
    // (At most 1,024 metadata blocks: a file of millions of empty ones is not walked.)
    for count in 0... {
      guard count < 1024 else { return nil }
      let block = source.bytes(at: at, count: 4)
      guard block.count == 4 else { return nil }
      at += 4 + (Int64(block[1]) << 16 | Int64(block[2]) << 8 | Int64(block[3]))
      if block[0] & 0x80 != 0 { break }
    }
    guard let first = header(source.bytes(at: at, count: 16)) else { return nil }
    let start = max(at, source.size - Int64(tailBytes))
    let tail = source.bytes(at: start, count: Int(source.size - start))
    var index = tail.count - 2
    while index >= 0 {
      if tail[index] == 0xFF, tail[index + 1] & 0xFE == 0xF8,
        let last = header(Array(tail[index..<min(tail.count, index + 16)])),
        last.key == first.key, last.variable == first.variable
      {
        let start = last.variable ? last.number : last.number * Int64(minimumBlock)
        let end = start + Int64(last.blockSize)
        if cutShort { return end < total ? Double(start) / Double(sampleRate) : nil }
        let samples = end
        return samples > 0 ? Double(samples) / Double(sampleRate) : nil
      }
      index -= 1
    }
    return nil
  }

  /// The frame header at the start of `b`, when its CRC-8 checks; `nil` otherwise.
  static func header(_ b: [UInt8]) -> Header? {
    guard b.count >= 6, b[0] == 0xFF, b[1] & 0xFE == 0xF8, b[3] & 1 == 0 else { return nil }
    let blockCode = Int(b[2] >> 4)
    let rateCode = Int(b[2] & 0x0F)
    guard blockCode != 0, rateCode != 15, b[3] >> 4 < 11, (b[3] >> 1) & 7 != 3 else {
      return nil
    }
    // The frame or sample number, coded as UTF-8 is (up to 7 bytes, 36 bits).
    var at = 4
    let lead = b[at]
    var length = 0
    while length < 8, lead & (0x80 >> UInt8(length)) != 0 { length += 1 }
    guard length != 1, length <= 7 else { return nil }
    var number = Int64(length == 0 ? lead : lead & (0xFF >> UInt8(length + 1)))
    let bytes = max(length, 1)
    guard b.count >= at + bytes + 3 else { return nil }
    for k in 1..<bytes {
      guard b[at + k] & 0xC0 == 0x80 else { return nil }
      number = number << 6 | Int64(b[at + k] & 0x3F)
    }
    at += bytes
    var blockSize: Int
    switch blockCode {
    case 1: blockSize = 192
    case 2...5: blockSize = 576 << (blockCode - 2)
    case 6:
      blockSize = Int(b[at]) + 1
      at += 1
    case 7:
      blockSize = (Int(b[at]) << 8 | Int(b[at + 1])) + 1
      at += 2
    default: blockSize = 256 << (blockCode - 8)
    }
    switch rateCode {
    case 12: at += 1
    case 13, 14: at += 2
    default: break
    }
    guard at < b.count, crc8(b[0..<at]) == b[at] else { return nil }
    // The channel count (the assignment of two channels, independent or decorrelated,
    // changes from frame to frame), the sample size and the sample-rate code.
    let assignment = b[3] >> 4
    let channels = UInt32(assignment < 8 ? assignment + 1 : 2)
    return Header(
      number: number, blockSize: blockSize, variable: b[1] & 1 == 1,
      key: UInt32(b[2] & 0x0F) << 8 | channels << 4 | UInt32(b[3] & 0x0E))
  }

  /// The CRC-8 of FLAC frame headers (polynomial x⁸ + x² + x + 1, initial value 0).
  static func crc8(_ bytes: ArraySlice<UInt8>) -> UInt8 {
    var crc: UInt8 = 0
    for byte in bytes {
      crc ^= byte
      for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
    }
    return crc
  }
}
