import Testing

@testable import SubtitleParser

/// Random damage to real inputs: the parser must neither crash nor hang, the stream parser
/// must still agree with the whole-file parser, and every cue must reference valid ranges.
@Suite struct WebVTTRobustnessTests {
  static let fragments: [[UInt8]] = [
    Array("-->".utf8), [0x0D], [0x0A], [0x0D, 0x0A], [0x00], [0xFF], [0xE2, 0x82],
    [0xEF, 0xBB, 0xBF],
    Array(":".utf8), Array("99999999999999999999:".utf8), Array("<b.".utf8), Array("&#x".utf8),
    Array("&amp".utf8), Array(" line:-1.5%,end".utf8), Array("REGION\n".utf8),
    Array("STYLE\n".utf8),
    Array("\n\n".utf8), Array("00:00.000".utf8), Array("region:".utf8), Array("<v ".utf8),
  ]

  static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
    var output = bytes
    for _ in 0..<(1 + Int(rng.next() % 4)) {
      let at = output.isEmpty ? 0 : Int(rng.next() % UInt64(output.count + 1))
      switch rng.next() % 3 {
      case 0:
        output.insert(contentsOf: fragments[Int(rng.next() % UInt64(fragments.count))], at: at)
      case 1:
        if at < output.count { output.remove(at: at) }
      default:
        if at < output.count { output[at] = UInt8(truncatingIfNeeded: rng.next()) }
      }
    }
    return output
  }

  @Test(arguments: WPT.fileParsingInputs())
  func damagedInputs(_ path: String) throws {
    var rng = SplitMix64(seed: UInt64(truncatingIfNeeded: path.utf8.count &* 7919))
    let original = try WPT.bytes(path)
    for _ in 0..<12 {
      let bytes = Self.mutate(original, &rng)
      let whole = Result { () throws(SubtitleError) in try WebVTT.parse(bytes) }
      let streamed = WebVTTStreamParserTests.streamed(bytes, &rng, maxChunk: 9)
      switch (whole, streamed) {
      case (.success(let document), .success(let (streamedDocument, _))):
        #expect(streamedDocument == document)
        for cue in document.cues {
          #expect(document.text.indices.contains(cue.textRange.lowerBound) || cue.textRange.isEmpty)
          #expect(cue.textRange.upperBound <= document.text.count)
          #expect(cue.idRange.upperBound <= document.text.count)
          _ = document.cueTree(of: cue)
        }
        // The stored text is valid UTF-8 without CR or NUL.
        #expect(!document.text.contains(0x0D) && !document.text.contains(0))
        #expect(Array(String(decoding: document.text, as: UTF8.self).utf8) == document.text)
      case (.failure(let a), .failure(let b)):
        #expect(a == b)
      default:
        Issue.record("\(path): whole \(whole) vs streamed \(streamed)")
      }
    }
  }

  @Test func randomCueTextDoesNotCrash() {
    var rng = SplitMix64(seed: 2024)
    let pieces = [
      "<", ">", "</", "c", "v", "ruby", "rt", "lang", ".", " ", "&", "#", "x", "1", ";",
      "amp", "\n", "0", ":", "b", "i", "u", "é", "\u{0}",
    ]
    for _ in 0..<3000 {
      var text = ""
      for _ in 0..<Int(rng.next() % 30) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
      let nodes = WebVTT.parseCueText(text)
      _ = CueNode.html(nodes)
      _ = CueNode.plainText(nodes)
    }
  }
}
