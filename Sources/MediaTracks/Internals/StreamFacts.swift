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
    var layout = withUnsafePointer(to: parameters.pointee.ch_layout) { ChannelLayout(copying: $0) }
    if parameters.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC,
      let mask = Self.codecLayout(parameters)
    {
      layout = ChannelLayout(mask: mask, channels: channels)
    }
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

  /// The speakers a codec's own specification gives a channel count, for a container that
  /// states no layout (Matroska stores none for FLAC, Vorbis or Opus, and FFmpeg's default for
  /// the count, 2.1 for three channels and 4.0 for four, is not what those decoders give).
  /// FLAC's assignments as FFmpeg's FLAC decoder reads them (five and six channels with side
  /// surrounds); Vorbis's channel mapping, which Opus's mapping family 1 shares (back
  /// surrounds); AAC's channel configuration (3.0, 4.0, 5.0, 5.1, 7.1 wide) from its
  /// `AudioSpecificConfig`; `nil` for other codecs, counts of one or two, other Opus mapping
  /// families and AAC with a program configuration element.
  static func codecLayout(_ parameters: UnsafePointer<AVCodecParameters>) -> UInt64? {
    let channels = Int(parameters.pointee.ch_layout.nb_channels)
    guard (3...8).contains(channels) else { return nil }
    let flac: [UInt64] = [0x7, 0x33, 0x607, 0x60F, 0x70F, 0x63F]
    switch parameters.pointee.codec_id {
    case AV_CODEC_ID_AAC:
      // 5 bits of object type, 4 of sampling-frequency index, 4 of channel configuration.
      guard let config = parameters.pointee.extradata, parameters.pointee.extradata_size >= 2,
        config[0] >> 3 != 31, (config[0] & 7) << 1 | config[1] >> 7 != 15
      else { return nil }
      let masks: [Int: UInt64] = [3: 0x7, 4: 0x107, 5: 0x37, 6: 0x3F, 7: 0xFF]
      guard let mask = masks[Int(config[1] >> 3 & 0xF)], mask.nonzeroBitCount == channels
      else { return nil }
      return mask
    case AV_CODEC_ID_FLAC: return flac[channels - 3]
    case AV_CODEC_ID_VORBIS: return ChannelLayout.vorbisMask(channels: channels)
    case AV_CODEC_ID_OPUS:
      // The mapping family is byte 18 of the `OpusHead` header, which is the extradata.
      guard let header = parameters.pointee.extradata, parameters.pointee.extradata_size > 18,
        header[18] == 1
      else { return nil }
      return ChannelLayout.vorbisMask(channels: channels)
    default: return nil
    }
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
