/// What the viewer wants: languages in order of preference and a few options.
public struct TrackPreferences: Hashable, Sendable, Codable {
  /// How subtitles are chosen.
  public enum SubtitleMode: String, Hashable, Sendable, Codable {
    /// By the rule in ``TrackSelection/defaultSubtitle(in:audio:preferences:)``.
    case automatic
    /// Never show subtitles by default.
    case off
    /// Always show full subtitles in a preferred language when there is a track for one.
    case always
  }

  /// BCP-47 tags (ISO 639-2 codes are accepted too), most preferred first.
  public var languages: [String]
  /// Prefer audio-description tracks over main tracks.
  public var audioDescription: Bool
  /// Prefer commentary tracks over main tracks.
  public var commentary: Bool
  /// Prefer captions (SDH) and show them even when the audio language is understood.
  public var captions: Bool
  /// How subtitles are chosen.
  public var subtitles: SubtitleMode

  /// Creates preferences; the defaults are no language preference and no special tracks.
  public init(
    languages: [String] = [], audioDescription: Bool = false, commentary: Bool = false,
    captions: Bool = false, subtitles: SubtitleMode = .automatic
  ) {
    self.languages = languages.compactMap { LanguageTag.bcp47($0) }
    self.audioDescription = audioDescription
    self.commentary = commentary
    self.captions = captions
    self.subtitles = subtitles
  }
}

/// Picks the audio and subtitle tracks a player starts with.
///
/// Pure functions over the track model: no files involved.
public enum TrackSelection {
  /// How well `language` matches the preferences: `(preference position, 0 exact | 1 base)`,
  /// lower is better; `nil` when it matches none. `en-US` against `en-US` is exact; `en-GB` or
  /// `en` against `en-US` is a base-language match.
  ///
  /// - Parameters:
  ///   - language: A track's BCP-47 tag.
  ///   - preferences: BCP-47 tags, most preferred first.
  public static func matchRank(_ language: String?, preferences: [String]) -> (Int, Int)? {
    guard let language else { return nil }
    let lowered = language.lowercased()
    let base = LanguageTag.base(of: language)
    for (position, preferred) in preferences.enumerated() {
      if preferred.lowercased() == lowered { return (position, 0) }
      if LanguageTag.base(of: preferred) == base { return (position, 1) }
    }
    return nil
  }

  /// The audio track to play by default, or `nil` when there are none.
  ///
  /// Tracks are ranked by, in order:
  /// 1. language: a track matching an earlier preferred language wins; for the same preferred
  ///    language an exact match (`en-US` for `en-US`) beats a base-language match (`en`,
  ///    `en-GB`); a track matching no preference comes after every match;
  /// 2. kind: main and translation tracks beat alternative ones. Commentary and
  ///    audio-description tracks are only considered when no other track exists, unless
  ///    ``TrackPreferences/commentary`` or ``TrackPreferences/audioDescription`` asks for them,
  ///    in which case they beat main tracks of the same language rank;
  /// 3. the file's `default` flag;
  /// 4. more channels (the richer mix; a player can always downmix);
  /// 5. stream order.
  ///
  /// Tracks the container marks disabled (a Matroska `FlagEnabled` of 0, whatever their
  /// `default` flag) are considered only when every track is disabled; then, tracks this FFmpeg
  /// cannot decode (``AudioTrack/decodable`` false: MPEG-H, AC-4, encrypted tracks) only when
  /// no other track remains.
  ///
  /// - Parameters:
  ///   - tracks: The file's audio tracks, with kinds set.
  ///   - preferences: The viewer's languages and options.
  /// - Complexity: O(*n* × *p*) for *n* tracks and *p* preferred languages.
  public static func defaultAudio(
    in tracks: [AudioTrack], preferences: TrackPreferences
  ) -> AudioTrack? {
    func kindRank(_ kind: AudioKind) -> Int? {
      switch kind {
      case .main, .translation: return 1
      case .alternative: return 2
      case .commentary: return preferences.commentary ? 0 : nil
      case .descriptions, .mainDescriptions: return preferences.audioDescription ? 0 : nil
      }
    }
    // A disabled track is chosen only when every track is; a track that cannot be decoded
    // here only when no other can.
    let enabled = tracks.contains(where: \.isEnabled) ? tracks.filter(\.isEnabled) : tracks
    let candidates =
      enabled.contains(where: \.decodable) ? enabled.filter(\.decodable) : enabled
    let anyOrdinary = candidates.contains { kindRank($0.kind) != nil }
    var best: (key: [Int], track: AudioTrack)? = nil
    for track in candidates {
      let kind: Int
      if let rank = kindRank(track.kind) {
        kind = rank
      } else if anyOrdinary {
        continue
      } else {
        kind = 3
      }
      let language = matchRank(track.language, preferences: preferences.languages)
      let key = [
        language?.0 ?? Int.max, language?.1 ?? 0, kind, track.isDefault ? 0 : 1, -track.channels,
        track.index,
      ]
      if best == nil || key.lexicographicallyPrecedes(best?.key ?? []) {
        best = (key, track)
      }
    }
    return best?.track
  }

