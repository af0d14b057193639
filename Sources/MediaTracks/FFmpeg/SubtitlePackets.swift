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
  /// A WebVTT cue's identifier a Matroska file stores beside its text (empty when none).
  var identifier = ""
  /// A WebVTT cue's settings a Matroska file stores beside its text (empty when none).
  var settings = ""
}

/// What ``SubtitlePackets/read(path:streamIndex:timeout:accept:)`` found out about the stream.
struct SubtitleStreamFacts {
  /// FFmpeg's codec name; for an MP4 `wvtt` or `stpp` track, which FFmpeg 5.1 keeps as a data
  /// stream of no codec, and a Matroska track whose `CodecID` FFmpeg 5.1 does not name
  /// (`S_TEXT/WEBVTT`), the declared one (`webvtt`, `ttml`).
  var codec: String
  /// The MP4 sample entry's four-character code for `wvtt` and `stpp` tracks, else `nil`:
  /// their packets are ISO/IEC 14496-30 samples (boxes; whole TTML documents).
  var sampleEntry: String?
  /// The `wvtt` sample entry's `vttC` body (the WebVTT header), a Matroska WebVTT track's
  /// `CodecPrivate` (its header), an ASS or SSA stream's extradata (its script header:
  /// `[Script Info]` and the styles, a Matroska track's `CodecPrivate`), a `mov_text`
  /// stream's extradata (the `tx3g` sample entry's body: its default style), else empty.
  var configuration: [UInt8] = []
  /// Where the track ends, in seconds (its start plus its duration), or `nil` when unknown:
  /// the end of a last packet that states no duration.
  var end: Double?
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
  ) throws(MediaError) -> (facts: SubtitleStreamFacts, packets: [SubtitlePacket]) {
    let format = try FormatContext(path: path, timeout: timeout)
    guard streamIndex >= 0, streamIndex < format.streamCount,
      let parameters = format.stream(at: streamIndex).pointee.codecpar
    else { throw noSubtitles(path, streamIndex) }
    var facts = SubtitleStreamFacts(codec: "")
    if parameters.pointee.codec_id != AV_CODEC_ID_NONE,
      let name = avcodec_get_name(parameters.pointee.codec_id)
    {
      facts.codec = String(cString: name)
    }
    let mp4 = format.formatName.hasPrefix("mov")
    let tag = FormatContext.tagText(parameters.pointee.codec_tag)
    if mp4, tag == "wvtt" || tag == "stpp" {
      // FFmpeg 5.1 keeps these as data streams without a codec: the sample entry says.
      let declared = format.declarations()[streamIndex]
      facts.codec = tag == "wvtt" ? "webvtt" : "ttml"
      facts.sampleEntry = tag
      facts.configuration = declared?.textConfiguration ?? []
    } else if parameters.pointee.codec_type != AVMEDIA_TYPE_SUBTITLE {
      throw noSubtitles(path, streamIndex)
    } else if facts.codec.isEmpty, format.formatName.hasPrefix("matroska"),
      let declared = format.declarations()[streamIndex]?.codec
    {
      // A CodecID FFmpeg 5.1 has no name for: mkvmerge's `S_TEXT/WEBVTT`, whose blocks hold
      // the cue text alone (the identifier and settings go to BlockAdditions).
      facts.codec = declared
    }
    // Matroska WebVTT: the header is the track's private data, and a cue's identifier and
    // settings travel beside its text (see `cueParts(_:)`).
    let matroskaWebVTT = facts.codec == "webvtt" && format.formatName.hasPrefix("matroska")
    let inflated = matroskaWebVTT && format.declarations()[streamIndex]?.zlibCompressed == true
    // ASS/SSA: the script header (`[Script Info]`, the styles) is the codec's private data.
    // mov_text: the tx3g sample entry's body (its default style's colour).
    let privateHeader = facts.codec == "ass" || facts.codec == "ssa" || facts.codec == "mov_text"
    if matroskaWebVTT || privateHeader, let data = parameters.pointee.extradata,
      parameters.pointee.extradata_size > 0
    {
      facts.configuration = Array(
        UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size)))
    }
    try accept(facts.codec)
    for other in 0..<format.streamCount where other != streamIndex {
      format.stream(at: other).pointee.discard = AVDISCARD_ALL
    }
    let stream = format.stream(at: streamIndex)
    let timeBase = av_q2d(stream.pointee.time_base)
    if stream.pointee.duration > 0, stream.pointee.duration != cff_nopts_value() {
      let start = stream.pointee.start_time != cff_nopts_value() ? stream.pointee.start_time : 0
      facts.end = Double(start + stream.pointee.duration) * timeBase
    }
    let packet = try Packet()
    var packets: [SubtitlePacket] = []
    // The last packet in time, in the stream's ticks: its start and the duration FFmpeg gave.
    var last: (position: Int, stamp: Int64, duration: Int64)? = nil
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
      if stamp >= last?.stamp ?? .min { last = (packets.count, stamp, raw.duration) }
      var subtitle = SubtitlePacket(
        start: Double(stamp) * timeBase,
        duration: raw.duration > 0 ? Double(raw.duration) * timeBase : nil,
        payload: payload)
      if matroskaWebVTT {
        (subtitle.identifier, subtitle.settings) = cueParts(packet.raw, inflated: inflated)
      }
      packets.append(subtitle)
    }
    if mp4, let last,
      let ticks = emptyEditEnd(stream, lastStamp: last.stamp, lastDuration: last.duration)
    {
      packets[last.position].duration = Double(ticks - last.stamp) * timeBase
    }
    return (facts, packets)
  }

  /// Where an MP4 track that starts with an empty edit (its first sample shown that late, as
  /// GStreamer's muxers write a subtitle track whose first cue is not at 0) ends, in the
  /// stream's ticks, when FFmpeg 5.1 cut its last packet short: it ends the last packet at the
  /// stream's duration, which counts the media's length but not the empty edit's, so the last
  /// cue loses the empty edit's length (a cue from 2.5 s to 3.0 s behind a 1.2 s empty edit
  /// lasts no time at all). The track ends at its start plus its media's length, as the
  /// sample table times its last sample. `nil` for a track that starts at 0, and when the last
  /// packet does not end where FFmpeg's cut would put it.
  private static func emptyEditEnd(
    _ stream: UnsafeMutablePointer<AVStream>, lastStamp: Int64, lastDuration: Int64
  ) -> Int64? {
    let start = stream.pointee.start_time
    let length = stream.pointee.duration
    guard start != cff_nopts_value(), start > 0, length != cff_nopts_value(), length > 0 else {
      return nil
    }
    // FFmpeg's last packet lasts from its time to the stream's duration, or no time (0) when
    // it starts after it.
    let cut = lastStamp < length ? length - lastStamp : 0
    guard lastDuration == cut, start + length > lastStamp + lastDuration else { return nil }
    return start + length
  }

  /// A Matroska WebVTT cue's identifier and settings, which are not in its block's data.
  /// WebM's WebVTT tracks (`D_WEBVTT/...`) keep them in the block before the text, and FFmpeg
  /// hands them over as side data of their own. `S_TEXT/WEBVTT` tracks (as mkvmerge writes
  /// them) keep them in the block's `BlockAdditional`, which FFmpeg hands over whole, after an
  /// 8-byte big-endian `BlockAddID`: its first line is the cue settings list, its second the
  /// cue identifier, and any further lines are comments that went before the cue. In a track
  /// whose blocks are zlib-compressed (`inflated`), mkvmerge compresses the `BlockAdditional`
  /// too, and FFmpeg 5.1 hands it over as stored.
  private static func cueParts(_ packet: UnsafeMutablePointer<AVPacket>, inflated: Bool) -> (
    identifier: String, settings: String
  ) {
    func side(_ type: AVPacketSideDataType) -> ArraySlice<UInt8>? {
      var size: Int = 0
      guard let data = av_packet_get_side_data(packet, type, &size), size > 0 else { return nil }
      return Array(UnsafeBufferPointer(start: data, count: size))[...]
    }
    func line(_ bytes: ArraySlice<UInt8>) -> String {
      var bytes = bytes
      while let last = bytes.last, last == 0 || last == 0x0D || last == 0x20 {
        bytes = bytes.dropLast()
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    var identifier = side(AV_PKT_DATA_WEBVTT_IDENTIFIER).map(line) ?? ""
    var settings = side(AV_PKT_DATA_WEBVTT_SETTINGS).map(line) ?? ""
    if identifier.isEmpty, settings.isEmpty,
      let additional = side(AV_PKT_DATA_MATROSKA_BLOCKADDITIONAL), additional.count > 8
    {
      var body = additional.dropFirst(8)
      if inflated, let plain = Inflate.zlib(body) { body = plain[...] }
      let lines = body.split(
        separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
      settings = lines.first.map(line) ?? ""
      identifier = lines.count > 1 ? line(lines[1]) : ""
    }
    return (identifier, settings)
  }

  private static func noSubtitles(_ path: String, _ index: Int) -> MediaError {
    MediaError(
      kind: .noSuchStream, operation: "SubtitleStreamReader",
      detail: "'\(path)' has no subtitle track with stream index \(index)")
  }
}
