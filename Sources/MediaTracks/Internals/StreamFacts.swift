internal import CFFmpeg

/// Copies stream facts out of an open `AVFormatContext` into the value model.
extension FormatContext {
  /// Whether the headers alone left some audio or subtitle stream without its basic facts
  /// (or the demuxer announces streams only as packets arrive, as MPEG-TS does).
  ///
  /// With `forDecoding`, AAC at 24 kHz or below also counts: it may carry implicit SBR (HE-AAC),
  /// which doubles the output rate, and only decoding tells. Probing skips that check: it costs
  /// about as much as the rest of a probe, and implicit signalling is rare in MP4 and Matroska
  /// (they usually state the extended rate), so a probe reports the rate the headers state.
  func needsStreamInfo(forDecoding: Bool = false) -> Bool {
    if streamCount == 0 { return true }
    if (raw.pointee.ctx_flags & Int32(AVFMTCTX_NOHEADER)) != 0 { return true }
    for index in 0..<streamCount {
      guard let parameters = stream(at: index).pointee.codecpar else { return true }
      switch parameters.pointee.codec_type {
      case AVMEDIA_TYPE_AUDIO:
        if parameters.pointee.codec_id == AV_CODEC_ID_NONE || parameters.pointee.sample_rate <= 0
          || parameters.pointee.ch_layout.nb_channels <= 0
        {
          return true
        }
        // More than two channels and no layout (Matroska does not store FLAC's, Vorbis's or
        // Opus's): the default for the count (2.1, 4.0) is often wrong (3.0, quad), and the
        // stream tells.
        if parameters.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC
          && parameters.pointee.ch_layout.nb_channels > 2
        {
          return true
        }
        if forDecoding && parameters.pointee.codec_id == AV_CODEC_ID_AAC
          && parameters.pointee.sample_rate <= 24000
        {
          return true
        }
      case AVMEDIA_TYPE_SUBTITLE:
        if parameters.pointee.codec_id == AV_CODEC_ID_NONE { return true }
      default:
        continue
      }
    }
    return false
  }

  /// The container's overall bit rate, or `nil`.
  var bitRate: Int? {
    raw.pointee.bit_rate > 0 ? Int(raw.pointee.bit_rate) : nil
  }

  /// The raw facts of every audio and subtitle stream, in stream order.
  func tracks() -> (audio: [AudioTrack], subtitles: [SubtitleTrack]) {
    var audio: [AudioTrack] = []
    var subtitles: [SubtitleTrack] = []
    for index in 0..<streamCount {
      guard let type = stream(at: index).pointee.codecpar?.pointee.codec_type else { continue }
      if type == AVMEDIA_TYPE_AUDIO {
        audio.append(audioTrack(at: index))
      } else if type == AVMEDIA_TYPE_SUBTITLE {
        subtitles.append(subtitleTrack(at: index))
      }
    }
    return (audio, subtitles)
  }

  /// The facts of audio stream `index` (kind and label not yet set).
  func audioTrack(at index: Int) -> AudioTrack {
    let stream = stream(at: index)
    let parameters = stream.pointee.codecpar!
    let channels = Int(parameters.pointee.ch_layout.nb_channels)
    let layout = withUnsafePointer(to: parameters.pointee.ch_layout) { ChannelLayout(copying: $0) }
    let raw = metadata(stream, "language")
    var start: Double? = nil
    if stream.pointee.start_time != cff_nopts_value() {
      start = Double(stream.pointee.start_time) * av_q2d(stream.pointee.time_base)
    }
    return AudioTrack(
      index: index, codec: codecName(parameters.pointee.codec_id),
      profile: profileName(parameters), sampleRate: Int(parameters.pointee.sample_rate),
      channels: channels,
      channelLayout: channels > 0
        ? ChannelLayoutName.clean(layout.described, channels: channels) : "",
      bitRate: parameters.pointee.bit_rate > 0 ? Int(parameters.pointee.bit_rate) : nil,
      duration: duration(ofStream: index), startTime: start, language: LanguageTag.bcp47(raw),
      languageTag: raw, title: metadata(stream, "title"),
      dispositions: dispositionNames(stream.pointee.disposition))
  }

  /// The facts of subtitle stream `index` (kind and label not yet set).
  func subtitleTrack(at index: Int) -> SubtitleTrack {
    let stream = stream(at: index)
    let raw = metadata(stream, "language")
    return SubtitleTrack(
      index: index, codec: codecName(stream.pointee.codecpar.pointee.codec_id),
      language: LanguageTag.bcp47(raw), languageTag: raw, title: metadata(stream, "title"),
      dispositions: dispositionNames(stream.pointee.disposition))
  }

  private func metadata(_ stream: UnsafeMutablePointer<AVStream>, _ key: String) -> String? {
    guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0),
      let value = entry.pointee.value
    else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
  }

  private func codecName(_ id: AVCodecID) -> String {
    guard id != AV_CODEC_ID_NONE, let name = avcodec_get_name(id) else { return "" }
    return String(cString: name)
  }

  /// FFmpeg's profile name; for AAC without one, the object type from the AudioSpecificConfig.
  private func profileName(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> String? {
    let id = parameters.pointee.codec_id
    if parameters.pointee.profile >= 0,
      let name = avcodec_profile_name(id, parameters.pointee.profile)
    {
      return String(cString: name)
    }
    guard id == AV_CODEC_ID_AAC, parameters.pointee.extradata_size >= 2,
      let extradata = parameters.pointee.extradata
    else { return nil }
    // ISO/IEC 14496-3 AudioSpecificConfig: the first 5 bits are the audio object type.
    switch extradata[0] >> 3 {
    case 1: return "Main"
    case 2: return "LC"
    case 3: return "SSR"
    case 4: return "LTP"
    case 5: return "HE-AAC"
    case 29: return "HE-AACv2"
    case 23: return "LD"
    case 39: return "ELD"
    default: return nil
    }
  }

  /// FFmpeg's names for the set disposition bits, lowest bit first.
  private func dispositionNames(_ disposition: Int32) -> [String] {
    var names: [String] = []
    var bits = UInt32(bitPattern: disposition)
    while bits != 0 {
      let bit = bits & (~bits &+ 1)
      bits &= ~bit
      if let name = av_disposition_to_string(Int32(bitPattern: bit)) {
        names.append(String(cString: name))
      }
    }
    return names
  }
}
