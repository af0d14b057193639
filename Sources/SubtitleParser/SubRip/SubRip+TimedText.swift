extension SubRip {
  /// A document of SRT cue texts as an in-media stream delivers them (Matroska `S_TEXT/UTF8`,
  /// FFmpeg's `subrip` codec: each block one cue's text, with no number or timing line), read
  /// as the same text in an `.srt` file is: ASS override blocks (`{\…}`) are removed from the
  /// stored text and `{\an1}` to `{\an9}` become positioning settings, with the same
  /// diagnostics; `<i>`, `<b>`, `<u>`, `<font>` and `<br>` stay in the text for
  /// `cueTree(of:)` and the writers, as they do for a file. Media3's `SubripParser` and
  /// FFmpeg's SRT decoder read such blocks so.
  ///
  /// - Parameter timedTexts: The samples in the order to keep: start and end times in seconds,
  ///   and each text (lines separated by `\n`).
  /// - Returns: A document of format `.srt` with one cue per sample, at the times given; a
  ///   cue's `line` is 0 (no source line), so a diagnostic's line counts lines from its text's
  ///   start.
  /// - Complexity: O(*n*) in the total length of the texts.
  public static func document(
    timedTexts: [(startTime: Double, endTime: Double, text: String)]
  ) -> SubtitleDocument {
    var text: [UInt8] = []
    var output = SRTParser.Output()
    output.cues.reserveCapacity(timedTexts.count)
    for sample in timedTexts {
      let start = text.count
      text.append(contentsOf: sample.text.utf8)
      // Only a cue with a `{` can hold an override block.
      if text[start...].contains(0x7B) { output.rewrite.append(output.cues.count) }
      output.cues.append(
        Cue(textRange: start..<text.count, startTime: sample.startTime, endTime: sample.endTime))
      text.append(0x0A)
    }
    if !output.rewrite.isEmpty {
      removeOverrideBlocks(in: &text, parser: &output)
    }
    return SubtitleDocument(
      format: .srt, text: text, cues: output.cues, diagnostics: output.diagnostics.list)
  }
}
