import Testing

@testable import SubtitleParser

/// SRT cue text markup as FFmpeg's and Media3's SRT decoders read it: the known tags are
/// elements, `<br>` a line break, other tag-shaped sequences removed with their content kept,
/// and a `<` that starts no tag is text.
@Suite struct SRTWildMarkupTests {
  /// The cue text tree of `text` read as SRT.
  static func tree(_ text: String) -> [CueNode] {
    SubRip.parseCueText(Array(text.utf8)[...])
  }

  /// An element of `kind` holding `children`.
  static func element(_ kind: CueElement.Kind, _ children: [CueNode]) -> CueNode {
    .element(CueElement(kind: kind, children: children))
  }

  @Test func unknownTagsAreRemovedAndTheirContentKept() {
    #expect(Self.tree("Hello <bold>my</bold> name is Bob") == [.text("Hello my name is Bob")])
    #expect(Self.tree("<span style=\"color:red\">c</span>") == [.text("c")])
    #expect(Self.tree("a<x-y2/>b</q >c") == [.text("abc")])
  }

  @Test(arguments: ["<br>", "<BR>", "<br/>", "<Br />", "<br clear=all>"])
  func lineBreakTags(tag: String) {
    #expect(Self.tree("one\(tag)two") == [.text("one\ntwo")])
  }

  @Test(arguments: ["x < y > z", "I <3 you", "<<>>", "a <c.yellow>b", "<1a>", "< b>", "a <b\nc> d"])
  func textThatIsNoTagStaysLiteral(text: String) {
    #expect(Self.tree(text) == [.text(text)])
  }

  @Test func knownTagsWithAttributesAreStillMarkup() {
    // HTML-minded writers add attributes; FFmpeg ignores them.
    #expect(
      Self.tree("<i class=\"x\">a</i><b style='y'>b</b>")
        == [Self.element(.italic, [.text("a")]), Self.element(.bold, [.text("b")])])
    // An end tag with something after its name is no end tag: text.
    #expect(Self.tree("<i>a</i x>") == [Self.element(.italic, [.text("a</i x>")])])
  }

  @Test func knownTagsKeepWorkingInAnyCase() {
    #expect(
      Self.tree("<I>f</I> <U >h</u> x<br>y")
        == [
          Self.element(.italic, [.text("f")]), .text(" "), Self.element(.underline, [.text("h")]),
          .text(" x\ny"),
        ])
    let font = Self.tree("<FONT COLOR=\"red\">g</FONT>")
    guard case .element(let element) = font.first else {
      Issue.record("no font element: \(font)")
      return
    }
    #expect(element.kind == .font)
    #expect(element.attributes == [CueElement.Attribute(name: "color", value: "red")])
    #expect(element.children == [.text("g")])
  }

  @Test func unknownTagsInsideKnownOnesKeepTheTree() {
    #expect(
      Self.tree("<i>a<bold>b</bold>c</i>d") == [Self.element(.italic, [.text("abc")]), .text("d")]
    )
  }

  /// WebVTT written from such a cue carries neither the unknown tags nor escaped brackets.
  @Test func conversionToWebVTTDropsUnknownTags() throws {
    let source = try SubRip.parse(
      Array("1\n00:00:01,000 --> 00:00:02,000\nHello <bold>my</bold> name<br>is x < y\n".utf8))
    let vtt = String(decoding: source.converted(to: .webVTT).webVTT(), as: UTF8.self)
    #expect(vtt.contains("Hello my name\nis x &lt; y"))
    #expect(!vtt.contains("bold"))
  }
}
