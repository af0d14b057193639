extension ManifestParser {
  /// The tracks of a DASH manifest (kinds set; labels and defaults not yet).
  ///
  /// - Complexity: O(*s* log *s*) in the number of adaptation sets (and linear in their
  ///   descriptors).
  public static func info(path: String, dash manifest: DASHManifest) -> MediaInfo {
    let sets = manifest.adaptationSets
    let leaders = switchingLeaders(manifest)
    var tracks = DASHTracks(duration: manifest.duration)
    // Period by period: first the sets that continue an earlier period's track exactly, then
    // the rest (a close match, else a track of their own), so a set whose language or label
    // the period leaves out cannot take the place of one that states it.
    var periodStart = 0
    for period in manifest.periods {
      let range = periodStart..<min(sets.count, periodStart + period.adaptationSetCount)
      periodStart = range.upperBound
      var rest: [Int] = []
      for position in range
      where !tracks.add(sets[position], at: position, leader: leaders[position], exactOnly: true) {
        rest.append(position)
      }
      for position in rest {
        tracks.add(sets[position], at: position, leader: leaders[position], exactOnly: false)
      }
    }
    var subtitles = tracks.subtitles
    for (offset, var track) in closedCaptionTracks(sets).enumerated() {
      track.index = sets.count + offset
      subtitles.append(track)
    }
    let audio = classified(tracks.audio, alternates: tracks.alternates)
    TrackKinds.classify(&subtitles)
    return MediaInfo(
      path: path, demuxerName: "dash", duration: manifest.duration, audio: audio,
      subtitles: subtitles)
  }

  /// Each adaptation set's switching-group leader: sets of one period a player switches between
  /// seamlessly (`adaptation-set-switching`, same content type) are one track, whose
  /// representative is the first set of the group (union by position).
  static func switchingLeaders(_ manifest: DASHManifest) -> [Int] {
    let sets = manifest.adaptationSets
    var representative = Array(sets.indices)
    func root(_ position: Int) -> Int {
      var current = position
      while representative[current] != current { current = representative[current] }
      var walk = position
      while representative[walk] != current {
        let next = representative[walk]
        representative[walk] = current
        walk = next
      }
      return current
    }
    var periodStart = 0
    for period in manifest.periods {
      let range = periodStart..<min(sets.count, periodStart + period.adaptationSetCount)
      periodStart = range.upperBound
      var byID: [String: Int] = [:]
      // A set without a representation is no track, so it leads or joins no group.
      let playable = range.filter { sets[$0].representationCount > 0 }
      for position in playable {
        if let id = sets[position].id?.trimmingSpaces, byID[id] == nil { byID[id] = position }
      }
      for position in playable {
        for id in sets[position].switchableWith {
          guard let other = byID[id], sets[other].mediaType == sets[position].mediaType else {
            continue
          }
          let (a, b) = (root(position), root(other))
          if a != b { representative[max(a, b)] = min(a, b) }
        }
      }
    }
    var leaders: [Int] = []
    leaders.reserveCapacity(sets.count)
    for position in sets.indices { leaders.append(root(position)) }
    return leaders
  }

  /// The subtitle tracks of the captions carried in the video (or any set), declared by
  /// `Accessibility` descriptors: each channel once, whatever the number of sets and periods
  /// that declare it, in document order (their `index` is not set yet).
  static func closedCaptionTracks(_ sets: [DASHManifest.AdaptationSet]) -> [SubtitleTrack] {
    var keys: Set<String> = []
    var captions: [SubtitleTrack] = []
    for set in sets where set.representationCount > 0 {
      for descriptor in set.accessibility {
        for caption in closedCaptions(descriptor) {
          guard
            keys.insert(
              caption.codec + "\u{0}" + caption.channel + "\u{0}" + (caption.language ?? "")
            ).inserted
          else { continue }
          captions.append(
            SubtitleTrack(
              index: 0, codec: caption.codec, language: LanguageTag.bcp47(caption.language),
              languageTag: caption.language, dispositions: ["hearing_impaired", "captions"]))
        }
      }
    }
    return captions
  }

  /// The audio tracks with their kinds: sets with Role "alternate" (or "supplementary",
  /// "emergency") never count as their language's main track.
  private static func classified(_ audio: [AudioTrack], alternates: Set<Int>) -> [AudioTrack] {
    var others = audio.filter { !alternates.contains($0.index) }
    var alternateSets = audio.filter { alternates.contains($0.index) }
    TrackKinds.classify(&others)
    TrackKinds.classify(&alternateSets)
    for position in alternateSets.indices where alternateSets[position].kind == .main {
      alternateSets[position].kind = .alternative
    }
    return (others + alternateSets).sorted { $0.index < $1.index }
  }

  /// The caption channels an `Accessibility` descriptor declares: channel (or service), language
  /// as written, and codec; empty for other schemes.
  ///
  /// CEA-608 (`urn:scte:dash:cc:cea-608:2015`): `CC1=eng;CC3=spa`, `CC1=lang:eng` or
  /// `1=lang:eng,war:1` (a bare number is that CC channel), or languages alone (`eng;spa`,
  /// channels CC1, CC3 in order). CEA-708 (`urn:scte:dash:cc:cea-708:2015`):
  /// `1=lang:eng;2=lang:spa,war:1`, or languages alone (services 1, 2, … in order).
  static func closedCaptions(_ descriptor: DASHManifest.Descriptor)
    -> [(channel: String, language: String?, codec: String)]
  {
    let scheme = descriptor.scheme.trimmingSpaces.lowercased()
    let codec: String
    if scheme.hasPrefix("urn:scte:dash:cc:cea-608") {
      codec = "eia_608"
    } else if scheme.hasPrefix("urn:scte:dash:cc:cea-708") {
      codec = "eia_708"
    } else {
      return []
    }
    var result: [(channel: String, language: String?, codec: String)] = []
    let entries = descriptor.value.split(separator: ";").map { String($0).trimmingSpaces }
      .filter { !$0.isEmpty }
    for (position, entry) in entries.prefix(64).enumerated() {
      var channel: String
      var language: String?
      if let equals = entry.firstIndex(of: "=") {
        channel = String(entry[..<equals]).trimmingSpaces
        // CEA-608 channels written as bare numbers (`1=…;3=…`) are CC1…CC4.
        if codec == "eia_608", let number = Int(channel), (1...4).contains(number) {
          channel = "CC\(number)"
        }
        let rest = entry[entry.index(after: equals)...]
        // `lang:eng,war:1,er:1` (the 708 form, written for 608 channels too): the `lang`
        // field; a plain value is the language itself.
        language = nil
        for field in rest.split(separator: ",") {
          let field = String(field).trimmingSpaces
          if field.hasPrefix("lang:") { language = String(field.dropFirst(5)) }
        }
        if language == nil, !rest.contains(":") { language = String(rest) }
        language = language?.trimmingSpaces
      } else {
        channel = codec == "eia_608" ? "CC\(2 * position + 1)" : "\(position + 1)"
        language = entry
      }
      if language?.isEmpty == true { language = nil }
      if channel.isEmpty { channel = "\(position + 1)" }
      result.append((channel.uppercased(), language, codec))
    }
    if result.isEmpty { result.append((codec == "eia_608" ? "CC1" : "1", nil, codec)) }
    return result
  }

  /// The channel count an `AudioChannelConfiguration` states, or `nil`: read as its scheme
  /// defines the value (a count, an index, or a speaker mask in hexadecimal). A scheme this
  /// reader does not know states nothing it can count (its value may well be a mask: AC-4's
  /// `000047` is 5.1, not 47 channels).
  static func channelCount(_ descriptor: DASHManifest.Descriptor) -> Int? {
    let value = descriptor.value.trimmingSpaces
    switch descriptor.scheme.trimmingSpaces {
    case "urn:mpeg:dash:23003:3:audio_channel_configuration:2011",
      // DTS (ETSI TS 102 114 in DASH-IF IOP): the channel count too.
      "urn:dts:dash:audio_channel_configuration:2012",
      "tag:dts.com,2014:dash:audio_channel_configuration:2012":
      return Int(value).flatMap { (1...64).contains($0) ? $0 : nil }
    case "urn:mpeg:dash:outputChannelPositionList:2012":
      // ISO/IEC 23009-1: one output channel position per channel, separated by spaces.
      let positions = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard !positions.isEmpty, positions.count <= 64, positions.allSatisfy({ Int($0) != nil })
      else { return nil }
      return positions.count
    case "urn:mpeg:mpegB:cicp:ChannelConfiguration":
      // ISO/IEC 23091-3 ChannelConfiguration index → channel count (8 is dual mono, "1+1").
      let counts = [
        1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 8, 8: 2, 9: 3, 10: 4, 11: 7, 12: 8, 13: 24, 14: 8,
        15: 12, 16: 10, 17: 12, 18: 14, 19: 12, 20: 14,
      ]
      return Int(value).flatMap { counts[$0] }
    case "tag:dolby.com,2014:dash:audio_channel_configuration:2011",
      "urn:dolby:dash:audio_channel_configuration:2011":
      // A 16-bit speaker mask, most significant bit first; some bits stand for speaker pairs.
      guard value.count == 4, let mask = UInt16(value, radix: 16), mask != 0 else { return nil }
      let pairs: Set<Int> = [5, 6, 9, 10, 11, 13]
      var count = 0
      for bit in 0..<16 where mask & (0x8000 >> UInt16(bit)) != 0 {
        count += pairs.contains(bit) ? 2 : 1
      }
      return count
    case "tag:dolby.com,2015:dash:audio_channel_configuration:2015":
      // AC-4 (ETSI TS 103 190-2, G.3.1): a 24-bit mask of speaker groups, least significant
      // bit first (L/R, C, Ls/Rs, Lb/Rb, Tfl/Tfr, Tbl/Tbr, LFE, Tl/Tr, Tsl/Tsr, Tfc, Tbc, Tc,
      // LFE2, Bfl/Bfr, Bfc, Cb, Lscr/Rscr, Lw/Rw, Vhl/Vhr); a bit past those counts nothing
      // known.
      let groupSizes = [2, 1, 2, 2, 2, 2, 1, 2, 2, 1, 1, 1, 1, 2, 1, 1, 2, 2, 2]
      guard value.count == 6, let mask = UInt32(value, radix: 16), mask != 0,
        mask >> groupSizes.count == 0
      else { return nil }
      return groupSizes.indices.reduce(0) {
        $0 + (mask >> UInt32($1) & 1 == 1 ? groupSizes[$1] : 0)
      }
    case "tag:dts.com,2018:uhd:audio_channel_configuration":
      // DTS:X (ETSI TS 103 491): a 32-bit mask with one bit per speaker.
      guard value.count == 8, let mask = UInt32(value, radix: 16), mask != 0 else { return nil }
      return mask.nonzeroBitCount
    default:
      return nil
    }
  }
}

