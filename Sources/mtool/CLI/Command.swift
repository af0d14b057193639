/// A subcommand: its name, help text, option table and the function that runs it.
struct Command: Sendable {
  /// The word after `mtool`.
  let name: String
  /// One line for `mtool --help`.
  let summary: String
  /// The usage line(s), without the leading `usage: `.
  let usage: String
  /// Accepted options.
  let options: [OptionSpec]
  /// Further help: arguments, behaviour, examples.
  let details: String
  /// Runs the command; the returned code becomes the exit status.
  let run: @Sendable (ParsedArguments) throws(CLIError) -> ExitCode

  /// The full `mtool help <name>` text.
  var help: String {
    var text = "usage: \(usage)\n\n\(summary)\n"
    if !details.isEmpty { text += "\n\(details)\n" }
    let all = options + [OptionSpec("help", short: "h", help: "Show this help.")]
    text += "\noptions:\n"
    for option in all {
      var left = "  "
      if let short = option.short { left += "-\(short), " } else { left += "    " }
      left += "--\(option.name)"
      if let value = option.valueName { left += " \(value)" }
      let pad = max(1, 30 - left.count)
      text += left + String(repeating: " ", count: pad) + option.help + "\n"
    }
    text += "\n" + exitCodeHelp
    return text
  }
}

/// The exit-code table shown in every help text.
let exitCodeHelp = """
  exit codes:
    0   success
    1   failure (for example an output that cannot be written)
    64  usage error (unknown command or option, bad value, a one-value option given twice)
    65  malformed input (not subtitles, not media, no audio track)
    66  missing or unreadable input

  """
