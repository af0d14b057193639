import MediaTracks
import TimeStretch

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let stretchCommand = Command(
  name: "stretch",
  summary: "Change the speed of audio without changing its pitch.",
  usage: """
    mtool stretch IN OUT --speed S [--track N|LANG] [--bitrate BPS] [--json]
           mtool stretch IN OUT --speed-map "0:1.0,30:1.5,60:2.0" [options]
    """,
  options: [
    OptionSpec(
      "speed", short: "s", value: "S", help: "Speed factor: 2 (or 2x) plays twice as fast."),
    OptionSpec(
      "speed-map", value: "MAP",
      help: "Speeds from given input times: \"SECONDS:SPEED,...\"."),
    OptionSpec("track", short: "t", value: "N|LANG", help: "Audio stream index or language."),
    OptionSpec("bitrate", value: "BPS", help: "Bit rate for lossy outputs (bits per second)."),
    OptionSpec("json", help: "Print a JSON summary on stdout."),
  ],
  details: """
    arguments:
      IN    any media file FFmpeg can read; its default audio track is used unless --track says
      OUT   the output file; the extension picks the format: .wav .flac .m4a .mp3 .ogg .opus .mka

    The speed is input seconds per output second: 0.5 is half speed, 2 is double speed.
    Supported speeds: \(TimeStretcher.supportedSpeeds.lowerBound) to \
    \(TimeStretcher.supportedSpeeds.upperBound) (full quality from \
    \(TimeStretcher.fullQualitySpeeds.lowerBound) to \(TimeStretcher.fullQualitySpeeds.upperBound)).
    With --speed-map the speed changes at the given input times (seconds, ascending), each at
    the nearest input sample; before the first entry the --speed value applies (default 1). The
    audio is processed in a stream, so memory stays bounded whatever the input's length. The
    output is written under a temporary name and renamed when complete: a failure or an
    interrupt never leaves a partial file, and the input is never overwritten. A progress bar
    is drawn on stderr when it is a terminal.
    """,
  run: runStretch
)

/// One entry of `--speed-map`: from `time` seconds of input on, play at `speed`.
struct SpeedChange: Sendable {
  var time: Double
  var speed: Double
}

/// The path of the partial output, removed by the interrupt handler. Set before the handler is
/// installed and cleared (under the handler being blocked) once the output is complete.
nonisolated(unsafe) private var partialOutputPath: UnsafeMutablePointer<CChar>? = nil

private func removePartialOutputOnSignal(_ signal: Int32) {
  if let path = partialOutputPath { unlink(path) }
  _exit(128 + signal)
}

