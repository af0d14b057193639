/// The SSA/ASS parser: sections, styles and events, line by line (see `SubStationAlpha`).
struct SSAParser {
  /// A style's look as cue text reads it, and its alignment.
  struct Style {
    /// The name, as events refer to it.
    var name: [UInt8]
    /// The numpad alignment (1 to 9).
    var alignment = 2
    /// The override block that gives the style's look, put in front of each event's text
    /// (empty for the defaults).
    var prefix: [UInt8] = []
    /// The tags that set the whole look, each attribute stated (`\r\b0\i1\u0\s0\1c&H…&`):
    /// what an event's `\r` naming this style stands for (see `appendText`).
    var look: [UInt8] = Array("\\r\\b0\\i0\\u0\\s0\\1c&HFFFFFF&".utf8)
  }

  /// Where each field of a `Format:` line is (nil: absent).
  struct Columns {
    var count = 0
    var fields: [String: Int] = [:]
    subscript(_ name: String) -> Int? { fields[name] }
  }

  /// The event fields a `Dialogue:` line is read for, resolved once per `Format:` line.
  struct EventColumns {
    var start = 1
    var end = 2
    var style = 3
    /// The number of fields; `Text` is the last.
    var count = 10

    init(_ columns: Columns) {
      start = columns["start"] ?? 1
      end = columns["end"] ?? 2
      style = columns["style"] ?? -1
      count = columns.count
    }
  }

  enum Section {
    case none, scriptInfo
    case styles(legacy: Bool)
    case events, other
  }

  var section = Section.none
  var playResX: Double? = nil
  var playResY: Double? = nil
  var wrapStyle = 0
  var legacyScript = false
  var styleColumns: Columns? = nil
  var eventColumns: EventColumns? = nil
  var styles: [Style] = []
  var sawEvents = false
  /// Whether `[Script Info]` or a styles section was seen: a script without `[Events]` (a
  /// styles or fonts file) is then read as one without cues.
  var sawScript = false
  var diagnostics = DiagnosticLog()
  var out: [UInt8] = []
  var cues: [Cue] = []
  /// The style the previous event used (most events share one).
  var lastStyle = -1

