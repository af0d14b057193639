import Testing

@testable import SubtitleParser

private func parse(_ text: String) throws -> SubtitleDocument {
  try WebVTT.parse(Array(text.utf8))
}

private func texts(_ document: SubtitleDocument) -> [String] {
  document.cues.map { document.text(of: $0) }
}

@Suite struct WebVTTParserTests {
  @Test func byteOrderMarkIsSkipped() throws {
    let document = try WebVTT.parse(
      [0xEF, 0xBB, 0xBF] + Array("WEBVTT\n\n00:00.000 --> 00:01.000\nhi".utf8))
    #expect(texts(document) == ["hi"])
    #expect(Array(document.text.prefix(6)) == Array("WEBVTT".utf8))
  }

  @Test func secondByteOrderMarkRejectsTheFile() {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("WEBVTT\n".utf8)
    #expect(throws: SubtitleError.badSignature(line: 1, offset: 0)) { try WebVTT.parse(bytes) }
  }

  @Test func signatureRules() throws {
    #expect(try parse("WEBVTT").cues.isEmpty)
    #expect(try parse("WEBVTT\t header").header == " header")
    #expect(try parse("WEBVTT\r\n").cues.isEmpty)
    for bad in ["", "WEBVT", "WEBVTTX", "webvtt", "WEBVTT\u{0C}\n", "\u{FEFF}\u{FEFF}WEBVTT", "X"] {
      #expect(throws: SubtitleError.self, "\(bad.debugDescription)") { try parse(bad) }
    }
  }

  @Test func carriageReturnOnlyFile() throws {
    let document = try parse(
      "WEBVTT\r\r00:00.000 --> 00:01.000\rline1\rline2\r\r00:02.000 --> 00:03.000\rx")
    #expect(texts(document) == ["line1\nline2", "x"])
    #expect(document.cues.map(\.line) == [3, 7])
    #expect(!document.text.contains(0x0D))
  }

  @Test func crlfFileMatchesLFFile() throws {
    let lf =
      "WEBVTT\n\nid\n00:00.000 --> 00:01.000 align:start\na\nb\n\n00:02.000 --> 00:03.000\nc\n"
    let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
    let a = try parse(lf)
    let b = try parse(crlf)
    #expect(a == b)
  }

  @Test func nulBecomesReplacementCharacter() throws {
    let document = try WebVTT.parse(Array("WEBVTT\n\n00:00.000 --> 00:01.000\na".utf8) + [0, 0x62])
    #expect(texts(document) == ["a\u{FFFD}b"])
  }

