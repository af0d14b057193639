import Testing

@_spi(Benchmarks) @testable import SubtitleParser

func srt(_ text: String) throws -> SubtitleDocument {
  try SubRip.parse(Array(text.utf8))
}

/// (start, end, text) of every cue.
func summary(_ document: SubtitleDocument) -> [String] {
  document.cues.map {
    "\(document.id(of: $0))|\($0.startTime)|\($0.endTime)|\(document.text(of: $0))"
  }
}

@Test func parsesWellFormedSRT() throws {
  let document = try srt(
    "1\n00:00:00,500 --> 00:00:01,500\nHello, <i>world</i>.\n\n2\n00:00:01,800 --> 00:00:02,900\nTwo\nlines\n"
  )
  #expect(document.format == .srt)
  #expect(summary(document) == ["1|0.5|1.5|Hello, <i>world</i>.", "2|1.8|2.9|Two\nlines"])
  #expect(document.diagnostics.isEmpty)
  #expect(document.cues.map(\.line) == [2, 6])
}

@Test(arguments: ["\n", "\r\n", "\r"])
func lineEndingsAndBOM(separator: String) throws {
  let body = [
    "1", "00:00:01,000 --> 00:00:02,000", "A", "B", "", "2",
    "00:00:03,000 --> 00:00:04,000", "C", "",
  ].joined(separator: separator)
  let document = try SubRip.parse([0xEF, 0xBB, 0xBF] + Array(body.utf8))
  #expect(summary(document) == ["1|1.0|2.0|A\nB", "2|3.0|4.0|C"])
  #expect(document.diagnostics.isEmpty)
}

@Test func toleratesSeparatorsAndShortMilliseconds() throws {
  let document = try srt(
    "1\n0:0:1.5 --> 00:00:02,25\nA\n\n2\n123:04:05,006 --> 123:04:06.000\nB\n")
  #expect(document.cues.count == 2)
  #expect(document.cues[0].startTime == 1.005)
  #expect(document.cues[0].endTime == 2.025)
  let expected: Double = 123 * 3600 + 4 * 60 + 5.006
  #expect(document.cues[1].startTime == expected)
  // One timing line per cue with repairs: each repair is its own diagnostic on that line.
  #expect(
    document.diagnostics.map { "\($0.line): \($0.reason)" } == [
      "2: minutes or seconds not two digits wide; read as 00:00:01,005 --> 00:00:02,025",
      "2: fewer than 3 millisecond digits, read as milliseconds",
      "2: '.' before the milliseconds read as ','",
      "6: '.' before the milliseconds read as ','",
    ])
}

@Test func missingBlankLinesAndNumbers() throws {
  let document = try srt(
    """
    00:00:01,000 --> 00:00:02,000
    First
    2
    00:00:03,000 --> 00:00:04,000
    Second
    00:00:05,000 --> 00:00:06,000
    Third


    7
    00:00:07,000 --> 00:00:08,000
    Fourth
    """)
  #expect(
    summary(document) == [
      "|1.0|2.0|First", "2|3.0|4.0|Second", "|5.0|6.0|Third", "7|7.0|8.0|Fourth",
    ])
  let reasons = document.diagnostics.map { "\($0.line): \($0.reason)" }
  #expect(
    reasons == [
      "1: cue has no number",
      "4: missing blank line: a timing line starts a new cue",
      "6: missing blank line: a timing line starts a new cue",
      "6: cue has no number",
      "10: cue number 7 out of sequence (expected 4)",
    ])
}

/// Text before the first cue is skipped; text between cues is the previous cue's, as FFmpeg's
/// demuxer reads it (a cue ends at the next number and timing line, not at a blank line).
@Test func garbageBeforeCuesIsSkippedAndBetweenCuesJoinsTheCue() throws {
  let document = try srt(
    "junk line\nmore junk\n\n1\n00:00:01,000 --> 00:00:02,000\nA\n\nB stray\n\n5\nnot timing\n\n2\n00:00:03,000 --> 00:00:04,000\nC\n"
  )
  #expect(summary(document) == ["1|1.0|2.0|A\nB stray\n5\nnot timing", "2|3.0|4.0|C"])
  let reasons = document.diagnostics.map { "\($0.line): \($0.reason)" }
  #expect(
    reasons == [
      "1: text outside a cue skipped",
      "8: text after a blank line joined to the cue before it",
    ])
}

