/// AC-3 sync frames (ATSC A/52, section 5.4.1 and table 5.18): what the header of the first one
/// states, from which a stream of them is measured without reading it through. Every frame
/// holds 1,536 samples per channel, and a stream's frames share their bit rate, so their size
/// is fixed: at 48 and 32 kHz exactly, at 44.1 kHz within one 16-bit word (frames alternate
/// between two sizes so that their average is the bit rate's).
enum AC3Frames {
  /// The facts of a sync frame's header.
  struct Header: Equatable {
    /// The sample rate in Hz (48000, 44100 or 32000).
    var sampleRate: Int
    /// The bit rate in bit/s (32 to 640 kb/s).
    var bitRate: Int
    /// The frame's size in bytes.
    var frameBytes: Int
    /// Whether the stream's 16-bit words are byte-swapped (the sync word read as `77 0B`), as
    /// some writers store AC-3 in WAVE.
    var swapped: Bool

    /// The bytes a frame takes on average: the bit rate's share of 1,536 samples.
    var averageFrameBytes: Double { Double(bitRate) * 1536 / Double(sampleRate) / 8 }
  }

  /// The samples each frame holds, per channel.
  static let samplesPerFrame = 1536

  /// Bit rates in kb/s by `frmsizecod >> 1`.
  static let bitRates = [
    32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640,
  ]

  /// The header of the sync frame `bytes` starts with (at least 6 bytes), or `nil` when they
  /// start no AC-3 frame (E-AC-3's, whose `bsid` is above 10, included).
  static func header(_ bytes: ArraySlice<UInt8>) -> Header? {
    guard bytes.count >= 6 else { return nil }
    let base = bytes.startIndex
    let swapped: Bool
    switch (bytes[base], bytes[base + 1]) {
    case (0x0B, 0x77): swapped = false
    case (0x77, 0x0B): swapped = true
    default: return nil
    }
    func byte(_ at: Int) -> UInt8 { bytes[base + (swapped ? at ^ 1 : at)] }
    let code = Int(byte(4) >> 6)
    let sizeCode = Int(byte(4) & 0x3F)
    guard code < 3, sizeCode < 38, byte(5) >> 3 <= 10 else { return nil }
    let kbps = bitRates[sizeCode >> 1]
    let words: Int
    switch code {
    case 0: words = 2 * kbps
    case 1: words = kbps * 96_000 / 44_100 + (sizeCode & 1)
    default: words = 3 * kbps
    }
    return Header(
      sampleRate: [48000, 44100, 32000][code], bitRate: kbps * 1000, frameBytes: 2 * words,
      swapped: swapped)
  }

  /// The whole frames `length` bytes of a stream whose first frame has `header` hold: at
  /// 44.1 kHz, where frames differ by a word, the bytes over the average frame's (a word of
  /// slack for where the run of sizes stops). A frame cut by the end is not counted (the
  /// decoder gives nothing for it).
  static func wholeFrames(_ length: Int64, header: Header) -> Int64 {
    guard header.sampleRate == 44100 else { return length / Int64(header.frameBytes) }
    return Int64((Double(length) + 2) / header.averageFrameBytes)
  }
}
