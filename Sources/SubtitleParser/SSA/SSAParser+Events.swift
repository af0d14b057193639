extension SSAParser {
  /// Reads a `Dialogue:` line whose fields are `text[start..<end]`: the fields before `Text`
  /// end at commas (found by `memchr`), and `Text` is the rest of the line.
  mutating func readEvent(_ text: ArraySlice<UInt8>, _ start: Int, _ end: Int, line: Int) {
    let columns =
      eventColumns
      ?? Self.builtIn(legacyScript ? Self.defaultLegacyEventColumns : Self.defaultEventColumns)
    let startField = columns["start"] ?? 1
    let endField = columns["end"] ?? 2
    let styleField = columns["style"] ?? -1
    let textField = columns.count - 1
    var fieldStart = start
    var startRange = start..<start
    var endRange = start..<start
    var styleRange = start..<start
    var field = 0
    while field < textField {
      guard let comma = text[fieldStart..<end].firstIndex(of: 0x2C) else {
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
    appendText(text, fieldStart, end) { tag in
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
  /// their tags given to `tag`.
  mutating func appendText(
    _ text: ArraySlice<UInt8>, _ start: Int, _ end: Int, tag: (SSATag) -> Void
  ) {
    var copied = start
    var i = start
    while i < end {
      let c = text[i]
      if c == 0x7B, let close = text[(i + 1)..<end].firstIndex(of: 0x7D) {
        if text[(i + 1)..<close].contains(0x5C) { SSATag.forEach(in: text, i + 1, close, tag) }
        i = close + 1
        continue
      }
      if c == 0x5C, i + 1 < end {
        let next = text[i + 1]
        let replacement: [UInt8]? =
          switch next {
          case 0x4E: [0x0A]
          case 0x6E: wrapStyle == 2 ? [0x0A] : [0x20]
          case 0x68: [0xC2, 0xA0]
          default: nil
          }
        if let replacement {
          out.append(contentsOf: text[copied..<i])
          out.append(contentsOf: replacement)
          i += 2
          copied = i
          continue
        }
      }
      i += 1
    }
    out.append(contentsOf: text[copied..<end])
  }

  /// `H:MM:SS.cc` in seconds (the fraction's digits a fraction of a second, at most three
  /// read), or nil.
  static func time(_ field: ArraySlice<UInt8>) -> Double? {
    var parts: [Int] = [0, 0, 0]
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
          parts[index] = parts[index] * 10 + Int(c - 0x30)
          digits += 1
        }
        sawDigit = true
      case 0x3A:
        guard !inFraction, index < 2, digits > 0 else { return nil }
        index += 1
        digits = 0
      case 0x2E:
        guard !inFraction, index == 2, digits > 0 else { return nil }
        inFraction = true
      case 0x20, 0x09:
        continue
      default:
        return nil
      }
    }
    guard sawDigit, index == 2 else { return nil }
    let millis = (Double(parts[0] * 3600 + parts[1] * 60 + parts[2]) + fraction) * 1000
    return millis.rounded() / 1000
  }
}