@Test func absurdHoursAreSkippedNotCrashing() throws {
  let document = try srt(
    "1\n99999999999999999999:00:00,000 --> 99999999999999999999:00:01,000\nHuge\n\n2\n00:00:01,000 --> 00:00:02,000\nOK\n"
  )
  #expect(summary(document) == ["2|1.0|2.0|OK"])
  #expect(document.diagnostics.contains { $0.line == 2 && $0.reason.contains("hours") })
}

@Test func coordinatesAndTrailingTextAreReported() throws {
  let document = try srt(
    "1\n00:00:01,000 --> 00:00:02,000 X1:100 X2:600 Y1:50 Y2:80\nA\n\n2\n00:00:03,000 --> 00:00:04,000 junk\nB\n"
  )
  #expect(document.cues.count == 2)
  #expect(
    document.diagnostics.map(\.reason) == [
      "X1/X2/Y1/Y2 coordinates ignored", "text after the end time ignored",
    ])
}

@Test func assOverridesBecomeSettingsAndAreRemoved() throws {
  let document = try srt(
    "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}Top {\\b1}bold{\\b0}\n\n2\n00:00:03,000 --> 00:00:04,000\n{\\an7}left {literal}\n\n3\n00:00:05,000 --> 00:00:06,000\n{\\an5\\i1}mid\n"
  )
  #expect(document.text(of: document.cues[0]) == "Top bold")
  #expect(document.cues[0].settings.line == 0)
  #expect(document.cues[0].settings.align == .center)
  #expect(document.text(of: document.cues[1]) == "left {literal}")
  #expect(document.cues[1].settings == SubRip.settings(forASSAlignment: 7))
  #expect(document.cues[1].settings.align == .left)
  #expect(document.text(of: document.cues[2]) == "mid")
  #expect(document.cues[2].settings.line == 50)
  #expect(document.cues[2].settings.snapToLines == false)
  let reasons = document.diagnostics.map { "\($0.line): \($0.reason)" }
  #expect(
    reasons == [
      "3: ASS override {\\b1} removed", "3: ASS override {\\b0} removed",
      "11: ASS override {\\an5\\i1} removed",
    ])
}

@Test func overrideBlocksEndOnTheirOwnLine() throws {
  // A `{\` whose `}` is on a later line is text: removing it took the line break with it,
  // leaving an empty last line or joining two lines, and writing and reading changed the text.
  for (input, text) in [
    ("A\n{\\\n}", "A\n{\\\n}"), ("{\\b1\n}Hi", "{\\b1\n}Hi"),
    ("{\\b1}x\n{\\i1\ny}", "x\n{\\i1\ny}"),
  ] {
    let document = try srt("1\n00:00:01,000 --> 00:00:02,000\n\(input)\n")
    #expect(document.text(of: document.cues[0]) == text)
    let again = try SubRip.parse(document.srt())
    #expect(again.text(of: again.cues[0]) == text)
  }
}

@Test func assAlignmentMappingIsInvertible() {
  for n in 1...9 {
    #expect(SubRip.assAlignment(for: SubRip.settings(forASSAlignment: n)) == n)
  }
  #expect(SubRip.assAlignment(for: CueSettings()) == 2)
}

@Test func notSRTThrows() {
  #expect(throws: SubtitleError.self) { try srt("hello\nworld\n") }
  #expect((try? srt(""))?.cues.isEmpty == true)
  #expect((try? srt("\n\n  \n"))?.cues.isEmpty == true)
}

@Test func emptyCueTextAndEndBeforeStart() throws {
  let document = try srt("1\n00:00:05,000 --> 00:00:01,000\n\n2\n00:00:06,000 --> 00:00:07,000\nX")
  #expect(summary(document) == ["1|5.0|1.0|", "2|6.0|7.0|X"])
  #expect(document.diagnostics.map(\.reason) == ["end time before start time"])
}

