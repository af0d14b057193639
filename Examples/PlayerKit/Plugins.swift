import MediaTracks
import SubtitleParser
import TimeStretch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a plugin is in the life cycle player SDKs give plugins.
public enum PluginState: String, Hashable, Sendable, Codable {
  /// Created, not configured.
  case created
  /// Configured: holds its menu, tracks or cues.
  case configured
  /// Destroyed: holds nothing.
  case destroyed
}

/// The `speed` plugin: turns the custom keys `speed.options`, `speed.labels` and `speed.default`
/// into a ``SpeedMenu``.
public final class SpeedPlugin {
  /// The plugin id.
  public static let id = "speed"
  /// The keys the plugin reads.
  public static let keys = ["speed.options", "speed.labels", "speed.default"]
  /// The life-cycle state.
  public private(set) var state: PluginState = .created
  /// The menu, while configured.
  public private(set) var menu: SpeedMenu?

  /// Creates an unconfigured plugin.
  public init() {}

  /// Builds the menu from the custom keys (the standard menu when `speed.options` is absent).
  /// - Parameter config: the controls config.
  /// - Throws: ``PlayerError/invalidKey(_:reason:)`` for an unknown `speed.` key or a value of
  ///   the wrong kind, ``PlayerError/speedMenu(_:)`` when the speeds and labels do not make a menu.
  public func configure(_ config: ControlsConfig) throws(PlayerError) {
    for key in config.keys.keys.sorted() where key.hasPrefix("speed.") && !Self.keys.contains(key) {
      throw .invalidKey(key, reason: "unknown key of the speed plugin (options, labels, default)")
    }
    var speeds = SpeedMenu.standard.speeds
    switch config["speed.options"] {
    case nil: break
    case .numbers(let list)?: speeds = list
    case .number(let value)?: speeds = [value]
    default: throw .invalidKey("speed.options", reason: "expects a list of numbers")
    }
    var labels: [String]? = nil
    switch config["speed.labels"] {
    case nil: break
    case .strings(let list)?: labels = list
    case .string(let label)?: labels = [label]
    default: throw .invalidKey("speed.labels", reason: "expects a list of strings")
    }
    var chosen: Double? = nil
    switch config["speed.default"] {
    case nil: break
    case .number(let rate)?: chosen = rate
    default: throw .invalidKey("speed.default", reason: "expects a number")
    }
    do {
      menu = try SpeedMenu(speeds: speeds, labels: labels, defaultSpeed: chosen)
    } catch {
      throw .speedMenu(error)
    }
    state = .configured
  }

  /// The menu speed a `speed` command selects.
  /// - Parameters:
  ///   - choice: the command's choice.
  ///   - current: the playing speed.
  ///   - command: the command as written, for errors.
  /// - Throws: ``PlayerError/badCommand(command:reason:)`` when the speed is not in the menu.
  public func speed(
    for choice: ScriptCommand.Speed, current: Double, command: String
  ) throws(PlayerError) -> Double {
    guard let menu else {
      throw .badCommand(command: command, reason: "the speed plugin is destroyed")
    }
    switch choice {
    case .up: return menu.stepUp(from: current)
    case .down: return menu.stepDown(from: current)
    case .exact(let wanted):
      guard menu.label(for: wanted) != nil else {
        let list = menu.speeds.map { PlayerEvent.speedText($0) }.joined(separator: ", ")
        throw .badCommand(command: command, reason: "\(wanted) is not a menu speed (\(list))")
      }
      return wanted
    }
  }

  /// ``speed(for:current:command:)`` under its former name.
  @available(*, deprecated, renamed: "speed(for:current:command:)")
  public func rate(
    for choice: ScriptCommand.Speed, current: Double, command: String
  ) throws(PlayerError) -> Double {
    try speed(for: choice, current: current, command: command)
  }

  /// Releases the menu.
  public func destroy() {
    menu = nil
    state = .destroyed
  }
}

/// The `asel` plugin: the audio-track menu and its choice, from ``MediaProbe``.
public final class AudioSelectionPlugin {
  /// The plugin id.
  public static let id = "asel"
  /// The life-cycle state.
  public private(set) var state: PluginState = .created
  /// The audio tracks with their menu labels, in stream order.
  public private(set) var tracks: [AudioTrack] = []
  /// The track chosen at configuration: the remembered language when a track has it, else the
  /// probe's default for the preferred languages.
  public private(set) var initial: AudioTrack?

  /// Creates an unconfigured plugin.
  public init() {}

  /// Takes the probed tracks and makes the initial choice.
  /// - Parameters:
  ///   - info: the probe result (for the viewer's preferred languages).
  ///   - memory: the remembered choice, which wins over the default.
  public func configure(info: MediaInfo, memory: PlayerMemory) {
    tracks = info.audio
    initial = info.audio.first { $0.index == info.defaultAudio }
    if let language = memory.audioLanguage.flatMap({ LanguageTag.bcp47($0) }),
      let remembered = TrackSelection.defaultAudio(
        in: info.audio.filter {
          TrackSelection.matchRank($0.language, preferences: [language]) != nil
        }, preferences: TrackPreferences(languages: [language]))
    {
      initial = remembered
    }
    state = .configured
  }