@Sendable
func runStretch(_ arguments: ParsedArguments) throws(CLIError) -> ExitCode {
  let name = "stretch"
  guard arguments.positionals.count == 2 else {
    throw CLIError.usage(
      name, "expects IN and OUT, got \(arguments.positionals.count) argument(s)")
  }
  let input = arguments.positionals[0]
  let output = arguments.positionals[1]
  if input == "-" || output == "-" {
    throw CLIError.usage(name, "IN and OUT must be files ('-' is not supported here)")
  }
  let baseSpeed = try parseSpeed(
    arguments.value("speed") ?? (arguments.has("speed-map") ? "1" : ""))
  let changes =
    try arguments.value("speed-map").map { (text) throws(CLIError) in
      try parseSpeedMap(text)
    } ?? []
  let bitRate = try arguments.int("bitrate", command: name)
  if let bitRate, bitRate <= 0 {
    throw CLIError.usage(name, "--bitrate must be positive, got \(bitRate)")
  }

  try checkInputFile(input, command: name)
  try checkOutputPath(output, input: input, command: name)

  let streamIndex = try chooseTrack(arguments.value("track"), input: input)
  var decoder: AudioDecoder
  do throws(MediaError) {
    decoder = try AudioDecoder(path: input, streamIndex: streamIndex)
  } catch {
    throw mediaFailure(error, command: name)
  }
  let channels = decoder.channels
  let sampleRate = decoder.sampleRate
  var stretcher: TimeStretcher
  do throws(StretchError) {
    stretcher = try TimeStretcher(sampleRate: sampleRate, channels: channels, speed: baseSpeed)
  } catch {
    throw CLIError.data(name, "cannot stretch this audio: \(error)")
  }

  // A link is followed, a device written in place, a replaced file keeps its permissions.
  let target = OutputTarget(output)
  let temporary = target.inPlace ? output : temporaryPath(for: target.file)
  partialOutputPath = target.inPlace ? nil : strdup(temporary)
  /// Removes the partial output (never a path written in place: a device stays).
  func removeTemporary() { if !target.inPlace { unlink(temporary) } }
  installInterruptHandlers()
  defer {
    let path = partialOutputPath
    partialOutputPath = nil
    free(path)
  }

  var encoder: AudioEncoder
  do throws(MediaError) {
    encoder = try AudioEncoder(
      path: temporary, sampleRate: sampleRate, channels: channels, bitRate: bitRate,
      channelMask: decoder.channelMask)
  } catch {
    removeTemporary()
    if error.kind == .invalidArgument {
      throw CLIError.usage(name, error.detail.replacing(temporary, with: output))
    }
    throw CLIError.failure(name, "cannot create '\(output)': \(error)")
  }

  let clock = ContinuousClock()
  let started = clock.now
  let progress = ProgressBar(total: decoder.duration, enabled: stderrIsInteractiveTerminal)
  let blockFrames = 8192
  var inBuffer = [Float](repeating: 0, count: blockFrames * channels)
  var outBuffer = [Float](repeating: 0, count: blockFrames * channels)
  var framesIn = 0
  var framesOut = 0
  var nextChange = 0
  // Each --speed-map change is scheduled at its input frame, where the stretcher applies it
  // exactly. It keeps `TimeStretcher.scheduledCapacity` changes waiting, so a longer map is
  // topped up as output is pulled; a change already planned past (which cannot happen for an
  // ascending map) would apply at once.
  func schedule(_ stretcher: inout TimeStretcher) {
    while nextChange < changes.count {
      let change = changes[nextChange]
      let frame = Int((change.time * Double(sampleRate)).rounded())
      do throws(StretchError) {
        try stretcher.setSpeed(change.speed, atInputFrame: frame)
      } catch {
        if case .tooManyScheduledChanges = error { return }
        try? stretcher.setSpeed(change.speed)
      }
      nextChange += 1
    }
  }
  schedule(&stretcher)

  func drain(_ stretcher: inout TimeStretcher, _ encoder: inout AudioEncoder) throws(MediaError) {
    while true {
      let n = stretcher.pull(into: &outBuffer, maxFrames: blockFrames)
      if n == 0 { return }
      try encoder.write(outBuffer, frames: n)
      framesOut += n
      schedule(&stretcher)
    }
  }

  do throws(MediaError) {
    while true {
      let n = try decoder.read(into: &inBuffer, maxFrames: blockFrames)
      if n == 0 { break }
      stretcher.push(inBuffer, frames: n)
      framesIn += n
      try drain(&stretcher, &encoder)
      progress.update(seconds: Double(framesIn) / Double(sampleRate))
    }
    stretcher.finish()
    try drain(&stretcher, &encoder)
    try encoder.finish()
  } catch {
    encoder.abandon()
    removeTemporary()
    progress.clear()
    if error.kind == .outputFailed {
      throw CLIError.failure(name, "cannot write '\(output)': \(error)")
    }
    throw mediaFailure(error, command: name)
  }
  progress.clear()
  if !target.inPlace {
    guard rename(temporary, target.file) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw CLIError.failure(name, "cannot write '\(output)': \(reason)")
    }
    if let mode = target.mode { chmod(target.file, mode) }
  }

  let elapsed = clock.now - started
  let seconds =
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  let inputDuration = Double(framesIn) / Double(sampleRate)
  let outputDuration = Double(framesOut) / Double(sampleRate)
  let realtime = seconds > 0 ? inputDuration / seconds : 0
  var stdout = StandardOutput()
  if arguments.has("json") {
    var members: [(String, JSONValue)] = [
      ("input", .string(input)), ("output", .string(output)),
      ("track", .int(decoder.streamIndex)),
      ("inputDuration", .number(inputDuration)), ("outputDuration", .number(outputDuration)),
      ("inputFrames", .int(framesIn)), ("outputFrames", .int(framesOut)),
      ("speed", .number(baseSpeed)),
    ]
    if !changes.isEmpty {
      members.append(
        (
          "speedMap",
          .array(
            changes.map { .object([("time", .number($0.time)), ("speed", .number($0.speed))]) })
        ))
    }
    members += [
      ("channels", .int(channels)), ("sampleRate", .int(sampleRate)),
      ("latency", .number(stretcher.latencySeconds)),
      ("elapsed", .number(seconds)), ("realtimeFactor", .number(realtime)),
    ]
    stdout.write(JSONValue.object(members).serialized + "\n")
  } else {
    let speedText = changes.isEmpty ? "\(formatNumber(baseSpeed))x" : "a speed map"
    stdout.write(
      "\(output): \(formatNumber(inputDuration)) s -> \(formatNumber(outputDuration)) s at "
        + "\(speedText), \(channels) ch, \(sampleRate) Hz (\(formatNumber(realtime))x realtime)\n")
  }
  guard stdout.flush() else { throw .standardOutputFailed(name) }
  return .ok
}

