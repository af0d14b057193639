import MediaTracks
import SubtitleParser
import TimeStretch

/// What a session holds, for checking that ``PlayerSession/destroy()`` released it all.
public struct PlayerResources: Hashable, Sendable {
  /// Whether an audio decoder (its FFmpeg demuxer, codec and resampler) is open.
  public var decoderOpen: Bool
  /// The life-cycle state of each enabled plugin, by id.
  public var plugins: [String: PluginState]
  /// The number of observers.
  public var observers: Int
}

/// A headless player: plays a media file against a simulated clock, the way a player SDK's
/// engine drives its plugins (`speed`, `asel`, `subtitles`).
///
/// Audio is decoded with ``AudioDecoder``, stretched with ``TimeStretcher`` and pulled in fixed
/// render blocks as an audio render callback would; the frames are counted, not played. The
/// position is the stretcher's media-time map at the frames rendered, so it is exact to the
/// sample across speed changes. Subtitles come from a ``CueTimeline`` advanced after every block.
///
/// ```swift
/// var config = ControlsConfig()
/// config.enablePlugins(["speed", "asel", "subtitles"])
/// config["speed.options"] = .numbers([0.5, 1, 2])
/// let session = PlayerSession(path: "movie.mkv", config: config)
/// try session.configure()
/// try session.run(script: "play; 3s; speed 2; 2s; end")
/// session.destroy()
/// ```
///
/// Not thread-safe: drive a session from one thread.
public final class PlayerSession {
  /// The media file.
  public let path: String
  /// The controls config.
  public let config: ControlsConfig
  /// The largest render block, in output frames.
  public let renderBlock: Int
  /// The largest render block a session accepts, in output frames.
  public static let largestBlock = 1 << 20
  /// The `speed` plugin, when enabled.
  public let speed: SpeedPlugin?
  /// The `asel` plugin, when enabled.
  public let audioSelection: AudioSelectionPlugin?
  /// The `subtitles` plugin, when enabled.
  public let subtitles: SubtitlesPlugin?
  /// The probe result, once configured.
  public private(set) var info: MediaInfo?
  /// The playback state.
  public private(set) var state: PlaybackState = .ready
  /// Every event so far except ``PlayerEvent/Kind/timeUpdate``, oldest first.
  public private(set) var log: [PlayerEvent] = []
  /// The viewer's choices to pass to the next session.
  public private(set) var memory: PlayerMemory
  /// The simulated wall clock in seconds.
  public private(set) var clock: Double = 0
  /// Output frames rendered since the start, across seeks and track changes.
  public private(set) var outputFrames = 0

  private var pipeline: AudioPipeline?
  private var observers: [Int: (PlayerEvent) -> Void] = [:]
  private var nextObserver = 0
  private var started = false
  private let unknownPlugins: [String]

  /// Creates a session; nothing is opened until ``configure()``.
  /// - Parameters:
  ///   - path: the media file.
  ///   - config: enabled plugins, custom keys, preferred languages, side-loaded subtitles.
  ///   - memory: the viewer's remembered choices (from a previous session's ``memory``).
  ///   - renderBlock: output frames per render callback, clamped to 1...``largestBlock``.
  public init(
    path: String, config: ControlsConfig, memory: PlayerMemory = PlayerMemory(),
    renderBlock: Int = 512
  ) {
    self.path = path
    self.config = config
    self.memory = memory
    self.renderBlock = min(max(1, renderBlock), Self.largestBlock)
    speed = config.isEnabled(SpeedPlugin.id) ? SpeedPlugin() : nil
    audioSelection = config.isEnabled(AudioSelectionPlugin.id) ? AudioSelectionPlugin() : nil
    subtitles = config.isEnabled(SubtitlesPlugin.id) ? SubtitlesPlugin() : nil
    unknownPlugins = config.plugins.filter { !ControlsConfig.knownPlugins.contains($0) }
  }

  // MARK: Observing

  /// Subscribes to every event, including ``PlayerEvent/Kind/timeUpdate`` after each render
  /// block (what a mini-player's progress bar follows).
  /// - Returns: a token for ``removeObserver(_:)``.
  @discardableResult
  public func observe(_ handler: @escaping (PlayerEvent) -> Void) -> Int {
    nextObserver += 1
    observers[nextObserver] = handler
    return nextObserver
  }

  /// Unsubscribes.
  public func removeObserver(_ token: Int) { observers[token] = nil }

  /// The media position in seconds.
  public var currentTime: Double {
    guard let position = pipeline?.position, let sampleRate = pipeline?.sampleRate else {
      return 0
    }
    return position / Double(sampleRate)
  }

