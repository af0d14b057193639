/// Cue timing lines and cue settings (WebVTT, "Collect WebVTT cue timings and settings").
extension VTTCore {

  mutating func parseTimingsAndSettings(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, into cue: inout Cue
  ) -> Bool {
    var position = start
    while position < end && VTTSyntax.isWhitespace(p[position]) { position += 1 }
    let startMillis: Int64
    switch VTTSyntax.collectTimestamp(p, &position, end: end) {
    case .success(let millis): startMillis = millis
    case .failure(let failure):
      reportTiming(failure, offset: start)
      return false
    }
    while position < end && VTTSyntax.isWhitespace(p[position]) { position += 1 }
    guard end - position >= 3, p[position] == 0x2D, p[position + 1] == 0x2D,
      p[position + 2] == 0x3E
    else {
      diagnose("cue dropped: no '-->' after the start time", offset: start)
      return false
    }
    position += 3
    while position < end && VTTSyntax.isWhitespace(p[position]) { position += 1 }
    switch VTTSyntax.collectTimestamp(p, &position, end: end) {
    case .success(let millis):
      // Both divisions in one instruction (each lane rounds as a scalar division would).
      let seconds = SIMD2<Double>(Double(startMillis), Double(millis)) / 1000
      cue.startTime = seconds[0]
      cue.endTime = seconds[1]
    case .failure(let failure):
      reportTiming(failure, offset: start)
      return false
    }
    parseSettings(p, start: position, end: end, into: &cue.settings)
    return true
  }

  mutating func reportTiming(_ failure: VTTSyntax.TimestampFailure, offset: Int) {
    switch failure {
    case .syntax: diagnose("cue dropped: malformed timestamp in timing line", offset: offset)
    case .outOfRange: diagnose("cue dropped: timestamp out of range", offset: offset)
    }
  }

  /// The settings of `p[start..<end]` (diagnosed as `parseSettings` does).
  @inline(never)
  mutating func parsedSettings(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int
  ) -> CueSettings {
    var settings = CueSettings()
    parseSettings(p, start: start, end: end, into: &settings)
    return settings
  }

  mutating func parseSettings(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, into settings: inout CueSettings
  ) {
    // `VTTSyntax.forEachToken`, each token's first colon noted on the way.
    var index = start
    while index < end {
      while index < end && VTTSyntax.isWhitespace(p[index]) { index &+= 1 }
      if index == end { break }
      let tokenStart = index
      var colon = -1
      while index < end {
        let byte = p[index]
        if VTTSyntax.isWhitespace(byte) { break }
        if byte == 0x3A && colon < 0 { colon = index }
        index &+= 1
      }
      applySetting(
        p, start: tokenStart, colon: colon < 0 ? index : colon, end: index, to: &settings)
    }
  }

  mutating func ignoreSetting(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, _ why: String
  ) {
    let token = String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
    diagnose("cue setting '\(token)' ignored: \(why)", offset: start)
  }

  mutating func applySetting(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, colon: Int, end: Int,
    to settings: inout CueSettings
  ) {
    // `colon` is the token's first colon, or `end` when it has none.
    guard colon < end, colon != start, colon != end &- 1 else {
      ignoreSetting(p, start: start, end: end, "not name:value")
      return
    }
    let valueStart = colon &+ 1
    // The names told apart by their length first: at most two of them are compared.
    switch colon &- start {
    case 4:
      if VTTSyntax.equals(p, start: start, end: colon, "line") {
        applyLine(p, start: start, valueStart: valueStart, end: end, to: &settings)
        return
      }
      if VTTSyntax.equals(p, start: start, end: colon, "size") {
        guard let number = VTTSyntax.percentage(p, start: valueStart, end: end) else {
          ignoreSetting(p, start: start, end: end, "bad percentage")
          return
        }
        settings.size = number
        if number != 100 { settings.region = nil }
        return
      }
    case 5:
      if VTTSyntax.equals(p, start: start, end: colon, "align") {
        applyAlign(p, start: start, valueStart: valueStart, end: end, to: &settings)
        return
      }
    case 6:
      if VTTSyntax.equals(p, start: start, end: colon, "region") {
        // "The last region whose identifier is value", compared as bytes (no allocation).
        let value = UnsafeBufferPointer(rebasing: p[valueStart..<end])
        settings.region = regionIndex(value)
        if settings.region == nil { ignoreSetting(p, start: start, end: end, "no such region") }
        return
      }
    case 8:
      if VTTSyntax.equals(p, start: start, end: colon, "vertical") {
        if VTTSyntax.equals(p, start: valueStart, end: end, "rl") {
          settings.vertical = .rightToLeft
        } else if VTTSyntax.equals(p, start: valueStart, end: end, "lr") {
          settings.vertical = .leftToRight
        } else {
          ignoreSetting(p, start: start, end: end, "unknown value")
        }
        if settings.vertical != .horizontal { settings.region = nil }
        return
      }
      if VTTSyntax.equals(p, start: start, end: colon, "position") {
        applyPosition(p, start: start, valueStart: valueStart, end: end, to: &settings)
        return
      }
    default:
      break
    }
    ignoreSetting(p, start: start, end: end, "unknown setting")
  }

