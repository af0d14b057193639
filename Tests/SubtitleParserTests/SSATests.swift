import Testing

@testable import SubtitleParser

/// The bytes of `Tests/Fixtures/ass/<name>` (from `Scripts/make-ass-fixtures.py`).
func assFixture(_ name: String) throws -> [UInt8] {
  try subtitleFixture("../ass/\(name)")
}

/// An ASS script with PlayRes `width` × `height` (none when nil), the default v4+ styles and
/// events given as `Dialogue:` texts from 0:00:01 to 0:00:02.
func assScript(
  _ texts: [String], info: String = "PlayResX: 640\nPlayResY: 480\n", style: String? = nil
) -> [UInt8] {
  let styleLine =
    style
    ?? "Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1"
  var s = "[Script Info]\nScriptType: v4.00+\n\(info)\n[V4+ Styles]\n"
  s += "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
  s += "BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
  s += "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
  s += styleLine + "\n\n[Events]\n"
  s += "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
  for text in texts { s += "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,\(text)\n" }
  return Array(s.utf8)
}

/// The cue tree of the one cue of a script with `text`.
func assTree(_ text: String) throws -> [CueNode] {
  let document = try SubStationAlpha.parse(assScript([text]))
  return document.cueTree(of: document.cues[0])
}

func element(_ kind: CueElement.Kind, _ children: CueNode...) -> CueNode {
  .element(CueElement(kind: kind, children: children))
}

func colour(_ css: String, _ children: CueNode...) -> CueNode {
  .element(
    CueElement(kind: .font, attributes: [.init(name: "color", value: css)], children: children))
}

@Suite struct SSATests {
  // MARK: - [Script Info]

  @Test func playResScalesPositions() throws {
    let document = try SubStationAlpha.parse(
      assScript(["{\\an7\\pos(64,120)}x"], info: "PlayResX: 640\nPlayResY: 480\n"))
    let s = document.cues[0].settings
    #expect(s.position == 10)
    #expect(s.line == 25)
    #expect(!s.snapToLines)
    #expect(s.lineAlign == .start)
    #expect(s.positionAlign == .lineLeft)
    #expect(s.align == .left)
  }

  @Test func playResDefaultsAsLibass() throws {
    // Neither given: 384 × 288; one given: the other at 4:3.
    let none = try SubStationAlpha.parse(assScript(["{\\pos(192,144)}x"], info: ""))
    #expect(none.cues[0].settings.position == 50)
    #expect(none.cues[0].settings.line == 50)
    let onlyX = try SubStationAlpha.parse(assScript(["{\\pos(320,240)}x"], info: "PlayResX: 640\n"))
    #expect(onlyX.cues[0].settings.line == 50)
  }

  @Test func wrapStyleDecidesSoftBreaks() throws {
    let soft = try SubStationAlpha.parse(assScript(["a\\nb"], info: ""))
    #expect(soft.plainText(of: soft.cues[0]) == "a b")
    let hard = try SubStationAlpha.parse(assScript(["a\\nb"], info: "WrapStyle: 2\n"))
    #expect(hard.plainText(of: hard.cues[0]) == "a\nb")
  }

  @Test func scriptTypeV4UsesTheSSAEventColumnsWithoutAFormatLine() throws {
    let text = """
      [Script Info]
      ScriptType: v4.00

      [Events]
      Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0000,0000,0000,,ssa, text

      """
    let document = try SubStationAlpha.parse(Array(text.utf8))
    #expect(document.cues.count == 1)
    #expect(document.plainText(of: document.cues[0]) == "ssa, text")
  }

  // MARK: - Styles