  @Test func invalidUTF8BecomesReplacementCharacters() throws {
    let cases: [([UInt8], String)] = [
      ([0xC3, 0x28], "\u{FFFD}("),
      ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}"),
      ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
      ([0xF0, 0x80, 0x41], "\u{FFFD}\u{FFFD}A"),
      ([0xE2, 0x82], "\u{FFFD}"),
      ([0xF4, 0x90, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
      ([0xE2, 0x82, 0xAC], "€"),
      ([0xFF], "\u{FFFD}"),
    ]
    for (bytes, expected) in cases {
      let document = try WebVTT.parse(Array("WEBVTT\n\n00:00.000 --> 00:01.000\n".utf8) + bytes)
      #expect(texts(document) == [expected], "\(bytes)")
    }
  }

  /// The normaliser agrees with the standard library's UTF-8 repair (both replace maximal
  /// invalid subparts) on random bytes without NUL and CR.
  @Test func normalizationMatchesStandardLibraryDecoding() {
    var rng = SplitMix64(seed: 7)
    for _ in 0..<2000 {
      let length = Int(rng.next() % 24)
      var bytes: [UInt8] = (0..<length).map { _ in
        let pool: [UInt8] = [
          0x41, 0x80, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xA0, 0x90, 0xFF, 0x0A,
        ]
        return rng.next() % 3 == 0
          ? UInt8(truncatingIfNeeded: rng.next()) : pool[Int(rng.next() % 12)]
      }
      bytes.removeAll { $0 == 0 || $0 == 0x0D }
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { continue }
      let expected = Array(String(decoding: bytes, as: UTF8.self).utf8)
      #expect(WebVTT.normalize(bytes) == expected, "\(bytes)")
    }
  }

  @Test func cleanRunKernelMatchesScalarReference() {
    var rng = SplitMix64(seed: 42)
    let specials: [UInt8] = [
      0x00, 0x0D, 0x80, 0xFF, 0xC3, 0xA9, 0xE6, 0x97, 0xA5, 0xF0, 0x9F, 0x0C,
    ]
    for _ in 0..<800 {
      let length = Int(rng.next() % 80)
      var bytes = [UInt8](repeating: 0x61, count: length)
      for _ in 0..<Int(rng.next() % 6) where length > 0 {
        bytes[Int(rng.next() % UInt64(length))] = specials[Int(rng.next() % UInt64(specials.count))]
      }
      if rng.next() % 3 == 0 && length > 4 {
        let at = Int(rng.next() % UInt64(length - 3))
        bytes.replaceSubrange(at..<at + 3, with: [0xE6, 0x97, 0xA5])
      }
      bytes.withUnsafeBufferPointer { p in
        for start in 0...length {
          for final in [true, false] {
            #expect(
              VTTScan.cleanRunEnd(p, from: start, end: length, final: final)
                == VTTScan.cleanRunEndScalar(p, from: start, end: length, final: final))
          }
        }
      }
    }
  }

  /// Long mixed text, so that the 32-byte vector blocks, their fallback to the scalar walk and
  /// the characters that straddle two blocks are all exercised.
  @Test func cleanRunVectorBlocksMatchScalarReference() {
    var rng = SplitMix64(seed: 7)
    let pieces: [[UInt8]] = [
      [0x61], [0x20], [0x0A], [0x0D], [0x00], [0x09], [0xC3, 0xA9], [0xD0, 0x9C],
      [0xE6, 0x97, 0xA5], [0xE2, 0x80, 0x94], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
      [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0x80], [0xBF], [0xC0, 0x80], [0xC1], [0xF5],
      [0xFF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
      [0xF4, 0x90, 0x80, 0x80], [0xE6, 0x97], [0xF0, 0x9F, 0x98], [0xC3],
    ]
    for round in 0..<600 {
      var bytes: [UInt8] = []
      // Up to 1,500 bytes every fourth round: past the 16 blocks checked in full after a
      // block that is not plain ASCII.
      let target = Int(rng.next() % (round % 4 == 1 ? 1500 : 300))
      // Mostly clean text; every few rounds one rare piece.
      let rare = round % 3 == 0
      while bytes.count < target {
        let limit = rare ? pieces.count : 12
        let piece = pieces[Int(rng.next() % UInt64(limit))]
        if piece == [0x0D] || piece == [0x00] {
          if rng.next() % 8 != 0 { continue }
        }
        bytes += piece
      }
      bytes.withUnsafeBufferPointer { p in
        var start = 0
        while start <= bytes.count {
          for final in [true, false] {
            #expect(
              VTTScan.cleanRunEnd(p, from: start, end: bytes.count, final: final)
                == VTTScan.cleanRunEndScalar(p, from: start, end: bytes.count, final: final))
          }
          start += 1 + Int(rng.next() % 9)
        }
      }
    }
  }

