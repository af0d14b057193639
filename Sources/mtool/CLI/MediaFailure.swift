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
