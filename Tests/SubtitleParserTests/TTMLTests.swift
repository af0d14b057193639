import SubtitleParser
import Testing

// TTML/IMSC1 rules, one test each: timing (TTML 2, 10), text and white space (7.2.3), styles
// (8) and layout (9) as they map onto the neutral model.

private func ttml(_ body: String, head: String = "", root: String = "") -> [UInt8] {
  Array(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"
        xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xml:lang="en" \(root)>
      <head>\(head)</head>
      <body>\(body)</body>
    </tt>
    """.utf8)
}

private func parse(_ bytes: [UInt8]) throws -> SubtitleDocument {
  try SubtitleFile.parse(bytes, format: .ttml)
}

private func times(_ document: SubtitleDocument) -> [[Double]] {
  document.cues.map { [$0.startTime, $0.endTime] }
}

private func texts(_ document: SubtitleDocument) -> [String] {
  document.cues.map { document.text(of: $0) }
}

@Test func clockAndOffsetTimes() throws {
  let document = try parse(
    ttml(
      """
      <div>
        <p begin="00:00:01.500" end="00:00:02">a</p>
        <p begin="3s" dur="500ms">b</p>
        <p begin="0.1m" end="0.002h">c</p>
        <p begin="00:00:10:12" end="00:00:11:00.1">d</p>
        <p begin="240f" end="25000t">e</p>
      </div>
      """, root: #"ttp:frameRate="24" ttp:subFrameRate="2" ttp:tickRate="10000""#))
  // 12 frames at 24 fps; 1 subframe of 2 is 1/48 s; 240 frames are 10 s; 25000 ticks 2.5 s
  // (a cue that ends before it begins is clipped to nothing).
  #expect(times(document) == [[1.5, 2], [3, 3.5], [6, 7.2], [10.5, 11.021]])
}

@Test func frameRateMultiplierAndTheDefaultTickRate() throws {
  // 30 × 1000/1001 fps: clock time counts whole seconds as seconds, ticks default to the
  // effective frame rate, so 30 ticks are 1.001 s.
  let document = try parse(
    ttml(
      #"<p begin="00:00:00:00" end="00:00:01:00">a</p><p begin="30t" end="60t">b</p>"#,
      root: #"ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001""#))
  #expect(times(document) == [[0, 1], [1.001, 2.002]])
}

@Test func parallelTimesCountFromTheParentsBeginAndAreClippedToIt() throws {
  let document = try parse(
    ttml(
      """
      <div begin="10s" end="20s">
        <p begin="1s" end="3s">a</p>
        <p begin="5s" end="30s">b</p>
        <p begin="15s" end="16s">never</p>
      </div>
      """))
  #expect(times(document) == [[11, 13], [15, 20]])
  #expect(texts(document) == ["a", "b"])
}

@Test func sequentialTimesCountFromTheEndOfTheOneBefore() throws {
  let document = try parse(
    ttml(
      """
      <div timeContainer="seq">
        <p dur="2s">a</p>
        <p begin="1s" dur="2s">b</p>
        <p dur="1s">c</p>
      </div>
      """))
  #expect(times(document) == [[0, 2], [3, 5], [5, 6]])
}

@Test func anonymousSpansLastNothingInASequence() throws {
  // A `p` that is a sequence of its own text shows nothing; the next one starts at once.
  let document = try parse(
    ttml(
      """
      <div timeContainer="seq">
        <p begin="1s" timeContainer="seq">hidden</p>
        <p dur="2s">shown</p>
      </div>
      """))
  #expect(texts(document) == ["shown"])
  #expect(times(document) == [[1, 3]])
}

@Test func anonymousSpansInATimedSequenceAreNeverShown() throws {
  // A sequence that lasts 10 s by `dur`: its bare text lasts 0 and does not move the cursor;
  // the span starts with the sequence and shows alone.
  let document = try parse(
    ttml(
      """
      <div>
        <p timeContainer="seq" begin="5s" dur="10s">not shown
          <span dur="4s">shown</span>
          not shown either</p>
      </div>
      """))
  #expect(texts(document) == ["shown"])
  #expect(times(document) == [[5, 9]])
}

@Test func aTimedRegionShowsContentOnlyWhileActive() throws {
  let head = """
    <layout>
      <region xml:id="early" begin="0s" end="10s"/>
      <region xml:id="late" begin="10s" dur="10s"/>
    </layout>
    """
  let document = try parse(
    ttml(
      """
      <div region="early"><p>a</p></div>
      <div region="late">
        <p begin="5s" end="15s">b</p>
        <p begin="16s" end="25s">c</p>
        <p begin="30s" end="31s">never</p>
      </div>
      """, head: head))
  #expect(texts(document) == ["a", "b", "c"])
  #expect(times(document) == [[0, 10], [10, 15], [16, 20]])
}

@Test func aVisibleSpanShowsInsideHiddenContent() throws {
  let document = try parse(
    ttml(
      """
      <div tts:visibility="hidden">
        <p begin="0s" end="1s">hidden <span tts:visibility="visible">shown</span></p>
        <p begin="1s" end="2s">all hidden</p>
      </div>
      <p begin="2s" end="3s">kept <span tts:visibility="hidden">gone</span></p>
      <p begin="3s" end="4s" tts:display="none">none <span tts:display="auto">x</span></p>
      """))
  #expect(texts(document) == ["shown", "kept"])
  #expect(times(document) == [[0, 1], [2, 3]])
}

@Test func rubyBecomesWebVTTRuby() throws {
  // IMSC 1.1 ruby: container, base and text spans to `ruby` and `rt`; delimiters and the
  // white space between the parts go.
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s"><span tts:ruby="container">
          <span tts:ruby="base">東南</span>
          <span tts:ruby="delimiter">(</span>
          <span tts:ruby="text">とうなん</span>
          <span tts:ruby="delimiter">)</span>
        </span>の方角</p>
      """))
  #expect(texts(document) == ["<ruby>東南<rt>とうなん</rt></ruby>の方角"])
  #expect(String(decoding: document.srt(), as: UTF8.self).contains("東南(とうなん)の方角"))
}

