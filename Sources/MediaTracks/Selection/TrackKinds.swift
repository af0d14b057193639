/// Derives each track's ``AudioKind`` or ``SubtitleKind`` from its dispositions and title.
///
/// Audio, first rule that applies:
/// 1. `comment` disposition, or a title containing "commentary" → ``AudioKind/commentary``.
/// 2. `descriptions` together with `dependent` (a description-only track meant to be mixed)
///    → ``AudioKind/descriptions``.
/// 3. `visual_impaired` or `descriptions`, or a title containing "audio description" or
///    "described" → ``AudioKind/mainDescriptions`` (broadcast audio-description tracks are
///    complete mixes).
/// 4. `dub` → ``AudioKind/translation``.
/// 5. `original` → ``AudioKind/main``.
/// 6. Among the remaining tracks of one language (tracks without a language form one group):
///    the track flagged `default`, else the first, is ``AudioKind/main`` unless the language
///    already has an `original` track; the others are ``AudioKind/alternative``. A track the
///    container marks disabled (Matroska `FlagEnabled` 0) is the main one only when the whole
///    group is disabled.
///
/// Subtitles, first rule that applies:
/// 1. `hearing_impaired` or `captions`, or a title containing "SDH" or "CC" as a word
///    → ``SubtitleKind/captions``.
/// 2. `descriptions` or `visual_impaired` → ``SubtitleKind/descriptions``.
/// 3. `metadata` → ``SubtitleKind/metadata``.
/// 4. A title containing "chapter" → ``SubtitleKind/chapters``.
/// 5. Otherwise ``SubtitleKind/subtitles`` (forced tracks included: see
///    ``SubtitleTrack/isForced``).
public enum TrackKinds {
  /// Sets `kind` on every audio track by the rules above.
  ///
  /// - Complexity: O(*n*) in the number of tracks.
  public static func classify(_ tracks: inout [AudioTrack]) {
    var plain: [Int] = []
    for position in tracks.indices {
      let track = tracks[position]
      let has = { (name: String) in track.dispositions.contains(name) }
      let title = track.title ?? ""
      if has("comment") || TextSearch.contains(title, "commentary") {
        tracks[position].kind = .commentary
      } else if has("descriptions") && has("dependent") {
        tracks[position].kind = .descriptions
      } else if has("visual_impaired") || has("descriptions")
        || TextSearch.contains(title, "audio description")
        || TextSearch.contains(title, "described")
      {
        tracks[position].kind = .mainDescriptions
      } else if has("dub") {
        tracks[position].kind = .translation
      } else if has("original") {
        tracks[position].kind = .main
      } else {
        plain.append(position)
      }
    }
    // Rule 6 by language: which languages have an `original` main track, and the plain tracks
    // of each language in order.
    let base = { (track: AudioTrack) in track.language.map(LanguageTag.base(of:)) }
    var withOriginal = Set<String?>()
    for track in tracks where track.kind == .main && track.dispositions.contains("original") {
      withOriginal.insert(base(track))
    }
    var groups: [String?: [Int]] = [:]
    for position in plain { groups[base(tracks[position]), default: []].append(position) }
    for (language, group) in groups {
      let usable =
        group.contains { tracks[$0].isEnabled } ? group.filter { tracks[$0].isEnabled } : group
      let main = usable.first { tracks[$0].isDefault } ?? usable.first
      for position in group {
        tracks[position].kind =
          !withOriginal.contains(language) && main == position ? .main : .alternative
      }
    }
  }

  /// Sets `kind` on every subtitle track by the rules above.
  ///
  /// - Complexity: O(*n*) in the number of tracks.
  public static func classify(_ tracks: inout [SubtitleTrack]) {
    for position in tracks.indices {
      let track = tracks[position]
      let has = { (name: String) in track.dispositions.contains(name) }
      let title = track.title ?? ""
      let words = title.split { !$0.isLetter }.map { $0.uppercased() }
      if has("hearing_impaired") || has("captions") || words.contains("SDH")
        || words.contains("CC")
      {
        tracks[position].kind = .captions
      } else if has("descriptions") || has("visual_impaired") {
        tracks[position].kind = .descriptions
      } else if has("metadata") {
        tracks[position].kind = .metadata
      } else if TextSearch.contains(title, "chapter") {
        tracks[position].kind = .chapters
      } else {
        tracks[position].kind = .subtitles
      }
    }
  }
}

/// ASCII case-insensitive substring search over UTF-8 bytes, without allocating.
enum TextSearch {
  /// Whether `text` contains `needle` (lowercase ASCII), ignoring ASCII case.
  static func contains(_ text: String, _ needle: StaticString) -> Bool {
    let count = needle.utf8CodeUnitCount
    guard count > 0, text.utf8.count >= count else { return false }
    return needle.withUTF8Buffer { pattern in
      var text = text
      return text.withUTF8 { bytes in
        var start = 0
        while start + count <= bytes.count {
          var offset = 0
          while offset < count {
            var byte = bytes[start + offset]
            if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            if byte != pattern[offset] { break }
            offset += 1
          }
          if offset == count { return true }
          start += 1
        }
        return false
      }
    }
  }
}
