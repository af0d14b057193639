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
/// 1. the channel layout (audio only): "English (5.1)" and "English (stereo)",
/// 2. the title,
/// 3. the codec,
/// 4. a number: "English (Track 2)"; as a last resort the stream index.
///
/// Qualifiers are added to the colliding tracks only, and only when the value differs among them.
public struct TrackLabeler: Sendable {
  /// The words labels are made of.
  public var locale: LabelLocale

  /// Creates a labeler for `locale`.
  public init(locale: LabelLocale = .english) {
    self.locale = locale
  }

  /// Sets `label` on every audio track.
  ///
  /// - Complexity: O(*n* log *n*) in the number of tracks (and linear in their titles' length).
  public func label(_ tracks: inout [AudioTrack]) {
    let titles = tracks.map { $0.title.map(MenuText.collapsingWhitespace) }
    let bases = tracks.indices.map { position -> (String, [String]) in
      let track = tracks[position]
      let title = titles[position]
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
      qualifiers: [
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
      qualifiers: [titles.map { $0 ?? "" }, tracks.map { $0.codec }],
      indexes: tracks.map(\.index))
    for position in tracks.indices { tracks[position].label = labels[position] }
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