  /// The media position in samples of the playing track (rounded from the media-time map).
  public var currentSample: Int { Int((pipeline?.position ?? 0).rounded()) }

  /// The speed playing now (media seconds per output second); ``speed`` is the plugin that
  /// chooses it.
  public var currentSpeed: Double { pipeline?.speed ?? 1 }

  /// ``currentSpeed`` under its former name.
  @available(*, deprecated, renamed: "currentSpeed")
  public var rate: Double { currentSpeed }

  /// The container stream index of the playing audio track.
  public var audioTrack: Int? { pipeline?.track }

  /// The media frame the current stretcher stream started at (after the last seek or track
  /// change), and the stretcher's speed breakpoints since then: with the rendered frames,
  /// these give the position (`base + map(delivered)`).
  public var mediaTimeMap: (base: Int, delivered: Int, breakpoints: [SpeedBreakpoint])? {
    guard let base = pipeline?.base, let delivered = pipeline?.delivered,
      let breakpoints = pipeline?.breakpoints
    else { return nil }
    return (base, delivered, breakpoints)
  }

  /// The stretcher's latency in media frames (0 before configuration).
  public var latencyFrames: Int { pipeline?.latencyFrames ?? 0 }

  /// What the session holds.
  public var resources: PlayerResources {
    var plugins: [String: PluginState] = [:]
    if let speed { plugins[SpeedPlugin.id] = speed.state }
    if let audioSelection { plugins[AudioSelectionPlugin.id] = audioSelection.state }
    if let subtitles { plugins[SubtitlesPlugin.id] = subtitles.state }
    return PlayerResources(
      decoderOpen: pipeline != nil, plugins: plugins, observers: observers.count)
  }

  // MARK: Life cycle

  /// Probes the media, configures the plugins, opens the chosen audio track and sends `ready`.
  /// - Throws: ``PlayerError`` for an unknown plugin, bad keys, or media or subtitles that
  ///   cannot be read.
  public func configure() throws(PlayerError) {
    if let unknown = unknownPlugins.first { throw .unknownPlugin(unknown) }
    let preferences = TrackPreferences(languages: config.preferredLanguages)
    for language in config.preferredLanguages where LanguageTag.bcp47(language) == nil {
      throw .invalidKey("prefer", reason: "'\(language)' is not a language tag")
    }
    try speed?.configure(config)
    let info: MediaInfo
    do {
      info = try MediaProbe.probe(path: path, preferences: preferences)
    } catch {
      throw .media(error)
    }
    self.info = info
    var audio = info.audio.first { $0.index == info.defaultAudio }
    if let audioSelection {
      audioSelection.configure(info: info, memory: memory)
      audio = audioSelection.initial
    }
    guard let audio else {
      throw .media(
        MediaError(
          kind: .noSuchStream, operation: "PlayerSession", detail: "'\(path)' has no audio track"))
    }
    try subtitles?.configure(config: config, info: info, audio: audio, memory: memory)
    pipeline = try AudioPipeline(
      path: path, track: audio.index, start: 0, speed: speed?.menu?.defaultSpeed ?? 1,
      block: renderBlock)
    var details = ["\"\(audio.label)\""]
    if let menu = speed?.menu {
      details.append(
        "speeds="
          + menu.entries.map { "\(PlayerEvent.speedText($0.speed)):\($0.label)" }.joined(
            separator: ","))
    }
    if let audioSelection {
      details.append(
        "audio-menu="
          + audioSelection.tracks.map { "#\($0.index):\($0.label)" }.joined(separator: ","))
    }
    if let subtitles {
      details.append("subtitles=\(subtitles.source.map { label(of: $0) } ?? "off")")
      var menu = subtitles.tracks.filter { SubtitleStreamReader.textCodecs.contains($0.codec) }.map
      {
        "#\($0.index):\($0.label)"
      }
      if config.sideloadedSubtitles != nil { menu.append("file") }
      details.append("subtitle-menu=" + (menu + ["off"]).joined(separator: ","))
    }
    state = .ready
    emit(.ready, detail: details.joined(separator: " "))
    for cue in subtitles?.active ?? [] { emitCue(.cueEnter, cue) }
  }

  /// Releases everything: the plugins' menus, tracks and cues, the decoder's FFmpeg contexts,
  /// the stretcher's buffers and the observers. The session cannot be used afterwards.
  public func destroy() {
    speed?.destroy()
    audioSelection?.destroy()
    subtitles?.destroy()
    pipeline = nil
    observers = [:]
    state = .destroyed
  }

  // MARK: Commands