/// What an adaptation set's `Role` and `Accessibility` descriptors say about its purpose.
struct DASHPurpose {
  /// The `Role` values, trimmed and lowercased.
  var roles: [String]
  /// The `Accessibility` values as role words (the TV-Anytime audio-purpose scheme mapped to
  /// `description` and `caption`; caption-channel schemes as `""`).
  var accessibility: [String]
  /// FFmpeg's disposition names, in FFmpeg's order.
  var dispositions: [String]
  /// Whether a role makes the set another version of its language's main audio (`alternate`,
  /// `supplementary`, `emergency`).
  var alternate = false

  init(_ set: DASHManifest.AdaptationSet) {
    roles = set.roles.map { $0.value.trimmingSpaces.lowercased() }
    accessibility = set.accessibility.map { descriptor -> String in
      if descriptor.scheme == "urn:tva:metadata:cs:AudioPurposeCS:2007" {
        return descriptor.value == "1" ? "description" : descriptor.value == "2" ? "caption" : ""
      }
      if descriptor.scheme.lowercased().hasPrefix("urn:scte:dash:cc:") { return "" }
      return descriptor.value.trimmingSpaces.lowercased()
    }
    let text = set.mediaType == "text"
    var names: [String] = []
    if set.mimeType == "application/x-rawcc" { names += ["hearing_impaired", "captions"] }
    var supplementary = false
    for value in roles + accessibility {
      switch value {
      case "main": names.append("default")
      case "commentary": names.append("comment")
      case "dub": names.append("dub")
      case "description":
        names.append("visual_impaired")
        if text { names.append("descriptions") }
      case "caption", "enhanced-audio-intelligibility":
        names.append("hearing_impaired")
        if text { names.append("captions") }
      case "forced-subtitle", "forced_subtitle": names.append("forced")
      case "karaoke": names.append("karaoke")
      case "metadata": if text { names.append("metadata") }
      case "supplementary":
        supplementary = true
        alternate = true
      case "alternate", "emergency": alternate = true
      default: break
      }
    }
    if supplementary && names.contains("visual_impaired") && set.mediaType == "audio" {
      // A description track meant to be mixed with the main audio.
      names.append("descriptions")
      names.append("dependent")
    }
    dispositions = ManifestParser.ordered(names)
  }
}

