/// One override tag of an ASS override block (`{\b1\pos(10,20)}` holds `b` and `pos`).
struct SSATag {
  /// The tag name: a letter run (`b`, `pos`, `fscx`), a digit and letters (`1c`, `3a`), or the
  /// two letters of a tag whose value follows without a separator (`fn`, and `r`).
  var name: ArraySlice<UInt8>
  /// What follows the name up to the next tag: digits, a colour, a font name, or the text
  /// inside the parentheses.
  var argument: ArraySlice<UInt8>

  /// Whether the name is `text` (ASCII).
  @inline(__always)
  func `is`(_ text: StaticString) -> Bool { SSAParser.equals(name, text) }

  /// The argument as an integer (leading sign, digits; a fraction ignored), or nil.
  var integer: Int? {
    var value = 0
    var any = false
    var negative = false
    var i = argument.startIndex
    while i < argument.endIndex, argument[i] == 0x20 { i += 1 }
    if i < argument.endIndex, argument[i] == 0x2D || argument[i] == 0x2B {
      negative = argument[i] == 0x2D
      i += 1
    }
    while i < argument.endIndex, argument[i] >= 0x30, argument[i] <= 0x39, value < 1 << 40 {
      value = value * 10 + Int(argument[i] - 0x30)
      any = true
      i += 1
    }
    return any ? (negative ? -value : value) : nil
  }

  /// The comma-separated numbers of a parenthesised argument (`\pos(10,20)`); nil when one is
  /// not a number.
  var numbers: [Double]? {
    var out: [Double] = []
    for part in argument.split(separator: 0x2C, omittingEmptySubsequences: false) {
      let text = String(decoding: part, as: UTF8.self).filter { $0 != " " && $0 != "\t" }
      guard let value = Double(text), value.isFinite else { return nil }
      out.append(value)
    }
    return out
  }

  /// Reads each tag of the block `text[start..<end]` (between `{` and `}`). Text in the block
  /// that is not a tag (a comment) is skipped.
  ///
  /// - Complexity: O(*n*) in the length of the block.
  static func forEach(
    in text: ArraySlice<UInt8>, _ start: Int, _ end: Int, _ body: (SSATag) -> Void
  ) {
    var i = start
    while i < end {
      guard text[i] == 0x5C else {
        i += 1
        continue
      }
      let nameStart = i + 1
      var nameEnd = nameStart
      if nameEnd + 1 < end, isDigit(text[nameEnd]), isLetter(text[nameEnd + 1]) {
        nameEnd += 1
      }
      while nameEnd < end, isLetter(text[nameEnd]) { nameEnd += 1 }
      // Tags whose value follows the name directly: the name is their own letters.
      let run = text[nameStart..<nameEnd]
      if run.count > 2, run.first == 0x66, run.dropFirst().first == 0x6E {
        nameEnd = nameStart + 2  // fn
      } else if run.count > 1, run.first == 0x72 {
        nameEnd = nameStart + 1  // r with a style name
      }
      var argumentEnd = nameEnd
      var argumentStart = nameEnd
      if nameEnd < end, text[nameEnd] == 0x28 {
        // Parenthesised: up to the matching `)` (tags inside, as in `\t(…)`, are its own).
        argumentStart = nameEnd + 1
        var depth = 1
        argumentEnd = argumentStart
        while argumentEnd < end {
          if text[argumentEnd] == 0x28 { depth += 1 }
          if text[argumentEnd] == 0x29 {
            depth -= 1
            if depth == 0 { break }
          }
          argumentEnd += 1
        }
        i = min(end, argumentEnd + 1)
      } else {
        while argumentEnd < end, text[argumentEnd] != 0x5C { argumentEnd += 1 }
        i = argumentEnd
      }
      body(SSATag(name: text[nameStart..<nameEnd], argument: text[argumentStart..<argumentEnd]))
    }
  }

  @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
  @inline(__always) static func isLetter(_ c: UInt8) -> Bool {
    (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
  }
}
