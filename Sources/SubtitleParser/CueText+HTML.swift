/// A DOM node as `VTTCue.getCueAsHTML()` builds it from a cue text tree ("WebVTT cue text DOM
/// construction rules").
public enum CueHTMLNode: Hashable, Sendable {
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
