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

  /// `WebVTT.parse` writes the cues into storage reserved for them and appends those past
  /// it: with that storage cut short, the documents must not change.
  @Test(arguments: inputs())
  func cuesPastTheReservedStorageAreKept(_ path: String) throws {
    for bytes in Self.variants(try WPT.bytes(path)) {
      let whole = Result { () throws(SubtitleError) in try WebVTT.parse(bytes) }
      for limit in [0, 1, 2, 3] {
        let limited = Result { () throws(SubtitleError) in
          try WebVTT.parse(bytes, storedCueLimit: limit)
        }
        #expect(limited == whole, "\(path) limit \(limit)")
      }
    }
  }

  @Test func manyCuesPastTheReservedStorage() throws {
    var text = "WEBVTT\r\n\r\n"
    for index in 0..<200 {
      text += "c\(index)\r\n00:00:\(10 + index % 50).000 --> 00:01:00.000 align:start\r\n"
      text += "line \(index) \u{00E9}\r\n\r\n"
    }
    let bytes = Array(text.utf8)
    let whole = try WebVTT.parse(bytes)
    #expect(whole.cues.count == 200)
    for limit in [0, 1, 50, 199, 200, 201] {
      #expect(try WebVTT.parse(bytes, storedCueLimit: limit) == whole, "limit \(limit)")
    }
    var parser = WebVTTStreamParser()
    _ = try parser.feed(bytes)
    _ = try parser.finish()
    #expect(parser.document == whole)
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

  @Test func aFailedParserKeepsThrowing() {
    var parser = WebVTTStreamParser()
    #expect(throws: SubtitleError.badSignature(line: 1, offset: 0)) {
      try parser.feed(Array("WEBVTX\n".utf8))
    }
    #expect(throws: SubtitleError.badSignature(line: 1, offset: 0)) {
      try parser.feed(Array("\n00:00.000 --> 00:01.000\nx\n".utf8))
    }
    #expect(throws: SubtitleError.badSignature(line: 1, offset: 0)) { try parser.finish() }
  }

  @Test(arguments: [1, 7, 64, 1000])
  func longLinesInSmallChunksMatchTheWholeFile(chunk: Int) throws {
    // Long lines (a header, an identifier, a timing line with long settings, a cue text line)
    // arrive over many chunks; each unfinished line is resumed where its scan stopped, and an
    // arrow split across that point is still found.
    let long = String(repeating: "ab-", count: 700)
    let file =
      "WEBVTT \(long)\n\n\(long)\n00:00.000 --> 00:01.000 \(long)\n\(long)\n\n"
      + "\(long)-->\n00:02.000 --> 00:03.000\nx\n\n" + long + "\n00:04.000 --" + "> 00:05.000\ny"
    let bytes = Array(file.utf8)
    let whole = try WebVTT.parse(bytes)
    for skew in [0, 1, 2] {
      var parser = WebVTTStreamParser()
      var cues: [Cue] = []
      var offset = 0
      while offset < bytes.count {
        let end = min(bytes.count, offset + (offset == 0 ? chunk + skew : chunk))
        cues += try parser.feed(Array(bytes[offset..<end]))
        offset = end
      }
      cues += try parser.finish()
      #expect(parser.document == whole, "chunk \(chunk) skew \(skew)")
      #expect(cues == whole.cues)
    }
    #expect(whole.cues.count == 3)  // the line with "-->" after the text ends its block
  }
}