  /// The track an `audio` command selects.
  /// - Parameters:
  ///   - choice: the command's choice.
  ///   - current: the playing track's stream index.
  ///   - command: the command as written, for errors.
  /// - Throws: ``PlayerError/badCommand(command:reason:)`` when there is no such track.
  public func track(
    for choice: ScriptCommand.Audio, current: Int?, command: String
  ) throws(PlayerError) -> AudioTrack {
    guard !tracks.isEmpty else { throw .badCommand(command: command, reason: "no audio tracks") }
    switch choice {
    case .next:
      let position = tracks.firstIndex { $0.index == current } ?? -1
      return tracks[(position + 1) % tracks.count]
    case .index(let index):
      guard let track = tracks.first(where: { $0.index == index }) else {
        let list = tracks.map { String($0.index) }.joined(separator: ", ")
        throw .badCommand(command: command, reason: "no audio track \(index) (tracks: \(list))")
      }
      return track
    case .language(let raw):
      guard let language = LanguageTag.bcp47(raw) else {
        throw .badCommand(command: command, reason: "'\(raw)' is not a language tag")
      }
      let matching = tracks.filter {
        TrackSelection.matchRank($0.language, preferences: [language]) != nil
      }
      guard
        let track = TrackSelection.defaultAudio(
          in: matching, preferences: TrackPreferences(languages: [language]))
      else {
        throw .badCommand(command: command, reason: "no audio track in '\(language)'")
      }
      return track
    }
  }

  /// Releases the track list.
  public func destroy() {
    tracks = []
    initial = nil
    state = .destroyed
  }
}

/// A subtitle source: an in-media track or the side-loaded file.
public enum SubtitleSource: Hashable, Sendable {
  /// An in-media text subtitle track, by container stream index.
  case track(Int)
  /// The side-loaded file.
  case file

  /// `3` or `file`.
  public var name: String {
    switch self {
    case .track(let index): String(index)
    case .file: "file"
    }
  }
}

/// What a subtitle change made visible and invisible, as cue indices in timeline order.
public struct CueChanges: Hashable, Sendable {
  /// Cues that became visible.
  public var entered: [Int] = []
  /// Cues that stopped being visible.
  public var exited: [Int] = []
}

/// The `subtitles` plugin: the side-loaded file (``SubtitleFile``) or an in-media text track
/// (``SubtitleStreamReader``) on a ``CueTimeline``.
public final class SubtitlesPlugin {
  /// The plugin id.
  public static let id = "subtitles"
  /// The life-cycle state.
  public private(set) var state: PluginState = .created
  /// The in-media subtitle tracks with their menu labels.
  public private(set) var tracks: [SubtitleTrack] = []
  /// The source shown, or `nil` for off.
  public private(set) var source: SubtitleSource?
  /// Whether the source follows the audio language (nobody chose one): forced subtitles in the
  /// audio's language, as ``TrackSelection/defaultSubtitle(in:audio:preferences:)`` picks them.
  public private(set) var automatic = true
  /// The cues of the shown source.
  public private(set) var document: SubtitleDocument?
  private var timeline: CueTimeline?
  private var sideloaded: SubtitleDocument?
  private var path = ""
  private var preferences = TrackPreferences()
  private var delay: Double = 0

  /// Creates an unconfigured plugin.
  public init() {}

  /// The subtitle delay in seconds.
  public var offset: Double { delay }

  /// The visible cues.
  public var active: [Int] { timeline.map { $0.active(at: lastPosition) } ?? [] }
  private var lastPosition: Double = 0

  /// Reads the side-loaded file and makes the initial choice: the remembered choice, else the
  /// side-loaded file, else the default for the audio that plays.
  /// - Parameters:
  ///   - config: the controls config (side-loaded file, preferred languages).
  ///   - info: the probe result.
  ///   - audio: the audio track that plays.
  ///   - memory: the remembered choice.
  /// - Throws: ``PlayerError`` when the side-loaded file or the chosen track cannot be read.
  public func configure(
    config: ControlsConfig, info: MediaInfo, audio: AudioTrack?, memory: PlayerMemory
  ) throws(PlayerError) {
    path = info.path
    tracks = info.subtitles
    preferences = TrackPreferences(languages: config.preferredLanguages)
    if let file = config.sideloadedSubtitles {
      sideloaded = try Self.load(file: file)
    }
    var initial: SubtitleSource? = nil
    if memory.subtitlesOff {
      automatic = false
    } else if let language = memory.subtitleLanguage.flatMap({ LanguageTag.bcp47($0) }),
      let track = tracks.first(where: {
        !$0.isForced && TrackSelection.matchRank($0.language, preferences: [language]) != nil
      })
    {
      initial = .track(track.index)
      automatic = false
    } else if sideloaded != nil {
      initial = .file
      automatic = false
    } else {
      initial = defaultTrack(for: audio).map { .track($0) }
    }
    state = .configured
    _ = try select(initial, at: 0)
  }

