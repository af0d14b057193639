extension SubRip {
  /// Parses SRT cue markup into the same tree WebVTT cue text gives: `<i>`, `<b>`, `<u>` (any
  /// case) become those elements, `<font …>` a `font` element with its attributes (names
  /// lowercased, quotes removed, source order). Anything else, including unknown or unclosed
  /// tags, is text, as players show it; an end tag closes the innermost open element of its
  /// kind and the ones inside it, and one without an open element is ignored.
  ///
  /// - Parameter bytes: One cue's text as UTF-8 (invalid sequences read as U+FFFD).
  /// - Returns: The top-level nodes.
  /// - Complexity: O(*n*) in the length of the text.
  public static func parseCueText(_ bytes: ArraySlice<UInt8>) -> [CueNode] {
    cueTree(bytes).nodes
  }

  /// `parseCueText(_:)`, and how many elements were still open at the end of the text (closed
  /// there by the parser): the outermost `openAtEnd` elements of the tree's last branch, which
  /// the source wrote without end tags.
  static func cueTree(_ bytes: ArraySlice<UInt8>) -> (nodes: [CueNode], openAtEnd: Int) {
    // Most cues have no markup: one text node, without the parser's state.
    if !bytes.contains(0x3C) {
      return (bytes.isEmpty ? [] : [.text(String(decoding: bytes, as: UTF8.self))], 0)
    }
    var stack: [CueElement] = [CueElement(kind: .class)]
    // Text since the last element boundary. Tags that change nothing (an end tag without an
    // open element, a start tag past the depth cap) leave it pending, so adjacent text is one
    // node without joining strings again and again.
    var pending: [UInt8] = []

    func flushText() {
      guard !pending.isEmpty else { return }
      stack[stack.count - 1].children.append(.text(String(decoding: pending, as: UTF8.self)))
      pending.removeAll(keepingCapacity: true)
    }

    // How many elements of each kind are open: an end tag without one is ignored at once.
    var open: [CueElement.Kind: Int] = [:]

    func close() {
      let done = stack.removeLast()
      open[done.kind, default: 0] -= 1
      stack[stack.count - 1].children.append(.element(done))
    }

    var i = bytes.startIndex
    // The next `>` and `<`, found once and reused while they are ahead: a tag is `<` … `>`
    // without another `<`, and unmatched brackets keep the scan linear.
    var nextClose = bytes.startIndex - 1
    var nextOpen = bytes.startIndex - 1
    while i < bytes.endIndex {
      let c = bytes[i]
      if c == 0x3C {
        if nextClose <= i { nextClose = bytes[(i + 1)...].firstIndex(of: 0x3E) ?? bytes.endIndex }
        if nextOpen <= i { nextOpen = bytes[(i + 1)...].firstIndex(of: 0x3C) ?? bytes.endIndex }
      }
      if c == 0x3C, nextClose < bytes.endIndex, nextOpen > nextClose {
        let end = nextClose
        let tag = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
        if let (kind, closing, attributes) = srtTag(tag) {
          if closing {
            // The elements looked through on the way are closed too: each is passed once.
            if open[kind, default: 0] > 0,
              let index = stack.indices.dropFirst().last(where: { stack[$0].kind == kind })
            {
              flushText()
              while stack.count > index { close() }
            }
          } else if stack.count <= WebVTT.maximumCueTextDepth {
            flushText()
            stack.append(CueElement(kind: kind, attributes: attributes))
            open[kind, default: 0] += 1
          }
          i = end + 1
          continue
        }
      }
      pending.append(c)
      i += 1
    }
    flushText()
    let openAtEnd = stack.count - 1
    while stack.count > 1 { close() }
    return (stack[0].children, openAtEnd)
  }

  /// Recognises `i`, `b`, `u`, `font …` and their end tags.
  static func srtTag(_ tag: String) -> (CueElement.Kind, Bool, [CueElement.Attribute])? {
    let closing = tag.hasPrefix("/")
    let body = closing ? tag.dropFirst() : Substring(tag)
    let name = body.prefix { !$0.isWhitespace && $0 != "/" }.lowercased()
    let rest = body.dropFirst(name.count)
    switch name {
    case "i", "b", "u":
      guard rest.allSatisfy({ $0.isWhitespace }) else { return nil }
      return (name == "i" ? .italic : name == "b" ? .bold : .underline, closing, [])
    case "font":
      if closing { return (.font, true, []) }
      guard rest.isEmpty || rest.first?.isWhitespace == true else { return nil }
      return (.font, false, attributes(rest))
    default:
      return nil
    }
  }

  /// `name=value`, `name="value"`, `name='value'` pairs.
  static func attributes(_ text: Substring) -> [CueElement.Attribute] {
    var out: [CueElement.Attribute] = []
    var rest = text[...]
    while true {
      rest = rest.drop { $0.isWhitespace || $0 == "/" }
      guard !rest.isEmpty else { break }
      let name = rest.prefix { !$0.isWhitespace && $0 != "=" }
      rest = rest.dropFirst(name.count).drop { $0.isWhitespace }
      var value = ""
      if rest.first == "=" {
        rest = rest.dropFirst().drop { $0.isWhitespace }
        if let quote = rest.first, quote == "\"" || quote == "'" {
          let inner = rest.dropFirst().prefix { $0 != quote }
          value = String(inner)
          rest = rest.dropFirst(inner.count + 1)
          if rest.first == quote { rest = rest.dropFirst() }
        } else {
          let inner = rest.prefix { !$0.isWhitespace }
          value = String(inner)
          rest = rest.dropFirst(inner.count)
        }
      }
      if !name.isEmpty { out.append(CueElement.Attribute(name: name.lowercased(), value: value)) }
    }
    return out
  }
}
