import Foundation
import SubtitleParser

/// Locates the web-platform-tests WebVTT data copied under `Tests/Fixtures/wpt-webvtt`.
enum WPT {
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Fixtures/wpt-webvtt")

  static func data(_ relativePath: String) throws -> Data {
    try Data(contentsOf: root.appendingPathComponent(relativePath))
  }

  static func bytes(_ relativePath: String) throws -> [UInt8] {
    [UInt8](try data(relativePath))
  }

  /// Names of the JSON files in `json/<suite>/`, sorted, without extension.
  static func names(_ suite: String) -> [String] {
    let folder = root.appendingPathComponent("json/\(suite)")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
  }

  /// The file-parsing inputs that exist, as relative paths.
  static func fileParsingInputs() -> [String] {
    let folder = root.appendingPathComponent("inputs/file-parsing")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.filter { $0.hasSuffix(".vtt") }.sorted().map { "inputs/file-parsing/\($0)" }
  }
}

/// A JavaScript value as the VTTCue / VTTRegion IDL attributes report it.
enum JSValue: Equatable, Decodable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  /// A VTTRegion object, identified by its index in the document's regions.
  case region(Int)

  init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else {
      self = .string(try container.decode(String.self))
    }
  }

  var description: String {
    switch self {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .number(let value): "\(value)"
    case .string(let value): "\"\(value)\""
    case .region(let index): "VTTRegion#\(index)"
    }
  }
}

/// One assertion of a file-parsing test.
struct WPTAssertion: Decodable {
  enum Expected {
    case value(JSValue)
    case sameObjectAs(String)
  }

  var actual: String
  var op: String
  var expected: Expected?
  var msg: String?

  enum CodingKeys: String, CodingKey {
    case actual, op, expected, msg
  }

  private struct SameObject: Decodable {
    var sameObjectAs: String
    enum CodingKeys: String, CodingKey {
      case sameObjectAs = "same_object_as"
    }
  }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    actual = try container.decode(String.self, forKey: .actual)
    op = try container.decode(String.self, forKey: .op)
    msg = try container.decodeIfPresent(String.self, forKey: .msg)
    if !container.contains(.expected) {
      expected = nil
    } else if let same = try? container.decode(SameObject.self, forKey: .expected) {
      expected = .sameObjectAs(same.sameObjectAs)
    } else {
      expected = .value(try container.decode(JSValue.self, forKey: .expected))
    }
  }
}

/// One file-parsing test (`json/file-parsing/<name>.json`).
struct WPTFileTest: Decodable {
  var name: String
  var expect: String
  var cueCount: Int?
  var input: String?
  var inputMissing: Bool?
  var assertions: [WPTAssertion]?

  enum CodingKeys: String, CodingKey {
    case name, expect, input, assertions
    case cueCount = "cue_count"
    case inputMissing = "input_missing"
  }
}

/// Evaluates IDL property paths such as `cues[3].region.lines` against a parsed document.
struct IDLView {
  var document: SubtitleDocument

  enum Failure: Error, CustomStringConvertible {
    case badPath(String)
    var description: String {
      switch self {
      case .badPath(let path): "cannot evaluate \(path)"
      }
    }
  }

  func evaluate(_ path: String) throws -> JSValue {
    if path == "cues.length" { return .number(Double(document.cues.count)) }
    guard path.hasPrefix("cues["), let close = path.firstIndex(of: "]"),
      let index = Int(path[path.index(path.startIndex, offsetBy: 5)..<close])
    else { throw Failure.badPath(path) }
    guard document.cues.indices.contains(index) else { throw Failure.badPath(path) }
    let cue = document.cues[index]
    let rest = path[path.index(after: close)...]
    guard rest.hasPrefix(".") else { throw Failure.badPath(path) }
    let property = String(rest.dropFirst())
    if property.hasPrefix("region.") {
      guard let region = document.region(of: cue) else { return .null }
      return try regionProperty(region, String(property.dropFirst(7)), path)
    }
    let settings = cue.settings
    switch property {
    case "id": return .string(document.id(of: cue))
    case "text": return .string(document.text(of: cue))
    case "startTime": return .number(cue.startTime)
    case "endTime": return .number(cue.endTime)
    case "line": return settings.line.map(JSValue.number) ?? .string("auto")
    case "snapToLines": return .bool(settings.snapToLines)
    case "lineAlign": return .string(settings.lineAlign.rawValue)
    case "position": return settings.position.map(JSValue.number) ?? .string("auto")
    case "positionAlign": return .string(settings.positionAlign.rawValue)
    case "size": return .number(settings.size)
    case "align": return .string(settings.align.rawValue)
    case "vertical": return .string(settings.vertical.rawValue)
    case "region": return settings.region.map(JSValue.region) ?? .null
    default: throw Failure.badPath(path)
    }
  }

  private func regionProperty(_ region: Region, _ name: String, _ path: String) throws -> JSValue {
    switch name {
    case "id": return .string(region.id)
    case "width": return .number(region.width)
    case "lines": return .number(region.lineCount)
    case "regionAnchorX": return .number(region.regionAnchorX)
    case "regionAnchorY": return .number(region.regionAnchorY)
    case "viewportAnchorX": return .number(region.viewportAnchorX)
    case "viewportAnchorY": return .number(region.viewportAnchorY)
    case "scroll": return .string(region.scroll)
    default: throw Failure.badPath(path)
    }
  }
}
