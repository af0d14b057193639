import MediaTracks

let tracksCommand = Command(
  name: "tracks",
  summary: "List the audio and subtitle tracks of media files.",
  usage: "mtool tracks FILE... [--json]",
  options: [
    OptionSpec("json", help: "Print one JSON document.")
  ],
  details: """
    arguments:
      FILE   a media file or a URL FFmpeg can open
    """,
  run: runTracks
)

@Sendable
func runTracks(_ arguments: ParsedArguments) throws(CLIError) -> ExitCode {
  guard !arguments.positionals.isEmpty else {
    throw CLIError.usage("tracks", "no input file; see 'mtool help tracks'")
  }
  var stdout = StandardOutput()
  defer { stdout.flush() }
  var files: [JSONValue] = []
  for path in arguments.positionals {
    let info: ContainerInfo
    do throws(MediaError) {
      info = try MediaContainer.inspect(path: path)
    } catch {
      throw CLIError(
        code: error.kind == .notFound ? .noInput : .dataError, command: "tracks",
        message: error.description)
    }
    if arguments.has("json") {
      files.append(
        .object([
          ("path", .string(path)), ("format", .string(info.formatName)),
          ("streams", .int(info.streamCount)),
        ]))
    } else {
      stdout.write("\(path): \(info.formatName), \(info.streamCount) streams\n")
    }
  }
  if arguments.has("json") {
    stdout.write(JSONValue.object([("files", .array(files))]).serialized + "\n")
  }
  return .ok
}
