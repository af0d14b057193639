internal import CFFmpeg

/// Owns one `AVCodecContext` (a decoder or an encoder); frees it when it goes away.
struct CodecContext: ~Copyable {
  let raw: UnsafeMutablePointer<AVCodecContext>

  /// Allocates and opens a decoder for `stream`'s parameters.
  /// The corresponding C functions are `avcodec_alloc_context3` and `avcodec_open2`.
  init(decoderFor stream: UnsafeMutablePointer<AVStream>, path: String) throws(MediaError) {
    guard let parameters = stream.pointee.codecpar,
      let codec = avcodec_find_decoder(parameters.pointee.codec_id)
    else {
      throw MediaError(
        kind: .malformed, operation: "avcodec_find_decoder",
        detail: "no decoder for the audio of '\(path)'")
    }
    guard let context = avcodec_alloc_context3(codec) else {
      throw MediaError(
        kind: .other, operation: "avcodec_alloc_context3", detail: "out of memory")
    }
    var code = avcodec_parameters_to_context(context, parameters)
    if code >= 0 {
      context.pointee.pkt_timebase = stream.pointee.time_base
      code = avcodec_open2(context, codec, nil)
    }
    if code < 0 {
      var doomed: UnsafeMutablePointer<AVCodecContext>? = context
      avcodec_free_context(&doomed)
      throw MediaError(
        kind: .malformed, code: code, operation: "avcodec_open2",
        detail: "cannot open the audio decoder for '\(path)'")
    }
    raw = context
  }

  /// Allocates an encoder context for `codec`; the caller sets its fields, then calls `open`.
  init(encoder codec: UnsafePointer<AVCodec>) throws(MediaError) {
    guard let context = avcodec_alloc_context3(codec) else {
      throw MediaError(
        kind: .other, operation: "avcodec_alloc_context3", detail: "out of memory")
    }
    raw = context
  }

  deinit {
    var context: UnsafeMutablePointer<AVCodecContext>? = raw
    avcodec_free_context(&context)
  }
}

/// Owns one `AVFrame`.
struct Frame: ~Copyable {
  let raw: UnsafeMutablePointer<AVFrame>

  /// The corresponding C function is `av_frame_alloc`.
  init() throws(MediaError) {
    guard let frame = av_frame_alloc() else {
      throw MediaError(kind: .other, operation: "av_frame_alloc", detail: "out of memory")
    }
    raw = frame
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
    guard let packet = av_packet_alloc() else {
      throw MediaError(kind: .other, operation: "av_packet_alloc", detail: "out of memory")
    }
    raw = packet
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
    guard let fifo = av_audio_fifo_alloc(format, Int32(channels), 4096) else {
      throw MediaError(kind: .other, operation: "av_audio_fifo_alloc", detail: "out of memory")
    }
    raw = fifo
  }

  /// Frames currently buffered.
  var count: Int { Int(av_audio_fifo_size(raw)) }

  deinit { av_audio_fifo_free(raw) }
}