/// The audio and subtitle tracks of a DASH manifest as its adaptation sets are added in
/// document order: a set starts a track, or joins its switching group's track or the same
/// track of an earlier period.
struct DASHTracks {
  /// A track continues across periods: a later period's set (or switching group) with the same
  /// key as an earlier period's track joins it, one set per track and period, whatever its
  /// codec (a programme in E-AC-3 whose inserted period is AAC is one English track, with the
  /// other codec as an alternative encoding). The language is compared as a BCP-47 tag (`eng`
  /// and `en` are one), and the `main` role as absent (the role a set without one has).
  /// A set that matches no earlier track so continues one that differs only where one of the
  /// two leaves its language or label out (an inserted advertisement's `und` audio between
  /// two periods of English).
  struct ContinuityKey: Hashable {
    var mediaType: String
    var language: String
    var label: String
    var roles: [String]
    var accessibility: [String]

    /// Whether a set of key `other` may continue a track of this key when neither has an
    /// exact match: the same media type, roles and accessibility; language and label the same
    /// or missing on one side.
    func isClose(to other: ContinuityKey) -> Bool {
      mediaType == other.mediaType && roles == other.roles
        && accessibility == other.accessibility
        && (language == other.language || language.isEmpty || other.language.isEmpty)
        && (label == other.label || label.isEmpty || other.label.isEmpty)
    }
  }

