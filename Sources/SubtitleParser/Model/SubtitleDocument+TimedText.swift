extension SubtitleDocument {
  /// A document of timed texts, as an in-media subtitle stream delivers them: each sample a
  /// start, an end and its text. One call puts such samples on the same model as a parsed file,
  /// so `CueTimeline(cues:)`, `cueTree(of:)`, `plainText(of:)` and the writers take them.
  ///
  /// The texts are stored one after the other in `text`, each followed by a line feed; each
  /// cue's `textRange` covers its text (without that line feed), its identifier is empty, its
  /// settings are the defaults and its `line` is 0 (no source line). Nothing is parsed or
  /// repaired: `diagnostics` is empty.
  ///
  /// - Parameters:
  ///   - format: The syntax the texts' markup is written in, which `cueTree(of:)` and the
  ///     writers read them by: `.srt` (the default: `<i>`, `<b>`, `<u>`, `<font>`) or
  ///     `.webVTT` (classes, voices, character references).
  ///   - timedTexts: The samples in the order to keep: start and end times in seconds, and
  ///     the text as a `String` (lines separated by `\n`).
  /// - Complexity: O(*n*) in the total length of the texts.
  public init(
    format: SubtitleFormat = .srt,
    timedTexts: [(startTime: Double, endTime: Double, text: String)]
  ) {
    var text: [UInt8] = []
    var cues: [Cue] = []
    cues.reserveCapacity(timedTexts.count)
    for sample in timedTexts {
      let start = text.count
      text.append(contentsOf: sample.text.utf8)
      cues.append(
        Cue(textRange: start..<text.count, startTime: sample.startTime, endTime: sample.endTime))
      text.append(0x0A)
    }
    self.init(format: format, text: text, cues: cues)
  }
}
