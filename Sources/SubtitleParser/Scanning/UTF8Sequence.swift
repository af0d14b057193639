/// One UTF-8 sequence as a decoder reads it: Unicode 3.9 and the WHATWG UTF-8 decoder agree
/// that overlong forms, surrogates and values above U+10FFFF are invalid, and that each
/// maximal invalid subpart stands for one U+FFFD.
///
/// `classify` is the module's one scalar UTF-8 classifier: the WebVTT normaliser, the scalar
/// walks of the vector run checks (`VTTScan.validRunEnd`) and `TextEncoding`'s validation and
/// repair all read non-ASCII bytes through it, and the vector checks are tested against it.
enum UTF8Sequence: Hashable {
  /// A valid scalar of `length` bytes: copy it.
  case valid(length: Int)
  /// An invalid or truncated sequence (its maximal subpart): one U+FFFD for `length` bytes.
  case invalid(length: Int)
  /// The input ends inside a sequence that could still become valid (only when not `final`).
  case needMore

  /// Classifies the sequence at `index`, whose byte is 0x80 or more, reading no byte at or
  /// past `end`.
  ///
  /// - Parameters:
  ///   - buffer: The bytes; `index < end <= buffer.count`.
  ///   - final: Whether the input ends at `end` (a truncated sequence is then invalid) or more
  ///     may follow (`needMore`).
  @inline(__always)
  static func classify(
    _ buffer: UnsafeBufferPointer<UInt8>, at index: Int, end: Int, final: Bool
  ) -> UTF8Sequence {
    assert(index >= 0 && index < end && end <= buffer.count, "classify outside its buffer")
    let lead = buffer[index]
    var needed = 0
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: needed = 1
    case 0xE0:
      needed = 2
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: needed = 2
    case 0xED:
      needed = 2
      upper = 0x9F
    case 0xF0:
      needed = 3
      lower = 0x90
    case 0xF1...0xF3: needed = 3
    case 0xF4:
      needed = 3
      upper = 0x8F
    default: return .invalid(length: 1)
    }
    var seen = 0
    var position = index + 1
    while seen < needed {
      if position >= end { return final ? .invalid(length: position - index) : .needMore }
      let byte = buffer[position]
      if byte < lower || byte > upper { return .invalid(length: position - index) }
      lower = 0x80
      upper = 0xBF
      seen += 1
      position += 1
    }
    return .valid(length: needed + 1)
  }
}
