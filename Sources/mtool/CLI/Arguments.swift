/// One option a subcommand accepts.
struct OptionSpec: Sendable {
  /// Long name without dashes, for example `"json"`.
  let name: String
  /// Optional one-letter alias, for example `"o"`.
  let short: Character?
  /// The value's placeholder in help (`"SECONDS"`); `nil` for a flag that takes no value.
  let valueName: String?
  /// One line of help.
  let help: String
  /// Whether the option may be given more than once, each value kept (`--header`). A value
  /// option that is not repeatable given twice is a usage error; a flag may be repeated.
  let repeatable: Bool

  init(
    _ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false,
    help: String
  ) {
    self.name = name
    self.short = short
    self.valueName = value
    self.repeatable = repeatable
    self.help = help
  }
}

/// The result of parsing a subcommand's arguments against its option table.
struct ParsedArguments: Sendable {
  /// Arguments that are not options, in order (`-` included).
  var positionals: [String] = []
  /// Option values by long name; a flag is stored with an empty value. Repeats of a
  /// repeatable option append.
  var options = OptionValues()

  /// Whether the flag or option `name` was given.
  func has(_ name: String) -> Bool { options[name] != nil }

  /// The value given for option `name` (the last, for a repeatable one), or `nil`.
  func value(_ name: String) -> String? { options[name]?.last }

  /// The value of `name` parsed as a `Double`, or `nil` when absent.
  /// - Throws: a usage error when present but not a number.
  func double(_ name: String, command: String) throws(CLIError) -> Double? {
    guard let text = value(name) else { return nil }
    guard let number = decimalNumber(text) else {
      throw CLIError.usage(command, "--\(name) expects a number, got '\(text)'")
    }
    return number
  }

  /// The value of `name` parsed as an `Int`, or `nil` when absent.
  /// - Throws: a usage error when present but not an integer.
  func int(_ name: String, command: String) throws(CLIError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text) else {
      throw CLIError.usage(command, "--\(name) expects an integer, got '\(text)'")
    }
    return number
  }
}

/// The values given for each option, by long name: a short list searched in order, not a
/// dictionary, whose generic storage type the runtime would look up by name at the first
/// command (some 170 K instructions, most of it a scan of every protocol conformance).
struct OptionValues: Sendable {
  private var entries: [Entry] = []

  private struct Entry: Sendable {
    var name: String
    var values: [String]
  }

  /// The values given for option `name`, in order, or `nil` when it was not given.
  subscript(name: String) -> [String]? {
    entries.first { $0.name == name }?.values
  }

  /// Records `value` given for option `name`, after its earlier values.
  mutating func append(_ value: String, to name: String) {
    if let index = entries.firstIndex(where: { $0.name == name }) {
      entries[index].values.append(value)
    } else {
      entries.append(Entry(name: name, values: [value]))
    }
  }
}

/// Parses `arguments` against `options`: `--name`, `--name value`, `--name=value`, `-x value`,
/// `--` to end options, and `-` as a positional (standard input or output).
///
/// - Throws: A usage error for an unknown option, a flag given a value, an option without its
///   value, and a value option that is not repeatable given more than once (under either of
///   its names), which would otherwise leave one of the values unused without a word.
func parseArguments(
  _ arguments: ArraySlice<String>, options: [OptionSpec], command: String
) throws(CLIError) -> ParsedArguments {
  var result = ParsedArguments()
  var index = arguments.startIndex
  var optionsEnded = false
  while index < arguments.endIndex {
    let argument = arguments[index]
    index += 1
    // `-0` is a negative number unless the command has a `-0` option (`--null`).
    let isShortOption = argument.count == 2 && options.contains { $0.short == argument.last }
    if optionsEnded || argument == "-" || !argument.hasPrefix("-")
      || (isNegativeNumber(argument) && !isShortOption)
    {
      result.positionals.append(argument)
      continue
    }
    if argument == "--" {
      optionsEnded = true
      continue
    }
    var name: Substring
    var inlineValue: String? = nil
    let spec: OptionSpec?
    if argument.hasPrefix("--") {
      name = argument.dropFirst(2)
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = name[..<equals]
      }
      spec = options.first { $0.name == name }
    } else {
      name = argument.dropFirst()
      spec = name.count == 1 ? options.first { $0.short == name.first } : nil
    }
    guard let spec else { throw CLIError.usage(command, "unknown option '\(argument)'") }
    if spec.valueName == nil {
      if inlineValue != nil {
        throw CLIError.usage(command, "option '--\(spec.name)' takes no value")
      }
      result.options.append("", to: spec.name)
      continue
    }
    if !spec.repeatable, result.has(spec.name) {
      throw CLIError.usage(
        command, "option '--\(spec.name)' is given more than once; it takes one value")
    }
    if let inlineValue {
      result.options.append(inlineValue, to: spec.name)
    } else if index < arguments.endIndex {
      result.options.append(arguments[index], to: spec.name)
      index += 1
    } else {
      throw CLIError.usage(command, "option '--\(spec.name)' needs a value")
    }
  }
  return result
}

/// `-1`, `-0.5`: a negative number given where a positional or value is expected.
private func isNegativeNumber(_ text: String) -> Bool {
  text.count > 1 && text.hasPrefix("-") && Double(text) != nil
}

extension Substring {
  /// The substring without leading and trailing spaces (for comma-separated option values).
  var trimmingSpaces: Substring {
    var s = self
    while s.first == " " { s = s.dropFirst() }
    while s.last == " " { s = s.dropLast() }
    return s
  }
}

/// `text` (spaces around it ignored) as a decimal number: digits with an optional sign, point
/// and exponent, as people write them. `Double.init` alone also takes hexadecimal (`0x10`),
/// `inf` and `nan`, which are not what a user means by a time or a speed.
func decimalNumber(_ text: some StringProtocol) -> Double? {
  let core = Substring(text).trimmingSpaces
  guard !core.isEmpty, core.allSatisfy({ "0123456789.eE+-".contains($0) }) else { return nil }
  return Double(core)
}