  /// How many keys of one media type a set with no exact match is compared with (a bound on
  /// the work a manifest of many languages can ask for).
  static let closeKeyLimit = 64

  /// Per key: the tracks made so far, in order, with the first four characters of their
  /// codecs; in each period each one made in an earlier period is taken once, the first of
  /// the same codec before the first of any.
  struct Slot {
    var tracks: [(position: Int, codec: String)] = []
    /// The positions in ``tracks`` of each codec's tracks, ascending.
    var byCodec: [String: [Int]] = [:]
    var period = -1
    /// How many of ``tracks`` earlier periods made.
    var earlier = 0
    /// The earlier tracks continued in the current period.
    var taken: Set<Int> = []
    /// Where the searches for the next earlier track not taken go on (each moves forward
    /// only, so a period's sets cost linear time in all).
    var anyCursor = 0
    var codecCursor: [String: Int] = [:]
  }

  /// The manifest's duration in seconds, or `nil`.
  let duration: Double?
  private(set) var audio: [AudioTrack] = []
  private(set) var subtitles: [SubtitleTrack] = []
  /// The positions of the sets with an alternate role.
  private(set) var alternates: Set<Int> = []
  private var slots: [ContinuityKey: Slot] = [:]
  /// The keys of each media type, in the order their first track was made.
  private var keysByType: [String: [ContinuityKey]] = [:]
  /// The track (a position in `audio` or `subtitles`) each set of a track belongs to.
  private var audioPosition: [Int: Int] = [:]
  private var subtitlePosition: [Int: Int] = [:]

  init(duration: Double?) { self.duration = duration }