/// Parses and range-checks one speed value.
func parseSpeed(_ text: String) throws(CLIError) -> Double {
  let range = TimeStretcher.supportedSpeeds
  let rangeText = "\(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound))"
  if text.isEmpty {
    throw CLIError.usage("stretch", "--speed or --speed-map is required (speeds \(rangeText))")
  }
  // `2x` and `1.5×` as the speed menu writes them are taken too.
  var number = Substring(text)
  if let last = number.last, last == "x" || last == "×" { number = number.dropLast() }
  guard let speed = decimalNumber(number), speed.isFinite else {
    throw CLIError.usage(
      "stretch", "speed '\(text)' is not a finite number; supported speeds are \(rangeText)")
  }
  guard range.contains(speed) else {
    throw CLIError.usage(
      "stretch", "speed \(text) is outside the supported range \(rangeText)")
  }
  return speed
}

/// Parses `--speed-map "0:1.0,30:1.5"`: input seconds ascending, each speed in range.
func parseSpeedMap(_ text: String) throws(CLIError) -> [SpeedChange] {
  var changes: [SpeedChange] = []
  for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
    let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let time = decimalNumber(parts[0]), time.isFinite, time >= 0
    else {
      throw CLIError.usage(
        "stretch", "bad --speed-map entry '\(entry)': expected SECONDS:SPEED with SECONDS >= 0")
    }
    let speed = try parseSpeed(String(parts[1].trimmingSpaces))
    if let last = changes.last, time <= last.time {
      throw CLIError.usage(
        "stretch",
        "--speed-map times must increase: \(formatNumber(time)) after "
          + formatNumber(last.time))
    }
    changes.append(SpeedChange(time: time, speed: speed))
  }
  return changes
}

/// Picks the stream index for `--track N|LANG`, or `nil` for the default audio track.
private func chooseTrack(_ selector: String?, input: String) throws(CLIError) -> Int? {
  guard let selector else { return nil }
  if let index = Int(selector) {
    guard index >= 0 else { throw CLIError.usage("stretch", "--track must be >= 0") }
    return index
  }
  // Tags as containers write them (`eng`, `fre`) and as BCP-47 has them (`en`, `fr-CA`) alike.
  guard let language = LanguageTag.bcp47(selector) else {
    throw CLIError.usage(
      "stretch",
      "--track expects a stream index or a language tag like 'en' or 'fre', got '\(selector)'")
  }
  let info: MediaInfo
  do throws(MediaError) {
    info = try MediaProbe.probe(
      path: input, preferences: TrackPreferences(languages: [language]))
  } catch {
    throw mediaFailure(error, command: "stretch")
  }
  let matching = info.audio.filter {
    TrackSelection.matchRank($0.language ?? $0.languageTag, preferences: [language]) != nil
  }
  guard !matching.isEmpty else {
    throw CLIError.data("stretch", "'\(input)' has no audio track in language '\(selector)'")
  }
  if let chosen = info.defaultAudio, matching.contains(where: { $0.index == chosen }) {
    return chosen
  }
  return matching[0].index
}

