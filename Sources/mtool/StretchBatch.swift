#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The outputs a batch has written, by device and inode: a later input whose output is one of
/// them (two inputs that the template maps to one name, or one file listed twice under two
/// names) is refused instead of overwriting it. 16 bytes per written file.
private struct WrittenOutputs {
  private struct FileID: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  private var written: Set<FileID> = []

  private static func id(_ path: String) -> FileID? {
    var info = stat()
    guard stat(fileSystemPath(path), &info) == 0 else { return nil }
    return FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// Whether `path` is a file this batch wrote.
  func contains(_ path: String) -> Bool { Self.id(path).map(written.contains) ?? false }

  /// Remembers `path` as written.
  mutating func insert(_ path: String) {
    if let id = Self.id(path) { written.insert(id) }
  }
}

/// The outcome of one input of a stretch batch.
private enum StretchOutcome {
  case written(StretchReport)
  case skipped
  case failed(CLIError)
}

/// `mtool stretch --files-from LIST --output-template T`: each listed file stretched into the
/// output the template names for it, one file at a time (each output is complete or absent, so
/// an interrupted batch resumes with `--skip-existing`), its result line printed as it is done,
/// then the summary line on stderr.
///
/// - Returns: The batch's exit code (see ``BatchTally/exitCode``).
/// - Throws: `CLIError` for a bad option (64), a list that cannot be read (66), or standard
///   output closed (1).
func runStretchBatch(
  _ arguments: ParsedArguments, _ settings: StretchSettings
) throws(CLIError) -> ExitCode {
  let name = "stretch"
  if arguments.has("json") {
    throw CLIError.usage(name, "with --files-from, --jsonl gives one JSON object per file")
  }
  guard let templateText = arguments.value("output-template") else {
    throw CLIError.usage(name, "--files-from needs --output-template (see 'mtool help stretch')")
  }
  let template = try OutputTemplate(templateText, command: name)
  // A template whose outputs all end in one lossless extension refuses --bitrate at once,
  // before any file; one whose extension follows the input's ({ext}) refuses it per file.
  let extensions = Set(
    ["a/b.mp3", "c/d.flac", "e"].map { pathExtension(template.output(for: $0)).lowercased() })
  if extensions.count == 1, let only = extensions.first {
    try refuseBitRate(settings, format: only, for: "every output of '\(templateText)'")
  }
  let skipExisting = arguments.has("skip-existing")
  let jsonLines = arguments.has("jsonl")
  var reader = try PathListReader(
    name: arguments.value("files-from") ?? "-", nulSeparated: arguments.has("null"), command: name)
  let started = ContinuousClock.now
  var tally = BatchTally()
  var written = WrittenOutputs()
  var stdout = StandardOutput()
  var stderr = StandardError()
  while let entry = try reader.next() {
    let output = entry.problem == nil ? template.output(for: entry.path) : ""
    let outcome = withBatchNames(entry, output) { () -> StretchOutcome in
      defer { releaseInputs() }
      if let problem = entry.problem { return .failed(.noInput(name, problem)) }
      if written.contains(output) {
        return .failed(
          .usage(name, "output '\(output)' was already written for another input of the list"))
      }
      do throws(CLIError) {
        try refuseOverwritingInput(output, input: entry.path, command: name)
        if skipExisting && access(fileSystemPath(output), F_OK) == 0 { return .skipped }
        let report = try stretchFile(entry.path, to: output, settings, showProgress: false)
        written.insert(output)
        return .written(report)
      } catch {
        return .failed(error)
      }
    }
    switch outcome {
    case .written: tally.add(.ok)
    case .skipped: tally.skipped += 1
    case .failed(let error):
      tally.add(error.code)
      stderr.write(error.line + "\n")
    }
    withBatchNames(entry, output) {
      stdout.write(resultLine(outcome, entry: entry, output: output, settings, json: jsonLines))
    }
    // Results are printed as each file is done (a pipeline reads them as they come).
    guard stdout.flush() else { throw .standardOutputFailed(name) }
  }
  stderr.write(tally.summary(command: name, seconds: secondsSince(started), doneWord: "written"))
  return tally.exitCode
}

/// Runs `body` with the entry's path, and an output made from it, known as names that are not
/// UTF-8 when their bytes are not (see ``CommandLineBytes``).
private func withBatchNames<T>(_ entry: ListedPath, _ output: String, _ body: () -> T) -> T {
  let raw = output.unicodeScalars.contains { $0.value >= CommandLineBytes.rawByteBase + 0x80 }
  let names = (entry.valid ? [] : [entry.path]) + (raw ? [output] : [])
  let added = names.filter { !CommandLineBytes.undecodable.contains($0) }
  for name in added { CommandLineBytes.undecodable.insert(name) }
  defer { for name in added { CommandLineBytes.undecodable.remove(name) } }
  return body()
}

/// One input's result line, with its newline: the single-file line (or `OUTPUT: skipped`), or
/// with `--jsonl` a JSON object with `line`, `status` (`written`, `skipped`, `failed`),
/// `error`, `exitCode` and, for a written file, the `--json` members.
private func resultLine(
  _ outcome: StretchOutcome, entry: ListedPath, output: String, _ settings: StretchSettings,
  json: Bool
) -> String {
  switch (outcome, json) {
  case (.written(let report), false): return report.text(settings)
  case (.skipped, false): return "\(displayText(output)): skipped (exists)\n"
  case (.failed, false): return ""
  case (.written(let report), true):
    let members: [(String, JSONValue)] =
      [("line", .int(entry.line)), ("status", .string("written"))]
      + report.jsonMembers(settings) + [("error", .null), ("exitCode", .int(0))]
    return JSONValue.object(members).serialized + "\n"
  case (.skipped, true), (.failed, true):
    var error = JSONValue.null
    var code = 0
    if case .failed(let failure) = outcome {
      error = .string(displayText(failure.message))
      code = Int(failure.code.rawValue)
    }
    let members: [(String, JSONValue)] = [
      ("line", .int(entry.line)), ("status", .string(code == 0 ? "skipped" : "failed")),
      ("input", .string(jsonName(entry.path))),
      ("output", entry.problem == nil ? .string(jsonName(output)) : .null),
      ("error", error), ("exitCode", .int(code)),
    ]
    return JSONValue.object(members).serialized + "\n"
  }
}