  /// Timing lines in the common form (read by word loads) give what the general path gives
  /// for the same line with a second space before the arrow (which only it reads).
  @Test func commonTimingLinesMatchTheGeneralPath() throws {
    let ends = [
      "", " align:start", "\tline:0", " position:10%,line-left size:50%", "0", ".5", ":00",
      " ", " bogus", "x",
    ]
    let starts = ["00:00:01.000", "12:34:56.789", "99:59:59.999", "00:60:00.000", "00:00:01.0000"]
    for start in starts {
      for end in ends {
        let line = start + " --> 01:02:03.456" + end
        let common = try WebVTT.parse(Array("WEBVTT\n\n\(line)\ntext\n".utf8))
        let general = try WebVTT.parse(
          Array("WEBVTT\n\n\(line.replacingOccurrences(of: " -->", with: "  -->"))\ntext\n".utf8))
        #expect(common.cues.count == general.cues.count, "\(line)")
        #expect(
          zip(common.cues, general.cues).allSatisfy {
            $0.startTime == $1.startTime && $0.endTime == $1.endTime && $0.settings == $1.settings
          }, "\(line)")
        #expect(common.diagnostics.map(\.reason) == general.diagnostics.map(\.reason), "\(line)")
      }
    }
  }

  /// The `>` count that validation gathers on the way equals a plain count of the output.
  @Test func validationCountsArrowsLikeAPlainCount() {
    var rng = SplitMix64(seed: 23)
    let pieces: [[UInt8]] = [
      [0x61], [0x3E], [0x2D, 0x2D, 0x3E], [0x0A], [0x0D, 0x0A], [0x0D], [0xC3, 0xA9],
      [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x98, 0x80], [0x20], [0x00], [0xFF], [0xE6, 0x97],
    ]
    for round in 0..<400 {
      var bytes: [UInt8] = round % 5 == 0 ? [0xEF, 0xBB, 0xBF] : []
      let target = Int(rng.next() % (round % 2 == 0 ? 300 : 20_000))
      // Mostly valid input; every fourth round may hold NUL or invalid bytes.
      let limit = round % 4 == 0 ? pieces.count : pieces.count - 3
      while bytes.count < target { bytes += pieces[Int(rng.next() % UInt64(limit))] }
      let (text, counted) = WebVTT.normalizeCounting(bytes)
      #expect(text == WebVTT.normalize(bytes))
      if let counted {
        #expect(counted == text.filter { $0 == 0x3E }.count)
      }
      if round % 4 != 0 { #expect(counted != nil) }
    }
  }

  @Test func lineCursorMatchesScalarReference() {
    var rng = SplitMix64(seed: 11)
    let pool: [UInt8] = [0x2D, 0x2D, 0x3E, 0x3E, 0x20, 0x61, 0x0A, 0x0A, 0x3C]
    let sparse: [UInt8] = [0x2D, 0x3E, 0x20, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x0A]
    for round in 0..<600 {
      // Dense line feeds and arrows, or long lines that span several 64-byte blocks.
      let length = 2 + Int(rng.next() % (round % 2 == 0 ? 400 : 1200))
      let alphabet = round % 2 == 0 ? pool : sparse
      var bytes = (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
      // Arrows across block boundaries.
      for at in stride(from: 62, to: length - 2, by: 64) where rng.next() % 2 == 0 {
        bytes.replaceSubrange(at..<at + 3, with: [0x2D, 0x2D, 0x3E])
      }
      bytes.withUnsafeBufferPointer { p in
        guard let base = p.baseAddress else { return }
        // Chunks of one to three blocks as well as the default: lines across chunks. Every
        // third round without arrows, as the SRT parser uses it.
        let arrows = round % 3 != 0
        var cursor = LineCursor(
          base, length, arrows: arrows, blocksPerChunk: [1, 2, 3, 64][(round / 2) % 4])
        var start = Int(rng.next() % 3)
        while start < length {
          let end = p[start...].firstIndex(of: 0x0A) ?? length
          let line = cursor.line(from: start)
          #expect(line.end == end)
          #expect(line.arrow == (arrows && VTTScan.containsArrow(p, start: start, end: end)))
          start = end + 1
        }
      }
    }
  }

  @Test func lineCursorVectorEventsMatchScalarEvents() {
    var rng = SplitMix64(seed: 12)
    let pool: [UInt8] = [0x2D, 0x2D, 0x3E, 0x0A, 0x20, 0x61, 0x0D, 0xE2]
    for _ in 0..<200 {
      let length = 66 + Int(rng.next() % 400)
      let bytes = (0..<length).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }
      bytes.withUnsafeBufferPointer { p in
        guard let base = p.baseAddress else { return }
        for arrows in [true, false] {
          let cursor = LineCursor(base, length, arrows: arrows)
          for at in 2...(length - 64) {
            #expect(
              LineCursor.vectorEvents(base, at: at, arrows: arrows)
                == cursor.scalarEvents(at: at))
          }
        }
      }
    }
  }

  @Test func hoursFromOneHundredOnParseLikeTwoDigitHours() throws {
    let document = try parse(
      "WEBVTT\n\n100:00:01.250 --> 123:59:59.999 align:start\na\n\n"
        + "999:00:00.000 --> 1000:00:00.000\nb\n\n100:60:00.000 --> 101:00:00.000\nc\n")
    #expect(texts(document) == ["a", "b"])
    #expect(document.cues[0].startTime == 360_001.25)
    #expect(document.cues[0].endTime == 446_399.999)
    #expect(document.cues[0].settings.align == .start)
    #expect(document.cues[1].startTime == 3_596_400)
    #expect(document.cues[1].endTime == 3_600_000)
  }

  @Test func hugeHoursDropTheCueWithADiagnostic() throws {
    let document = try parse(
      "WEBVTT\n\n99999999999999999999:00:00.000 --> 99999999999999999999:00:01.000\nbig\n\n"
        + "00:00.000 --> 00:01.000\nok\n")
    #expect(texts(document) == ["ok"])
    let diagnostic = try #require(document.diagnostics.first)
    #expect(diagnostic.line == 3)
    #expect(diagnostic.reason.contains("out of range"))
  }

  @Test func manyHourDigitsWithinRangeAreAccepted() throws {
    let document = try parse("WEBVTT\n\n0000001:00:00.000 --> 1000:00:00.000\nx")
    #expect(document.cues.map(\.startTime) == [3600])
    #expect(document.cues.map(\.endTime) == [3_600_000])
  }

  @Test func diagnosticsNameLineAndReason() throws {
    let document = try parse(
      "WEBVTT\n\n00:00.000 --> 00:01.000 align:middle foo:bar nocolon\nx\n\n"
        + "00:00.000 -> 00:01.000\ny\n\nloose text\n")
    #expect(texts(document) == ["x"])
    let lines = document.diagnostics.map(\.line)
    #expect(lines == [3, 3, 3, 6, 9])
    #expect(document.diagnostics[0].reason.contains("align:middle"))
  }

  @Test func stylesAndRegionsOnlyBeforeTheFirstCue() throws {
    let document = try parse(
      "WEBVTT\n\nSTYLE\n::cue { color: red }\n\nREGION\nid:r width:50% lines:2 scroll:up\n\n"
        + "00:00.000 --> 00:01.000 region:r\nx\n\nSTYLE\n::cue { color: blue }\n\n"
        + "REGION\nid:s\n")
    #expect(document.styles == ["::cue { color: red }"])
    #expect(document.regions.count == 1)
    #expect(document.regions[0].width == 50)
    #expect(document.regions[0].lines == 2)
    #expect(document.regions[0].scroll == "up")
    #expect(document.region(of: document.cues[0])?.id == "r")
    #expect(document.diagnostics.filter { $0.reason.contains("after the first cue") }.count == 2)
  }

  @Test func headerAndIdentifiers() throws {
    let document = try parse(
      "WEBVTT - title\nKind: captions\n\nintro\n00:00.000 --> 00:01.000\n\n\n2\n00:01.000 --> 00:02.000\nb"
    )
    #expect(document.header == "- title\nKind: captions")
    #expect(document.cues.map { document.id(of: $0) } == ["intro", "2"])
    #expect(texts(document) == ["", "b"])
  }

  /// The spec's answer for the wpt `regions-regionanchor` input (whose upstream assertions
  /// assume distinct region ids): `region:6` finds the last region with id 6, ids 7…20 find
  /// nothing.
  @Test func duplicateRegionIdsResolveToTheLastDefinition() throws {
    let document = try WebVTT.parse(WPT.bytes("inputs/file-parsing/regions-regionanchor.vtt"))
    #expect(document.cues.count == 20)
    #expect(document.regions.count == 20)
    let region6 = try #require(document.region(of: document.cues[5]))
    #expect(document.cues[5].settings.region == 19)
    #expect(region6.regionAnchorX == 0 && region6.regionAnchorY == 100)
    #expect(document.cues[6...].allSatisfy { $0.settings.region == nil })
    #expect(document.cues[4].settings.region == 4)
    #expect(document.regions[5].regionAnchorX == 100)
  }

  @Test func timestampMapIsReadInEitherOrder() throws {
    let a = try parse(
      "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:01.000 --> 00:02.000\nx")
    #expect(a.timestampMap == TimestampMap(mpegts: 900_000, local: 0))
    let b = try parse("WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:10.000,MPEGTS:181070\n")
    #expect(b.timestampMap == TimestampMap(mpegts: 181_070, local: 10))
    let bad = try parse("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:abc,LOCAL:00:00:00.000\n")
    #expect(bad.timestampMap == nil)
    #expect(bad.diagnostics.map(\.line) == [2])
  }

  @Test func timestampMapMapsCueTimesWithRollover() {
    let map = TimestampMap(mpegts: 900_000, local: 0)
    #expect(map.presentationTicks(forCueTime: 1) == 990_000)
    #expect(map.presentationTime(forCueTime: 1) == 11)
    let nearWrap = TimestampMap(mpegts: (1 << 33) - 90_000, local: 5)
    #expect(nearWrap.presentationTicks(forCueTime: 5) == (1 << 33) - 90_000)
    #expect(nearWrap.presentationTicks(forCueTime: 6) == 0)
    #expect(nearWrap.presentationTicks(forCueTime: 16) == 900_000)
    #expect(nearWrap.presentationTicks(forCueTime: 0) == (1 << 33) - 540_000)
    let behind = TimestampMap(mpegts: 0, local: 10)
    #expect(behind.presentationTicks(forCueTime: 9) == (1 << 33) - 90_000)
    #expect(behind.presentationTicks(forCueTime: 1e300) >= 0)
  }

  @Test func lineAndPositionNumbers() throws {
    let document = try parse(
      "WEBVTT\n\n00:00.000 --> 00:01.000 line:-0 position:12.5%,line-left size:0.001%\na\n\n"
        + "00:00.000 --> 00:01.000 line:0.30000000000000004% line:-1.5,end vertical:lr\nb\n")
    let first = document.cues[0].settings
    #expect(first.line == 0 && first.line?.sign == .plus && first.snapToLines)
    #expect(first.position == 12.5 && first.positionAlign == .lineLeft && first.size == 0.001)
    let second = document.cues[1].settings
    #expect(second.line == -1.5 && second.lineAlign == .end && second.snapToLines)
    #expect(second.vertical == .leftToRight)
  }

  @Test func regionLinesKeepsHugeIntegers() throws {
    let document = try parse("WEBVTT\n\nREGION\nid:a lines:18446744073709551616\n")
    #expect(document.regions[0].lineCount == 18_446_744_073_709_551_616)
    #expect(document.regions[0].lines == Int.max)
  }
}

