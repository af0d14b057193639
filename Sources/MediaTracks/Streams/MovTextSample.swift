/// One MP4 `mov_text` (3GPP timed text, `tx3g`) sample, read from its bytes (3GPP TS 26.245,
/// 5.17): a 16-bit big-endian text length, the text (UTF-8), then modifier boxes. Of those,
/// `styl` is read: entries of `startChar`, `endChar` (16 bits each), `font-ID` (16 bits),
/// `face-style-flags` (8 bits: bold 1, italic 2, underline 4), `font-size` (8 bits) and an RGBA
/// colour, each the style of the characters `startChar..<endChar`. A run's colour is kept
/// when it differs from the track's default text colour (its sample entry's style record).
///
/// Offsets count characters (Unicode scalars) of the text, as FFmpeg's `mov_text` encoder
/// writes them and its decoder reads them; Media3's `Tx3gParser` counts UTF-16 code units of
/// the decoded string, which is the same count for every character outside the astral planes.
enum MovTextSample {
  /// The face-style flags this reader turns into markup, with their SubRip tag names, in the
  /// order the tags open.
  private static let faces: [(flag: UInt8, tag: String)] = [(1, "b"), (2, "i"), (4, "u")]

  /// The default text colour (RGBA) of a `tx3g` sample entry's body after its 8-byte header
  /// (FFmpeg's extradata of a `mov_text` stream): the colour of its default style record, or
  /// `nil` when `configuration` is too short to hold one.
  static func defaultColour(_ configuration: [UInt8]) -> UInt32? {
    // displayFlags (4), justification (2), background colour (4), BoxRecord (8), then the
    // StyleRecord: startChar, endChar, font-ID (2 each), face, size (1 each), colour.
    guard configuration.count >= 30 else { return nil }
    return be32(configuration[...], 26)
  }

  /// The sample's text with its `styl` runs as SubRip markup (`<b>`, `<i>`, `<u>`, and
  /// `<font color="#rrggbb">` for a colour other than `defaultColour`'s, alpha aside),
  /// trailing NUL, line feed, carriage return and space bytes left out.
  ///
  /// A run is clamped to the text (an end past the last character ends there) and to the end
  /// of the run before it, so tags always nest; a run left empty is skipped with a
  /// diagnostic. A box whose size does not fit the sample, or a `styl` box whose entries do
  /// not fit the box, is skipped with a diagnostic (and no box after it is read). Nothing
  /// here traps on malformed input.
  ///
  /// - Parameters:
  ///   - payload: The sample's bytes.
  ///   - defaultColour: The track's default text colour, RGBA (opaque white when the sample
  ///     entry states none).
  ///   - notes: Receives one line per repair or skip.
  /// - Returns: The text as UTF-8 (empty for a sample shorter than its length field).
  /// - Complexity: O(*n*) in the size of the sample, plus O(*r* log *r*) for *r* runs.
  static func markedUpText(
    _ payload: ArraySlice<UInt8>, defaultColour: UInt32 = 0xFFFF_FFFF, notes: inout [String]
  ) -> [UInt8] {
    guard payload.count >= 2 else { return [] }
    let base = payload.startIndex
    let length = Int(payload[base]) << 8 | Int(payload[base + 1])
    let textStart = base + 2
    let textEnd = min(payload.endIndex, textStart + length)
    if textStart + length > payload.endIndex {
      notes.append("text length \(length) is past the sample's end: cut to \(textEnd - textStart)")
    }
    var text = payload[textStart..<textEnd]
    while let last = text.last, last == 0 || last == 0x0A || last == 0x0D || last == 0x20 {
      text = text.dropLast()
    }
    let runs = styleRuns(payload[textEnd...], notes: &notes)
    guard !runs.isEmpty, !text.isEmpty else { return Array(text) }
    // The byte offset of every character start, and of the text's end.
    var starts: [Int] = []
    starts.reserveCapacity(text.count + 1)
    for j in text.indices where text[j] & 0xC0 != 0x80 { starts.append(j) }
    starts.append(text.endIndex)
    let characters = starts.count - 1
    var out: [UInt8] = []
    out.reserveCapacity(text.count + runs.count * 12)
    var copied = text.startIndex
    var previousEnd = 0
    for run in runs.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
      let start = max(min(run.start, characters), previousEnd)
      let end = min(run.end, characters)
      var tags = faces.filter { run.face & $0.flag != 0 }.map(\.tag)
      if run.colour >> 8 != defaultColour >> 8 { tags.insert(colourTag(run.colour), at: 0) }
      guard start < end else {
        notes.append(
          "styl run \(run.start)..<\(run.end) is empty within the text's \(characters) "
            + "characters: skipped")
        continue
      }
      if run.end > characters {
        notes.append(
          "styl run \(run.start)..<\(run.end) ends past the text's \(characters) characters: "
            + "clamped")
      }
      previousEnd = end
      guard !tags.isEmpty else { continue }
      out += text[copied..<starts[start]]
      for tag in tags { out += Array("<\(tag)>".utf8) }
      out += text[starts[start]..<starts[end]]
      for tag in tags.reversed() {
        out += Array("</\(tag.prefix { $0 != " " })>".utf8)
      }
      copied = starts[end]
    }
    out += text[copied...]
    return out
  }

  /// The entries of the `styl` boxes among `boxes` (the bytes after the text).
  private static func styleRuns(_ boxes: ArraySlice<UInt8>, notes: inout [String]) -> [(
    start: Int, end: Int, face: UInt8, colour: UInt32
  )] {
    var runs: [(start: Int, end: Int, face: UInt8, colour: UInt32)] = []
    var at = boxes.startIndex
    while boxes.endIndex - at >= 8 {
      let size = Int(be32(boxes, at))
      let type = boxes[(at + 4)..<(at + 8)]
      guard size >= 8, size <= boxes.endIndex - at else {
        notes.append(
          "box '\(String(decoding: type, as: UTF8.self))' of \(size) bytes does not fit the "
            + "sample's \(boxes.endIndex - at): skipped")
        return runs
      }
      defer { at += size }
      guard type.elementsEqual("styl".utf8) else { continue }
      let body = boxes[(at + 8)..<(at + size)]
      guard body.count >= 2 else {
        notes.append("styl box of \(size) bytes has no entry count: skipped")
        continue
      }
      let count = Int(body[body.startIndex]) << 8 | Int(body[body.startIndex + 1])
      guard 2 + count * 12 <= body.count else {
        notes.append("styl box of \(size) bytes cannot hold its \(count) entries: skipped")
        continue
      }
      for entry in 0..<count {
        let e = body.startIndex + 2 + entry * 12
        let start = Int(body[e]) << 8 | Int(body[e + 1])
        let end = Int(body[e + 2]) << 8 | Int(body[e + 3])
        runs.append((start, end, body[e + 6], be32(body, e + 8)))
      }
    }
    if at < boxes.endIndex {
      notes.append("\(boxes.endIndex - at) bytes after the boxes: skipped")
    }
    return runs
  }

  /// The opening SubRip tag of an RGBA colour: `font color="#rrggbb"`.
  private static func colourTag(_ rgba: UInt32) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    for shift in stride(from: 28, through: 8, by: -4) {
      hex.append(digits[Int(rgba >> UInt32(shift) & 0xF)])
    }
    return "font color=\"#\(String(decoding: hex, as: UTF8.self))\""
  }

  /// The 32-bit big-endian number at `at` (four bytes known to be there).
  private static func be32(_ bytes: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
      | UInt32(bytes[at + 3])
  }
}
