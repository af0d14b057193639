/// What one subtitle format plugs into the format-neutral model (besides its parser): its reader
/// of cue text into a `CueNode` tree and, when the format can be written
/// (`SubtitleWriterSyntax`), its writer and what it keeps of a document converted into it. The
/// model (`SubtitleDocument`: cues with times and a text that reads as a `CueNode` tree,
/// `CueSettings`, and the extras only some formats carry: WebVTT's header, regions, styles and
/// timestamp map) belongs to no format; `cueTree(of:)`, the writers and `converted(to:)` reach
/// each format through `SubtitleFormat.syntax` and `SubtitleFormat.writer`. A new format (TTML,
/// ASS) is a case of `SubtitleFormat` and one conformance: its parser and its cue-text reader,
/// plus a writer if it is written, plus the extras it adds to the model.
protocol SubtitleSyntax {
  /// The format this syntax reads.
  static var format: SubtitleFormat { get }

  /// The cue text tree of cue-text bytes in this format's markup.
  static func cueTree(_ text: ArraySlice<UInt8>) -> [CueNode]

  /// `cueTree(_:)` for a conversion: the tree, and how many elements of its last branch (from
  /// the top) the text left open at its end, so that a writer can leave them open too.
  static func cueTreeForConversion(_ text: ArraySlice<UInt8>) -> (nodes: [CueNode], openAtEnd: Int)

  /// What a conversion out of this format loses of a cue's text (markup the `CueNode` tree
  /// does not hold), one phrase per kind; each becomes a diagnostic of the conversion.
  static func droppedFeatures(_ text: ArraySlice<UInt8>) -> [String]
}

/// A format documents can be converted to and written in: its cue-text writer, its file writer
/// and what it keeps of a converted document.
protocol SubtitleWriterSyntax: SubtitleSyntax {
  /// Appends a cue text tree, read from any format, to `out` as this format's cue text (the
  /// format's cue-text writer), noting what it cannot express.
  ///
  /// - Parameters:
  ///   - nodes: The top-level nodes of one cue's text.
  ///   - openAtEnd: How many elements of the tree's last branch the source left open at the
  ///     end of its text (`cueTreeForConversion(_:)`); a writer may leave them open too.
  ///   - line: The cue's source line, for the notes.
  ///   - offset: The cue text's source byte offset, for the notes.
  ///   - out: Where the cue text goes.
  ///   - notes: Where the notes go.
  static func appendCueText(
    _ nodes: [CueNode], openAtEnd: Int, line: Int, offset: Int, to out: inout [UInt8],
    notes: inout DiagnosticLog)

  /// `document` (already in this format) written as a file of this format.
  static func serialize(_ document: SubtitleDocument) -> [UInt8]

  /// Converting `source` into this format: the document-level extras this format keeps are
  /// copied to `out`, and each one it drops is noted.
  static func adoptExtras(
    of source: SubtitleDocument, into out: inout SubtitleDocument, notes: inout DiagnosticLog)

  /// Converting one cue of `source` into this format: its text translated and appended to
  /// `out.text`, and the cue with its ranges in `out.text` and the settings this format can
  /// express (each approximation or loss noted).
  static func adoptCue(
    _ cue: Cue, of source: SubtitleDocument, into out: inout SubtitleDocument,
    notes: inout DiagnosticLog
  ) -> Cue
}

extension SubtitleSyntax {
  /// Nothing: the tree holds all of the format's markup.
  static func droppedFeatures(_ text: ArraySlice<UInt8>) -> [String] { [] }

  /// The tree, with no element counted as left open.
  static func cueTreeForConversion(
    _ text: ArraySlice<UInt8>
  ) -> (nodes: [CueNode], openAtEnd: Int) {
    (cueTree(text), 0)
  }
}

extension SubtitleFormat {
  /// The syntax that reads this format.
  var syntax: any SubtitleSyntax.Type {
    switch self {
    case .webVTT: WebVTTSyntax.self
    case .srt: SubRipSyntax.self
    case .ass: SSASyntax.self
    case .ttml: TTMLSyntax.self
    }
  }

  /// The syntax that writes this format; nil for a format that is read only (`.ass`, `.ttml`).
  var writer: (any SubtitleWriterSyntax.Type)? {
    switch self {
    case .webVTT: WebVTTSyntax.self
    case .srt: SubRipSyntax.self
    case .ass, .ttml: nil
    }
  }
}

/// WebVTT as a `SubtitleSyntax`.
enum WebVTTSyntax: SubtitleWriterSyntax {
  static var format: SubtitleFormat { .webVTT }

