/// Makes readable labels that are unique within one file: "English", "English (5.1)",
/// "French – Audio Description", "Spanish – Commentary (Director's Commentary)".
///
/// A label starts with the language name in the ``LabelLocale`` (a track without a language uses
/// its title, else "Unknown language"), then the kind where it is not plain: " – Commentary",
/// " – Audio Description" for audio; " – SDH", " – Forced", " – Descriptions" for subtitles.
/// Commentary and audio-description tracks also show a title that adds something, in
/// parentheses, because such titles tell tracks of that kind apart.
///
/// Tracks that would share a label are told apart, in this order, by what differs among them:
/// 1. (audio only) a mix for the hard of hearing (`hearing_impaired`): "English (Hard of
///    Hearing)", then the channel layout: "English (5.1)" and "English (stereo)",
/// 2. the title,
/// 3. the codec,
/// 4. a number: "English (Track 2)"; as a last resort the stream index.
///
/// Qualifiers are added to the colliding tracks only, and only when the value differs among them.
///
/// With ``authorTitlesFirst`` (manifests: an HLS `NAME`, a DASH `Label`), a track's title is
/// the author's label for it and is kept as written ("Deutsch" stays "Deutsch"): the kind is
/// added only when the title does not already say it ("Director's Commentary" stays as it is,
/// "English" for a commentary track becomes "English – Commentary"), and the language name is
/// the first qualifier when titles collide. Tracks without a title get the generated label.
public struct TrackLabeler: Sendable {
  /// The words labels are made of.
  public var locale: LabelLocale
  /// Whether a track's title is its author's label and comes before the language name (for
  /// HLS playlists and DASH manifests, whose `NAME` or `Label` is written for the menu).
  public var authorTitlesFirst: Bool

  /// Creates a labeler for `locale`.
  ///
  /// - Parameter authorTitlesFirst: Whether titles are the author's labels (see
  ///   ``authorTitlesFirst``).
  public init(locale: LabelLocale = .english, authorTitlesFirst: Bool = false) {
    self.locale = locale
    self.authorTitlesFirst = authorTitlesFirst
  }

  /// Sets `label` on every audio track.
  ///
  /// - Complexity: O(*n* log *n*) in the number of tracks (and linear in their titles' length).
  public func label(_ tracks: inout [AudioTrack]) {
    let titles = tracks.map { $0.title.map(MenuText.collapsingWhitespace) }
    let bases = tracks.indices.map { position -> (String, [String]) in
      let track = tracks[position]
      let title = titles[position]
      if authorTitlesFirst, let title, !title.isEmpty {
        return (authorLabel(audio: track, title: title), [])
      }
      var base = name(language: track.language, title: title)
      var fixed: [String] = []
      switch track.kind {
      case .commentary:
        base += locale.separator + locale.commentary
        if let extra = informativeTitle(title, language: track.language) {
          fixed.append(extra)
        }
      case .descriptions, .mainDescriptions:
        base += locale.separator + locale.audioDescription
        if let extra = informativeTitle(title, language: track.language) {
          fixed.append(extra)
        }
      case .main, .alternative, .translation:
        break
      }
      return (base, fixed)
    }
    let labels = disambiguate(
      bases: bases,
      qualifiers: languageQualifier(tracks.map(\.language), titles) + [
        tracks.map { $0.dispositions.contains("hearing_impaired") ? locale.hardOfHearing : "" },
        tracks.map { $0.channelLayout }, titles.map { $0 ?? "" }, tracks.map { $0.codec },
      ],
      indexes: tracks.map(\.index))
    for position in tracks.indices { tracks[position].label = labels[position] }
  }

  /// Sets `label` on every subtitle track.
  ///
  /// - Complexity: O(*n* log *n*) in the number of tracks (and linear in their titles' length).
  public func label(_ tracks: inout [SubtitleTrack]) {
    let titles = tracks.map { $0.title.map(MenuText.collapsingWhitespace) }
    let bases = tracks.indices.map { position -> (String, [String]) in
      let track = tracks[position]
      if authorTitlesFirst, let title = titles[position], !title.isEmpty {
        return (authorLabel(subtitle: track, title: title), [])
      }
      var base = name(language: track.language, title: titles[position])
      switch track.kind {
      case .captions: base += locale.separator + locale.captions
      case .descriptions: base += locale.separator + locale.descriptions
      case .subtitles, .chapters, .metadata: break
      }
      if track.isForced { base += locale.separator + locale.forced }
      return (base, [])
    }
    let labels = disambiguate(
      bases: bases,
      qualifiers: languageQualifier(tracks.map(\.language), titles) + [
        titles.map { $0 ?? "" }, tracks.map { $0.codec },
      ],
      indexes: tracks.map(\.index))
    for position in tracks.indices { tracks[position].label = labels[position] }
  }

  /// The language names that tell apart tracks labelled by their titles (none without
  /// ``authorTitlesFirst``; `""` for a track labelled by its language already).
  private func languageQualifier(_ languages: [String?], _ titles: [String?]) -> [[String]] {
    guard authorTitlesFirst else { return [] }
    return [
      languages.indices.map { position in
        guard let title = titles[position], !title.isEmpty, let language = languages[position]
        else { return "" }
        return locale.languageName(for: language)
      }
    ]
  }

