#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maps HLS master playlists and DASH manifests onto the track model.
///
/// HLS (`#EXT-X-MEDIA`): `TYPE=AUDIO` renditions become audio tracks, `SUBTITLES` and
/// `CLOSED-CAPTIONS` renditions subtitle tracks; `index` is the rendition's position among the
/// `#EXT-X-MEDIA` tags. `NAME` is the title, `LANGUAGE` the language, `CHANNELS` the channel
/// count (`CHANNELS="16/JOC"`, Dolby Atmos objects, gives the layout name `Atmos`), and the codec comes from the `CODECS` of the first variant that uses the rendition's
/// group. Dispositions: `DEFAULT=YES` → `default`, `FORCED=YES` → `forced`,
/// `public.accessibility.describes-video` → `visual_impaired` (audio: ``AudioKind/mainDescriptions``,
/// subtitles: ``SubtitleKind/descriptions``), `public.accessibility.transcribes-spoken-dialog` and
/// `public.accessibility.describes-music-and-sound` → `hearing_impaired` and `captions`
/// (``SubtitleKind/captions``), and closed captions → `captions`.
///
/// DASH (`AdaptationSet` of the first `Period`): audio sets become audio tracks and text sets
/// subtitle tracks; `index` is the set's position in the period. `lang` is the language, the
/// `Label` the title, `AudioChannelConfiguration` the channel count (MPEG, CICP and Dolby
/// schemes), `audioSamplingRate` the sample rate and the highest `bandwidth` the bit rate.
/// `Role` values: `main` → `default` (DASH's closest thing to a default flag), `commentary` →
/// `comment`, `dub` → `dub`, `description` → `visual_impaired`, `caption` → `captions` and
/// `hearing_impaired`, `forced-subtitle` → `forced`, `karaoke` → `karaoke`, `alternate` → kind
/// ``AudioKind/alternative``. `Accessibility` with the TV-Anytime audio-purpose scheme (1 = for
/// the visually impaired, 2 = for the hard of hearing) or with DASH role values maps the same way.
///
/// Kinds then follow ``TrackKinds`` from these dispositions and titles.
public enum ManifestParser {
  /// Parses `path` as an HLS master playlist or a DASH manifest when it is one; returns `nil`
  /// for anything else (a media file, a URL).
  ///
  /// A file is recognised by its content, whatever its name: text starting with `#EXTM3U` is
  /// HLS, XML with an `MPD` element in its first 64 KiB is DASH (a byte-order mark allowed, and
  /// for XML leading whitespace). Otherwise its name decides: a file ending in `.m3u8` or `.mpd`
  /// (case-insensitive) is parsed as that kind, and fails as not being one.
  ///
  /// - Parameter timeout: For a named pipe, the longest one read may wait, in seconds (see
  ///   ``MediaProbe/defaultTimeout``, which `nil` means).
  /// - Throws: `MediaError` with kind `.notFound` when the file cannot be read and `.malformed`
  ///   when it is not a manifest of its kind.
  public static func parseIfManifest(path: String, timeout: Double? = nil) throws(MediaError)
    -> MediaInfo?
  {
    if FormatContext.url(path) != nil { return nil }
    let local = FormatContext.localPath(path)
    let lowered = path.lowercased()
    var kind: ManifestKind? =
      lowered.hasSuffix(".m3u8") ? .hls : lowered.hasSuffix(".mpd") ? .dash : nil
    var info = stat()
    if stat(local, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
      if let found = sniff(FileBytes.head(local)) { kind = found }
    }
    switch kind {
    case .hls?:
      let bytes = try FileBytes.read(local, deadline: try Deadline(timeout: timeout))
      return self.info(path: path, hls: try HLSPlaylist(bytes: bytes))
    case .dash?:
      let bytes = try FileBytes.read(local, deadline: try Deadline(timeout: timeout))
      return self.info(path: path, dash: try DASHManifest(bytes: bytes))
    case nil:
      return nil
    }
  }

  /// The kinds of manifest this parser reads.
  enum ManifestKind {
    case hls, dash
  }

  /// The manifest kind `head` (a file's first bytes) starts, or `nil`.
  static func sniff(_ head: ArraySlice<UInt8>) -> ManifestKind? {
    var bytes = head
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    // A playlist's first line is its signature (RFC 8216 section 4.3.1.1).
    if bytes.starts(with: "#EXTM3U".utf8) { return .hls }
    while let first = bytes.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D
    {
      bytes = bytes.dropFirst()
    }
    guard bytes.first == UInt8(ascii: "<") else { return nil }
    // An element named MPD, with or without a namespace prefix: `<MPD` or `:MPD`, then a space,
    // `>` or `/`.
    let name = Array("MPD".utf8)
    var index = bytes.startIndex
    while let found = bytes[index...].firstIndex(of: UInt8(ascii: "M")) {
      index = found + 1
      guard found > bytes.startIndex, found + 3 < bytes.endIndex,
        bytes[found..<(found + 3)].elementsEqual(name)
      else { continue }
      let before = bytes[found - 1]
      let after = bytes[found + 3]
      if before == UInt8(ascii: "<") || before == UInt8(ascii: ":"),
        after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D
          || after == UInt8(ascii: ">") || after == UInt8(ascii: "/")
      {
        return .dash
      }
    }
    return nil
  }

