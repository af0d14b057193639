/// TTML and IMSC 1 (text profile) documents read onto the format-neutral model.
///
/// - **Timing** (TTML 2, 10.4): `begin`, `end` and `dur` on `body`, `div`, `p`, `span` and
///   `set`, clock time (`hh:mm:ss.fff`, `hh:mm:ss:ff.sf`) and offset time (`h m s ms f t`)
///   with `ttp:frameRate`, `ttp:frameRateMultiplier`, `ttp:subFrameRate` and `ttp:tickRate`,
///   `timeContainer` `par` (the default: times from the parent's begin) and `seq` (each child
///   from the end of the one before), nested at any depth; an element with no end lasts as
///   long as its parent (a container without one, as long as its children). Each `p` is one
///   cue per interval in which what it shows stays the same: a `span` or a `set` with times of
///   its own splits it, so the cues change exactly when the presentation does. A time
///   attribute whose value is not a time expression is ignored, as if absent, with a
///   diagnostic (the element and its content are kept, as ttconv keeps them).
/// - **Text**: `span` and `br`, `xml:space` `default` (white space collapsed, trimmed at line
///   ends) and `preserve`, character references.
/// - **Styles**: `style` elements by reference (chained) and inline `tts:` attributes,
///   inherited down the tree; `tts:fontStyle` italic, `tts:fontWeight` bold and
///   `tts:textDecoration` underline become `i`, `b` and `u` nodes, `tts:color` a class span
///   (`c.yellow`, `c.color-ff8000`), and `xml:lang` on a span a `lang` span.
/// - **Layout**: the `region` of a `p` (or of its ancestors), its `tts:origin` and
///   `tts:extent` (percent, pixels of the root's `tts:extent`, or cells of
///   `ttp:cellResolution`), `tts:displayAlign` and the text's `tts:textAlign` give the cue's
///   position, line, size and alignment; `tts:direction` `rtl` and `tts:writingMode` (`tb…`
///   vertical) map to WebVTT's `vertical` setting.
///
/// The document keeps each cue's text as WebVTT cue text (the markup the neutral tree is read
/// from), so a TTML document converts to WebVTT and SRT as any other. Images (`smpte:` and
/// IMSC image profile content), animation other than `set`, and styles with no counterpart
/// (outline, background, font family and size) are dropped, each noted once.
public enum TTML {
  /// The TTML namespaces: TTML 1/2 and the DFXP draft one.
  static let namespaces: Set<String> = [
    "http://www.w3.org/ns/ttml", "http://www.w3.org/2006/10/ttaf1",
    "http://www.w3.org/2006/04/ttaf1",
  ]

  /// Whether `namespace` is TTML's styling namespace (`…#styling`, or the DFXP drafts'
  /// `…ttaf1#style`, which real files still use).
  static func isStyling(_ namespace: String) -> Bool {
    namespace.hasSuffix("#styling") || namespace.hasSuffix("ttaf1#style")
  }
  /// Whether `namespace` is TTML's parameter namespace.
  static func isParameter(_ namespace: String) -> Bool { namespace.hasSuffix("#parameter") }

  /// Whether `bytes` starts like a TTML document: after a byte order mark, white space, the
  /// XML declaration, a DOCTYPE and comments (within the first 64 KiB), a `tt` element (any
  /// prefix).
  public static func looksLikeTTML(_ bytes: [UInt8]) -> Bool {
    let head = String(decoding: bytes.prefix(1 << 16), as: UTF8.self)
    var rest = Substring(head)
    while true {
      rest = rest.drop { $0 == "\u{FEFF}" || $0.isXMLSpace }
      if rest.hasPrefix("<?") || rest.hasPrefix("<!--") || rest.hasPrefix("<!") {
        let end = rest.hasPrefix("<!--") ? "-->" : ">"
        guard let close = rest.firstRange(of: end) else { return false }
        rest = rest[close.upperBound...]
        continue
      }
      guard rest.hasPrefix("<") else { return false }
      let name = rest.dropFirst().prefix {
        !($0.isXMLSpace || $0 == "/" || $0 == ">")
      }
      return name == "tt" || name.hasSuffix(":tt")
    }
  }

