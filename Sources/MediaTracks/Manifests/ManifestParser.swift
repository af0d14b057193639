#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maps HLS playlists and DASH manifests onto the track model.
///
/// HLS multivariant playlists (`#EXT-X-MEDIA`): `TYPE=AUDIO` renditions become audio tracks,
/// `SUBTITLES` and `CLOSED-CAPTIONS` renditions subtitle tracks. Renditions of one `TYPE`,
/// `NAME` and `LANGUAGE` (and the same `FORCED` and `CHARACTERISTICS`) are one track whatever
/// their groups (see ``HLSPlaylist/renditionTracks()``); `index` is the position of its first
/// rendition among the `#EXT-X-MEDIA` tags. `NAME` is the title (and, through
/// ``TrackLabeler/authorTitlesFirst``, the label), `LANGUAGE` the language, `CHANNELS` the
/// channel count (`CHANNELS="16/JOC"`, Dolby Atmos objects, gives the layout name `Atmos` and
/// the 6 channels of the 5.1 bed the decoder gives),
/// `SAMPLE-RATE` the sample rate, and the codec comes from the `CODECS` of the first variant
/// that uses the track's first rendition's group (or a group of the same encoding); renditions
/// of the track in groups of another codec or `CHANNELS` are its ``AudioTrack/alternatives``. Dispositions: `DEFAULT=YES` → `default`, `FORCED=YES` →
/// `forced`, `public.accessibility.describes-video` → `visual_impaired` (audio:
/// ``AudioKind/mainDescriptions``, subtitles: ``SubtitleKind/descriptions``),
/// `public.accessibility.transcribes-spoken-dialog` and
/// `public.accessibility.describes-music-and-sound` → `hearing_impaired` and `captions`
/// (``SubtitleKind/captions``), and closed captions → `captions` (codec `eia_608` for
/// `INSTREAM-ID="CC1"`…`"CC4"`, `eia_708` for `"SERVICE1"`…). Closed captions are listed
/// only when some variant names their group, once any variant has a `CLOSED-CAPTIONS`
/// attribute (`CLOSED-CAPTIONS=NONE` on every variant: none). A `SUBTITLES` rendition without
/// the `URI` the specification requires is not listed.
///
/// Audio muxed into the variants: when the playlist has no `TYPE=AUDIO` rendition and a
/// variant's `CODECS` names an audio codec (`mp4a`, `ac-3`, `ec-3`, `opus`, `fLaC`, …), that
/// audio is one track, whose `index` is the number of `#EXT-X-MEDIA` tags (it follows them); its
/// bit rate is the highest `BANDWIDTH` when the variants hold audio only.
///
/// DASH (`AdaptationSet` of every `Period`): audio sets become audio tracks and text sets
/// subtitle tracks; `index` is the set's position among the adaptation sets of all periods, in
/// document order (video sets included). Sets of one period linked by an
/// `adaptation-set-switching` property are one track, and a set in a later period that matches
/// an earlier period's track (same content type, language, label, roles, accessibility and codec
/// family) continues that track. `lang` is the language, the `Label` the title,
/// `AudioChannelConfiguration` the channel count (MPEG, CICP, Dolby E-AC-3 and AC-4, and DTS
/// schemes; none from a scheme it does not know),
/// `audioSamplingRate` the sample rate and the highest `bandwidth` the bit rate. `Role` values:
/// `main` → `default` (DASH's closest thing to a default flag), `commentary` → `comment`
/// (``AudioKind/commentary``), `dub` → `dub` (``AudioKind/translation``), `description` →
/// `visual_impaired` (audio: ``AudioKind/mainDescriptions``, or ``AudioKind/descriptions`` with
/// `supplementary`; text: ``SubtitleKind/descriptions``), `caption` and
/// `enhanced-audio-intelligibility` → `hearing_impaired` (text: ``SubtitleKind/captions``),
/// `subtitle` and `easyreader` → ``SubtitleKind/subtitles``, `forced-subtitle` → `forced`,
/// `karaoke` → `karaoke`, `metadata` → ``SubtitleKind/metadata``, and `alternate`,
/// `supplementary`, `emergency` → audio kind ``AudioKind/alternative``. `Accessibility` with
/// the TV-Anytime audio-purpose scheme (1 = for the visually impaired, 2 = for the hard of
/// hearing) or with DASH role values maps the same way. `Accessibility` descriptors with the
/// schemes `urn:scte:dash:cc:cea-608:2015` (`CC1=eng;CC3=spa`) and
/// `urn:scte:dash:cc:cea-708:2015` (`1=lang:eng;2=lang:spa`) declare closed captions carried in
/// the video: each channel or service is a subtitle track of kind ``SubtitleKind/captions``
/// (codec `eia_608` or `eia_708`), whose `index` follows every adaptation set's.
///
/// Kinds then follow ``TrackKinds`` from these dispositions and titles.
///
/// Local media a manifest names: ``parseIfManifest(path:timeout:)`` reads an HLS media
/// playlist's first segment (its `#EXT-X-MAP` initialization section when it has one) to list
/// the tracks it holds, and the first segment of a rendition or variant to fill in the codec,
/// channels, sample rate and bit rate a multivariant playlist does not state. Only a relative
/// reference to a file inside the folder of the manifest given (after links are resolved) is
/// read, with this module's reader under the timeout, like any media input; a URL, an absolute
/// path or a path leading out of that folder is never opened, and at most
/// ``maximumSegmentReads`` files are read per manifest.
public enum ManifestParser {
  /// The most media playlists and segments read to fill in one manifest's facts.
  public static let maximumSegmentReads = 16

