import Testing

@testable import SubtitleParser

@Suite struct WebVTTStreamParserTests {
  /// Every conformance input, plus CRLF and BOM variants of each (so chunk boundaries also
  /// fall inside CRLF pairs, UTF-8 sequences and the byte order mark).
  static func inputs() -> [String] { WPT.fileParsingInputs() }

  static func variants(_ bytes: [UInt8]) -> [[UInt8]] {
    var crlf: [UInt8] = []
    for byte in bytes {
      if byte == 0x0A { crlf.append(0x0D) }
      crlf.append(byte)
    }
    return [bytes, crlf, [0xEF, 0xBB, 0xBF] + bytes, [0xEF, 0xBB, 0xBF] + crlf]
  }

  static func streamed(
    _ bytes: [UInt8], _ rng: inout SplitMix64, maxChunk: Int
  ) -> Result<(SubtitleDocument, [Cue]), SubtitleError> {
    var parser = WebVTTStreamParser()
    var cues: [Cue] = []
    var offset = 0
    do {
      while offset < bytes.count {
        let size = 1 + Int(rng.next() % UInt64(maxChunk))
        let end = min(bytes.count, offset + size)
        cues += try parser.feed(Array(bytes[offset..<end]))
        offset = end
      }
      cues += try parser.finish()
    } catch {
      return .failure(error)
    }
    return .success((parser.document, cues))
  }

  @Test(arguments: inputs())
  func chunkedParsingMatchesWholeFile(_ path: String) throws {
    var rng = SplitMix64(
      seed: UInt64(truncatingIfNeeded: path.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
    for bytes in Self.variants(try WPT.bytes(path)) {
      let whole = Result { () throws(SubtitleError) in try WebVTT.parse(bytes) }
      for maxChunk in [1, 5, 300] {
        let streamed = Self.streamed(bytes, &rng, maxChunk: maxChunk)
        switch (whole, streamed) {
        case (.success(let document), .success(let (streamedDocument, cues))):
          #expect(streamedDocument == document, "\(path) max chunk \(maxChunk)")
          #expect(cues == document.cues, "\(path) max chunk \(maxChunk)")
        case (.failure(let a), .failure(let b)):
          #expect(a == b)
        default:
          Issue.record("\(path) max chunk \(maxChunk): whole \(whole) vs streamed \(streamed)")
        }
      }
    }
  }

  @Test func cuesArriveAsSoonAsTheirBlockEnds() throws {
    var parser = WebVTTStreamParser()
    #expect(try parser.feed(Array("WEBVTT\n\n00:00.000 --> 00:01.000\nfirst\n".utf8)).isEmpty)
    let done = try parser.feed(Array("\n00:01.000 --> 00:02.000\nsecond".utf8))
    #expect(done.count == 1)
    #expect(parser.document.text(of: done[0]) == "first")
    let rest = try parser.finish()
    #expect(rest.map { parser.document.text(of: $0) } == ["second"])
  }

  @Test func badSignatureIsReportedEarly() {
    var parser = WebVTTStreamParser()
    #expect(throws: SubtitleError.self) { try parser.feed(Array("WEBVTX".utf8) + [0x0A]) }
  }
}
