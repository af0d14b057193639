import Testing

@testable import SubtitleParser

// TTML input rules: the encoding the XML declaration names (XML 1.0, 4.3.3) and time
// expressions that cannot be read (ignored, the element kept, as ttconv and imsc.js do).

/// A one-paragraph TTML document declaring `encoding` (no declaration for `nil`), whose
/// paragraph holds `text` (bytes as they are in the file) and is timed by `times`.
private func document(
  encoding: String?, text: [UInt8], times: String = #"begin="1s" end="2s""#
) -> [UInt8] {
  let declaration = encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>\n" } ?? ""
  return Array(
    (declaration + "<tt xmlns=\"http://www.w3.org/ns/ttml\">\n<body>\n<p \(times)>").utf8)
    + text + Array("</p>\n</body>\n</tt>\n".utf8)
}

/// The cue texts of `document`.
private func texts(_ document: SubtitleDocument) -> [String] {
  document.cues.map { document.text(of: $0) }
}

@Test(arguments: ["ISO-8859-1", "iso-8859-1", "latin1", "l1", "US-ASCII"])
func aLatin1DeclarationIsHonoured(label: String) throws {
  // `Déjala` in Latin-1: 0xE9 is é (it was read as invalid UTF-8, U+FFFD).
  let bytes = document(encoding: label, text: [0x44, 0xE9, 0x6A, 0x61, 0x6C, 0x61])
  for parsed in [try SubtitleFile.parse(bytes), try TTML.parse(bytes)] {
    #expect(texts(parsed) == ["Déjala"])
    #expect(parsed.diagnostics.isEmpty)
  }
}

@Test(arguments: ["windows-1252", "cp1252", "Windows-1252"])
func aWindows1252DeclarationIsHonoured(label: String) throws {
  // 0x80 €, 0x92 ’, 0x85 …, 0xE8 è.
  let bytes = document(encoding: label, text: [0x80, 0x92, 0x85, 0xE8])
  let parsed = try SubtitleFile.parse(bytes, format: .ttml)
  #expect(texts(parsed) == ["€’…è"])
  #expect(parsed.diagnostics.isEmpty)
}

@Test func anEncodingThatCannotBeDecodedIsATypedError() throws {
  let bytes = document(encoding: "Shift_JIS", text: [0x83, 0x41])
  // The value starts at byte 30 of the declaration.
  let error = SubtitleError.unsupportedEncoding(name: "Shift_JIS", offset: 30)
  #expect(throws: error) { try SubtitleFile.parse(bytes) }
  #expect(throws: error) { try TTML.parse(bytes) }
  #expect(error.description.contains("'Shift_JIS'"))
  // An encoding given by the caller wins over the declaration.
  let forced = try SubtitleFile.parse(bytes, format: .ttml, encoding: .isoLatin1)
  #expect(texts(forced) == ["\u{83}A"])
  // So does a UTF-8 byte order mark, with a note.
  let marked = try TTML.parse([0xEF, 0xBB, 0xBF] + document(encoding: "Shift_JIS", text: [0x41]))
  #expect(texts(marked) == ["A"])
  #expect(marked.diagnostics.map(\.reason).contains { $0.contains("byte order mark") })
}

@Test func anEncodingGivenByTheCallerWinsOverTheDeclaration() throws {
  let latin1 = document(encoding: "ISO-8859-1", text: [0x63, 0x61, 0x66, 0xE9])
  let asUTF8 = try SubtitleFile.parse(latin1, format: .ttml, encoding: .utf8)
  #expect(texts(asUTF8) == ["caf\u{FFFD}"])
  #expect(asUTF8.diagnostics.count == 1)
  let utf8 = document(encoding: "UTF-8", text: Array("café".utf8))
  let asWindows1252 = try SubtitleFile.parse(utf8, format: .ttml, encoding: .windows1252)
  #expect(texts(asWindows1252) == ["cafÃ©"])
}

@Test(arguments: ["UTF-8", "utf8", nil] as [String?])
func invalidUTF8IsReported(label: String?) throws {
  // Declared (or by default) UTF-8 but not: each line's replacements are one diagnostic.
  let bytes = document(encoding: label, text: [0x63, 0x61, 0x66, 0xE9, 0x20, 0xE9])
  let parsed = try SubtitleFile.parse(bytes)
  #expect(texts(parsed) == ["caf\u{FFFD} \u{FFFD}"])
  let line = label == nil ? 3 : 4
  #expect(parsed.diagnostics.count == 1)
  #expect(parsed.diagnostics.first?.line == line)
  #expect(parsed.diagnostics.first?.count == 2)
  #expect(parsed.diagnostics.first?.reason == "invalid UTF-8 byte 0xE9 replaced with U+FFFD")
  #expect(parsed.diagnostics.first?.offset == bytes.firstIndex(of: 0xE9))
}

