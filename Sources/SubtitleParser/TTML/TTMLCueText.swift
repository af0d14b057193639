/// Writes what one TTML `p` shows at one time as WebVTT cue text: text escaped, `br` as a line
/// break, styles as `i`, `b`, `u`, colour class spans and `lang` spans, white space handled as
/// `xml:space` says (TTML 2, 7.2.3: runs collapsed to one space, spaces at the start and end
/// of each line removed).
///
/// Formatting is decided per run of text: each run is written inside the `i`, `b`, `u` and
/// colour tags its own computed style calls for, so a span that turns italic, bold or
/// underline off (`tts:fontStyle="normal"` in an italic paragraph) closes the enclosing tag and
/// the text after it reopens it. Tags stay properly nested: formatting closes at the boundary
/// of a `lang`, `ruby` or `rt` unless every run inside keeps it.
/// What the cue-text writer reads of a computed style (see ``TTMLCueText``), looked up once
/// per style: each element's is worked out when the tree is timed, and an element that states
/// no style of its own shares its parent's, so writing a cue hashes no property names unless a
/// `set` or a region restyles it.
struct TextLook: Equatable {
  var italic = false
  var bold = false
  var underline = false
  /// `tts:color` as written.
  var color: String? = nil
  /// `tts:ruby` as written.
  var ruby: String? = nil
  /// `tts:display` `none`.
  var displayNone = false
  /// `tts:visibility` `hidden`.
  var hidden = false
  /// Whether the style states nothing at all.
  var empty = true

  /// The look of no style.
  init() {}

  /// The look of `style`.
  init(_ style: TTMLBuilder.Style) {
    guard !style.isEmpty else { return }
    empty = false
    italic = TTMLCueText.isItalic(style)
    bold = style["fontWeight"] == "bold"
    underline = TTMLCueText.isUnderlined(style)
    color = style["color"]
    ruby = style["ruby"]
    displayNone = style["display"] == "none"
    hidden = style["visibility"] == "hidden"
  }
}

struct TTMLCueText {
  /// A formatting tag and the element whose style opened it.
  struct Format: Equatable {
    enum Kind { case italic, bold, underline, color }
    let kind: Kind
    /// The element that turns it on (where its parent's style does not).
    let owner: ObjectIdentifier
    let open: String
    let close: String
  }

  private enum Token {
    /// A structural tag: `lang`, `ruby` or `rt`.
    case open(String, close: String)
    case close(String)
    /// Text and the formatting it shows in, outermost first.
    case text(String, preserve: Bool, formats: [Format])
    case lineBreak
  }

  private var tokens: [Token] = []
  /// Whether ``tokens`` holds a structural tag.
  private var hasStructure = false

  /// The formatting the elements from the paragraph down to the current one turn on, in
  /// document order.
  private var layers: [Format] = []

  /// The one region whose content is written, or nil for all.
  private var onlyRegion: String? = nil

  /// The styles by id, to work out the computed style of elements below one whose style in
  /// effect differs from the one the tree was timed with (see ``span(_:style:parentLook:parentLanguage:restyled:at:)``).
  private var styles: [String: TTMLBuilder.Style] = [:]

  /// Adds the content of `paragraph` active at `time`, its computed style being `style`
  /// (with what its region passes on and the `set`s of its ancestors active then); with
  /// `only`, the text of elements in that region alone. `styles` are the styles by id.
  /// `restyled` says whether `style` differs from the paragraph's own computed style (the caller
  /// knows what changed it: its region or an active `set`).
  /// A writer used for one cue after another starts each with ``reset()``, keeping the storage
  /// it has grown.
  mutating func paragraph(
    _ paragraph: TTMLBuilder.Timed, at time: Double, style: TTMLBuilder.Style,
    only: String? = nil, styles: [String: TTMLBuilder.Style] = [:], restyled: Bool
  ) {
    onlyRegion = only
    self.styles = styles
    span(
      paragraph, style: style, parentLook: TextLook(), parentLanguage: paragraph.language,
      restyled: restyled, at: time)
  }

