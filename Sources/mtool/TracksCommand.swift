import MediaTracks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let tracksCommand = Command(
  name: "tracks",
  summary: "List the audio and subtitle tracks of media files.",
  usage: "mtool tracks FILE... [--json | --jsonl] [--prefer LANGS] [--jobs N]",
  options: [
    OptionSpec("json", help: "Print one JSON document for all files."),
    OptionSpec("jsonl", help: "Print one JSON object per file, as each completes."),
    OptionSpec(
      "prefer", value: "LANGS", help: "Preferred languages, comma-separated (en-US,fr)."),
    OptionSpec("jobs", short: "j", value: "N", help: "Files probed at once (default 4)."),
  ],
  details: """
    arguments:
      FILE   a media file, an HLS master playlist (.m3u8) or a DASH manifest (.mpd)

    Each track gets a readable label; '*' marks the audio and subtitle tracks a player
    would start with, chosen for the --prefer languages (exact language before base
    language before the file's default flag; commentary and audio description only when
    nothing else exists). Subtitles: none or forced-only when the audio is in a preferred
    language, else a full track in the first preferred language that has one.

    A file that cannot be read is reported on stderr ('mtool: tracks: FILE: reason') and,
    with --json or --jsonl, in the file's "error" field; the other files are still listed.
    The exit code is 66 if a file was missing, else 65 if one was not readable media.
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
  let jobs = try arguments.int("jobs", command: "tracks") ?? 4
  guard jobs >= 1 else { throw CLIError.usage("tracks", "--jobs must be at least 1, got \(jobs)") }
  let preferences = TrackPreferences(languages: languages)
  let paths = arguments.positionals

  let streaming = arguments.has("jsonl")
  let printAsCompleted: @Sendable (Int, Result<MediaInfo, MediaError>) -> Void = {
    position, result in
    var out = StandardOutput()
    out.write(TracksOutput.json(path: paths[position], result).serialized + "\n")
    out.flush()
    if case .failure(let error) = result {
      var err = StandardError()
      err.write(TracksOutput.errorLine(path: paths[position], error))
    }
  }
  var stdout = StandardOutput()
  defer { stdout.flush() }
  var stderr = StandardError()
  var code = ExitCode.ok
  var jsonFiles: [JSONValue] = []
  var firstTable = true
  // Files are probed in batches, so memory stays flat however many files are given (results
  // are dropped once printed; only --json keeps its one document).
  let batch = 512
  var batchStart = 0
  while batchStart < paths.count {
    let batchEnd = min(paths.count, batchStart + batch)
    let offset = batchStart
    var onResult: (@Sendable (Int, Result<MediaInfo, MediaError>) -> Void)? = nil
    if streaming {
      onResult = { @Sendable position, result in printAsCompleted(offset + position, result) }
    }
    let results: [Result<MediaInfo, MediaError>] = MediaProbe.probe(
      paths: Array(paths[batchStart..<batchEnd]), jobs: jobs, preferences: preferences,
      onResult: onResult)
    for (path, result) in zip(paths[batchStart..<batchEnd], results) {
      if case .failure(let error) = result {
        if error.kind == MediaError.Kind.notFound {
          code = .noInput
        } else if code == .ok {
          code = .dataError
        }
        if !streaming { stderr.write(TracksOutput.errorLine(path: path, error)) }
      }
      if streaming { continue }
      if arguments.has("json") {
        jsonFiles.append(TracksOutput.json(path: path, result))
      } else if case .success(let info) = result {
        if !firstTable { stdout.write("\n") }
        firstTable = false
        stdout.write(TracksOutput.table(info))
      }
    }
    batchStart = batchEnd
  }
  if arguments.has("json") {
    stdout.write(JSONValue.object([("files", .array(jsonFiles))]).serialized + "\n")
  }
  return code
}