@Test func utf16IsReadByItsByteOrderMark() throws {
  let text =
    "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n"
    + "<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><p begin=\"1s\" end=\"2s\">Ça</p></body></tt>"
  for bigEndian in [false, true] {
    let parsed = try TTML.parse(utf16(text, bigEndian: bigEndian, bom: true))
    #expect(texts(parsed) == ["Ça"])
    #expect(parsed.diagnostics.isEmpty)
  }
  // UTF-16 declared on 8-bit text (a file saved as UTF-8 under an old declaration).
  let mislabelled = try TTML.parse(document(encoding: "UTF-16", text: Array("Ça".utf8)))
  #expect(texts(mislabelled) == ["Ça"])
  #expect(mislabelled.diagnostics.map(\.reason).contains { $0.contains("read as UTF-8") })
}

@Test func theDeclarationIsReadOnlyAtTheStart() {
  #expect(
    TTML.declaredEncoding(Array("<?xml version='1.0' encoding='latin1'?>".utf8), from: 0)?.name
      == "latin1")
  #expect(
    TTML.declaredEncoding(Array("<?xml version=\"1.0\"?><x encoding=\"a\"/>".utf8), from: 0) == nil)
  #expect(TTML.declaredEncoding(Array(" <?xml encoding=\"latin1\"?>".utf8), from: 0) == nil)
  #expect(
    TTML.declaredEncoding(Array("<?xml-stylesheet encoding=\"latin1\"?>".utf8), from: 0) == nil)
}

/// Time attributes that are not time expressions, on `body`, `div`, `p` or `span`.
private let badTimes: [(element: String, attribute: String, value: String)] = [
  ("body", "dur", "3 minutes"),
  ("p", "begin", "1.5.2"),  // two points
  ("p", "begin", "00:00:01."),  // a trailing dot
  ("p", "end", "00:00:02,000"),  // SRT's comma
  ("div", "begin", "1:00:00:00:00"),
  ("span", "end", "soon"),
]

@Test(arguments: [
  ("3:58.640", 238.64), ("1.5", 1.5), ("0:05", 5.0), ("12", 12.0), ("10:02", 602.0),
])
func plainSecondsAndMinutesAreReadWithANote(value: String, seconds: Double) throws {
  // Apple's lyrics files write times without a unit, as seconds or minutes and seconds, and
  // pysubs2 reads them so; they are not time expressions, so each is noted.
  let bytes = Array(
    """
    <tt xmlns="http://www.w3.org/ns/ttml"><body><div>
    <p begin="\(value)" end="2000s">Hello</p>
    </div></body></tt>
    """.utf8)
  let parsed = try SubtitleFile.parse(bytes)
  #expect(parsed.cues.map(\.startTime) == [seconds])
  #expect(
    parsed.diagnostics.map(\.reason) == [
      "TTML begin '\(value)' is not a time expression (it has no unit); read as \(seconds) s, "
        + "as Apple's files mean it"
    ])
}

@Test(arguments: ["1:5", "61:5.5", ".5", "5.", "1:60", "-3", "1e3"])
func onlyPlainFormsAreReadSo(value: String) throws {
  #expect(
    TTMLTiming(root: try TTMLXML.parse(Array("<tt/>".utf8)).root).lenientSeconds(value) == nil)
}

@Test(arguments: badTimes.indices)
func anInvalidTimeIsIgnoredAndTheContentKept(index: Int) throws {
  let (element, attribute, value) = badTimes[index]
  func attributes(_ name: String) -> String {
    name == element ? " \(attribute)=\"\(value)\"" : ""
  }
  // The paragraph's own times, one of them the bad one when it is the paragraph's.
  var times = ["begin": "00:00:03.000", "end": "00:00:04.000"]
  if element == "p" { times[attribute] = value }
  let bytes = Array(
    """
    <tt xmlns="http://www.w3.org/ns/ttml">
    <body\(attributes("body"))><div\(attributes("div"))>
    <p begin="\(times["begin"]!)" end="\(times["end"]!)">\
    Hello <span\(attributes("span"))>there</span></p>
    </div></body>
    </tt>
    """.utf8)
  let parsed = try SubtitleFile.parse(bytes)
  #expect(texts(parsed) == ["Hello there"])
  // The attribute is as if absent: the paragraph keeps its other time (or the default).
  let expected: [Double] =
    switch (element, attribute) {
    case ("p", "begin"): [0, 4]
    case ("p", "end"): [3, 9_007_199_254_740.992]
    default: [3, 4]
    }
  #expect(parsed.cues.map { [$0.startTime, $0.endTime] } == [expected])
  let notes = parsed.diagnostics.filter { $0.reason.hasPrefix("TTML ") }
  #expect(
    notes.map(\.reason) == [
      "TTML \(attribute) '\(value)' is not a time expression; the attribute is ignored"
    ])
  #expect(notes.first?.line == (["body", "div"].contains(element) ? 2 : 3))
}