@Test func hostileInputNeverCrashes() {
  var rng = SplitMix(seed: 2024)
  let alphabet: [UInt8] = Array("0123456789:,.-> \n\r{}\\anX1<>i".utf8) + [0xEF, 0xBB, 0xBF]
  for _ in 0..<400 {
    let bytes = randomBytes(Int(rng.next() % 200), &rng, alphabet: alphabet)
    if let document = try? SubRip.parse(bytes) {
      for cue in document.cues {
        #expect(cue.textRange.upperBound <= document.text.count)
        #expect(cue.idRange.upperBound <= document.text.count)
        #expect(cue.startTime.isFinite && cue.endTime.isFinite)
      }
    }
    _ = try? SubtitleFile.parse(bytes)
  }
}

@Test func unmatchedBracketsStayLinear() throws {
  // 30,000 unmatched `<`, `{\` and `>`: the tree, the override removal and the conversion
  // must each finish in one pass (a quadratic scan would not finish in a test's time).
  let noise = String(repeating: "<", count: 30_000) + String(repeating: "{\\", count: 15_000)
  let text = "1\n00:00:01,000 --> 00:00:02,000\n" + noise + "<i>x</i>>\n"
  let document = try srt(text)
  #expect(document.cues.count == 1)
  let tree = document.cueTree(of: document.cues[0])
  #expect(tree.count == 3)
  let vtt = document.converted(to: .webVTT)
  #expect(vtt.text(of: vtt.cues[0]).hasSuffix("<i>x</i>&gt;"))
}

@Test func timestampForms() throws {
  // The fast path (two-digit hours) and the general path must agree on every form.
  let cases: [(String, Double?)] = [
    ("00:00:01,000", 1), ("12:34:56,789", 45296.789), ("99:59:59.999", 359_999.999),
    ("100:00:00,000", 360_000), ("1:02:03,004", 3723.004), ("00:60:00,000", 3600),
    ("00:00:61,000", 61), ("0a:00:00,000", nil), ("00:00:00,0000", 0), ("00:00:00;000", nil),
    ("00:00:013,567", 13.567), ("0:0:1,5", 1.005), ("00:00:01,1234", 2.234),
    ("00: 00: 01, 000", 1), ("00:00:01", 1), ("00:01,000", 1), ("-00:00:01,000", nil),
    ("00:00:01:000", nil), ("00 :00:01,000", nil), ("00:00:01,0000000000", nil),
  ]
  for (stamp, expected) in cases {
    let parsed = try? srt("1\n\(stamp) --> \(stamp)\nx\n")
    #expect(parsed?.cues.first?.startTime == expected, "\(stamp)")
  }
}

@Test func threeDigitHoursTakeTheWordPathWithTheSameResult() throws {
  let document = try srt(
    "1\n100:00:01,250 --> 123:59:59.999\nA\n\n2\n012:00:00,000 --> 999:00:00,0001\nB\n\n"
      + "3\n100:60:00,000 --> 101:00:00,000\nC\n")
  #expect(
    summary(document) == [
      "1|360001.25|446399.999|A", "2|43200.0|3596400.001|B", "3|363600.0|363600.0|C",
    ])
  #expect(document.diagnostics.map(\.line) == [2, 6, 10])
}

@Test func cuesShorterThanSixteenBytesAllArrive() throws {
  // Ten bytes a cue: more cues than the storage reserved from the file size (one per 16
  // bytes) holds, so the later ones take the overflow path. Order and values must not show it.
  var text = ""
  var starts: [Double] = []
  for k in 0..<300 {
    let minutes = k / 60 % 10
    let seconds = k % 60
    text += "\(minutes):\(seconds / 10)\(seconds % 10)-->9:59\n"
    starts.append(Double(minutes * 60 + seconds))
  }
  let document = try SubRip.parse(Array(text.utf8))
  #expect(document.cues.count == 300)
  #expect(document.cues.map(\.startTime) == starts)
  #expect(document.cues.map(\.line) == Array(1...300))
}