  /// Parses `path` as an HLS playlist or a DASH manifest when it is one; returns `nil` for
  /// anything else (a media file, a URL).
  ///
  /// A file is recognised by its content, whatever its name: text starting with `#EXTM3U` is
  /// HLS, XML with an `MPD` element in its first 64 KiB is DASH (a byte-order mark allowed, and
  /// for XML leading whitespace). Otherwise its name decides: a file ending in `.m3u8` or `.mpd`
  /// (case-insensitive) is parsed as that kind, and fails as not being one.
  ///
  /// An HLS media playlist (segments only) lists the tracks of its first segment (see the type's
  /// documentation for which files are read); its duration is the sum of its segments' when it
  /// ends with `#EXT-X-ENDLIST`.
  ///
  /// An `http:` or `https:` URL is fetched (see ``RemoteAccess``): its first 64 KiB decide as a
  /// file's content does (a URL whose path ends in a media extension such as `.mp4` is taken
  /// for media without a request), and what it names resolves against its URL, to http(s)
  /// URLs only.
  ///
  /// - Parameters:
  ///   - timeout: For a named pipe, the longest one read may wait, in seconds (see
  ///     ``MediaProbe/defaultTimeout``, which `nil` means); for a segment read, the longest one
  ///     reading call may take; for a remote manifest, the longest its transfer may take.
  ///   - remote: How remote manifests and what they name are requested.
  /// - Throws: `MediaError` with kind `.notFound` when the file cannot be read (for a URL: a 4xx
  ///   answer, an unreachable server) or is a media playlist whose first segment, a relative
  ///   path, names no file, and `.malformed` when it is not a manifest of its kind, or
  ///   is a media playlist whose first segment is not a local file in its folder (for a remote
  ///   playlist, an http(s) URL), cannot be read, or is encrypted as a whole (`AES-128`); for a
  ///   URL, also what ``RemoteFile/fetch(_:access:timeout:limit:)`` throws.
  public static func parseIfManifest(
    path: String, timeout: Double? = nil, remote: RemoteAccess = RemoteAccess()
  ) throws(MediaError) -> MediaInfo? {
    if RemoteURL.isRemote(path) {
      return try remoteManifest(url: path, timeout: timeout, access: remote)
    }
    if InputPath.url(path) != nil { return nil }
    let local = InputPath.localPath(path)
    // A regular file is recognised by its content; a pipe (not read ahead), a file that cannot
    // be opened and content that says nothing, by the name.
    let file = try? FileBytes(path: local)
    guard
      let kind = file.flatMap({ sniff($0.signatureHead()) }) ?? InputSignature.manifest(named: path)
    else { return nil }
    let deadline = try Deadline(timeout: timeout)
    let bytes: [UInt8]
    if let file {
      bytes = try manifestBytes(file)
    } else {
      bytes = try manifestBytes(
        MemoryBytes(reading: local, deadline: deadline, limit: manifestLimit))
    }
    var reader = SegmentReader(manifest: local, timeout: timeout)
    return try parsed(kind, bytes: bytes, path: path, reader: &reader)
  }