  /// The author's title, with the kind added when the title does not say it.
  private func authorLabel(audio track: AudioTrack, title: String) -> String {
    switch track.kind {
    case .commentary:
      return says(title, [locale.commentary, "commentary"])
        ? title : title + locale.separator + locale.commentary
    case .descriptions, .mainDescriptions:
      return says(title, [locale.audioDescription, "description", "described"])
        ? title : title + locale.separator + locale.audioDescription
    case .main, .alternative, .translation:
      return title
    }
  }

  /// The author's title, with the kind and "forced" added when the title does not say them.
  private func authorLabel(subtitle track: SubtitleTrack, title: String) -> String {
    var label = title
    switch track.kind {
    case .captions:
      let words = title.split { !$0.isLetter }.map { $0.uppercased() }
      if !words.contains("SDH") && !words.contains("CC")
        && !says(title, [locale.captions, "caption", "hard of hearing", "deaf"])
      {
        label += locale.separator + locale.captions
      }
    case .descriptions:
      if !says(title, [locale.descriptions, "description"]) {
        label += locale.separator + locale.descriptions
      }
    case .subtitles, .chapters, .metadata: break
    }
    if track.isForced && !says(title, [locale.forced, "forced"]) {
      label += locale.separator + locale.forced
    }
    return label
  }

  /// Whether `title` contains one of `words`, ignoring case.
  private func says(_ title: String, _ words: [String]) -> Bool {
    let lowered = title.lowercased()
    return words.contains { !$0.isEmpty && lowered.contains($0.lowercased()) }
  }

  private func name(language: String?, title: String?) -> String {
    if let language { return locale.languageName(for: language) }
    if let title, !title.isEmpty { return title }
    return locale.unknownLanguage
  }

  /// A title worth showing: something is left once the language name and the kind words are
  /// taken out ("English (Audio Description)" is not; "Director's Commentary" is).
  private func informativeTitle(_ title: String?, language: String?) -> String? {
    guard let title, !title.isEmpty, let language else { return nil }
    var rest = title.lowercased()
    for word in [
      locale.languageName(for: language), locale.commentary, locale.audioDescription,
    ] {
      if !word.isEmpty { rest = rest.replacing(word.lowercased(), with: "") }
    }
    guard rest.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
    return title
  }

  private func render(_ base: String, _ qualifiers: [String]) -> String {
    qualifiers.isEmpty ? base : base + " (" + qualifiers.joined(separator: ", ") + ")"
  }

  /// Adds qualifiers to colliding labels until every label is unique.
  private func disambiguate(
    bases: [(String, [String])], qualifiers: [[String]], indexes: [Int]
  ) -> [String] {
    var parts = bases.map { $0.1 }
    var labels = bases.indices.map { render(bases[$0].0, parts[$0]) }
    if labels.count < 2 || Set(labels).count == labels.count { return labels }
    for values in qualifiers {
      for group in collisions(labels) {
        let distinct = Set(group.map { values[$0] })
        guard distinct.count > 1 else { continue }
        for position in group
        where !values[position].isEmpty
          && !parts[position].contains(values[position])
        {
          parts[position].append(values[position])
          labels[position] = render(bases[position].0, parts[position])
        }
      }
    }
    for group in collisions(labels) {
      for (number, position) in group.enumerated() {
        parts[position].append("\(locale.track) \(number + 1)")
        labels[position] = render(bases[position].0, parts[position])
      }
    }
    // Stream indexes are unique, but a title can read like an earlier label with its index
    // ("English (Track 1) [1]"): repeat until nothing collides. A label can only collide anew
    // when it changed in the round before, so each round looks only at the labels it changed
    // (a crafted chain of such titles took a round per link, each over every label).
    var holders: [String: [Int]] = [:]
    for (position, label) in labels.enumerated() { holders[label, default: []].append(position) }
    var groups = collisions(labels)
    for _ in 0..<labels.count {
      if groups.isEmpty { break }
      var changed: [Int] = []
      for group in groups {
        // A group is every holder of its label.
        holders[labels[group[0]]] = nil
        for position in group {
          labels[position] += " [\(indexes[position])]"
          holders[labels[position], default: []].append(position)
          changed.append(position)
        }
      }
      var seen: Set<String> = []
      groups = []
      for position in changed where seen.insert(labels[position]).inserted {
        if let group = holders[labels[position]], group.count > 1 { groups.append(group) }
      }
    }
    return labels
  }

  /// Groups of positions (two or more) that share a label, in first-appearance order.
  private func collisions(_ labels: [String]) -> [[Int]] {
    var groups: [String: [Int]] = [:]
    var order: [String] = []
    for (position, label) in labels.enumerated() {
      if groups[label] == nil { order.append(label) }
      groups[label, default: []].append(position)
    }
    return order.compactMap { groups[$0] }.filter { $0.count > 1 }
  }
}
