/// What an audio track is for, after the HTML `AudioTrack.kind` values.
public enum AudioKind: String, Hashable, Sendable, Codable, CaseIterable {
  /// The primary audio track.
  case main
  /// Another version of the main audio in the same language (a different mix or take).
  case alternative
  /// Commentary on the programme, for example by its director.
  case commentary
  /// Audio descriptions of the video only (to be mixed with the main track).
  case descriptions
  /// The main audio mixed with audio descriptions.
  case mainDescriptions = "main-desc"
  /// A translated (dubbed) version of the main audio.
  case translation
}

/// What a subtitle track is for, after the HTML `TextTrack.kind` values.
public enum SubtitleKind: String, Hashable, Sendable, Codable, CaseIterable {
  /// A transcription or translation of the dialogue.
  case subtitles
  /// Dialogue plus sound effects and speaker cues, for the deaf and hard of hearing (SDH).
  case captions
  /// Text descriptions of the video, for the blind.
  case descriptions
  /// Chapter titles.
  case chapters
  /// Data for scripts, not shown.
  case metadata
}

/// One encoding of an audio track that a manifest offers besides the track's own (see
/// ``AudioTrack/alternatives``).
public struct AudioEncoding: Hashable, Sendable, Codable {
  /// The codec's name in FFmpeg's vocabulary (`"eac3"`), `""` if unknown.
  public var codec: String
  /// The codec profile (`"HE-AAC"`), or `nil`.
  public var profile: String?
  /// Channel count, or `0` when unknown.
  public var channels: Int
  /// The clean channel-layout name (`"5.1"`, `"Atmos"`), `""` if unknown.
  public var channelLayout: String
  /// The HLS `GROUP-ID`s that carry it, in order.
  public var groups: [String]

  /// Creates an encoding from its fields.
  public init(
    codec: String, profile: String? = nil, channels: Int = 0, channelLayout: String = "",
    groups: [String] = []
  ) {
    self.codec = codec
    self.profile = profile
    self.channels = channels
    self.channelLayout = channelLayout
    self.groups = groups
  }

  /// What tells two encodings of one track apart, in HLS as in DASH: the codec, channel count and
  /// layout (profile and groups are not).
  struct Identity: Hashable {
    var codec: String
    var channels: Int
    var layout: String
  }

  /// This encoding's ``Identity``.
  var identity: Identity { Identity(codec: codec, channels: channels, layout: channelLayout) }
}

