/// The WebVTT cue text tokenizer and parser ("WebVTT cue text parsing rules").
extension WebVTT {
  /// How deep cue text elements may nest. Start tags beyond this depth are ignored (with
  /// their matching end tags), so hostile input cannot build trees that overflow the stack
  /// when they are walked, compared or freed.
  public static let maximumCueTextDepth = 256

  /// Parses cue text into a tree of WebVTT node objects.
  ///
  /// - Parameters:
  ///   - bytes: Cue text as UTF-8 (for example `document.text[cue.textRange]`); invalid
  ///     sequences read as U+FFFD.
  ///   - language: The spec's fallback language: the applicable language of elements
  ///     outside any `<lang>` span (nil: none).
  /// - Returns: The top-level nodes (the spec's "list of WebVTT Node Objects").
  /// - Complexity: O(n) in the length of the text.
  public static func parseCueText(
    _ bytes: ArraySlice<UInt8>, language: String? = nil
  ) -> [CueNode] {
    // Text without `<` or `&` is one text node (the tokenizer's data state reads it whole).
    if !bytes.contains(where: { $0 == 0x3C || $0 == 0x26 }) {
      return bytes.isEmpty ? [] : [.text(String(decoding: bytes, as: UTF8.self))]
    }
    return bytes.withUnsafeBufferPointer { p in
      var parser = CueTextParser(p)
      return parser.run(language: language)
    }
  }

  /// Parses cue text given as a `String`.
  ///
  /// - Parameters:
  ///   - text: The cue text.
  ///   - language: The fallback language, as for `parseCueText(_:language:)`.
  /// - Returns: The top-level nodes.
  public static func parseCueText(_ text: String, language: String? = nil) -> [CueNode] {
    parseCueText(Array(text.utf8)[...], language: language)
  }
}

extension SubtitleDocument {
  /// The cue text tree of `cue`, parsed now from the cue's bytes in `text` by the document's
  /// own markup rules: the WebVTT cue text rules for WebVTT, `SubRip.parseCueText(_:)` (the
  /// `<i> <b> <u> <font>` tags of SRT) for SRT. `WebVTT.parseCueText(_:language:)` applies
  /// the WebVTT rules to any bytes.
  ///
  /// - Parameter cue: A cue of this document.
  /// - Returns: The top-level nodes of the cue text.
  /// - Complexity: O(n) in the length of the cue text.
  public func cueTree(of cue: Cue) -> [CueNode] {
    let range = cue.textRange.clamped(to: text.indices)
    return format.syntax.cueTree(text[range])
  }

  /// The cue text of `cue` without markup (ruby text left out), in the document's own markup
  /// rules: `CueNode.plainText(cueTree(of:))`.
  ///
  /// - Parameter cue: A cue of this document.
  /// - Returns: Plain text, lines separated by `\n`.
  public func plainText(of cue: Cue) -> String {
    CueNode.plainText(cueTree(of: cue))
  }
}

/// A token of the cue text tokenizer.
enum CueTextToken {
  case text([UInt8])
  case startTag(name: [UInt8], classes: [[UInt8]], annotation: [UInt8]?)
  case endTag(name: [UInt8])
  case timestamp([UInt8])
}

struct CueTextParser {
  let p: UnsafeBufferPointer<UInt8>
  var position = 0

  init(_ p: UnsafeBufferPointer<UInt8>) { self.p = p }

