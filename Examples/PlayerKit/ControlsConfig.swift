/// A custom key's value, as player SDKs pass them to plugins.
public enum PluginValue: Hashable, Sendable, Codable {
  /// A number.
  case number(Double)
  /// A list of numbers.
  case numbers([Double])
  /// A string.
  case string(String)
  /// A list of strings.
  case strings([String])
}

/// The player controls configuration: which plugins are enabled and their custom keys
/// (`speed.options`, `speed.labels`, …), the way player SDKs configure their plugins.
///
/// ```swift
/// var config = ControlsConfig()
/// config.enablePlugins(["speed", "asel", "subtitles"])
/// config["speed.options"] = .numbers([0.5, 1, 2])
/// config["speed.labels"] = .strings(["Slow", "Normal", "Fast"])
/// ```
public struct ControlsConfig: Hashable, Sendable, Codable {
  /// The plugin ids the player knows: `speed`, `asel` (audio selection) and `subtitles`.
  public static let knownPlugins = ["speed", "asel", "subtitles"]

  /// The enabled plugin ids, in the order they were enabled.
  public private(set) var plugins: [String] = []
  /// Custom keys, `<plugin>.<key>`.
  public var keys: [String: PluginValue] = [:]
  /// The viewer's preferred languages (BCP-47 or ISO 639-2), most preferred first.
  public var preferredLanguages: [String] = []
  /// A side-loaded subtitle file (WebVTT or SRT), shown instead of the default subtitles.
  public var sideloadedSubtitles: String? = nil

  /// Creates an empty configuration: no plugins, no keys.
  public init() {}

  /// Enables plugins by id; ids already enabled are kept once.
  /// - Parameter ids: plugin ids; unknown ids are rejected when the session starts.
  public mutating func enablePlugins(_ ids: [String]) {
    for id in ids where !plugins.contains(id) { plugins.append(id) }
  }

  /// Whether `id` is enabled.
  public func isEnabled(_ id: String) -> Bool { plugins.contains(id) }

  /// The custom key `key` (for example `speed.options`), or `nil`.
  public subscript(key: String) -> PluginValue? {
    get { keys[key] }
    set { keys[key] = newValue }
  }
}

/// What the player remembers between sessions: the viewer's last audio and subtitle choices.
/// A session returns it (``PlayerSession/memory``); passed back into the next session it wins
/// over the default track choice, as players do.
public struct PlayerMemory: Hashable, Sendable, Codable {
  /// The BCP-47 language of the last audio track the viewer chose, or `nil` when none was.
  public var audioLanguage: String?
  /// The BCP-47 language of the last in-media subtitle track the viewer chose, or `nil`.
  public var subtitleLanguage: String?
  /// Whether the viewer last turned subtitles off.
  public var subtitlesOff: Bool

  /// Creates a memory; the default remembers nothing.
  public init(
    audioLanguage: String? = nil, subtitleLanguage: String? = nil, subtitlesOff: Bool = false
  ) {
    self.audioLanguage = audioLanguage
    self.subtitleLanguage = subtitleLanguage
    self.subtitlesOff = subtitlesOff
  }
}