  /// `align:` and its value. One test per keyword the specification lists; `applyPosition`
  /// and `applyLine` read their alignment keywords the same way, each from its own list.
  mutating func applyAlign(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, valueStart: Int, end: Int,
    to settings: inout CueSettings
  ) {
    if VTTSyntax.equals(p, start: valueStart, end: end, "start") {
      settings.align = .start
    } else if VTTSyntax.equals(p, start: valueStart, end: end, "center") {
      settings.align = .center
    } else if VTTSyntax.equals(p, start: valueStart, end: end, "end") {
      settings.align = .end
    } else if VTTSyntax.equals(p, start: valueStart, end: end, "left") {
      settings.align = .left
    } else if VTTSyntax.equals(p, start: valueStart, end: end, "right") {
      settings.align = .right
    } else {
      ignoreSetting(p, start: start, end: end, "unknown value")
    }
  }

  mutating func applyPosition(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, valueStart: Int, end: Int,
    to settings: inout CueSettings
  ) {
    var comma = valueStart
    while comma < end && p[comma] != 0x2C { comma &+= 1 }
    guard let number = VTTSyntax.percentage(p, start: valueStart, end: comma) else {
      ignoreSetting(p, start: start, end: end, "bad percentage")
      return
    }
    if comma < end {
      let alignStart = comma &+ 1
      if VTTSyntax.equals(p, start: alignStart, end: end, "line-left") {
        settings.positionAlign = .lineLeft
      } else if VTTSyntax.equals(p, start: alignStart, end: end, "center") {
        settings.positionAlign = .center
      } else if VTTSyntax.equals(p, start: alignStart, end: end, "line-right") {
        settings.positionAlign = .lineRight
      } else {
        ignoreSetting(p, start: start, end: end, "unknown alignment")
        return
      }
    }
    settings.position = number
  }

  mutating func applyLine(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, valueStart: Int, end: Int,
    to settings: inout CueSettings
  ) {
    var comma = valueStart
    while comma < end && p[comma] != 0x2C { comma &+= 1 }
    if comma == end {
      // `line:N` and `line:-N` with one to three digits (the usual forms): what the general
      // rules below give for them.
      let negative = p[valueStart] == 0x2D
      if let value = VTTSyntax.smallInteger(
        p, start: negative ? valueStart &+ 1 : valueStart, end: end)
      {
        settings.line = negative && value != 0 ? -Double(value) : Double(value)
        settings.snapToLines = true
        settings.region = nil
        return
      }
    }
    var hasDigit = false
    for index in valueStart..<comma where VTTSyntax.isDigit(p[index]) {
      hasDigit = true
      break
    }
    guard hasDigit else {
      ignoreSetting(p, start: start, end: end, "no digits")
      return
    }
    let isPercentage = p[comma - 1] == 0x25
    let number: Double
    if isPercentage {
      guard let value = VTTSyntax.percentage(p, start: valueStart, end: comma) else {
        ignoreSetting(p, start: start, end: end, "bad percentage")
        return
      }
      number = value
    } else {
      guard VTTSyntax.isDecimal(p, start: valueStart, end: comma, allowSign: true),
        let value = VTTSyntax.decimalValue(p, start: valueStart, end: comma)
      else {
        ignoreSetting(p, start: start, end: end, "bad number")
        return
      }
      number = value
    }
    if comma < end {
      let alignStart = comma + 1
      if VTTSyntax.equals(p, start: alignStart, end: end, "start") {
        settings.lineAlign = .start
      } else if VTTSyntax.equals(p, start: alignStart, end: end, "center") {
        settings.lineAlign = .center
      } else if VTTSyntax.equals(p, start: alignStart, end: end, "end") {
        settings.lineAlign = .end
      } else {
        ignoreSetting(p, start: start, end: end, "unknown alignment")
        return
      }
    }
    settings.line = number
    settings.snapToLines = !isPercentage
    settings.region = nil
  }
}