  /// Adds the set at `position`, whose switching group's leader is `leader`; with `exactOnly`,
  /// only when it continues an earlier period's track with the same key (or joins its leader's
  /// track). Returns whether the set was added.
  @discardableResult
  mutating func add(
    _ set: DASHManifest.AdaptationSet, at position: Int, leader: Int, exactOnly: Bool
  ) -> Bool {
    // A set without a representation has nothing to play.
    guard set.representationCount > 0 else { return true }
    let purpose = DASHPurpose(set)
    // (A set left to the second pass is inserted again there: a set keeps one entry.)
    if purpose.alternate { alternates.insert(position) }
    guard leader == position else {
      guard !exactOnly || audioPosition[leader] != nil || subtitlePosition[leader] != nil else {
        return false
      }
      join(set, at: position, trackOf: leader)
      return true
    }
    let codecList = (set.codecs ?? "").split(separator: ",").map { String($0).trimmingSpaces }
    let codec = codecList.lazy.compactMap(ManifestParser.audioCodec).first
    // A video set names an audio codec when the audio is muxed into it.
    guard
      set.mediaType == "audio" || set.mediaType == "text"
        || (set.mediaType == "video" && codec != nil)
    else { return !exactOnly }
    let language = LanguageTag.bcp47(set.language)
    let key = ContinuityKey(
      mediaType: set.mediaType, language: language?.lowercased() ?? "",
      label: set.label ?? "", roles: purpose.roles.filter { $0 != "main" }.sorted(),
      accessibility: purpose.accessibility.sorted())
    let codecKey = String((codecList.first ?? "").lowercased().prefix(4))
    if let first = earlierTrack(key, codec: codecKey, period: set.period) {
      // The same track in a later period.
      join(set, at: position, trackOf: first)
      return true
    }
    if exactOnly { return false }
    for other in (keysByType[set.mediaType] ?? []).prefix(Self.closeKeyLimit)
    where other != key && other.isClose(to: key) {
      guard let first = earlierTrack(other, codec: codecKey, period: set.period) else { continue }
      join(set, at: position, trackOf: first)
      // What the earlier periods left out, this one may state (a pre-roll without a language).
      if let language, let track = audioPosition[position], audio[track].language == nil {
        audio[track].language = language
        audio[track].languageTag = set.language
      }
      if let language, let track = subtitlePosition[position], subtitles[track].language == nil {
        subtitles[track].language = language
        subtitles[track].languageTag = set.language
      }
      if let label = set.label, let track = audioPosition[position], audio[track].title == nil {
        audio[track].title = label
      }
      return true
    }
    record(key, codec: codecKey, period: set.period, position: position)
    if set.mediaType == "text" {
      subtitlePosition[position] = subtitles.count
      subtitles.append(
        SubtitleTrack(
          index: position, codec: Self.subtitleCodec(set), language: language,
          languageTag: set.language, title: set.label, dispositions: purpose.dispositions))
    } else {
      let channels =
        set.audioChannelConfiguration.lazy.compactMap(ManifestParser.channelCount).first ?? 0
      // Dolby's E-AC-3 joint object coding (Atmos), as HLS's `CHANNELS="16/JOC"` says it.
      let atmos = set.properties.contains {
        $0.scheme.trimmingSpaces.hasPrefix("tag:dolby.com,201")
          && $0.scheme.contains("EC3_ExtensionType") && $0.value.trimmingSpaces == "JOC"
      }
      audioPosition[position] = audio.count
      audio.append(
        AudioTrack(
          index: position,
          codec: codec?.name ?? (set.mediaType == "audio" ? set.codecs ?? "" : ""),
          profile: codec?.profile, sampleRate: set.sampleRate ?? 0, channels: channels,
          channelLayout: atmos ? "Atmos" : ChannelLayout.defaultName(channels: channels),
          // A video set's bandwidth is the whole muxed stream's, not its audio's.
          bitRate: set.mediaType == "audio" ? set.bandwidth : nil, duration: duration,
          language: language,
          languageTag: set.language, title: set.label,
          dispositions: set.mediaType == "video" ? [] : purpose.dispositions,
          // Encrypted media (ContentProtection) plays only with its keys, which mtool has not.
          decodable: set.contentProtection.isEmpty
            && ManifestParser.declaredDecodable(
              set.mediaType == "audio"
                ? set.codecs : codecList.first { ManifestParser.audioCodec($0) != nil }),
          encrypted: !set.contentProtection.isEmpty))
    }
    return true
  }

  /// The first set of an earlier period's track of `key` that a set of `period` (whose codec
  /// starts `codec`) continues, taken for this period; `nil` when there is none left.
  private mutating func earlierTrack(_ key: ContinuityKey, codec: String, period: Int) -> Int? {
    // The slot is changed where it is stored: a copy taken out and written back copied its
    // whole track list for every set (quadratic in the sets of one key: 60,000 took 24 s).
    guard slots[key] != nil else { return nil }
    return Self.take(from: &slots[key, default: Slot()], codec: codec, period: period)
  }

  /// Records the set at `position` of `period` (whose codec starts `codec`) as a new track of
  /// `key`.
  private mutating func record(_ key: ContinuityKey, codec: String, period: Int, position: Int) {
    if slots[key] == nil { keysByType[key.mediaType, default: []].append(key) }
    Self.append(to: &slots[key, default: Slot()], codec: codec, period: period, position: position)
  }

  /// Adds a track to one key's slot.
  private static func append(to slot: inout Slot, codec: String, period: Int, position: Int) {
    begin(period, in: &slot)
    slot.byCodec[codec, default: []].append(slot.tracks.count)
    slot.tracks.append((position, codec))
  }