/// Timing lines in the common form (read by word loads) give what the general path gives for
/// the same line with a second space before the arrow (which only it reads).
@Test func commonSRTTimingLinesMatchTheGeneralPath() throws {
  let starts = [
    "00:00:01,000", "12:34:56.789", "99:59:59,999", "00:60:00,000", "00:00:01,0000", "0:00:01,000",
  ]
  let ends = ["", " X1:10 X2:20 Y1:30 Y2:40", " trailing", "0", ",5", ":00", "\t"]
  for start in starts {
    for end in ends {
      let line = start + " --> 01:02:03,456" + end
      // Both paths reject a line that is not a timing line (the file then has none).
      guard let common = try? SubRip.parse(Array("1\n\(line)\ntext\n".utf8)) else {
        #expect(
          (try? SubRip.parse(
            Array("1\n\(line.replacingOccurrences(of: " -->", with: "  -->"))\ntext\n".utf8)))
            == nil, "\(line)")
        continue
      }
      let general = try SubRip.parse(
        Array("1\n\(line.replacingOccurrences(of: " -->", with: "  -->"))\ntext\n".utf8))
      #expect(common.cues.count == general.cues.count, "\(line)")
      #expect(
        zip(common.cues, general.cues).allSatisfy {
          $0.startTime == $1.startTime && $0.endTime == $1.endTime
        }, "\(line)")
      // The second space before the arrow is one repair more.
      let spacing = "spacing around '-->' other than one space on each side"
      #expect(
        common.diagnostics.map(\.reason)
          == general.diagnostics.map(\.reason).filter { $0 != spacing }, "\(line)")
      #expect(general.diagnostics.contains { $0.reason == spacing }, "\(line)")
    }
  }
}

/// The word-load readers of the common cue (`numberLine`, `canonicalTimingLine`) against the
/// general ones (`isNumber`, `timingLine`) on lines in the common form and on mutations of
/// them: whatever the word loads accept, the general readers read the same way, with nothing
/// to repair; and the common form itself is accepted.
@Test func commonCueLineReadersMatchTheGeneralReaders() {
  var rng = SplitMix(seed: 2024)
  let alphabet = Array("0123456789:,. ->\n\tX5".utf8)
  func stamp(hours: Int) -> String {
    let h = String(Int(rng.next() % 1000) % (hours == 3 ? 1000 : 100))
    let padded = String(repeating: "0", count: max(0, hours - h.count)) + h
    let m = Int(rng.next() % 60)
    let s = Int(rng.next() % 60)
    let ms = Int(rng.next() % 1000)
    return padded + ":" + (m < 10 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)"
      + "," + (ms < 100 ? "0" : "") + (ms < 10 ? "0" : "") + "\(ms)"
  }
  for round in 0..<3000 {
    let hours = rng.next() % 4 == 0 ? 3 : 2
    let number = String(rng.next() % 10_000_000)
    var timing = Array((stamp(hours: hours) + " --> " + stamp(hours: hours) + "\n").utf8)
    var cueNumber = Array((number + "\n").utf8)
    let mutated = round % 2 == 1
    if mutated {
      for _ in 0..<(1 + Int(rng.next() % 3)) {
        timing[Int(rng.next() % UInt64(timing.count))] = alphabet[Int(rng.next() % 20)]
        cueNumber[Int(rng.next() % UInt64(cueNumber.count))] = alphabet[Int(rng.next() % 20)]
      }
    }
    // Room after the line: the readers need a word beyond short lines.
    let bytes = cueNumber + timing + Array("text line\n\n".utf8)
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let n = buffer.count
      let p = ByteView(base, count: n)
      if let line = SRTParser.numberLine(p, 0, n) {
        #expect(p[line.end] == 0x0A)
        #expect(ByteScanner.findScalar(0x0A, base, 0, n) == line.end)
        #expect(SRTParser.isNumber(p, 0, line.end))
        #expect(Int(String(decoding: buffer[0..<line.end], as: UTF8.self)) == line.value)
      } else {
        #expect(mutated, "\(number)")
      }
      let j = cueNumber.count
      if let fast = SRTParser.canonicalTimingLine(p, j, n) {
        #expect(ByteScanner.findScalar(0x0A, base, j, n) == fast.eol)
        let general = SRTParser.timingLine(p, j, fast.eol)
        #expect(general?.flags == 0)
        #expect(general?.start == fast.start && general?.end == fast.end)
      } else {
        #expect(mutated, "\(String(decoding: timing, as: UTF8.self))")
      }
    }
  }
}
