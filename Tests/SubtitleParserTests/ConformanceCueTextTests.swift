import Foundation
import SubtitleParser
import Testing

/// One case of the web-platform-tests cue-text suites.
struct WPTCueTextCase: Decodable, CustomTestStringConvertible, Sendable {
  var suite: String = ""
  var id: String
  var cueText: String
  var vtt: String
  var expectedTree: [WPTNode]

  enum CodingKeys: String, CodingKey {
    case id
    case cueText = "cue_text"
    case vtt
    case expectedTree = "expected_tree"
  }

  var testDescription: String { "\(suite) \(String(reflecting: cueText))" }

  static func all() -> [WPTCueTextCase] {
    struct File: Decodable { var cases: [WPTCueTextCase] }
    var cases: [WPTCueTextCase] = []
    for suite in WPT.names("cue-text-parsing") {
      guard let data = try? WPT.data("json/cue-text-parsing/\(suite).json"),
        let file = try? JSONDecoder().decode(File.self, from: data)
      else { continue }
      cases += file.cases.map {
        var copy = $0
        copy.suite = suite
        return copy
      }
    }
    return cases
  }
}

/// A node of `expected_tree`.
indirect enum WPTNode: Decodable, Equatable, Sendable {
  case text(String)
  case timestamp(String)
  case element(name: String, attributes: [String: String], children: [WPTNode])

  enum CodingKeys: String, CodingKey {
    case type, value, name, attributes, children
  }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .type) {
    case "text": self = .text(try container.decode(String.self, forKey: .value))
    case "timestamp": self = .timestamp(try container.decode(String.self, forKey: .value))
    default:
      self = .element(
        name: try container.decode(String.self, forKey: .name),
        attributes: try container.decode([String: String].self, forKey: .attributes),
        children: try container.decode([WPTNode].self, forKey: .children))
    }
  }

  init(_ node: CueHTMLNode) {
    switch node {
    case .text(let text): self = .text(text)
    case .processingInstruction(_, let data): self = .timestamp(data)
    case .element(let name, let attributes, let children):
      self = .element(name: name, attributes: attributes, children: children.map(WPTNode.init))
    }
  }
}

@Suite struct ConformanceCueTextTests {
  static let cases = WPTCueTextCase.all()

  @Test func suiteIsComplete() {
    #expect(Self.cases.count == 77)
  }

  @Test(arguments: cases)
  func cueText(_ testCase: WPTCueTextCase) throws {
    let document = try WebVTT.parse(Array(testCase.vtt.utf8))
    let cue = try #require(document.cues.first)
    let tree = CueNode.html(document.cueTree(of: cue)).map(WPTNode.init)
    #expect(tree == testCase.expectedTree)
  }
}
