internal import CFFmpeg

/// Repairs the Opus header FFmpeg 5.1 builds from an MP4 `dOps` box written little-endian.
///
/// ISO/IEC 23003-5 (Opus in ISOBMFF) stores `dOps` big-endian. Some muxers (GStreamer's
/// `mp4mux` of the 1.22 series among them) write its pre-skip, input sample rate and output
/// gain little-endian. FFmpeg reads them big-endian into the `OpusHead` it hands the decoder,
/// so a pre-skip of 312 becomes 14,337 samples and the decoder drops 0.3 s of the start.
/// Such a header is recognised by its input sample rate: big-endian it is far beyond any audio
/// rate (48000 written little-endian reads as 2,159,738,880), little-endian it is a common rate.
enum OpusHeadRepair {
  /// The rates an Opus encoder's input commonly has, Hz.
  static let commonRates: Set<UInt32> = [
    8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000, 192000,
  ]

  /// Whether `head`, an `OpusHead` (RFC 7845 5.1: little-endian fields, as FFmpeg builds it
  /// from `dOps`), holds fields that were written little-endian in the `dOps` box and read
  /// big-endian: its input sample rate is not plausible, and byte-swapped it is a common rate.
  static func isSwapped(_ head: [UInt8]) -> Bool {
    guard head.count >= 19, head[0..<8].elementsEqual("OpusHead".utf8) else { return false }
    let rate =
      UInt32(head[12]) | UInt32(head[13]) << 8 | UInt32(head[14]) << 16
      | UInt32(head[15]) << 24
    return rate > 768_000 && commonRates.contains(rate.byteSwapped)
  }

  /// Swaps the pre-skip, input sample rate and output gain of `head` back when
  /// ``isSwapped(_:)`` says they were misread; otherwise leaves it unchanged.
  static func repaired(_ head: [UInt8]) -> [UInt8] {
    guard isSwapped(head) else { return head }
    var fixed = head
    fixed.swapAt(10, 11)
    fixed.swapAt(12, 15)
    fixed.swapAt(13, 14)
    fixed.swapAt(16, 17)
    return fixed
  }

  /// Repairs, in place, the extradata of an Opus stream's parameters (see ``repaired(_:)``),
  /// and the initial padding FFmpeg took from the misread pre-skip.
  static func repair(_ parameters: UnsafeMutablePointer<AVCodecParameters>?) {
    guard let parameters, parameters.pointee.codec_id == AV_CODEC_ID_OPUS,
      let extradata = parameters.pointee.extradata, parameters.pointee.extradata_size >= 19
    else { return }
    let head = Array(UnsafeBufferPointer(start: extradata, count: 19))
    guard isSwapped(head) else { return }
    let fixed = repaired(head)
    for index in 0..<19 { extradata[index] = fixed[index] }
    parameters.pointee.initial_padding = Int32(fixed[10]) | Int32(fixed[11]) << 8
  }
}