  static func cueTree(_ text: ArraySlice<UInt8>) -> [CueNode] { WebVTT.parseCueText(text) }

  static func serialize(_ document: SubtitleDocument) -> [UInt8] { document.serializedWebVTT() }

  static func adoptExtras(
    of source: SubtitleDocument, into out: inout SubtitleDocument, notes: inout DiagnosticLog
  ) {
    out.regions = source.regions
  }

  static func adoptCue(
    _ cue: Cue, of source: SubtitleDocument, into out: inout SubtitleDocument,
    notes: inout DiagnosticLog
  ) -> Cue {
    var new = cue
    let id = source.text[source.clamped(cue.idRange)]
    let idStart = out.text.count
    out.text.append(contentsOf: id)
    new.idRange = idStart..<out.text.count
    let start = out.text.count
    // Through the model: the source format's reader makes the tree, this format's writer
    // writes it.
    let tree = source.format.syntax.cueTreeForConversion(
      source.text[source.clamped(cue.textRange)])
    appendCueText(
      tree.nodes, openAtEnd: tree.openAtEnd, line: cue.line, offset: cue.textRange.lowerBound,
      to: &out.text, notes: &notes)
    new.textRange = start..<out.text.count
    return new
  }

  static func appendCueText(
    _ nodes: [CueNode], openAtEnd: Int, line: Int, offset: Int, to out: inout [UInt8],
    notes: inout DiagnosticLog
  ) {
    WebVTTCueTextWriter(line: line, offset: offset)
      .append(nodes, openAtEnd: openAtEnd, to: &out, notes: &notes)
  }
}

/// SubRip as a `SubtitleSyntax`. (Its members look like `WebVTTSyntax`'s: both answer the same
/// requirements, each for its own format.)
enum SubRipSyntax: SubtitleWriterSyntax {
  static var format: SubtitleFormat { .srt }

  static func cueTree(_ text: ArraySlice<UInt8>) -> [CueNode] { SubRip.parseCueText(text) }

  static func cueTreeForConversion(
    _ text: ArraySlice<UInt8>
  ) -> (nodes: [CueNode], openAtEnd: Int) {
    SubRip.cueTree(text)
  }

  static func serialize(_ document: SubtitleDocument) -> [UInt8] { document.serializedSRT() }

  static func appendCueText(
    _ nodes: [CueNode], openAtEnd: Int, line: Int, offset: Int, to out: inout [UInt8],
    notes: inout DiagnosticLog
  ) {
    SubRipCueTextWriter(line: line, offset: offset).append(nodes, to: &out, notes: &notes)
  }

  static func adoptExtras(
    of source: SubtitleDocument, into out: inout SubtitleDocument, notes: inout DiagnosticLog
  ) {
    if !source.header.isEmpty || source.timestampMap != nil {
      notes.add(line: 1, offset: 0, "WebVTT header dropped (not in SRT)")
    }
    if !source.styles.isEmpty {
      notes.add(line: 1, offset: 0, "\(source.styles.count) STYLE block(s) dropped")
    }
    if !source.regions.isEmpty {
      notes.add(line: 1, offset: 0, "\(source.regions.count) REGION block(s) dropped")
    }
  }

  static func adoptCue(
    _ cue: Cue, of source: SubtitleDocument, into out: inout SubtitleDocument,
    notes: inout DiagnosticLog
  ) -> Cue {
    var new = cue
    new.idRange = out.text.count..<out.text.count
    let start = out.text.count
    // Through the model: the source format's reader makes the tree, this format's writer
    // writes it (closing every element: SRT readers differ on tags left open).
    let nodes = source.format.syntax.cueTree(source.text[source.clamped(cue.textRange)])
    appendCueText(
      nodes, openAtEnd: 0, line: cue.line, offset: cue.textRange.lowerBound, to: &out.text,
      notes: &notes)
    new.textRange = start..<out.text.count
    // SRT positions a cue by an ASS alignment only: the nearest one stands for the settings.
    let alignment = SubRip.assAlignment(for: cue.settings)
    let expressible = SubRip.settings(forASSAlignment: alignment)
    var comparable = cue.settings
    comparable.region = nil
    if comparable != expressible {
      notes.add(
        line: cue.line, offset: cue.textRange.lowerBound,
        "cue settings\(source.webVTTSettings(cue.settings)) approximated as {\\an\(alignment)}")
    } else if cue.settings.region != nil {
      notes.add(line: cue.line, offset: cue.textRange.lowerBound, "cue region dropped")
    }
    new.settings = expressible
    return new
  }
}
