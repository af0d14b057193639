import Testing

@testable import SubtitleParser

/// The results of the paths made linear for hostile input: the same answers as before, found
/// without the quadratic work.
@Suite struct HardeningTests {
  /// A region setting finds the last region with that identifier, byte for byte, through the
  /// hash index; canonically equivalent but different bytes are different identifiers.
  @Test func regionLookupIsByBytesAndFindsTheLastDefinition() throws {
    let composed = "\u{E9}"
    let decomposed = "e\u{301}"
    var text = "WEBVTT\n\n"
    for (id, width) in [("a", 10), (composed, 20), ("a", 30), (decomposed, 40), ("b", 50)] {
      text += "REGION\nid:\(id) width:\(width)%\n\n"
    }
    for id in ["a", composed, decomposed, "b", "c"] {
      text += "00:01.000 --> 00:02.000 region:\(id)\nx\n\n"
    }
    let document = try WebVTT.parse(Array(text.utf8))
    #expect(document.cues.map(\.settings.region) == [2, 1, 3, 4, nil])
    #expect(document.regions.count == 5)
    // One redefinition ("a"), one missing region ("c").
    #expect(document.diagnostics.filter { $0.reason.contains("redefined") }.count == 1)
    #expect(document.diagnostics.filter { $0.reason.contains("no such region") }.count == 1)
  }

  /// Identifiers whose hashes collide still resolve by the spec's search.
  @Test func regionLookupSurvivesHashCollisions() {
    var core = VTTCore()
    var first = Region()
    first.id = "one"
    var second = Region()
    second.id = "two"
    core.regions = [first, second]
    // Both filed under one hash, as a collision would leave them.
    var two = "two"
    core.regionByHash = [two.withUTF8 { VTTCore.idHash($0) }: 1]
    var one = "one"
    #expect(one.withUTF8 { core.regionIndex($0) } == nil)
    core.regionByHash[one.withUTF8 { VTTCore.idHash($0) }] = 1
    #expect(one.withUTF8 { core.regionIndex($0) } == 0)
    #expect(two.withUTF8 { core.regionIndex($0) } == 1)
  }

  /// SRT end tags without an open element are ignored and leave the text in one node.
  @Test func strayEndTagsInSRTLeaveOneTextNode() {
    let tree = SubRip.parseCueText(Array("x</b>y</i>z".utf8)[...])
    #expect(tree == [.text("xyz")])
    let nested = SubRip.parseCueText(Array("<i>a</b>b</i>c</u>d".utf8)[...])
    #expect(
      nested == [.element(CueElement(kind: .italic, children: [.text("ab")])), .text("cd")])
  }
}
