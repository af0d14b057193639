/// Process exit codes, as documented in `mtool --help`.
enum ExitCode: Int32, Sendable {
  /// Success.
  case ok = 0
  /// Any other failure (for example an output that cannot be written).
  case failure = 1
  /// Bad command line (EX_USAGE).
  case usage = 64
  /// Malformed input data (EX_DATAERR).
  case dataError = 65
  /// Missing or unreadable input (EX_NOINPUT).
  case noInput = 66
}

/// An error that ends the command: printed as `mtool: <command>: <message>` with its exit code.
struct CLIError: Error, Sendable {
  /// The exit code the process ends with.
  let code: ExitCode
  /// The subcommand the error belongs to, or `nil` for the top level.
  let command: String?
  /// One line, without a trailing newline.
  let message: String

  static func usage(_ command: String?, _ message: String) -> CLIError {
    CLIError(code: .usage, command: command, message: message)
  }

  static func data(_ command: String?, _ message: String) -> CLIError {
    CLIError(code: .dataError, command: command, message: message)
  }

  static func noInput(_ command: String?, _ message: String) -> CLIError {
    CLIError(code: .noInput, command: command, message: message)
  }

  static func failure(_ command: String?, _ message: String) -> CLIError {
    CLIError(code: .failure, command: command, message: message)
  }

  /// Standard output could not take what was written (closed, or its disk full): exit 1.
  static func standardOutputFailed(_ command: String?) -> CLIError {
    CLIError(code: .failure, command: command, message: "cannot write to standard output")
  }

  /// The line written to stderr: line breaks become spaces, and control characters (an escape
  /// sequence from a file name, say) and the bytes of names that are not UTF-8 are shown
  /// escaped (see ``displayText(_:)``), so a message cannot drive the terminal.
  var line: String {
    let flat = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    if let command { return displayText("mtool: \(command): \(flat)") }
    return displayText("mtool: \(flat)")
  }
}
