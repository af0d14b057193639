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
    mtool stretch IN OUT --speed S [--quality Q] [--track N|LANG] [--bitrate BPS] [--json]
           mtool stretch IN OUT --speed-map "0:1.0,30:1.5,60:2.0" [options]
           mtool stretch IN - --speed S [--format FMT] [options] | PLAYER
           mtool stretch --files-from LIST|- [-0] --output-template T --speed S
                         [--skip-existing] [--jsonl] [options]
    """,
  options: [
    OptionSpec(
      "speed", short: "s", value: "S", help: "Speed factor: 2 (or 2x) plays twice as fast."),
    OptionSpec(
      "speed-map", value: "MAP",
      help: "Speeds from given input times: \"SECONDS:SPEED,...\"."),
    OptionSpec(
      "quality", value: "Q",
      help: "standard (default: fastest, 25 ms latency) or fine (music: 4-7x the work)."),
    OptionSpec("track", short: "t", value: "N|LANG", help: "Audio stream index or language."),
    OptionSpec(
      "bitrate", value: "BPS",
      help: "Bit rate of a lossy output, bits per second (not .wav, .flac, .mka)."),
    OptionSpec("json", help: "Print a JSON summary on stdout."),
    OptionSpec(
      "format", value: "FMT",
      help: "With OUT '-': wav (default), flac, mp3, aac, ogg, opus or mka."),
    timeoutOption,
    headerOption,
    cacertOption,
  ] + filesFromOptions + [
    OptionSpec(
      "output-template", value: "T",
      help: "With --files-from: each output's name, e.g. '{dir}/{stem}.1_5x.m4a'."),
    OptionSpec("skip-existing", help: "With --files-from: leave inputs whose output exists."),
    OptionSpec("jsonl", help: "With --files-from: one JSON object per file, as each is done."),
  ],
  details: """
    arguments:
      IN    any media file FFmpeg can read; its default audio track is used unless --track says
      OUT   the output file; the extension picks the format: .wav .flac .m4a .mp3 .ogg .opus .mka
            '-' writes to standard output (a pipe or a file, never a terminal) in --format's
            format, WAV with a streaming header unless --format says otherwise; nothing else
            is printed there (no result line; --json is refused)

    The speed is input seconds per output second: 0.5 is half speed, 2 is double speed
    (2x, 2X and 2× say the same; an empty speed is refused, 64).
    Supported speeds: \(TimeStretcher.supportedSpeeds.lowerBound) to \
    \(TimeStretcher.supportedSpeeds.upperBound) (full quality from \
    \(TimeStretcher.fullQualitySpeeds.lowerBound) to \(TimeStretcher.fullQualitySpeeds.upperBound)).
    --quality fine keeps chords and bass lines closer to the ideal (a phase vocoder below
    about 950 Hz where that band is tonal, spliced segments above), at four to seven times
    the work of standard and about 105 ms of latency; standard suits speech and players on a budget.
    With --speed-map the speed changes at the given input times (seconds, ascending), each at
    the nearest input sample, however many changes there are (up to \(TimeStretcher.scheduledCapacity))
    and however close together; before the first entry the --speed value applies (default 1).
    The audio is processed in a stream, so memory stays bounded whatever the input's length.

    --bitrate sets the bit rate of a lossy output (.mp3 .m4a .aac .ogg .opus; by default
    64 kb/s per channel, up to 320 kb/s); for a lossless one (.wav .flac .mka, and WAVE on a
    pipe or standard output) it is refused (64). An option that takes one value may be given
    once (64 for --speed 1 --speed 2); --header may be repeated.

    The output is written under a new hidden name beside it and renamed when complete (a link
    is followed to its target, which is replaced, and stays a link; a replaced file keeps its
    permissions): a failure or an interrupt never leaves a partial file, and the input is never
    overwritten. A named pipe or a device is written in place (.wav with a streaming header).
    \(timeoutHelp) A progress bar is drawn on stderr when it is a terminal.

    \(remoteHelp)

    \(filesFromHelp)
    Files are stretched one at a time, in list order (run one batch per processor to use
    them all). --output-template names each output from its input's path: {dir} (the
    folder, '.' for a bare name), {name} (the file name), {stem} (the name without its last
    extension), {ext} (that extension, without the dot); '{{' and '}}' are braces. A
    template without {name} or {stem}, or that maps an input onto itself, is refused (64);
    an input whose output this batch already wrote, or whose output is the input itself,
    fails alone (64). With --skip-existing an input whose output exists is skipped: outputs
    are only ever complete, so a batch that was interrupted resumes where it stopped.
    With --jsonl each line has "line" (the record number), "status" (written, skipped,
    failed), "input", "output", "error" and "exitCode", and for a written file the --json
    fields.

    exit codes: 0 done, 1 output or read failure (full disk, file-size limit, timeout),
    64 bad option or output name, 65 not media, truncated, or no audio track, 66 missing
    input, 128+N killed by signal N (SIGINT, SIGTERM, SIGHUP; the partial output is removed).
    With --files-from: 0 when every file was written or skipped, else the first of 66, 65,
    64, 1 that some file had; a bad option (64), an unreadable list (66) or standard output
    closed (1) ends the batch at once.
    """,
  run: runStretch
)

/// One entry of `--speed-map`: from `time` seconds of input on, play at `speed`.
struct SpeedChange: Sendable {
  var time: Double
  var speed: Double
}

/// What `mtool stretch` was asked to do to each file, parsed from its options.
struct StretchSettings: Sendable {
  /// The speed before the first `--speed-map` change (or throughout).
  var baseSpeed: Double
  /// The `--speed-map` changes, ascending in input time.
  var changes: [SpeedChange]
  /// `--timeout`, seconds.
  var timeout: Double?
  /// `--bitrate`, bits per second.
  var bitRate: Int?
  /// `--track N|LANG`.
  var track: String?
  /// `--format`: the output's format (an extension without its dot) when it goes to standard
  /// output.
  var format: String?
  /// `--header`: how http(s) inputs are requested.
  var remote: RemoteAccess
  /// `--quality`.
  var quality: TimeStretcher.Quality

  init(_ arguments: ParsedArguments) throws(CLIError) {
    if let speed = arguments.value("speed") {
      baseSpeed = try parseSpeed(speed)
    } else if arguments.has("speed-map") {
      baseSpeed = 1
    } else {
      let range = TimeStretcher.supportedSpeeds
      throw CLIError.usage(
        "stretch",
        "--speed or --speed-map is required (speeds \(formatNumber(range.lowerBound)) to "
          + "\(formatNumber(range.upperBound)))")
    }
    changes =
      try arguments.value("speed-map").map { (text) throws(CLIError) in
        try parseSpeedMap(text)
      } ?? []
    timeout = try parseTimeout(arguments, command: "stretch")
    remote = try parseRemoteAccess(arguments, command: "stretch")
    bitRate = try arguments.int("bitrate", command: "stretch")
    if let bitRate, bitRate <= 0 {
      throw CLIError.usage("stretch", "--bitrate must be positive, got \(bitRate)")
    }
    track = arguments.value("track")
    format = arguments.value("format")?.lowercased()
    let qualityText = arguments.value("quality") ?? "standard"
    guard let quality = TimeStretcher.Quality(rawValue: qualityText.lowercased()) else {
      throw CLIError.usage(
        "stretch", "--quality expects standard or fine, got '\(qualityText)'")
    }
    self.quality = quality
  }
}

/// The formats that standard output takes (`--format`): every output format but MP4's, which
/// must seek back to finish its header.
let standardOutputFormats = ["wav", "flac", "mp3", "aac", "ogg", "opus", "mka"]
/// The extensions that pick an output file's format.
let outputFileFormats = standardOutputFormats + ["m4a", "mp4"]

/// The output formats written losslessly, whose bit rate `--bitrate` cannot set: WAVE (16-bit
/// PCM), FLAC, and Matroska (FLAC inside); each with the name its refusal gives it.
let losslessOutputFormats = [("wav", "PCM WAVE"), ("flac", "FLAC"), ("mka", "FLAC in Matroska")]

/// Refuses `--bitrate` for an output in a lossless `format` (an extension without its dot, any
/// case), which would otherwise be written without it and without a word; `what` names the
/// output in the message.
/// - Throws: A usage error (64) naming the output and its format.
func refuseBitRate(
  _ settings: StretchSettings, format: String, for what: String
) throws(CLIError) {
  guard settings.bitRate != nil,
    let kind = losslessOutputFormats.first(where: { $0.0 == format.lowercased() })?.1
  else { return }
  throw CLIError.usage(
    "stretch",
    "--bitrate applies to lossy outputs only (mp3, m4a, aac, ogg, opus); \(what) is lossless "
      + kind)
}

/// The extension of the last component of `path` (after its last dot), or `""`.
func pathExtension(_ path: String) -> String {
  let name = path.split(separator: "/").last.map(String.init) ?? path
  guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
  return String(name[name.index(after: dot)...])
}

/// What stretching one file did, for the result line.
struct StretchReport: Sendable {
  var input: String
  var output: String
  var track: Int
  var framesIn: Int
  var framesOut: Int
  var channels: Int
  var sampleRate: Int
  /// The rate of the file written, Hz: `sampleRate`, unless its format takes another (Opus is
  /// 48 kHz); `inputFrames` and `outputFrames` count at `sampleRate`.
  var outputSampleRate: Int
  /// The stretcher's latency, seconds.
  var latency: Double
  /// Wall-clock seconds the file took.
  var elapsed: Double

  /// The `--json` members: input, output, track, durations (seconds), frames, speeds, quality,
  /// channels, sample rate (the stretch's, and the file's), latency, elapsed seconds and
  /// realtime factor.
  func jsonMembers(_ settings: StretchSettings) -> [(String, JSONValue)] {
    let inputDuration = Double(framesIn) / Double(sampleRate)
    var members: [(String, JSONValue)] = [
      ("input", .string(jsonName(input))), ("output", .string(jsonName(output))),
      ("track", .int(track)),
      ("inputDuration", .number(inputDuration)),
      ("outputDuration", .number(Double(framesOut) / Double(sampleRate))),
      ("inputFrames", .int(framesIn)), ("outputFrames", .int(framesOut)),
      ("speed", .number(settings.baseSpeed)),
    ]
    if !settings.changes.isEmpty {
      let map = settings.changes.map {
        JSONValue.object([("time", .number($0.time)), ("speed", .number($0.speed))])
      }
      members.append(("speedMap", .array(map)))
    }
    return members + [
      ("quality", .string(settings.quality.rawValue)),
      ("channels", .int(channels)), ("sampleRate", .int(sampleRate)),
      ("outputSampleRate", .int(outputSampleRate)),
      ("latency", .number(latency)),
      ("elapsed", .number(elapsed)),
      ("realtimeFactor", .number(elapsed > 0 ? inputDuration / elapsed : 0)),
    ]
  }

  /// The human-readable result line, with its newline.
  func text(_ settings: StretchSettings) -> String {
    let inputDuration = Double(framesIn) / Double(sampleRate)
    let outputDuration = Double(framesOut) / Double(sampleRate)
    let realtime = elapsed > 0 ? inputDuration / elapsed : 0
    let speedText =
      settings.changes.isEmpty ? "\(formatNumber(settings.baseSpeed))x" : "a speed map"
    return
      "\(displayText(output)): \(formatNumber(inputDuration)) s -> \(formatNumber(outputDuration)) s at "
      + "\(speedText), \(channels) ch, \(sampleRate) Hz (\(formatNumber(realtime))x realtime)\n"
  }
}

@Sendable
func runStretch(_ arguments: ParsedArguments) throws(CLIError) -> ExitCode {
  let name = "stretch"
  try checkListOptions(arguments, command: name)
  let settings = try StretchSettings(arguments)
  if arguments.has("files-from") {
    if settings.format != nil {
      throw CLIError.usage(
        name, "--format applies only when OUT is '-' (each output's extension picks its format)")
    }
    return try runStretchBatch(arguments, settings)
  }
  for option in ["output-template", "skip-existing", "jsonl"] where arguments.has(option) {
    throw CLIError.usage(name, "--\(option) only applies with --files-from")
  }
  guard arguments.positionals.count == 2 else {
    throw CLIError.usage(
      name, "expects IN and OUT, got \(arguments.positionals.count) argument(s)")
  }
  let input = arguments.positionals[0]
  let output = arguments.positionals[1]
  if input == "-" {
    throw CLIError.usage(name, "IN must be a file or a URL (standard input is not read)")
  }
  let toStandardOutput = output == "-"
  // OUT named as the file standard output is (`/dev/stdout`, a pipe or device it is
  // redirected to) carries the audio as '-' does: the same rules, and no result line there.
  let outputIsStandardOutput = toStandardOutput || isStandardOutput(output)
  if outputIsStandardOutput {
    try checkStandardOutput(arguments, settings)
  }
  if !toStandardOutput && settings.format != nil {
    throw CLIError.usage(
      name, "--format applies only when OUT is '-' (a file's extension picks its format)")
  }
  let report = try stretchFile(
    input, to: output, settings, showProgress: stderrIsInteractiveTerminal,
    toStandardOutput: toStandardOutput)
  // Standard output carries the audio: no result line.
  if outputIsStandardOutput { return .ok }
  var stdout = StandardOutput()
  if arguments.has("json") {
    stdout.write(JSONValue.object(report.jsonMembers(settings)).serialized + "\n")
  } else {
    stdout.write(report.text(settings))
  }
  guard stdout.flush() else { throw .standardOutputFailed(name) }
  return .ok
}

/// Refuses what standard output as OUT does not go with: `--json` (the audio takes standard
/// output), a terminal, and a format it cannot take.
/// Whether `path` names the pipe or device standard output is (`/dev/stdout`, `/dev/fd/1`, or
/// the FIFO or device it is redirected to), not a regular file, which is written under another
/// name and renamed.
private func isStandardOutput(_ path: String) -> Bool {
  var named = stat()
  var standard = stat()
  guard stat(path, &named) == 0, fstat(STDOUT_FILENO, &standard) == 0 else { return false }
  let kind = named.st_mode & S_IFMT
  return (kind == S_IFIFO || kind == S_IFCHR) && named.st_dev == standard.st_dev
    && named.st_ino == standard.st_ino
}

private func checkStandardOutput(
  _ arguments: ParsedArguments, _ settings: StretchSettings
) throws(CLIError) {
  let name = "stretch"
  if arguments.has("json") {
    throw CLIError.usage(
      name, "--json prints on standard output, which OUT '-' takes for the audio")
  }
  if isatty(STDOUT_FILENO) != 0 {
    throw CLIError.usage(
      name, "will not write audio to a terminal: redirect standard output, or name an OUT file")
  }
  if let format = settings.format, !standardOutputFormats.contains(format) {
    let reason =
      ["m4a", "mp4"].contains(format)
      ? "MP4 cannot be written to standard output (its header is finished by seeking back)"
      : "unknown --format '\(format)'"
    throw CLIError.usage(
      name, reason + "; use " + standardOutputFormats.joined(separator: ", "))
  }
}

/// Stretches `input` into the file `output` (or, with `toStandardOutput`, to standard output):
/// the output file appears complete or not at all.
///
/// - Throws: `CLIError` with the command's exit codes (66 missing input, 65 not media, 64 bad
///   output name or the input itself, 1 read or write failure).
func stretchFile(
  _ input: String, to output: String, _ settings: StretchSettings, showProgress: Bool,
  toStandardOutput: Bool = false
) throws(CLIError) -> StretchReport {
  let name = "stretch"
  if toStandardOutput {
    try refuseBitRate(settings, format: settings.format ?? "wav", for: "standard output")
  } else {
    try refuseBitRate(settings, format: pathExtension(output), for: "'\(output)'")
  }
  try checkInputFile(input, command: name)
  if !toStandardOutput { try refuseOverwritingInput(output, input: input, command: name) }
  // The libraries take the input by a path they can open (its own, unless not UTF-8).
  let source = try openableInput(input, command: name)
  var decoder = try openDecoder(source, settings)
  var stretcher = try makeStretcher(for: decoder, settings)
  // Created securely beside the final file and renamed over it when complete; a pipe or a
  // device is written in place (see OutputFile). The format follows the name as typed.
  let file =
    toStandardOutput
    ? try OutputFile(standardOutputFor: name) : try OutputFile(path: output, command: name)
  // A pipe or a device named without an audio extension (`/dev/null`, a FIFO) takes WAV with
  // a streaming header, as standard output does.
  let extensionless =
    file.inPlace && !outputFileFormats.contains(pathExtension(output).lowercased())
  if extensionless && !toStandardOutput {
    do throws(CLIError) {
      try refuseBitRate(settings, format: "wav", for: "the pipe or device '\(output)'")
    } catch {
      file.discard()
      throw error
    }
  }
  let encoder = try makeEncoder(
    file, output: file.name, for: decoder, bitRate: settings.bitRate,
    format: toStandardOutput ? settings.format ?? "wav" : extensionless ? "wav" : nil)

  let outputSampleRate = encoder.outputSampleRate
  let started = ContinuousClock.now
  let progress = ProgressBar(total: decoder.duration, enabled: showProgress)
  let frames: (in: Int, out: Int)
  do throws(MediaError) {
    frames = try pumpAudio(&decoder, &stretcher, encoder, progress: progress)
  } catch {
    file.discard()
    progress.clear()
    if error.kind == .outputFailed { throw CLIError.failure(name, error.description) }
    throw mediaFailure(error, command: name, input: source)
  }
  progress.clear()
  try file.commit()
  return StretchReport(
    input: input, output: output, track: decoder.streamIndex, framesIn: frames.in,
    framesOut: frames.out, channels: decoder.channels, sampleRate: decoder.sampleRate,
    outputSampleRate: outputSampleRate, latency: stretcher.latencySeconds,
    elapsed: secondsSince(started))
}

/// The decoder of the chosen audio track of `source`.
private func openDecoder(
  _ source: String, _ settings: StretchSettings
) throws(CLIError) -> AudioDecoder {
  let streamIndex = try chooseTrack(settings.track, input: source, settings)
  do throws(MediaError) {
    return try AudioDecoder(
      path: source, streamIndex: streamIndex, timeout: settings.timeout, remote: settings.remote)
  } catch {
    throw mediaFailure(error, command: "stretch", input: source)
  }
}

/// A stretcher for the decoder's audio with every `--speed-map` change scheduled up front at
/// its input frame, where the stretcher applies it exactly, however many there are and
/// however close together.
private func makeStretcher(
  for decoder: borrowing AudioDecoder, _ settings: StretchSettings
) throws(CLIError) -> TimeStretcher {
  var stretcher: TimeStretcher
  do throws(StretchError) {
    stretcher = try TimeStretcher(
      sampleRate: decoder.sampleRate, channels: decoder.channels, speed: settings.baseSpeed,
      quality: settings.quality)
  } catch {
    throw CLIError.data("stretch", "cannot stretch this audio: \(error)")
  }
  for change in settings.changes {
    // A time past any input (up to 1e308 s) is a frame never reached.
    let exact = (change.time * Double(decoder.sampleRate)).rounded()
    let frame = exact < 0x1p62 ? Int(exact) : 1 << 62
    do throws(StretchError) {
      try stretcher.setSpeed(change.speed, atInputFrame: frame)
    } catch {
      throw CLIError.usage("stretch", "--speed-map: \(error)")
    }
  }
  return stretcher
}

/// The encoder writing `file` in the format `output`'s name asks for; discards `file` when the
/// encoder cannot be made.
private func makeEncoder(
  _ file: OutputFile, output: String, for decoder: borrowing AudioDecoder, bitRate: Int?,
  format: String?
) throws(CLIError) -> AudioEncoder {
  do throws(MediaError) {
    return try AudioEncoder(
      fileDescriptor: file.descriptor, name: output, sampleRate: decoder.sampleRate,
      channels: decoder.channels, bitRate: bitRate, channelMask: decoder.channelMask,
      format: format)
  } catch {
    file.discard()
    if error.kind == .invalidArgument { throw CLIError.usage("stretch", error.detail) }
    if error.kind == .outputFailed { throw CLIError.failure("stretch", error.description) }
    throw CLIError.failure("stretch", "cannot create '\(output)': \(error)")
  }
}

/// Decodes, stretches and encodes until the input ends, a block at a time (memory stays
/// bounded whatever the input's length); returns the frames read and written. The encoder
/// writes on a thread of its own while the next blocks are stretched (see
/// ``BackgroundEncoder``); on a failure the encoder is abandoned.
private func pumpAudio(
  _ decoder: inout AudioDecoder, _ stretcher: inout TimeStretcher,
  _ encoder: consuming AudioEncoder, progress: ProgressBar
) throws(MediaError) -> (in: Int, out: Int) {
  let blockFrames = 16384
  let channels = decoder.channels
  // Allocated without being filled first: the decoder and the stretcher write what is read.
  func block() -> [Float] {
    [Float](unsafeUninitializedCapacity: blockFrames * channels) { _, count in
      count = blockFrames * channels
    }
  }
  var inBuffer = block()
  var outBuffer = block()
  // Two blocks may wait to be written while the third is filled.
  let writer = BackgroundEncoder(encoder, spares: [block(), block()])
  var framesIn = 0
  var framesOut = 0
  func drain(_ stretcher: inout TimeStretcher) throws(MediaError) {
    while true {
      let n = stretcher.pull(into: &outBuffer, maxFrames: blockFrames)
      if n == 0 { return }
      try writer.write(&outBuffer, frames: n)
      framesOut += n
    }
  }
  do throws(MediaError) {
    while true {
      let n = try decoder.read(into: &inBuffer, maxFrames: blockFrames)
      if n == 0 { break }
      stretcher.push(inBuffer, frames: n)
      framesIn += n
      try drain(&stretcher)
      progress.update(seconds: Double(framesIn) / Double(decoder.sampleRate))
    }
    stretcher.finish()
    try drain(&stretcher)
    try writer.finish()
  } catch {
    writer.abandon()
    throw error
  }
  return (framesIn, framesOut)
}

/// Parses and range-checks one speed value (of `--speed`, or of a `--speed-map` entry): a
/// decimal number, optionally followed by `x`, `X` or `×` (`2x`, `1.5×` as the speed menu
/// writes them).
func parseSpeed(_ text: String) throws(CLIError) -> Double {
  let range = TimeStretcher.supportedSpeeds
  let rangeText = "\(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound))"
  if text.allSatisfy(\.isWhitespace) {
    throw CLIError.usage(
      "stretch",
      "speed '\(text)' is empty: expected a number such as 1.5 or 2x; supported speeds are "
        + rangeText)
  }
  var number = Substring(text)
  if let last = number.last, last == "x" || last == "X" || last == "×" {
    number = number.dropLast()
  }
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
    if changes.count > TimeStretcher.scheduledCapacity {
      throw CLIError.usage(
        "stretch", "--speed-map has more than \(TimeStretcher.scheduledCapacity) changes")
    }
  }
  return changes
}

/// Picks the stream index for `--track N|LANG`, or `nil` for the default audio track.
private func chooseTrack(
  _ selector: String?, input: String, _ settings: StretchSettings
) throws(CLIError) -> Int? {
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
      path: input, preferences: TrackPreferences(languages: [language]),
      timeout: settings.timeout, remote: settings.remote)
  } catch {
    throw mediaFailure(error, command: "stretch", input: input)
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
  // A URL is checked by its request.
  if RemoteFile.isRemote(path) { return }
  var info = stat()
  guard stat(fileSystemPath(path), &info) == 0 else {
    throw CLIError.noInput(command, "cannot open '\(path)': \(String(cString: strerror(errno)))")
  }
  if (info.st_mode & S_IFMT) == S_IFDIR {
    throw CLIError.noInput(command, "'\(path)' is a directory")
  }
  guard access(fileSystemPath(path), R_OK) == 0 else {
    throw CLIError.noInput(command, "cannot read '\(path)': \(String(cString: strerror(errno)))")
  }
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