/// A small deterministic generator (SplitMix64) for reproducible random tests.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite struct TimestampTests {
  /// Reference: the spec's "collect a WebVTT timestamp", written plainly on Strings.
  static func reference(_ text: String) -> (Int64, Int)? {
    let chars = Array(text.utf8)
    var i = 0
    func digits() -> (Int64, Int)? {
      let start = i
      var value: Int64 = 0
      while i < chars.count, chars[i] >= 0x30, chars[i] <= 0x39 {
        if i - start > 17 { return nil }
        value = value * 10 + Int64(chars[i] - 0x30)
        i += 1
      }
      return (value, i - start)
    }
    guard let (v1, n1) = digits(), n1 > 0 else { return nil }
    let hoursFirst = n1 != 2 || v1 > 59
    guard i < chars.count, chars[i] == 0x3A else { return nil }
    i += 1
    guard let (v2, n2) = digits(), n2 == 2 else { return nil }
    var h: Int64 = 0
    var m = v1
    var s = v2
    if hoursFirst || (i < chars.count && chars[i] == 0x3A) {
      guard i < chars.count, chars[i] == 0x3A else { return nil }
      i += 1
      guard let (v3, n3) = digits(), n3 == 2 else { return nil }
      h = v1
      m = v2
      s = v3
    }
    guard i < chars.count, chars[i] == 0x2E else { return nil }
    i += 1
    guard let (v4, n4) = digits(), n4 == 3, m <= 59, s <= 59 else { return nil }
    return (h * 3_600_000 + m * 60_000 + s * 1000 + v4, i)
  }

  @Test func fastPathsAgreeWithReference() {
    var rng = SplitMix64(seed: 11)
    let alphabet = Array("0123456789:.:.0159 -".utf8)
    var samples = [
      "00:00:00.000 ", "99:59:59.999x", "12:60:00.000 ", "1:00:00.000", "00:00.000",
      "59:59.999", "60:00.000", "00:00:00.0000", "00:00:00.000:", "00:00:00.000.", "00:00:0a.000 ",
    ]
    for _ in 0..<20_000 {
      var bytes = Array("00:00:00.000 ".utf8)
      for _ in 0..<Int(rng.next() % 3) {
        bytes[Int(rng.next() % UInt64(bytes.count))] =
          alphabet[Int(rng.next() % UInt64(alphabet.count))]
      }
      if rng.next() % 4 == 0 { bytes.removeFirst(3) }
      samples.append(String(decoding: bytes, as: UTF8.self))
    }
    for sample in samples {
      let bytes = Array(sample.utf8)
      let fast: (Int64, Int)? = bytes.withUnsafeBufferPointer { p in
        var position = 0
        guard case .success(let millis) = VTTSyntax.collectTimestamp(p, &position, end: p.count)
        else { return nil }
        return (millis, position)
      }
      let slow = Self.reference(sample)
      #expect(fast?.0 == slow?.0 && fast?.1 == slow?.1, "\(sample)")
    }
  }

  /// The timing-line fast path decodes every field value as the reference does: random valid
  /// timestamps (two or three hour digits) on both sides of the arrow.
  @Test func canonicalTimingsDecodeEveryFieldValue() {
    var rng = SplitMix64(seed: 19)
    func pad(_ value: UInt64, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    func stamp() -> String {
      let hours = rng.next() % 4 == 0 ? 100 + rng.next() % 900 : rng.next() % 100
      return "\(pad(hours, 2)):\(pad(rng.next() % 60, 2)):\(pad(rng.next() % 60, 2))."
        + pad(rng.next() % 1000, 3)
    }
    for round in 0..<20_000 {
      let line = stamp() + " --> " + stamp() + (round % 3 == 0 ? " align:end" : "")
      var bytes = Array(line.utf8)
      let end = bytes.count
      // The next line's bytes (the fast path reads 16 bytes from the second timestamp on).
      bytes += Array("\nnext line of text\n".utf8)
      let fast: (Int64, Int64, Int)? = bytes.withUnsafeBufferPointer { p in
        VTTSyntax.canonicalTimings(p, start: 0, end: end).map { ($0.first, $0.second, $0.rest) }
      }
      let first = Self.reference(line)
      let arrow = (first?.1 ?? 0) + 5
      let second = Self.reference(String(decoding: Array(line.utf8)[arrow...], as: UTF8.self))
      #expect(fast?.0 == first?.0 && fast?.1 == second?.0, "\(line)")
      #expect(fast?.2 == arrow + (second?.1 ?? 0), "\(line)")
    }
  }

  /// The short forms of cue setting values (`line:-2`, `size:60%`) read as their long forms
  /// (`line:-2.0`, `size:60.0%`), which the general number rules read.
  @Test func shortSettingValuesMatchTheGeneralRules() throws {
    for digits in ["0", "7", "00", "42", "99", "100", "101", "007", "999", "0100", "1000"] {
      for (value, long) in [
        (digits, digits + ".0"), ("-" + digits, "-" + digits + ".0"),
        (digits + "%", digits + ".0%"), ("-" + digits + "%", "-" + digits + ".0%"),
      ] {
        for name in ["line", "size", "position"] {
          func parse(_ value: String) throws -> SubtitleDocument {
            try WebVTT.parse(
              Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000 \(name):\(value)\nx\n".utf8))
          }
          let short = try parse(value)
          let reference = try parse(long)
          #expect(short.cues.first?.settings == reference.cues.first?.settings, "\(name):\(value)")
          #expect(short.diagnostics.count == reference.diagnostics.count, "\(name):\(value)")
        }
      }
    }
  }

  /// The timing-line fast path against the reference: both timestamps, the arrow with one
  /// space each side, and where the rest of the line starts. It may decline any line; what it
  /// accepts must read as the spec reads it.
  @Test func canonicalTimingsAgreeWithReference() {
    var rng = SplitMix64(seed: 5)
    let alphabet = Array("0123456789:.:.0159 ->\t".utf8)
    let bases = [
      "00:00:01.431 --> 00:00:02.506", "100:00:00.060 --> 100:00:01.898 align:end",
      "09:59:59.999 --> 123:00:00.000", "999:59:59.999 --> 99:59:59.999 line:0",
    ]
    var accepted = 0
    for round in 0..<40_000 {
      var bytes = Array(bases[round % bases.count].utf8)
      for _ in 0..<Int(rng.next() % 3) {
        bytes[Int(rng.next() % UInt64(bytes.count))] =
          alphabet[Int(rng.next() % UInt64(alphabet.count))]
      }
      if rng.next() % 8 == 0 { bytes.insert(0x30, at: Int(rng.next() % UInt64(bytes.count))) }
      if rng.next() % 8 == 0 { bytes.remove(at: Int(rng.next() % UInt64(bytes.count))) }
      // The line ends at `end`; the bytes after it are the next line's (or padding).
      let end = bytes.count
      bytes += Array("\n00:00:00.000 -->".utf8)
      let sample = String(decoding: bytes[..<end], as: UTF8.self)
      let fast: (Int64, Int64, Int)? = bytes.withUnsafeBufferPointer { p in
        VTTSyntax.canonicalTimings(p, start: 0, end: end).map { ($0.first, $0.second, $0.rest) }
      }
      guard let fast else { continue }
      accepted += 1
      let line = Array(sample.utf8)
      guard let first = Self.reference(sample), first.1 + 5 <= line.count,
        Array(line[first.1..<first.1 + 5]) == Array(" --> ".utf8)
      else {
        Issue.record("accepted \(sample)")
        continue
      }
      let rest = String(decoding: line[(first.1 + 5)...], as: UTF8.self)
      let second = Self.reference(rest)
      #expect(fast.0 == first.0 && fast.1 == second?.0, "\(sample)")
      #expect(fast.2 == first.1 + 5 + (second?.1 ?? 0), "\(sample)")
    }
    #expect(accepted > 10_000)
  }
}