@Test func rubyAnnotationsFollowTheirBaseAndNeedOne() throws {
  // Text before base in the source; other text of the container after the ruby; an
  // annotation without a base, or outside a container, is dropped.
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s">a <span tts:ruby="container">
          <span tts:ruby="text">T</span> <span tts:ruby="base">B</span>.</span></p>
      <p begin="1s" end="2s">a <span tts:ruby="container"><span tts:ruby="text">T</span></span> b</p>
      <p begin="2s" end="3s">a <span tts:ruby="text">T</span> <span tts:ruby="base">B</span></p>
      """))
  #expect(texts(document) == ["a <ruby>B<rt>T</rt></ruby>.", "a b", "a B"])
}

@Test func aContainerWithoutTimesLastsAsLongAsItsChildren() throws {
  let document = try parse(
    ttml(
      """
      <div timeContainer="seq">
        <div><p begin="1s" end="2s">a</p><p begin="0s" end="4s">b</p></div>
        <div><p dur="1s">c</p></div>
      </div>
      """))
  #expect(times(document) == [[0, 4], [1, 2], [4, 5]])
}

@Test func timedSpansSplitAParagraphIntoTheCuesOfEachPresentation() throws {
  let document = try parse(
    ttml(#"<p begin="0s" end="6s">one <span begin="2s" end="4s">two</span> three</p>"#))
  #expect(times(document) == [[0, 2], [2, 4], [4, 6]])
  #expect(texts(document) == ["one three", "one two three", "one three"])
}

@Test func setChangesTheStyleWhileItIsActive() throws {
  let document = try parse(
    ttml(#"<p begin="0s" end="4s"><set begin="1s" end="2s" tts:fontStyle="italic"/>text</p>"#))
  #expect(times(document) == [[0, 1], [1, 2], [2, 4]])
  #expect(texts(document) == ["text", "<i>text</i>", "text"])
}

@Test func anUnboundedParagraphLastsToTheLargestTimestamp() throws {
  let document = try parse(ttml(#"<p begin="1s">forever</p>"#))
  #expect(document.cues.first?.startTime == 1)
  #expect(document.cues.first.map { $0.endTime > 1e9 } == true)
  #expect(document.diagnostics.contains { $0.reason.contains("no end") })
}

@Test func whiteSpaceIsCollapsedOrPreserved() throws {
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s">
          Two   words<br/>   and
        a line  </p>
      <p begin="1s" end="2s" xml:space="preserve">keep  this</p>
      """))
  #expect(texts(document) == ["Two words\nand a line", "keep  this"])
}

