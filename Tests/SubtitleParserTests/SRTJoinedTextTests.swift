import Testing

@testable import SubtitleParser

/// Text after a blank line inside an SRT cue: FFmpeg's demuxer (which mpv and VLC use) ends a
/// cue at the next cue's number and timing line, so such text is the cue's, after a line break.
@Suite struct SRTJoinedTextTests {
  /// `id|start|end|text` of each cue of `text` read as SRT, and `line: reason` of each
  /// diagnostic.
  static func read(_ text: String) throws -> (cues: [String], notes: [String]) {
    let document = try SubRip.parse(Array(text.utf8))
    return (
      document.cues.map {
        "\(document.id(of: $0))|\($0.startTime)|\($0.endTime)|\(document.text(of: $0))"
      },
      document.diagnostics.map { "\($0.line): \($0.reason)" }
    )
  }

  static let joined = "text after a blank line joined to the cue before it"

  @Test func aSecondParagraphJoinsItsCue() throws {
    let (cues, notes) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nFirst line\n\nsecond paragraph of cue 1\n\n2\n"
        + "00:00:03,000 --> 00:00:04,000\nCue two\n")
    #expect(cues == ["1|1.0|2.0|First line\nsecond paragraph of cue 1", "2|3.0|4.0|Cue two"])
    #expect(notes == ["5: \(Self.joined)"])
  }

  @Test(arguments: ["\r\n", "\r"])
  func otherLineEndsJoinTheSameWay(separator: String) throws {
    let lines = [
      "1", "00:00:01,000 --> 00:00:02,000", "A", "", "", "B", "C", "", "D", "", "2",
      "00:00:03,000 --> 00:00:04,000", "E", "",
    ]
    let (cues, notes) = try Self.read(lines.joined(separator: separator))
    #expect(cues == ["1|1.0|2.0|A\nB\nC\nD", "2|3.0|4.0|E"])
    // One diagnostic per cue, however many paragraphs joined it.
    #expect(notes == ["6: \(Self.joined)"])
  }

  @Test func aCueWithoutTextTakesTheTextAfterTheBlankLine() throws {
    let (cues, _) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\n\nLate text\n\n2\n00:00:03,000 --> 00:00:04,000\nB\n")
    #expect(cues == ["1|1.0|2.0|Late text", "2|3.0|4.0|B"])
  }

  @Test func aNumberWithTextAfterItIsText() throws {
    let (cues, notes) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nA\n\n42\nis the answer\n\n2\n"
        + "00:00:03,000 --> 00:00:04,000\nB\n")
    #expect(cues == ["1|1.0|2.0|A\n42\nis the answer", "2|3.0|4.0|B"])
    #expect(notes == ["5: \(Self.joined)"])
  }

  @Test func cuesSeparatedByBlankLinesAndATrailingNumberAreUnchanged() throws {
    let (cues, notes) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nA\n\n\n\n2\n00:00:03,000 --> 00:00:04,000\nB\n\n3\n")
    #expect(cues == ["1|1.0|2.0|A", "2|3.0|4.0|B"])
    #expect(notes == ["11: cue number without a timing line skipped"])
  }

  @Test func textAfterASkippedCueIsNotJoinedToAnEarlierOne() throws {
    let (cues, notes) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n0000000000:00:03,000 --> 00:00:04,000\nB\n\nC\n")
    #expect(cues == ["1|1.0|2.0|A"])
    #expect(notes.last == "9: text outside a cue skipped")
  }

  /// A cue number whose timing line is damaged (an arrow that does not parse, a single-dash
  /// arrow, a timestamp alone where the file stops): the cue is skipped with its text, as
  /// Media3's SubRip parser skips it; it is not shown as text of the cue before it.
  @Test(arguments: [
    "00:00:05 --> 00:00:06,000x", "00:00:05,000 -> 00:00:06,000", "00:00:05,000",
    "00:00:05,000 --> ",
  ])
  func aCueWithADamagedTimingLineIsSkipped(timing: String) throws {
    let (cues, notes) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nKept\n\n2\n\(timing)\nLost line\n\n3\n"
        + "00:00:07,000 --> 00:00:08,000\nAlso kept\n")
    #expect(cues == ["1|1.0|2.0|Kept", "3|7.0|8.0|Also kept"])
    #expect(notes.contains("6: cue with an unreadable timing line skipped"))
    #expect(!notes.contains { $0.contains("joined to the cue") })
  }

  @Test func aDamagedTimingLineAtTheEndIsNotText() throws {
    let (cues, notes) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nOnly cue\n\n2\n00:00:03,5")
    #expect(cues == ["1|1.0|2.0|Only cue"])
    #expect(notes == ["6: cue with an unreadable timing line skipped"])
  }

  @Test func aDamagedArrowLineWithoutNumberIsSkippedToo() throws {
    let (cues, _) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nKept\n\n00:00:03,000 -> 00:00:04,000\nLost\n")
    #expect(cues == ["1|1.0|2.0|Kept"])
  }

  /// A number then text that holds a clock time is still text (no arrow, not a bare stamp).
  @Test func aNumberThenAClockTimeInTextIsText() throws {
    let (cues, _) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nA\n\n42\n10:30 tomorrow\n")
    #expect(cues == ["1|1.0|2.0|A\n42\n10:30 tomorrow"])
  }

  static let lostWithText = "cue number without a timing line skipped with its text"
  static let lost = "cue number without a timing line skipped"

  /// The number the next cue should have, then text, no timing line: a cue whose timing line
  /// is lost, skipped with its text (Media3 and VLC skip it; FFmpeg shows `2` and the text as
  /// more text of cue 1). Cue 3 is then in sequence.
  @Test(arguments: ["\n\n3\n", "\n3\n"])
  func theNextCuesNumberThenTextIsALostCue(before3: String) throws {
    let (cues, notes) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\nLost text\nsecond line" + before3
        + "00:00:05,000 --> 00:00:06,000\nC\n")
    #expect(cues == ["1|1.0|2.0|A", "3|5.0|6.0|C"])
    #expect(notes == ["5: \(Self.lostWithText)"])
  }

  @Test func aLostCueAtTheEndIsNotText() throws {
    let (cues, notes) = try Self.read("1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\nLost\n")
    #expect(cues == ["1|1.0|2.0|A"])
    #expect(notes == ["5: \(Self.lostWithText)"])
  }

  /// A bare number at the end of a cue's text, the next cue's number less one, before a blank
  /// line or the next cue's number and timing line: a cue number whose timing line (and blank
  /// line) is lost, not text.
  @Test(arguments: ["\n\n", "\n", "\n\n\n"])
  func aTrailingNumberBeforeTheNextNumberIsALostCue(after2: String) throws {
    let (cues, notes) = try Self.read(
      "1\n00:00:01,000 --> 00:00:02,000\nA\n2" + after2 + "3\n00:00:05,000 --> 00:00:06,000\nC\n")
    #expect(cues == ["1|1.0|2.0|A", "3|5.0|6.0|C"])
    #expect(notes.first == "4: \(Self.lost)")
    #expect(!notes.contains { $0.contains("out of sequence") })
  }

  /// A number that is text stays: the only text of its cue, a number the next cue also has,
  /// one out of sequence, or one with no cue number after it.
  @Test(arguments: [
    ("1\n00:00:01,000 --> 00:00:02,000\n2\n\n3\n00:00:05,000 --> 00:00:06,000\nC\n", "2"),
    (
      "1\n00:00:01,000 --> 00:00:02,000\nRooms left:\n2\n\n2\n00:00:05,000 --> 00:00:06,000\nC\n",
      "Rooms left:\n2"
    ),
    ("1\n00:00:01,000 --> 00:00:02,000\nA\n7\n\n8\n00:00:05,000 --> 00:00:06,000\nC\n", "A\n7"),
    ("1\n00:00:01,000 --> 00:00:02,000\nA\n2\n", "A\n2"),
    ("1\n00:00:01,000 --> 00:00:02,000\nA\n2\n\nLater text\n", "A\n2\nLater text"),
  ])
  func aNumberThatIsTextStays(file: String, text: String) throws {
    let (cues, notes) = try Self.read(file)
    #expect(cues.first == "1|1.0|2.0|\(text)")
    #expect(!notes.contains { $0.contains("without a timing line") })
  }

  /// `Tests/Fixtures/subtitles-wild/lost-timing-lines.srt`: cues 2, 4 and 6 lost their timing
  /// lines, each in one of the forms above.
  @Test func lostTimingLinesFixture() throws {
    let document = try SubtitleFile.parse(try wildSubtitleFixture("lost-timing-lines.srt"))
    #expect(
      document.cues.map { "\(document.id(of: $0))|\(document.text(of: $0))" } == [
        "1|First", "3|Third", "5|Fifth", "7|Seventh",
      ])
    #expect(
      document.diagnostics.map { "\($0.line): \($0.reason)" } == [
        "5: \(Self.lostWithText)", "11: \(Self.lost)", "16: \(Self.lost)",
        "18: missing blank line: a timing line starts a new cue",
      ])
  }

  /// A cue skipped for its lost timing line leaves its number free: the next cue may have it
  /// (a stray `1` and text before cue 1), and is then not out of sequence; a cue after it with
  /// the number after it is not either.
  @Test(arguments: [
    ("1\nNo timing here\n\n1\n00:00:01,000 --> 00:00:02,000\nA\n", "1"),
    ("1\nNo timing here\n\n2\n00:00:01,000 --> 00:00:02,000\nA\n", "2"),
    (
      "1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\nLost\n\n2\n00:00:03,000 --> 00:00:04,000\nB\n",
      "2"
    ),
  ])
  func aSkippedNumberIsNotOutOfSequence(text: String, id: String) throws {
    let document = try SubRip.parse(Array(text.utf8))
    #expect(document.cues.last.map { document.id(of: $0) } == id)
    #expect(!document.diagnostics.contains { $0.reason.contains("out of sequence") })
    #expect(document.diagnostics.contains { $0.reason.contains("without a timing line") })
  }

  @Test func overrideBlocksInJoinedTextAreRemoved() throws {
    let document = try SubRip.parse(
      Array("1\n00:00:01,000 --> 00:00:02,000\nA\n\n{\\b1}B{\\b0}\n".utf8))
    #expect(document.text(of: document.cues[0]) == "A\nB")
  }

  /// The WebVTT written from a joined cue has no blank line inside it.
  @Test func joinedTextConvertsToOneWebVTTCue() throws {
    let document = try SubRip.parse(
      Array(
        "1\n00:00:01,000 --> 00:00:02,000\nA\n\nB\n\n2\n00:00:03,000 --> 00:00:04,000\nC\n".utf8))
    let vtt = try WebVTT.parse(document.webVTT())
    #expect(vtt.cues.map { vtt.text(of: $0) } == ["A\nB", "C"])
  }
}

