import MediaTracks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let tracksCommand = Command(
  name: "tracks",
  summary: "List the audio and subtitle tracks of media files.",
  usage: """
    mtool tracks FILE... [--json | --jsonl] [--prefer LANGS] [--jobs N] [--timeout S]
           mtool tracks --files-from LIST|- [-0] [--json | --jsonl] [options]
    """,
  options: [
    OptionSpec("json", help: "Print one JSON document for all files."),
    OptionSpec("jsonl", help: "Print one JSON object per file, as each completes."),
    OptionSpec(
      "prefer", value: "LANGS", repeatable: true,
      help: "Preferred languages, comma-separated (en-US,fr; repeatable)."),
    OptionSpec(
      "jobs", short: "j", value: "N", help: "Files probed at once (default: one per processor)."),
    timeoutOption,
    headerOption,
    cacertOption,
  ] + filesFromOptions,
  details: """
    arguments:
      FILE   a media file, an HLS master playlist or a DASH manifest (recognised by content),
             a local path or an http(s) URL
      LIST   a file listing the inputs (see --files-from below)

    Each track gets a readable label; '*' marks the audio and subtitle tracks a player
    would start with, chosen for the --prefer languages (exact language before base
    language before the file's default flag; commentary and audio description only when
    nothing else exists). Subtitles: none or forced-only when the audio is in a preferred
    language, else a full track in the first preferred language that has one.

    A file that cannot be read is reported on stderr ('mtool: tracks: FILE: reason') and,
    with --json or --jsonl, in the file's "error" field; the other files are still listed.
    The exit code is 66 if a file was missing, else 65 if one was not readable media, else
    1 if one failed otherwise (a read error, a timeout, or FFmpeg's libraries could not be
    loaded). \(timeoutHelp)

    \(remoteHelp)

    \(filesFromHelp)
    With --jsonl, lines come in the order files complete (not list order); each carries the
    path as listed (a name that is not UTF-8 in its \\xFF-escaped form), "line" (its record
    number in the list, from 1) and "exitCode" (0, 65, 66 or 1). With --files-from the exit
    code is 0 when every file was read, else 66, 65 or 1 as above; usage errors (64), a list
    that cannot be read (66) or standard output closed (1) end the batch at once.
    """,
  run: runTracks
)

/// What `mtool tracks` was asked for, parsed from its options.
struct TracksSettings: Sendable {
  var preferences: TrackPreferences
  var jobs: Int
  var timeout: Double?
  var remote: RemoteAccess
  var mode: TracksMode

  init(_ arguments: ParsedArguments) throws(CLIError) {
    if arguments.has("json") && arguments.has("jsonl") {
      throw CLIError.usage("tracks", "--json and --jsonl cannot be combined")
    }
    var languages: [String] = []
    for value in arguments.options["prefer"] ?? [] {
      for item in value.split(separator: ",") {
        let text = String(item.trimmingSpaces)
        guard let tag = LanguageTag.bcp47(text) else {
          throw CLIError.usage(
            "tracks", "--prefer expects language tags like 'en-US,fr', got '\(text)'")
        }
        languages.append(tag)
      }
    }
    jobs = try arguments.int("jobs", command: "tracks") ?? processorCount()
    guard jobs >= 1 else {
      throw CLIError.usage("tracks", "--jobs must be at least 1, got \(jobs)")
    }
    preferences = TrackPreferences(languages: languages)
    timeout = try parseTimeout(arguments, command: "tracks")
    remote = try parseRemoteAccess(arguments, command: "tracks")
    mode = arguments.has("jsonl") ? .jsonLines : arguments.has("json") ? .json : .table
  }
}

@Sendable
func runTracks(_ arguments: ParsedArguments) throws(CLIError) -> ExitCode {
  try checkListOptions(arguments, command: "tracks")
  let settings = try TracksSettings(arguments)
  if let list = arguments.value("files-from") {
    return try runTracksBatch(list: list, nulSeparated: arguments.has("null"), settings)
  }
  guard !arguments.positionals.isEmpty else {
    throw CLIError.usage("tracks", "no input file; see 'mtool help tracks'")
  }
  let paths = arguments.positionals
  let mode = settings.mode
  var stdout = StandardOutput()
  // Whether a JSON line could not be written (set by the probing workers, one at a time).
  let linesFailed = SharedFlag()
  var code = ExitCode.ok
  var firstFile = true
  if mode == .json { stdout.write("{\"files\":[") }
  // Files are probed in batches, so memory stays flat however many files are given (outputs are
  // dropped once printed). Each file is rendered on the worker that probed it.
  let batch = 512
  var batchStart = 0
  while batchStart < paths.count {
    let batchEnd = min(paths.count, batchStart + batch)
    let offset = batchStart
    let render: @Sendable (Int, Result<MediaInfo, MediaError>) -> RenderedFile = {
      position, result in
      RenderedFile(path: paths[offset + position], result, mode: mode)
    }
    // A name that is not UTF-8 is opened here and probed through its descriptor.
    let sources = paths[batchStart..<batchEnd].map {
      (try? openableInput($0, command: "tracks")) ?? $0
    }
    defer { releaseInputs() }
    let files = MediaProbe.probe(
      paths: sources, jobs: settings.jobs, preferences: settings.preferences,
      timeout: settings.timeout, remote: settings.remote, transform: render,
      onOutput: mode == .jsonLines ? jsonLinePrinter(linesFailed) : nil)
    for file in files {
      if let kind = file.errorKind { code = worse(code, exitCode(for: kind)) }
    }
    RenderedFile.printFiles(files, mode: mode, firstFile: &firstFile, to: &stdout)
    batchStart = batchEnd
  }
  if mode == .json { stdout.write("]}\n") }
  guard stdout.flush(), !linesFailed.isSet else { throw .standardOutputFailed("tracks") }
  return code
}