@Test func charactersThatAreMarkupInWebVTTAreEscaped() throws {
  let document = try parse(ttml(#"<p begin="0s" end="1s">a &lt;b&gt; &amp; c&#x263A;</p>"#))
  #expect(texts(document) == ["a &lt;b&gt; &amp; c\u{263A}"])
  #expect(document.plainText(of: document.cues[0]) == "a <b> & c\u{263A}")
}

@Test func stylesByReferenceChainAndInline() throws {
  let head = """
    <styling>
      <style xml:id="base" tts:fontWeight="bold"/>
      <style xml:id="emphasis" style="base" tts:fontStyle="italic"/>
    </styling>
    """
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s" style="emphasis">both</p>
      <p begin="1s" end="2s"><span tts:textDecoration="underline">under</span> plain</p>
      <p begin="2s" end="3s" tts:color="yellow">yellow <span tts:color="#ff8000">orange</span></p>
      """, head: head))
  #expect(
    texts(document) == [
      "<i><b>both</b></i>", "<u>under</u> plain",
      "<c.yellow>yellow <c.color-ff8000>orange</c></c>",
    ])
}

@Test func aLanguageSpanIsKept() throws {
  let document = try parse(
    ttml(#"<p begin="0s" end="1s">Hello <span xml:lang="fr">bonjour</span></p>"#))
  #expect(texts(document) == ["Hello <lang fr>bonjour</lang>"])
}

@Test func regionsPlaceTheCue() throws {
  let head = """
    <layout>
      <region xml:id="bottom" tts:origin="10% 70%" tts:extent="80% 20%" tts:displayAlign="after"/>
      <region xml:id="top" tts:origin="64px 48px" tts:extent="512px 96px"/>
    </layout>
    """
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s" region="bottom">a</p>
      <p begin="1s" end="2s" region="top" tts:textAlign="left">b</p>
      """, head: head, root: #"tts:extent="640px 480px""#))
  let bottom = document.cues[0].settings
  #expect(bottom.line == 90 && bottom.lineAlign == .end && !bottom.snapToLines)
  #expect(bottom.position == 50 && bottom.size == 80 && bottom.align == .center)
  let top = document.cues[1].settings
  #expect(top.line == 10 && top.lineAlign == .start)
  #expect(top.position == 10 && top.positionAlign == .lineLeft && top.size == 80)
}

@Test func aRegionsLeftOutOriginAndExtentAreTheRootContainers() throws {
  // TTML 2, 10.2.37 and 10.2.16: no (or `auto`) origin is 0 0 and no (or `auto`) extent the
  // root container's, so such a region still places its text by its display alignment, here
  // through a referenced style.
  let head = """
    <styling><style xml:id="middle" tts:displayAlign="center"/></styling>
    <layout>
      <region xml:id="whole" style="middle"/>
      <region xml:id="auto" tts:origin="auto" tts:extent="auto" tts:displayAlign="after"/>
      <region xml:id="sized" tts:extent="50% 20%" tts:displayAlign="center"/>
      <region xml:id="placed" tts:origin="10% 60%"/>
    </layout>
    """
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s" region="whole">a</p>
      <p begin="1s" end="2s" region="auto">b</p>
      <p begin="2s" end="3s" region="sized">c</p>
      <p begin="3s" end="4s" region="placed">d</p>
      """, head: head))
  let settings = document.cues.map(\.settings)
  #expect(settings.map(\.line) == [50, 100, 10, 60])
  #expect(settings.map(\.lineAlign) == [.center, .end, .center, .start])
  #expect(settings.map(\.position) == [50, 50, 25, 55])
  #expect(settings.map(\.size) == [100, 100, 50, 90])
  #expect(settings.allSatisfy { !$0.snapToLines })
}

@Test func contentInARegionInheritsTheRegionsStyles() throws {
  // The region is the parent of the body flowed into it: its inline and referenced styles
  // reach the text, below what the paragraph and its ancestors state.
  let head = """
    <styling><style xml:id="speaker" tts:fontStyle="italic" tts:color="yellow"/></styling>
    <layout>
      <region xml:id="r" tts:origin="10% 60%" tts:extent="50% 20%" tts:textAlign="left"
          tts:displayAlign="after" style="speaker"/>
    </layout>
    """
  let document = try parse(
    ttml(
      """
      <div region="r">
        <p begin="0s" end="1s">a</p>
        <p begin="1s" end="2s" tts:color="lime" tts:textAlign="right">b</p>
      </div>
      <div region="r" tts:fontStyle="normal"><p begin="2s" end="3s">c</p></div>
      """, head: head))
  #expect(texts(document) == ["<i><c.yellow>a</c></i>", "<i><c.lime>b</c></i>", "<c.yellow>c</c>"])
  let settings = document.cues.map(\.settings)
  #expect(settings.map(\.align) == [.left, .right, .left])
  #expect(settings.map(\.position) == [10, 60, 10])
  #expect(settings.map(\.line) == [80, 80, 80])
}

@Test func theDFXPDraftStylingNamespaceIsRead() throws {
  let document = try parse(
    Array(
      """
      <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/2006/10/ttaf1#style">
        <head><layout>
          <region xml:id="r" tts:origin="10% 10%" tts:extent="80% 20%" tts:displayAlign="after"/>
        </layout></head>
        <body><p begin="1s" end="2s" region="r" tts:fontStyle="italic">a</p></body>
      </tt>
      """.utf8))
  #expect(texts(document) == ["<i>a</i>"])
  #expect(document.cues[0].settings.line == 30 && document.cues[0].settings.lineAlign == .end)
}

@Test func draftIdentifiersRegionsInHeadAndRegionWritingModes() throws {
  // DFXP drafts name styles with a plain `id`; some writers put regions straight in `head`;
  // the writing mode is a region's.
  let document = try parse(
    Array(
      """
      <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/2006/10/ttaf1#style">
        <head>
          <styling><style id="s0" tts:fontStyle="italic"/></styling>
          <region xml:id="v" tts:origin="10% 10%" tts:extent="80% 80%" tts:writingMode="tbrl"/>
        </head>
        <body><p begin="1s" end="2s" region="v" style="s0">a</p></body>
      </tt>
      """.utf8))
  #expect(texts(document) == ["<i>a</i>"])
  #expect(document.cues[0].settings.vertical == .rightToLeft)
}

@Test func spansInRegionsSplitAParagraphWithoutOne() throws {
  // TTML 2, 11.3.1.3: the paragraph shows in each region its spans name, with only what is
  // flowed into it; its own text is in no region.
  let head = """
    <layout>
      <region xml:id="low" tts:origin="0% 80%" tts:extent="100% 20%"/>
      <region xml:id="high" tts:origin="0% 0%" tts:extent="100% 20%"/>
    </layout>
    """
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s">not shown <span region="low">low</span>
        <span region="high">high</span></p>
      <p begin="1s" end="2s">no region named: shown</p>
      """, head: head))
  #expect(texts(document) == ["low", "high", "no region named: shown"])
  #expect(document.cues[0].settings.line == 80 && document.cues[1].settings.line == 0)
}

