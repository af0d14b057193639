internal import CFFmpeg

/// Gives an FLV Speex track whose packets hold several frames the Speex header that says so.
///
/// FLV carries no codec configuration for Speex, and FFmpeg 5.1's Speex decoder, opened without
/// one, decodes one 20 ms frame of each packet and drops the rest: GStreamer's `flvmux` with
/// `speexenc nframes=2` gave 1.52 s of a 3 s track, with exit 0. The header built here (the
/// Speex header layout, 80 bytes little-endian: `Speex   `, a version string, then the
/// version, header size, rate, mode, bit-stream version 4, channels, bit rate, frame size,
/// VBR, frames per packet and extra headers) states the frames each packet holds, which the
/// packets themselves do not (see ``FLVTags/speexAudio(_:)``).
enum SpeexHeaderRepair {
  /// A Speex header for `channels` channels at `sampleRate` Hz (narrow-, wide- or ultra-wideband
  /// by the rate), whose packets hold `framesPerPacket` frames; `nil` outside Speex's ranges.
  static func header(sampleRate: Int, channels: Int, framesPerPacket: Int) -> [UInt8]? {
    guard (1...2).contains(channels), (1...64).contains(framesPerPacket), sampleRate >= 6000,
      sampleRate <= 48000
    else { return nil }
    let mode = sampleRate >= 32000 ? 2 : sampleRate >= 16000 ? 1 : 0
    var bytes = Array("Speex   ".utf8) + [UInt8](repeating: 0, count: 72)
    /// Writes `value` as 32 bits, little-endian, at `offset`.
    func put(_ value: Int, at offset: Int) {
      for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
    put(1, at: 28)  // version
    put(80, at: 32)  // header size
    put(sampleRate, at: 36)
    put(mode, at: 40)
    put(4, at: 44)  // bit-stream version
    put(channels, at: 48)
    put(-1, at: 52)  // bit rate: unknown
    put(160 << mode, at: 56)  // frame size in samples
    put(0, at: 60)  // VBR: not stated
    put(framesPerPacket, at: 64)
    put(0, at: 68)  // extra headers
    return bytes
  }

  /// Sets the extradata of an FLV Speex stream's parameters that have none to ``header(
  /// sampleRate:channels:framesPerPacket:)`` when its packets hold more than one frame each;
  /// leaves anything else unchanged.
  static func repair(
    _ parameters: UnsafeMutablePointer<AVCodecParameters>?, framesPerPacket: Int
  ) {
    guard let parameters, parameters.pointee.codec_id == AV_CODEC_ID_SPEEX, framesPerPacket > 1,
      parameters.pointee.extradata == nil || parameters.pointee.extradata_size == 0,
      let header = header(
        sampleRate: Int(parameters.pointee.sample_rate),
        channels: Int(parameters.pointee.ch_layout.nb_channels),
        framesPerPacket: framesPerPacket),
      let memory = av_malloc(header.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))
    else { return }
    // FFmpeg's readers may read past the end into the padding, which must be zero.
    let bytes = memory.initializeMemory(
      as: UInt8.self, repeating: 0, count: header.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))
    for (offset, byte) in header.enumerated() { bytes[offset] = byte }
    av_freep(&parameters.pointee.extradata)
    parameters.pointee.extradata = bytes
    parameters.pointee.extradata_size = Int32(header.count)
  }
}
