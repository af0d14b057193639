/// The SRT writer of cue text trees: a `CueNode` tree, whatever format it was read from, written
/// as SRT cue text. A document converted to SRT has its cue texts read into trees by the source
/// format's own reader (`SubtitleSyntax.cueTree(_:)`) and written by this writer, as
/// `WebVTTCueTextWriter` does for WebVTT.
struct SubRipCueTextWriter {
  /// Source line and offset of the cue, for the conversion's diagnostics.
  let line: Int
  let offset: Int

  /// Markup SRT cannot express, noted once per cue in the order first met.
  private struct Dropped {
    var order: [String] = []
    mutating func insert(_ kind: String) {
      if !order.contains(kind) { order.append(kind) }
    }
  }

  /// Appends `nodes` to `out` as SRT cue text.
  ///
  /// `i`, `b` and `u` become `<i>`, `<b>`, `<u>`; a class span with a WebVTT default colour
  /// class (`<c.red>`) becomes `<font color="red">`; a `font` element keeps its attributes.
  /// Voice, language, ruby and ruby-text spans and other class spans keep their text, without
  /// their markup; timestamps are dropped. Every loss is noted once per cue.
  ///
  /// Text is written as it is, except where an SRT reader would read it differently: a carriage
  /// return (a line end in SRT) becomes a space, other control characters but tab and line
  /// feed become U+FFFD, and a `<` that would open an SRT tag (text such as `<i>` or `<x>`, from
  /// WebVTT's `&lt;i&gt;`) gets a WORD JOINER (U+2060, invisible) after it, as SRT has no
  /// escapes: the written text then reads back as text. (Override blocks, blank lines and
  /// timing lines in text are disarmed by the document writer, `serializedSRT()`.)
  ///
  /// - Parameters:
  ///   - nodes: The top-level nodes of one cue's text.
  ///   - out: Where the cue text goes.
  ///   - notes: Where the notes go.
  /// - Complexity: O(*n*) in the size of the tree and of the written text.
  func append(_ nodes: [CueNode], to out: inout [UInt8], notes: inout DiagnosticLog) {
    let start = out.count
    var textBrackets: [Int] = []
    var dropped = Dropped()
    write(nodes, to: &out, textBrackets: &textBrackets, dropped: &dropped)
    if !textBrackets.isEmpty {
      Self.disarmTags(in: &out, from: start, textBrackets: textBrackets)
    }
    for kind in dropped.order {
      switch kind {
      case "timestamp": notes.add(line: line, offset: offset, "timestamp tags dropped (not in SRT)")
      case "class": notes.add(line: line, offset: offset, "cue classes dropped (not in SRT)")
      case "font": notes.add(line: line, offset: offset, "<font> attributes dropped (unwritable)")
      case "rt":
        notes.add(line: line, offset: offset, "<rt> written in parentheses (no ruby in SRT)")
      default: notes.add(line: line, offset: offset, "<\(kind)> markup dropped (not in SRT)")
      }
    }
  }

  /// Writes `nodes`; `textBrackets` collects the offsets of the `<` written from text.
  private func write(
    _ nodes: [CueNode], to out: inout [UInt8], textBrackets: inout [Int], dropped: inout Dropped
  ) {
    for node in nodes {
      switch node {
      case .text(let text):
        Self.appendText(text, to: &out, textBrackets: &textBrackets)
      case .timestamp:
        dropped.insert("timestamp")
      case .element(let element):
        // The recursion is as deep as the tree: at most `WebVTT.maximumCueTextDepth`.
        let (start, end) = tags(element, dropped: &dropped)
        out.append(contentsOf: start.utf8)
        write(element.children, to: &out, textBrackets: &textBrackets, dropped: &dropped)
        out.append(contentsOf: end.utf8)
      }
    }
  }

  /// The SRT start and end tags of `element` (both empty for markup SRT does not have).
  private func tags(_ element: CueElement, dropped: inout Dropped) -> (String, String) {
    switch element.kind {
    case .italic, .bold, .underline:
      if !element.classes.isEmpty { dropped.insert("class") }
      let name = element.kind.rawValue
      return ("<\(name)>", "</\(name)>")
    case .class:
      let colour = element.classes.first { WebVTTCueTextWriter.colourClass($0) == $0 }
      if element.classes.count > (colour == nil ? 0 : 1) { dropped.insert("class") }
      guard let colour else { return ("", "") }
      return ("<font color=\"\(colour)\">", "</font>")
    case .font:
      var start = "<font"
      for attribute in element.attributes {
        let value = attribute.value
        let hasDouble = value.contains("\"")
        guard !(hasDouble && value.contains("'")), !value.contains(">"), !value.contains("<"),
          !attribute.name.contains(where: { $0 == "<" || $0 == ">" || $0 == "=" })
        else {
          dropped.insert("font")
          continue
        }
        let quote = hasDouble ? "'" : "\""
        start += " \(attribute.name)=\(quote)\(value)\(quote)"
      }
      return (start + ">", "</font>")
    case .rubyText:
      // SubRip has no ruby: the annotation follows its base in parentheses, as plain text
      // gives ruby.
      dropped.insert(element.kind.rawValue)
      return ("(", ")")
    case .voice, .language, .ruby:
      dropped.insert(element.kind.rawValue)
      return ("", "")
    }
  }

  /// Appends text: a carriage return as a space, other control characters but tab and line
  /// feed as U+FFFD, every other byte as it is; the offset of each `<` goes to `textBrackets`.
  private static func appendText(_ text: String, to out: inout [UInt8], textBrackets: inout [Int]) {
    var text = text
    text.withUTF8 { bytes in
      // Runs of ordinary bytes are copied whole.
      var copied = 0
      var i = 0
      while i < bytes.count {
        let byte = bytes[i]
        let c1 = byte == 0xC2 && i + 1 < bytes.count && bytes[i + 1] >= 0x80 && bytes[i + 1] < 0xA0
        guard byte == 0x3C || (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F || c1
        else {
          i += 1
          continue
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
        let width = c1 ? 2 : 1
        switch byte {
        case 0x3C:
          textBrackets.append(out.count)
          out.append(byte)
        case 0x0D: out.append(0x20)
        default: out.append(contentsOf: [0xEF, 0xBF, 0xBD])
        }
        i += width
        copied = i
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
    }
  }

  /// Puts a WORD JOINER after each `<` of `textBrackets` that an SRT reader would take as the
  /// start of a tag (`SubRip.srtTag(_:)`, or one it removes or reads as a line break,
  /// `SubRip.otherTag(_:)`): a `>` follows before any other `<`.
  private static func disarmTags(in out: inout [UInt8], from start: Int, textBrackets: [Int]) {
    var armed: [Int] = []
    // The next `>` and `<`, found once and reused while they are ahead (linear for many
    // unmatched brackets), as the reader finds them.
    var nextClose = start - 1
    var nextOpen = start - 1
    for at in textBrackets {
      if nextClose <= at { nextClose = out[(at + 1)...].firstIndex(of: 0x3E) ?? out.count }
      if nextOpen <= at { nextOpen = out[(at + 1)...].firstIndex(of: 0x3C) ?? out.count }
      guard nextClose < out.count, nextClose < nextOpen else { continue }
      let tag = String(decoding: out[(at + 1)..<nextClose], as: UTF8.self)
      if SubRip.srtTag(tag) != nil || SubRip.otherTag(out[(at + 1)..<nextClose]) != nil {
        armed.append(at + 1)
      }
    }
    insertWordJoiners(at: armed, in: &out, from: start)
  }
}
