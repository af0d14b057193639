import Testing

@testable import SubtitleParser

/// WebVTT to SRT goes through the WebVTT cue text parser's tree and the SRT writer of trees.
/// Where the tree differs from a tag-by-tag reading of the source (malformed WebVTT markup),
/// the output follows the tree: each case below is one such difference.
@Suite struct SRTCueTextWriterTests {
  /// The SRT text of the one cue of a WebVTT document with cue text `text`, and the notes.
  func srt(_ text: String) throws -> (text: String, reasons: [String]) {
    let vtt = try WebVTT.parse(Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\(text)\n".utf8))
    let out = vtt.converted(to: .srt)
    return (out.text(of: out.cues[0]), out.diagnostics.map(\.reason))
  }

  @Test func textThatSpellsSRTTagsStaysText() throws {
    let (text, _) = try srt("&lt;i&gt;x&lt;/i&gt; &lt;FONT color=red&gt; &lt;x&gt; a &lt; b")
    let joiner = "\u{2060}"
    #expect(text == "<\(joiner)i>x<\(joiner)/i> <\(joiner)FONT color=red> <\(joiner)x> a < b")
    // Read back as SRT, it is text, not markup, and reads the same without the joiners.
    let file = try SubRip.parse(Array("1\n00:00:01,000 --> 00:00:02,000\n\(text)\n".utf8))
    let tree = file.cueTree(of: file.cues[0])
    #expect(tree == [.text(text)])
    #expect(
      CueNode.plainText(tree).filter { $0 != "\u{2060}" }
        == "<i>x</i> <FONT color=red> <x> a < b")
  }

  @Test func writingTheSRTAgainIsStable() throws {
    let vtt = try WebVTT.parse(
      Array(
        "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n&lt;b&gt;<i>x&lt;/i</i>&gt;<v A>&lt;u</v>&gt;\n"
          .utf8))
    let once = vtt.srt()
    let again = try SubRip.parse(once).srt()
    #expect(once == again)
    let text = try SubRip.parse(once)
    // A `<` and a `>` from different spans meet in the output: still text.
    #expect(
      CueNode.plainText(text.cueTree(of: text.cues[0])).filter { $0 != "\u{2060}" }
        == "<b>x</i><u>")
  }

  @Test func endTagsTheParserIgnoresAreDropped() throws {
    // `</i>` while `<b>` is the current element, and `</i >` (a tag named "i "), are ignored
    // by the WebVTT parser.
    #expect(try srt("<i><b>a</i>b</b></i >c</i>").text == "<i><b>ab</b>c</i>")
  }

  @Test func elementsLeftOpenAreClosed() throws {
    #expect(try srt("<i>a<c.red>b").text == "<i>a<font color=\"red\">b</font></i>")
  }

  @Test func emptyClassesAndIgnoredTagsAreNotNoted() throws {
    // `<c.>` has no classes; `<1x>` is not a timestamp; `<rt>` outside `<ruby>` is ignored.
    let (text, reasons) = try srt("<c.>a</c><1x>b<rt>c</rt>")
    #expect(text == "abc")
    #expect(reasons.isEmpty)
  }

  @Test func tagsPastTheDepthCapAreDropped() throws {
    let depth = WebVTT.maximumCueTextDepth + 10
    let source = String(repeating: "<i>", count: depth) + "x"
    let (text, _) = try srt(source)
    let expected =
      String(repeating: "<i>", count: WebVTT.maximumCueTextDepth) + "x"
      + String(repeating: "</i>", count: WebVTT.maximumCueTextDepth)
    #expect(text == expected)
  }

  @Test func controlCharactersBecomeReplacementsLiteralOrNot() throws {
    // A carriage return (from `&#13;`) would end the line in SRT: a space. Other control
    // characters, written literally or as references, become U+FFFD alike.
    #expect(try srt("a&#13;b&#1;c\u{1}d\u{9}e").text == "a b\u{FFFD}c\u{FFFD}d\u{9}e")
  }

  @Test func rubyTextAndVoicesKeepTheirTextWithNotes() throws {
    let (text, reasons) = try srt("<v Bob><ruby>漢<rt>kan</rt></ruby></v><c.big.red>r</c>")
    #expect(text == "漢(kan)<font color=\"red\">r</font>")
    #expect(
      reasons == [
        "<v> markup dropped (not in SRT)", "<ruby> markup dropped (not in SRT)",
        "<rt> written in parentheses (no ruby in SRT)", "cue classes dropped (not in SRT)",
      ])
  }
}
