internal import CFFmpeg

/// The FFmpeg side of ``AudioEncoder``: muxer, encoder, sample conversion and frame cutting.
/// The owner checks arguments and state; after any failure it calls ``discard()``.
final class FFmpegAudioSink {
  /// Samples per second (Hz) of the input.
  let sampleRate: Int
  /// Channels per frame of the input.
  let channels: Int
  /// Samples per second (Hz) of the encoded file (differs from ``sampleRate`` when resampled).
  let outputSampleRate: Int
  /// FFmpeg's name of the encoder in use, for example `"aac"` or `"libopus"`.
  let codecName: String

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
  /// Frames given to ``write(_:frames:)``, and frames the resampler has put in the FIFO.
  private var framesIn = 0
  private var framesConverted = 0
  /// The frames to encode in all, when the resampler's tail was padded out (see ``finish()``).
  private var encodeLimit: Int? = nil

  /// Creates the output file and writes its header; the caller has checked the arguments.
  init(
    destination: OutputDestination, sampleRate: Int, channels: Int, bitRate: Int?,
    channelMask: UInt64?, choice: EncoderChoice
  ) throws(MediaError) {
    try FFmpegLibraries.require()
    let path = destination.path
    let encoder = try FFmpegCall.find(
      "avcodec_find_encoder", .invalidArgument, "this FFmpeg has no encoder for '\(path)'"
    ) { choice.findEncoder() }
    var output = try OutputContext(format: choice.muxer, destination: destination)
    let codecFormat = EncoderChoice.sampleFormat(for: encoder)
    let outRate = choice.forcedRate ?? EncoderChoice.supportedRate(near: sampleRate, for: encoder)
    let settings = EncoderSettings(
      format: codecFormat, rate: Int32(outRate), globalHeader: output.wantsGlobalHeader,
      bitRate: choice.lossy ? Int64(bitRate ?? min(320_000, 64_000 * channels)) : nil)
    var layout = ChannelLayout(mask: channelMask, channels: channels)
    let codec = try Self.openEncoder(
      encoder, settings, layout: &layout, channels: channels, path: path)
    let context = codec.raw
    let stream = try FFmpegCall.allocate("avformat_new_stream") {
      avformat_new_stream(output.raw, nil)
    }
    stream.pointee.time_base = context.pointee.time_base
    try FFmpegCall.check("avcodec_parameters_from_context", .other, "cannot set up '\(path)'") {
      avcodec_parameters_from_context(stream.pointee.codecpar, context)
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
    let frame = try Self.makeFrame(samples: size, settings, layoutOf: context)
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

  /// Encodes `frames` frames of interleaved float samples at `samples`.
  func write(_ samples: UnsafePointer<Float>?, frames: Int) throws(MediaError) {
    try push(samples, frames: frames)
    try drainFifo(final: false)
  }

  /// Flushes the resampler and the encoder and writes the container trailer.
  func finish() throws(MediaError) {
    try push(nil, frames: 0)
    // A resampler holds back the last few milliseconds until it has read past them, and its
    // flush gave nothing for an input shorter than its filter (20 frames at 44.1 kHz written
    // as Opus made a file with no audio at all): it reads silence past the end, and the FIFO
    // is encoded up to the input's length at the output's rate.
    if resampler.raw != nil {
      let expected = Int(
        (Double(framesIn) * Double(outputSampleRate) / Double(sampleRate)).rounded())
      if framesConverted < expected {
        let silence = [Float](repeating: 0, count: 1024 * channels)
        try silence.withUnsafeBufferPointer { (buffer) throws(MediaError) in
          try push(buffer.baseAddress, frames: 1024, counted: false)
        }
        try push(nil, frames: 0)
        encodeLimit = expected
      }
    }
    try drainFifo(final: true)
    try encode(frame: false)
    try output.commit()
  }

  /// Closes and removes the output file (idempotent).
  func discard() {
    output.discard()
  }

  /// Converts input (or, with `nil`, the resampler's tail) into the FIFO.
  private func push(_ samples: UnsafePointer<Float>?, frames: Int, counted: Bool = true)
    throws(MediaError)
  {
    if counted { framesIn += frames }
    guard let swr = resampler.raw else { return }
    let bound = Int(swr_get_out_samples(swr, Int32(clamping: frames))) + 32
    try converted.reserve(frames: bound, channels: channels, format: codecFormat)
    let produced = converted.withPlanes { planes in
      cff_swr_convert_from_interleaved(swr, planes, Int32(bound), samples, Int32(frames))
    }
    try FFmpegCall.check(
      "swr_convert", .outputFailed, "cannot convert samples for '\(output.path)'"
    ) {
      produced
    }
    if produced == 0 { return }
    framesConverted += Int(produced)
    let fifoRaw = fifo.raw
    let written = converted.withPlanes { cff_fifo_write(fifoRaw, $0, produced) }
    // A short count, not a negative code, is the failure here: not FFmpegCall.check's shape.
    if written < produced {
      throw MediaError(
        kind: .other, code: written, operation: "av_audio_fifo_write", detail: "out of memory")
    }
  }

  /// Encodes whole frames from the FIFO; with `final`, also the last partial frame.
  private func drainFifo(final: Bool) throws(MediaError) {
    while fifo.count >= frameSize || (final && fifo.count > 0) {
      var take = min(frameSize, fifo.count)
      if let limit = encodeLimit {
        take = min(take, limit - Int(nextPTS))
        if take <= 0 { break }
      }
      var code = av_frame_make_writable(frame.raw)
      if code >= 0 {
        code = cff_fifo_read_into_frame(fifo.raw, frame.raw, Int32(take))
      }
      try FFmpegCall.check("av_audio_fifo_read", .other, "out of memory") { code }
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
  private func encode(frame hasFrame: Bool) throws(MediaError) {
    try FFmpegCall.check(
      "avcodec_send_frame", .outputFailed, "cannot encode audio for '\(output.path)'"
    ) {
      avcodec_send_frame(codec.raw, hasFrame ? frame.raw : nil)
    }
    while true {
      let code = avcodec_receive_packet(codec.raw, packet.raw)
      if code == cff_averror_eagain() || code == cff_averror_eof() { return }
      try FFmpegCall.check(
        "avcodec_receive_packet", .outputFailed, "cannot encode audio for '\(output.path)'"
      ) { code }
      packet.raw.pointee.stream_index = streamIndex
      let stream = output.raw.pointee.streams[Int(streamIndex)]!
      av_packet_rescale_ts(packet.raw, codec.raw.pointee.time_base, stream.pointee.time_base)
      try FFmpegCall.check(
        "av_interleaved_write_frame", .outputFailed, "cannot write '\(output.path)'"
      ) { av_interleaved_write_frame(output.raw, packet.raw) }
    }
  }

  /// What an encoder is opened with, besides its channel layout.
  private struct EncoderSettings {
    /// The sample format the encoder takes.
    var format: AVSampleFormat
    /// Samples per second (Hz) of the encoded audio.
    var rate: Int32
    /// Whether the muxer wants the codec's headers once, in the container.
    var globalHeader: Bool
    /// Bits per second for a lossy codec, else `nil`.
    var bitRate: Int64?
  }

  /// Opens `encoder` with the input's speakers when the codec takes them, else the default
  /// layout for the count (the same layout on both sides of the converter: channels are
  /// relabelled, never mixed); `layout` is left as the one the encoder was opened with.
  /// - Throws: `.invalidArgument` when the encoder opens with no layout tried.
  private static func openEncoder(
    _ encoder: UnsafePointer<AVCodec>, _ settings: EncoderSettings,
    layout: inout ChannelLayout, channels: Int, path: String
  ) throws(MediaError) -> CodecContext {
    /// A codec context with `layout`, opened; `code` is what `avcodec_open2` returned.
    func opened(_ layout: borrowing ChannelLayout, code: inout Int32) throws(MediaError)
      -> CodecContext
    {
      let codec = try CodecContext(encoder: encoder)
      let context = codec.raw
      context.pointee.sample_fmt = settings.format
      context.pointee.sample_rate = settings.rate
      context.pointee.time_base = AVRational(num: 1, den: settings.rate)
      _ = withUnsafePointer(to: layout.raw) {
        av_channel_layout_copy(&context.pointee.ch_layout, $0)
      }
      if let bitRate = settings.bitRate { context.pointee.bit_rate = bitRate }
      if settings.globalHeader { context.pointee.flags |= cff_codec_flag_global_header() }
      code = avcodec_open2(context, encoder, nil)
      return codec
    }
    if !supports(encoder, layout) { layout = ChannelLayout(defaultFor: channels) }
    var code: Int32 = 0
    var codec = try opened(layout, code: &code)
    if code < 0 && layout.mask != ChannelLayout(defaultFor: channels).mask {
      // Some encoders (libopus) list no layouts and refuse some when opened.
      layout = ChannelLayout(defaultFor: channels)
      codec = try opened(layout, code: &code)
    }
    if code < 0, let mask = ChannelLayout.vorbisMask(channels: channels), mask != layout.mask {
      // libopus takes only the Vorbis channel mappings, which for 3 and 4 channels (3.0, quad)
      // are not FFmpeg's defaults (2.1, 4.0).
      layout = ChannelLayout(mask: mask, channels: channels)
      codec = try opened(layout, code: &code)
    }
    try FFmpegCall.check(
      "avcodec_open2", .invalidArgument,
      "cannot open the \(String(cString: encoder.pointee.name)) encoder for '\(path)'"
    ) { code }
    return codec
  }

  /// A frame of `samples` samples in the encoder's sample format and rate and the channel
  /// layout of the open encoder `context`, with its buffers allocated.
  private static func makeFrame(
    samples: Int, _ settings: EncoderSettings,
    layoutOf context: UnsafeMutablePointer<AVCodecContext>
  ) throws(MediaError) -> Frame {
    let frame = try Frame()
    frame.raw.pointee.nb_samples = Int32(samples)
    frame.raw.pointee.format = settings.format.rawValue
    frame.raw.pointee.sample_rate = settings.rate
    _ = withUnsafePointer(to: context.pointee.ch_layout) {
      av_channel_layout_copy(&frame.raw.pointee.ch_layout, $0)
    }
    try FFmpegCall.check("av_frame_get_buffer", .other, "out of memory") {
      av_frame_get_buffer(frame.raw, 0)
    }
    return frame
  }

  /// Whether `encoder` lists `layout` among its channel layouts (or lists none: any goes).
  private static func supports(
    _ encoder: UnsafePointer<AVCodec>, _ layout: borrowing ChannelLayout
  ) -> Bool {
    guard var candidate = encoder.pointee.ch_layouts else { return true }
    return withUnsafePointer(to: layout.raw) { wanted in
      while candidate.pointee.nb_channels > 0 {
        if av_channel_layout_compare(candidate, wanted) == 0 { return true }
        candidate += 1
      }
      return false
    }
  }
}