  mutating func run(language: String?) -> [CueNode] {
    var root: [CueNode] = []
    var stack: [CueElement] = []
    var languages: [String] = language.map { [$0] } ?? []
    var ignoredDepth = 0

    func append(_ node: CueNode, _ stack: inout [CueElement], _ root: inout [CueNode]) {
      if stack.isEmpty { root.append(node) } else { stack[stack.count - 1].children.append(node) }
    }
    func close(_ stack: inout [CueElement], _ root: inout [CueNode]) {
      guard let element = stack.popLast() else { return }
      append(.element(element), &stack, &root)
    }

    while position < p.count {
      switch nextToken() {
      case .text(let bytes):
        append(.text(String(decoding: bytes, as: UTF8.self)), &stack, &root)
      case .startTag(let name, let classes, let annotation):
        guard let kind = Self.kind(name) else { continue }
        if kind == .rubyText && stack.last?.kind != .ruby { continue }
        if stack.count >= WebVTT.maximumCueTextDepth {
          ignoredDepth += 1
          continue
        }
        let annotationText = annotation.map { String(decoding: $0, as: UTF8.self) }
        if kind == .language { languages.append(annotationText ?? "") }
        var element = CueElement(
          kind: kind,
          classes: classes.filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) },
          language: languages.last)
        if kind == .voice || kind == .language { element.annotation = annotationText ?? "" }
        stack.append(element)
      case .endTag(let name):
        guard let kind = Self.kind(name) else { continue }
        if ignoredDepth > 0 {
          ignoredDepth -= 1
          continue
        }
        guard let current = stack.last?.kind else { continue }
        if current == kind {
          if kind == .language { languages.removeLast() }
          close(&stack, &root)
        } else if kind == .ruby && current == .rubyText {
          close(&stack, &root)
          close(&stack, &root)
        }
      case .timestamp(let bytes):
        let ok: Double? = bytes.withUnsafeBufferPointer { q in
          var at = 0
          guard case .success(let millis) = VTTSyntax.collectTimestamp(q, &at, end: q.count),
            at == q.count
          else { return nil }
          return Double(millis) / 1000
        }
        if let seconds = ok { append(.timestamp(seconds), &stack, &root) }
      }
    }
    while !stack.isEmpty { close(&stack, &root) }
    return root
  }

  static func kind(_ name: [UInt8]) -> CueElement.Kind? {
    switch name.count {
    case 1:
      switch name[0] {
      case 0x63: .class
      case 0x69: .italic
      case 0x62: .bold
      case 0x75: .underline
      case 0x76: .voice
      default: nil
      }
    case 2: name == [0x72, 0x74] ? .rubyText : nil
    case 4:
      if name == Array("ruby".utf8) {
        .ruby
      } else if name == Array("lang".utf8) {
        .language
      } else {
        nil
      }
    default: nil
    }
  }

  enum State {
    case data
    case tag
    case startTag
    case startTagClass
    case startTagAnnotation
    case endTag
    case timestampTag
  }

  @inline(__always)
  static func isTagSpace(_ c: UInt8) -> Bool { c == 0x09 || c == 0x0C || c == 0x20 }

  /// The character reference whose `&` is at `position`, appended to `output` decoded, or the
  /// `&` itself when no reference starts there; `position` moves past what was read.
  @inline(__always)
  mutating func appendCharacterReference(to output: inout [UInt8]) {
    if let match = HTMLEntities.consume(p, at: position + 1, end: p.count) {
      HTMLEntities.appendUTF8(match.scalars.0, to: &output)
      if match.scalars.1 != 0 { HTMLEntities.appendUTF8(match.scalars.1, to: &output) }
      position = match.end
    } else {
      output.append(0x26)
      position += 1
    }
  }

  /// The WebVTT cue text tokenizer: the next token from `position`. One `case` per state of
  /// the specification's tokenizer, in its order, so that the function reads against it.
  ///
  /// Longer than the usual 100 lines on purpose: the states share the token being built and
  /// hand over to each other within one loop, as the specification's state machine does;
  /// split into functions, each would take that state inout and the text would no longer
  /// read against the specification.
  mutating func nextToken() -> CueTextToken {
    var state = State.data
    var result: [UInt8] = []
    var buffer: [UInt8] = []
    var classes: [[UInt8]] = []
    let end = p.count
    while true {
      let c: UInt8? = position < end ? p[position] : nil
      switch state {
      case .data:
        guard let c else { return .text(result) }
        if c == 0x26 {
          appendCharacterReference(to: &result)
          continue
        }
        if c == 0x3C {
          if !result.isEmpty { return .text(result) }
          state = .tag
        } else {
          result.append(c)
        }
      case .tag:
        guard let c else { return .startTag(name: [], classes: [], annotation: nil) }
        if Self.isTagSpace(c) || c == 0x0A {
          state = .startTagAnnotation
        } else if c == 0x2E {
          state = .startTagClass
        } else if c == 0x2F {
          state = .endTag
        } else if VTTSyntax.isDigit(c) {
          result = [c]
          state = .timestampTag
        } else if c == 0x3E {
          position += 1
          return .startTag(name: [], classes: [], annotation: nil)
        } else {
          result = [c]
          state = .startTag
        }
      case .startTag:
        guard let c else { return .startTag(name: result, classes: [], annotation: nil) }
        if Self.isTagSpace(c) {
          state = .startTagAnnotation
        } else if c == 0x0A {
          buffer = [c]
          state = .startTagAnnotation
        } else if c == 0x2E {
          state = .startTagClass
        } else if c == 0x3E {
          position += 1
          return .startTag(name: result, classes: [], annotation: nil)
        } else {
          result.append(c)
        }
      case .startTagClass:
        guard let c else {
          classes.append(buffer)
          return .startTag(name: result, classes: classes, annotation: nil)
        }
        if Self.isTagSpace(c) {
          classes.append(buffer)
          buffer = []
          state = .startTagAnnotation
        } else if c == 0x0A {
          classes.append(buffer)
          buffer = [c]
          state = .startTagAnnotation
        } else if c == 0x2E {
          classes.append(buffer)
          buffer = []
        } else if c == 0x3E {
          position += 1
          classes.append(buffer)
          return .startTag(name: result, classes: classes, annotation: nil)
        } else {
          buffer.append(c)
        }
      case .startTagAnnotation:
        guard let c, c != 0x3E else {
          if c != nil { position += 1 }
          return .startTag(name: result, classes: classes, annotation: Self.collapse(buffer))
        }
        if c == 0x26 {
          appendCharacterReference(to: &buffer)
          continue
        }
        buffer.append(c)
      case .endTag:
        guard let c, c != 0x3E else {
          if c != nil { position += 1 }
          return .endTag(name: result)
        }
        result.append(c)
      case .timestampTag:
        guard let c, c != 0x3E else {
          if c != nil { position += 1 }
          return .timestamp(result)
        }
        result.append(c)
      }
      position += 1
    }
  }

  /// Strips leading and trailing ASCII whitespace and collapses inner runs to one space.
  static func collapse(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var pendingSpace = false
    for byte in bytes {
      if VTTSyntax.isWhitespace(byte) {
        pendingSpace = !output.isEmpty
      } else {
        if pendingSpace { output.append(0x20) }
        pendingSpace = false
        output.append(byte)
      }
    }
    return output
  }
}
