internal import CFFmpeg

/// Encodes interleaved 32-bit float samples into an audio file whose container and codec follow
/// the file name's extension.
///
/// | extension | container | codec |
/// |---|---|---|
/// | `.wav` | WAVE | 16-bit PCM (`pcm_s16le`) |
/// | `.flac` | FLAC | FLAC |
/// | `.mp3` | MP3 | MP3 (`libmp3lame`, when this FFmpeg has an MP3 encoder) |
/// | `.m4a`, `.mp4` | MP4 | AAC |
/// | `.aac` | ADTS | AAC |
/// | `.ogg`, `.opus` | Ogg | Opus, always at 48 kHz (input is resampled) |
/// | `.mka` | Matroska | FLAC |
///
/// The encoder owns its muxer, codec and conversion contexts. Input is converted to the codec's
/// sample format (and, where the codec cannot take the input rate, resampled to the nearest rate
/// it supports) and cut into the codec's frame size internally. Call ``finish()`` to flush and
/// write the trailer. If the encoder goes away without a successful `finish()`, or after any
/// failure, the output file is removed: a failure never leaves a partial file.
public struct AudioEncoder: ~Copyable {
  /// Samples per second (Hz) of the input passed to ``write(_:frames:)``.
  public let sampleRate: Int
  /// Channels per frame of the input passed to ``write(_:frames:)``.
  public let channels: Int
  /// Samples per second (Hz) of the encoded file (differs from ``sampleRate`` when resampled).
  public let outputSampleRate: Int
  /// FFmpeg's name of the encoder in use, for example `"aac"` or `"libopus"`.
  public let codecName: String

  private var output: OutputContext
  private var codec: CodecContext
  private var resampler: Resampler
  private var fifo: AudioFifo
  private var converted: SampleBuffer
  private var frame: Frame
  private var packet: Packet
  private let frameSize: Int
  private let smallLastFrame: Bool
  private let codecFormat: AVSampleFormat
  private let streamIndex: Int32
  private var nextPTS: Int64 = 0
  private var failed = false
  private var done = false

