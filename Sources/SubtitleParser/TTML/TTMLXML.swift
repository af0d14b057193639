/// A small XML reader for TTML documents: elements with namespace-resolved names and
/// attributes, and text in document order (TTML content is mixed: text, `span` and `br`
/// interleave). Comments, processing instructions, the declaration and a DOCTYPE are skipped;
/// CDATA sections are text; the five predefined entities and numeric character references are
/// replaced. Inside the root element the document must be well-formed, as XML requires and as
/// other TTML readers (Media3, ttconv) insist: an end tag that does not close the innermost open
/// element, and a document that ends before its root element closes (a download cut short), are
/// failures, not repairs. What follows the root element (the NUL bytes that pad some MP4
/// samples) is ignored. It is bounded: elements nest at most ``maximumDepth`` deep, and the work
/// is linear in the input.
struct TTMLXML {
  /// The namespace of `xml:` attributes.
  static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
  /// The deepest nesting read.
  static let maximumDepth = 256

  /// One element.
  struct Element {
    /// The namespace URI (`""` for none).
    var namespace: String
    /// The name without its prefix.
    var name: String
    /// Attributes: namespace URI (`""` for an unprefixed attribute), local name, value.
    var attributes: [Attribute]
    /// Children in document order.
    var children: [Node]
    /// The 1-based line of the start tag.
    var line: Int

    /// The value of the attribute `name` in `namespace`, or `nil`.
    func attribute(_ name: String, in namespace: String = "") -> String? {
      attributes.first { $0.name == name && $0.namespace == namespace }?.value
    }

    /// The child elements, in order.
    var elements: [Element] {
      children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }
  }

  /// One attribute.
  struct Attribute {
    var namespace: String
    var name: String
    var value: String
  }

  /// One piece of content.
  enum Node {
    case element(Element)
    case text(String)
  }

  /// Why a document could not be read.
  enum Failure: Error {
    case noRootElement
    case tooDeep(line: Int)
    /// An end tag (`found`, qualified name, on `line`) inside the root element that does not
    /// close the innermost open element (`open`, qualified name, opened on `openLine`).
    case mismatchedEndTag(found: String, line: Int, open: String, openLine: Int)
    /// The document ended with the element `open` (qualified name, opened on `openLine`) and
    /// the root still open.
    case notClosed(open: String, openLine: Int, root: String)
  }

  /// The namespaces of TTML's conventional attribute prefixes, for a document that uses one
  /// without declaring it (not namespace-well-formed XML, but written, and read by players that
  /// match TTML attributes by local name): `tts:color` with no `xmlns:tts` is still a style.
  static let conventionalPrefixes: [String: String] = [
    "tts": "http://www.w3.org/ns/ttml#styling",
    "ttp": "http://www.w3.org/ns/ttml#parameter",
    "ttm": "http://www.w3.org/ns/ttml#metadata",
  ]

  /// A parsed document: its root, and the conventional prefixes it used without declaring
  /// them, each with the line of its first use.
  struct Document {
    var root: Element
    var undeclaredPrefixes: [(prefix: String, line: Int)]
  }

  /// Parses `bytes` (UTF-8), its line ends first normalised as XML 1.0 (2.11) says: each CR LF
  /// pair and each lone CR becomes one LF (a CR written as a character reference, `&#13;`,
  /// stays). Input with no CR is read in place, not copied.
  /// - Returns: The root element, and the conventional prefixes used undeclared
  ///   (``conventionalPrefixes``).
  /// - Throws: ``Failure`` when there is no element or they nest too deep.
  static func parse(_ bytes: [UInt8]) throws(Failure) -> Document {
    let firstReturn = ByteScanner.firstIndex(of: 0x0D, in: bytes)
    var reader = Reader(
      bytes: firstReturn < bytes.count ? normalizingLineEnds(bytes, from: firstReturn) : bytes)
    let root = try reader.document()
    return Document(root: root, undeclaredPrefixes: reader.undeclared)
  }

  /// `bytes` with each CR LF and each lone CR from `start` on (the index of the first CR)
  /// replaced by LF.
  static func normalizingLineEnds(_ bytes: [UInt8], from start: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    out.append(contentsOf: bytes[..<start])
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == 0x0D {
        out.append(0x0A)
        if index < bytes.count, bytes[index] == 0x0A { index += 1 }
      } else {
        out.append(byte)
      }
    }
    return out
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    /// Open elements with their namespace scope (prefix → URI) as it was before them.
    var stack: [(element: Element, qualified: String, scope: [String: String])] = []
    var scope: [String: String] = ["xml": TTMLXML.xmlNamespace]
    var root: Element? = nil
    /// Conventional prefixes used without a declaration in scope, in order of first use.
    var undeclared: [(prefix: String, line: Int)] = []

