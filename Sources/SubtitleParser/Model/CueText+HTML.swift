/// A DOM node as `VTTCue.getCueAsHTML()` builds it from a cue text tree ("WebVTT cue text DOM
/// construction rules").
public enum CueHTMLNode: Hashable, Sendable, Codable {
  /// A `Text` node.
  case text(String)
  /// A `ProcessingInstruction` node; timestamps use target `timestamp` and data
  /// `hh:mm:ss.ttt`.
  case processingInstruction(target: String, data: String)
  /// An HTML element with its attributes (`class`, `title`, `lang`, or SubRip font
  /// attributes) and children.
  case element(name: String, attributes: [String: String], children: [CueHTMLNode])
}

extension CueNode {
  /// The DOM shape of a cue text tree: `c`, `v` and `lang` become `span` (with `class`,
  /// `title` and `lang` attributes), `i b u ruby rt` keep their names, timestamps become
  /// `<?timestamp hh:mm:ss.ttt?>`, `font` keeps its attributes.
  ///
  /// - Parameter nodes: A cue text tree.
  /// - Returns: The corresponding DOM nodes.
  /// - Complexity: O(n) in the number of nodes.
  public static func html(_ nodes: [CueNode]) -> [CueHTMLNode] {
    nodes.map(\.html)
  }

  /// This node's DOM shape (see `html(_:)`).
  public var html: CueHTMLNode {
    switch self {
    case .text(let text):
      return .text(text)
    case .timestamp(let seconds):
      let millis = Int64((seconds * 1000).rounded())
      return .processingInstruction(
        target: "timestamp", data: VTTSyntax.format(milliseconds: max(0, millis)))
    case .element(let element):
      var attributes: [String: String] = [:]
      if !element.classes.isEmpty { attributes["class"] = element.classes.joined(separator: " ") }
      let name: String
      switch element.kind {
      case .class: name = "span"
      case .voice:
        name = "span"
        attributes["title"] = element.annotation ?? ""
      case .language:
        name = "span"
        attributes["lang"] = element.language ?? ""
      case .font:
        name = "font"
        for attribute in element.attributes { attributes[attribute.name] = attribute.value }
      default: name = element.kind.rawValue
      }
      return .element(
        name: name, attributes: attributes, children: element.children.map(\.html))
    }
  }
}

extension CueHTMLNode {
  /// Serialises DOM nodes as HTML markup, following the HTML fragment serialisation
  /// algorithm: text escapes `&`, `<`, `>` and U+00A0; attribute values escape `&`, `"` and
  /// U+00A0; attributes are written in name order; processing instructions as
  /// `<?target data>`.
  ///
  /// - Parameter nodes: DOM nodes, for example `CueNode.html(document.cueTree(of: cue))`.
  /// - Returns: The markup, as `getCueAsHTML()` followed by `innerHTML` would give it.
  /// - Complexity: O(n) in the size of the tree.
  public static func markup(_ nodes: [CueHTMLNode]) -> String {
    var output = ""
    for node in nodes { node.serialize(into: &output) }
    return output
  }

  private func serialize(into output: inout String) {
    switch self {
    case .text(let text):
      output += Self.escape(text, attribute: false)
    case .processingInstruction(let target, let data):
      output += "<?\(target) \(data)>"
    case .element(let name, let attributes, let children):
      output += "<" + name
      for key in attributes.keys.sorted() {
        output += " \(key)=\"\(Self.escape(attributes[key] ?? "", attribute: true))\""
      }
      output += ">"
      for child in children { child.serialize(into: &output) }
      output += "</\(name)>"
    }
  }

  private static func escape(_ text: String, attribute: Bool) -> String {
    var output = ""
    output.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "\u{A0}": output += "&nbsp;"
      case "<" where !attribute: output += "&lt;"
      case ">" where !attribute: output += "&gt;"
      case "\"" where attribute: output += "&quot;"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
