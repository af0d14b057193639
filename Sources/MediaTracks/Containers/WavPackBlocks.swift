/// The blocks of a WavPack file (`.wv`, and the `.wvc` correction file of a hybrid-lossless
/// encoding): each starts with a 32-byte `wvpk` header, then metadata sub-blocks, one of which
/// holds the audio bitstream (WavPack 4 format, sub-block ids `ID_WV_BITSTREAM` 0x0A and
/// `ID_WVC_BITSTREAM` 0x0B).
enum WavPackBlocks {
  /// Whether the first block in `head` (a file's first bytes) holds a correction bitstream and
  /// no audio bitstream: the block of a `.wvc` file, which adds the difference to the lossless
  /// audio to the `.wv` file it goes with and decodes to nothing alone. FFmpeg 5.1's WavPack
  /// demuxer reads its headers (rate, channels, length) as a `.wv` file's, and its decoder
  /// fails on every block ("Packed samples not found"). `false` when `head` holds no whole
  /// first block.
  static func isCorrectionOnly(_ head: ArraySlice<UInt8>) -> Bool {
    let magic = Array("wvpk".utf8)
    var start = head.startIndex
    while start + 32 <= head.endIndex, !head[start...].starts(with: magic) { start += 1 }
    guard start + 32 <= head.endIndex else { return false }
    let blockSize =
      Int(head[start + 4]) | Int(head[start + 5]) << 8 | Int(head[start + 6]) << 16
      | Int(head[start + 7]) << 24
    let end = start + 8 + blockSize
    guard blockSize >= 24, end <= head.endIndex else { return false }
    var at = start + 32
    var audio = false
    var correction = false
    while at + 2 <= end {
      let id = head[at]
      var size = Int(head[at + 1]) * 2
      var header = 2
      if id & 0x80 != 0 {
        guard at + 4 <= end else { return false }
        size = (Int(head[at + 1]) | Int(head[at + 2]) << 8 | Int(head[at + 3]) << 16) * 2
        header = 4
      }
      switch id & 0x3F {
      case 0x0A: audio = true
      case 0x0B: correction = true
      default: break
      }
      at += header + size
    }
    return correction && !audio
  }
}
