import Testing

@testable import SubtitleParser

/// What a cue means, independent of where its bytes sit in the document's buffer.
struct CueMeaning: Hashable, CustomStringConvertible {
  var id: String
  var start: Double
  var end: Double
  var text: String
  var settings: CueSettings

  var description: String { "\(id)|\(start)|\(end)|\(text)|\(settings)" }
}

func meanings(_ document: SubtitleDocument, ids: Bool = true) -> [CueMeaning] {
  document.cues.map {
    CueMeaning(
      id: ids ? document.id(of: $0) : "", start: $0.startTime, end: $0.endTime,
      text: document.text(of: $0), settings: $0.settings)
  }
}

let messySRT = """
  1
  00:00:00,500 --> 00:00:01,500
  Hello, <i>world</i> & <3.

  2
  00:00:01,800 --> 00:00:02,900
  {\\an8}Second cue,
  two lines.

  3
  01:02:03,004 --> 01:02:04,000
  {\\an7}<font color="#FF0000">Red</font> and <b>bold</b>
  """

@Test func srtRoundTripsThroughItsWriter() throws {
  let first = try SubRip.parse(Array(messySRT.utf8))
  let written = first.srt()
  let second = try SubRip.parse(written)
  #expect(meanings(second) == meanings(first))
  #expect(second.diagnostics.isEmpty)
  #expect(
    first.srtString().hasPrefix(
      "1\n00:00:00,500 --> 00:00:01,500\nHello, <i>world</i> & <3.\n\n2\n00:00:01,800 --> 00:00:02,900\n{\\an8}Second cue,\ntwo lines.\n"
    ))
  // Writing again is a fixed point.
  #expect(second.srt() == written)
}

@Test func srtToWebVTTText() throws {
  let document = try SubRip.parse(Array(messySRT.utf8))
  let vtt = document.webVTTString()
  #expect(
    vtt == """
      WEBVTT

      1
      00:00:00.500 --> 00:00:01.500
      Hello, <i>world</i> &amp; &lt;3.

      2
      00:00:01.800 --> 00:00:02.900 line:0
      Second cue,
      two lines.

      3
      01:02:03.004 --> 01:02:04.000 line:0 align:left
      <c.red>Red</c> and <b>bold</b>

      """)
}

@Test func conversionThereAndBackKeepsWhatSRTExpresses() throws {
  let document = try SubRip.parse(Array(messySRT.utf8))
  let vtt = document.converted(to: .webVTT)
  #expect(vtt.format == .webVTT)
  #expect(vtt.diagnostics.isEmpty)
  let back = vtt.converted(to: .srt)
  let again = try SubRip.parse(back.srt())
  var expected = meanings(document, ids: false)
  expected[2].text = "<font color=\"red\">Red</font> and <b>bold</b>"
  #expect(meanings(again, ids: false) == expected)
}

@Test func unexpressibleMarkupAndSettingsGiveDiagnostics() throws {
  let srtDocument = try SubRip.parse(
    Array(
      "1\n00:00:01,000 --> 00:00:02,000\n<font color=\"#123456\" face=\"Arial\">x</font>\n".utf8))
  let vtt = srtDocument.converted(to: .webVTT)
  #expect(vtt.text(of: vtt.cues[0]) == "x")
  #expect(vtt.diagnostics.count == 2)

  var settings = CueSettings()
  settings.position = 30
  settings.size = 50
  settings.vertical = .rightToLeft
  let text = Array("id<v Bob>Hi</v> <c.yellow.big>there</c> &amp; <00:00:01.500>now".utf8)
  let source = SubtitleDocument(
    format: .webVTT, text: text, header: "Kind: captions", styles: ["::cue { color: red }"],
    cues: [
      Cue(idRange: 0..<2, textRange: 2..<text.count, startTime: 1, endTime: 2, settings: settings)
    ])
  let srtOut = source.converted(to: .srt)
  #expect(srtOut.text(of: srtOut.cues[0]) == "Hi <font color=\"yellow\">there</font> & now")
  #expect(srtOut.cues[0].settings == CueSettings())
  let reasons = srtOut.diagnostics.map(\.reason)
  #expect(reasons.count == 6)
  #expect(reasons.contains { $0.contains("approximated as {\\an2}") })
  #expect(reasons.contains("<v> markup dropped (not in SRT)"))
  #expect(reasons.contains("timestamp tags dropped (not in SRT)"))
}