  /// The tracks of the manifest `bytes` of `kind`, named `path`, with what `reader` may read
  /// of the files it names.
  private static func parsed(
    _ kind: ManifestKind, bytes: [UInt8], path: String, reader: inout SegmentReader
  ) throws(MediaError) -> MediaInfo {
    switch kind {
    case .hls:
      let playlist = try HLSPlaylist(bytes: bytes)
      if playlist.isMediaPlaylist {
        return try mediaPlaylistInfo(path: path, playlist: playlist, reader: &reader)
      }
      var result = self.info(path: path, hls: playlist)
      if !fillFromSegments(&result, playlist: playlist, reader: &reader) {
        // Listing no audio would say the stream has none, which nothing here knows.
        throw MediaError(
          kind: .notFound, operation: "HLSPlaylist",
          detail: "'\(path)' names no audio renditions and no CODECS, and the first segments "
            + "of its variants cannot be read, so which audio it carries is unknown")
      }
      return result
    case .dash:
      let manifest = try DASHManifest(bytes: bytes)
      var result = self.info(path: path, dash: manifest)
      fillFromInitialization(&result, manifest: manifest, reader: &reader)
      return result
    }
  }

  /// The manifest at the http(s) `url`, parsed, or `nil` when it is media.
  private static func remoteManifest(url: String, timeout: Double?, access: RemoteAccess)
    throws(MediaError) -> MediaInfo?
  {
    var name = Substring(url)
    if let cut = name.firstIndex(where: { $0 == "?" || $0 == "#" }) { name = name[..<cut] }
    let named = InputSignature.manifest(named: String(name))
    if named == nil, InputSignature.demuxer(named: String(name)) != nil { return nil }
    let deadline = try Deadline(timeout: timeout)
    let headLength = 1 << 16
    let head = try RemoteFetch.fetch(
      url, access: access, deadline: deadline, limit: headLength, prefixOnly: true)
    guard let kind = sniff(head[...]) ?? named else { return nil }
    let bytes =
      head.count < headLength
      ? head
      : try RemoteFetch.fetch(url, access: access, deadline: deadline, limit: manifestLimit)
    var reader = SegmentReader(manifest: url, timeout: timeout, remote: access)
    return try parsed(kind, bytes: bytes, path: url, reader: &reader)
  }

  /// Fills in the codec, channels, sample rate and bit rate a DASH manifest does not state
  /// for an audio track from its adaptation set's initialization segment (see
  /// ``DASHManifest/AdaptationSet/initialization``), read as ``SegmentReader`` may.
  static func fillFromInitialization(
    _ info: inout MediaInfo, manifest: DASHManifest, reader: inout SegmentReader
  ) {
    for position in info.audio.indices {
      let track = info.audio[position]
      guard track.codec.isEmpty || track.channels == 0 || track.sampleRate == 0,
        manifest.adaptationSets.indices.contains(track.index),
        let uri = manifest.adaptationSets[track.index].initialization,
        let audio = reader.mediaTracks(uri)?.audio, var found = audio.first
      else { continue }
      // The segment is the first representation's: where the representations state different
      // counts or rates, its own is not the set's.
      let set = manifest.adaptationSets[track.index]
      if set.channelCountsDiffer { found.channels = 0 }
      if set.sampleRatesDiffer { found.sampleRate = 0 }
      info.audio[position].fill(from: found, alone: audio.count == 1)
    }
  }

  /// The largest manifest accepted, in bytes.
  static let manifestLimit = 16 << 20

