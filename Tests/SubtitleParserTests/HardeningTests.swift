import Foundation
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

  // MARK: - Bounded diagnostics

  /// UTF-16 text as bytes (little endian, with a byte order mark).
  static func utf16LE(_ units: [UInt16]) -> [UInt8] {
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in units { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    return bytes
  }

  static let srtHead = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf16)

  /// Repeats of a repair on one line are one diagnostic with a count.
  @Test func repairsOnOneLineFoldIntoOneDiagnostic() throws {
    let units = Self.srtHead + [UInt16](repeating: 0xD800, count: 50_000) + [0x0A]
    let document = try SubtitleFile.parse(Self.utf16LE(units))
    #expect(document.diagnostics.count == 1)
    #expect(document.diagnostics.first?.count == 50_000)
    #expect(document.diagnostics.first?.line == 3)
    #expect(document.diagnostics.first?.offset == 2 + 2 * Self.srtHead.count)
    #expect(document.diagnosticCount == 50_000)
    #expect(document.diagnostics.first?.description.hasSuffix("(50000 times)") == true)
  }

  /// Past `listLimit` entries, the rest is one final entry that counts them.
  @Test func longListsEndInOneEntryForTheRest() throws {
    let lines = 3000
    var units = Self.srtHead
    for _ in 0..<lines { units += [0x61, 0xDC00, 0x0A] }
    let document = try SubtitleFile.parse(Self.utf16LE(units))
    #expect(document.diagnostics.count == Diagnostic.listLimit + 1)
    let last = try #require(document.diagnostics.last)
    #expect(last.reason == Diagnostic.omittedReason)
    #expect(last.count == lines - Diagnostic.listLimit)
    #expect(last.line == 3 + Diagnostic.listLimit)
    #expect(document.diagnosticCount == lines)
    #expect(document.diagnostics.dropLast().map(\.line) == Array(3..<(3 + Diagnostic.listLimit)))
  }

  /// The same bounds for every kind of repair: invalid UTF-8 in WebVTT, NUL bytes, parser
  /// skips in SRT and WebVTT, conversion notes.
  @Test func everyKindOfDiagnosticIsBounded() throws {
    let lines = 2500
    var vtt = Array("WEBVTT\n\n00:00.000 --> 00:01.000\n".utf8)
    for _ in 0..<lines { vtt += [0x61, 0xFF, 0xFE, 0x00, 0x00, 0x0A] }
    let utf8 = try SubtitleFile.parse(vtt)
    // Per line: one entry for two invalid bytes, one for two NULs.
    #expect(utf8.diagnostics.count == Diagnostic.listLimit + 1)
    #expect(utf8.diagnostics.prefix(2).map(\.count) == [2, 2])
    #expect(utf8.diagnostics.prefix(2).map(\.line) == [4, 4])
    #expect(utf8.diagnosticCount == 4 * lines)
    // The parser itself stays silent about decoding, as the incremental parser does.
    #expect(try WebVTT.parse(vtt).diagnostics.isEmpty)

    var srt = ""
    for i in 0..<lines { srt += "7\n00:00:0\(i % 10),000 --> 00:00:0\(i % 10),500\nx\n\n" }
    let numbers = try SubtitleFile.parse(Array(srt.utf8))
    #expect(numbers.diagnostics.count == Diagnostic.listLimit + 1)
    #expect(numbers.diagnosticCount == lines)

    var settings = "WEBVTT\n\n"
    for _ in 0..<lines { settings += "00:00.000 --> 00:01.000 bogus:1\nx\n\n" }
    let ignored = try WebVTT.parse(Array(settings.utf8))
    #expect(ignored.diagnostics.count == Diagnostic.listLimit + 1)
    #expect(ignored.diagnosticCount == lines)

    var fonts = "1\n00:00:01,000 --> 00:00:02,000\n"
    fonts += String(repeating: "<font face=x>a</font>", count: lines)
    let converted = try SubRip.parse(Array(fonts.utf8)).converted(to: .webVTT)
    #expect(converted.diagnostics.count == Diagnostic.listLimit + 1)
    #expect(converted.diagnosticCount == lines)
    let shifted = ignored.shifted(by: -5)
    #expect(shifted.diagnostics.count == Diagnostic.listLimit + 1)
    #expect(shifted.diagnosticCount == 2 * lines)
  }

  /// SRT override notes merge into the parser's list in file order, bounded.
  @Test func mergedListsKeepFileOrderAndTheirBound() {
    var a = DiagnosticLog()
    var b = DiagnosticLog()
    for line in stride(from: 1, through: 3000, by: 2) { a.add(line: line, offset: line, "a") }
    for line in stride(from: 2, through: 3000, by: 2) { b.add(line: line, offset: line, "b") }
    let merged = DiagnosticLog.merged(a, b).list
    #expect(merged.count == Diagnostic.listLimit + 1)
    #expect(merged.dropLast().map(\.line) == Array(1...Diagnostic.listLimit))
    #expect(merged.last?.line == Diagnostic.listLimit + 1)
    #expect(merged.reduce(0) { $0 + $1.count } == 3000)
    // A short list after one that stopped listing: its entries past that point are omitted.
    var c = DiagnosticLog()
    c.add(line: 5000, offset: 0, "late")
    c.add(line: 1, offset: 0, "early")
    let withLate = DiagnosticLog.merged(a, c).list
    #expect(withLate.first?.reason == "early")
    #expect(withLate.last?.reason == Diagnostic.omittedReason)
    #expect(withLate.last?.line == 1 + 2 * (Diagnostic.listLimit - 1))
    #expect(withLate.reduce(0) { $0 + $1.count } == 1502)
  }

  /// Decoding a diagnostic without a count (as earlier versions wrote them) gives 1.
  @Test func diagnosticsDecodeWithoutACount() throws {
    let old = try JSONDecoder().decode(
      Diagnostic.self, from: Data(#"{"line":3,"offset":9,"reason":"r"}"#.utf8))
    #expect(old == Diagnostic(line: 3, offset: 9, reason: "r"))
    let new = try JSONDecoder().decode(
      Diagnostic.self,
      from: Data(JSONEncoder().encode(Diagnostic(line: 3, offset: 9, reason: "r", count: 4))))
    #expect(new.count == 4)
  }

  // MARK: - Deep nesting

  /// The depth of a tree, walked without recursion.
  static func depth(_ nodes: [CueNode]) -> Int {
    var deepest = 0
    var stack: [(ArraySlice<CueNode>, Int)] = [(nodes[...], 1)]
    while let (level, depth) = stack.popLast() {
      for node in level {
        guard case .element(let element) = node else { continue }
        deepest = max(deepest, depth)
        stack.append((element.children[...], depth + 1))
      }
    }
    return deepest
  }

  /// A million nested tags (WebVTT; 200,000 for SRT) build a tree of at most `maximumCueTextDepth` levels, which can be
  /// compared, hashed, rendered and freed without running out of stack.
  @Test func aMillionNestedTagsAreCapped() {
    let n = 1_000_000
    let vtt = String(repeating: "<c>", count: n) + "deep" + String(repeating: "</c>", count: n)
    // (SRT tags cost more to read in a debug build: fewer of them, still far past the cap.)
    let m = 200_000
    let srt = String(repeating: "<i>", count: m) + "deep" + String(repeating: "</i>", count: m)
    for tree in [WebVTT.parseCueText(vtt), SubRip.parseCueText(Array(srt.utf8)[...])] {
      #expect(Self.depth(tree) == WebVTT.maximumCueTextDepth)
      #expect(CueNode.plainText(tree) == "deep")
      #expect(tree == tree)
      var hasher = Hasher()
      hasher.combine(tree)
      _ = hasher.finalize()
      let markup = CueHTMLNode.markup(CueNode.html(tree))
      #expect(markup.contains("deep"))
    }
  }

  // MARK: - NUL

  /// NUL becomes U+FFFD in SRT as in WebVTT, with one diagnostic per line, whatever the
  /// encoding.
  @Test func nulIsReplacedInSRTWithDiagnostics() throws {
    let head = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
    let plain = try SubtitleFile.parse(head + [0x61, 0x00, 0x00, 0x0A, 0x00, 0x0A])
    #expect(plain.text(of: plain.cues[0]) == "a\u{FFFD}\u{FFFD}\n\u{FFFD}")
    #expect(plain.diagnostics.map(\.line) == [3, 4])
    #expect(plain.diagnostics.map(\.count) == [2, 1])
    #expect(plain.diagnostics.map(\.offset) == [head.count + 1, head.count + 4])
    // Read as windows-1252 (0xE9): the fallback note, then the NUL.
    let fallback = try SubtitleFile.parse(head + [0xE9, 0x00, 0x0A])
    #expect(fallback.text(of: fallback.cues[0]) == "\u{E9}\u{FFFD}")
    #expect(fallback.diagnostics.map(\.line) == [3, 3])
    #expect(fallback.diagnostics.last?.offset == head.count + 1)
    // UTF-16: offsets in the file's bytes.
    let utf16 = Self.utf16LE(Self.srtHead + [0x62, 0x00, 0x0A])
    let decoded = try SubtitleFile.parse(utf16)
    #expect(decoded.text(of: decoded.cues[0]) == "b\u{FFFD}")
    #expect(decoded.diagnostics.map(\.offset) == [2 + 2 * Self.srtHead.count + 2])
    // The SRT parser alone keeps the bytes it is given.
    #expect(try SubRip.parse(head + [0x00]).text.last == 0x00)
  }
}

/// NUL bytes that pad the end of a file (left by some writers, by copies from fixed-size
/// buffers or disk images): FFmpeg's demuxer stops at them; they are not text of the last cue.
@Suite struct TrailingNULPaddingTests {
  static let cue = "1\n00:00:01,000 --> 00:00:02,000\nLast line\n"
  static let note = "NUL bytes that end the file ignored (padding)"

  @Test func paddingAfterTheLastSRTCueIsDropped() throws {
    let bytes = Array(Self.cue.utf8) + [UInt8](repeating: 0, count: 64)
    let document = try SubtitleFile.parse(bytes)
    #expect(document.cues.map { document.text(of: $0) } == ["Last line"])
    #expect(document.diagnostics.map(\.reason) == [Self.note])
    #expect(document.diagnostics.first?.offset == Self.cue.utf8.count)
  }

  @Test func paddingAfterCRLFAndWindows1252() throws {
    let bytes =
      Array("1\r\n00:00:01,000 --> 00:00:02,000\r\nCaf".utf8) + [0xE9]
      + [0x0D, 0x0A, 0x00, 0x00, 0x00, 0x00]
    let document = try SubtitleFile.parse(bytes)
    #expect(document.cues.map { document.text(of: $0) } == ["Caf\u{E9}"])
    #expect(document.diagnostics.map(\.reason).contains(Self.note))
    #expect(!document.diagnostics.map(\.reason).contains("NUL byte replaced with U+FFFD"))
  }

  @Test func paddingInUTF16() throws {
    let text = Array(Self.cue.utf16)
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in text + [0, 0, 0] { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let document = try SubtitleFile.parse(bytes)
    #expect(document.cues.map { document.text(of: $0) } == ["Last line"])
    #expect(document.diagnostics.map(\.reason) == [Self.note])
    #expect(document.diagnostics.first?.offset == 2 + 2 * text.count)
  }

  @Test func paddingAfterAnASSScript() throws {
    let script =
      "[Script Info]\nScriptType: v4.00+\n\n[Events]\n"
      + "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
      + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Last line\n"
    let document = try SubtitleFile.parse(
      Array(script.utf8) + [UInt8](repeating: 0, count: 16), format: .ass)
    #expect(document.cues.map { document.text(of: $0) } == ["Last line"])
    #expect(document.diagnostics.map(\.reason).contains(Self.note))
  }

  /// A NUL inside the text, or followed by a line end, is still replaced and reported (see
  /// `nulIsReplacedInSRTWithDiagnostics`); WebVTT keeps its specification's
  /// reading (every NUL becomes U+FFFD).
  @Test func nulBeforeTheEndIsStillText() throws {
    let srt = try SubtitleFile.parse(Array((Self.cue + "a\u{0}b\n").utf8))
    #expect(srt.text(of: srt.cues[0]) == "Last line\na\u{FFFD}b")
    let vtt = try SubtitleFile.parse(
      Array("WEBVTT\n\n00:01.000 --> 00:02.000\nx\n".utf8) + [0, 0])
    #expect(vtt.text(of: vtt.cues[0]) == "x\n\u{FFFD}\u{FFFD}")
  }
}
