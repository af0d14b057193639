internal import CFFmpeg

/// One demuxed subtitle packet, copied out of FFmpeg: times in seconds on the container's
/// timeline and the payload bytes.
struct SubtitlePacket {
  /// Presentation time in seconds.
  var start: Double
  /// Display duration in seconds, or `nil` when the container does not state one.
  var duration: Double?
  /// The packet payload, copied.
  var payload: [UInt8]
}

/// Reads every packet of one subtitle stream. The corresponding C functions are
/// `avformat_open_input`, `av_read_frame` and `av_packet_unref`.
enum SubtitlePackets {
  /// Opens `path`, checks that `streamIndex` is a subtitle stream, lets `accept` veto its codec
  /// (by FFmpeg's codec name) before any packet is read, then reads all of the stream's packets
  /// in file order, each read within `timeout` seconds (`nil`: the default). Every FFmpeg
  /// object is freed before returning.
  static func read(
    path: String, streamIndex: Int, timeout: Double? = nil,
    accept: (String) throws(MediaError) -> Void
  ) throws(MediaError) -> (codec: String, packets: [SubtitlePacket]) {
    let format = try FormatContext(path: path, timeout: timeout)
    guard streamIndex >= 0, streamIndex < format.streamCount,
      let parameters = format.stream(at: streamIndex).pointee.codecpar,
      parameters.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE
    else {
      throw MediaError(
        kind: .noSuchStream, operation: "SubtitleStreamReader",
        detail: "'\(path)' has no subtitle track with stream index \(streamIndex)")
    }
    var codec = ""
    if let name = avcodec_get_name(parameters.pointee.codec_id) { codec = String(cString: name) }
    try accept(codec)
    for other in 0..<format.streamCount where other != streamIndex {
      format.stream(at: other).pointee.discard = AVDISCARD_ALL
    }
    let timeBase = av_q2d(format.stream(at: streamIndex).pointee.time_base)
    let packet = try Packet()
    var packets: [SubtitlePacket] = []
    while true {
      let code = try format.readFrame(packet.raw, path: path)
      if code < 0 {
        if code == cff_averror_eof() || format.raw.pointee.pb?.pointee.eof_reached != 0 { break }
        try FFmpegCall.check(
          "av_read_frame", .malformed, "cannot read the subtitles of '\(path)'"
        ) { code }
      }
      defer { av_packet_unref(packet.raw) }
      let raw = packet.raw.pointee
      guard Int(raw.stream_index) == streamIndex else { continue }
      let stamp = raw.pts != cff_nopts_value() ? raw.pts : raw.dts
      guard stamp != cff_nopts_value() else { continue }
      var payload: [UInt8] = []
      if let data = raw.data, raw.size > 0 {
        payload = Array(UnsafeBufferPointer(start: data, count: Int(raw.size)))
      }
      packets.append(
        SubtitlePacket(
          start: Double(stamp) * timeBase,
          duration: raw.duration > 0 ? Double(raw.duration) * timeBase : nil,
          payload: payload))
    }
    return (codec, packets)
  }
}