/// One audio track of a media file or a streaming manifest.
public struct AudioTrack: Hashable, Sendable, Codable {
  /// The container stream index; for an HLS playlist the rendition's position among its
  /// `#EXT-X-MEDIA` tags, for a DASH manifest the adaptation set's position in the period (video
  /// sets included), from 0. Not a position in ``MediaInfo/audio``.
  public var index: Int
  /// The codec's name: the one the container declares (its MP4 sample entry, MPEG-TS stream
  /// type and descriptors, Matroska `CodecID`) in FFmpeg's vocabulary (`"aac"`, `"eac3"`,
  /// `"mp2"`, `"mpegh_3d_audio"`; `"ac4"`, `"iamf"`, `"dts_uhd"` where FFmpeg has no name),
  /// FFmpeg's own name when the container declares none or FFmpeg's is more precise
  /// (`"pcm_s16le"`), or the manifest's codecs string; `""` if unknown.
  public var codec: String
  /// The codec FFmpeg takes the stream for (`"mp3"` for an MPEG-H stream FFmpeg 5.1 misreads),
  /// or `nil` when FFmpeg names none (and for manifests).
  public var ffmpegCodec: String?
  /// The container's own declaration of the codec: the MP4 sample entry code (`"ec-3"`,
  /// `"enca"`), the MPEG-TS stream type (`"stream_type 0x2d"`), the Matroska `CodecID`
  /// (`"A_AC3"`), else FFmpeg's codec tag when printable; `nil` when none.
  public var codecTag: String?
  /// Whether this FFmpeg can decode the track: `false` when it has no decoder for the codec
  /// (MPEG-H, AC-4, IAMF, DTS-UHD), when it takes the stream for another codec than the
  /// container declares, and when the track is encrypted. ``AudioDecoder`` refuses such a
  /// track with a message naming the codec.
  public var decodable: Bool
  /// Whether the track is encrypted (Common Encryption `enca` sample entries, Matroska content
  /// encryption): it is listed, not decoded.
  public var encrypted: Bool
  /// The codec profile (`"LC"`, `"HE-AAC"`), or `nil`.
  public var profile: String?
  /// Samples per second in Hz, as the decoder gives them where the container's header is known
  /// to differ (Opus always decodes at 48 kHz), or `0` when unknown.
  public var sampleRate: Int
  /// Channel count, or `0` when unknown.
  public var channels: Int
  /// The clean channel-layout name: `mono`, `stereo`, `2.1`, `5.1`, `7.1`, … (`""` if unknown).
  public var channelLayout: String
  /// Bits per second, or `nil` when unknown.
  public var bitRate: Int?
  /// Duration in seconds, or `nil` when unknown.
  public var duration: Double?
  /// Start time in seconds, or `nil` when unknown.
  public var startTime: Double?
  /// The BCP-47 language tag (`"fr"`), or `nil` when undetermined.
  public var language: String?
  /// The language tag exactly as the file states it (`"fre"`), or `nil`.
  public var languageTag: String?
  /// The track's title, or `nil`.
  public var title: String?
  /// FFmpeg's disposition names that apply, in FFmpeg's order (`"default"`, `"comment"`, …).
  public var dispositions: [String]
  /// What the track is for (see ``TrackKinds``).
  public var kind: AudioKind
  /// A readable label, unique within its file (see ``TrackLabeler``); `""` until labelled.
  public var label: String
  /// The other encodings of this same audio that a manifest offers, in the order it names them:
  /// an HLS rendition of the same `NAME` and `LANGUAGE` in a group whose variants carry
  /// another codec, or that states another `CHANNELS` (an AAC stereo and an E-AC-3 5.1
  /// "English"). The track's own fields describe its first rendition; empty for media files
  /// and when every rendition is encoded alike.
  public var alternatives: [AudioEncoding]
  /// Whether the container marks the track usable: `false` for a Matroska track whose
  /// `FlagEnabled` is 0. A disabled track is listed with what the file states (its `default`
  /// disposition too) but is chosen by default only when no enabled track exists (see
  /// ``TrackSelection``). Not encoded: a decoded track is enabled.
  var isEnabled = true

  /// The keys of the encoded fields (all but ``isEnabled``).
  enum CodingKeys: String, CodingKey {
    case index, codec, ffmpegCodec, codecTag, decodable, encrypted, profile, sampleRate
    case channels, channelLayout, bitRate, duration, startTime, language, languageTag, title
    case dispositions, kind, label, alternatives
  }

  /// Creates a track from its fields.
  public init(
    index: Int, codec: String = "", profile: String? = nil, sampleRate: Int = 0,
    channels: Int = 0, channelLayout: String = "", bitRate: Int? = nil, duration: Double? = nil,
    startTime: Double? = nil, language: String? = nil, languageTag: String? = nil,
    title: String? = nil, dispositions: [String] = [], kind: AudioKind = .main, label: String = "",
    ffmpegCodec: String? = nil, codecTag: String? = nil, decodable: Bool = true,
    encrypted: Bool = false, alternatives: [AudioEncoding] = []
  ) {
    self.alternatives = alternatives
    self.index = index
    self.codec = codec
    self.ffmpegCodec = ffmpegCodec
    self.codecTag = codecTag
    self.decodable = decodable
    self.encrypted = encrypted
    self.profile = profile
    self.sampleRate = sampleRate
    self.channels = channels
    self.channelLayout = channelLayout
    self.bitRate = bitRate
    self.duration = duration
    self.startTime = startTime
    self.language = language
    self.languageTag = languageTag
    self.title = title
    self.dispositions = dispositions
    self.kind = kind
    self.label = label
  }

  /// Whether the file flags this track as the default one.
  public var isDefault: Bool { dispositions.contains("default") }
}

// SubtitleTrack repeats AudioTrack's identity fields on purpose (see its documentation).

