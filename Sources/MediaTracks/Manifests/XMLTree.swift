/// A small, tolerant XML reader for DASH manifests: elements, attributes and text.
///
/// It reads start tags, end tags, empty-element tags, attributes in single or double quotes,
/// character data, CDATA sections, comments, processing instructions and the DOCTYPE, and decodes
/// the predefined and numeric character references. Namespace prefixes are dropped from element
/// and attribute names (`mpd:Role` → `Role`). It is tolerant: an unclosed element ends at the
/// end of input, an end tag without a matching start tag is ignored, and an end tag that skips
/// open elements closes them. Only nesting deeper than ``maximumDepth`` fails (a manifest is a
/// handful of levels deep; without a bound, such input would cost quadratic time and exhaust
/// the stack when the tree is freed).
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

  /// Parses `bytes`; the result is a synthetic root element (named `""`) holding the document's
  /// top-level elements, or `nil` when elements nest deeper than ``maximumDepth``.
  static func parse(_ bytes: [UInt8]) -> XMLElement? {
    var stack = [XMLElement(name: "", attributes: [:], children: [], text: "")]
    var index = 0
    let count = bytes.count
    // How many elements of each name are open: an end tag that matches none is ignored without
    // a search of the open elements.
    var openNames: [String: Int] = [:]

    func closeTop() {
      let element = stack.removeLast()
      openNames[element.name, default: 1] -= 1
      stack[stack.count - 1].children.append(element)
    }

    while index < count {
      if bytes[index] != 0x3C {
        let start = index
        while index < count && bytes[index] != 0x3C { index += 1 }
        if stack.count > 1 { stack[stack.count - 1].text += decode(bytes[start..<index]) }
        continue
      }
      // Markup.
      if starts(bytes, index, "<!--") {
        index = find(bytes, from: index + 4, "-->").map { $0 + 3 } ?? count
      } else if starts(bytes, index, "<![CDATA[") {
        let end = find(bytes, from: index + 9, "]]>") ?? count
        if stack.count > 1 {
          stack[stack.count - 1].text += String(decoding: bytes[(index + 9)..<end], as: UTF8.self)
        }
        index = min(count, end + 3)
      } else if starts(bytes, index, "<?") {
        index = find(bytes, from: index + 2, "?>").map { $0 + 2 } ?? count
      } else if starts(bytes, index, "<!") {
        index = skipDeclaration(bytes, from: index + 2)
      } else if index + 1 < count && bytes[index + 1] == 0x2F {
        var cursor = index + 2
        let name = readName(bytes, &cursor)
        while cursor < count && bytes[cursor] != 0x3E { cursor += 1 }
        index = min(count, cursor + 1)
        if openNames[name, default: 0] > 0, let open = stack.lastIndex(where: { $0.name == name }),
          open > 0
        {
          while stack.count > open { closeTop() }
        }
      } else {
        var cursor = index + 1
        let name = readName(bytes, &cursor)
        if name.isEmpty {
          // A stray '<': treat it as text.
          if stack.count > 1 { stack[stack.count - 1].text += "<" }
          index += 1
          continue
        }
        let (attributes, selfClosing) = readAttributes(bytes, &cursor)
        index = cursor
        guard stack.count <= maximumDepth else { return nil }
        stack.append(XMLElement(name: name, attributes: attributes, children: [], text: ""))
        openNames[name, default: 0] += 1
        if selfClosing { closeTop() }
      }
    }
    while stack.count > 1 { closeTop() }
    return stack[0]
  }

  /// Reads a start tag's attributes after its name, up to and past its `>` (or the end of
  /// input); whether it ends with `/` (an empty-element tag).
  private static func readAttributes(_ bytes: [UInt8], _ cursor: inout Int) -> (
    attributes: [String: String], selfClosing: Bool
  ) {
    let count = bytes.count
    var attributes: [String: String] = [:]
    var selfClosing = false
    while cursor < count {
      skipSpace(bytes, &cursor)
      guard cursor < count else { break }
      if bytes[cursor] == 0x3E {
        cursor += 1
        break
      }
      if bytes[cursor] == 0x2F {
        selfClosing = true
        cursor += 1
        continue
      }
      let attribute = readName(bytes, &cursor)
      if attribute.isEmpty {
        cursor += 1
        continue
      }
      skipSpace(bytes, &cursor)
      var value = ""
      if cursor < count && bytes[cursor] == 0x3D {
        cursor += 1
        skipSpace(bytes, &cursor)
        value = readValue(bytes, &cursor)
      }
      attributes[attribute] = value
    }
    return (attributes, selfClosing)
  }

  /// Reads an attribute value in single or double quotes (past the closing quote), or else up
  /// to a space or `>`, with character references decoded.
  private static func readValue(_ bytes: [UInt8], _ cursor: inout Int) -> String {
    let count = bytes.count
    guard cursor < count && (bytes[cursor] == 0x22 || bytes[cursor] == 0x27) else {
      let start = cursor
      while cursor < count && !isSpace(bytes[cursor]) && bytes[cursor] != 0x3E { cursor += 1 }
      return decode(bytes[start..<cursor])
    }
    let quote = bytes[cursor]
    let start = cursor + 1
    cursor = start
    while cursor < count && bytes[cursor] != quote { cursor += 1 }
    let value = decode(bytes[start..<cursor])
    if cursor < count { cursor += 1 }
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

  /// Skips `<!DOCTYPE …>` including an internal subset in brackets.
  private static func skipDeclaration(_ bytes: [UInt8], from start: Int) -> Int {
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
    return bytes.count
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
