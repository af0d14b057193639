/// Converting documents between SRT and WebVTT, and moving them in time.
extension SubtitleDocument {
  /// The document rewritten for `target`: cue markup translated, settings kept where the target
  /// can express them, and a `Diagnostic` (appended after the parse diagnostics) for everything
  /// it cannot.
  ///
  /// SRT to WebVTT: `<i>`, `<b>`, `<u>` stay; `<font color=…>` becomes the WebVTT default
  /// colour class of the same colour (`<c.red>`; white, lime, cyan, red, yellow, magenta, blue,
  /// black, by name or `#rrggbb`) or is dropped; other font attributes are dropped; `&`, `<` and
  /// `>` that are not markup are escaped. Settings from `{\anN}` carry over.
  ///
  /// WebVTT to SRT: the cue text is read by the WebVTT cue text parsing rules and the tree
  /// written as SRT (`SubRipCueTextWriter`): `<i>`, `<b>`, `<u>` stay; `<c.colour>` with a
  /// default colour class becomes `<font color="colour">`; voice, language, ruby and timestamp
  /// tags, other classes, regions, styles and the header are dropped; character references are
  /// decoded; end tags the parser ignores are dropped and elements it closes at the end of the
  /// text get end tags; text that would read as SRT markup is kept as text. Settings become the
  /// nearest `{\anN}` alignment; cue identifiers become sequence numbers.
  ///
  /// To WebVTT, the cues keep their order in `cues` (position for position with the source's);
  /// when they are not in order of start time, a diagnostic says so, and `webVTT()` writes them
  /// in that order (ties in document order), as WebVTT requires.
  ///
  /// SSA/ASS to either: the cue text tree (`SubStationAlpha`) is written by the target's
  /// writer; the tags the tree does not hold (`\fn`, `\fs`, `\move`, karaoke, …) are noted
  /// per cue. A target that is not writable (`.ass`) returns `self`, with a diagnostic.
  ///
  /// - Parameter target: The format to convert to; the same format returns `self`.
  /// - Returns: A document with its own text buffer and `format == target`.
  /// - Complexity: O(*n*) in the size of the text.
  public func converted(to target: SubtitleFormat) -> SubtitleDocument {
    guard target != format else { return self }
    guard let syntax = target.writer else {
      var log = DiagnosticLog(diagnostics)
      log.add(line: 1, offset: 0, "conversion to \(target.rawValue) is not supported; unchanged")
      var same = self
      same.diagnostics = log.list
      return same
    }
    var out = SubtitleDocument(format: target, text: [], diagnostics: diagnostics)
    out.text.reserveCapacity(text.count + text.count / 8)
    out.cues.reserveCapacity(cues.count)
    var notes = DiagnosticLog()
    // Through the model: the target keeps the extras and settings it can express.
    let source = format.syntax
    syntax.adoptExtras(of: self, into: &out, notes: &notes)
    for cue in cues {
      for phrase in source.droppedFeatures(text[clamped(cue.textRange)]) {
        notes.add(line: cue.line, offset: cue.textRange.lowerBound, phrase)
      }
      let adopted = syntax.adoptCue(cue, of: self, into: &out, notes: &notes)
      out.cues.append(adopted)
    }
    if target == .webVTT { Self.startOrderNote(out.cues, into: &notes) }
    var all = DiagnosticLog(diagnostics)
    all.append(contentsOf: notes)
    out.diagnostics = all.list
    return out
  }

  /// The document with every cue moved by `seconds` (times rounded to the millisecond). A time
  /// that would fall before 0 becomes 0, and one past the largest timestamp the parsers accept
  /// (2^53 ms, about 285,000 years) becomes that, each with a diagnostic.
  ///
  /// - Parameter seconds: The shift; negative moves cues earlier.
  /// - Returns: The shifted document; text and other parts are unchanged.
  /// - Complexity: O(*c*) in the number of cues.
  public func shifted(by seconds: Double) -> SubtitleDocument {
    var out = self
    guard seconds.isFinite else { return out }
    let largest = Double(VTTSyntax.maxMilliseconds) / 1000
    var log = DiagnosticLog(diagnostics)
    for i in out.cues.indices {
      var start = ((out.cues[i].startTime + seconds) * 1000).rounded() / 1000
      var end = ((out.cues[i].endTime + seconds) * 1000).rounded() / 1000
      func note(_ reason: String) {
        log.add(line: out.cues[i].line, offset: out.cues[i].textRange.lowerBound, reason)
      }
      if start < 0 {
        note(
          end <= 0
            ? "cue ends before 0 after the shift; clamped to 0 --> 0"
            : "cue starts before 0 after the shift; start clamped to 0")
        start = 0
        end = max(0, end)
      } else if end < 0 {
        // A cue written to end before it starts.
        note("cue ends before 0 after the shift; end clamped to 0")
        end = 0
      }
      if start > largest || end > largest {
        note("cue moved past the largest timestamp by the shift; clamped to it")
        start = min(start, largest)
        end = min(end, largest)
      }
      out.cues[i].startTime = start
      out.cues[i].endTime = end
    }
    out.diagnostics = log.list
    return out
  }
}

/// The WebVTT default colour classes (WebVTT, "Default text colour") and their sRGB values.
let webVTTColourClasses: [(name: String, rgb: String)] = [
  ("white", "ffffff"), ("lime", "00ff00"), ("cyan", "00ffff"), ("red", "ff0000"),
  ("yellow", "ffff00"), ("magenta", "ff00ff"), ("blue", "0000ff"), ("black", "000000"),
]