  /// Parses and runs a script.
  /// - Throws: ``PlayerError`` for a bad script or a command that cannot run.
  public func run(script: String) throws(PlayerError) {
    try run(try PlayerScript.parse(script))
  }

  /// Runs commands in order.
  public func run(_ commands: [ScriptCommand]) throws(PlayerError) {
    for command in commands { try perform(command) }
  }

  /// Runs one command.
  /// - Throws: ``PlayerError/badCommand(command:reason:)`` when it cannot run now, or a media
  ///   error when a track cannot be opened.
  public func perform(_ command: ScriptCommand) throws(PlayerError) {
    guard state != .destroyed, pipeline != nil else {
      throw .badCommand(command: "\(command)", reason: "the session is not configured")
    }
    switch command {
    case .wait(let seconds), .delay(let seconds), .seek(let seconds):
      guard seconds.isFinite, abs(seconds) <= PlayerScript.longest else {
        throw .badCommand(command: "\(command)", reason: "\(seconds) s is out of range")
      }
    default:
      break
    }
    switch command {
    case .play:
      if state == .ended { try seek(to: 0, command: "play") }
      guard state != .playing else { return }
      state = .playing
      emit(.play, detail: started ? "" : "first")
      started = true
    case .pause:
      guard state == .playing else { return }
      state = .paused
      emit(.pause)
    case .wait(let seconds):
      try wait(seconds)
    case .speed(let choice):
      guard let speed else {
        throw .badCommand(command: "speed", reason: "the speed plugin is not enabled")
      }
      let old = currentSpeed
      let new = try speed.speed(for: choice, current: old, command: "speed \(choice)")
      try pipeline?.setSpeed(new)
      emit(
        .speed,
        detail: "\(PlayerEvent.speedText(old)) -> \(PlayerEvent.speedText(new)) "
          + "\"\(speed.menu?.label(for: new) ?? "")\"")
    case .audio(let choice):
      guard let audioSelection else {
        throw .badCommand(command: "audio", reason: "the asel plugin is not enabled")
      }
      let track = try audioSelection.track(
        for: choice, current: audioTrack, command: "audio \(choice)")
      try switchAudio(to: track)
    case .subs(let choice):
      guard let subtitles else {
        throw .badCommand(command: "subs", reason: "the subtitles plugin is not enabled")
      }
      var source: SubtitleSource? = nil
      switch choice {
      case .off:
        memory.subtitlesOff = true
        memory.subtitleLanguage = nil
      case .file:
        guard config.sideloadedSubtitles != nil else {
          throw .badCommand(command: "subs file", reason: "no side-loaded subtitle file")
        }
        source = .file
      case .index(let index):
        guard
          let track = subtitles.tracks.first(where: {
            $0.index == index && SubtitleStreamReader.textCodecs.contains($0.codec)
          })
        else {
          let list = subtitles.tracks.map { String($0.index) }.joined(separator: ", ")
          throw .badCommand(
            command: "subs \(index)", reason: "no text subtitle track \(index) (tracks: \(list))")
        }
        source = .track(index)
        memory.subtitlesOff = false
        memory.subtitleLanguage = track.language
      }
      let change = try subtitles.choose(source, at: currentTime)
      applySubtitleChange(change)
    case .delay(let seconds):
      guard let subtitles else {
        throw .badCommand(command: "delay", reason: "the subtitles plugin is not enabled")
      }
      let old = subtitles.offset
      let changes = subtitles.setDelay(seconds, at: currentTime)
      emit(.delay, detail: "\(PlayerEvent.fixed(old)) -> \(PlayerEvent.fixed(seconds))")
      emitChanges(changes)
    case .seek(let target):
      try seek(to: target, command: "seek")
    case .end:
      guard state != .ended else { return }
      finish(detail: "script")
    }
  }

  // MARK: Internals

  private func wait(_ seconds: Double) throws(PlayerError) {
    guard let sampleRate = pipeline?.sampleRate else { return }
    let end = clock + seconds
    if state == .playing {
      let total = Int((seconds * Double(sampleRate)).rounded())
      let start = clock
      var remaining = total
      while remaining > 0 {
        let want = min(renderBlock, remaining)
        guard let got = try pipeline?.render(frames: want) else { break }
        outputFrames += got
        remaining -= want
        // The clock of the block's end, on the output time line.
        clock = start + Double(total - remaining) / Double(sampleRate)
        if let subtitles { emitChanges(subtitles.advance(to: currentTime)) }
        notify(event(.timeUpdate))
        if got < want {
          finish(detail: "media")
          break
        }
      }
    }
    clock = end
    emit(.time)
  }

