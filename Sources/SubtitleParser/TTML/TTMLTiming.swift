/// TTML's timing parameters and time expressions (TTML 2, 10.3 and 10.4; IMSC 1).
struct TTMLTiming {
  /// `ttp:frameRate` (frames per second before the multiplier), default 30.
  var frameRate = 30.0
  /// `ttp:frameRateMultiplier` as a ratio, default 1.
  var frameRateMultiplier = 1.0
  /// `ttp:subFrameRate`, default 1.
  var subFrameRate = 1.0
  /// `ttp:tickRate`: stated, else the effective frame rate times the sub-frame rate when a
  /// frame rate is stated, else 1.
  var tickRate = 1.0

  /// The frames per second frames count in.
  var effectiveFrameRate: Double { frameRate * frameRateMultiplier }

  /// The parameters `tt` states.
  init(root: TTMLXML.Element) {
    func parameter(_ name: String) -> String? {
      root.attributes.first { $0.name == name && TTML.isParameter($0.namespace) }?.value
    }
    let statedFrameRate = parameter("frameRate").flatMap { Double($0.trimmingASCIISpaces) }
    if let statedFrameRate, statedFrameRate > 0 { frameRate = statedFrameRate }
    if let multiplier = parameter("frameRateMultiplier") {
      let parts = multiplier.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap {
        Double($0)
      }
      if parts.count == 2, parts[0] > 0, parts[1] > 0 { frameRateMultiplier = parts[0] / parts[1] }
    }
    if let sub = parameter("subFrameRate").flatMap({ Double($0.trimmingASCIISpaces) }), sub > 0 {
      subFrameRate = sub
    }
    if let ticks = parameter("tickRate").flatMap({ Double($0.trimmingASCIISpaces) }), ticks > 0 {
      tickRate = ticks
    } else if statedFrameRate != nil {
      tickRate = effectiveFrameRate * subFrameRate
    }
  }

  /// The seconds a time expression stands for, or `nil` when it is not one:
  /// clock time `hh:mm:ss`, `hh:mm:ss.fraction` or `hh:mm:ss:frames(.subframes)`, and offset
  /// time `N(.N)` followed by `h`, `m`, `s`, `ms`, `f` or `t`.
  func seconds(_ text: String) -> Double? {
    if let fast = text.utf8.withContiguousStorageIfAvailable({ quickSeconds($0) }) {
      return fast
    }
    return slowSeconds(text)
  }