  /// The subtitle track to show by default, or `nil` for none.
  ///
  /// With ``TrackPreferences/SubtitleMode/automatic``:
  /// - With ``TrackPreferences/captions``: a captions track in the audio's language, else in
  ///   the best-matching preferred language, if there is one.
  /// - No preferred languages: a forced track in the audio's language, else a track the file
  ///   flags `default`, else none.
  /// - The audio's language matches one of the preferred languages (by base language), or is
  ///   unknown: the viewer understands it, so only a forced track in the audio's language
  ///   (for foreign dialogue and signs), else none.
  /// - Otherwise: a full (not forced) track in the best-matching preferred language, ranked as
  ///   audio languages are, subtitles before captions; if no preferred language has one, a
  ///   forced track in the audio's language, else none.
  ///
  /// ``TrackPreferences/SubtitleMode/off`` gives `nil`; ``TrackPreferences/SubtitleMode/always``
  /// gives a full track in the best-matching preferred language when one exists, else follows
  /// the automatic rule. Ties go to stream order. A track the container marks disabled (a
  /// Matroska `FlagEnabled` of 0) is never chosen, whatever its `default` flag.
  ///
  /// - Parameters:
  ///   - tracks: The file's subtitle tracks, with kinds set.
  ///   - audio: The audio track that will play (from ``defaultAudio(in:preferences:)``).
  ///   - preferences: The viewer's languages and options.
  /// - Complexity: O(*n* × *p*).
  public static func defaultSubtitle(
    in tracks: [SubtitleTrack], audio: AudioTrack?, preferences: TrackPreferences
  ) -> SubtitleTrack? {
    let shown = tracks.filter { $0.isEnabled && $0.kind != .metadata && $0.kind != .chapters }
    let audioLanguage = audio?.language
    let audioBase = audioLanguage.map(LanguageTag.base(of:))
    let languages = preferences.languages

    func forcedInAudioLanguage() -> SubtitleTrack? {
      shown.first { $0.isForced && $0.language.map(LanguageTag.base(of:)) == audioBase }
    }
    func bestFull(kinds: [SubtitleKind]) -> SubtitleTrack? {
      var best: (key: [Int], track: SubtitleTrack)? = nil
      for track in shown where !track.isForced {
        guard let kindRank = kinds.firstIndex(of: track.kind),
          let rank = matchRank(track.language, preferences: languages)
        else { continue }
        let key = [rank.0, rank.1, kindRank, track.isDefault ? 0 : 1, track.index]
        if best == nil || key.lexicographicallyPrecedes(best?.key ?? []) { best = (key, track) }
      }
      return best?.track
    }

    switch preferences.subtitles {
    case .off:
      return nil
    case .always:
      if let full = bestFull(
        kinds: preferences.captions
          ? [.captions, .subtitles]
          : [
            .subtitles, .captions,
          ])
      {
        return full
      }
    case .automatic:
      break
    }
    if preferences.captions {
      if let audioBase,
        let captions = shown.first(where: {
          $0.kind == .captions && $0.language.map(LanguageTag.base(of:)) == audioBase
        })
      {
        return captions
      }
      if let captions = bestFull(kinds: [.captions]) { return captions }
    }
    if languages.isEmpty {
      return forcedInAudioLanguage() ?? shown.first { $0.isDefault && !$0.isForced }
    }
    let understood =
      audioLanguage == nil || matchRank(audioLanguage, preferences: languages) != nil
    if understood { return forcedInAudioLanguage() }
    return bestFull(kinds: [.subtitles, .captions]) ?? forcedInAudioLanguage()
  }
}
