/// The cue text of SSA/ASS events as a `CueNode` tree.
///
/// Text outside override blocks is text. `\b`, `\i`, `\u` and `\c`/`\1c` change the look of
/// the text after them: bold, italic and underline become those elements, a primary colour
/// other than white (the players' default) a `font` element with `color="#rrggbb"`; an empty
/// value (`\b`, `\c`) and `\r` go back to the look the text starts with (its style's, given by
/// a leading block that starts with `\r`). Each change starts new elements, outermost first:
/// font, bold, italic, underline. Drawings (`\p1` … `\p0`) are left out; every other tag is
/// skipped (`droppedFeatures(_:)` names them), keeping the text.
enum SSACueText {
  /// The look of a run of text.
  struct Look: Equatable {
    var bold = false
    var italic = false
    var underline = false
    /// `#rrggbb`, or nil for white.
    var colour: String? = nil
  }

  /// The tree of one cue's stored text.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  static func tree(_ text: ArraySlice<UInt8>) -> [CueNode] {
    if !text.contains(0x7B) {
      return text.isEmpty ? [] : [.text(String(decoding: text, as: UTF8.self))]
    }
    var nodes: [CueNode] = []
    var look = Look()
    var base = Look()
    var pending: [UInt8] = []
    var drawing = false
    var firstBlock = true
    func flush(_ look: Look) {
      guard !pending.isEmpty else { return }
      var node = CueNode.text(String(decoding: pending, as: UTF8.self))
      pending.removeAll(keepingCapacity: true)
      if look.underline { node = .element(CueElement(kind: .underline, children: [node])) }
      if look.italic { node = .element(CueElement(kind: .italic, children: [node])) }
      if look.bold { node = .element(CueElement(kind: .bold, children: [node])) }
      if let colour = look.colour {
        node = .element(
          CueElement(
            kind: .font, attributes: [.init(name: "color", value: colour)], children: [node]))
      }
      nodes.append(node)
    }
    var i = text.startIndex
    // The next `}`, found once and reused while it is ahead: linear for unmatched `{`.
    var nextClose = text.startIndex - 1
    while i < text.endIndex {
      let c = text[i]
      if c == 0x7B, nextClose <= i {
        nextClose = text[(i + 1)...].firstIndex(of: 0x7D) ?? text.endIndex
      }
      if c == 0x7B, nextClose < text.endIndex {
        let close = nextClose
        var next = look
        var startsWithReset = false
        var firstTag = true
        SSATag.forEach(in: text, i + 1, close) { tag in
          apply(tag, to: &next, base: base, drawing: &drawing)
          if firstTag && tag.is("r") { startsWithReset = true }
          firstTag = false
        }
        if firstBlock && startsWithReset && i == text.startIndex { base = next }
        firstBlock = false
        if next != look {
          flush(look)
          look = next
        }
        i = close + 1
        continue
      }
      if !drawing { pending.append(c) }
      i += 1
    }
    flush(look)
    return nodes
  }

  /// Applies one tag to `look`.
  static func apply(_ tag: SSATag, to look: inout Look, base: Look, drawing: inout Bool) {
    func flag(_ current: Bool) -> Bool {
      guard let n = tag.integer else { return current }
      return n != 0 && (n == 1 || n >= 700)
    }
    if tag.is("b") {
      look.bold = tag.argument.isEmpty ? base.bold : flag(look.bold)
    } else if tag.is("i") {
      look.italic = tag.argument.isEmpty ? base.italic : flag(look.italic)
    } else if tag.is("u") {
      look.underline = tag.argument.isEmpty ? base.underline : flag(look.underline)
    } else if tag.is("c") || tag.is("1c") {
      look.colour =
        tag.argument.isEmpty
        ? base.colour
        : colour(tag.argument).map { $0.css }
          ?? look.colour
      if look.colour == "#ffffff" { look.colour = nil }
    } else if tag.is("r") {
      look = base
    } else if tag.is("p") {
      drawing = (tag.integer ?? 0) > 0
    }
  }

  /// An ASS colour (`&HBBGGRR&`, `&HAABBGGRR`, or a decimal number as SSA styles write it):
  /// CSS `#rrggbb` and ASS `BBGGRR` hex.
  static func colour(_ value: ArraySlice<UInt8>) -> (css: String, bgr: String)? {
    var text = SSAParser.trimmedString(value)
    var number: UInt64?
    if text.hasPrefix("&") { text.removeFirst() }
    if text.hasPrefix("H") || text.hasPrefix("h") {
      text.removeFirst()
      while text.hasSuffix("&") { text.removeLast() }
      number = text.isEmpty || text.count > 8 ? nil : UInt64(text, radix: 16)
    } else {
      number = Int64(text).map { UInt64(bitPattern: $0) & 0xFFFF_FFFF }
    }
    guard let number else { return nil }
    let r = number & 0xFF
    let g = (number >> 8) & 0xFF
    let b = (number >> 16) & 0xFF
    func hex(_ v: UInt64) -> String {
      let digits = Array("0123456789abcdef")
      return String([digits[Int(v >> 4)], digits[Int(v & 15)]])
    }
    return ("#" + hex(r) + hex(g) + hex(b), (hex(b) + hex(g) + hex(r)).uppercased())
  }

  /// What the neutral model cannot keep of a cue's override tags, one phrase per kind in the
  /// order first met: font names and sizes, strikeout, `\move` (its start is kept as the
  /// position), karaoke, animation (`\t`), drawings, and the other tags by name.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  static func droppedFeatures(_ text: ArraySlice<UInt8>) -> [String] {
    guard text.contains(0x7B) else { return [] }
    var found: [String] = []
    func note(_ phrase: String) { if !found.contains(phrase) { found.append(phrase) } }
    var i = text.startIndex
    var nextClose = text.startIndex - 1
    while i < text.endIndex {
      if text[i] == 0x7B, nextClose <= i {
        nextClose = text[(i + 1)...].firstIndex(of: 0x7D) ?? text.endIndex
      }
      guard text[i] == 0x7B, nextClose < text.endIndex else {
        i += 1
        continue
      }
      let close = nextClose
      SSATag.forEach(in: text, i + 1, close) { tag in
        let name = String(decoding: tag.name, as: UTF8.self)
        switch name {
        case "b", "i", "u", "c", "1c", "r", "an", "a", "pos": break
        case "fn": note("ASS font names (\\fn) dropped")
        case "fs": note("ASS font sizes (\\fs) dropped")
        case "s": if tag.integer != 0 { note("ASS strikeout (\\s) dropped") }
        case "move": note("ASS \\move animation dropped (its start kept as the position)")
        case "k", "K", "kf", "ko": note("ASS karaoke timing (\\k) dropped")
        case "t": note("ASS animation (\\t) dropped")
        case "p": if (tag.integer ?? 0) > 0 { note("ASS drawing (\\p) dropped") }
        default: note("ASS override \\\(name) dropped")
        }
      }
      i = close + 1
    }
    return found
  }
}

/// SSA/ASS as a `SubtitleSyntax`: a reader only (no `SubtitleWriterSyntax`), so documents are
/// not converted to or written in it (`SubtitleFormat.isWritable`).
enum SSASyntax: SubtitleSyntax {
  static var format: SubtitleFormat { .ass }

  static func cueTree(_ text: ArraySlice<UInt8>) -> [CueNode] { SSACueText.tree(text) }

  static func droppedFeatures(_ text: ArraySlice<UInt8>) -> [String] {
    SSACueText.droppedFeatures(text)
  }
}
