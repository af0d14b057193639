import MediaTracks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let tracksCommand = Command(
  name: "tracks",
  summary: "List the audio and subtitle tracks of media files.",
  usage: "mtool tracks FILE... [--json | --jsonl] [--prefer LANGS] [--jobs N] [--timeout S]",
  options: [
    OptionSpec("json", help: "Print one JSON document for all files."),
    OptionSpec("jsonl", help: "Print one JSON object per file, as each completes."),
    OptionSpec(
      "prefer", value: "LANGS", help: "Preferred languages, comma-separated (en-US,fr)."),
    OptionSpec(
      "jobs", short: "j", value: "N", help: "Files probed at once (default: one per processor)."),
    timeoutOption,
  ],
  details: """
    arguments:
      FILE   a media file, an HLS master playlist or a DASH manifest (recognised by content)

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
    """,
  run: runTracks
)

@Sendable
func runTracks(_ arguments: ParsedArguments) throws(CLIError) -> ExitCode {
  guard !arguments.positionals.isEmpty else {
    throw CLIError.usage("tracks", "no input file; see 'mtool help tracks'")
  }
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
  let jobs = try arguments.int("jobs", command: "tracks") ?? processorCount()
  guard jobs >= 1 else { throw CLIError.usage("tracks", "--jobs must be at least 1, got \(jobs)") }
  let preferences = TrackPreferences(languages: languages)
  let timeout = try parseTimeout(arguments, command: "tracks")
  let paths = arguments.positionals
  let mode: TracksMode =
    arguments.has("jsonl") ? .jsonLines : arguments.has("json") ? .json : .table

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
    var onOutput: (@Sendable (Int, RenderedFile) -> Void)? = nil
    if mode == .jsonLines {
      onOutput = { @Sendable _, file in
        var out = StandardOutput()
        out.write(file.text)
        if !out.flush() { linesFailed.set() }
        if let line = file.errorLine {
          var err = StandardError()
          err.write(line)
        }
      }
    }
    // A name that is not UTF-8 is opened here and probed through its descriptor.
    let sources = paths[batchStart..<batchEnd].map {
      (try? openableInput($0, command: "tracks")) ?? $0
    }
    defer { releaseInputs() }
    let files = MediaProbe.probe(
      paths: sources, jobs: jobs, preferences: preferences, timeout: timeout,
      transform: render, onOutput: onOutput)
    var stderr = StandardError()
    for file in files {
      if let kind = file.errorKind {
        switch kind {
        case .notFound: code = .noInput
        case .malformed, .noSuchStream, .invalidArgument:
          if code != .noInput { code = .dataError }
        case .outputFailed, .other:
          if code == .ok { code = .failure }
        }
      }
      if mode == .jsonLines { continue }
      if let line = file.errorLine { stderr.write(line) }
      guard !file.text.isEmpty else { continue }
      if !firstFile { stdout.write(mode == .json ? "," : "\n") }
      firstFile = false
      stdout.write(file.text)
    }
    batchStart = batchEnd
  }
  if mode == .json { stdout.write("]}\n") }
  guard stdout.flush(), !linesFailed.isSet else { throw .standardOutputFailed("tracks") }
  return code
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

  init(path: String, _ result: Result<MediaInfo, MediaError>, mode: TracksMode) {
    switch mode {
    case .table:
      if case .success(let info) = result {
        text = TracksOutput.table(info, path: path)
      } else {
        text = ""
      }
    case .json: text = TracksOutput.json(path: path, result).serialized
    case .jsonLines: text = TracksOutput.json(path: path, result).serialized + "\n"
    }
    if case .failure(let error) = result {
      errorKind = error.kind
      errorLine = TracksOutput.errorLine(path: path, error)
    }
  }
}

/// The number of processors online (at least 1): the default number of files probed at once.
func processorCount() -> Int {
  max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