  /// Parses a TTML document in the encoding its byte order mark or XML declaration names.
  ///
  /// Encoding (XML 1.0, 4.3.3): a UTF-8 or UTF-16 byte order mark decides; without one, the
  /// declaration's `encoding`: UTF-8, UTF-16 (with a byte order mark), windows-1252,
  /// ISO-8859-1 and US-ASCII (both read as windows-1252, as browsers do) and ISO-8859-15, by
  /// any of their WHATWG labels; no declaration (or none naming an encoding) means UTF-8.
  /// Invalid UTF-8 becomes U+FFFD, with a diagnostic for each line that has any.
  ///
  /// - Parameter bytes: The file's content; the caller keeps it.
  /// - Returns: A document of format ``SubtitleFormat/ttml`` whose cues carry WebVTT cue text
  ///   (see the type's notes). Decoding diagnostics come first; their offsets are byte offsets
  ///   in `bytes`.
  /// - Throws: `SubtitleError.unsupportedEncoding` when the declaration names another
  ///   encoding, `SubtitleError.notSubtitles` when there is no `tt` element, elements nest
  ///   more than 256 deep, an end tag inside `tt` does not close the element open there, or the
  ///   document ends before `tt` closes (cut short).
  /// - Complexity: O(*n*) in the size of the document.
  public static func parse(_ bytes: [UInt8]) throws(SubtitleError) -> SubtitleDocument {
    let decoded = try decode(bytes)
    var document = try parse(utf8: decoded.utf8)
    if !decoded.diagnostics.isEmpty {
      var log = DiagnosticLog(decoded.diagnostics)
      log.append(contentsOf: document.diagnostics)
      document.diagnostics = log.list
    }
    return document
  }

  /// Parses a TTML document already decoded to UTF-8 (a byte order mark allowed; the XML
  /// declaration's `encoding` is not read): ``parse(_:)`` after decoding, and
  /// `SubtitleFile.parse(_:format:encoding:)` for an encoding given or detected from a UTF-16
  /// byte order mark.
  ///
  /// - Parameter bytes: The document as UTF-8.
  /// - Throws: As ``parse(_:)``, but for the encoding.
  static func parse(utf8 bytes: [UInt8]) throws(SubtitleError) -> SubtitleDocument {
    let parsed: TTMLXML.Document
    do {
      parsed = try TTMLXML.parse(bytes)
    } catch {
      switch error {
      case .noRootElement:
        throw SubtitleError.notSubtitles(reason: "no XML element (not a TTML document)")
      case .tooDeep(let line):
        throw SubtitleError.notSubtitles(
          reason: "TTML elements nest more than \(TTMLXML.maximumDepth) deep (line \(line))")
      case .mismatchedEndTag(let found, let line, let open, let openLine):
        throw SubtitleError.notSubtitles(
          reason: "not well-formed XML: </\(found)> on line \(line) does not close <\(open)> "
            + "(line \(openLine))")
      case .notClosed(let open, let openLine, let root):
        throw SubtitleError.notSubtitles(
          reason: "the document ends inside <\(open)> (line \(openLine)) before </\(root)>: "
            + "cut short, or not well-formed XML")
      }
    }
    let root = parsed.root
    guard root.name == "tt", namespaces.contains(root.namespace) || root.namespace.isEmpty else {
      throw SubtitleError.notSubtitles(reason: "the root element is not TTML's tt")
    }
    var builder = TTMLBuilder(root: root)
    for (prefix, line) in parsed.undeclaredPrefixes {
      builder.note(
        "undeclared-" + prefix, line: line,
        "TTML prefix '\(prefix):' used without a namespace declaration; read as TTML's "
          + (TTMLXML.conventionalPrefixes[prefix] ?? prefix))
    }
    builder.build()
    return builder.document
  }
}

/// TTML as a `SubtitleSyntax`: its cues hold WebVTT cue text (see ``TTML``), so the tree is
/// WebVTT's.
enum TTMLSyntax: SubtitleSyntax {
  static var format: SubtitleFormat { .ttml }

  static func cueTree(_ text: ArraySlice<UInt8>) -> [CueNode] { WebVTT.parseCueText(text) }
}