@Test func verticalWritingModes() throws {
  let head = #"<styling><style xml:id="v" tts:writingMode="tbrl"/></styling>"#
  let document = try parse(ttml(#"<p begin="0s" end="1s" style="v">縦</p>"#, head: head))
  #expect(document.cues.first?.settings.vertical == .rightToLeft)
}

@Test func badInputGivesATypedErrorOrNotes() throws {
  #expect(throws: SubtitleError.self) { try parse(Array("not xml at all".utf8)) }
  #expect(throws: SubtitleError.self) { try parse(Array("<html><body/></html>".utf8)) }
  let deep = String(repeating: "<span>", count: 300)
  #expect(throws: SubtitleError.self) { try parse(ttml("<p>" + deep + "x</p>")) }
  // A bad time expression is noted and ignored; the element is kept.
  let document = try parse(ttml(#"<p begin="soon" end="2s">a</p>"#))
  #expect(times(document) == [[0, 2]])
  #expect(document.diagnostics.contains { $0.reason.contains("soon") })
  // Not valid UTF-8: replaced, not refused.
  var bytes = ttml(#"<p begin="0s" end="1s">caf_</p>"#)
  if let at = bytes.firstIndex(of: UInt8(ascii: "_")) { bytes[at] = 0xE9 }
  #expect(try parse(bytes).cues.count == 1)
}

@Test func filesAreRecognisedByNameAndContent() throws {
  #expect(SubtitleFile.format(forPath: "a.ttml") == .ttml)
  #expect(SubtitleFile.format(forPath: "a.DFXP") == .ttml)
  #expect(SubtitleFile.format(forPath: "a.xml") == .ttml)
  let document = try SubtitleFile.parse(ttml(#"<p begin="0s" end="1s">a</p>"#))
  #expect(document.format == .ttml)
  #expect(!SubtitleFormat.ttml.isWritable)
  // Converted through the neutral model.
  let vtt = String(decoding: document.webVTT(), as: UTF8.self)
  #expect(vtt.contains("00:00:00.000 --> 00:00:01.000\na"))
}

@Test func lineEndsAreNormalisedBeforeParsing() throws {
  // XML 1.0, 2.11: CR LF and a lone CR read as LF, so CRLF and CR copies give the LF file's
  // cues, preserved line breaks included; a CR written as `&#13;` stays.
  let body = """
    <p begin="0s" end="1s" xml:space="preserve">
    Line1
    Line2
    </p>
    <p begin="1s" end="2s" xml:space="preserve">a&#13;b</p>
    <unknown/>
    """
  let lf = try parse(ttml(body))
  #expect(texts(lf) == ["Line1\nLine2", "a\rb"])
  let source = String(decoding: ttml(body), as: UTF8.self)
  for ending in ["\r\n", "\r"] {
    let document = try parse(
      Array(
        source.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: ending)
          .utf8))
    #expect(texts(document) == texts(lf))
    #expect(times(document) == times(lf))
    #expect(document.diagnostics.map(\.line) == lf.diagnostics.map(\.line))
    let vtt = try SubtitleFile.parse(document.webVTT(), format: .webVTT)
    #expect(vtt.cues.first.map { vtt.text(of: $0) } == "Line1\nLine2")
  }
}

@Test func verticalRegionsPlaceTheColumnAcrossTheLines() throws {
  // For vertical cues WebVTT's `line` is the x position, `position` the y position and `size`
  // the height. `tbrl` lines stack from the right: `before` is the region's right edge (the
  // box's right edge there, line alignment end); `tblr` lines stack from the left.
  let head = """
    <layout>
      <region xml:id="right" tts:origin="80% 10%" tts:extent="15% 80%" tts:writingMode="tbrl"/>
      <region xml:id="rightAfter" tts:origin="80% 10%" tts:extent="15% 80%"
          tts:writingMode="tbrl" tts:displayAlign="after"/>
      <region xml:id="left" tts:origin="5% 10%" tts:extent="15% 80%" tts:writingMode="tblr"/>
      <region xml:id="leftAfter" tts:origin="5% 10%" tts:extent="15% 80%"
          tts:writingMode="tblr" tts:displayAlign="after" tts:textAlign="start"/>
      <region xml:id="middle" tts:origin="5% 10%" tts:extent="15% 80%"
          tts:writingMode="tblr" tts:displayAlign="center" tts:textAlign="end"/>
    </layout>
    """
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s" region="right">a</p>
      <p begin="1s" end="2s" region="rightAfter">b</p>
      <p begin="2s" end="3s" region="left">c</p>
      <p begin="3s" end="4s" region="leftAfter">d</p>
      <p begin="4s" end="5s" region="middle">e</p>
      """, head: head))
  let settings = document.cues.map(\.settings)
  #expect(
    settings.map(\.vertical) == [
      .rightToLeft, .rightToLeft, .leftToRight, .leftToRight, .leftToRight,
    ])
  #expect(settings.map(\.line) == [95, 80, 5, 20, 12.5])
  #expect(settings.map(\.lineAlign) == [.end, .start, .start, .end, .center])
  #expect(settings.map(\.size) == [80, 80, 80, 80, 80])
  #expect(settings.map(\.position) == [50, 50, 50, 10, 90])
  #expect(settings.map(\.positionAlign) == [.center, .center, .center, .lineLeft, .lineRight])
  #expect(settings.allSatisfy { !$0.snapToLines })
  // Written as WebVTT settings.
  let vtt = String(decoding: document.webVTT(), as: UTF8.self)
  #expect(vtt.contains("vertical:rl line:95%,end position:50%,center size:80%"))
}

@Test func aSpanThatTurnsAStyleOffClosesTheEnclosingTag() throws {
  // WebVTT has no upright, regular weight or plain tag: the enclosing `i`, `b` or `u` closes
  // around the span and reopens after it.
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s" tts:fontStyle="italic">I said <span tts:fontStyle="normal">no</span> twice.</p>
      <p begin="1s" end="2s" tts:fontWeight="bold">Loud <span tts:fontWeight="normal">quiet</span> loud.</p>
      <p begin="2s" end="3s" tts:textDecoration="underline">a <span tts:textDecoration="noUnderline">b</span> c <span tts:textDecoration="none">d</span></p>
      <p begin="3s" end="4s" tts:fontStyle="italic" tts:color="yellow">a <span tts:fontStyle="normal">b <span tts:fontStyle="italic">c</span></span></p>
      """))
  #expect(
    texts(document) == [
      "<i>I said</i> no <i>twice.</i>", "<b>Loud</b> quiet <b>loud.</b>", "<u>a</u> b <u>c</u> d",
      "<i><c.yellow>a</c></i> <c.yellow>b <i>c</i></c>",
    ])
}

@Test func formattingStaysNestedInsideLanguageSpansAndRuby() throws {
  // Formatting that changes inside a `lang` span or a ruby closes at its boundary; formatting
  // that every run inside keeps stays open across it.
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s" tts:fontStyle="italic">a <span xml:lang="fr">b <span tts:fontStyle="normal">c</span> d</span> e</p>
      <p begin="1s" end="2s" tts:fontStyle="italic">a <span xml:lang="fr">b</span> e</p>
      <p begin="2s" end="3s" tts:fontStyle="italic"><span tts:ruby="container"><span tts:ruby="base">東南</span><span tts:ruby="text" tts:fontStyle="normal">とうなん</span></span>の方角</p>
      """))
  #expect(
    texts(document) == [
      "<i>a</i> <lang fr><i>b</i> c <i>d</i></lang> <i>e</i>", "<i>a <lang fr>b</lang> e</i>",
      "<ruby><i>東南</i><rt>とうなん</rt></ruby><i>の方角</i>",
    ])
}

@Test func textDecorationPartsAreInheritedSeparately() throws {
  // TTML 2, 10.2.44: `noLineThrough` on the paragraph keeps the region's underline, and a
  // span's `overline` keeps it too; `none` turns every part off.
  let head = """
    <styling>
      <style xml:id="all" tts:textDecoration="underline overline lineThrough"/>
      <style xml:id="noStrike" tts:textDecoration="noLineThrough"/>
    </styling>
    <layout><region xml:id="r" style="all"/></layout>
    """
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s" region="r" style="noStrike">Test</p>
      <p begin="1s" end="2s" region="r" style="noStrike">a <span tts:textDecoration="overline">b</span> <span tts:textDecoration="none">c</span></p>
      <p begin="2s" end="3s" tts:textDecoration="underline"><span tts:textDecoration="lineThrough">d</span></p>
      """, head: head))
  #expect(texts(document) == ["<u>Test</u>", "<u>a b</u> c", "<u>d</u>"])
}

@Test func aRegionsOrASetsStyleReachesTheSpansBelowTheParagraph() throws {
  let head = """
    <layout><region xml:id="r" tts:fontStyle="italic"/></layout>
    """
  let document = try parse(
    ttml(
      """
      <p begin="0s" end="1s" region="r">a <span tts:color="lime">b</span></p>
      <p begin="1s" end="2s" region="r">a <span tts:fontStyle="normal">b</span></p>
      <p begin="2s" end="4s"><set begin="1s" tts:fontWeight="bold"/>a <span tts:color="lime">b</span></p>
      """, head: head))
  #expect(
    texts(document) == [
      "<i>a <c.lime>b</c></i>", "<i>a</i> b", "a <c.lime>b</c>", "<b>a <c.lime>b</c></b>",
    ])
}

