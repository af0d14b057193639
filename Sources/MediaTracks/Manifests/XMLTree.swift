/// A small XML reader for DASH manifests: elements, attributes and text.
///
/// It reads start tags, end tags, empty-element tags, attributes in single or double quotes,
/// character data, CDATA sections, comments, processing instructions and the DOCTYPE, and decodes
/// the predefined and numeric character references (entities are never expanded). Namespace
/// prefixes are dropped from element and attribute names (`mpd:Role` → `Role`). A document that
/// is not well-formed fails, as XML 1.0 makes it a fatal error and every DASH player refuses it:
/// a manifest cut short, or with one malformed tag, would otherwise lose the tracks after the
/// damage without a word. It fails on an element left open at the end of input, an end tag that
/// does not close the innermost open element, a tag, comment, CDATA section or processing
/// instruction left unterminated, an attribute given twice or without a quoted value, a stray
/// `<`, text or a second element outside the root, and nesting deeper than ``maximumDepth`` (a
/// manifest is a handful of levels deep; without a bound, such input would cost quadratic time
/// and exhaust the stack when the tree is freed).
struct XMLElement: Sendable {
  var name: String
  var attributes: [String: String]
  var children: [XMLElement]
  var text: String

  /// The first child named `name`.
  func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

  /// Every child named `name`, in order.
  func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

  /// The deepest element nesting `parse` accepts.
  static let maximumDepth = 256

  /// Why a document is not read: what is wrong, and on which line (1-based).
  struct Failure: Error, Sendable {
    var reason: String
    var line: Int
  }

  /// Parses `bytes`; the result is a synthetic root element (named `""`) holding the document's
  /// one top-level element.
  /// - Throws: ``Failure`` when the document is not well-formed (see the type's rules).
  static func parse(_ bytes: [UInt8]) throws(Failure) -> XMLElement {
    var stack = [XMLElement(name: "", attributes: [:], children: [], text: "")]
    var index = 0
    let count = bytes.count
    var rootSeen = false
    /// The line of `offset`, counted only when a failure needs it.
    func failure(_ reason: String, at offset: Int) -> Failure {
      Failure(
        reason: reason, line: bytes[..<min(offset, count)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) })
    }
    func closeTop() {
      let element = stack.removeLast()
      stack[stack.count - 1].children.append(element)
    }
    // A UTF-8 byte order mark.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }

