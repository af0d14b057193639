extension SubRip {
  /// Parses SRT cue markup into the same tree WebVTT cue text gives: `<i>`, `<b>`, `<u>` (any
  /// case) become those elements, `<font …>` a `font` element with its attributes (names
  /// lowercased, quotes removed, source order); `<br>` (`<br/>`, any case) a line break. Other
  /// tag-shaped sequences (`<name …>`, `</name>`, `<name/>`, the name an ASCII letter then
  /// letters, digits or `-`) are removed and their content kept, as FFmpeg's and Media3's SRT
  /// decoders do; a `<` that starts no such tag (`x < y`, `<3`) and unclosed tags are text.
  /// An end tag closes the innermost open element of its kind and the ones inside it, and one
  /// without an open element is ignored.
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
        switch otherTag(bytes[(i + 1)..<end]) {
        case .lineBreak:
          pending.append(0x0A)
          i = end + 1
          continue
        case .unknown:
          i = end + 1
          continue
        case nil:
          break
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

  /// What a tag-shaped sequence that `srtTag(_:)` does not map stands for.
  enum OtherTag {
    /// `<br>`, `<br/>`, `<br …>` in any case: a line break.
    case lineBreak
    /// Any other tag: removed, its content kept.
    case unknown
  }

  /// Reads the bytes between `<` and `>` as a tag that `srtTag(_:)` did not map: `name`,
  /// `name/`, `name …` or `/name` (spaces allowed before the `>` of an end tag), where the
  /// name is an ASCII letter followed by ASCII letters, digits or `-`. Anything else (`<3`,
  /// `x < y > z`, `<c.yellow>`, a tag across lines) is nil: text.
  static func otherTag(_ tag: ArraySlice<UInt8>) -> OtherTag? {
    var k = tag.startIndex
    let closing = k < tag.endIndex && tag[k] == 0x2F
    if closing { k += 1 }
    func isLetter(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }
    guard k < tag.endIndex, isLetter(tag[k]) else { return nil }
    let nameStart = k
    while k < tag.endIndex, isLetter(tag[k]) || tag[k] &- 0x30 < 10 || tag[k] == 0x2D { k += 1 }
    let nameEnd = k
    if k < tag.endIndex {
      let c = tag[k]
      // A tag is on one line: `<` and `>` on different lines are text.
      guard !tag[k...].contains(0x0A) else { return nil }
      let space = c == 0x20 || c == 0x09
      if closing {
        // `</name >`: nothing but spaces after the name.
        guard tag[k...].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return nil }
      } else if c == 0x2F {
        guard k + 1 == tag.endIndex else { return nil }
      } else if !space {
        return nil
      }
    }
    let br =
      !closing && nameEnd - nameStart == 2 && tag[nameStart] | 0x20 == 0x62
      && tag[nameStart + 1] | 0x20 == 0x72
    return br ? .lineBreak : .unknown
  }

  /// Recognises `i`, `b`, `u` (with attributes or not), `font …` and their end tags.
  static func srtTag(_ tag: String) -> (CueElement.Kind, Bool, [CueElement.Attribute])? {
    let closing = tag.hasPrefix("/")
    let body = closing ? tag.dropFirst() : Substring(tag)
    let name = body.prefix { !$0.isWhitespace && $0 != "/" }.lowercased()
    let rest = body.dropFirst(name.count)
    switch name {
    case "i", "b", "u":
      // A start tag's attributes (`<i class="x">`, as HTML-minded writers add them) are
      // ignored, as FFmpeg ignores them; an end tag has none.
      guard
        closing
          ? rest.allSatisfy({ $0.isWhitespace })
          : rest.isEmpty || ((rest.first == " " || rest.first == "\t") && !rest.contains("\n"))
      else { return nil }
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
