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
    let isSpace: (Character) -> Bool = { $0.isXMLSpace }
    guard let start = firstIndex(where: { !isSpace($0) }),
      let end = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[start...end])
  }
}

extension Character {
  /// XML's white space: space, tab, carriage return, line feed (and the CR LF pair, which
  /// Swift reads as one character).
  var isXMLSpace: Bool {
    self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n"
  }
}