    init(bytes: [UInt8]) {
      self.bytes = bytes
      // A UTF-8 byte order mark.
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    mutating func document() throws(Failure) -> Element {
      while index < bytes.count {
        if bytes[index] != UInt8(ascii: "<") {
          // A run of text, up to the next tag, taken at once.
          let start = index
          while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == 0x0A { line += 1 }
            index += 1
          }
          appendText(bytes[start..<index])
          continue
        }
        if starts(with: "<!--") {
          skip(past: "-->")
        } else if starts(with: "<![CDATA[") {
          index += 9
          let start = index
          skip(past: "]]>")
          let end = max(start, index - 3)
          appendRaw(Array(bytes[start..<min(end, bytes.count)]))
        } else if starts(with: "<?") {
          skip(past: "?>")
        } else if starts(with: "<!") {
          skipDeclaration()
        } else if starts(with: "</") {
          try endTag()
        } else {
          try startTag()
        }
      }
      if let open = stack.last, let outermost = stack.first {
        throw .notClosed(
          open: open.qualified, openLine: open.element.line, root: outermost.qualified)
      }
      guard let root else { throw .noRootElement }
      return root
    }

    func starts(with literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      guard index + count <= bytes.count else { return false }
      return literal.withUTF8Buffer { pattern in
        for offset in 0..<count where bytes[index + offset] != pattern[offset] { return false }
        return true
      }
    }

    mutating func skip(past literal: StaticString) {
      while index < bytes.count {
        if starts(with: literal) {
          index += literal.utf8CodeUnitCount
          return
        }
        if bytes[index] == 0x0A { line += 1 }
        index += 1
      }
    }