  @Test func styleColumnsInAnyOrderAndV4Alignment() throws {
    // legacy.ssa: Alignment is the second column; SSA alignment 6 is top centre.
    let document = try SubtitleFile.parse(try assFixture("legacy.ssa"))
    #expect(document.format == .ass)
    #expect(document.cues[0].settings == SubRip.settings(forASSAlignment: 8))
    #expect(
      document.cueTree(of: document.cues[0]) == [element(.italic, .text("top centre italic"))])
    // `\a1` (SSA numbering) is bottom left.
    #expect(document.cues[1].settings == SubRip.settings(forASSAlignment: 1))
  }

  @Test func styleLookIsApplied() throws {
    let document = try SubStationAlpha.parse(try assFixture("basic.ass"))
    // Sign: yellow, bold, italic, alignment 8.
    let sign = document.cues[1]
    #expect(
      document.cueTree(of: sign) == [
        colour("#ffff00", element(.bold, element(.italic, .text("A sign\u{A0}on top"))))
      ])
    #expect(sign.settings == SubRip.settings(forASSAlignment: 8))
    // `\r` and empty values go back to the style's look.
    let reset = try SubStationAlpha.parse(
      assScript(
        ["a{\\b0}b{\\b}c{\\i1}d{\\r}e"],
        style:
          "Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,-1,0,-1,0,100,100,0,0,1,2,2,2,10,10,10,1"
      ))
    #expect(
      reset.cueTree(of: reset.cues[0]) == [
        element(.bold, element(.underline, .text("a"))), element(.underline, .text("b")),
        element(.bold, element(.underline, .text("c"))),
        element(.bold, element(.italic, element(.underline, .text("d")))),
        element(.bold, element(.underline, .text("e"))),
      ])
  }

  @Test func unknownStyleFallsBackToTheDefaultStyle() throws {
    var bytes = assScript(
      [],
      style:
        "Style: Red,Arial,20,&H000000FF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,8,10,10,10,1\n"
        + "Style: *Default,Arial,20,&H0000FFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1"
    )
    bytes += Array("Dialogue: 0,0:00:01.00,0:00:02.00,Nope,,0,0,0,,x\n".utf8)
    bytes += Array("Dialogue: 0,0:00:03.00,0:00:04.00,DEFAULT,,0,0,0,,y\n".utf8)
    let document = try SubStationAlpha.parse(bytes)
    // libass and VSFilter: an unknown name, and `default` in any case, take the style named
    // Default (yellow, bottom), not the first one the script defines (red, top).
    #expect(document.cues.count == 2)
    for (cue, text) in zip(document.cues, ["x", "y"]) {
      #expect(document.cueTree(of: cue) == [colour("#ffff00", .text(text))])
      #expect(cue.settings == SubRip.settings(forASSAlignment: 2))
    }
    #expect(
      document.diagnostics.map(\.reason) == ["unknown style 'Nope'; the Default style is used"])
  }

  @Test func unknownStyleWithoutADefaultStyleHasTheBuiltInLook() throws {
    var bytes = assScript(
      [],
      style:
        "Style: Red,Arial,20,&H000000FF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,2,2,8,10,10,10,1"
    )
    bytes += Array("Dialogue: 0,0:00:01.00,0:00:02.00,Nope,,0,0,0,,x\n".utf8)
    let document = try SubStationAlpha.parse(bytes)
    #expect(document.cues.count == 1)
    // Neither red nor bold nor at the top: the built-in default look.
    #expect(document.cueTree(of: document.cues[0]) == [.text("x")])
    #expect(document.cues[0].settings == SubRip.settings(forASSAlignment: 2))
    #expect(
      document.diagnostics.map(\.reason) == [
        "unknown style 'Nope'; the built-in default look is used (the script has no Default style)"
      ])
  }

  // MARK: - Events

  @Test func eventColumnsInAnyOrder() throws {
    let document = try SubStationAlpha.parse(try assFixture("reordered.ass"))
    #expect(document.cues.map(\.startTime) == [1, 3.5])
    #expect(document.cues.map(\.endTime) == [2.5, 4.123])
  }

  @Test func textIsTheLastFieldAndKeepsItsCommas() throws {
    let document = try SubStationAlpha.parse(assScript(["a, b,, c,"]))
    #expect(document.text(of: document.cues[0]) == "a, b,, c,")
  }

  @Test func escapes() throws {
    #expect(try assTree("a\\Nb\\hc\\\\x") == [.text("a\nb\u{A0}c\\\\x")])
  }

  @Test func commentsSkippedLayersAndOverlapsKept() throws {
    let document = try SubStationAlpha.parse(try assFixture("basic.ass"))
    #expect(document.cues.count == 4)
    #expect(document.cues[1].startTime < document.cues[0].endTime)
    #expect(document.diagnostics.isEmpty)
  }

  @Test func timesAreHoursMinutesSecondsAndAFraction() throws {
    #expect(SSAParser.time(Array("1:02:03.04".utf8)[...]) == 3723.04)
    #expect(SSAParser.time(Array("0:00:03.5".utf8)[...]) == 3.5)
    #expect(SSAParser.time(Array(" 0:00:04.123 ".utf8)[...]) == 4.123)
    #expect(SSAParser.time(Array("0:00:04".utf8)[...]) == 4)
    // A colon or a comma before the fraction, as Media3, FFmpeg and pysubs2 read them.
    #expect(SSAParser.time(Array("0:00:13:56".utf8)[...]) == 13.56)
    #expect(SSAParser.time(Array("0:00:13,5".utf8)[...]) == 13.5)
    for bad in ["", "1:2", "0:00:0a.00", "-0:00:01.00", "0:00:01.00.1", "0:00:01:00:1"] {
      #expect(SSAParser.time(Array(bad.utf8)[...]) == nil, "\(bad)")
    }
    var bytes = assScript([])
    bytes += Array("Dialogue: 0,0:00:xx.00,0:00:02.00,Default,,0,0,0,,x\n".utf8)
    let document = try SubStationAlpha.parse(bytes)
    #expect(document.cues.isEmpty)
    #expect(document.diagnostics.count == 1)
  }

  @Test func fractionsOfOtherThanTwoDigitsAreReadByValueAndNoted() throws {
    // libass and FFmpeg take the digits for centiseconds (.5 is 0.05 s, .766 is 7.66 s); the
    // author of such a time means its value, which is read, with a note giving both.
    var bytes = assScript([])
    bytes += Array("Dialogue: 0,0:00:01.5,0:00:03.766,Default,,0,0,0,,x\n".utf8)
    bytes += Array("Dialogue: 0,0:00:04,0:00:05.00,Default,,0,0,0,,y\n".utf8)
    let document = try SubStationAlpha.parse(bytes)
    #expect(document.cues.map(\.startTime) == [1.5, 4])
    #expect(document.cues.map(\.endTime) == [3.766, 5])
    #expect(
      document.diagnostics.map(\.reason) == [
        "time '0:00:01.5' has 1 fraction digit, read as 1.5 s (libass and FFmpeg take them for "
          + "centiseconds: 1.05 s)",
        "time '0:00:03.766' has 3 fraction digits, read as 3.766 s (libass and FFmpeg take them "
          + "for centiseconds: 10.66 s)",
      ])
  }

  // MARK: - Override tags

  @Test func boldItalicUnderline() throws {
    #expect(
      try assTree("{\\i1}i{\\i0} {\\b1}b{\\b0} {\\u1}u{\\b700}w{\\b400}") == [
        element(.italic, .text("i")), .text(" "), element(.bold, .text("b")), .text(" "),
        element(.underline, .text("u")), element(.bold, element(.underline, .text("w"))),
      ])
  }

  @Test func colours() throws {
    #expect(
      try assTree("{\\c&H0000FF&}r{\\c}w{\\1c&H00FF00&}g{\\1c&H00FFFFFF&}w2{\\2c&H0000FF&}k") == [
        colour("#ff0000", .text("r")), .text("w"), colour("#00ff00", .text("g")), .text("w2k"),
      ])
  }

  @Test func fontNameAndSizeAreSkippedWithTheTextKept() throws {
    #expect(try assTree("{\\fnDejaVu Sans\\fs40}big {\\fs}text") == [.text("big text")])
  }

  @Test func strikeoutAndOtherTagsKeepTheText() throws {
    #expect(
      try assTree("{\\s1}gone{\\s0} {\\bord3\\blur2\\t(0,500,\\fs40\\b1)}kept") == [
        .text("gone kept")
      ])
  }

  @Test func alignmentTags() throws {
    let document = try SubStationAlpha.parse(assScript(["{\\an8}a", "{\\a5}b", "{\\an3\\an7}c"]))
    #expect(document.cues[0].settings == SubRip.settings(forASSAlignment: 8))
    #expect(document.cues[1].settings == SubRip.settings(forASSAlignment: 7))
    // The first one counts.
    #expect(document.cues[2].settings == SubRip.settings(forASSAlignment: 3))
  }

  @Test func posAndMoveGivePositions() throws {
    let document = try SubStationAlpha.parse(
      assScript(["{\\pos(320,480)}a", "{\\an5\\move(64,240,0,0)}b"]))
    let a = document.cues[0].settings
    #expect(a.position == 50)
    #expect(a.line == 100)
    #expect(a.lineAlign == .end)
    #expect(a.positionAlign == .center)
    let b = document.cues[1].settings
    #expect(b.position == 10)
    #expect(b.line == 50)
    #expect(b.lineAlign == .center)
  }

  @Test func karaokeDrawingsAndCommentsInBlocks() throws {
    #expect(try assTree("{\\k20}ka{\\kf30}ra{comment}oke") == [.text("karaoke")])
    #expect(try assTree("{\\p1}m 0 0 l 10 0{\\p0}after") == [.text("after")])
    // An unclosed brace is text.
    #expect(try assTree("a { b") == [.text("a { b")])
  }

  @Test func unmatchedBracesStayLinear() throws {
    // 40,000 `{` that no `}` follows: the parser, the tree and the notes each finish in one
    // pass (a quadratic scan would not finish in a test's time), and they stay text.
    let noise = String(repeating: "{\\b1", count: 20_000) + String(repeating: "{", count: 20_000)
    let document = try SubStationAlpha.parse(assScript(["x{\\i1}y" + noise]))
    let tree = document.cueTree(of: document.cues[0])
    #expect(CueNode.plainText(tree) == "x" + "y" + noise)
    #expect(document.converted(to: .srt).cues.count == 1)
  }

  // MARK: - Errors and input

  @Test func aScriptWithoutEventsHasNoCuesAndAFileWithoutSectionsIsAnError() throws {
    // A styles or fonts file (as Aegisub writes one) is a script without cues.
    let styles = try SubStationAlpha.parse(
      Array("[Script Info]\nTitle: x\n\n[V4+ Styles]\nFormat: Name, Fontname\nStyle: A, B\n".utf8))
    #expect(styles.cues.isEmpty)
    #expect(styles.diagnostics.map(\.reason) == ["no [Events] section: the script has no cues"])
    #expect(throws: SubtitleError.missingSection(name: "[Events]")) {
      try SubStationAlpha.parse(Array("Title: x\nDialogue: 0,0:00:00.00,0:00:01.00,,x\n".utf8))
    }
  }

  @Test(arguments: [
    "Format: Layer, Start, Style, Text", "Format: Layer, Start, End, Text, Style",
  ])
  func badEventFormatLinesAreErrors(format: String) {
    let text = "[Script Info]\n\n[Events]\n\(format)\n"
    #expect {
      try SubStationAlpha.parse(Array(text.utf8))
    } throws: { error in
      guard case .badFormatLine(let line, _, _) = error as? SubtitleError else { return false }
      return line == 4
    }
  }

  @Test func badStyleFormatLineIsAnError() {
    let text = "[Script Info]\n\n[V4+ Styles]\nFormat: Fontname, Fontsize\n[Events]\n"
    #expect(
      throws: SubtitleError.badFormatLine(
        line: 4, offset: 28, reason: "the styles Format line has no Name field")
    ) {
      try SubStationAlpha.parse(Array(text.utf8))
    }
  }

  @Test func invalidUTF8IsReadAsWindows1252() throws {
    var bytes = assScript(["caf\u{E9}"])
    // é as windows-1252 (0xE9) instead of UTF-8 (0xC3 0xA9).
    if let at = bytes.firstIndex(of: 0xC3) { bytes.replaceSubrange(at...(at + 1), with: [0xE9]) }
    let document = try SubtitleFile.parse(bytes, pathExtension: "ass")
    #expect(document.plainText(of: document.cues[0]) == "caf\u{E9}")
    #expect(document.diagnostics.contains { $0.reason.contains("windows-1252") })
  }

  @Test func formatByNameThenByContent() throws {
    #expect(SubtitleFile.format(forPath: "a/b.ASS") == .ass)
    #expect(SubtitleFile.format(forPath: "b.ssa") == .ass)
    let bytes = try assFixture("basic.ass")
    #expect(try SubtitleFile.parse(bytes).format == .ass)
    #expect(try SubtitleFile.parse(bytes, pathExtension: "txt").format == .ass)
    #expect(try SubtitleFile.parse([0xEF, 0xBB, 0xBF] + Array(";x\n".utf8) + bytes).format == .ass)
    // An explicit extension decides.
    #expect(throws: SubtitleError.self) { try SubtitleFile.parse(bytes, pathExtension: "vtt") }
  }

  // MARK: - Conversion

  @Test func convertedToSRTAndWebVTTWithNotes() throws {
    let document = try SubStationAlpha.parse(try assFixture("override.ass"))
    let srt = document.converted(to: .srt)
    #expect(srt.text(of: srt.cues[0]) == "<i>italic</i> <b>bold</b> <u>under</u>")
    #expect(
      srt.text(of: srt.cues[1])
        == "<font color=\"#ff0000\">red</font> <font color=\"#00ff00\">lime</font>")
    #expect(srt.srtString().contains("{\\an8}top centre"))
    let reasons = srt.diagnostics.map(\.reason)
    for phrase in [
      "ASS font names (\\fn) dropped", "ASS font sizes (\\fs) dropped",
      "ASS \\move animation dropped (its start kept as the position)",
      "ASS karaoke timing (\\k) dropped", "ASS strikeout (\\s) dropped",
      "ASS drawing (\\p) dropped", "ASS animation (\\t) dropped", "ASS override \\bord dropped",
    ] {
      #expect(reasons.contains(phrase), "\(phrase)")
    }
    let vtt = document.converted(to: .webVTT)
    #expect(vtt.text(of: vtt.cues[1]) == "<c.red>red</c> <c.lime>lime</c>")
    #expect(vtt.cues[3].settings.position == 10)
  }

  @Test func assIsReadOnly() throws {
    #expect(!SubtitleFormat.ass.isWritable)
    #expect(SubtitleFormat.allCases.filter(\.isWritable) == [.webVTT, .srt])
    let srt = try SubRip.parse(Array("1\n00:00:01,000 --> 00:00:02,000\nx\n".utf8))
    let same = srt.converted(to: .ass)
    #expect(same.format == .srt)
    #expect(same.diagnostics.map(\.reason) == ["conversion to ass is not supported; unchanged"])
  }

  // MARK: - Round trip (the check of Fuzz/RoundTrip, on the fixtures and mutations of them)

  @Test(arguments: ["basic.ass", "override.ass", "legacy.ssa", "reordered.ass"])
  func conversionsAreStableAfterOneRound(name: String) throws {
    let original = try assFixture(name)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var inputs = [original]
    let alphabet = Array("{}\\,:.0123456789Nnh&H()[]\n\rabip".utf8)
    for _ in 0..<300 {
      var bytes = original
      for _ in 0..<4 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let at = Int(state >> 33) % bytes.count
        bytes[at] = alphabet[Int(state >> 17) % alphabet.count]
      }
      inputs.append(bytes)
    }
    for bytes in inputs {
      guard let document = try? SubtitleFile.parse(bytes, format: .ass) else { continue }
      for cue in document.cues { _ = document.cueTree(of: cue) }
      for format in SubtitleFormat.allCases where format.isWritable {
        let first = document.converted(to: format)
        let written = format == .srt ? first.srt() : first.webVTT()
        if format == .srt && first.cues.isEmpty { continue }
        let reparsed = try SubtitleFile.parse(written, format: format)
        #expect(reparsed.cues.count == first.cues.count)
        let rewritten = format == .srt ? reparsed.srt() : reparsed.webVTT()
        #expect(rewritten == written, "\(format): \(String(decoding: bytes, as: UTF8.self))")
      }
    }
  }
}