    while index < count {
      if bytes[index] != 0x3C {
        let start = index
        while index < count && bytes[index] != 0x3C { index += 1 }
        if stack.count > 1 {
          stack[stack.count - 1].text += decode(bytes[start..<index])
        } else if bytes[start..<index].contains(where: { !isSpace($0) }) {
          throw failure("text outside the root element", at: start)
        }
        continue
      }
      // Markup.
      if starts(bytes, index, "<!--") {
        guard let end = find(bytes, from: index + 4, "-->") else {
          throw failure("a comment is not closed", at: index)
        }
        index = end + 3
      } else if starts(bytes, index, "<![CDATA[") {
        guard let end = find(bytes, from: index + 9, "]]>") else {
          throw failure("a CDATA section is not closed", at: index)
        }
        guard stack.count > 1 else { throw failure("CDATA outside the root element", at: index) }
        stack[stack.count - 1].text += String(decoding: bytes[(index + 9)..<end], as: UTF8.self)
        index = end + 3
      } else if starts(bytes, index, "<?") {
        guard let end = find(bytes, from: index + 2, "?>") else {
          throw failure("a processing instruction is not closed", at: index)
        }
        index = end + 2
      } else if starts(bytes, index, "<!") {
        guard let end = skipDeclaration(bytes, from: index + 2) else {
          throw failure("a declaration is not closed", at: index)
        }
        index = end
      } else if index + 1 < count && bytes[index + 1] == 0x2F {
        var cursor = index + 2
        let name = readName(bytes, &cursor)
        skipSpace(bytes, &cursor)
        guard cursor < count && bytes[cursor] == 0x3E else {
          throw failure("the end tag </\(name)> is malformed or not closed", at: index)
        }
        guard stack.count > 1, stack[stack.count - 1].name == name else {
          let open =
            stack.count > 1 ? "<\(stack[stack.count - 1].name)> is open" : "nothing is open"
          throw failure("the end tag </\(name)> does not match: \(open)", at: index)
        }
        closeTop()
        index = cursor + 1
      } else {
        var cursor = index + 1
        let name = readName(bytes, &cursor)
        if name.isEmpty { throw failure("a '<' that starts no tag", at: index) }
        if stack.count == 1 && rootSeen {
          throw failure("a second top-level element <\(name)>", at: index)
        }
        let (attributes, selfClosing) = try readAttributes(
          bytes, &cursor, element: name, failure: { failure($0, at: index) })
        index = cursor
        guard stack.count <= maximumDepth else {
          throw failure("elements nest more than \(maximumDepth) deep", at: index)
        }
        rootSeen = true
        stack.append(XMLElement(name: name, attributes: attributes, children: [], text: ""))
        if selfClosing { closeTop() }
      }
    }
    guard stack.count == 1 else {
      throw failure(
        "<\(stack[stack.count - 1].name)> is not closed (the document ends early)", at: count)
    }
    guard rootSeen else { throw failure("no element", at: count) }
    return stack[0]
  }

  /// Reads a start tag's attributes after its name, up to and past its `>`; whether it ends
  /// with `/` (an empty-element tag).
  /// - Throws: `failure(reason)` for a tag not closed, an attribute without a quoted value, or
  ///   one given twice.
  private static func readAttributes(
    _ bytes: [UInt8], _ cursor: inout Int, element: String, failure: (String) -> Failure
  ) throws(Failure) -> (attributes: [String: String], selfClosing: Bool) {
    let count = bytes.count
    var attributes: [String: String] = [:]
    // Duplicates are by qualified name (`xlink:href` and `href` are two attributes, though
    // both are kept under `href`, the later one winning).
    var qualifiedNames: Set<ArraySlice<UInt8>> = []
    while true {
      let before = cursor
      skipSpace(bytes, &cursor)
      // Attributes are separated from the name and from each other by white space.
      let spaced = cursor > before
      guard cursor < count else { throw failure("the tag <\(element)> is not closed") }
      if bytes[cursor] == 0x3E {
        cursor += 1
        return (attributes, false)
      }
      if bytes[cursor] == 0x2F {
        guard cursor + 1 < count && bytes[cursor + 1] == 0x3E else {
          throw failure("a '/' inside the tag <\(element)>")
        }
        cursor += 2
        return (attributes, true)
      }
      let nameStart = cursor
      let attribute = readName(bytes, &cursor)
      let qualified = bytes[nameStart..<cursor]
      guard !attribute.isEmpty, spaced else {
        throw failure("the tag <\(element)> is malformed")
      }
      skipSpace(bytes, &cursor)
      guard cursor < count && bytes[cursor] == 0x3D else {
        throw failure("the attribute '\(attribute)' of <\(element)> has no value")
      }
      cursor += 1
      skipSpace(bytes, &cursor)
      guard let value = readValue(bytes, &cursor) else {
        throw failure("the value of '\(attribute)' in <\(element)> is not quoted or not closed")
      }
      guard qualifiedNames.insert(qualified).inserted else {
        throw failure("the attribute '\(attribute)' is given twice in <\(element)>")
      }
      attributes[attribute] = value
    }
  }

  /// Reads an attribute value in single or double quotes (past the closing quote), with
  /// character references decoded; `nil` when it is not quoted or its quote is not closed.
  private static func readValue(_ bytes: [UInt8], _ cursor: inout Int) -> String? {
    let count = bytes.count
    guard cursor < count && (bytes[cursor] == 0x22 || bytes[cursor] == 0x27) else { return nil }
    let quote = bytes[cursor]
    let start = cursor + 1
    cursor = start
    while cursor < count && bytes[cursor] != quote { cursor += 1 }
    guard cursor < count else { return nil }
    let value = decode(bytes[start..<cursor])
    cursor += 1
    return value
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func skipSpace(_ bytes: [UInt8], _ cursor: inout Int) {
    while cursor < bytes.count && isSpace(bytes[cursor]) { cursor += 1 }
  }

  /// Reads a name and drops its namespace prefix.
  private static func readName(_ bytes: [UInt8], _ cursor: inout Int) -> String {
    let start = cursor
    while cursor < bytes.count {
      let byte = bytes[cursor]
      if isSpace(byte) || byte == 0x3E || byte == 0x2F || byte == 0x3D || byte == 0x3C
        || byte == 0x22 || byte == 0x27
      {
        break
      }
      cursor += 1
    }
    var name = bytes[start..<cursor]
    if let colon = name.lastIndex(of: 0x3A) { name = name[(colon + 1)...] }
    return String(decoding: name, as: UTF8.self)
  }

  private static func starts(_ bytes: [UInt8], _ index: Int, _ text: StaticString) -> Bool {
    let length = text.utf8CodeUnitCount
    guard index + length <= bytes.count else { return false }
    return text.withUTF8Buffer { pattern in
      for offset in 0..<length where bytes[index + offset] != pattern[offset] { return false }
      return true
    }
  }

  private static func find(_ bytes: [UInt8], from start: Int, _ text: StaticString) -> Int? {
    var index = start
    while index < bytes.count {
      if starts(bytes, index, text) { return index }
      index += 1
    }
    return nil
  }

  /// Skips `<!DOCTYPE …>` including an internal subset in brackets: the index past it, or nil
  /// when it is not closed.
  private static func skipDeclaration(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    var depth = 0
    while index < bytes.count {
      switch bytes[index] {
      case 0x5B: depth += 1
      case 0x5D: depth -= 1
      case 0x3E where depth <= 0: return index + 1
      default: break
      }
      index += 1
    }
    return nil
  }

  /// Decodes character references; unknown ones stay as written.
  private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
    guard bytes.contains(0x26) else { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      guard byte == 0x26,
        let semicolon = bytes[index..<min(bytes.endIndex, index + 12)].firstIndex(of: 0x3B)
      else {
        out.append(byte)
        index += 1
        continue
      }
      let entity = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
      var scalar: Unicode.Scalar? = nil
      switch entity {
      case "amp": scalar = "&"
      case "lt": scalar = "<"
      case "gt": scalar = ">"
      case "quot": scalar = "\""
      case "apos": scalar = "'"
      default:
        if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
          scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        } else if entity.hasPrefix("#") {
          scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
        }
        // XML allows no reference to NUL; it stays as written.
        if scalar == "\0" { scalar = nil }
      }
      if let scalar {
        out.append(contentsOf: String(Character(scalar)).utf8)
        index = semicolon + 1
      } else {
        out.append(byte)
        index += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
