/// Writes what one TTML `p` shows at one time as WebVTT cue text: text escaped, `br` as a line
/// break, styles as `i`, `b`, `u`, colour class spans and `lang` spans, white space handled as
/// `xml:space` says (TTML 2, 7.2.3: runs collapsed to one space, spaces at the start and end
/// of each line removed).
struct TTMLCueText {
  private enum Token {
    case open(String, close: String)
    case close(String)
    case text(String, preserve: Bool)
    case lineBreak
  }

  private var tokens: [Token] = []

  /// The one region whose content is written, or nil for all.
  private var onlyRegion: String? = nil

  /// Adds the content of `paragraph` active at `time`, its own style being `style`; with
  /// `only`, the text of elements in that region alone.
  mutating func paragraph(
    _ paragraph: TTMLBuilder.Timed, at time: Double, style: TTMLBuilder.Style,
    only: String? = nil
  ) {
    onlyRegion = only
    span(paragraph, style: style, parentStyle: [:], parentLanguage: paragraph.language, at: time)
  }

  /// Adds the content of `node` active at `time`, its own style being `style` (before its
  /// `set` children).
  private mutating func span(
    _ node: TTMLBuilder.Timed, style ownStyle: TTMLBuilder.Style,
    parentStyle: TTMLBuilder.Style, parentLanguage: String, at time: Double
  ) {
    // The `set` children active now change the element's own style.
    var style = ownStyle
    for content in node.children {
      guard case .element(let child) = content, child.element.name == "set",
        child.begin <= time, time < child.end
      else { continue }
      for attribute in child.element.attributes where TTML.isStyling(attribute.namespace) {
        style[attribute.name] = attribute.value.trimmingASCIISpaces
      }
    }
    // Ruby (IMSC 1.1): a container with a base becomes WebVTT's `ruby`, its text `rt`
    // after the base, whatever their order; an annotation without a base or outside a
    // container is dropped, and so are the delimiters (for renderers without ruby, which
    // WebVTT's are not).
    let ruby = style["ruby"]
    if style["display"] == "none" || ruby == "delimiter" { return }
    if ruby == "text", !["container", "textContainer"].contains(parentStyle["ruby"] ?? "") {
      return
    }
    // Hidden text shows nothing, but a descendant may make itself visible again.
    let hidden = style["visibility"] == "hidden"
    var closers: [String] = []
    func open(_ tag: String, _ close: String) {
      tokens.append(.open(tag, close: close))
      closers.append(close)
    }
    if ruby == "text" { open("<rt>", "</rt>") }
    if node.language != parentLanguage, !node.language.isEmpty {
      open("<lang \(node.language)>", "</lang>")
    }
    if TTMLCueText.isItalic(style), !TTMLCueText.isItalic(parentStyle) { open("<i>", "</i>") }
    if style["fontWeight"] == "bold", parentStyle["fontWeight"] != "bold" { open("<b>", "</b>") }
    if TTMLCueText.isUnderlined(style), !TTMLCueText.isUnderlined(parentStyle) {
      open("<u>", "</u>")
    }
    if let color = style["color"], color != parentStyle["color"],
      let name = TTMLCueText.colorClass(color), !(parentStyle.isEmpty && name == "white")
    {
      open("<c.\(name)>", "</c>")
    }
    let hasParts = ruby == "baseContainer" || ruby == "textContainer"
    if ruby == "container" {
      var bases: [TTMLBuilder.Content] = []
      var texts: [TTMLBuilder.Content] = []
      var rest: [TTMLBuilder.Content] = []
      var baseShown = false
      for content in node.children {
        if case .element(let child) = content, child.element.name == "span" {
          switch child.style["ruby"] {
          case "base", "baseContainer":
            bases.append(content)
            baseShown = baseShown || (child.begin <= time && time < child.end)
            continue
          case "text", "textContainer":
            texts.append(content)
            continue
          default: break
          }
        }
        rest.append(content)
      }
      if baseShown {
        tokens.append(.open("<ruby>", close: "</ruby>"))
        emit(bases + texts, of: node, style: style, hidden: hidden, parts: true, at: time)
        tokens.append(.close("</ruby>"))
      }
      emit(rest, of: node, style: style, hidden: hidden, parts: true, at: time)
    } else {
      emit(node.children, of: node, style: style, hidden: hidden, parts: hasParts, at: time)
    }
    for close in closers.reversed() { tokens.append(.close(close)) }
  }

  /// Adds `contents` of `node` active at `time`; white space between the parts of a ruby
  /// (`parts`) is layout, not text.
  private mutating func emit(
    _ contents: [TTMLBuilder.Content], of node: TTMLBuilder.Timed, style: TTMLBuilder.Style,
    hidden: Bool, parts: Bool, at time: Double
  ) {
    for content in contents {
      switch content {
      case .text(let text):
        if hidden || (parts && text.allSatisfy(\.isWhitespace)) { continue }
        if let onlyRegion, node.region != onlyRegion { continue }
        tokens.append(.text(text, preserve: node.preserve))
      case .element(let child):
        guard child.begin <= time, time < child.end else { continue }
        switch child.element.name {
        case "br": tokens.append(.lineBreak)
        case "span":
          span(
            child, style: child.style, parentStyle: style, parentLanguage: node.language,
            at: time)
        default: break
        }
      }
    }
  }

  static func isItalic(_ style: TTMLBuilder.Style) -> Bool {
    style["fontStyle"] == "italic" || style["fontStyle"] == "oblique"
  }