/// Files joined with `cat a.srt b.srt`, each starting with a UTF-8 byte order mark: the second
/// mark sits before the second file's first cue number (or, when the first file ends without a
/// line break, after its last text). mkvmerge reads the number; it is not text of the cue
/// before it.
@Suite struct SRTJoinedFilesTests {
  static let bom = "\u{FEFF}"
  static let first = "1\n00:00:01,000 --> 00:00:02,000\nFirst file\n"
  static let second = "1\n00:00:20,000 --> 00:00:21,000\nSecond file\n"
  static let note = "byte order mark inside the file (files joined?) ignored"

  @Test(arguments: ["\n", "\r\n"])
  func aMarkBeforeTheNextFilesNumberStartsACue(lineEnd: String) throws {
    let text = (Self.bom + Self.first + "\n" + Self.bom + Self.second)
      .replacingOccurrences(of: "\n", with: lineEnd)
    let document = try SubtitleFile.parse(Array(text.utf8))
    #expect(document.cues.map { document.text(of: $0) } == ["First file", "Second file"])
    #expect(document.cues.map { document.id(of: $0) } == ["1", "1"])
    #expect(document.cues.map(\.startTime) == [1, 20])
    let notes = document.diagnostics.map { "\($0.line): \($0.reason)" }
    #expect(notes.contains("5: \(Self.note)"))
    #expect(!notes.contains { $0.contains("joined to the cue") })
  }