  /// Starts `period` in one key's slot, if it has not: the tracks made so far are the earlier
  /// ones, none of them taken yet.
  private static func begin(_ period: Int, in slot: inout Slot) {
    guard slot.period != period else { return }
    slot.period = period
    slot.earlier = slot.tracks.count
    slot.taken = []
    slot.anyCursor = 0
    slot.codecCursor = [:]
  }

  /// ``earlierTrack(_:codec:period:)`` on one key's slot.
  private static func take(from slot: inout Slot, codec: String, period: Int) -> Int? {
    begin(period, in: &slot)
    // The earlier tracks not yet continued in this period: the first of the same codec, else
    // the first of any.
    var chosen: Int? = nil
    if let list = slot.byCodec[codec] {
      var cursor = slot.codecCursor[codec, default: 0]
      while cursor < list.count, list[cursor] < slot.earlier, slot.taken.contains(list[cursor]) {
        cursor += 1
      }
      slot.codecCursor[codec] = cursor
      if cursor < list.count, list[cursor] < slot.earlier { chosen = list[cursor] }
    }
    if chosen == nil {
      while slot.anyCursor < slot.earlier, slot.taken.contains(slot.anyCursor) {
        slot.anyCursor += 1
      }
      if slot.anyCursor < slot.earlier { chosen = slot.anyCursor }
    }
    guard let chosen else { return nil }
    slot.taken.insert(chosen)
    return slot.tracks[chosen].position
  }

  /// Makes the set at `position` part of the track the set at `first` belongs to (an audio
  /// track takes what the set adds); nothing when that set made no track.
  private mutating func join(
    _ set: DASHManifest.AdaptationSet, at position: Int, trackOf first: Int
  ) {
    if let existing = audioPosition[first] {
      audioPosition[position] = existing
      audio[existing].merge(set)
    } else if let existing = subtitlePosition[first] {
      subtitlePosition[position] = existing
    }
  }

  /// A text set's codec: `webvtt` and `ttml` by their sample entries or MIME types,
  /// `eia_608`/`eia_708` for raw captions (`application/x-rawcc`), else the set's codecs
  /// string.
  private static func subtitleCodec(_ set: DASHManifest.AdaptationSet) -> String {
    let codec = set.codecs ?? ""
    let lowered = codec.lowercased()
    if lowered.hasPrefix("wvtt") || set.mimeType == "text/vtt" || set.mimeType == "text/webvtt" {
      return "webvtt"
    }
    if lowered.hasPrefix("stpp") || set.mimeType == "application/ttml+xml" { return "ttml" }
    // Raw closed captions (CEA-608 or -708 byte pairs) in their own set.
    if set.mimeType == "application/x-rawcc" { return lowered == "cea708" ? "eia_708" : "eia_608" }
    return codec
  }
}

extension AudioTrack {
  /// Takes what another adaptation set of the same track adds: the facts this one lacks, the
  /// higher bit rate, and its encoding as an alternative when its codec differs (another
  /// period's, or another set of the switching group); decodable when either is.
  mutating func merge(_ set: DASHManifest.AdaptationSet) {
    if !set.contentProtection.isEmpty { encrypted = true }
    let count = set.audioChannelConfiguration.lazy.compactMap(ManifestParser.channelCount).first
    let codecs = (set.codecs ?? "").split(separator: ",").map { String($0).trimmingSpaces }
    if let declared = codecs.lazy.compactMap(ManifestParser.audioCodec).first,
      !codec.isEmpty, declared.name != codec
    {
      let encoding = AudioEncoding(
        codec: declared.name, profile: declared.profile, channels: count ?? 0,
        channelLayout: count.map { ChannelLayout.defaultName(channels: $0) } ?? "")
      // One alternative per encoding, by the rule HLS renditions are told apart by.
      if !alternatives.contains(where: { $0.identity == encoding.identity }) {
        alternatives.append(encoding)
      }
      if set.contentProtection.isEmpty && ManifestParser.declaredDecodable(set.codecs) {
        decodable = true
      }
      return
    }
    if channels == 0, let count {
      channels = count
      channelLayout = ChannelLayout.defaultName(channels: count)
    }
    if sampleRate == 0, let rate = set.sampleRate { sampleRate = rate }
    if set.mediaType == "audio", let other = set.bandwidth, other > (bitRate ?? 0) {
      bitRate = other
    }
  }
}
