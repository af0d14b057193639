import Testing

@testable import MediaTracks

// mov_text (tx3g) samples: the text, then `styl` boxes whose runs become <b>, <i>, <u>.

/// A sample of `text` followed by `boxes`.
private func sample(_ text: String, _ boxes: [UInt8] = []) -> ArraySlice<UInt8> {
  let bytes = Array(text.utf8)
  return ([UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes + boxes)[...]
}

/// A `styl` box of (startChar, endChar, face flags) entries, opaque white unless `colour`
/// (RGBA) says otherwise.
private func styl(_ runs: [(Int, Int, UInt8)], colour: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF])
  -> [UInt8]
{
  var body: [UInt8] = [0, UInt8(runs.count)]
  for (start, end, face) in runs {
    body += [UInt8(start >> 8), UInt8(start & 0xFF), UInt8(end >> 8), UInt8(end & 0xFF), 0, 1]
    body += [face, 18] + colour
  }
  let size = body.count + 8
  return [0, 0, UInt8(size >> 8), UInt8(size & 0xFF)] + Array("styl".utf8) + body
}

private func read(_ payload: ArraySlice<UInt8>, defaultColour: UInt32 = 0xFFFF_FFFF) -> (
  text: String, notes: [String]
) {
  var notes: [String] = []
  let text = MovTextSample.markedUpText(payload, defaultColour: defaultColour, notes: &notes)
  return (String(decoding: text, as: UTF8.self), notes)
}

@Test func movTextStyleRunsBecomeMarkupAtCharacterOffsets() {
  // Offsets count characters: `ß` and `é` are two bytes each.
  let text = "Große and bold é under"
  let result = read(sample(text, styl([(0, 5, 2), (10, 14, 1), (17, 22, 4)])))
  #expect(result.text == "<i>Große</i> and <b>bold</b> é <u>under</u>")
  #expect(result.notes.isEmpty)
  let both = read(sample("plain both\n", styl([(6, 10, 3), (0, 2, 0)])))
  #expect(both.text == "plain <b><i>both</i></b>")
  #expect(both.notes.isEmpty)
}

@Test func movTextBadRunsAreClampedAndBadBoxesSkipped() {
  // Runs in start order: one past the end is clamped, an overlapping one starts where the one
  // before it ended, an empty one is skipped.
  let clamped = read(sample("abcdef", styl([(4, 99, 1), (2, 5, 2), (9, 12, 4), (3, 3, 1)])))
  #expect(clamped.text == "ab<i>cde</i><b>f</b>")
  #expect(clamped.notes.count == 3)
  // A styl box that cannot hold its entries, and a box larger than the sample.
  var short = styl([(0, 1, 1)])
  short[9] = 5
  let skipped = read(sample("abc", short))
  #expect(skipped.text == "abc")
  #expect(skipped.notes == ["styl box of 22 bytes cannot hold its 5 entries: skipped"])
  var huge = styl([(0, 1, 1)])
  huge[2] = 0x7F
  #expect(read(sample("abc", huge)).text == "abc")
  #expect(read(sample("abc", huge)).notes.count == 1)
  // A text length past the sample's end, and no bytes at all: no trap.
  #expect(read([0, 9, 0x61]).text == "a")
  #expect(read([0]).text == "")
  #expect(read(sample("", styl([(0, 3, 1)]))).text == "")
}

@Test func movTextColoursOtherThanTheTracksDefaultAreKept() {
  let yellow = styl([(0, 6, 1)], colour: [0xFF, 0xFF, 0x00, 0xFF])
  #expect(
    read(sample("yellow line", yellow)).text == "<font color=\"#ffff00\"><b>yellow</b></font> line")
  // The track's default colour (alpha aside) is no markup.
  #expect(
    read(sample("yellow line", yellow), defaultColour: 0xFFFF_0080).text == "<b>yellow</b> line")
  // The default style record of a tx3g sample entry body (FFmpeg's extradata): white.
  var entry = [UInt8](repeating: 0, count: 30)
  entry[26...29] = [0x12, 0x34, 0x56, 0xFF]
  #expect(MovTextSample.defaultColour(entry) == 0x1234_56FF)
  #expect(MovTextSample.defaultColour([0, 1, 2]) == nil)
}
