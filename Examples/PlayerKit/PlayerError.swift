import MediaTracks
import SubtitleParser
import TimeStretch

/// Everything a player session or one of its plugins can fail with.
public enum PlayerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A plugin id the controls config enables that no plugin has.
  case unknownPlugin(String)
  /// A custom key that is unknown to its plugin or holds the wrong kind of value.
  case invalidKey(String, reason: String)
  /// The speed plugin's keys do not make a valid menu (the menu's own error).
  case speedMenu(StretchError)
  /// A script that cannot be parsed: the command as written and why.
  case badScript(command: String, reason: String)
  /// A script command that cannot be carried out now (not a menu speed, no such track, a
  /// plugin that is not enabled).
  case badCommand(command: String, reason: String)
  /// A command-line usage error.
  case usage(String)
  /// The media file cannot be probed or decoded.
  case media(MediaError)
  /// A side-loaded subtitle file cannot be read (missing or unreadable).
  case subtitleFileUnreadable(path: String)
  /// A side-loaded subtitle file is not subtitles.
  case subtitles(path: String, SubtitleError)
  /// The audio cannot be stretched (an unsupported sample rate or channel count).
  case stretch(StretchError)
  /// An output file (the remembered choices) cannot be written.
  case outputFailed(path: String)

  /// Whether the error is the caller's (bad keys, script or arguments) rather than the input's.
  public var isUsageError: Bool {
    switch self {
    case .unknownPlugin, .invalidKey, .speedMenu, .badScript, .badCommand, .usage: true
    case .media, .subtitleFileUnreadable, .subtitles, .stretch, .outputFailed: false
    }
  }

  /// The process exit code a command-line front end uses: 64 for usage errors, 66 for missing
  /// input, 65 for malformed input, 1 for an output that cannot be written.
  public var exitCode: Int32 {
    switch self {
    case .unknownPlugin, .invalidKey, .speedMenu, .badScript, .badCommand, .usage: 64
    case .subtitleFileUnreadable: 66
    case .media(let error): error.kind == .notFound ? 66 : 65
    case .subtitles, .stretch: 65
    case .outputFailed: 1
    }
  }

  /// A one-line description.
  public var description: String {
    switch self {
    case .unknownPlugin(let id): "unknown plugin '\(id)' (known: speed, asel, subtitles)"
    case .invalidKey(let key, let reason): "\(key): \(reason)"
    case .speedMenu(let error): "speed.options: \(error.description)"
    case .badScript(let command, let reason): "script: '\(command)': \(reason)"
    case .badCommand(let command, let reason): "'\(command)': \(reason)"
    case .usage(let message): message
    case .media(let error): error.description
    case .subtitleFileUnreadable(let path): "cannot read '\(path)'"
    case .subtitles(let path, let error): "'\(path)': \(error.description)"
    case .stretch(let error): error.description
    case .outputFailed(let path): "cannot write '\(path)'"
    }
  }
}
