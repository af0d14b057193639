internal import CFFmpeg

/// Gives an MP4 AAC track that has no AudioSpecificConfig (an `esds` box without its
/// DecoderSpecificInfo) the configuration its sample entry states.
///
/// FFmpeg 5.1's AAC decoder, opened without a configuration, assumes AAC-LC at the rate its
/// parameters state. That works for AAC-LC, but the stream-information pass first sets the
/// parameters to the rate the decoder gave, which for HE-AAC (implicit SBR) is twice the
/// core's: LC at 44,100 Hz then reads frames coded at 22,050 Hz, and every frame fails. The
/// configuration built here names AAC-LC (object type 2) at the sample entry's rate, read
/// before that pass, and its channel configuration; the decoder still finds the SBR and PS
/// data in the frames (ISO/IEC 14496-3 1.6.5: implicit signalling).
enum AACConfigRepair {
  /// The sampling frequencies an AudioSpecificConfig indexes (ISO/IEC 14496-3 1.6.3.4), Hz.
  static let rates = [
    96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
  ]

  /// A two-byte AudioSpecificConfig for AAC-LC at `sampleRate` Hz with `channels` channels:
  /// object type 2, the rate's index, the channel configuration (1 to 6 channels as
  /// themselves, 8 as 7). `nil` for a rate outside the table or a channel count no
  /// configuration names.
  static func audioSpecificConfig(sampleRate: Int, channels: Int) -> [UInt8]? {
    guard let index = rates.firstIndex(of: sampleRate) else { return nil }
    let configuration: Int
    switch channels {
    case 1...6: configuration = channels
    case 8: configuration = 7
    default: return nil
    }
    let bits = 2 << 11 | index << 7 | configuration << 3
    return [UInt8(bits >> 8), UInt8(bits & 0xFF)]
  }

  /// Sets the extradata of an AAC stream's parameters that have none to
  /// ``audioSpecificConfig(sampleRate:channels:)`` for the sample entry's `sampleRate` and
  /// `channels`; leaves anything else unchanged.
  static func repair(
    _ parameters: UnsafeMutablePointer<AVCodecParameters>?, sampleRate: Int, channels: Int
  ) {
    guard let parameters, parameters.pointee.codec_id == AV_CODEC_ID_AAC,
      parameters.pointee.extradata == nil || parameters.pointee.extradata_size == 0,
      let config = audioSpecificConfig(sampleRate: sampleRate, channels: channels),
      let memory = av_malloc(config.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))
    else { return }
    // FFmpeg's readers may read past the end into the padding, which must be zero.
    let bytes = memory.initializeMemory(
      as: UInt8.self, repeating: 0, count: config.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))
    for (offset, byte) in config.enumerated() { bytes[offset] = byte }
    av_freep(&parameters.pointee.extradata)
    parameters.pointee.extradata = bytes
    parameters.pointee.extradata_size = Int32(config.count)
  }
}