  /// Creates the output file and writes its header.
  ///
  /// - Parameters:
  ///   - path: The output file; its extension picks the container and codec (see the table).
  ///     An existing file is replaced.
  ///   - sampleRate: The input sample rate in Hz (1...768000).
  ///   - channels: The input channel count (1...8); FFmpeg's default layout for the count is used.
  ///   - bitRate: The target bit rate in bits per second for lossy codecs; `nil` picks 64 kbit/s
  ///     per channel (at most 320 kbit/s). Ignored by lossless codecs.
  /// - Throws: `MediaError` with kind `.invalidArgument` for an unknown extension, bad rate or
  ///   channel count, or a codec this FFmpeg lacks; `.outputFailed` when the file cannot be
  ///   created.
  public init(path: String, sampleRate: Int, channels: Int, bitRate: Int? = nil)
    throws(MediaError)
  {
    guard (1...768_000).contains(sampleRate), (1...8).contains(channels) else {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder",
        detail: "unsupported sample rate \(sampleRate) Hz or channel count \(channels)")
    }
    if let bitRate, bitRate <= 0 {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder",
        detail: "bit rate must be positive, got \(bitRate)")
    }
    let choice = try EncoderChoice(path: path)
    try FFmpegLibrary.load()
    guard let encoder = choice.findEncoder() else {
      throw MediaError(
        kind: .invalidArgument, operation: "avcodec_find_encoder",
        detail: "this FFmpeg has no encoder for '\(path)'")
    }
    var output = try OutputContext(format: choice.muxer, path: path)
    let codec = try CodecContext(encoder: encoder)
    let context = codec.raw

    let codecFormat = EncoderChoice.sampleFormat(for: encoder)
    let outRate = choice.forcedRate ?? EncoderChoice.supportedRate(near: sampleRate, for: encoder)
    let layout = ChannelLayout(defaultFor: channels)
    context.pointee.sample_fmt = codecFormat
    context.pointee.sample_rate = Int32(outRate)
    context.pointee.time_base = AVRational(num: 1, den: Int32(outRate))
    _ = withUnsafePointer(to: layout.raw) { av_channel_layout_copy(&context.pointee.ch_layout, $0) }
    if choice.lossy {
      context.pointee.bit_rate = Int64(bitRate ?? min(320_000, 64_000 * channels))
    }
    if output.wantsGlobalHeader {
      context.pointee.flags |= cff_codec_flag_global_header()
    }
    var code = avcodec_open2(context, encoder, nil)
    if code < 0 {
      throw MediaError(
        kind: .invalidArgument, code: code, operation: "avcodec_open2",
        detail: "cannot open the \(String(cString: encoder.pointee.name)) encoder for '\(path)'")
    }
    guard let stream = avformat_new_stream(output.raw, nil) else {
      throw MediaError(kind: .other, operation: "avformat_new_stream", detail: "out of memory")
    }
    stream.pointee.time_base = context.pointee.time_base
    code = avcodec_parameters_from_context(stream.pointee.codecpar, context)
    if code < 0 {
      throw MediaError(
        kind: .other, code: code, operation: "avcodec_parameters_from_context",
        detail: "cannot set up '\(path)'")
    }
    try output.open()

    var resampler = Resampler()
    try withUnsafePointer(to: layout.raw) { (input) throws(MediaError) in
      try withUnsafePointer(to: context.pointee.ch_layout) { (codecLayout) throws(MediaError) in
        try resampler.configure(
          input: input, format: AV_SAMPLE_FMT_FLT, rate: Int32(sampleRate),
          output: codecLayout, format: codecFormat, rate: Int32(outRate))
      }
    }
    let capabilities = Int32(encoder.pointee.capabilities)
    let variable = (capabilities & cff_codec_cap_variable_frame_size()) != 0
    let size = context.pointee.frame_size > 0 && !variable ? Int(context.pointee.frame_size) : 1024
    let fifo = try AudioFifo(format: codecFormat, channels: channels)
    let frame = try Frame()
    frame.raw.pointee.nb_samples = Int32(size)
    frame.raw.pointee.format = codecFormat.rawValue
    frame.raw.pointee.sample_rate = Int32(outRate)
    _ = withUnsafePointer(to: context.pointee.ch_layout) {
      av_channel_layout_copy(&frame.raw.pointee.ch_layout, $0)
    }
    code = av_frame_get_buffer(frame.raw, 0)
    if code < 0 {
      throw MediaError(
        kind: .other, code: code, operation: "av_frame_get_buffer", detail: "out of memory")
    }
    let planar = av_sample_fmt_is_planar(codecFormat) != 0
    let packet = try Packet()

    self.sampleRate = sampleRate
    self.channels = channels
    outputSampleRate = outRate
    codecName = String(cString: encoder.pointee.name)
    frameSize = size
    smallLastFrame = variable || (capabilities & cff_codec_cap_small_last_frame()) != 0
    self.codecFormat = codecFormat
    streamIndex = stream.pointee.index
    converted = SampleBuffer(planeCount: planar ? channels : 1)
    self.output = output
    self.codec = codec
    self.resampler = resampler
    self.fifo = fifo
    self.frame = frame
    self.packet = packet
  }

  /// Encodes `frames` frames of interleaved float samples from the start of `interleaved`.
  ///
  /// - Parameters:
  ///   - interleaved: At least `frames * channels` samples, nominally in -1...1 (values outside
  ///     are clipped by integer codecs).
  ///   - frames: The frames to take; `0` does nothing.
  /// - Throws: `MediaError` with kind `.invalidArgument` when `interleaved` is too short (the
  ///   output file is then removed and the encoder unusable, as after any failed write) or the
  ///   encoder is already finished, `.outputFailed` when encoding or writing fails.
  public mutating func write(_ interleaved: [Float], frames: Int) throws(MediaError) {
    guard !done && !failed else {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder.write",
        detail: "the encoder for '\(output.path)' is finished or failed")
    }
    guard frames >= 0, frames * channels <= interleaved.count else {
      fail()
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder.write",
        detail: "\(frames) frames need \(frames * channels) samples, got \(interleaved.count)")
    }
    if frames == 0 { return }
    do throws(MediaError) {
      try interleaved.withUnsafeBufferPointer { (samples) throws(MediaError) in
        try push(samples.baseAddress, frames: frames)
      }
      try drainFifo(final: false)
    } catch {
      fail()
      throw error
    }
  }

  /// Flushes the resampler and the encoder and writes the container trailer. The file is
  /// complete once this returns.
  ///
  /// - Throws: `MediaError` with kind `.outputFailed` when the trailer cannot be written (the
  ///   output file is then removed), `.invalidArgument` if already finished or failed.
  public mutating func finish() throws(MediaError) {
    guard !done && !failed else {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder.finish",
        detail: "the encoder for '\(output.path)' is finished or failed")
    }
    do throws(MediaError) {
      try push(nil, frames: 0)
      try drainFifo(final: true)
      try encode(frame: false)
      try output.commit()
      done = true
    } catch {
      fail()
      throw error
    }
  }

  /// Gives up: closes and removes the output file.
  public consuming func abandon() {
    output.discard()
  }

  private mutating func fail() {
    failed = true
    output.discard()
  }

  /// Converts input (or, with `nil`, the resampler's tail) into the FIFO.
  private mutating func push(_ samples: UnsafePointer<Float>?, frames: Int) throws(MediaError) {
    guard let swr = resampler.raw else { return }
    let bound = Int(swr_get_out_samples(swr, Int32(clamping: frames))) + 32
    try converted.reserve(frames: bound, channels: channels, format: codecFormat)
    let produced = converted.withPlanes { planes in
      cff_swr_convert_from_interleaved(swr, planes, Int32(bound), samples, Int32(frames))
    }
    if produced < 0 {
      throw MediaError(
        kind: .outputFailed, code: produced, operation: "swr_convert",
        detail: "cannot convert samples for '\(output.path)'")
    }
    if produced == 0 { return }
    let fifoRaw = fifo.raw
    let written = converted.withPlanes { cff_fifo_write(fifoRaw, $0, produced) }
    if written < produced {
      throw MediaError(
        kind: .other, code: written, operation: "av_audio_fifo_write", detail: "out of memory")
    }
  }

  /// Encodes whole frames from the FIFO; with `final`, also the last partial frame.
  private mutating func drainFifo(final: Bool) throws(MediaError) {
    while fifo.count >= frameSize || (final && fifo.count > 0) {
      let take = min(frameSize, fifo.count)
      var code = av_frame_make_writable(frame.raw)
      if code >= 0 {
        code = cff_fifo_read_into_frame(fifo.raw, frame.raw, Int32(take))
      }
      if code < 0 {
        throw MediaError(
          kind: .other, code: code, operation: "av_audio_fifo_read", detail: "out of memory")
      }
      var count = take
      if take < frameSize && !smallLastFrame {
        // Pad the last frame with silence for codecs that need whole frames.
        av_samples_set_silence(
          frame.raw.pointee.extended_data, Int32(take), Int32(frameSize - take),
          frame.raw.pointee.ch_layout.nb_channels, codecFormat)
        count = frameSize
      }
      frame.raw.pointee.nb_samples = Int32(count)
      frame.raw.pointee.pts = nextPTS
      nextPTS += Int64(count)
      try encode(frame: true)
      frame.raw.pointee.nb_samples = Int32(frameSize)
    }
  }

  /// Sends the frame (or the end-of-stream marker) and writes every packet that comes out.
  private mutating func encode(frame hasFrame: Bool) throws(MediaError) {
    var code = avcodec_send_frame(codec.raw, hasFrame ? frame.raw : nil)
    if code < 0 {
      throw MediaError(
        kind: .outputFailed, code: code, operation: "avcodec_send_frame",
        detail: "cannot encode audio for '\(output.path)'")
    }
    while true {
      code = avcodec_receive_packet(codec.raw, packet.raw)
      if code == cff_averror_eagain() || code == cff_averror_eof() { return }
      if code < 0 {
        throw MediaError(
          kind: .outputFailed, code: code, operation: "avcodec_receive_packet",
          detail: "cannot encode audio for '\(output.path)'")
      }
      packet.raw.pointee.stream_index = streamIndex
      let stream = output.raw.pointee.streams[Int(streamIndex)]!
      av_packet_rescale_ts(packet.raw, codec.raw.pointee.time_base, stream.pointee.time_base)
      code = av_interleaved_write_frame(output.raw, packet.raw)
      if code < 0 {
        throw MediaError(
          kind: .outputFailed, code: code, operation: "av_interleaved_write_frame",
          detail: "cannot write '\(output.path)'")
      }
    }
  }
}

/// The container and codec an output extension maps to.
struct EncoderChoice {
  var muxer: String
  var codecID: AVCodecID
  var preferredEncoder: String?
  var forcedRate: Int?
  var lossy: Bool

  init(path: String) throws(MediaError) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let ext =
      name.split(separator: ".", omittingEmptySubsequences: false).count > 1
      ? String(name.split(separator: ".").last ?? "").lowercased() : ""
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
        detail: "unknown output extension for '\(path)' (use .wav, .flac, .mp3, .m4a, .mp4, "
          + ".aac, .ogg, .opus or .mka)")
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