  /// The tracks of an HLS master playlist (kinds set; labels and defaults not yet).
  ///
  /// - Complexity: O(*r* + *v*) in the numbers of renditions and variants.
  public static func info(path: String, hls playlist: HLSPlaylist) -> MediaInfo {
    var audio: [AudioTrack] = []
    var subtitles: [SubtitleTrack] = []
    // The codecs of the first variant that uses each audio and subtitle group, found in one
    // pass over the variants (a search per rendition cost renditions × variants).
    var audioGroupCodecs: [String: [String]] = [:]
    var subtitleGroupCodecs: [String: [String]] = [:]
    for variant in playlist.variants {
      if let group = variant.audioGroup, audioGroupCodecs[group] == nil {
        audioGroupCodecs[group] = variant.codecs
      }
      if let group = variant.subtitleGroup, subtitleGroupCodecs[group] == nil {
        subtitleGroupCodecs[group] = variant.codecs
      }
    }
    for (position, rendition) in playlist.renditions.enumerated() {
      var dispositions: [String] = []
      if rendition.isDefault { dispositions.append("default") }
      if rendition.forced { dispositions.append("forced") }
      let characteristics = Set(rendition.characteristics.map { $0.trimmingSpaces })
      if characteristics.contains("public.accessibility.transcribes-spoken-dialog")
        || characteristics.contains("public.accessibility.describes-music-and-sound")
      {
        dispositions.append("hearing_impaired")
      }
      if characteristics.contains("public.accessibility.describes-video") {
        dispositions.append("visual_impaired")
      }
      let codecs =
        (rendition.type == "AUDIO"
          ? audioGroupCodecs[rendition.groupID] : subtitleGroupCodecs[rendition.groupID]) ?? []
      let language = LanguageTag.bcp47(rendition.language)
      let title = rendition.name.isEmpty ? nil : rendition.name
      switch rendition.type {
      case "AUDIO":
        let codec = codecs.lazy.compactMap(audioCodec).first
        let channels = rendition.channels.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        audio.append(
          AudioTrack(
            index: position, codec: codec?.name ?? "", profile: codec?.profile,
            channels: channels,
            channelLayout: rendition.channels?.contains("JOC") == true
              ? "Atmos" : ChannelLayout.defaultName(channels: channels),
            language: language, languageTag: rendition.language, title: title,
            dispositions: dispositions))
      case "SUBTITLES", "CLOSED-CAPTIONS":
        let closed = rendition.type == "CLOSED-CAPTIONS"
        if closed || dispositions.contains("hearing_impaired") {
          if !dispositions.contains("hearing_impaired") { dispositions.append("hearing_impaired") }
          dispositions.append("captions")
        }
        if dispositions.contains("visual_impaired") && !closed {
          dispositions.append("descriptions")
        }
        var codec = closed ? "eia_608" : "webvtt"
        if !closed, codecs.contains(where: { $0.hasPrefix("stpp") }) { codec = "ttml" }
        subtitles.append(
          SubtitleTrack(
            index: position, codec: codec, language: language, languageTag: rendition.language,
            title: title, dispositions: ordered(dispositions)))
      default:
        continue
      }
    }
    TrackKinds.classify(&audio)
    TrackKinds.classify(&subtitles)
    return MediaInfo(path: path, format: "hls", audio: audio, subtitles: subtitles)
  }

