/// The playback state a mini-player shows.
public enum PlaybackState: String, Hashable, Sendable, Codable {
  /// Configured and ready, not started yet.
  case ready
  /// Playing: the simulated clock renders audio.
  case playing
  /// Paused: the clock runs, nothing is rendered.
  case paused
  /// The media (or the script) ended.
  case ended
  /// Destroyed: every resource is released.
  case destroyed
}

/// One event of a player session, with the player's state when it happened.
public struct PlayerEvent: Hashable, Sendable, Codable {
  /// What happened.
  public enum Kind: String, Hashable, Sendable, Codable {
    /// The media is probed, the plugins are configured and the tracks chosen.
    case ready
    /// Playback started (``PlayerEvent/detail`` is `first` the first time) or resumed.
    case play
    /// Playback paused.
    case pause
    /// The position after a clock step of the script (what a progress bar shows).
    case time
    /// The playback speed changed.
    case speed
    /// The audio track changed.
    case audio
    /// The subtitle source changed (a track, the side-loaded file or off).
    case subtitles
    /// The subtitle delay changed.
    case delay
    /// The position jumped.
    case seek
    /// A cue became visible.
    case cueEnter = "cue-enter"
    /// A cue stopped being visible.
    case cueExit = "cue-exit"
    /// Playback reached the end of the media, or the script ended it.
    case ended
    /// Sent to observers after every render block; not kept in the log.
    case timeUpdate = "time-update"
  }

  /// What happened.
  public var kind: Kind
  /// The simulated wall clock, seconds since the session started.
  public var clock: Double
  /// The media position in seconds, on the decoded audio's timeline: 0 is the first sample
  /// `AudioDecoder` returns. Cue times are on the container's timeline; the two differ by the
  /// priming samples FFmpeg keeps (none for Opus, 1024 samples for AAC in Matroska).
  public var position: Double
  /// The media position in samples of the playing audio track (exact, from the stretcher's
  /// media-time map).
  public var sample: Int
  /// The sample rate of ``sample`` (Hz).
  public var sampleRate: Int
  /// The output frames rendered since the session started, across seeks and track changes.
  public var outputFrames: Int
  /// The playback speed (media seconds per output second).
  public var speed: Double

  /// The playback speed under its former name.
  @available(*, deprecated, renamed: "speed")
  public var rate: Double { speed }
  /// The container stream index of the playing audio track.
  public var audio: Int?
  /// The subtitle source: a container stream index as text, `file` for the side-loaded file,
  /// or `nil` when subtitles are off.
  public var subtitles: String?
  /// The subtitle delay in seconds.
  public var delay: Double
  /// The indices of the visible cues (into the current subtitle source's cues), timeline order.
  public var activeCues: [Int]
  /// For cue events: the cue index.
  public var cue: Int?
  /// For cue events: the cue's text.
  public var text: String?
  /// Details: `first` for the first play; the old and new value for changes (`1 -> 2 Fast`);
  /// `script` or `media` for ended.
  public var detail: String

  /// Creates an event.
  public init(
    kind: Kind, clock: Double, position: Double, sample: Int, sampleRate: Int, outputFrames: Int,
    speed: Double, audio: Int?, subtitles: String?, delay: Double, activeCues: [Int],
    cue: Int? = nil, text: String? = nil, detail: String = ""
  ) {
    self.kind = kind
    self.clock = clock
    self.position = position
    self.sample = sample
    self.sampleRate = sampleRate
    self.outputFrames = outputFrames
    self.speed = speed
    self.audio = audio
    self.subtitles = subtitles
    self.delay = delay
    self.activeCues = activeCues
    self.cue = cue
    self.text = text
    self.detail = detail
  }

  /// One line for a log: clock, position (seconds with 3 decimals and the sample), speed,
  /// event, tracks, visible cues and details.
  public var logLine: String {
    var line = "\(Self.fixed(clock)) \(Self.fixed(position)) [\(sample)] \(Self.speedText(speed)) "
    line += kind.rawValue
    line += " audio=\(audio.map(String.init) ?? "-") subs=\(subtitles ?? "off")"
    if delay != 0 { line += " delay=\(Self.fixed(delay))" }
    line += " cues=[\(activeCues.map(String.init).joined(separator: ","))]"
    if let cue { line += " cue=\(cue)" }
    if let text { line += " \"\(text.replacing("\n", with: "\\n"))\"" }
    if !detail.isEmpty { line += " \(detail)" }
    return line
  }

  /// `x` with exactly 3 decimals.
  static func fixed(_ x: Double) -> String {
    let millis = Int((abs(x) * 1000).rounded())
    let fraction = String(millis % 1000)
    let sign = x < 0 && millis != 0 ? "-" : ""
    return sign + String(millis / 1000) + "." + String(repeating: "0", count: 3 - fraction.count)
      + fraction
  }

  /// `2x`, `0.5x`.
  static func speedText(_ speed: Double) -> String {
    var text = "\(speed)"
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text + "x"
  }
}