/// Exit 66 for a missing, unreadable or directory input.
func checkInputFile(_ path: String, command: String) throws(CLIError) {
  var info = stat()
  guard stat(path, &info) == 0 else {
    throw CLIError.noInput(command, "cannot open '\(path)': \(String(cString: strerror(errno)))")
  }
  if (info.st_mode & S_IFMT) == S_IFDIR {
    throw CLIError.noInput(command, "'\(path)' is a directory")
  }
  guard access(path, R_OK) == 0 else {
    throw CLIError.noInput(command, "cannot read '\(path)': \(String(cString: strerror(errno)))")
  }
}

/// Refuses an output that is the input (same file) or whose folder does not exist.
private func checkOutputPath(_ output: String, input: String, command: String) throws(CLIError) {
  try refuseOverwritingInput(output, input: input, command: command)
  let folder = directory(of: output)
  var dirInfo = stat()
  guard stat(folder, &dirInfo) == 0, (dirInfo.st_mode & S_IFMT) == S_IFDIR else {
    throw CLIError.failure(command, "cannot write '\(output)': folder '\(folder)' does not exist")
  }
}

/// The folder part of a path (`"."` when there is none).
private func directory(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  let folder = String(path[..<slash])
  return folder.isEmpty ? "/" : folder
}

/// A hidden sibling of `output` with the same extension, renamed over `output` when complete.
private func temporaryPath(for output: String) -> String {
  let folder = directory(of: output)
  let file = output.lastIndex(of: "/").map { String(output[output.index(after: $0)...]) } ?? output
  let ext = file.lastIndex(of: ".").map { String(file[$0...]) } ?? ""
  return "\(folder)/.\(file).partial-\(getpid())\(ext)"
}

/// Installs the handlers that remove the partial output, and unblocks their signals (a parent
/// may have started us with them blocked).
private func installInterruptHandlers() {
  var set = sigset_t()
  sigemptyset(&set)
  for sig in [SIGINT, SIGTERM, SIGHUP] {
    signal(sig, removePartialOutputOnSignal)
    sigaddset(&set, sig)
  }
  sigprocmask(SIG_UNBLOCK, &set, nil)
}

/// A number without a trailing `.0`, with at most 3 decimals.
func formatNumber(_ value: Double) -> String {
  guard value.isFinite else { return String(value) }
  let rounded = (value * 1000).rounded() / 1000
  if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
  return String(rounded)
}

/// A one-line progress bar on stderr, drawn only when stderr is an interactive terminal.
final class ProgressBar {
  private let total: Double?
  private let enabled: Bool
  private var lastPercent = -1

  init(total: Double?, enabled: Bool) {
    self.total = total
    self.enabled = enabled
  }

  /// Redraws when the percentage changes.
  func update(seconds: Double) {
    guard enabled else { return }
    var stderr = StandardError()
    guard let total, total > 0 else {
      stderr.write("\r\(formatNumber(seconds)) s")
      return
    }
    let percent = min(100, Int(seconds / total * 100))
    guard percent != lastPercent else { return }
    lastPercent = percent
    let width = 30
    let filled = percent * width / 100
    stderr.write(
      "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        + "] \(percent)%")
  }

  /// Erases the bar.
  func clear() {
    guard enabled, lastPercent >= 0 || total == nil else { return }
    var stderr = StandardError()
    stderr.write("\r" + String(repeating: " ", count: 40) + "\r")
  }
}