  @Test func aMarkBeforeATimingLineWithoutNumber() throws {
    let (cues, notes) = try SRTJoinedTextTests.read(
      Self.first + "\n" + Self.bom + "00:00:20,000 --> 00:00:21,000\nSecond\n")
    #expect(cues == ["1|1.0|2.0|First file", "|20.0|21.0|Second"])
    #expect(notes.first == "5: \(Self.note)")
  }

  @Test func aMarkAfterTheLastTextOfAFileWithoutFinalLineBreak() throws {
    let (cues, notes) = try SRTJoinedTextTests.read(
      "1\n00:00:01,000 --> 00:00:02,000\nFirst file" + Self.bom + Self.second)
    #expect(cues == ["1|1.0|2.0|First file", "1|20.0|21.0|Second file"])
    #expect(notes.contains("3: \(Self.note)"))
  }

  @Test func aMarkOnItsOwnLineBeforeTheNumberWithoutBlankLine() throws {
    let (cues, _) = try SRTJoinedTextTests.read(Self.first + Self.bom + Self.second)
    #expect(cues == ["1|1.0|2.0|First file", "1|20.0|21.0|Second file"])
  }

  /// Text that merely holds U+FEFF (a zero-width no-break space) is kept as it is.
  @Test func aMarkInsideTextIsKept() throws {
    let (cues, notes) = try SRTJoinedTextTests.read(
      "1\n00:00:01,000 --> 00:00:02,000\nword" + Self.bom + "word\n" + Self.bom + "12 apples\n")
    #expect(cues == ["1|1.0|2.0|word\u{FEFF}word\n\u{FEFF}12 apples"])
    #expect(!notes.contains(Self.note))
  }
}