/// One subtitle track of a media file or a streaming manifest.
///
/// Its identity fields (index, codec, codec tag, language, title, dispositions) repeat
/// ``AudioTrack``'s on purpose: each is a plain `Codable` value whose JSON keys are the
/// command line's, and a shared base would need a protocol with the same documentation twice.
public struct SubtitleTrack: Hashable, Sendable, Codable {
  /// The container stream index; for an HLS playlist the rendition's position among its
  /// `#EXT-X-MEDIA` tags, for a DASH manifest the adaptation set's position in the period (video
  /// sets included), from 0. Not a position in ``MediaInfo/subtitles``.
  public var index: Int
  /// The codec's name: the one the container declares (`"webvtt"` for a Matroska
  /// `D_WEBVTT/SUBTITLES` track), in FFmpeg's vocabulary, else FFmpeg's name, or the
  /// manifest's codecs string; `""` if unknown.
  public var codec: String
  /// The codec FFmpeg takes the stream for, or `nil` when FFmpeg names none (and for
  /// manifests).
  public var ffmpegCodec: String?
  /// The container's own declaration of the codec (the MP4 sample entry code, the MPEG-TS
  /// stream type, the Matroska `CodecID`), or `nil`.
  public var codecTag: String?
  /// The BCP-47 language tag, or `nil` when undetermined.
  public var language: String?
  /// The language tag exactly as the file states it, or `nil`.
  public var languageTag: String?
  /// The track's title, or `nil`.
  public var title: String?
  /// FFmpeg's disposition names that apply (`"default"`, `"forced"`, `"hearing_impaired"`, …).
  public var dispositions: [String]
  /// What the track is for (see ``TrackKinds``).
  public var kind: SubtitleKind
  /// A readable label, unique within its file (see ``TrackLabeler``); `""` until labelled.
  public var label: String
  /// Whether the container marks the track usable: `false` for a Matroska track whose
  /// `FlagEnabled` is 0. A disabled track is listed with what the file states but is never the
  /// default choice (see ``TrackSelection``). Not encoded: a decoded track is enabled.
  var isEnabled = true

  /// The keys of the encoded fields (all but ``isEnabled``).
  enum CodingKeys: String, CodingKey {
    case index, codec, ffmpegCodec, codecTag, language, languageTag, title, dispositions, kind
    case label
  }

  /// Creates a track from its fields.
  public init(
    index: Int, codec: String = "", language: String? = nil, languageTag: String? = nil,
    title: String? = nil, dispositions: [String] = [], kind: SubtitleKind = .subtitles,
    label: String = "", ffmpegCodec: String? = nil, codecTag: String? = nil
  ) {
    self.index = index
    self.codec = codec
    self.ffmpegCodec = ffmpegCodec
    self.codecTag = codecTag
    self.language = language
    self.languageTag = languageTag
    self.title = title
    self.dispositions = dispositions
    self.kind = kind
    self.label = label
  }

  /// Whether the track carries only forced subtitles (foreign-language parts, signs).
  public var isForced: Bool { dispositions.contains("forced") }
  /// Whether the file flags this track as the default one.
  public var isDefault: Bool { dispositions.contains("default") }
}

/// The tracks of one media file (or manifest), with labels and the default choice.
public struct MediaInfo: Hashable, Sendable, Codable {
  /// The path as given.
  public var path: String
  /// FFmpeg's demuxer name (`"matroska,webm"`), or `"hls"` / `"dash"` for manifests: the
  /// container as the reader names it, not a subtitle syntax. Encoded under the key `format`,
  /// the command line's.
  public var demuxerName: String
  /// Duration in seconds, or `nil` when unknown.
  public var duration: Double?
  /// The container's overall bits per second, or `nil` when unknown.
  public var bitRate: Int?
  /// Audio tracks in stream order.
  public var audio: [AudioTrack]
  /// Subtitle tracks in stream order.
  public var subtitles: [SubtitleTrack]
  /// The `index` of the audio track to play by default (a stream index, not a position in
  /// `audio`: see ``defaultAudioTrack``), or `nil` when there is no audio.
  public var defaultAudio: Int?
  /// The `index` of the subtitle track to show by default (a stream index, not a position in
  /// `subtitles`: see ``defaultSubtitleTrack``), or `nil` for none.
  public var defaultSubtitle: Int?

  /// The audio track to play by default (the one whose `index` is ``defaultAudio``), or `nil`.
  public var defaultAudioTrack: AudioTrack? {
    defaultAudio.flatMap { chosen in audio.first { $0.index == chosen } }
  }

  /// The subtitle track to show by default (the one whose `index` is ``defaultSubtitle``), or
  /// `nil` for none.
  public var defaultSubtitleTrack: SubtitleTrack? {
    defaultSubtitle.flatMap { chosen in subtitles.first { $0.index == chosen } }
  }

  /// FFmpeg's demuxer name, or `"hls"` / `"dash"` for manifests.
  @available(*, deprecated, renamed: "demuxerName")
  public var format: String {
    get { demuxerName }
    set { demuxerName = newValue }
  }

