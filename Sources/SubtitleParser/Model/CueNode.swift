/// One node of a parsed cue text: the WebVTT node objects of the W3C cue text parsing rules,
/// plus a `font` element for SubRip's `<font …>` markup.
///
/// Trees are plain values. They are built on request (`SubtitleDocument.cueTree(of:)`,
/// `WebVTT.parseCueText(_:)`), never while a file is parsed.
public enum CueNode: Hashable, Sendable, Codable {
  /// A WebVTT text object: literal text, character references already replaced.
  case text(String)
  /// A WebVTT timestamp object (`<00:01.500>`): a time in seconds.
  case timestamp(Double)
  /// An internal node object (class, italic, bold, …) with its children.
  case element(CueElement)
}

/// A WebVTT internal node object: a span of cue text with a kind, classes and children.
public struct CueElement: Hashable, Sendable, Codable {
  /// The concrete class of the node object, named by its WebVTT tag.
  public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
    /// `<c>`: a class span.
    case `class` = "c"
    /// `<i>`: italics.
    case italic = "i"
    /// `<b>`: bold.
    case bold = "b"
    /// `<u>`: underline.
    case underline = "u"
    /// `<ruby>`: a ruby span.
    case ruby
    /// `<rt>`: ruby text (only inside `ruby`).
    case rubyText = "rt"
    /// `<v name>`: a voice span; `annotation` holds the voice name.
    case voice = "v"
    /// `<lang tag>`: a language span; `annotation` holds the language tag.
    case language = "lang"
    /// SubRip's `<font color=… face=… size=…>`; `attributes` holds the attributes.
    case font
  }

  /// One attribute of a `font` element, in source order.
  public struct Attribute: Hashable, Sendable, Codable {
    /// The attribute name, lowercased.
    public var name: String
    /// The attribute value, quotes removed.
    public var value: String

    /// Creates an attribute.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// What kind of span this is.
  public var kind: Kind
  /// The applicable classes from `<tag.class1.class2>`, empty names removed, in order.
  public var classes: [String]
  /// The tag's annotation: the voice name for `v`, the language tag for `lang`; nil when the
  /// tag had none (or for other kinds).
  public var annotation: String?
  /// The applicable language (the innermost enclosing `lang` tag's annotation), or nil.
  public var language: String?
  /// Extra attributes (SubRip `font`); empty for WebVTT tags.
  public var attributes: [Attribute]
  /// The child nodes, in order.
  public var children: [CueNode]

  /// Creates an element.
  public init(
    kind: Kind, classes: [String] = [], annotation: String? = nil, language: String? = nil,
    attributes: [Attribute] = [], children: [CueNode] = []
  ) {
    self.kind = kind
    self.classes = classes
    self.annotation = annotation
    self.language = language
    self.attributes = attributes
    self.children = children
  }
}

extension CueNode {
  /// The text of the nodes in pre-order, without ruby text (`rt`) and its descendants: the
  /// spec's "rules for extracting the chapter title", useful as a plain rendering.
  ///
  /// - Parameter nodes: A cue text tree.
  /// - Returns: The concatenated text.
  /// - Complexity: O(n) in the number of nodes.
  public static func plainText(_ nodes: [CueNode]) -> String {
    var output = ""
    var stack: [ArraySlice<CueNode>] = [nodes[...]]
    while var level = stack.popLast() {
      guard let node = level.popFirst() else { continue }
      stack.append(level)
      switch node {
      case .text(let text): output += text
      case .timestamp: break
      case .element(let element):
        if element.kind != .rubyText { stack.append(element.children[...]) }
      }
    }
    return output
  }
}