@Test func stylingAndLayoutStraightInTheRootAreReadWithANote() throws {
  // They belong in `head`; some writers put them in `tt`. A region reference that names no
  // region is noted once per name.
  let document = try parse(
    Array(
      """
      <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">
        <styling><style xml:id="s" tts:fontStyle="italic" tts:color="yellow"/></styling>
        <layout><region xml:id="top" tts:origin="10% 10%" tts:extent="80% 20%"/></layout>
        <body>
          <p begin="0s" end="1s" region="top" style="s">Top</p>
          <p begin="1s" end="2s" region="nowhere">a</p>
          <p begin="2s" end="3s" region="nowhere">b</p>
        </body>
      </tt>
      """.utf8))
  #expect(texts(document) == ["<i><c.yellow>Top</c></i>", "a", "b"])
  #expect(document.cues[0].settings.line == 10)
  let reasons = document.diagnostics.map(\.reason)
  #expect(reasons.filter { $0.contains("rather than in 'head'") }.count == 1)
  #expect(reasons.filter { $0.contains("'nowhere' is not defined") }.count == 1)
  #expect(document.diagnostics.count == 2)
}

@Test func applesLyricsFilesCountTimesFromTheStartAndShowWholeLines() throws {
  // Apple's lyrics TTML (itunes:timing) gives every div, p and span its absolute time, without
  // a unit, and times each word for a karaoke highlight: each line shows whole for its p.
  let document = try parse(
    Array(
      """
      <tt xmlns="http://www.w3.org/ns/ttml" xmlns:itunes="http://music.apple.com/lyric-ttml-internal"
          itunes:timing="Word" xml:lang="en">
        <body dur="3:58.640">
          <div begin="19.764" end="59.300">
            <p begin="19.764" end="21.900"><span begin="19.764" end="20.105">When</span> \
      <span begin="20.105" end="21.900">you were</span></p>
            <p begin="24.594" end="26.898"><span begin="24.594" end="26.898">here</span></p>
          </div>
          <div begin="1:00.998" end="1:19.943">
            <p begin="1:00.998" end="1:02.794">But I'm a creep</p>
          </div>
        </body>
      </tt>
      """.utf8))
  #expect(texts(document) == ["When you were", "here", "But I'm a creep"])
  #expect(document.cues.map(\.startTime) == [19.764, 24.594, 60.998])
  #expect(document.cues.map(\.endTime) == [21.9, 26.898, 62.794])
  #expect(document.diagnostics.contains { $0.reason.contains("Apple's lyrics format") })
  // Without Apple's attribute the same times are TTML's, counted from the parent's begin.
  let plain = try parse(
    Array(
      """
      <tt xmlns="http://www.w3.org/ns/ttml"><body>
        <div begin="10s"><p begin="1s" end="2s">a</p></div>
      </body></tt>
      """.utf8))
  #expect(plain.cues.map(\.startTime) == [11])
}

