import MediaTracks

/// Maps a `MediaError` to the CLI's exit codes.
func mediaFailure(_ error: MediaError, command: String) -> CLIError {
  switch error.kind {
  case .notFound: CLIError.noInput(command, error.description)
  case .malformed, .noSuchStream: CLIError.data(command, error.description)
  case .invalidArgument: CLIError.usage(command, error.description)
  case .outputFailed, .other: CLIError.failure(command, error.description)
  }
}