  /// Adds the content of `node` active at `time`, its computed style being `style` (before
  /// its `set` children). `restyled`: the style in effect above differs from the one the tree
  /// was timed with, so the descendants' computed styles are worked out again from it.
  private mutating func span(
    _ node: TTMLBuilder.Timed, style computed: TTMLBuilder.Style, parentLook: TextLook,
    parentLanguage: String, restyled: Bool, at time: Double
  ) {
    // The `set` children active now change the element's own style.
    var style = computed
    var restyled = restyled
    for content in node.children {
      guard case .element(let child) = content, child.element.name == "set",
        child.begin <= time, time < child.end
      else { continue }
      for attribute in child.element.attributes where TTML.isStyling(attribute.namespace) {
        TTMLBuilder.state(attribute.name, attribute.value.trimmingASCIISpaces, in: &style)
        restyled = true
      }
    }
    // Not restyled, `style` is the node's own computed style, whose look the tree holds.
    let look = restyled ? TextLook(style) : node.look
    // Ruby (IMSC 1.1): a container with a base becomes WebVTT's `ruby`, its text `rt`
    // after the base, whatever their order; an annotation without a base or outside a
    // container is dropped, and so are the delimiters (for renderers without ruby, which
    // WebVTT's are not).
    let ruby = look.ruby
    if look.displayNone || ruby == "delimiter" { return }
    if ruby == "text", !["container", "textContainer"].contains(parentLook.ruby ?? "") {
      return
    }
    // Hidden text shows nothing, but a descendant may make itself visible again.
    let hidden = look.hidden
    var closers: [String] = []
    func open(_ tag: String, _ close: String) {
      tokens.append(.open(tag, close: close))
      hasStructure = true
      closers.append(close)
    }
    if ruby == "text" { open("<rt>", "</rt>") }
    if node.language != parentLanguage, !node.language.isEmpty {
      open("<lang \(node.language)>", "</lang>")
    }
    let outerLayers = layers.count
    let owner = ObjectIdentifier(node)
    func layer(_ kind: Format.Kind, _ open: String, _ close: String) {
      layers.append(Format(kind: kind, owner: owner, open: open, close: close))
    }
    if look.italic, !parentLook.italic {
      layer(.italic, "<i>", "</i>")
    }
    if look.bold, !parentLook.bold {
      layer(.bold, "<b>", "</b>")
    }
    if look.underline, !parentLook.underline {
      layer(.underline, "<u>", "</u>")
    }
    if let color = look.color, color != parentLook.color,
      let name = TTMLCueText.colorClass(color), !(parentLook.empty && name == "white")
    {
      layer(.color, "<c.\(name)>", "</c>")
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
        hasStructure = true
        emit(
          bases + texts, of: node, style: style, look: look, hidden: hidden, parts: true,
          restyled: restyled, at: time)
        tokens.append(.close("</ruby>"))
      }
      emit(
        rest, of: node, style: style, look: look, hidden: hidden, parts: true, restyled: restyled,
        at: time)
    } else {
      emit(
        node.children, of: node, style: style, look: look, hidden: hidden, parts: hasParts,
        restyled: restyled, at: time)
    }
    layers.removeSubrange(outerLayers...)
    for close in closers.reversed() { tokens.append(.close(close)) }
  }

  /// The formatting text whose style looks like `look` shows in: of the layers open, the
  /// colours, and the innermost italic, bold and underline ones while `look` keeps them on (there are two
  /// only where an element between turned the style off).
  private func formats(for look: TextLook) -> [Format] {
    guard !layers.isEmpty else { return [] }
    var italic = look.italic
    var bold = look.bold
    var underline = look.underline
    var kept: [Format] = []
    kept.reserveCapacity(layers.count)
    for layer in layers.reversed() {
      switch layer.kind {
      case .color: kept.append(layer)
      case .italic:
        if italic { kept.append(layer) }
        italic = false
      case .bold:
        if bold { kept.append(layer) }
        bold = false
      case .underline:
        if underline { kept.append(layer) }
        underline = false
      }
    }
    kept.reverse()
    return kept
  }

  /// Adds `contents` of `node` active at `time`; white space between the parts of a ruby
  /// (`parts`) is layout, not text.
  private mutating func emit(
    _ contents: [TTMLBuilder.Content], of node: TTMLBuilder.Timed, style: TTMLBuilder.Style,
    look: TextLook, hidden: Bool, parts: Bool, restyled: Bool, at time: Double
  ) {
    for content in contents {
      switch content {
      case .text(let text):
        if hidden || (parts && text.allSatisfy(\.isWhitespace)) { continue }
        if let onlyRegion, node.region != onlyRegion { continue }
        tokens.append(.text(text, preserve: node.preserve, formats: formats(for: look)))
      case .element(let child):
        guard child.begin <= time, time < child.end else { continue }
        switch child.element.name {
        case "br": tokens.append(.lineBreak)
        case "span":
          let childStyle =
            restyled
            ? TTMLBuilder.computedStyle(of: child.element, below: style, styles: styles)
            : child.style
          span(
            child, style: childStyle, parentLook: look, parentLanguage: node.language,
            restyled: restyled, at: time)
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

  /// Forgets the content added, to write another cue.
  mutating func reset() {
    tokens.removeAll(keepingCapacity: true)
    layers.removeAll(keepingCapacity: true)
    hasStructure = false
    onlyRegion = nil
  }

  /// The number of formats `a` and `b` start with in common.
  private static func common(_ a: [Format], _ b: [Format]) -> Int {
    var count = 0
    while count < a.count, count < b.count, a[count] == b[count] { count += 1 }
    return count
  }

  /// The cue text, empty when nothing visible is left.
  func finish() -> [UInt8] {
    var out: [UInt8] = []
    _ = finish(into: &out)
    return out
  }

  /// Appends the cue text to `out` and returns true, or appends nothing and returns false when
  /// nothing visible is left. Works on UTF-8 bytes: XML's white space and WebVTT's markup
  /// characters are ASCII.
  func finish(into out: inout [UInt8]) -> Bool {
    /// Where the cue starts in `out`.
    let base = out.count
    var visible = false
    var pendingSpace = false
    var atLineStart = true
    /// Where the current line starts in `out`, and whether it has shown anything.
    var lineStart = base
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
        if lineStart > base { out.removeLast() }
      }
    }
    func openTag(_ tag: String) {
      // A space before a span belongs outside it.
      if pendingSpace && !atLineStart {
        out.append(0x20)
        pendingSpace = false
      }
      out.append(contentsOf: tag.utf8)
    }
    // The formatting each structural tag may keep open inside it: the part every run of text
    // within it shares (`nil` for one with no text).
    var shared: [[Format]?] = Array(repeating: nil, count: hasStructure ? tokens.count : 0)
    var structures: [Int] = []
    for (index, token) in tokens.enumerated() where hasStructure {
      switch token {
      case .open: structures.append(index)
      case .close: _ = structures.popLast()
      case .text(let text, _, let formats):
        guard text.hasNonXMLSpace else { continue }
        for open in structures {
          shared[open] = shared[open].map { Array($0.prefix(Self.common($0, formats))) } ?? formats
        }
      case .lineBreak: break
      }
    }
    /// The formatting tags open, outermost first, and for each structure open the number of
    /// them it keeps open inside (which it alone may close).
    var formats: [Format] = []
    var locks: [Int] = []
    func closeFormats(downTo count: Int) {
      while formats.count > count, let format = formats.popLast() {
        out.append(contentsOf: format.close.utf8)
      }
    }
    for (index, token) in tokens.enumerated() {
      switch token {
      case .open(let tag, _):
        // (`shared` has an entry for each token when there is a structure.)
        let keep = shared[index].map { Self.common(formats, $0) } ?? formats.count
        closeFormats(downTo: max(keep, locks.last ?? 0))
        locks.append(formats.count)
        openTag(tag)
        continue
      case .close(let tag):
        closeFormats(downTo: locks.popLast() ?? 0)
        out.append(contentsOf: tag.utf8)
        continue
      case .text, .lineBreak: break
      }
      switch token {
      case .text(let text, let preserve, let wanted):
        // The text's formatting, opened where its first visible byte is written (so white
        // space before it stays outside); white space alone shows in whatever is open.
        var pendingFormats: [Format]? = text.hasNonXMLSpace ? wanted : nil
        func applyFormats() {
          guard let wanted = pendingFormats else { return }
          pendingFormats = nil
          let kept = max(Self.common(formats, wanted), locks.last ?? 0)
          closeFormats(downTo: kept)
          for format in wanted.dropFirst(kept) {
            openTag(format.open)
            formats.append(format)
          }
        }
        if preserve {
          for line in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.offset > 0 {
              endLine()
              out.append(0x0A)
              lineStart = out.count
              lineVisible = false
            }
            if line.element.utf8.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
              applyFormats()
              lineVisible = true
              visible = true
            }
            if pendingSpace && !atLineStart { out.append(0x20) }
            pendingSpace = false
            append(text: line.element.utf8)
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
            applyFormats()
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
      case .open, .close: break
      }
    }
    closeFormats(downTo: 0)
    endLine()
    // A leading line break of a dropped first line.
    var leading = base
    while leading < out.count, out[leading] == 0x0A { leading += 1 }
    out.removeSubrange(base..<(visible ? leading : out.count))
    return visible
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
