/// The HTML named character references, and the HTML rules for numeric references.
enum HTMLEntities {
  /// The decoded table: names concatenated in sorted order, their offsets, and values.
  struct Table: Sendable {
    var names: [UInt8] = []
    /// `offsets[i]..<offsets[i + 1]` is the `i`th name in `names`.
    var offsets: [Int32] = [0]
    /// Two scalars per entry; the second is 0 when the reference expands to one scalar.
    var values: [UInt32] = []

    init() {
      names.reserveCapacity(16_384)
      offsets.reserveCapacity(HTMLEntities.packedCount + 1)
      values.reserveCapacity(HTMLEntities.packedCount * 2)
      let packed = HTMLEntities.packed
      let bytes = UnsafeBufferPointer(start: packed.utf8Start, count: packed.utf8CodeUnitCount)
      var index = 0
      while index < bytes.count {
        while index < bytes.count && bytes[index] != 0x20 {
          names.append(bytes[index])
          index += 1
        }
        offsets.append(Int32(names.count))
        var scalars: [UInt32] = []
        while index < bytes.count && bytes[index] != 0x7C {
          index += 1  // the space before a value
          var value: UInt32 = 0
          while index < bytes.count && bytes[index] != 0x20 && bytes[index] != 0x7C {
            value = value * 16 + UInt32(Self.hexValue(bytes[index]) ?? 0)
            index += 1
          }
          scalars.append(value)
        }
        index += 1  // the '|'
        values.append(scalars.first ?? 0xFFFD)
        values.append(scalars.count > 1 ? scalars[1] : 0)
      }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
      switch byte {
      case 0x30...0x39: byte - 0x30
      case 0x41...0x46: byte - 0x41 + 10
      case 0x61...0x66: byte - 0x61 + 10
      default: nil
      }
    }

    var count: Int { offsets.count - 1 }

    /// Compares entry `entry` with `key[start..<end]` by bytes.
    func compare(entry: Int, _ key: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int {
      let from = Int(offsets[entry])
      let to = Int(offsets[entry + 1])
      var a = from
      var b = start
      while a < to && b < end {
        if names[a] != key[b] { return names[a] < key[b] ? -1 : 1 }
        a += 1
        b += 1
      }
      let entryLength = to - from
      let keyLength = end - start
      return entryLength < keyLength ? -1 : (entryLength == keyLength ? 0 : 1)
    }

    /// The entry whose name is exactly `key[start..<end]`.
    func find(_ key: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int? {
      var low = 0
      var high = count
      while low < high {
        let middle = (low + high) / 2
        let order = compare(entry: middle, key, start: start, end: end)
        if order == 0 { return middle }
        if order < 0 { low = middle + 1 } else { high = middle }
      }
      return nil
    }
  }

  static let table = Table()

  /// The longest name is 32 bytes (`CounterClockwiseContourIntegral;`).
  static let longestName = 32

  /// A consumed character reference: its replacement and where the input continues.
  struct Match {
    var scalars: (UInt32, UInt32)
    var end: Int
  }

  /// "Consume a character reference" (HTML) with `position` just after the `&`, not in an
  /// attribute. Returns nil when nothing is consumed (the caller then keeps the `&`).
  static func consume(_ p: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> Match? {
    guard position < end else { return nil }
    let first = p[position]
    if first == 0x23 { return numeric(p, at: position + 1, end: end) }
    guard isAlphanumeric(first) else { return nil }
    // Names are ASCII alphanumerics with an optional final ';': the longest match is
    // within the alphanumeric run plus one ';'.
    var run = position
    while run < end && run - position < longestName && isAlphanumeric(p[run]) { run += 1 }
    let table = Self.table
    if run < end && p[run] == 0x3B, let entry = table.find(p, start: position, end: run + 1) {
      return Match(scalars: (table.values[2 * entry], table.values[2 * entry + 1]), end: run + 1)
    }
    var length = run - position
    while length > 0 {
      if let entry = table.find(p, start: position, end: position + length) {
        return Match(
          scalars: (table.values[2 * entry], table.values[2 * entry + 1]), end: position + length)
      }
      length -= 1
    }
    return nil
  }

  @inline(__always)
  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
  }

  /// Numeric references after `&#`: decimal or `x`/`X` hex, with the HTML replacement rules.
  static func numeric(_ p: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> Match? {
    var index = start
    var hex = false
    if index < end && (p[index] == 0x78 || p[index] == 0x58) {
      hex = true
      index += 1
    }
    let digitsStart = index
    var value: UInt32 = 0
    while index < end {
      let digit: UInt8
      if hex {
        guard let d = Table.hexValue(p[index]) else { break }
        digit = d
      } else {
        guard VTTSyntax.isDigit(p[index]) else { break }
        digit = p[index] - 0x30
      }
      // Saturate: anything above 0x10FFFF is replaced by U+FFFD anyway.
      value = value > 0x10_FFFF ? value : value * (hex ? 16 : 10) + UInt32(digit)
      index += 1
    }
    guard index > digitsStart else { return nil }
    if index < end && p[index] == 0x3B { index += 1 }
    return Match(scalars: (replacement(forNumeric: value), 0), end: index)
  }

  /// The HTML "numeric character reference end state" substitutions.
  static func replacement(forNumeric value: UInt32) -> UInt32 {
    if value == 0 || value > 0x10_FFFF || (0xD800...0xDFFF).contains(value) { return 0xFFFD }
    if value >= 0x80 && value <= 0x9F {
      let mapped = c1Replacements[Int(value - 0x80)]
      if mapped != 0 { return mapped }
    }
    return value
  }

  /// Windows-1252 meanings for numeric references to C1 controls (0 = keep the value).
  static let c1Replacements: [UInt32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
    0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
  ]

  /// Appends the UTF-8 encoding of `scalar` (U+FFFD if it is not a scalar value).
  static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
    SubtitleParser.appendUTF8(Unicode.Scalar(scalar)?.value ?? 0xFFFD, to: &output)
  }
}