/// TTML's conventional prefixes used without a declaration (`tts:color` with no `xmlns:tts`),
/// as some writers leave them and players read them: the styles and parameters still apply,
/// with one note per prefix. A prefix bound to another namespace is not TTML's.
@Test func undeclaredConventionalPrefixesAreTTMLs() throws {
  let text = """
    <?xml version="1.0" encoding="utf-8"?>
    <tt xmlns="http://www.w3.org/ns/ttml" ttp:frameRate="25">
      <head>
        <styling>
          <style xml:id="warn" tts:color="yellow" tts:fontStyle="italic"/>
        </styling>
      </head>
      <body>
        <div>
          <p begin="1s" end="2s" style="warn">Styled by its style</p>
          <p begin="00:00:03:05" end="4s"><span tts:fontWeight="bold">bold</span> after</p>
          <p begin="5s" end="6s" xmlns:tts="http://example.com/other" tts:color="red">other</p>
        </div>
      </body>
    </tt>
    """
  let parsed = try SubtitleFile.parse(Array(text.utf8))
  #expect(
    texts(parsed) == [
      "<i><c.yellow>Styled by its style</c></i>", "<b>bold</b> after", "other",
    ])
  // 5 frames at the undeclared ttp:frameRate of 25.
  #expect(parsed.cues.map(\.startTime) == [1, 3.2, 5])
  #expect(
    parsed.diagnostics.map(\.reason) == [
      "TTML prefix 'ttp:' used without a namespace declaration; read as TTML's "
        + "http://www.w3.org/ns/ttml#parameter",
      "TTML prefix 'tts:' used without a namespace declaration; read as TTML's "
        + "http://www.w3.org/ns/ttml#styling",
    ])
}

// Well-formedness inside the root element (XML 1.0, 2.1): a document cut short, or whose end
// tags do not match, is refused, as Media3's and ttconv's readers refuse it, instead of being
// read as if complete.

/// A mismatched end tag, and documents that end inside an element, are not TTML documents.
@Test(arguments: [
  // `</div>` while `<p>` is open.
  #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">x</div></body></tt>"#,
  // Cut short inside the paragraph, inside `body`, and just before `</tt>`.
  #"<?xml version="1.0"?><tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">cut"#,
  #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">x</p></div>"#,
  #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">x</p></div></body>"#,
  // An end tag for an element that is not open.
  #"<tt xmlns="http://www.w3.org/ns/ttml"><body><p begin="1s" end="2s">x</span></p></body></tt>"#,
])
func aDocumentThatIsNotWellFormedIsRefused(text: String) {
  let bytes = Array(text.utf8)
  for format in [SubtitleFormat?.none, .ttml] {
    #expect {
      _ = try SubtitleFile.parse(bytes, format: format)
    } throws: { error in
      guard case .notSubtitles(let reason) = error as? SubtitleError else { return false }
      return reason.contains("well-formed")
    }
  }
}

/// What follows the root element (NUL padding, as some MP4 samples end; a stray end tag) is
/// not read, and the document before it is.
@Test func whatFollowsTheRootElementIsIgnored() throws {
  let body =
    #"<tt xmlns="http://www.w3.org/ns/ttml"><body><p begin="1s" end="2s">x</p></body></tt>"#
  for tail in [[UInt8](repeating: 0, count: 8), Array("\n</div>\n".utf8)] {
    let parsed = try TTML.parse(Array(body.utf8) + tail)
    #expect(texts(parsed) == ["x"])
  }
}

/// A paragraph that begins after the largest timestamp is dropped, with a diagnostic. Its end,
/// clamped to the largest timestamp, came before its start: a cue ending before it began.
@Test func aParagraphBeginningPastTheLargestTimestampIsDropped() throws {
  let bytes = Array(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <tt xmlns="http://www.w3.org/ns/ttml"><body><div>
    <p begin="1s" end="2s">one</p>
    <p begin="3000000000000h">late</p>
    </div></body></tt>
    """.utf8)
  let parsed = try SubtitleFile.parse(bytes, format: .ttml)
  #expect(parsed.cues.count == 1)
  #expect(parsed.cues.allSatisfy { $0.startTime <= $0.endTime })
  #expect(parsed.cues.map { parsed.text(of: $0) } == ["one"])
  #expect(parsed.diagnostics.contains { $0.reason.contains("after the largest timestamp") })
}
