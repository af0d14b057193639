/// A JSON value, for building machine output. Object keys keep their insertion order.
enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case int(Int)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// Serialises the value compactly (no insignificant whitespace).
  var serialized: String {
    var out = ""
    write(to: &out)
    return out
  }

  /// Appends the compact serialisation to `out`.
  func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let d): out += JSON.number(d)
    case .int(let i): out += String(i)
    case .string(let s): JSON.appendQuoted(s, to: &out)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        item.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        JSON.appendQuoted(key, to: &out)
        out += ":"
        value.write(to: &out)
      }
      out += "}"
    }
  }
}

/// JSON text helpers.
enum JSON {
  /// A number as JSON: integers without a fraction, non-finite values as `null`.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }

  /// Appends `text` as a quoted JSON string with the required escapes.
  static func appendQuoted(_ text: String, to out: inout String) {
    out += "\""
    var needsEscape = false
    for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
      needsEscape = true
      break
    }
    if !needsEscape {
      out += text
    } else {
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }

  /// `text` as a quoted JSON string.
  static func quoted(_ text: String) -> String {
    var out = ""
    appendQuoted(text, to: &out)
    return out
  }
}