  /// Shows `source` (or nothing) at media time `position`.
  /// - Returns: the cues of the old source that exit (as `exited`, indices into the old
  ///   document) and those of the new one that enter.
  public func select(_ newSource: SubtitleSource?, at position: Double) throws(PlayerError)
    -> (old: SubtitleDocument?, exited: [Int], entered: [Int])
  {
    let old = document
    let exited = timeline.map { $0.active(at: lastPosition) } ?? []
    var next: SubtitleDocument? = nil
    switch newSource {
    case nil: break
    case .file?: next = sideloaded
    case .track(let index)?:
      do {
        next = try Self.document(path: path, streamIndex: index)
      } catch {
        throw .media(error)
      }
    }
    source = next == nil ? nil : newSource
    document = next
    timeline = next.map { CueTimeline(cues: $0.cues, offset: delay) }
    lastPosition = position
    var entered: [Int] = []
    if var line = timeline {
      entered = line.seek(to: position).entered
      timeline = line
    }
    return (old, exited, entered)
  }

  /// A choice the viewer made: no longer automatic.
  public func choose(_ newSource: SubtitleSource?, at position: Double) throws(PlayerError)
    -> (old: SubtitleDocument?, exited: [Int], entered: [Int])
  {
    automatic = false
    return try select(newSource, at: position)
  }

  /// The source to show after the audio changed to `audio`, when it follows the audio.
  public func followAudio(_ audio: AudioTrack) -> SubtitleSource?? {
    guard automatic else { return nil }
    let wanted = defaultTrack(for: audio).map { SubtitleSource.track($0) }
    return wanted == source ? nil : .some(wanted)
  }

  /// Playback reached `position`: the cues that entered and exited on the way.
  public func advance(to position: Double) -> CueChanges {
    lastPosition = position
    guard var line = timeline else { return CueChanges() }
    let (entered, exited) = line.advance(to: position)
    timeline = line
    return CueChanges(entered: entered, exited: exited)
  }

  /// The position jumped to `position` (a seek, or `.infinity` at the end): the difference.
  public func jump(to position: Double) -> CueChanges {
    lastPosition = position
    guard var line = timeline else { return CueChanges() }
    let (entered, exited) = line.seek(to: position)
    timeline = line
    return CueChanges(entered: entered, exited: exited)
  }

  /// Sets the delay at media time `position`: the cues that entered and exited because of it.
  public func setDelay(_ seconds: Double, at position: Double) -> CueChanges {
    delay = seconds
    timeline?.offset = seconds
    return jump(to: position)
  }

  /// The text of cue `index` of `document` (the shown one by default).
  public func text(of index: Int, in other: SubtitleDocument? = nil) -> String? {
    guard let doc = other ?? document, doc.cues.indices.contains(index) else { return nil }
    return doc.text(of: doc.cues[index])
  }

  /// Releases the cues and the side-loaded document.
  public func destroy() {
    timeline = nil
    document = nil
    sideloaded = nil
    tracks = []
    source = nil
    state = .destroyed
  }

  private func defaultTrack(for audio: AudioTrack?) -> Int? {
    let readable = tracks.filter { SubtitleStreamReader.textCodecs.contains($0.codec) }
    return TrackSelection.defaultSubtitle(in: readable, audio: audio, preferences: preferences)?
      .index
  }

  /// Reads and parses a side-loaded subtitle file (WebVTT, SRT, SSA/ASS or TTML, by its
  /// extension, else by its content): one call puts it on the same model as in-media cues.
  /// - Throws: `PlayerError.subtitleFileUnreadable` or `.subtitles` (the parse error).
  public static func load(file: String) throws(PlayerError) -> SubtitleDocument {
    guard let bytes = readFile(file) else { throw .subtitleFileUnreadable(path: file) }
    let ext = file.split(separator: ".").last.map(String.init) ?? ""
    do {
      return try SubtitleFile.parse(bytes, pathExtension: ext)
    } catch {
      throw .subtitles(path: file, error)
    }
  }

  /// In-media cues as a document: their texts, one after the other, and cues over them.
  static func document(from cues: [TimedText]) -> SubtitleDocument {
    SubtitleDocument(
      format: .srt,
      timedTexts: cues.map { (startTime: $0.startTime, endTime: $0.endTime, text: $0.text) })
  }

  /// A text subtitle stream of a media file as a document, its markup read as the stream's
  /// syntax (ASS override blocks, WebVTT cue text, SubRip tags): one call puts in-media
  /// subtitles on the same model, and a `CueTimeline`, as a side-loaded file.
  /// - Throws: As `SubtitleStreamReader.read()`.
  public static func document(path: String, streamIndex: Int) throws(MediaError)
    -> SubtitleDocument
  {
    try SubtitleStreamReader(path: path, streamIndex: streamIndex).document()
  }

  /// The whole content of a file, or `nil` when it cannot be read.
  static func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 { return nil }
      if n == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<n])
    }
  }
}
