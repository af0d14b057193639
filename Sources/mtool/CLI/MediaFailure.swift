import MediaTracks

/// Maps a `MediaError` to the CLI's exit codes. With `input`, the path the libraries were given
/// for it is shown as the name the user typed (see ``openableInput(_:command:)``).
func mediaFailure(_ error: MediaError, command: String, input: String? = nil) -> CLIError {
  let text = input == nil ? error.description : restoringInputNames(error.description)
  return switch error.kind {
  case .notFound: CLIError.noInput(command, text)
  case .malformed, .noSuchStream: CLIError.data(command, text)
  case .invalidArgument: CLIError.usage(command, text)
  case .outputFailed, .other: CLIError.failure(command, text)
  }
}

/// `--timeout SECONDS` of the commands that read media.
let timeoutOption = OptionSpec(
  "timeout", value: "S",
  help:
    "Longest wait for one read of the input, seconds (default \(formatNumber(MediaProbe.defaultTimeout)))."
)

/// What `--timeout` means, for a command's help.
let timeoutHelp = """
  No read waits forever: opening the input, its stream-information pass and each packet \
  read must each finish within --timeout seconds (default \(formatNumber(MediaProbe.defaultTimeout))), \
  or the command fails (exit 1). Local files are read with no network access, and a file never \
  makes mtool open another (playlists of other files are refused).
  """

/// The `--timeout` value: `nil` when absent, else a positive, finite number of seconds.
func parseTimeout(_ arguments: ParsedArguments, command: String) throws(CLIError) -> Double? {
  guard let value = try arguments.double("timeout", command: command) else { return nil }
  guard value.isFinite, value > 0, value <= 1e9 else {
    throw CLIError.usage(
      command,
      "--timeout expects a positive number of seconds, got '\(arguments.value("timeout") ?? "")'")
  }
  return value
}
