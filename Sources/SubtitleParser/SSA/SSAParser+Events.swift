extension SSAParser {
  /// Reads a `Dialogue:` line whose fields are `text[start..<end]`: the fields before `Text`
  /// end at commas (found by `memchr`), and `Text` is the rest of the line.
  mutating func readEvent(_ text: ArraySlice<UInt8>, _ start: Int, _ end: Int, line: Int) {
    if eventColumns == nil {
      // No Format line before the first event: the default columns of the script type.
      let assumed = legacyScript ? Self.defaultLegacyEventColumns : Self.defaultEventColumns
      eventColumns = EventColumns(Self.builtIn(assumed))
      diagnostics.add(
        line: line, offset: start, "no Format line before the first event: read as \(assumed)")
    }
    let columns = eventColumns ?? EventColumns(Columns())
    let startField = columns.start
    let endField = columns.end
    let styleField = columns.style
    let textField = columns.count - 1
    var fieldStart = start
    var startRange = start..<start
    var endRange = start..<start
    var styleRange = start..<start
    var field = 0
    // `text` is the whole file (its indices start at 0). Fields are short: a plain loop finds
    // each comma sooner than a call to `memchr`.
    let base = text.withUnsafeBufferPointer { $0.baseAddress }
    while field < textField {
      let comma = base.map { ByteScanner.findScalar(0x2C, $0, fieldStart, end) } ?? end
      guard comma < end else {
        diagnostics.add(
          line: line, offset: start,
          "Dialogue line with \(field + 1) of \(columns.count) fields skipped")
        return
      }
      if field == startField { startRange = fieldStart..<comma }
      if field == endField { endRange = fieldStart..<comma }
      if field == styleField { styleRange = fieldStart..<comma }
      fieldStart = comma + 1
      field += 1
    }
    guard let startTime = Self.time(text[startRange]), let endTime = Self.time(text[endRange])
    else {
      diagnostics.add(
        line: line, offset: start,
        "Dialogue line with a bad time skipped (H:MM:SS.cc expected)")
      return
    }
    // Times not in the usual ten characters may have other than two fraction digits: read by
    // value here, but as a count of centiseconds by libass and FFmpeg, so noted. (Checked
    // only off the common form, so the usual event pays one comparison.)
    if startRange.count != 10 || endRange.count != 10 {
      for range in [startRange, endRange] where range.count != 10 {
        noteFraction(text[range], line: line, offset: range.lowerBound)
      }
    }
    var styleIndex = -1
    if styleField >= 0 {
      var name = text[styleRange]
      while name.first == 0x20 { name = name.dropFirst() }
      while name.last == 0x20 { name = name.dropLast() }
      styleIndex = style(named: name, line: line, offset: styleRange.lowerBound)
    }
    let textStart = out.count
    var alignment = styleIndex >= 0 ? styles[styleIndex].alignment : 2
    if styleIndex >= 0 { out.append(contentsOf: styles[styleIndex].prefix) }
    var position: (x: Double, y: Double)? = nil
    var firstAlignment: Int? = nil
    appendText(text, fieldStart, end, line: line) { tag in
      if tag.is("an"), firstAlignment == nil, let n = tag.integer, (1...9).contains(n) {
        firstAlignment = n
      } else if tag.is("a"), firstAlignment == nil, let n = tag.integer,
        let numpad = SubStationAlpha.numpadAlignment(legacy: n)
      {
        firstAlignment = numpad
      } else if tag.is("pos") || tag.is("move"), position == nil, let numbers = tag.numbers,
        numbers.count >= 2
      {
        position = (numbers[0], numbers[1])
      }
    }
    if let firstAlignment { alignment = firstAlignment }
    var settings = SubRip.settings(forASSAlignment: alignment)
    if let position {
      let (width, height) = playResolution
      settings = SubStationAlpha.settings(
        forAlignment: alignment, x: position.x, y: position.y, width: width, height: height)
    }
    cues.append(
      Cue(
        textRange: textStart..<out.count, startTime: startTime, endTime: endTime,
        settings: settings, line: line))
  }

  /// `PlayResX` × `PlayResY`, as libass completes them: 384 × 288 when neither is given; a
  /// missing one from the other (4:3, and 1280 × 1024).
  var playResolution: (Double, Double) {
    switch (playResX, playResY) {
    case (let x?, let y?): (x, y)
    case (let x?, nil): (x, x == 1280 ? 1024 : x * 3 / 4)
    case (nil, let y?): (y == 1024 ? 1280 : y * 4 / 3, y)
    case (nil, nil): (384, 288)
    }
  }

  /// Appends an event's text to `out`: `\N` as a line feed, `\n` as one under `WrapStyle: 2`
  /// and a space otherwise, `\h` as a no-break space; override blocks as they are, each of
  /// their tags given to `tag`, but for `\r` naming a style, which is replaced by the tags of
  /// that style's whole look (``Style/look``), so that the cue text, read without the styles,
  /// resets to it (libass: the rest of the event takes the named style). A name the script
  /// does not define resets to the event's own style, as in libass, with a diagnostic (`line`).
  mutating func appendText(
    _ text: ArraySlice<UInt8>, _ start: Int, _ end: Int, line: Int, tag: (SSATag) -> Void
  ) {
    // `\rName` tags of the current block: where they stand and the name.
    var namedResets: [(range: Range<Int>, name: ArraySlice<UInt8>)] = []
    // `text` is the whole file (its indices start at 0); the scan reads through its buffer.
    text.withUnsafeBufferPointer { p in
      guard let base = p.baseAddress else { return }
      var copied = start
      var i = start
      // The next `}`, found once and reused while it is ahead: linear for unmatched `{`.
      var nextClose = start - 1
      while i < end {
        // Straight to the next `{` or backslash, 32 bytes at a time.
        i = ByteScanner.findEitherVector(0x7B, 0x5C, base, i, end)
        guard i < end else { break }
        let c = p[i]
        if c == 0x7B {
          if nextClose <= i { nextClose = ByteScanner.findScalar(0x7D, base, i + 1, end) }
          let close = nextClose
          if close < end {
            if p[(i + 1)..<close].contains(0x5C) {
              SSATag.forEach(in: text, i + 1, close) { found in
                tag(found)
                if found.is("r"), !found.argument.isEmpty {
                  namedResets.append(
                    ((found.name.startIndex - 1)..<found.argument.endIndex, found.argument))
                }
              }
              for reset in namedResets {
                out.append(
                  contentsOf: UnsafeBufferPointer(rebasing: p[copied..<reset.range.lowerBound]))
                var name = reset.name
                while name.last == 0x20 { name = name.dropLast() }
                if let index = definedStyle(named: name) {
                  out.append(contentsOf: styles[index].look)
                } else {
                  out.append(contentsOf: [0x5C, 0x72])
                  diagnostics.add(
                    line: line, offset: reset.range.lowerBound,
                    "unknown style '\(String(decoding: name, as: UTF8.self))' in \\r; "
                      + "reset to the event's style")
                }
                copied = reset.range.upperBound
              }
              namedResets.removeAll(keepingCapacity: true)
            }
            i = close + 1
            continue
          }
        } else if c == 0x5C, i + 1 < end {
          let next = p[i + 1]
          if next == 0x4E || next == 0x6E || next == 0x68 {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<i]))
            switch next {
            case 0x4E: out.append(0x0A)
            case 0x6E: out.append(wrapStyle == 2 ? 0x0A : 0x20)
            default: out.append(contentsOf: [0xC2, 0xA0] as [UInt8])
            }
            i += 2
            copied = i
            continue
          }
        }
        i += 1
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<end]))
    }
  }

  /// The digits after the fraction's point (`.`, `,`, or a third `:`) of an ASS time: how many
  /// there are, and their value as one number (at most seven digits counted).
  static func fraction(_ field: ArraySlice<UInt8>) -> (digits: Int, number: Int) {
    var colons = 0
    var inFraction = false
    var digits = 0
    var number = 0
    for c in field {
      if inFraction {
        guard c >= 0x30 && c <= 0x39 else { continue }
        digits += 1
        if number < 1_000_000 { number = number * 10 + Int(c - 0x30) }
      } else if c == 0x3A {
        colons += 1
        if colons == 3 { inFraction = true }
      } else if c == 0x2E || c == 0x2C {
        inFraction = true
      }
    }
    return (digits, number)
  }

  /// Notes an ASS time `field` whose fraction has other than two digits: read by its value,
  /// where libass and FFmpeg take the digits for a number of centiseconds (`.5` is 0.05 s,
  /// `.766` is 7.66 s).
  mutating func noteFraction(_ field: ArraySlice<UInt8>, line: Int, offset: Int) {
    let (digits, number) = Self.fraction(field)
    guard digits != 2, digits != 0, let value = Self.time(field) else { return }
    let renderers = value.rounded(.down) + Double(number) / 100
    diagnostics.add(
      line: line, offset: offset,
      "time '\(String(decoding: field, as: UTF8.self))' has \(digits) fraction "
        + (digits == 1 ? "digit" : "digits")
        + ", read as \(value) s (libass and FFmpeg take them for centiseconds: \(renderers) s)")
  }

  /// `H:MM:SS.cc` in seconds (the fraction's digits a fraction of a second, at most three
  /// read; `,` or `:` may stand for the point, as other readers take them), or nil.
  static func time(_ field: ArraySlice<UInt8>) -> Double? {
    // The form every writer uses, `H:MM:SS.cc`, read at once.
    if field.count == 10 {
      let s = field.startIndex
      let d = { (k: Int) -> Int in Int(field[s + k]) &- 0x30 }
      if field[s + 1] == 0x3A, field[s + 4] == 0x3A, field[s + 7] == 0x2E,
        [0, 2, 3, 5, 6, 8, 9].allSatisfy({ UInt(bitPattern: d($0)) < 10 })
      {
        let centiseconds =
          ((d(0) * 60 + d(2) * 10 + d(3)) * 60 + d(5) * 10 + d(6)) * 100 + d(8) * 10 + d(9)
        return Double(centiseconds * 10) / 1000
      }
    }
    var parts = (0, 0, 0)
    var fraction = 0.0
    var scale = 0.1
    var index = 0
    var digits = 0
    var inFraction = false
    var sawDigit = false
    for c in field {
      switch c {
      case 0x30...0x39:
        if inFraction {
          if scale > 0.0005 { fraction += Double(c - 0x30) * scale }
          scale /= 10
        } else {
          guard digits < 9 else { return nil }
          let digit = Int(c - 0x30)
          switch index {
          case 0: parts.0 = parts.0 * 10 + digit
          case 1: parts.1 = parts.1 * 10 + digit
          default: parts.2 = parts.2 * 10 + digit
          }
          digits += 1
        }
        sawDigit = true
      case 0x3A where index == 2:
        // `H:MM:SS:cc`: Media3 and FFmpeg read a colon before the fraction as its point.
        guard !inFraction, digits > 0 else { return nil }
        inFraction = true
      case 0x3A:
        guard !inFraction, digits > 0 else { return nil }
        index += 1
        digits = 0
      case 0x2E, 0x2C:
        // `.` as written; `,` as pysubs2 reads it.
        guard !inFraction, index == 2, digits > 0 else { return nil }
        inFraction = true
      case 0x20, 0x09:
        continue
      default:
        return nil
      }
    }
    guard sawDigit, index == 2 else { return nil }
    let millis = (Double(parts.0 * 3600 + parts.1 * 60 + parts.2) + fraction) * 1000
    return millis.rounded() / 1000
  }
}
