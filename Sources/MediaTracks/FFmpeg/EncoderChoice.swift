internal import CFFmpeg

/// The container and codec an output extension maps to.
struct EncoderChoice {
  var muxer: String
  var codecID: AVCodecID
  var preferredEncoder: String?
  var forcedRate: Int?
  var lossy: Bool

  /// The choice for the output `path`, by its extension, or by `format` (an extension without
  /// its dot) when given.
  init(path: String, format: String? = nil) throws(MediaError) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let ext =
      format?.lowercased()
      ?? (name.split(separator: ".", omittingEmptySubsequences: false).count > 1
        ? String(name.split(separator: ".").last ?? "").lowercased() : "")
    switch ext {
    case "wav":
      self.init("wav", AV_CODEC_ID_PCM_S16LE, nil, nil, lossy: false)
    case "flac":
      self.init("flac", AV_CODEC_ID_FLAC, nil, nil, lossy: false)
    case "mka":
      self.init("matroska", AV_CODEC_ID_FLAC, nil, nil, lossy: false)
    case "mp3":
      self.init("mp3", AV_CODEC_ID_MP3, "libmp3lame", nil, lossy: true)
    case "m4a", "mp4":
      self.init("mp4", AV_CODEC_ID_AAC, "aac", nil, lossy: true)
    case "aac":
      self.init("adts", AV_CODEC_ID_AAC, "aac", nil, lossy: true)
    case "ogg", "opus":
      self.init("ogg", AV_CODEC_ID_OPUS, "libopus", 48_000, lossy: true)
    default:
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder",
        detail: (format.map { "unknown output format '\($0)'" }
          ?? "unknown output extension for '\(path)'")
          + " (use .wav, .flac, .mp3, .m4a, .mp4, .aac, .ogg, .opus or .mka)")
    }
  }

  private init(
    _ muxer: String, _ codecID: AVCodecID, _ preferred: String?, _ rate: Int?, lossy: Bool
  ) {
    self.muxer = muxer
    self.codecID = codecID
    preferredEncoder = preferred
    forcedRate = rate
    self.lossy = lossy
  }

  /// The preferred encoder when present, else FFmpeg's default for the codec.
  func findEncoder() -> UnsafePointer<AVCodec>? {
    if let preferredEncoder, let codec = avcodec_find_encoder_by_name(preferredEncoder) {
      return codec
    }
    return avcodec_find_encoder(codecID)
  }

  /// The encoder's first (preferred) sample format.
  static func sampleFormat(for codec: UnsafePointer<AVCodec>) -> AVSampleFormat {
    guard let formats = codec.pointee.sample_fmts else { return AV_SAMPLE_FMT_FLTP }
    return formats[0]
  }

  /// `rate` when the encoder takes it, else the nearest supported rate (ties to the higher).
  static func supportedRate(near rate: Int, for codec: UnsafePointer<AVCodec>) -> Int {
    guard let rates = codec.pointee.supported_samplerates else { return rate }
    var best = 0
    var index = 0
    while rates[index] != 0 {
      let candidate = Int(rates[index])
      if candidate == rate { return rate }
      if best == 0 || abs(candidate - rate) < abs(best - rate)
        || (abs(candidate - rate) == abs(best - rate) && candidate > best)
      {
        best = candidate
      }
      index += 1
    }
    return best == 0 ? rate : best
  }
}