  /// Creates a value from its fields.
  public init(
    path: String, demuxerName: String, duration: Double? = nil, bitRate: Int? = nil,
    audio: [AudioTrack] = [], subtitles: [SubtitleTrack] = [], defaultAudio: Int? = nil,
    defaultSubtitle: Int? = nil
  ) {
    self.path = path
    self.demuxerName = demuxerName
    self.duration = duration
    self.bitRate = bitRate
    self.audio = audio
    self.subtitles = subtitles
    self.defaultAudio = defaultAudio
    self.defaultSubtitle = defaultSubtitle
  }

  /// Creates a value from its fields; `format` is FFmpeg's demuxer name.
  @available(
    *, deprecated,
    renamed: "init(path:demuxerName:duration:bitRate:audio:subtitles:defaultAudio:defaultSubtitle:)"
  )
  public init(
    path: String, format: String, duration: Double? = nil, bitRate: Int? = nil,
    audio: [AudioTrack] = [], subtitles: [SubtitleTrack] = [], defaultAudio: Int? = nil,
    defaultSubtitle: Int? = nil
  ) {
    self.init(
      path: path, demuxerName: format, duration: duration, bitRate: bitRate, audio: audio,
      subtitles: subtitles, defaultAudio: defaultAudio, defaultSubtitle: defaultSubtitle)
  }

  private enum CodingKeys: String, CodingKey {
    case path
    case demuxerName = "format"
    case duration, bitRate, audio, subtitles, defaultAudio, defaultSubtitle
  }

  /// Fills in kinds, labels and the default choice from the raw track facts.
  ///
  /// - Parameters:
  ///   - preferences: The viewer's languages and options for the default choice.
  ///   - locale: The words labels are made of.
  ///   - classifyKinds: Whether to derive kinds from dispositions and titles
  ///     (``TrackKinds``); `false` keeps the kinds already set (as manifests state them).
  public mutating func finish(
    preferences: TrackPreferences = TrackPreferences(), locale: LabelLocale = .english,
    classifyKinds: Bool = true
  ) {
    if classifyKinds {
      TrackKinds.classify(&audio)
      TrackKinds.classify(&subtitles)
    }
    // A manifest's NAME or Label is written for the menu: it is the label's first choice.
    let labeler = TrackLabeler(
      locale: locale, authorTitlesFirst: demuxerName == "hls" || demuxerName == "dash")
    labeler.label(&audio)
    labeler.label(&subtitles)
    let chosen = TrackSelection.defaultAudio(in: audio, preferences: preferences)
    defaultAudio = chosen?.index
    defaultSubtitle =
      TrackSelection.defaultSubtitle(in: subtitles, audio: chosen, preferences: preferences)?.index
  }
}

extension AudioTrack {
  /// Decodes a track; `ffmpegCodec`, `codecTag`, `decodable` and `encrypted`, which older
  /// encodings lack, default to `nil`, `nil`, `true` and `false`.
  ///
  /// - Throws: `DecodingError` when a field present has the wrong type, or a field that every
  ///   encoding has is missing.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      index: try values.decode(Int.self, forKey: .index),
      codec: try values.decode(String.self, forKey: .codec),
      profile: try values.decodeIfPresent(String.self, forKey: .profile),
      sampleRate: try values.decode(Int.self, forKey: .sampleRate),
      channels: try values.decode(Int.self, forKey: .channels),
      channelLayout: try values.decode(String.self, forKey: .channelLayout),
      bitRate: try values.decodeIfPresent(Int.self, forKey: .bitRate),
      duration: try values.decodeIfPresent(Double.self, forKey: .duration),
      startTime: try values.decodeIfPresent(Double.self, forKey: .startTime),
      language: try values.decodeIfPresent(String.self, forKey: .language),
      languageTag: try values.decodeIfPresent(String.self, forKey: .languageTag),
      title: try values.decodeIfPresent(String.self, forKey: .title),
      dispositions: try values.decode([String].self, forKey: .dispositions),
      kind: try values.decode(AudioKind.self, forKey: .kind),
      label: try values.decode(String.self, forKey: .label),
      ffmpegCodec: try values.decodeIfPresent(String.self, forKey: .ffmpegCodec),
      codecTag: try values.decodeIfPresent(String.self, forKey: .codecTag),
      decodable: try values.decodeIfPresent(Bool.self, forKey: .decodable) ?? true,
      encrypted: try values.decodeIfPresent(Bool.self, forKey: .encrypted) ?? false)
  }
}