/// A script without an `[Events]` `Format:` line (hand-made, or from tools that leave it out)
/// is read with the default columns, as libass reads it, and says so.
@Suite struct SSAMissingFormatLineTests {
  @Test func theDefaultColumnsAreNoted() throws {
    let script =
      "[Script Info]\nScriptType: v4.00+\n\n[Events]\n"
      + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,No format line, here\n"
    let document = try SubStationAlpha.parse(Array(script.utf8))
    #expect(document.cues.map { document.text(of: $0) } == ["No format line, here"])
    #expect(
      document.diagnostics.map { "\($0.line): \($0.reason)" } == [
        "5: no Format line before the first event: read as Layer, Start, End, Style, Name,"
          + " MarginL, MarginR, MarginV, Effect, Text"
      ])
  }
}

/// `\r` naming a style resets the rest of the event to that style's look (libass), whatever the
/// event's own style; a name the script does not define resets to the event's style, with a
/// diagnostic.
@Test func aResetNamingAStyleTakesThatStylesLook() throws {
  let fields = "0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1"
  let styles = [
    "Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,\(fields)",
    "Style: Ital,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,-1,\(fields.dropFirst(4))",
    "Style: Yellow,Arial,20,&H0000FFFF,&H000000FF,&H00000000,&H00000000,-1,0,\(fields.dropFirst(4))",
  ]
  let document = try SubStationAlpha.parse(
    assScript(
      ["plain {\\rItal}italic", "a{\\rYellow }b{\\rDefault}c", "x{\\b1\\rNone}y"],
      style: styles.joined(separator: "\n")))
  let trees = document.cues.map { document.cueTree(of: $0) }
  #expect(trees[0] == [.text("plain "), element(.italic, .text("italic"))])
  #expect(
    trees[1] == [.text("a"), colour("#ffff00", element(.bold, .text("b"))), .text("c")])
  #expect(trees[2] == [.text("xy")])
  #expect(document.diagnostics.count == 1)
  #expect(document.diagnostics.first?.reason.contains("'None'") == true)
}
