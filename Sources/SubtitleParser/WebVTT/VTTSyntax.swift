/// WebVTT micro-syntax on bytes: timestamps, numbers, percentages, whitespace.
enum VTTSyntax {
  /// ASCII whitespace as HTML defines it: tab, LF, FF, CR, space.
  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
  }

  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

  /// Calls `body(start, end)` for each run of non-whitespace bytes in `p[start..<end]`, in
  /// order: the spec's "split on spaces" for cue and region settings.
  @inline(__always)
  static func forEachToken(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, _ body: (Int, Int) -> Void
  ) {
    var index = start
    while index < end {
      while index < end && isWhitespace(p[index]) { index += 1 }
      if index == end { break }
      let tokenStart = index
      while index < end && !isWhitespace(p[index]) { index += 1 }
      body(tokenStart, index)
    }
  }

  /// The largest timestamp, in milliseconds, the parser accepts: 2^53 ms keeps every
  /// accepted value exact as a `Double` number of milliseconds.
  static let maxMilliseconds: Int64 = 1 << 53

  /// Why collecting a timestamp failed.
  enum TimestampFailure: Error {
    /// Not a timestamp.
    case syntax
    /// Syntactically a timestamp, but too large to represent.
    case outOfRange
  }

  /// "Collect a WebVTT timestamp" starting at `position`; on success `position` is just
  /// past the timestamp and the result is in milliseconds.
  @inline(__always)
  static func collectTimestamp(
    _ p: UnsafeBufferPointer<UInt8>, _ position: inout Int, end: Int
  ) -> Result<Int64, TimestampFailure> {
    if let millis = commonTimestamp(p, &position, end: end) { return .success(millis) }
    return generalTimestamp(p, &position, end: end)
  }

  @inline(__always)
  private static func digit(_ p: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int64? {
    let value = p[index] &- 0x30
    return value < 10 ? Int64(value) : nil
  }

  /// Fast path for `mm:ss.ttt` and `hh:mm:ss.ttt` (two-digit fields) followed by a
  /// character that cannot continue a timestamp; nil leaves the case to the general rules.
  @inline(__always)
  private static func commonTimestamp(
    _ p: UnsafeBufferPointer<UInt8>, _ position: inout Int, end: Int
  ) -> Int64? {
    let start = position
    // The word loads read 13 bytes, one past `end` when the timestamp reaches it.
    let readable = p.count - start
    if end - start >= 12, readable >= 13,
      let millis = wordTimestamp(p, start, endsLine: end - start == 12)
    {
      position = start + 12
      return millis
    }
    // `hhh:mm:ss.ttt` (hours from 100 on): the hundreds digit, then the form above.
    if end - start >= 13, readable >= 14, p[start + 3] == 0x3A, let hundreds = digit(p, start),
      let millis = wordTimestamp(p, start + 1, endsLine: end - start == 13)
    {
      position = start + 13
      return hundreds * 360_000_000 + millis
    }
    guard end - start >= 9, let a1 = digit(p, start), let a2 = digit(p, start + 1),
      p[start + 2] == 0x3A, let b1 = digit(p, start + 3), let b2 = digit(p, start + 4)
    else { return nil }
    let a = a1 * 10 + a2
    let b = b1 * 10 + b2
    if p[start + 5] == 0x2E {
      // mm:ss.ttt
      guard a <= 59, b <= 59, let t1 = digit(p, start + 6), let t2 = digit(p, start + 7),
        let t3 = digit(p, start + 8), end == start + 9 || !isTimestampByte(p[start + 9])
      else { return nil }
      position = start + 9
      return a * 60_000 + b * 1000 + t1 * 100 + t2 * 10 + t3
    }
    guard end - start >= 12, p[start + 5] == 0x3A, let c1 = digit(p, start + 6),
      let c2 = digit(p, start + 7), p[start + 8] == 0x2E, let t1 = digit(p, start + 9),
      let t2 = digit(p, start + 10), let t3 = digit(p, start + 11),
      end == start + 12 || !isTimestampByte(p[start + 12])
    else { return nil }
    let c = c1 * 10 + c2
    guard b <= 59, c <= 59 else { return nil }
    position = start + 12
    return a * 3_600_000 + b * 60_000 + c * 1000 + t1 * 100 + t2 * 10 + t3
  }

  /// `hh:mm:ss.ttt` at `start` (at least 13 bytes readable) followed by the end of the input
  /// to parse (`endsLine`) or by a byte that cannot continue a timestamp, read by
  /// `TimestampWord.read`.
  @inline(__always)
  static func wordTimestamp(
    _ p: UnsafeBufferPointer<UInt8>, _ start: Int, endsLine: Bool
  ) -> Int64? {
    assert(start >= 0 && start + 13 <= p.count, "wordTimestamp past the buffer")
    guard let base = p.baseAddress,
      let millis = TimestampWord.read(base, at: start, separator: 0x2E),
      endsLine || !isTimestampByte(base[start + 12])
    else { return nil }
    return millis
  }

  /// The 16 bytes at `at` checked against `HH:MM:SS.mmm` followed by the four bytes of
  /// `tail` (bytes 12...15, in its upper half; `care` has 0xFF in each of those that must
  /// match), in one vector test: each digit below its limit (10, or 6 for the tens of minutes
  /// and seconds), each separator equal. Returns the timestamp in milliseconds.
  ///
  /// A fused kernel, kept on purpose beside `TimestampWord.read`: `canonicalTimings` tests a
  /// timestamp and the arrow after it in one vector compare. Tested against the general rules.
  @inline(__always)
  private static func vectorTimestamp(
    _ base: UnsafePointer<UInt8>, _ at: Int, tail: UInt64, care: UInt64
  ) -> Int64? {
    let bytes: SIMD16<UInt8> = UnsafeRawPointer(base + at).loadUnaligned(as: SIMD16<UInt8>.self)
    let zero: SIMD16<UInt8> = SIMD16(repeating: 0x30)
    let values = bytes &- zero
    // Limits of the digit lanes (0 elsewhere: no byte is below it).
    let limits: SIMD16<UInt8> = unsafeBitCast(
      (UInt64(0x0A06_000A_0600_0A0A), UInt64(0x0000_0000_0A0A_0A00)), to: SIMD16<UInt8>.self)
    // `00:00:00.000` then `tail`: a digit lane matches only valid digits.
    let pattern: SIMD16<UInt8> = unsafeBitCast(
      (UInt64(0x3030_3A30_303A_3030), 0x3030_302E | tail), to: SIMD16<UInt8>.self)
    let ok = unsafeBitCast((values .< limits) .| (bytes .== pattern), to: (UInt64, UInt64).self)
    guard ok.0 == ~0, ok.1 | ~(0xFFFF_FFFF | care) == ~0 else { return nil }
    let halves = unsafeBitCast(values, to: (UInt64, UInt64).self)
    // Byte i becomes 10 × digit(i) + digit(i + 1) (every byte of the low half is at most 10):
    // hours, minutes and seconds in bytes 0, 3 and 6.
    let pairs = halves.0 &* 10 &+ (halves.0 &>> 8)
    let fields = pairs & 0x00FF_0000_FF00_00FF
    // One multiplication weighs them 3600, 60 and 1 into bits 48...71 of the product (the
    // other partial products stay below bit 37 or start at bit 72).
    let product = fields.multipliedFullWidth(by: 3600 << 48 | 60 << 24 | 1)
    let seconds = (product.low &>> 48) | ((product.high & 0xFF) &<< 16)
    // The three fraction digits (bytes 9...11, each at most 9).
    let digits = (halves.1 &>> 8) & 0xFF_FFFF
    let tens = (digits &* 10 &+ (digits &>> 8)) & 0xFF
    let millis = tens &* 10 &+ (digits &>> 16)
    return Int64(seconds &* 1000 &+ millis)
  }

  /// The usual start of a timing line, `HH:MM:SS.mmm --> HH:MM:SS.mmm` (each hours field of
  /// two or three digits, single spaces around the arrow) in `p[start..<end]`: both times in
  /// milliseconds and where the rest of the line starts. Nil leaves the line to the spec's
  /// rules, which give the same result for these forms.
  @inline(__always)
  static func canonicalTimings(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int
  ) -> (first: Int64, second: Int64, rest: Int)? {
    guard end &- start >= 29, let base = p.baseAddress else { return nil }
    // `hhh:` puts the colon one byte later; its first digit counts hundreds of hours.
    var first = start
    var hundreds: Int64 = 0
    if base[start &+ 2] != 0x3A {
      let digit = base[start] &- 0x30
      guard base[start &+ 3] == 0x3A, digit < 10 else { return nil }
      hundreds = Int64(digit) &* 360_000_000
      first = start &+ 1
    }
    var second = first &+ 17
    var secondHundreds: Int64 = 0
    if base[second &+ 2] != 0x3A {
      let digit = base[second] &- 0x30
      guard base[second &+ 3] == 0x3A, digit < 10 else { return nil }
      secondHundreds = Int64(digit) &* 360_000_000
      second &+= 1
    }
    // The byte after the second timestamp must not be a digit (a longer fraction).
    guard second &+ 12 <= end, second &+ 16 <= p.count, base[second &+ 12] &- 0x30 >= 10,
      base[first &+ 16] == 0x20,
      let a = vectorTimestamp(base, first, tail: 0x3E2D_2D20_0000_0000, care: ~0),
      let b = vectorTimestamp(base, second, tail: 0, care: 0)
    else { return nil }
    return (hundreds &+ a, secondHundreds &+ b, second &+ 12)
  }

  @inline(__always)
  private static func isTimestampByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || byte == 0x3A || byte == 0x2E
  }

  private static func generalTimestamp(
    _ p: UnsafeBufferPointer<UInt8>, _ position: inout Int, end: Int
  ) -> Result<Int64, TimestampFailure> {
    var hoursUnits = false
    guard position < end, isDigit(p[position]) else { return .failure(.syntax) }
    var overflow = false
    var value1: Int64 = 0
    let start1 = position
    while position < end, isDigit(p[position]) {
      if !overflow {
        let (times10, o1) = value1.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(Int64(p[position] &- 0x30))
        if o1 || o2 { overflow = true } else { value1 = sum }
      }
      position += 1
    }
    if position - start1 != 2 || value1 > 59 || overflow { hoursUnits = true }
    guard position < end, p[position] == 0x3A else { return .failure(.syntax) }
    position += 1
    guard let value2 = twoDigits(p, &position, end: end) else { return .failure(.syntax) }
    var hours: Int64 = 0
    var minutes = value2
    var seconds: Int64 = 0
    if hoursUnits || (position < end && p[position] == 0x3A) {
      guard position < end, p[position] == 0x3A else { return .failure(.syntax) }
      position += 1
      guard let value3 = twoDigits(p, &position, end: end) else { return .failure(.syntax) }
      hours = value1
      seconds = value3
    } else {
      minutes = value1
      seconds = value2
    }
    guard position < end, p[position] == 0x2E else { return .failure(.syntax) }
    position += 1
    let start4 = position
    var millis: Int64 = 0
    while position < end, isDigit(p[position]) {
      if position - start4 < 3 { millis = millis * 10 + Int64(p[position] &- 0x30) }
      position += 1
    }
    guard position - start4 == 3 else { return .failure(.syntax) }
    guard minutes <= 59, seconds <= 59 else { return .failure(.syntax) }
    if overflow || hours > maxMilliseconds / 3_600_000 { return .failure(.outOfRange) }
    let total = hours * 3_600_000 + minutes * 60_000 + seconds * 1000 + millis
    guard total <= maxMilliseconds else { return .failure(.outOfRange) }
    return .success(total)
  }

  @inline(__always)
  private static func twoDigits(
    _ p: UnsafeBufferPointer<UInt8>, _ position: inout Int, end: Int
  ) -> Int64? {
    let start = position
    var value: Int64 = 0
    while position < end, isDigit(p[position]) {
      if position - start < 2 { value = value * 10 + Int64(p[position] &- 0x30) }
      position += 1
    }
    return position - start == 2 ? value : nil
  }

  // MARK: - Numbers

  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// The double nearest to the decimal number `[-]int[.frac]` spelled by
  /// `p[start..<end]` (which must match `-?[0-9]+(\.[0-9]+)?`): the HTML "rules for parsing
  /// floating-point number values" on an already-validated string, including their rounding
  /// (round to nearest, ties to even, −0 becomes 0). Returns nil when the value rounds
  /// outside the finite doubles.
  static func decimalValue(_ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Double? {
    var index = start
    var negative = false
    if index < end, p[index] == 0x2D {
      negative = true
      index += 1
    }
    // Fast path: at most 15 significant digits and at most 22 fraction digits make
    // `mantissa / 10^k` a single correctly rounded division of exact doubles.
    var mantissa: UInt64 = 0
    var significant = 0
    var fractionDigits = 0
    var inFraction = false
    var exact = true
    var scan = index
    while scan < end {
      let byte = p[scan]
      if byte == 0x2E {
        inFraction = true
      } else {
        if mantissa != 0 || byte != 0x30 { significant += 1 }
        if significant > 15 {
          exact = false
          break
        }
        mantissa = mantissa * 10 + UInt64(byte &- 0x30)
        if inFraction { fractionDigits += 1 }
      }
      scan += 1
    }
    var value: Double
    if exact && fractionDigits <= 22 {
      value = Double(mantissa) / exactPowersOfTen[fractionDigits]
    } else {
      let text = String(decoding: UnsafeBufferPointer(rebasing: p[index..<end]), as: UTF8.self)
      guard let parsed = Double(text) else { return nil }
      value = parsed
    }
    guard value.isFinite else { return nil }
    if negative { value = -value }
    return value == 0 ? 0 : value
  }

  /// "Parse a percentage string": `[0-9]+(\.[0-9]+)?%` with a value in 0...100.
  static func percentage(_ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Double? {
    guard end - start >= 2, p[end - 1] == 0x25 else { return nil }
    // One to three digits (the usual form): the rules below give this value for them.
    if let value = smallInteger(p, start: start, end: end &- 1) {
      return value <= 100 ? Double(value) : nil
    }
    guard isDecimal(p, start: start, end: end - 1, allowSign: false) else { return nil }
    guard let value = decimalValue(p, start: start, end: end - 1), value >= 0, value <= 100 else {
      return nil
    }
    return value
  }

  /// The value of `p[start..<end]` when it is one to three ASCII digits, else nil.
  @inline(__always)
  static func smallInteger(_ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int? {
    let length = end &- start
    guard length >= 1 && length <= 3 else { return nil }
    var value = 0
    var index = start
    while index < end {
      let digit = p[index] &- 0x30
      guard digit < 10 else { return nil }
      value = value &* 10 &+ Int(digit)
      index &+= 1
    }
    return value
  }

  /// Whether `p[start..<end]` matches `-?[0-9]+(\.[0-9]+)?` (the sign only if `allowSign`).
  static func isDecimal(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, allowSign: Bool
  ) -> Bool {
    var index = start
    if allowSign, index < end, p[index] == 0x2D { index += 1 }
    let intStart = index
    while index < end, isDigit(p[index]) { index += 1 }
    guard index > intStart else { return false }
    if index == end { return true }
    guard p[index] == 0x2E else { return false }
    index += 1
    let fracStart = index
    while index < end, isDigit(p[index]) { index += 1 }
    return index > fracStart && index == end
  }

  /// Whether `p[start..<end]` equals the ASCII string `literal`.
  @inline(__always)
  static func equals(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, _ literal: StaticString
  ) -> Bool {
    guard end &- start == literal.utf8CodeUnitCount else { return false }
    let bytes = literal.utf8Start
    var offset = 0
    while offset < literal.utf8CodeUnitCount {
      if p[start &+ offset] != bytes[offset] { return false }
      offset &+= 1
    }
    return true
  }

  /// Whether `p[start..<end]` starts with `literal`.
  @inline(__always)
  static func hasPrefix(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, _ literal: StaticString
  ) -> Bool {
    guard end - start >= literal.utf8CodeUnitCount else { return false }
    return equals(p, start: start, end: start + literal.utf8CodeUnitCount, literal)
  }

  /// Formats seconds as a WebVTT timestamp with every component: `hh:mm:ss.ttt` (at least
  /// two hour digits).
  static func format(milliseconds total: Int64) -> String {
    let millis = total % 1000
    let seconds = (total / 1000) % 60
    let minutes = (total / 60_000) % 60
    let hours = total / 3_600_000
    func pad(_ value: Int64, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))"
  }
}
