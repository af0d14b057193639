import Foundation
import Testing

@testable import SubtitleParser

@Suite struct CueTextTests {
  @Test func entityTableIsComplete() {
    #expect(HTMLEntities.table.count == 2231)
    #expect(HTMLEntities.packedCount == 2231)
  }

  @Test func namedAndNumericReferences() {
    let cases: [(String, String)] = [
      ("&amp;&lt;&gt;", "&<>"),
      ("&notin;&not;&notit;", "\u{2209}\u{AC}\u{AC}it;"),
      ("&CounterClockwiseContourIntegral;", "\u{2233}"),
      ("&NotEqualTilde;", "\u{2242}\u{338}"),
      ("&#128;&#x80;", "€€"),
      ("&#0;&#xD800;&#x110000;&#99999999999;", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
      ("&#x81;&#65&#x41", "\u{81}AA"),
      ("&#;&#x;&#xg", "&#;&#x;&#xg"),
      ("&unknown; &", "&unknown; &"),
    ]
    for (input, expected) in cases {
      #expect(CueNode.plainText(WebVTT.parseCueText(input)) == expected, "\(input)")
    }
  }

  @Test func treeShape() {
    let nodes = WebVTT.parseCueText("<v.loud Esme>Hi <lang en><i>there</i></lang><00:01.500>!")
    let expected: [CueNode] = [
      .element(
        CueElement(
          kind: .voice, classes: ["loud"], annotation: "Esme",
          children: [
            .text("Hi "),
            .element(
              CueElement(
                kind: .language, annotation: "en", language: "en",
                children: [
                  .element(CueElement(kind: .italic, language: "en", children: [.text("there")]))
                ])),
            .timestamp(1.5),
            .text("!"),
          ]))
    ]
    #expect(nodes == expected)
    #expect(CueNode.plainText(nodes) == "Hi there!")
  }

  @Test func fallbackLanguageApplies() {
    let nodes = WebVTT.parseCueText("<i>a</i><lang fr><b>b</b></lang>", language: "en")
    let expected: [CueNode] = [
      .element(CueElement(kind: .italic, language: "en", children: [.text("a")])),
      .element(
        CueElement(
          kind: .language, annotation: "fr", language: "fr",
          children: [.element(CueElement(kind: .bold, language: "fr", children: [.text("b")]))])),
    ]
    #expect(nodes == expected)
  }

  @Test func plainTextSkipsRubyText() {
    let nodes = WebVTT.parseCueText("<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>")
    #expect(CueNode.plainText(nodes) == "漢字")
  }

  @Test func deepNestingIsCapped() {
    let depth = 100_000
    let input =
      String(repeating: "<b>", count: depth) + "x" + String(repeating: "</b>", count: depth)
      + "<i>after</i>"
    let nodes = WebVTT.parseCueText(input)
    var level = 0
    var current = nodes
    while case .element(let element)? = current.first, element.kind == .bold {
      level += 1
      current = element.children
    }
    #expect(level == WebVTT.maximumCueTextDepth)
    #expect(current == [.text("x")])
    #expect(nodes.count == 2)
    #expect(CueNode.plainText(nodes) == "xafter")
  }

  @Test func fontElementMapsToHTML() {
    let node = CueNode.element(
      CueElement(
        kind: .font, attributes: [CueElement.Attribute(name: "color", value: "#ff0000")],
        children: [.text("red")]))
    #expect(
      node.html
        == .element(name: "font", attributes: ["color": "#ff0000"], children: [.text("red")]))
  }

  @Test func documentCueTree() throws {
    let document = try WebVTT.parse(Array("WEBVTT\n\n00:00.000 --> 00:01.000\n<b>a</b>\r\nb".utf8))
    let cue = try #require(document.cues.first)
    #expect(
      document.cueTree(of: cue) == [
        .element(CueElement(kind: .bold, children: [.text("a")])), .text("\nb"),
      ])
    #expect(document.plainText(of: cue) == "a\nb")
  }
}

@Suite struct CueMarkupTests {
  @Test func markupSerialisesTheDOMShape() {
    let nodes = WebVTT.parseCueText(
      "<v.loud Esme \"E\">a &amp; b&nbsp;&lt;</v><00:00:01.500><lang en>x</lang><rt>y")
    #expect(
      CueHTMLNode.markup(CueNode.html(nodes))
        == "<span class=\"loud\" title=\"Esme &quot;E&quot;\">a &amp; b&nbsp;&lt;</span>"
        + "<?timestamp 00:00:01.500><span lang=\"en\">x</span>y")
  }

  @Test func treesRoundTripThroughCodable() throws {
    let nodes = WebVTT.parseCueText("<c.a>x<00:01.000><ruby>b<rt>c</rt></ruby></c>")
    let data = try JSONEncoder().encode(nodes)
    #expect(try JSONDecoder().decode([CueNode].self, from: data) == nodes)
  }
}