  mutating func run(_ utf8: [UInt8]) throws(SubtitleError) -> SubtitleDocument {
    out.reserveCapacity(utf8.count)
    var failure: SubtitleError? = nil
    utf8.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let text = utf8[...]
      var i = 0
      if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { i = 3 }
      var line = 1
      // Lines end at LF; files with a CR take a second search per line (CRLF, lone CR).
      let hasCR = ByteScanner.findMemchr(0x0D, base, i, buffer.count) < buffer.count
      // At most one cue per line: reserved once, the cue list is never copied as it grows.
      cues.reserveCapacity(ByteScanner.countVector(0x0A, base, i, buffer.count) + 1)
      while i < buffer.count, failure == nil {
        var end = ByteScanner.findMemchr(0x0A, base, i, buffer.count)
        var next = end + 1
        // A lone CR ends a line too; a CR before the LF is not part of it.
        let cr = hasCR ? ByteScanner.findMemchr(0x0D, base, i, end) : end
        if cr < end {
          next = cr + 1 == end ? end + 1 : cr + 1
          end = cr
        }
        do throws(SubtitleError) {
          try readLine(text, i, end, line: line)
        } catch {
          failure = error
        }
        i = next
        line += 1
      }
    }
    if let failure { throw failure }
    if !sawEvents {
      guard sawScript else { throw SubtitleError.missingSection(name: "[Events]") }
      diagnostics.add(line: 1, offset: 0, "no [Events] section: the script has no cues")
    }
    return SubtitleDocument(format: .ass, text: out, cues: cues, diagnostics: diagnostics.list)
  }

  /// Reads one line, `text[start..<end]`.
  mutating func readLine(_ text: ArraySlice<UInt8>, _ start: Int, _ end: Int, line: Int)
    throws(SubtitleError)
  {
    var s = start
    while s < end, text[s] == 0x20 || text[s] == 0x09 { s += 1 }
    guard s < end, text[s] != 0x3B else { return }
    if text[s] == 0x5B {
      enterSection(text[s..<end], line: line)
      return
    }
    guard let colon = text[s..<end].firstIndex(of: 0x3A) else { return }
    let key = text[s..<colon]
    var v = colon + 1
    while v < end, text[v] == 0x20 || text[v] == 0x09 { v += 1 }
    switch section {
    case .events:
      if Self.equals(key, "Dialogue") {
        readEvent(text, v, end, line: line)
      } else if Self.equals(key, "Format") {
        eventColumns = EventColumns(
          try columns(text[v..<end], line: line, offset: s, events: true))
      } else if !Self.equals(key, "Comment") {
        diagnostics.add(
          line: line, offset: s, "\(String(decoding: key, as: UTF8.self)) event skipped")
      }
    case .styles(let legacy):
      if Self.equals(key, "Style") {
        readStyle(text[v..<end], legacy: legacy, line: line, offset: s)
      } else if Self.equals(key, "Format") {
        styleColumns = try columns(text[v..<end], line: line, offset: s, events: false)
      }
    case .scriptInfo:
      readInfo(String(decoding: key, as: UTF8.self), text[v..<end])
    case .none, .other:
      break
    }
  }

  /// `bytes` without leading and trailing spaces and tabs, as a `String`.
  static func trimmedString(_ bytes: ArraySlice<UInt8>) -> String {
    var text = bytes
    while let c = text.first, c == 0x20 || c == 0x09 { text = text.dropFirst() }
    while let c = text.last, c == 0x20 || c == 0x09 { text = text.dropLast() }
    return String(decoding: text, as: UTF8.self)
  }

  /// Whether `bytes` spell `word` (ASCII, case as given).
  @inline(__always)
  static func equals(_ bytes: ArraySlice<UInt8>, _ word: StaticString) -> Bool {
    guard bytes.count == word.utf8CodeUnitCount else { return false }
    let p = word.utf8Start
    var k = 0
    for c in bytes {
      if c != p[k] { return false }
      k += 1
    }
    return true
  }

  mutating func enterSection(_ header: ArraySlice<UInt8>, line: Int) {
    let name = String(decoding: header, as: UTF8.self).lowercased()
      .filter { $0 != " " && $0 != "\t" }
    switch name {
    case "[scriptinfo]":
      section = .scriptInfo
      sawScript = true
    case "[v4+styles]", "[v4styles+]":
      section = .styles(legacy: false)
      sawScript = true
    case "[v4styles]":
      section = .styles(legacy: true)
      sawScript = true
    case "[events]":
      section = .events
      sawEvents = true
    default: section = .other
    }
  }

  mutating func readInfo(_ key: String, _ value: ArraySlice<UInt8>) {
    let text = Self.trimmedString(value)
    switch key.lowercased() {
    case "playresx": playResX = Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    case "playresy": playResY = Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    case "wrapstyle": wrapStyle = Int(text) ?? 0
    case "scripttype": legacyScript = !text.lowercased().contains("+")
    default: break
    }
  }

  /// The columns of a `Format:` line.
  func columns(_ value: ArraySlice<UInt8>, line: Int, offset: Int, events: Bool)
    throws(SubtitleError) -> Columns
  {
    var result = Columns()
    for (index, part) in value.split(separator: 0x2C, omittingEmptySubsequences: false)
      .enumerated()
    {
      let name = Self.trimmedString(part).lowercased()
      if result.fields[name] == nil { result.fields[name] = index }
      result.count = index + 1
    }
    if events {
      for needed in ["start", "end", "text"] where result[needed] == nil {
        throw SubtitleError.badFormatLine(
          line: line, offset: offset, reason: "the [Events] Format line has no \(needed) field")
      }
      if result["text"] != result.count - 1 {
        throw SubtitleError.badFormatLine(
          line: line, offset: offset, reason: "Text is not the last field of the Format line")
      }
    } else if result["name"] == nil {
      throw SubtitleError.badFormatLine(
        line: line, offset: offset, reason: "the styles Format line has no Name field")
    }
    return result
  }

  static let defaultStyleColumns =
    "Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding"
  static let defaultLegacyStyleColumns =
    "Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding"
  static let defaultEventColumns =
    "Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text"
  static let defaultLegacyEventColumns =
    "Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text"

  /// A columns list this parser states itself (valid by construction).
  static func builtIn(_ text: String) -> Columns {
    var result = Columns()
    for (index, name) in text.split(separator: ",").enumerated() {
      result.fields[Self.trimmedString(Array(name.utf8)[...]).lowercased()] = index
      result.count = index + 1
    }
    return result
  }

  mutating func readStyle(
    _ value: ArraySlice<UInt8>, legacy: Bool, line: Int, offset: Int
  ) {
    let columns =
      styleColumns
      ?? Self.builtIn(legacy ? Self.defaultLegacyStyleColumns : Self.defaultStyleColumns)
    let parts = value.split(
      separator: 0x2C, maxSplits: max(0, columns.count - 1), omittingEmptySubsequences: false)
    func field(_ name: String) -> String? {
      guard let index = columns[name], index < parts.count else { return nil }
      return Self.trimmedString(parts[index])
    }
    guard let name = field("name") else {
      diagnostics.add(line: line, offset: offset, "style without a name skipped")
      return
    }
    var style = Style(name: Array(name.utf8))
    if let alignment = field("alignment").flatMap({ Int($0) }) {
      let numpad = legacy ? SubStationAlpha.numpadAlignment(legacy: alignment) : alignment
      if let numpad, (1...9).contains(numpad) {
        style.alignment = numpad
      } else {
        diagnostics.add(line: line, offset: offset, "style alignment \(alignment) read as 2")
      }
    }
    func flag(_ name: String) -> Bool {
      guard let value = field(name).flatMap({ Int($0) }) else { return false }
      return value != 0 && (value < 0 || value == 1 || value >= 700)
    }
    var block = ""
    var look = "\\r"
    for (name, tag) in [("bold", "b"), ("italic", "i"), ("underline", "u"), ("strikeout", "s")] {
      let on = flag(name)
      if on { block += "\\\(tag)1" }
      look += "\\\(tag)\(on ? 1 : 0)"
    }
    if let colour = field("primarycolour").flatMap({ SSACueText.colour(Array($0.utf8)[...]) }),
      colour.css != "#ffffff"
    {
      block += "\\1c&H\(colour.bgr)&"
      look += "\\1c&H\(colour.bgr)&"
    } else {
      look += "\\1c&HFFFFFF&"
    }
    if !block.isEmpty { style.prefix = Array("{\\r\(block)}".utf8) }
    style.look = Array(look.utf8)
    if let existing = styles.firstIndex(where: { $0.name == style.name }) {
      styles[existing] = style
    } else {
      styles.append(style)
    }
  }

  /// The index of the style the script defines under `name` (leading `*`s dropped from the
  /// reference and from each style's name, `default` in any case read as `Default`), or nil.
  func definedStyle(named name: ArraySlice<UInt8>) -> Int? {
    var trimmed = name
    while trimmed.first == 0x2A { trimmed = trimmed.dropFirst() }  // `*Default`, as libass
    let defaultName = Array("Default".utf8)
    if trimmed.count == defaultName.count,
      zip(trimmed, defaultName).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
    {
      trimmed = defaultName[...]
    }
    // A style's own name is read without its leading `*`s too, as libass reads it.
    return styles.firstIndex { $0.name.drop(while: { $0 == 0x2A }).elementsEqual(trimmed) }
  }

  /// The index of the style named `name`, as libass and VSFilter find it: leading `*`s dropped
  /// (from the reference and from each style's name), `default` in any case read as `Default`,
  /// the last definition of a name kept. An unknown
  /// name takes the style named `Default`, or, when there is none, the built-in default look
  /// (-1: white, alignment 2, no markup), never another style the script defines.
  mutating func style(named name: ArraySlice<UInt8>, line: Int, offset: Int) -> Int {
    if lastStyle >= 0, styles[lastStyle].name.count == name.count,
      styles[lastStyle].name.withUnsafeBufferPointer({ a in
        name.withUnsafeBufferPointer { b in
          a.count == 0 || memcmpEqual(a.baseAddress, b.baseAddress, a.count)
        }
      })
    {
      return lastStyle
    }
    if let index = definedStyle(named: name) {
      lastStyle = index
      return index
    }
    guard !styles.isEmpty else { return -1 }
    let defaultName = Array("Default".utf8)
    let written = String(decoding: name, as: UTF8.self)
    if let index = styles.firstIndex(where: {
      $0.name.drop(while: { $0 == 0x2A }).elementsEqual(defaultName)
    }) {
      diagnostics.add(
        line: line, offset: offset, "unknown style '\(written)'; the Default style is used")
      return index
    }
    diagnostics.add(
      line: line, offset: offset,
      "unknown style '\(written)'; the built-in default look is used (the script has no Default style)"
    )
    return -1
  }
}

/// Whether `count` bytes at `a` and `b` are equal.
@inline(__always)
func memcmpEqual(_ a: UnsafePointer<UInt8>?, _ b: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
  guard let a, let b else { return false }
  var k = 0
  while k < count {
    if a[k] != b[k] { return false }
    k += 1
  }
  return true
}