@Test func webVTTWriterWritesSettingsRegionsAndStyles() {
  var region = Region()
  region.id = "r1"
  region.width = 40
  region.scroll = "up"
  var settings = CueSettings()
  settings.line = 12.5
  settings.snapToLines = false
  settings.lineAlign = .end
  settings.position = 10
  settings.positionAlign = .lineLeft
  settings.size = 0.00001
  settings.align = .start
  settings.region = 0
  let text = Array("hello".utf8)
  let document = SubtitleDocument(
    format: .webVTT, text: text, header: "- title", regions: [region],
    styles: ["::cue { color: lime }"],
    cues: [Cue(textRange: 0..<5, startTime: 3725.5, endTime: 360_000, settings: settings)],
    timestampMap: TimestampMap(mpegts: 900_000, local: 0))
  #expect(
    document.webVTTString() == """
      WEBVTT - title
      X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000

      REGION
      id:r1
      width:40%
      lines:3
      regionanchor:0%,100%
      viewportanchor:0%,100%
      scroll:up

      STYLE
      ::cue { color: lime }

      01:02:05.500 --> 100:00:00.000 line:12.5%,end position:10%,line-left size:0.00001% align:start region:r1
      hello

      """)
}

@Test func shiftClampsAtZeroWithDiagnostics() throws {
  let document = try SubRip.parse(
    Array(
      "1\n00:00:01,000 --> 00:00:03,000\nA\n\n2\n00:00:00,200 --> 00:00:00,400\nB\n\n3\n00:00:05,000 --> 00:00:06,000\nC\n"
        .utf8))
  let shifted = document.shifted(by: -1.5)
  #expect(shifted.cues.map(\.startTime) == [0, 0, 3.5])
  #expect(shifted.cues.map(\.endTime) == [1.5, 0, 4.5])
  #expect(shifted.diagnostics.count == 2)
  #expect(shifted.diagnostics.map(\.line) == [2, 6])
  let later = document.shifted(by: 0.1)
  #expect(later.cues.map(\.startTime) == [1.1, 0.3, 5.1])
  #expect(later.diagnostics.isEmpty)
}

/// Cue meaning plus the region it refers to (regions compared by value, not index).
func meaningsWithRegions(_ document: SubtitleDocument) -> [String] {
  zip(meanings(document), document.cues).map { meaning, cue in
    var m = meaning
    m.settings.region = nil
    return "\(m) region=\(String(describing: document.region(of: cue)))"
  }
}

@Test(arguments: WPT.fileParsingInputs())
func webVTTRoundTripsThroughItsWriter(path: String) throws {
  guard let first = try? WebVTT.parse(WPT.bytes(path)) else { return }
  let written = first.webVTT()
  let second = try WebVTT.parse(written)
  #expect(meaningsWithRegions(second) == meaningsWithRegions(first), "\(path)")
  #expect(second.header == first.header)
  #expect(second.styles == first.styles)
  #expect(second.timestampMap == first.timestampMap)
  #expect(second.webVTT() == written)
}

@Test func webVTTThroughSRTAndBack() throws {
  let source = """
    WEBVTT

    a
    00:00:01.000 --> 00:00:02.000 line:0 align:left
    <i>Hi</i> &amp; <c.red>red</c>

    00:00:03.000 --> 00:00:04.000 line:50% line:50%,center align:right
    <b>mid</b>
    """
  let vtt = try SubtitleFile.parse(Array(source.utf8))
  #expect(vtt.format == .webVTT)
  let srt = try SubRip.parse(vtt.srt())
  #expect(
    summary(srt) == [
      "1|1.0|2.0|<i>Hi</i> & <font color=\"red\">red</font>", "2|3.0|4.0|<b>mid</b>",
    ])
  #expect(srt.cues[0].settings == SubRip.settings(forASSAlignment: 7))
  #expect(srt.cues[1].settings == SubRip.settings(forASSAlignment: 6))
  let back = try WebVTT.parse(srt.webVTT())
  #expect(back.cues.map(\.settings) == vtt.cues.map(\.settings))
  #expect(back.text(of: back.cues[0]) == "<i>Hi</i> &amp; <c.red>red</c>")
}

@Test func srtMarkupTreeMatchesWebVTTShape() throws {
  let document = try SubRip.parse(
    Array(
      "1\n00:00:01,000 --> 00:00:02,000\n<I>a</i> <font color=\"red\" size=3>b<b>c</font>d</b> <x> <3\n"
        .utf8))
  let tree = document.cueTree(of: document.cues[0])
  let font = CueElement(
    kind: .font,
    attributes: [.init(name: "color", value: "red"), .init(name: "size", value: "3")],
    children: [.text("b"), .element(CueElement(kind: .bold, children: [.text("c")]))])
  let expected: [CueNode] = [
    .element(CueElement(kind: .italic, children: [.text("a")])), .text(" "), .element(font),
    .text("d  <3"),
  ]
  #expect(tree == expected)
}