    /// `<!DOCTYPE …>` with an internal subset in brackets.
    mutating func skipDeclaration() {
      var depth = 0
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A { line += 1 }
        if byte == UInt8(ascii: "[") { depth += 1 }
        if byte == UInt8(ascii: "]") { depth -= 1 }
        if byte == UInt8(ascii: ">") && depth <= 0 { return }
      }
    }

    mutating func appendText(_ raw: ArraySlice<UInt8>) {
      guard !stack.isEmpty else { return }
      if raw.contains(UInt8(ascii: "&")) {
        appendRaw(TTMLXML.decodeEntities(Array(raw)))
      } else {
        appendRaw(raw)
      }
    }

    mutating func appendRaw<Bytes: Collection<UInt8>>(_ decoded: Bytes) {
      guard !stack.isEmpty else { return }
      let text = String(decoding: decoded, as: UTF8.self)
      let top = stack.count - 1
      if case .text(let previous)? = stack[top].element.children.last {
        stack[top].element.children[stack[top].element.children.count - 1] = .text(previous + text)
      } else {
        stack[top].element.children.append(.text(text))
      }
    }

    func isNameByte(_ byte: UInt8) -> Bool {
      !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "/")
        || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<"))
    }

    mutating func name() -> String {
      let start = index
      while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func skipSpace() {
      while index < bytes.count,
        bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
      {
        if bytes[index] == 0x0A { line += 1 }
        index += 1
      }
    }

    /// The bytes of a name from `index` on (advancing past it).
    mutating func nameRange() -> Range<Int> {
      let start = index
      while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
      return start..<index
    }

    /// A qualified name's prefix (`nil` when it has none) and local name, read from its bytes.
    func split(_ range: Range<Int>) -> (prefix: String?, local: String) {
      guard let colon = bytes[range].firstIndex(of: UInt8(ascii: ":")) else {
        return (nil, String(decoding: bytes[range], as: UTF8.self))
      }
      return (
        String(decoding: bytes[range.lowerBound..<colon], as: UTF8.self),
        String(decoding: bytes[(colon + 1)..<range.upperBound], as: UTF8.self)
      )
    }

    mutating func startTag() throws(Failure) {
      let tagLine = line
      index += 1
      let qualifiedRange = nameRange()
      // Attributes as read: the name's prefix and local name, and the value.
      var raw: [(prefix: String?, local: String, value: String)] = []
      var declaresNamespaces = false
      var selfClosing = false
      while index < bytes.count {
        skipSpace()
        guard index < bytes.count else { break }
        let byte = bytes[index]
        if byte == UInt8(ascii: ">") {
          index += 1
          break
        }
        if byte == UInt8(ascii: "/") {
          selfClosing = true
          index += 1
          continue
        }
        let attributeName = nameRange()
        if attributeName.isEmpty {
          index += 1
          continue
        }
        skipSpace()
        var value = ""
        if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
          index += 1
          skipSpace()
          if index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 {
            let quote = bytes[index]
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote {
              if bytes[index] == 0x0A { line += 1 }
              index += 1
            }
            let text = bytes[start..<index]
            value =
              text.contains(UInt8(ascii: "&"))
              ? String(decoding: TTMLXML.decodeEntities(Array(text)), as: UTF8.self)
              : String(decoding: text, as: UTF8.self)
            index = min(index + 1, bytes.count)
          } else {
            value = name()
          }
        }
        let (prefix, local) = split(attributeName)
        if prefix == "xmlns" || (prefix == nil && local == "xmlns") { declaresNamespaces = true }
        raw.append((prefix, local, value))
      }
      guard stack.count < TTMLXML.maximumDepth else { throw .tooDeep(line: tagLine) }
      let outer = scope
      if declaresNamespaces {
        for (prefix, local, value) in raw {
          if prefix == nil && local == "xmlns" {
            scope[""] = value
          } else if prefix == "xmlns" {
            scope[local] = value
          }
        }
      }
      var attributes: [Attribute] = []
      attributes.reserveCapacity(raw.count)
      for (prefix, local, value) in raw
      where !(prefix == "xmlns" || (prefix == nil && local == "xmlns")) {
        var namespace = ""
        if let prefix {
          if let declared = scope[prefix] {
            namespace = declared
          } else if let conventional = TTMLXML.conventionalPrefixes[prefix] {
            namespace = conventional
            if !undeclared.contains(where: { $0.prefix == prefix }) {
              undeclared.append((prefix, tagLine))
            }
          } else {
            namespace = prefix
          }
        }
        attributes.append(Attribute(namespace: namespace, name: local, value: value))
      }
      let (prefix, local) = split(qualifiedRange)
      let qualified = String(decoding: bytes[qualifiedRange], as: UTF8.self)
      let element = Element(
        namespace: scope[prefix ?? ""] ?? "", name: local, attributes: attributes, children: [],
        line: tagLine)
      stack.append((element, qualified, outer))
      if selfClosing { closeTop() }
    }

    mutating func endTag() throws(Failure) {
      let tagLine = line
      index += 2
      let qualified = name()
      skip(past: ">")
      // Outside the root element (after it: padding, a second document) an end tag is ignored.
      guard let open = stack.last else { return }
      guard open.qualified == qualified else {
        throw .mismatchedEndTag(
          found: qualified, line: tagLine, open: open.qualified, openLine: open.element.line)
      }
      closeTop()
    }

    mutating func closeTop() {
      guard let (element, _, outer) = stack.popLast() else { return }
      scope = outer
      if stack.isEmpty {
        if root == nil { root = element }
      } else {
        stack[stack.count - 1].element.children.append(.element(element))
      }
    }
  }

  /// `raw` with `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#N;` `&#xH;` replaced (an unknown
  /// or malformed reference is kept as written).
  ///
  /// MediaTracks' manifest XML reader decodes the same references with a reader of its own:
  /// this one differs where TTML needs it (mixed content in order, namespaces resolved).
  static func decodeEntities(_ raw: [UInt8]) -> [UInt8] {
    guard raw.contains(UInt8(ascii: "&")) else { return raw }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      guard byte == UInt8(ascii: "&"),
        let semicolon = raw[index...].prefix(12).firstIndex(of: UInt8(ascii: ";"))
      else {
        out.append(byte)
        index += 1
        continue
      }
      let name = String(decoding: raw[(index + 1)..<semicolon], as: UTF8.self)
      var scalar: Unicode.Scalar? = nil
      switch name {
      case "lt": scalar = "<"
      case "gt": scalar = ">"
      case "amp": scalar = "&"
      case "quot": scalar = "\""
      case "apos": scalar = "'"
      default:
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
          scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        } else if name.hasPrefix("#") {
          scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
        }
      }
      if let scalar, scalar.value != 0 {
        out.append(contentsOf: String(Character(scalar)).utf8)
        index = semicolon + 1
      } else {
        out.append(byte)
        index += 1
      }
    }
    return out
  }
}
