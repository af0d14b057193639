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
  /// WebVTT to SRT: `<i>`, `<b>`, `<u>` stay; `<c.colour>` with a default colour class becomes
  /// `<font color="colour">`; voice, language, ruby and timestamp tags, other classes, regions,
  /// styles and the header are dropped; character references are decoded. Settings become the
  /// nearest `{\anN}` alignment; cue identifiers become sequence numbers.
  ///
  /// - Parameter target: The format to convert to; the same format returns `self`.
  /// - Returns: A document with its own text buffer and `format == target`.
  /// - Complexity: O(*n*) in the size of the text.
  public func converted(to target: SubtitleFormat) -> SubtitleDocument {
    guard target != format else { return self }
    var out = SubtitleDocument(format: target, text: [], diagnostics: diagnostics)
    out.text.reserveCapacity(text.count + text.count / 8)
    out.cues.reserveCapacity(cues.count)
    var notes = DiagnosticLog()
    // Through the model: the target keeps the extras and settings it can express.
    let syntax = target.syntax
    syntax.adoptExtras(of: self, into: &out, notes: &notes)
    for cue in cues {
      let adopted = syntax.adoptCue(cue, of: self, into: &out, notes: &notes)
      out.cues.append(adopted)
    }
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

/// Translates the markup of one WebVTT cue's text into SRT markup.
///
/// WebVTT to SRT does not go through the model (the WebVTT cue text parser's tree and an SRT
/// writer of trees) because that would change what it writes for some input: this scan keeps
/// end tags the parser ignores (`</i>` while `<b>` is the current element; `</i >`), notes
/// classes that are empty (`<c.>`), timestamp tags that are not timestamps and `<rt>` outside
/// `<ruby>`, keeps tags nested deeper than `WebVTT.maximumCueTextDepth`, and tells a control
/// character written as a character reference (which it replaces) from a literal one (which it
/// keeps). Every other conversion writes a tree.
struct MarkupConverter {
  /// Source line and offset of the cue, for diagnostics.
  let line: Int
  let offset: Int

  func note(_ notes: inout DiagnosticLog, _ reason: @autoclosure () -> String) {
    notes.add(line: line, offset: offset, reason())
  }

  func webVTTToSRT(_ src: ArraySlice<UInt8>, into out: inout [UInt8], notes: inout DiagnosticLog) {
    var classes: [Bool] = []
    var dropped: [String] = []
    var i = src.startIndex
    while i < src.endIndex {
      let c = src[i]
      if c == 0x3C {
        let close = src[(i + 1)...].firstIndex(of: 0x3E) ?? src.endIndex
        let tag = String(decoding: src[(i + 1)..<close], as: UTF8.self)
        i = min(src.endIndex, close + 1)
        let closing = tag.hasPrefix("/")
        let body = closing ? tag.dropFirst() : Substring(tag)
        if body.first?.isNumber == true {
          if !dropped.contains("timestamp") { dropped.append("timestamp") }
          continue
        }
        let head = body.prefix { $0 != " " && $0 != "\t" && $0 != "\n" }
        let parts = head.split(separator: ".", omittingEmptySubsequences: false)
        let name = parts.first.map(String.init) ?? ""
        let tagClasses = parts.dropFirst().map(String.init)
        switch name {
        case "i", "b", "u":
          out.append(contentsOf: (closing ? "</\(name)>" : "<\(name)>").utf8)
          if !tagClasses.isEmpty && !dropped.contains("class") { dropped.append("class") }
        case "c":
          if closing {
            if classes.popLast() == true { out.append(contentsOf: "</font>".utf8) }
          } else if let colour = tagClasses.first(where: {
            WebVTTCueTextWriter.colourClass($0) == $0
          }) {
            out.append(contentsOf: "<font color=\"\(colour)\">".utf8)
            classes.append(true)
            if tagClasses.count > 1 && !dropped.contains("class") { dropped.append("class") }
          } else {
            if !tagClasses.isEmpty && !dropped.contains("class") { dropped.append("class") }
            classes.append(false)
          }
        case "v", "lang", "ruby", "rt":
          if !closing && !dropped.contains(name) { dropped.append(name) }
        default:
          break
        }
        continue
      }
      if c == 0x26, let (scalars, next) = characterReference(src, i) {
        for scalar in scalars { appendUTF8(scalar, to: &out) }
        i = next
        continue
      }
      out.append(c)
      i += 1
    }
    for kind in dropped {
      switch kind {
      case "timestamp": note(&notes, "timestamp tags dropped (not in SRT)")
      case "class": note(&notes, "cue classes dropped (not in SRT)")
      default: note(&notes, "<\(kind)> markup dropped (not in SRT)")
      }
    }
  }

  /// The character reference at `i` (`src[i]` is `&`), decoded as the WebVTT cue-text parser
  /// does (every HTML named reference, numeric references with HTML's replacements): its
  /// scalars, fit for SRT text, and the index after it; nil when there is none. A carriage
  /// return becomes a space (as CSS renders it; written raw, an SRT reader would end the line
  /// there) and other control characters but tab and line feed become U+FFFD.
  private func characterReference(_ src: ArraySlice<UInt8>, _ i: Int) -> ([UInt32], Int)? {
    let found = src.withUnsafeBufferPointer { p in
      HTMLEntities.consume(p, at: i - src.startIndex + 1, end: p.count)
    }
    guard let found else { return nil }
    let scalars = [found.scalars.0, found.scalars.1].filter { $0 != 0 }.map { scalar -> UInt32 in
      switch scalar {
      case 0x0D: return 0x20
      case 0x09, 0x0A: return scalar
      case 0..<0x20, 0x7F..<0xA0: return 0xFFFD
      default: return scalar
      }
    }
    return (scalars, src.startIndex + found.end)
  }
}