  private func seek(to target: Double, command: String) throws(PlayerError) {
    guard let track = pipeline?.track, let playing = pipeline?.speed,
      let sampleRate = pipeline?.sampleRate
    else { return }
    var limit = target
    if let duration = info?.duration { limit = min(limit, duration) }
    let from = currentTime
    // Opened before the old one is dropped: on failure the old track keeps playing.
    let next = try AudioPipeline(
      path: path, track: track, start: Int((max(0, limit) * Double(sampleRate)).rounded()),
      speed: playing, block: renderBlock)
    pipeline = consume next
    if state == .ended { state = .paused }
    emit(.seek, detail: "\(PlayerEvent.fixed(from)) -> \(PlayerEvent.fixed(currentTime))")
    if let subtitles { emitChanges(subtitles.jump(to: currentTime)) }
  }

  private func switchAudio(to track: AudioTrack) throws(PlayerError) {
    guard let current = pipeline?.track, current != track.index, let playing = pipeline?.speed,
      let frames = pipeline?.position, let sampleRate = pipeline?.sampleRate
    else { return }
    let old = info?.audio.first { $0.index == current }
    // The same media time on the new track: in frames of its own sample rate when that differs.
    var start = Int(frames.rounded())
    if track.sampleRate > 0 && track.sampleRate != sampleRate {
      start = Int((frames / Double(sampleRate) * Double(track.sampleRate)).rounded())
    }
    // Opened before the old one is dropped: on failure the old track keeps playing.
    let next = try AudioPipeline(
      path: path, track: track.index, start: start, speed: playing, block: renderBlock)
    pipeline = consume next
    memory.audioLanguage = track.language
    emit(
      .audio,
      detail: "\(old.map { "#\($0.index)" } ?? "-") -> #\(track.index) \"\(track.label)\"")
    if let subtitles, let wanted = subtitles.followAudio(track) {
      applySubtitleChange(try subtitles.select(wanted, at: currentTime))
    }
  }

  private func applySubtitleChange(
    _ change: (old: SubtitleDocument?, exited: [Int], entered: [Int])
  ) {
    guard let subtitles else { return }
    for cue in change.exited {
      emit(.cueExit, cue: cue, text: subtitles.text(of: cue, in: change.old))
    }
    emit(.subtitles, detail: subtitles.source.map { label(of: $0) } ?? "off")
    for cue in change.entered { emitCue(.cueEnter, cue) }
  }

  private func label(of source: SubtitleSource) -> String {
    switch source {
    case .file: return "\"\(config.sideloadedSubtitles ?? "")\""
    case .track(let index):
      return "#\(index) \"\(info?.subtitles.first { $0.index == index }?.label ?? "")\""
    }
  }

  private func finish(detail: String) {
    if let subtitles { emitChanges(subtitles.jump(to: .infinity)) }
    state = .ended
    emit(.ended, detail: detail)
  }

  /// Cue changes in display order: exits of cues shown before, entries, then exits of cues
  /// that started and ended within the step.
  private func emitChanges(_ changes: CueChanges) {
    let passed = Set(changes.entered).intersection(changes.exited)
    for cue in changes.exited where !passed.contains(cue) { emitCue(.cueExit, cue) }
    for cue in changes.entered { emitCue(.cueEnter, cue) }
    for cue in changes.exited where passed.contains(cue) { emitCue(.cueExit, cue) }
  }

  private func emitCue(_ kind: PlayerEvent.Kind, _ cue: Int) {
    emit(kind, cue: cue, text: subtitles?.text(of: cue))
  }

  private func event(
    _ kind: PlayerEvent.Kind, cue: Int? = nil, text: String? = nil, detail: String = ""
  ) -> PlayerEvent {
    let position = pipeline?.position ?? 0
    let sampleRate = pipeline?.sampleRate ?? 0
    return PlayerEvent(
      kind: kind, clock: clock, position: sampleRate > 0 ? position / Double(sampleRate) : 0,
      sample: Int(position.rounded()), sampleRate: sampleRate, outputFrames: outputFrames,
      speed: currentSpeed, audio: audioTrack, subtitles: subtitles?.source?.name,
      delay: subtitles?.offset ?? 0, activeCues: subtitles?.active ?? [], cue: cue, text: text,
      detail: detail)
  }

  private func emit(
    _ kind: PlayerEvent.Kind, cue: Int? = nil, text: String? = nil, detail: String = ""
  ) {
    let value = event(kind, cue: cue, text: text, detail: detail)
    log.append(value)
    notify(value)
  }

  private func notify(_ value: PlayerEvent) {
    for key in observers.keys.sorted() { observers[key]?(value) }
  }
}