  static func isUnderlined(_ style: TTMLBuilder.Style) -> Bool {
    guard let decoration = style["textDecoration"] else { return false }
    return decoration.split(separator: " ").contains("underline")
  }

  /// A WebVTT class for a TTML colour: WebVTT's colour classes for their colours, other named
  /// colours by name, anything else as `color-rrggbb`; `nil` for a transparent or unreadable
  /// colour.
  static func colorClass(_ color: String) -> String? {
    // The common case first: a named colour in lowercase ASCII letters.
    if !color.isEmpty, color.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
    {
      return color == "transparent"
        ? nil : color == "aqua" ? "cyan" : color == "fuchsia" ? "magenta" : color
    }
    let value = color.lowercased()
    var hex: String
    if value.hasPrefix("#") {
      hex = String(value.dropFirst())
      if hex.count == 8 {
        if hex.hasSuffix("00") { return nil }
        hex = String(hex.prefix(6))
      }
      guard hex.count == 6, hex.allSatisfy(\.isHexDigit) else { return nil }
    } else if value.hasPrefix("rgb") {
      let numbers = value.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        .split(separator: ",").compactMap { Int($0.trimmingCharacters(" ")) }
      guard numbers.count == 3 || numbers.count == 4 else { return nil }
      if numbers.count == 4, numbers[3] == 0 { return nil }
      hex = numbers.prefix(3).map { String(String(min(255, max(0, $0)), radix: 16).reversedPad()) }
        .joined()
    } else if value == "transparent" {
      return nil
    } else {
      guard !value.isEmpty, value.allSatisfy({ $0.isLetter }) else { return nil }
      return value == "aqua" ? "cyan" : value == "fuchsia" ? "magenta" : value
    }
    let classes = [
      "ffffff": "white", "00ff00": "lime", "00ffff": "cyan", "ff0000": "red",
      "ffff00": "yellow", "ff00ff": "magenta", "0000ff": "blue", "000000": "black",
    ]
    return classes[hex] ?? "color-" + hex
  }

  /// The cue text, empty when nothing visible is left. Works on UTF-8 bytes: XML's white
  /// space and WebVTT's markup characters are ASCII.
  func finish() -> [UInt8] {
    var out: [UInt8] = []
    var visible = false
    var pendingSpace = false
    var atLineStart = true
    /// Where the current line starts in `out`, and whether it has shown anything.
    var lineStart = 0
    var lineVisible = false
    /// Appends `byte`, escaped if it is WebVTT markup.
    func appendByte(_ byte: UInt8) {
      switch byte {
      case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
      case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
      default: out.append(byte)
      }
    }
    func append(text: Substring.UTF8View) {
      for byte in text { appendByte(byte) }
    }
    func appendEscaped(_ run: Slice<UnsafeBufferPointer<UInt8>>) {
      guard
        run.contains(where: {
          $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
        })
      else {
        out.append(contentsOf: run)
        return
      }
      for byte in run { appendByte(byte) }
    }
    func endLine() {
      // No blank line inside a cue (it would end it in WebVTT): a line that shows nothing
      // but spaces is dropped.
      if !lineVisible, out[lineStart...].allSatisfy({ $0 == 0x20 }) {
        out.removeSubrange(lineStart...)
        if lineStart > 0 { out.removeLast() }
      }
    }
    for token in tokens {
      switch token {
      case .text(let text, let preserve):
        if preserve {
          if pendingSpace && !atLineStart { out.append(0x20) }
          pendingSpace = false
          for line in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.offset > 0 {
              endLine()
              out.append(0x0A)
              lineStart = out.count
              lineVisible = false
            }
            append(text: line.element.utf8)
            if line.element.utf8.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
              lineVisible = true
              visible = true
            }
          }
          atLineStart = text.hasSuffix("\n")
          continue
        }
        // Runs of non-space bytes, each written once; white space between them becomes one
        // space when more text follows on the line.
        var text = text
        text.withUTF8 { buffer in
          var at = 0
          while at < buffer.count {
            if buffer[at].isXMLSpaceByte {
              pendingSpace = true
              at += 1
              continue
            }
            var runEnd = at + 1
            while runEnd < buffer.count, !buffer[runEnd].isXMLSpaceByte { runEnd += 1 }
            if pendingSpace && !atLineStart { out.append(0x20) }
            pendingSpace = false
            appendEscaped(buffer[at..<runEnd])
            atLineStart = false
            lineVisible = true
            visible = true
            at = runEnd
          }
        }
      case .lineBreak:
        pendingSpace = false
        atLineStart = true
        endLine()
        out.append(0x0A)
        lineStart = out.count
        lineVisible = false
      case .open(let tag, _):
        // A space before a span belongs outside it.
        if pendingSpace && !atLineStart {
          out.append(0x20)
          pendingSpace = false
        }
        out.append(contentsOf: tag.utf8)
      case .close(let tag):
        out.append(contentsOf: tag.utf8)
      }
    }
    endLine()
    // A leading line break of a dropped first line.
    while out.first == 0x0A { out.removeFirst() }
    return visible ? out : []
  }
}

extension Substring {
  fileprivate func trimmingCharacters(_ set: Character) -> Substring {
    drop { $0 == set }.reversed().drop { $0 == set }.reversed().reduce(into: Substring()) {
      $0.append($1)
    }
  }
}

extension String {
  /// A one-digit hexadecimal number padded to two digits.
  fileprivate func reversedPad() -> String { count == 1 ? "0" + self : self }
}
