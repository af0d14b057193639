internal import CFFmpeg

/// Owns one `AVCodecContext` (a decoder or an encoder); frees it when it goes away.
struct CodecContext: ~Copyable {
  let raw: UnsafeMutablePointer<AVCodecContext>

  /// Allocates and opens a decoder for `stream`'s parameters.
  /// The corresponding C functions are `avcodec_alloc_context3` and `avcodec_open2`.
  init(decoderFor stream: UnsafeMutablePointer<AVStream>, path: String) throws(MediaError) {
    let (parameters, codec) = try FFmpegCall.find(
      "avcodec_find_decoder", .malformed, "no decoder for the audio of '\(path)'"
    ) { () -> (UnsafeMutablePointer<AVCodecParameters>, UnsafePointer<AVCodec>)? in
      guard let parameters = stream.pointee.codecpar,
        let codec = avcodec_find_decoder(parameters.pointee.codec_id)
      else { return nil }
      return (parameters, codec)
    }
    let context = try FFmpegCall.allocate("avcodec_alloc_context3") {
      avcodec_alloc_context3(codec)
    }
    var code = avcodec_parameters_to_context(context, parameters)
    if code >= 0 {
      context.pointee.pkt_timebase = stream.pointee.time_base
      code = avcodec_open2(context, codec, nil)
    }
    if code < 0 {
      var doomed: UnsafeMutablePointer<AVCodecContext>? = context
      avcodec_free_context(&doomed)
    }
    try FFmpegCall.check(
      "avcodec_open2", .malformed, "cannot open the audio decoder for '\(path)'"
    ) { code }
    raw = context
  }

  /// Allocates an encoder context for `codec`; the caller sets its fields, then calls `open`.
  init(encoder codec: UnsafePointer<AVCodec>) throws(MediaError) {
    raw = try FFmpegCall.allocate("avcodec_alloc_context3") { avcodec_alloc_context3(codec) }
  }

  deinit {
    var context: UnsafeMutablePointer<AVCodecContext>? = raw
    avcodec_free_context(&context)
  }
}

// Frame, Packet and AudioFifo repeat the owner's shape: each frees with its own function, and
// one generic owner would keep a closure per value for it.

/// Owns one `AVFrame`.
struct Frame: ~Copyable {
  let raw: UnsafeMutablePointer<AVFrame>

  /// The corresponding C function is `av_frame_alloc`.
  init() throws(MediaError) {
    raw = try FFmpegCall.allocate("av_frame_alloc") { av_frame_alloc() }
  }

  deinit {
    var frame: UnsafeMutablePointer<AVFrame>? = raw
    av_frame_free(&frame)
  }
}

/// Owns one `AVPacket`.
struct Packet: ~Copyable {
  let raw: UnsafeMutablePointer<AVPacket>

  /// The corresponding C function is `av_packet_alloc`.
  init() throws(MediaError) {
    raw = try FFmpegCall.allocate("av_packet_alloc") { av_packet_alloc() }
  }

  deinit {
    var packet: UnsafeMutablePointer<AVPacket>? = raw
    av_packet_free(&packet)
  }
}

/// Owns one `AVAudioFifo`.
struct AudioFifo: ~Copyable {
  let raw: OpaquePointer

  /// The corresponding C function is `av_audio_fifo_alloc`.
  init(format: AVSampleFormat, channels: Int) throws(MediaError) {
    raw = try FFmpegCall.allocate("av_audio_fifo_alloc") {
      av_audio_fifo_alloc(format, Int32(channels), 4096)
    }
  }

  /// Frames currently buffered.
  var count: Int { Int(av_audio_fifo_size(raw)) }

  deinit { av_audio_fifo_free(raw) }
}
