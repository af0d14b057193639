import MediaTracks

/// `mtool tracks --files-from LIST`: the listed files probed `settings.jobs` at a time, a block
/// of the list at a time (memory stays flat however long the list is), each file's result
/// printed as it completes with its record number and the exit code it alone would have given,
/// then the summary line on stderr.
///
/// - Returns: The batch's exit code (see ``BatchTally/exitCode``).
/// - Throws: `CLIError` when the list cannot be opened or read (66) or standard output does not
///   take the results (1).
func runTracksBatch(
  list: String, nulSeparated: Bool, _ settings: TracksSettings
) throws(CLIError) -> ExitCode {
  var reader = try PathListReader(name: list, nulSeparated: nulSeparated, command: "tracks")
  let started = ContinuousClock.now
  let mode = settings.mode
  var tally = BatchTally()
  var stdout = StandardOutput()
  let linesFailed = SharedFlag()
  var firstFile = true
  if mode == .json { stdout.write("{\"files\":[") }
  // Enough files per block that the workers rarely wait for the block's slowest file.
  let blockSize = max(512, 64 * settings.jobs)
  while true {
    var block: [ListedPath] = []
    while block.count < blockSize, let entry = try reader.next() { block.append(entry) }
    if block.isEmpty { break }
    let files = try probeListed(block, settings, onOutput: linesFailed)
    for file in files { tally.add(file.errorKind.map(exitCode(for:)) ?? .ok) }
    RenderedFile.printFiles(files, mode: mode, firstFile: &firstFile, to: &stdout)
    // Nobody reads the results any more: stop rather than probe the rest of the list.
    if linesFailed.isSet || stdout.failed { throw .standardOutputFailed("tracks") }
  }
  if mode == .json { stdout.write("]}\n") }
  guard stdout.flush(), !linesFailed.isSet else { throw .standardOutputFailed("tracks") }
  var stderr = StandardError()
  stderr.write(tally.summary(command: "tracks", seconds: secondsSince(started)))
  return tally.exitCode
}

/// Probes one block of listed paths; with `--jsonl` each line is printed as its file completes.
private func probeListed(
  _ block: [ListedPath], _ settings: TracksSettings, onOutput failed: SharedFlag
) throws(CLIError) -> [RenderedFile] {
  let mode = settings.mode
  return try withListedNames(block) { () throws(CLIError) -> [RenderedFile] in
    defer { releaseInputs() }
    // A name that is not UTF-8 is opened here and probed through its descriptor; a record that
    // is no path is not opened at all.
    let sources = block.map { entry in
      entry.problem != nil ? "" : (try? openableInput(entry.path, command: "tracks")) ?? entry.path
    }
    let render: @Sendable (Int, Result<MediaInfo, MediaError>) -> RenderedFile = {
      position, result in
      let entry = block[position]
      var result = result
      if let problem = entry.problem {
        result = .failure(MediaError(kind: .notFound, operation: "list", detail: problem))
      }
      return RenderedFile(path: entry.path, result, mode: mode, line: entry.line)
    }
    return MediaProbe.probe(
      paths: sources, jobs: settings.jobs, preferences: settings.preferences,
      timeout: settings.timeout, remote: settings.remote, transform: render,
      onOutput: mode == .jsonLines ? jsonLinePrinter(failed) : nil)
  }
}
