internal import CFFmpeg

extension FormatContext {
  /// The bytes at the end of an MPEG-TS or MPEG-PS file read for its audio's last frames:
  /// several PES packets of every audio stream even beside high-rate video.
  static let transportStreamTailBytes: Int64 = 256 << 10

  /// Extends each MPEG-TS and MPEG-PS (VOB) audio track's duration to the end of its last
  /// frame (and an FLV file's audio track, see ``extendFLVEnd(_:)``). FFmpeg 5.1 takes a
  /// stream's end from its last PES packet's timestamp plus one frame, but a PES packet of
  /// audio often carries several frames (GStreamer and FFmpeg put about 100 ms in one: four to
  /// seven AAC frames), so the track came out that much short. ASF's tracks are read the same
  /// way: its header's play duration includes the preroll, which FFmpeg subtracts, and VLC's
  /// ASF muxer leaves the preroll (2 s) out of it (FFmpeg states 0.976 s for 3 s of AAC, and
  /// less than nothing for shorter files). The last 256 KiB are read again
  /// through FFmpeg's parsers, which split PES packets into frames with their durations (a
  /// frame without one counts as the decoder's frame size). Local and in-memory inputs only; a
  /// track keeps its duration when the read finds none of its frames, or ends earlier.
  ///
  /// - Returns: the latest end in seconds from the container's start over the corrected
  ///   tracks, or `nil` when nothing was corrected.
  func extendTransportStreamEnds(_ audio: inout [AudioTrack], path: String) -> Double? {
    if formatName == "flv" { return extendFLVEnd(&audio) }
    guard ["mpegts", "mpeg", "asf"].contains(formatName), !audio.isEmpty, let source = byteSource,
      !(source is HTTPBytes), source.size > 0, let packet = av_packet_alloc()
    else { return nil }
    var owned: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&owned) }
    let wanted = Set(audio.map(\.index))
    // Other streams' packets are skipped by the demuxer, not parsed (video parsers cost most).
    var discarded: [(Int, AVDiscard)] = []
    for index in 0..<streamCount where !wanted.contains(index) {
      discarded.append((index, stream(at: index).pointee.discard))
      stream(at: index).pointee.discard = AVDISCARD_ALL
    }
    defer { for (index, discard) in discarded { stream(at: index).pointee.discard = discard } }
    // (Taken before the read: FFmpeg sets an unknown start from the first packet it reads.)
    var starts: [Int: Int64] = [:]
    for index in wanted { starts[index] = stream(at: index).pointee.start_time }
    var target = max(0, source.size - Self.transportStreamTailBytes)
    if formatName == "asf" {
      guard let layout = ASFHeader.read(source) else { return nil }
      target = layout.packetStart(atOrAfter: target)
      firstTimestamps(&starts, from: layout.firstPacket, packet: packet, path: path)
    }
    guard avformat_seek_file(raw, -1, Int64.min, target, Int64.max, AVSEEK_FLAG_BYTE) >= 0
    else { return nil }
    var ends: [Int: Int64] = [:]
    // The frames' own lengths, summed: what the track holds when the read covers the whole
    // file, whatever its timestamps do.
    var held: [Int: Int64] = [:]
    let wholeFile = target == 0 && formatName != "asf"
    while (try? readFrame(packet, path: path)) == 0 {
      defer { av_packet_unref(packet) }
      let index = Int(packet.pointee.stream_index)
      guard wanted.contains(index) else { continue }
      var length = packet.pointee.duration
      if length <= 0 { length = frameTicks(ofStream: index) }
      held[index, default: 0] += length
      if packet.pointee.pts != cff_nopts_value() {
        ends[index] = packet.pointee.pts + length
      } else if let end = ends[index] {
        ends[index] = end + length
      }
    }
    var latest: Double? = nil
    for position in audio.indices {
      let index = audio[position].index
      let stream = stream(at: index)
      let start = starts[index] ?? cff_nopts_value()
      guard var end = ends[index], start != cff_nopts_value() else { continue }
      // Timestamps are 33 bits and may wrap between the first frame and the last.
      if end < start && formatName != "asf" { end += 1 << 33 }
      let base = av_q2d(stream.pointee.time_base)
      let seconds = Double(end - start) * base
      let current = audio[position].duration ?? 0
      // A timestamp jump (a later piece's timestamps far from the first's, as concatenated
      // recordings have) in a file read whole: its frames' lengths are what it holds. FFmpeg
      // 5.1 states one frame (0.021 s) for two 0.3 s pieces of AAC 100 s apart.
      if wholeFile, seconds - current >= 10, let frames = held[index], frames > 0 {
        let sum = Double(frames) * base
        if sum > current, !isImplausible(sum) { audio[position].duration = sum }
        continue
      }
      // Longer, by less than the 256 KiB read could hold (not a timestamp jump); a track
      // FFmpeg states no length for ends within the container's.
      guard seconds > current, current == 0 || seconds - current < 10,
        current > 0 || seconds < (containerDuration ?? .infinity) + 10
      else { continue }
      // An ASF track is extended only where the stated length is far short (under half: VLC's
      // files state a third or less): an ASF file whose audio has gaps in its timestamps (5.3 s
      // of samples over 6.4 s, stated 4.4 s) is left as stated, since its timeline's end and
      // its audio's length disagree.
      if formatName == "asf" && current > 0 && current >= seconds * 0.5 { continue }
      audio[position].duration = seconds
      var fromStart = Double(end) * base
      if raw.pointee.start_time != cff_nopts_value() {
        fromStart -= Double(raw.pointee.start_time) / Double(AV_TIME_BASE)
      }
      latest = max(latest ?? 0, fromStart)
    }
    // Opus lasts what it presents, its trims taken off (see ``TSOpusTrims``).
    if formatName == "mpegts" {
      for position in audio.indices where audio[position].codec == "opus" {
        if let trims = opusTrims(ofStream: audio[position].index) {
          audio[position].duration = Double(trims.presented) / 48000
        }
      }
    }
    return latest
  }

  /// The trims and presented length of an Opus stream in a local MPEG-TS file (see
  /// ``TSOpusTrims``), or `nil`.
  func opusTrims(ofStream index: Int) -> TSOpusTrims? {
    guard formatName == "mpegts", let source = byteSource, !(source is HTTPBytes),
      stream(at: index).pointee.codecpar.pointee.codec_id == AV_CODEC_ID_OPUS
    else { return nil }
    return TSOpusTrims.read(source, pid: Int(stream(at: index).pointee.id))
  }

  /// Fills the unknown entries of `starts` (stream index to first timestamp) with the first
  /// timestamp of each stream's packets read from byte `offset` on, reading at most 1,024
  /// packets. The stream-information pass, which sets them, is not run on every file.
  private func firstTimestamps(
    _ starts: inout [Int: Int64], from offset: Int64, packet: UnsafeMutablePointer<AVPacket>,
    path: String
  ) {
    var missing = Set(starts.filter { $0.value == cff_nopts_value() }.keys)
    guard !missing.isEmpty,
      avformat_seek_file(raw, -1, Int64.min, offset, Int64.max, AVSEEK_FLAG_BYTE) >= 0
    else { return }
    for _ in 0..<1024 where !missing.isEmpty {
      guard (try? readFrame(packet, path: path)) == 0 else { break }
      defer { av_packet_unref(packet) }
      let index = Int(packet.pointee.stream_index)
      guard missing.contains(index), packet.pointee.pts != cff_nopts_value() else { continue }
      starts[index] = packet.pointee.pts
      missing.remove(index)
    }
  }

  /// Sets the duration of an FLV file's audio track (FFmpeg 5.1 states none) to the end of its
  /// last tag: that tag's timestamp and one frame (see ``FLVTags``). Speex, whose frame length
  /// FFmpeg leaves unset, lasts its packets' frames instead (see
  /// ``FLVTags/speexAudio(_:)``): GStreamer's `flvmux` writes Speex's header and comment
  /// packets as audio tags and times the audio 9 ms early after its first packet, so its last
  /// tag's time (2.971 s) was 49 ms short of the 3.02 s decoded (the comment packet decodes to
  /// one frame of noise, which is not counted).
  ///
  /// - Returns: the end in seconds from the container's start, or `nil` when not found.
  func extendFLVEnd(_ audio: inout [AudioTrack]) -> Double? {
    guard audio.count == 1, let source = byteSource, !(source is HTTPBytes) else { return nil }
    let index = audio[0].index
    let stream = stream(at: index)
    if stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_SPEEX, !isRemote,
      let speex = FLVTags.speexAudio(source)
    {
      guard !isImplausible(speex.seconds) else { return nil }
      audio[0].duration = speex.seconds
      return Double(speex.firstTimestamp) / 1000 + speex.seconds
    }
    guard let last = FLVTags.lastAudioTag(source) else { return nil }
    let base = av_q2d(stream.pointee.time_base)
    guard base > 0 else { return nil }
    let start = stream.pointee.start_time == cff_nopts_value() ? 0 : stream.pointee.start_time
    // Uncompressed audio has no frame size: its last tag lasts the samples it holds (GStreamer's
    // flvmux puts a whole buffer in a tag: three tags of a second each were listed as 2 s).
    let rate = Double(stream.pointee.codecpar.pointee.sample_rate)
    let lastLength =
      last.pcmSamples.map { rate > 0 ? Double($0) / rate : 0 }
      ?? Double(frameTicks(ofStream: index)) * base
    let end = Double(last.timestamp) / 1000 + lastLength
    let seconds = end - Double(start) * base
    guard seconds > 0, !isImplausible(seconds) else { return nil }
    audio[0].duration = seconds
    return end
  }

  /// One frame of stream `index` in its time base, from the decoder's frame size (set by the
  /// stream-information pass) and the rate; 0 when either is unknown.
  private func frameTicks(ofStream index: Int) -> Int64 {
    let stream = stream(at: index)
    guard let parameters = stream.pointee.codecpar, parameters.pointee.frame_size > 0,
      parameters.pointee.sample_rate > 0
    else { return 0 }
    let seconds = Double(parameters.pointee.frame_size) / Double(parameters.pointee.sample_rate)
    return Int64((seconds / av_q2d(stream.pointee.time_base)).rounded())
  }
}
