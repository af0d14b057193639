/// The WebVTT writer of cue text trees: a `CueNode` tree, whatever format it was read from,
/// written as WebVTT cue text. A document converted to WebVTT has its cue texts read into trees
/// by the source format's own reader (`SubtitleSyntax.cueTreeForConversion(_:)`) and written
/// back by this writer.
struct WebVTTCueTextWriter {
  /// Source line and offset of the cue, for the conversion's diagnostics.
  let line: Int
  let offset: Int

  /// Appends `nodes` to `out` as WebVTT cue text.
  ///
  /// Text escapes `&`, `<` and `>`; `i`, `b`, `u`, `c`, `v`, `lang`, `ruby` and `rt` are written
  /// with their classes and annotation; timestamps as `<hh:mm:ss.ttt>`. A SubRip `font` becomes
  /// the WebVTT default colour class of its colour (`<c.red>`) or, without one, its children
  /// alone; the attributes WebVTT cannot express are noted.
  ///
  /// - Parameters:
  ///   - nodes: The top-level nodes of one cue's text.
  ///   - openAtEnd: How many elements of the tree's last branch, from the top, the source left
  ///     open at the end of the text: they are written without end tags, as they were read (a
  ///     WebVTT parser closes them there too).
  ///   - out: Where the cue text goes.
  ///   - notes: Where the notes go.
  /// - Complexity: O(*n*) in the size of the tree.
  func append(
    _ nodes: [CueNode], openAtEnd: Int, to out: inout [UInt8], notes: inout DiagnosticLog
  ) {
    for (index, node) in nodes.enumerated() {
      switch node {
      case .text(let text):
        Self.appendEscaped(text, to: &out)
      case .timestamp(let seconds):
        let limit = Double(VTTSyntax.maxMilliseconds)
        let millis = Int64(min(max(0, (seconds * 1000).rounded()), limit))
        out.append(contentsOf: "<\(VTTSyntax.format(milliseconds: millis))>".utf8)
      case .element(let element):
        // The recursion is as deep as the tree: at most `WebVTT.maximumCueTextDepth`.
        let leftOpen = openAtEnd > 0 && index == nodes.count - 1
        let (start, end) = tags(element, notes: &notes)
        out.append(contentsOf: start.utf8)
        append(element.children, openAtEnd: leftOpen ? openAtEnd - 1 : 0, to: &out, notes: &notes)
        if !leftOpen { out.append(contentsOf: end.utf8) }
      }
    }
  }

  /// The WebVTT start and end tags of `element` (both empty for a `font` without a colour
  /// class).
  private func tags(_ element: CueElement, notes: inout DiagnosticLog) -> (String, String) {
    guard element.kind == .font else {
      let name = element.kind.rawValue
      var start = "<" + name
      for name in element.classes { start += "." + name }
      if let annotation = element.annotation, element.kind == .voice || element.kind == .language {
        start += " " + Self.escapedAnnotation(annotation)
      }
      return (start + ">", "</\(name)>")
    }
    let attributes = element.attributes
    let colour = attributes.first { $0.name == "color" }?.value
    if attributes.contains(where: { $0.name == "face" || $0.name == "size" }) {
      notes.add(line: line, offset: offset, "<font> face/size dropped (not in WebVTT)")
    }
    if let colour, let cls = Self.colourClass(colour) {
      return ("<c.\(cls)>", "</c>")
    }
    if let colour {
      notes.add(
        line: line, offset: offset,
        "<font color=\"\(colour)\"> has no WebVTT colour class; dropped")
    }
    return ("", "")
  }

  /// Appends `text` as WebVTT cue text: `&`, `<` and `>` escaped, every other byte as it is.
  private static func appendEscaped(_ text: String, to out: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes in
      // Runs without anything to escape are copied whole.
      var copied = 0
      for (i, byte) in bytes.enumerated() where byte == 0x26 || byte == 0x3C || byte == 0x3E {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
        switch byte {
        case 0x26: out.append(contentsOf: "&amp;".utf8)
        case 0x3C: out.append(contentsOf: "&lt;".utf8)
        default: out.append(contentsOf: "&gt;".utf8)
        }
        copied = i + 1
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
    }
  }

  /// An annotation as WebVTT start-tag text: `&` and `>` escaped, which would otherwise end or
  /// change it.
  private static func escapedAnnotation(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case ">": out += "&gt;"
      default: out.append(character)
      }
    }
    return out
  }

  /// The default colour class for an SRT `color` value (a name or `#rrggbb`), or `nil`.
  static func colourClass(_ value: String) -> String? {
    var v = value.lowercased()
    if v == "aqua" { v = "cyan" }
    if v == "fuchsia" { v = "magenta" }
    if v.hasPrefix("#") { v.removeFirst() }
    for entry in webVTTColourClasses where entry.name == v || entry.rgb == v { return entry.name }
    return nil
  }
}