@Test func numbersAreWrittenWithoutExponent() {
  for value in [0, 12.5, 1e-5, 1.5e-7, -2.25e-9, 1.8446744073709552e19, 1e34, 33.333333333333336] {
    let text = number(value)
    #expect(!text.contains("e"))
    #expect(Double(text) == value, "\(text)")
  }
  #expect(number(1e-5) == "0.00001")
  #expect(number(1e20) == "100000000000000000000")
}

@Test func headerLinesStayHeaderLinesWhenWritten() throws {
  // With nothing after the signature, header lines used to be written on the signature line,
  // where an HLS player no longer finds X-TIMESTAMP-MAP.
  for source in [
    "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\nKind: captions\n\n00:01.000 --> 00:02.000\nhi\n",
    "WEBVTT - title\nKind: captions\n\n00:01.000 --> 00:02.000\nhi\n",
    "WEBVTT title only\n\n00:01.000 --> 00:02.000\nhi\n",
  ] {
    let first = try WebVTT.parse(Array(source.utf8))
    let written = first.webVTTString()
    let second = try WebVTT.parse(Array(written.utf8))
    #expect(second.header == first.header, "\(written)")
    #expect(second.timestampMap == first.timestampMap)
    #expect(written.hasPrefix(String(source.prefix { $0 != "\n" }) + "\n"), "\(written)")
  }
  let mapped = try WebVTT.parse(
    Array("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n".utf8))
  #expect(mapped.header == "\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000")
}

@Test func characterReferencesReachSRTDecoded() throws {
  // Every HTML named reference and numeric references with HTML's replacements, as the cue-text
  // parser reads them; a carriage return would end an SRT line, so it becomes a space.
  let vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\n&notin; &AElig &amp x &#65 &#0; &#x80; &#13;y\n"
  let srt = try WebVTT.parse(Array(vtt.utf8)).converted(to: .srt).srtString()
  #expect(srt.contains("\u{2209} \u{00C6} & x A \u{FFFD} \u{20AC}  y"), "\(srt)")
  let back = try SubRip.parse(Array(srt.utf8))
  #expect(back.cues.count == 1)
  #expect(back.diagnostics.isEmpty)
}

@Test func manyTextLinesThatLookLikeTimingLinesAreAllDisarmed() throws {
  var vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"
  for _ in 0..<2000 { vtt += "00:00:01,000 --&gt; 00:00:02,000\n" }
  let srt = try WebVTT.parse(Array(vtt.utf8)).converted(to: .srt).srt()
  let back = try SubRip.parse(srt)
  #expect(back.cues.count == 1)
  #expect(back.text(of: back.cues[0]).split(separator: "\n").count == 2000)
}

@Test func srtMarkupConvertsAsTheSRTReaderNestsIt() throws {
  // The converter once had tag rules of its own: `<i2>` and `<b/>` became tags although the SRT
  // reader does not map them (it removes them, as unknown tags), and a misnested `</font>` left
  // `</b>` to the WebVTT parser, which then styled the text after it. `<i class="x">` is
  // italic, its attribute ignored.
  let srt =
    "1\n00:00:01,000 --> 00:00:02,000\n<font color=red><b>x</font> y</b> <i2>a <b/>b <i class=\"x\">c <2i>d\n"
  let source = try SubRip.parse(Array(srt.utf8))
  let converted = source.converted(to: .webVTT)
  let vtt = try WebVTT.parse(converted.webVTT())
  #expect(
    converted.text(of: converted.cues[0])
      == "<c.red><b>x</b></c> y a b <i>c &lt;2i&gt;d")
  // The same text and the same styling, element by element.
  func shape(_ nodes: [CueNode]) -> String {
    nodes.map { node in
      switch node {
      case .text(let text): return "'\(text)'"
      case .element(let element):
        let name = element.kind == .font || element.kind == .class ? "colour" : "\(element.kind)"
        return name + "(" + shape(element.children) + ")"
      default: return "?"
      }
    }.joined()
  }
  let sourceTree = SubRip.parseCueText(source.text[source.cues[0].textRange])
  #expect(shape(vtt.cueTree(of: vtt.cues[0])) == shape(sourceTree))
}