/// Prints each file's JSON line (and its stderr line) as the file completes; sets `failed`
/// when standard output does not take a line.
func jsonLinePrinter(_ failed: SharedFlag) -> @Sendable (Int, RenderedFile) -> Void {
  { @Sendable _, file in
    var out = StandardOutput()
    out.write(file.text)
    if !out.flush() { failed.set() }
    if let line = file.errorLine {
      var err = StandardError()
      err.write(line)
    }
  }
}

/// The exit code `mtool tracks` gives for one file that failed with an error of `kind`.
func exitCode(for kind: MediaError.Kind) -> ExitCode {
  switch kind {
  case .notFound: .noInput
  case .malformed, .noSuchStream, .invalidArgument: .dataError
  case .outputFailed, .other: .failure
  }
}

/// The exit code of several files: 66 over 65 over 1 over 0.
func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode {
  func rank(_ code: ExitCode) -> Int {
    switch code {
    case .noInput: 4
    case .dataError: 3
    case .usage: 2
    case .failure: 1
    case .ok: 0
    }
  }
  return rank(a) >= rank(b) ? a : b
}

/// A flag that workers set one at a time (the probe calls `onOutput` under its lock), read
/// once they are done.
final class SharedFlag: @unchecked Sendable {
  private var value = false
  /// Sets the flag.
  func set() { value = true }
  /// Whether the flag was set.
  var isSet: Bool { value }
}

/// How `mtool tracks` prints.
enum TracksMode: Sendable {
  case table, json, jsonLines
}

/// One file's printed form, made on the worker that probed it.
struct RenderedFile: Sendable {
  /// The file's table (empty for a failed file), JSON object, or JSON line with its newline.
  var text: String
  /// The kind of the file's error, if it failed.
  var errorKind: MediaError.Kind?
  /// The stderr line for a failed file, with its newline.
  var errorLine: String?

  /// - Parameter line: With `--files-from`, the path's record number in the list: the JSON
  ///   forms then also carry `line` and `exitCode`.
  init(path: String, _ result: Result<MediaInfo, MediaError>, mode: TracksMode, line: Int? = nil) {
    var json: JSONValue {
      let object = TracksOutput.json(path: path, result)
      guard let line, case .object(let members) = object else { return object }
      var code = ExitCode.ok
      if case .failure(let error) = result { code = exitCode(for: error.kind) }
      return .object(members + [("line", .int(line)), ("exitCode", .int(Int(code.rawValue)))])
    }
    switch mode {
    case .table:
      if case .success(let info) = result {
        text = TracksOutput.table(info, path: path)
      } else {
        text = ""
      }
    case .json: text = json.serialized
    case .jsonLines: text = json.serialized + "\n"
    }
    if case .failure(let error) = result {
      errorKind = error.kind
      errorLine = TracksOutput.errorLine(path: path, error)
    }
  }
}

extension RenderedFile {
  /// Prints probed files as they are listed: each failed file's error line on stderr and its
  /// text on `stdout` (JSON objects separated by commas, tables by a blank line). JSON lines
  /// are not printed here: the workers print them as each file completes.
  ///
  /// - Parameter firstFile: Whether nothing has been printed yet; updated.
  static func printFiles(
    _ files: [RenderedFile], mode: TracksMode, firstFile: inout Bool,
    to stdout: inout StandardOutput
  ) {
    guard mode != .jsonLines else { return }
    var stderr = StandardError()
    for file in files {
      if let line = file.errorLine { stderr.write(line) }
      guard !file.text.isEmpty else { continue }
      if !firstFile { stdout.write(mode == .json ? "," : "\n") }
      firstFile = false
      stdout.write(file.text)
    }
  }
}

/// The number of processors online (at least 1): the default number of files probed at once.
func processorCount() -> Int {
  max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