  /// The tracks of a DASH manifest (kinds set; labels and defaults not yet).
  public static func info(path: String, dash manifest: DASHManifest) -> MediaInfo {
    var audio: [AudioTrack] = []
    var subtitles: [SubtitleTrack] = []
    var alternates: Set<Int> = []
    for (position, set) in manifest.adaptationSets.enumerated() {
      var dispositions: [String] = []
      let roles = set.roles.map { $0.value }
      let accessibility = set.accessibility.map { descriptor -> String in
        if descriptor.scheme == "urn:tva:metadata:cs:AudioPurposeCS:2007" {
          return descriptor.value == "1" ? "description" : descriptor.value == "2" ? "caption" : ""
        }
        return descriptor.value
      }
      for value in roles + accessibility {
        switch value {
        case "main": dispositions.append("default")
        case "commentary": dispositions.append("comment")
        case "dub": dispositions.append("dub")
        case "description":
          dispositions.append("visual_impaired")
          if set.mediaType == "text" { dispositions.append("descriptions") }
        case "caption", "enhanced-audio-intelligibility":
          dispositions.append("hearing_impaired")
          if set.mediaType == "text" { dispositions.append("captions") }
        case "forced-subtitle", "forced_subtitle": dispositions.append("forced")
        case "karaoke": dispositions.append("karaoke")
        case "alternate": alternates.insert(position)
        default: break
        }
      }
      dispositions = ordered(dispositions)
      let language = LanguageTag.bcp47(set.language)
      switch set.mediaType {
      case "audio":
        let codec = set.codecs.flatMap { codecs in
          codecs.split(separator: ",").lazy.compactMap { audioCodec(String($0).trimmingSpaces) }
            .first
        }
        let channels = set.audioChannelConfiguration.lazy.compactMap(channelCount).first ?? 0
        audio.append(
          AudioTrack(
            index: position, codec: codec?.name ?? set.codecs ?? "", profile: codec?.profile,
            sampleRate: set.sampleRate ?? 0, channels: channels,
            channelLayout: ChannelLayout.defaultName(channels: channels), bitRate: set.bandwidth,
            duration: manifest.duration, language: language, languageTag: set.language,
            title: set.label, dispositions: dispositions))
      case "text":
        var codec = set.codecs ?? ""
        if codec.hasPrefix("wvtt") || set.mimeType == "text/vtt" {
          codec = "webvtt"
        } else if codec.hasPrefix("stpp") || set.mimeType == "application/ttml+xml" {
          codec = "ttml"
        }
        subtitles.append(
          SubtitleTrack(
            index: position, codec: codec, language: language, languageTag: set.language,
            title: set.label, dispositions: dispositions))
      default:
        continue
      }
    }
    // Sets with Role "alternate" never count as their language's main track.
    var others = audio.filter { !alternates.contains($0.index) }
    var alternateSets = audio.filter { alternates.contains($0.index) }
    TrackKinds.classify(&others)
    TrackKinds.classify(&alternateSets)
    for position in alternateSets.indices where alternateSets[position].kind == .main {
      alternateSets[position].kind = .alternative
    }
    audio = (others + alternateSets).sorted { $0.index < $1.index }
    TrackKinds.classify(&subtitles)
    return MediaInfo(
      path: path, format: "dash", duration: manifest.duration, audio: audio,
      subtitles: subtitles)
  }

  /// Dispositions in FFmpeg's order, without repeats.
  private static func ordered(_ names: [String]) -> [String] {
    let order = [
      "default", "dub", "original", "comment", "lyrics", "karaoke", "forced", "hearing_impaired",
      "visual_impaired", "clean_effects", "attached_pic", "timed_thumbnails", "non_diegetic",
      "captions", "descriptions", "metadata", "dependent", "still_image",
    ]
    let present = Set(names)
    return order.filter { present.contains($0) }
  }

  /// FFmpeg's codec name (and profile) for an RFC 6381 audio codec string; `nil` for non-audio.
  static func audioCodec(_ text: String) -> (name: String, profile: String?)? {
    let lowered = text.lowercased()
    if lowered.hasPrefix("mp4a.40.") {
      switch lowered.dropFirst(8) {
      case "2": return ("aac", "LC")
      case "5": return ("aac", "HE-AAC")
      case "29": return ("aac", "HE-AACv2")
      case "34": return ("mp3", nil)
      default: return ("aac", nil)
      }
    }
    if lowered == "mp4a.6b" || lowered == "mp4a.69" || lowered == "mp3" { return ("mp3", nil) }
    if lowered.hasPrefix("mp4a") { return ("aac", nil) }
    switch lowered {
    case "ac-3": return ("ac3", nil)
    case "ec-3": return ("eac3", nil)
    case "opus": return ("opus", nil)
    case "flac": return ("flac", nil)
    case "vorbis": return ("vorbis", nil)
    case "dtsc", "dtsh", "dtse", "dtsx": return ("dts", nil)
    case _ where lowered.hasPrefix("ac-4"): return ("ac4", nil)
    case "alac": return ("alac", nil)
    default: return nil
    }
  }

  /// The channel count an `AudioChannelConfiguration` states, or `nil`.
  static func channelCount(_ descriptor: DASHManifest.Descriptor) -> Int? {
    switch descriptor.scheme {
    case "urn:mpeg:dash:23003:3:audio_channel_configuration:2011":
      return Int(descriptor.value).flatMap { $0 > 0 ? $0 : nil }
    case "urn:mpeg:mpegB:cicp:ChannelConfiguration":
      // ISO/IEC 23091-3 ChannelConfiguration index → channel count.
      let counts = [
        1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 8, 9: 3, 10: 4, 11: 7, 12: 8, 13: 24, 14: 8, 15: 12,
        16: 10, 17: 12, 18: 14, 19: 12, 20: 14,
      ]
      return Int(descriptor.value).flatMap { counts[$0] }
    case "tag:dolby.com,2014:dash:audio_channel_configuration:2011",
      "urn:dolby:dash:audio_channel_configuration:2011":
      // A 16-bit speaker mask, most significant bit first; some bits stand for speaker pairs.
      guard let mask = UInt16(descriptor.value, radix: 16), mask != 0 else { return nil }
      let pairs: Set<Int> = [5, 6, 9, 10, 11, 13]
      var count = 0
      for bit in 0..<16 where mask & (0x8000 >> UInt16(bit)) != 0 {
        count += pairs.contains(bit) ? 2 : 1
      }
      return count
    default:
      return Int(descriptor.value).flatMap { (1...64).contains($0) ? $0 : nil }
    }
  }
}
