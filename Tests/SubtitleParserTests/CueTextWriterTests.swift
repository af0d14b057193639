import Testing

@testable import SubtitleParser

/// The WebVTT writer of cue text trees, written and read back by the WebVTT cue text parser.
@Test(arguments: [
  "plain &amp; &lt;escaped&gt; text & more",
  "<i>italic</i> <b.loud>bold</b> <u>under</u>",
  "<c.red.big>classes</c>",
  "<v.narrator Joe &amp; Ann>voice</v>",
  "<lang en-GB>colour <lang fr>couleur</lang></lang>",
  "<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>",
  "before <00:00:01.500>after <01:02:03.004>end",
  "<i><b>nested <u>deeper</u></b></i> tail",
])
func webVTTWriterRoundTrips(_ text: String) {
  let tree = WebVTT.parseCueText(text)
  var out: [UInt8] = []
  var notes = DiagnosticLog()
  WebVTTCueTextWriter(line: 1, offset: 0).append(tree, openAtEnd: 0, to: &out, notes: &notes)
  #expect(WebVTT.parseCueText(out[...]) == tree, "\(String(decoding: out, as: UTF8.self))")
  #expect(notes.isEmpty)
}

/// SRT markup written as WebVTT: tags the SRT reader does not know are removed, a `<` that starts
/// no tag stays text (escaped), fonts become colour classes or nothing, and elements left open at
/// the end stay open.
@Test(arguments: [
  ("<i>open to the end", "<i>open to the end", 0),
  ("<b><i>both open</i>", "<b><i>both open</i>", 0),
  ("<font color=\"#ff0000\" face=Arial>red</font> a<x>b <3", "<c.red>red</c> ab &lt;3", 1),
  ("<font color=pink>pink</font>", "pink", 1),
  ("</i>stray end", "stray end", 0),
])
func srtMarkupWrittenAsWebVTT(_ source: String, _ expected: String, _ noteCount: Int) {
  let tree = SubRip.cueTree(Array(source.utf8)[...])
  var out: [UInt8] = []
  var notes = DiagnosticLog()
  WebVTTCueTextWriter(line: 1, offset: 0).append(
    tree.nodes, openAtEnd: tree.openAtEnd, to: &out, notes: &notes)
  #expect(String(decoding: out, as: UTF8.self) == expected)
  #expect(notes.list.count == noteCount)
}