@Test func aTimeThatCannotBeReadIsIgnoredAndItsElementKept() throws {
  // Read as if the attribute were not there (as ttconv does; imsc.js also falls back to the
  // default), each bad attribute noted with its name and value on its element's line. Valid
  // forms read as before; MM:SS is no clock time, but plainly minutes and seconds, read so
  // with a note (see plainSecondsAndMinutesAreReadWithANote).
  let head = #"<layout><region xml:id="r" begin="later"/></layout>"#
  let document = try parse(
    ttml(
      """
      <p begin="test" end="test">garbage</p>
      <p begin="01:02.05" end="01:02:03.200">minutes and seconds</p>
      <p begin="1s" dur="59.45m30ms">compound offset</p>
      <p begin="10s" end="12s">kept <span begin="1s" end="never">spanned</span> too</p>
      <div timeContainer="seq" begin="30s"><p dur="1s">first</p><p dur="1x">second</p></div>
      <p begin="20s" end="21s" region="r">in a bad region</p>
      """, head: head))
  var shown: [String: [[Double]]] = [:]
  for cue in document.cues {
    shown[document.text(of: cue), default: []].append([cue.startTime, cue.endTime])
  }
  let unbounded = 9_007_199_254_740.992
  #expect(
    shown == [
      "garbage": [[0, unbounded]], "minutes and seconds": [[62.05, 3723.2]],
      "compound offset": [[1, unbounded]], "kept too": [[10, 11]],
      "kept spanned too": [[11, 12]], "in a bad region": [[20, 21]], "first": [[30, 31]],
      "second": [[31, unbounded]],
    ])
  // The region is on line 4 (in `head`), the paragraphs on lines 5 to 9.
  let expected: [(Int, String, String)] = [
    (4, "begin", "later"), (5, "begin", "test"), (5, "end", "test"),
    (7, "dur", "59.45m30ms"), (8, "end", "never"), (9, "dur", "1x"),
  ]
  let bad = document.diagnostics.filter {
    $0.reason.hasPrefix("TTML ") && !$0.reason.contains("(it has no unit)")
  }
  #expect(bad.map(\.line) == expected.map(\.0))
  #expect(
    bad.map(\.reason)
      == expected.map {
        "TTML \($0.1) '\($0.2)' is not a time expression; the attribute is ignored"
      }
  )
}