  /// The whole manifest `source` holds.
  /// - Throws: `.malformed` when it exceeds ``manifestLimit``, `.notFound` when it cannot be
  ///   read.
  static func manifestBytes(_ source: some ByteSource) throws(MediaError) -> [UInt8] {
    guard source.size <= manifestLimit else { throw .tooLargeForManifest(source.name) }
    do {
      return try source.contents()
    } catch {
      // As the sequential reader reports it: no FFmpeg code.
      throw MediaError(kind: error.kind, operation: error.operation, detail: error.detail)
    }
  }

  /// The kinds of manifest this parser reads.
  enum ManifestKind {
    case hls, dash
  }

  /// The manifest kind `head` (a file's first bytes) starts, or `nil` (see
  /// ``InputSignature/manifest(_:)``).
  static func sniff(_ head: ArraySlice<UInt8>) -> ManifestKind? {
    InputSignature.manifest(head)
  }

  /// The tracks an HLS multivariant playlist declares (kinds set; labels and defaults not yet).
  /// Reads no file: ``parseIfManifest(path:timeout:)`` adds what local segments say. A media
  /// playlist gives no track here.
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
    // RFC 8216 section 4.3.4.2: `CLOSED-CAPTIONS=NONE` on the variants says that none carries
    // captions; once any variant states the attribute, only the groups it names are carried.
    let captionGroups = Set(playlist.variants.compactMap { $0.attributes["CLOSED-CAPTIONS"] })
    // Likewise for audio and subtitles: once any variant names a group of the type, a rendition
    // in no group a variant names is played by none (a player lists the groups of the variant
    // it plays).
    let namedGroups = [
      "AUDIO": Set(audioGroupCodecs.keys), "SUBTITLES": Set(subtitleGroupCodecs.keys),
      "CLOSED-CAPTIONS": captionGroups,
    ]
    var hasAudioRenditions = false
    for track in playlist.renditionTracks() {
      let members = track.renditions.map { playlist.renditions[$0] }
      let rendition = members[0]
      if let named = namedGroups[rendition.type], !named.isEmpty,
        !members.contains(where: { named.contains($0.groupID) })
      {
        continue
      }
      // Section 4.3.4.2.1: a SUBTITLES rendition's URI is required; without one there is no
      // text to read (subtitles are never muxed into the variants' segments).
      if rendition.type == "SUBTITLES", members.allSatisfy({ $0.uri == nil }) { continue }
      // A CLOSED-CAPTIONS rendition names its channel in INSTREAM-ID, which must be CC1 to CC4
      // or SERVICE1 to SERVICE63: any other carries nothing a decoder can find.
      if rendition.type == "CLOSED-CAPTIONS",
        !members.contains(where: { isCaptionChannel($0.instreamID) })
      {
        continue
      }
      let position = track.renditions[0]
      var dispositions: [String] = []
      if members.contains(where: \.isDefault) { dispositions.append("default") }
      if rendition.forced { dispositions.append("forced") }
      let characteristics = Set(rendition.characteristics.map { $0.trimmingSpaces })
      // Subtitles for the deaf and hard of hearing describe music and sound (Apple's HLS
      // authoring specification pairs it with `transcribes-spoken-dialog`); transcribing the
      // dialog alone is what every subtitle track does.
      if characteristics.contains("public.accessibility.describes-music-and-sound") {
        dispositions.append("hearing_impaired")
      }
      if characteristics.contains("public.accessibility.describes-video") {
        dispositions.append("visual_impaired")
      }
      let language = LanguageTag.bcp47(rendition.language)
      let title = rendition.name.isEmpty ? nil : rendition.name
      switch rendition.type {
      case "AUDIO":
        hasAudioRenditions = true
        // The track is its first encoding; the others are its alternatives.
        let encodings = audioEncodings(members, groupCodecs: audioGroupCodecs)
        let own = encodings.first ?? AudioEncoding(codec: "")
        audio.append(
          AudioTrack(
            index: position, codec: own.codec, profile: own.profile,
            sampleRate: members.lazy.compactMap(\.sampleRate).first ?? 0, channels: own.channels,
            channelLayout: own.channelLayout, language: language, languageTag: rendition.language,
            title: title, dispositions: dispositions,
            // Playable when any of its encodings is (a player picks that group).
            decodable: encodings.isEmpty
              || encodings.contains { decodes($0.codec, profile: $0.profile) },
            alternatives: Array(encodings.dropFirst())))
      case "SUBTITLES", "CLOSED-CAPTIONS":
        let closed = rendition.type == "CLOSED-CAPTIONS"
        if closed || dispositions.contains("hearing_impaired") {
          if !dispositions.contains("hearing_impaired") { dispositions.append("hearing_impaired") }
          dispositions.append("captions")
        }
        if dispositions.contains("visual_impaired") && !closed {
          dispositions.append("descriptions")
        }
        var codec = "webvtt"
        if closed {
          codec =
            rendition.instreamID?.uppercased().hasPrefix("SERVICE") == true ? "eia_708" : "eia_608"
        } else if members.contains(where: { member in
          subtitleGroupCodecs[member.groupID]?.contains { $0.lowercased().hasPrefix("stpp") }
            == true
        }) {
          codec = "ttml"
        }
        subtitles.append(
          SubtitleTrack(
            index: position, codec: codec, language: language, languageTag: rendition.language,
            title: title, dispositions: ordered(dispositions)))
      default:
        continue
      }
    }
    if !hasAudioRenditions, let muxed = muxedAudio(playlist) { audio.append(muxed) }
    // Keys declared for the whole presentation (`#EXT-X-SESSION-KEY`): its audio is encrypted;
    // sample encryption (`SAMPLE-AES`, a DRM system's) needs keys mtool has not, where whole
    // segments in AES-128 are decrypted with a key the playlist points to.
    if !playlist.sessionKeyMethods.isEmpty {
      let sampleEncrypted = playlist.sessionKeyMethods.contains { $0 != "AES-128" }
      for position in audio.indices {
        audio[position].encrypted = true
        if sampleEncrypted { audio[position].decodable = false }
      }
    }
    TrackKinds.classify(&audio)
    TrackKinds.classify(&subtitles)
    return MediaInfo(path: path, demuxerName: "hls", audio: audio, subtitles: subtitles)
  }

  /// The audio muxed into the variants, as one track: from the `CODECS` of the first variant
  /// that names an audio codec; `nil` when none does.
  private static func muxedAudio(_ playlist: HLSPlaylist) -> AudioTrack? {
    var codec: (name: String, profile: String?)? = nil
    var audioOnly = true
    var bandwidth: Int? = nil
    for variant in playlist.variants {
      let found = variant.codecs.compactMap(audioCodec)
      guard !found.isEmpty else {
        if !variant.codecs.isEmpty { audioOnly = false }
        continue
      }
      if codec == nil { codec = found[0] }
      if found.count < variant.codecs.count { audioOnly = false }
      if let value = variant.bandwidth { bandwidth = max(bandwidth ?? 0, value) }
    }
    guard let codec else { return nil }
    return AudioTrack(
      index: playlist.renditions.count, codec: codec.name, profile: codec.profile,
      bitRate: audioOnly ? bandwidth : nil,
      decodable: decodes(codec.name, profile: codec.profile))
  }

  /// The tracks of an HLS media playlist: those of its first segment.
  private static func mediaPlaylistInfo(
    path: String, playlist: HLSPlaylist, reader: inout SegmentReader
  ) throws(MediaError) -> MediaInfo {
    guard let segment = playlist.segments.first else {
      // Nothing to read tracks from: a complete playlist has no media, a live one none yet.
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist",
        detail: playlist.hasEndList
          ? "'\(path)' is a complete HLS media playlist (#EXT-X-ENDLIST) that lists no "
            + "segment: it has no media, so no tracks"
          : "'\(path)' is a live HLS media playlist that lists no segment yet: no tracks "
            + "until one is added")
    }
    var (audio, subtitles) = try reader.tracks(
      of: segment, playlist: reader.manifest, name: path)
    let duration = playlist.hasEndList ? playlist.segmentsDuration : nil
    for position in audio.indices { audio[position].duration = duration }
    TrackKinds.classify(&audio)
    TrackKinds.classify(&subtitles)
    return MediaInfo(
      path: path, demuxerName: "hls", duration: duration, audio: audio, subtitles: subtitles)
  }

  /// Fills in the facts a multivariant playlist leaves out from the first segment of local
  /// renditions and variants: the codec, channels, sample rate and bit rate of audio tracks
  /// that lack one, and the audio tracks muxed into variants that name no codecs.
  /// - Returns: false when the audio of the variants is unknown: no audio rendition, no variant
  ///   states its CODECS, and no variant's first segment could be read.
  private static func fillFromSegments(
    _ info: inout MediaInfo, playlist: HLSPlaylist, reader: inout SegmentReader
  ) -> Bool {
    guard !playlist.renditions.isEmpty || !playlist.variants.isEmpty else { return true }
    // The first variant of each audio group (for renditions muxed into their variants).
    var groupVariant: [String: String] = [:]
    for variant in playlist.variants {
      if let group = variant.audioGroup, groupVariant[group] == nil {
        groupVariant[group] = variant.uri
      }
    }
    let tracks = playlist.renditionTracks()
    var members: [Int: [Int]] = [:]
    for track in tracks { members[track.renditions[0]] = track.renditions }
    // A remote manifest's playlists are read at once (their round trips overlap): each track's
    // first rendition that names one, or the variants when no rendition carries the audio.
    let hasAudioRenditions = playlist.renditions.contains { $0.type == "AUDIO" }
    var wanted: [String] = info.audio.compactMap { track in
      guard track.codec.isEmpty || track.channels == 0 || track.sampleRate == 0,
        let first = members[track.index]?.first.map({ playlist.renditions[$0] })
      else { return nil }
      return first.uri ?? groupVariant[first.groupID]
    }
    if !hasAudioRenditions { wanted += playlist.variants.prefix(4).map(\.uri) }
    reader.prefetch(playlists: wanted)
    for position in info.audio.indices {
      let track = info.audio[position]
      guard track.codec.isEmpty || track.channels == 0 || track.sampleRate == 0,
        let renditions = members[track.index]
      else { continue }
      for rendition in renditions.map({ playlist.renditions[$0] }) {
        guard let uri = rendition.uri ?? groupVariant[rendition.groupID],
          let audio = reader.firstSegmentTracks(ofPlaylist: uri)?.audio, let found = audio.first
        else { continue }
        info.audio[position].fill(from: found, alone: audio.count == 1)
        break
      }
    }
    // Subtitles whose format no variant's CODECS states (`wvtt` or `stpp`): WebVTT was a guess,
    // and a packager's TTML in fragmented MP4 was listed as WebVTT. The rendition's first
    // segment (its initialization section, when it has one) says.
    var subtitleCodecs: [String: Bool] = [:]
    for variant in playlist.variants {
      guard let group = variant.subtitleGroup else { continue }
      let stated = variant.codecs.contains {
        let codec = $0.lowercased()
        return codec.hasPrefix("wvtt") || codec.hasPrefix("stpp")
      }
      subtitleCodecs[group] = (subtitleCodecs[group] ?? false) || stated
    }
    for position in info.subtitles.indices where info.subtitles[position].codec == "webvtt" {
      guard let renditions = members[info.subtitles[position].index],
        let rendition = renditions.first.map({ playlist.renditions[$0] }),
        subtitleCodecs[rendition.groupID] != true, let uri = rendition.uri,
        let found = reader.firstSegmentTracks(ofPlaylist: uri)?.subtitles.first,
        ["webvtt", "ttml"].contains(found.codec)
      else { continue }
      info.subtitles[position].codec = found.codec
    }
    // Audio muxed into variants whose CODECS say nothing (or not everything): the first local
    // variant's first segment lists it.
    guard !hasAudioRenditions else { return true }
    var known = playlist.variants.isEmpty || playlist.variants.contains { !$0.codecs.isEmpty }
    for variant in playlist.variants.prefix(4) {
      guard let found = reader.firstSegmentTracks(ofPlaylist: variant.uri) else { continue }
      known = true
      if !found.audio.isEmpty {
        let declared = info.audio.last { $0.index >= playlist.renditions.count }
        info.audio.removeAll { $0.index >= playlist.renditions.count }
        for (offset, var track) in found.audio.enumerated() {
          track.index = playlist.renditions.count + offset
          track.duration = nil
          track.startTime = nil
          if track.bitRate == nil { track.bitRate = declared?.bitRate }
          info.audio.append(track)
        }
        TrackKinds.classify(&info.audio)
      }
      break
    }
    return known
  }

  /// Whether this FFmpeg (5.1) decodes the audio a manifest's codecs string declares, as a
  /// probe of the media would say (``AudioTrack/decodable``): not AC-4, MPEG-H 3D Audio, DTS:X
  /// (DTS-UHD), xHE-AAC (USAC), nor a codec this reader does not know; `true` when the manifest
  /// states none (nothing says otherwise).
  static func declaredDecodable(_ codecs: String?) -> Bool {
    let list = (codecs ?? "").split(separator: ",").map { String($0).trimmingSpaces }
      .filter { !$0.isEmpty }
    guard !list.isEmpty else { return true }
    guard let codec = list.lazy.compactMap(audioCodec).first else { return false }
    return decodes(codec.name, profile: codec.profile)
  }

  /// Whether this FFmpeg (5.1) decodes a codec ``audioCodec(_:)`` names (see
  /// ``declaredDecodable(_:)``); `true` for an empty name (unknown).
  static func decodes(_ name: String, profile: String?) -> Bool {
    !["ac4", "mpegh_3d_audio", "dts_uhd"].contains(name) && profile != "xHE-AAC"
  }

  /// Whether `id` is an `INSTREAM-ID` a closed-captions rendition may have: `CC1` to `CC4`, or
  /// `SERVICE1` to `SERVICE63` (RFC 8216bis section 4.4.6.1).
  static func isCaptionChannel(_ id: String?) -> Bool {
    let id = (id ?? "").trimmingSpaces.uppercased()
    if id.hasPrefix("CC"), let number = Int(id.dropFirst(2)) { return (1...4).contains(number) }
    if id.hasPrefix("SERVICE"), let number = Int(id.dropFirst(7)) {
      return (1...63).contains(number)
    }
    return false
  }

  /// Dispositions in FFmpeg's order, without repeats.
  static func ordered(_ names: [String]) -> [String] {
    let order = [
      "default", "dub", "original", "comment", "lyrics", "karaoke", "forced", "hearing_impaired",
      "visual_impaired", "clean_effects", "attached_pic", "timed_thumbnails", "non_diegetic",
      "captions", "descriptions", "metadata", "dependent", "still_image",
    ]
    let present = Set(names)
    return order.filter { present.contains($0) }
  }

  /// The distinct encodings of one audio track's renditions (codec of their group's first
  /// variant, `CHANNELS`), in the order the renditions come; the first is the track's own. A
  /// rendition that leaves the codec or the channel count out joins the first encoding when
  /// what it states agrees with it, and fills in what that encoding lacks.
  ///
  /// - Complexity: O(*r*) in the number of renditions (expected: hashed lookups only).
  static func audioEncodings(
    _ members: [HLSPlaylist.Rendition], groupCodecs: [String: [String]]
  ) -> [AudioEncoding] {
    var encodings: [AudioEncoding] = []
    var groupSets: [Set<String>] = []
    var byKey: [AudioEncoding.Identity: Int] = [:]
    for member in members {
      // A group whose variant lists several audio codecs (Shaka Packager puts AAC and AC-3
      // renditions in one group: CODECS="avc1.64000b,ac-3,mp4a.40.2") does not say which
      // rendition is which: the codec is left unknown, to the rendition's media.
      let listed = groupCodecs[member.groupID]?.compactMap(audioCodec) ?? []
      let distinct = Set(listed.map { $0.name + "/" + ($0.profile ?? "") })
      let codec = distinct.count == 1 ? listed.first : nil
      // `CHANNELS="16/JOC"` (Dolby Atmos in E-AC-3) counts objects; the decoder gives the
      // 5.1 bed the stream carries, 6 channels, as a DASH manifest states it (`F801`).
      let atmos = member.channels?.contains("JOC") == true
      let count =
        member.channels.flatMap { Int($0.prefix { $0.isNumber }) }.flatMap { $0 > 0 ? $0 : nil }
        ?? 0
      let channels = atmos && count > 0 ? 6 : count
      let layout =
        channels == 0 ? "" : atmos ? "Atmos" : ChannelLayout.defaultName(channels: channels)
      let stated = AudioEncoding(
        codec: codec?.name ?? "", profile: codec?.profile, channels: channels,
        channelLayout: layout, groups: [member.groupID])
      var same = byKey[stated.identity]
      // Something left out, here or in the first encoding: the first, if the rest agrees.
      if same == nil, let own = encodings.first,
        stated.codec.isEmpty || own.codec.isEmpty || own.codec == stated.codec,
        channels == 0 || own.channels == 0
          || (own.channels == channels && own.channelLayout == layout)
      {
        same = 0
      }
      guard let same else {
        byKey[stated.identity] = encodings.count
        encodings.append(stated)
        groupSets.append([member.groupID])
        continue
      }
      if groupSets[same].insert(member.groupID).inserted {
        encodings[same].groups.append(member.groupID)
      }
      if encodings[same].codec.isEmpty && !stated.codec.isEmpty {
        encodings[same].codec = stated.codec
        encodings[same].profile = stated.profile
      }
      if encodings[same].channels == 0 && channels > 0 {
        encodings[same].channels = channels
        encodings[same].channelLayout = layout
      }
      // What was filled in is looked up under its new key too.
      let filled = encodings[same].identity
      if byKey[filled] == nil { byKey[filled] = same }
    }
    return encodings
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
      // USAC, which FFmpeg 5.1 does not decode (see ``markDecodable(_:)``).
      case "42": return ("aac", "xHE-AAC")
      default: return ("aac", nil)
      }
    }
    // MP4 object types (MP4RA): MPEG-1/2 audio, and AC-3 and E-AC-3 as `mp4a.a5`, `mp4a.a6`.
    switch lowered {
    case "mp4a.6b", "mp4a.69", "mp3": return ("mp3", nil)
    case "mp4a.a5": return ("ac3", nil)
    case "mp4a.a6": return ("eac3", nil)
    default: break
    }
    if lowered.hasPrefix("mp4a") { return ("aac", nil) }
    switch lowered {
    case "ac-3": return ("ac3", nil)
    case "ec-3": return ("eac3", nil)
    case "opus": return ("opus", nil)
    case "flac": return ("flac", nil)
    case "vorbis": return ("vorbis", nil)
    case "dtsc", "dtsh", "dtse": return ("dts", nil)
    // DTS:X (DTS-UHD), FFmpeg's `dts_uhd` in the names this module gives.
    case "dtsx", "dtsy": return ("dts_uhd", nil)
    // MPEG-H 3D Audio, with or without its profile-level suffix (`mhm1.0x0D`).
    case _ where ["mhm1", "mhm2", "mha1", "mha2"].contains(lowered.prefix(4)):
      return ("mpegh_3d_audio", nil)
    case _ where lowered.hasPrefix("ac-4"): return ("ac4", nil)
    case "alac": return ("alac", nil)
    default: return nil
    }
  }
}

extension AudioTrack {
  /// Takes the facts this track lacks (codec, channels, sample rate, bit rate) from `other`,
  /// the same audio as found in a segment. With `alone` (the segment holds this one audio
  /// track), where it holds another codec than the manifest names (a `CODECS` of `mp4a` over
  /// MP3 segments), the segment's codec, profile and bit rate too.
  mutating func fill(from other: AudioTrack, alone: Bool) {
    if codec.isEmpty {
      codec = other.codec
      profile = other.profile
    } else if alone, !other.codec.isEmpty, other.codec != codec {
      codec = other.codec
      profile = other.profile
      bitRate = other.bitRate ?? bitRate
    }
    if channels == 0 && other.channels > 0 {
      channels = other.channels
      channelLayout = other.channelLayout
    }
    if sampleRate == 0 { sampleRate = other.sampleRate }
    if bitRate == nil { bitRate = other.bitRate }
    // The media's own answer (no decoder, encrypted) counts.
    if !other.decodable { decodable = false }
    if other.encrypted { encrypted = true }
  }
}