  /// ``seconds(_:)`` on UTF-8 bytes, in one pass with no allocation.
  private func quickSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    var end = bytes.count
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
    while index < end, isSpace(bytes[index]) { index += 1 }
    while end > index, isSpace(bytes[end - 1]) { end -= 1 }
    func digit(_ at: Int) -> Int? {
      guard at < end else { return nil }
      let value = Int(bytes[at]) - 0x30
      return value >= 0 && value <= 9 ? value : nil
    }
    /// Digits from `index`: their value and count (at most 15, so the value stays exact).
    func integer() -> (value: Double, count: Int) {
      var value = 0.0
      var count = 0
      while let d = digit(index), count < 15 {
        value = value * 10 + Double(d)
        index += 1
        count += 1
      }
      return (value, count)
    }
    func fraction() -> Double? {
      guard index < end, bytes[index] == UInt8(ascii: ".") else { return 0 }
      index += 1
      var value = 0.0
      var scale = 1.0
      var count = 0
      while let d = digit(index), count < 15 {
        value = value * 10 + Double(d)
        scale *= 10
        index += 1
        count += 1
      }
      return count == 0 ? nil : value / scale
    }
    let lead = integer()
    guard lead.count > 0 else { return nil }
    if index < end, bytes[index] == UInt8(ascii: ":") {
      // Clock time: hours ':' minutes(2) ':' seconds(2) ( '.' fraction | ':' frames ('.' sub) )?
      index += 1
      let minutes = integer()
      guard minutes.count == 2, minutes.value < 60, index < end, bytes[index] == UInt8(ascii: ":")
      else { return nil }
      index += 1
      let secondsPart = integer()
      guard secondsPart.count == 2, secondsPart.value < 61 else { return nil }
      var total = lead.value * 3600 + minutes.value * 60 + secondsPart.value
      if index < end, bytes[index] == UInt8(ascii: ":") {
        index += 1
        let frames = integer()
        guard frames.count > 0 else { return nil }
        total += frames.value / effectiveFrameRate
        if index < end, bytes[index] == UInt8(ascii: ".") {
          index += 1
          let sub = integer()
          guard sub.count > 0 else { return nil }
          total += sub.value / (effectiveFrameRate * subFrameRate)
        }
      } else {
        guard let part = fraction() else { return nil }
        total += part
      }
      return index == end ? total : nil
    }
    guard let part = fraction() else { return nil }
    let value = lead.value + part
    let unitStart = index
    let unit = end - unitStart
    func unitIs(_ byte: UInt8) -> Bool { unit == 1 && bytes[unitStart] == byte }
    if unitIs(UInt8(ascii: "h")) { return value * 3600 }
    if unitIs(UInt8(ascii: "m")) { return value * 60 }
    if unitIs(UInt8(ascii: "s")) { return value }
    if unitIs(UInt8(ascii: "f")) { return value / effectiveFrameRate }
    if unitIs(UInt8(ascii: "t")) { return value / tickRate }
    if unit == 2, bytes[unitStart] == UInt8(ascii: "m"), bytes[unitStart + 1] == UInt8(ascii: "s") {
      return value / 1000
    }
    return nil
  }

  /// The seconds of a value that is not a time expression but says one plainly, as Apple's
  /// lyrics files (and readers such as pysubs2) write them: a number without a unit (`19.764`,
  /// seconds) or minutes and seconds (`3:58.640`, `0:05`); `nil` for anything else.
  func lenientSeconds(_ text: String) -> Double? {
    let parts = text.trimmingASCIISpaces.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count <= 2,
      parts.allSatisfy({ part in
        !part.isEmpty && part.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
          && part.utf8.filter { $0 == 0x2E }.count <= 1 && part.utf8.first != 0x2E
          && part.utf8.last != 0x2E
      })
    else { return nil }
    guard let last = parts.last, let seconds = Double(last), seconds.isFinite else { return nil }
    guard parts.count == 2 else { return seconds }
    guard let minutes = Int(parts[0]), seconds < 60, last.prefix(while: { $0 != "." }).count == 2
    else { return nil }
    return Double(minutes) * 60 + seconds
  }

  /// ``seconds(_:)`` for a string without contiguous UTF-8 storage.
  private func slowSeconds(_ text: String) -> Double? {
    let expression = text.trimmingASCIISpaces
    guard let first = expression.first, first.isASCII, first.isNumber else { return nil }
    if expression.contains(":") { return clockTime(expression) }
    var number = expression
    var unit = ""
    while let last = number.last, last.isLetter {
      unit = String(last) + unit
      number.removeLast()
    }
    guard let value = Double(number), value.isFinite, !number.contains("e"),
      !number.contains("E")
    else { return nil }
    switch unit {
    case "h": return value * 3600
    case "m": return value * 60
    case "s": return value
    case "ms": return value / 1000
    case "f": return value / effectiveFrameRate
    case "t": return value / tickRate
    default: return nil
    }
  }

  private func clockTime(_ text: String) -> Double? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3 || parts.count == 4,
      let hours = Int(parts[0]), let minutes = Int(parts[1]), parts[1].count == 2,
      hours >= 0, minutes >= 0, minutes < 60
    else { return nil }
    var total = Double(hours) * 3600 + Double(minutes) * 60
    if parts.count == 3 {
      guard let seconds = Double(parts[2]), parts[2].prefix(while: { $0 != "." }).count == 2,
        seconds >= 0, seconds < 61, !parts[2].contains("e")
      else { return nil }
      return total + seconds
    }
    guard let seconds = Int(parts[2]), parts[2].count == 2, seconds >= 0, seconds < 61 else {
      return nil
    }
    total += Double(seconds)
    let frameParts = parts[3].split(separator: ".", omittingEmptySubsequences: false)
    guard let frames = Int(frameParts[0]), frames >= 0 else { return nil }
    total += Double(frames) / effectiveFrameRate
    if frameParts.count == 2 {
      guard let subframes = Int(frameParts[1]), subframes >= 0 else { return nil }
      total += Double(subframes) / (effectiveFrameRate * subFrameRate)
    } else if frameParts.count > 2 {
      return nil
    }
    return total
  }
}

extension String {
  /// The string without leading and trailing ASCII spaces, tabs and line breaks.
  var trimmingASCIISpaces: String {
    // On the UTF-8 bytes: XML's white space is ASCII, and no other byte of UTF-8 is.
    let bytes = utf8
    guard let first = bytes.firstIndex(where: { !$0.isXMLSpaceByte }) else { return "" }
    guard let last = bytes.lastIndex(where: { !$0.isXMLSpaceByte }) else { return "" }
    if first == bytes.startIndex, bytes.index(after: last) == bytes.endIndex { return self }
    return String(self[first...last])
  }

  /// Whether the string holds anything but XML white space.
  var hasNonXMLSpace: Bool { utf8.contains { !$0.isXMLSpaceByte } }
}

extension UInt8 {
  /// Whether the byte is XML white space: space, tab, carriage return, line feed.
  var isXMLSpaceByte: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

extension Character {
  /// XML's white space: space, tab, carriage return, line feed (and the CR LF pair, which
  /// Swift reads as one character).
  var isXMLSpace: Bool {
    self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n"
  }
}
