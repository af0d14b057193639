#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--files-from FILE|-` and `-0`: the options that make `tracks` and `stretch` read their input
/// files from a list.
let filesFromOptions = [
  OptionSpec(
    "files-from", value: "FILE",
    help: "Read input paths from FILE ('-': standard input), one per line."),
  OptionSpec("null", short: "0", help: "With --files-from: paths end with NUL, not newline."),
]

/// One path read from a `--files-from` list.
struct ListedPath: Sendable {
  /// The path's record number in the list, from 1 (empty records counted).
  var line: Int
  /// The path, decoded like a command-line argument (see ``CommandLineBytes``).
  var path: String
  /// Whether the path's bytes are valid UTF-8.
  var valid: Bool
  /// Why the record is not a usable path (too long, or holding a NUL), or `nil`.
  var problem: String?
}

/// Reads the paths of a `--files-from` list as bytes, a block at a time: memory stays bounded
/// however long the list is. Records end with a newline (or NUL with `-0`); empty records are
/// skipped; no byte of a path is changed or trimmed (a trailing carriage return is part of the
/// name). A record longer than ``longestPath`` bytes is reported, not kept.
struct PathListReader: ~Copyable {
  /// The longest path kept, in bytes: Linux's `PATH_MAX` is 4096, so a longer record is no path.
  static let longestPath = 4096

  private let descriptor: Int32
  private let ownsDescriptor: Bool
  private let separator: UInt8
  private let name: String
  private let command: String
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var atEnd = false
  private var record = 0

  /// Opens the list `name` (`-` is standard input).
  ///
  /// - Throws: `CLIError` with exit code 66 when the list cannot be opened or is a folder.
  init(name: String, nulSeparated: Bool, command: String) throws(CLIError) {
    self.name = name
    self.command = command
    separator = nulSeparated ? 0 : 0x0A
    buffer = [UInt8](repeating: 0, count: 1 << 16)
    if name == "-" {
      descriptor = STDIN_FILENO
      ownsDescriptor = false
      return
    }
    let opened = open(fileSystemPath(name), O_RDONLY | O_CLOEXEC)
    guard opened >= 0 else {
      throw CLIError.noInput(
        command, "cannot open list '\(name)': \(String(cString: strerror(errno)))")
    }
    var info = stat()
    if fstat(opened, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
      close(opened)
      throw CLIError.noInput(command, "list '\(name)' is a directory")
    }
    descriptor = opened
    ownsDescriptor = true
  }

  deinit {
    if ownsDescriptor { close(descriptor) }
  }

  /// The next non-empty record, or `nil` at the end of the list.
  ///
  /// - Throws: `CLIError` with exit code 66 when the list cannot be read.
  mutating func next() throws(CLIError) -> ListedPath? {
    var pending: [UInt8] = []
    var tooLong = false
    while true {
      if start == end {
        if atEnd { break }
        try fill()
        continue
      }
      let slice = buffer[start..<end]
      let stop = slice.firstIndex(of: separator)
      let piece = buffer[start..<(stop ?? end)]
      if !tooLong {
        if pending.count + piece.count > Self.longestPath {
          tooLong = true
          pending.removeAll()
        } else {
          pending.append(contentsOf: piece)
        }
      }
      guard let stop else {
        start = end
        continue
      }
      start = stop + 1
      record += 1
      if tooLong { return tooLongRecord() }
      if pending.isEmpty { continue }
      return listed(pending)
    }
    // The last record may lack its separator.
    guard tooLong || !pending.isEmpty else { return nil }
    record += 1
    return tooLong ? tooLongRecord() : listed(pending)
  }

  private func tooLongRecord() -> ListedPath {
    ListedPath(
      line: record, path: "", valid: true,
      problem: "record \(record) of the list is longer than \(Self.longestPath) bytes")
  }

  private func listed(_ bytes: [UInt8]) -> ListedPath {
    let (text, valid) = CommandLineBytes.decode(bytes)
    // A newline-separated list may hold a NUL, which no path can.
    let problem =
      bytes.contains(0) ? "record \(record) of the list holds a NUL byte, which no path can" : nil
    return ListedPath(line: record, path: text, valid: valid, problem: problem)
  }

  private mutating func fill() throws(CLIError) {
    let count = buffer.withUnsafeMutableBytes { raw in
      while true {
        let n = read(descriptor, raw.baseAddress, raw.count)
        if n < 0 && errno == EINTR { continue }
        return n
      }
    }
    guard count >= 0 else {
      throw CLIError.noInput(
        command, "cannot read list '\(name)': \(String(cString: strerror(errno)))")
    }
    start = 0
    end = count
    if count == 0 { atEnd = true }
  }
}

/// The options that cannot go with `--files-from`, and the check that the list is given when
/// `-0` is.
func checkListOptions(_ arguments: ParsedArguments, command: String) throws(CLIError) {
  if arguments.has("null") && !arguments.has("files-from") {
    throw CLIError.usage(command, "-0 only applies with --files-from")
  }
  if arguments.has("files-from") && !arguments.positionals.isEmpty {
    throw CLIError.usage(
      command, "input files come from --files-from; got '\(arguments.positionals[0])' as well")
  }
}

/// Makes the listed paths that are not UTF-8 known to ``fileSystemBytes(_:)`` and
/// ``jsonName(_:)`` while `body` runs, and forgets them after, so the set stays as small as a
/// batch. Call only while no worker thread runs.
func withListedNames<T>(_ paths: [ListedPath], _ body: () throws(CLIError) -> T) throws(CLIError)
  -> T
{
  let added = paths.filter { !$0.valid && !CommandLineBytes.undecodable.contains($0.path) }
  for entry in added { CommandLineBytes.undecodable.insert(entry.path) }
  defer {
    for entry in added { CommandLineBytes.undecodable.remove(entry.path) }
  }
  return try body()
}

/// The per-file exit codes of a batch, counted, and the summary and exit code they give.
struct BatchTally: Sendable {
  /// Files by the exit code each would have had alone.
  private(set) var counts: [ExitCode: Int] = [:]
  /// Files skipped because their output already existed (`--skip-existing`).
  var skipped = 0

  /// Counts one file.
  mutating func add(_ code: ExitCode) { counts[code, default: 0] += 1 }

  /// Files counted so far.
  var files: Int { counts.values.reduce(skipped, +) }

  /// The batch's exit code: 0 when every file succeeded (or was skipped), else the first of
  /// 66, 65, 64, 1 that some file had.
  var exitCode: ExitCode {
    for code in [ExitCode.noInput, .dataError, .usage, .failure] where counts[code, default: 0] > 0
    {
      return code
    }
    return .ok
  }

  /// The summary line for stderr, with its newline: `mtool: tracks: 3 files: 2 ok, 1 failed
  /// (66: 1) in 0.2 s`.
  func summary(command: String, seconds: Double, doneWord: String = "ok") -> String {
    let failed = files - skipped - counts[.ok, default: 0]
    var text = "\(files) file\(files == 1 ? "" : "s"): \(counts[.ok, default: 0]) \(doneWord)"
    if skipped > 0 { text += ", \(skipped) skipped (output exists)" }
    text += ", \(failed) failed"
    let failures = [ExitCode.noInput, .dataError, .usage, .failure].compactMap { code in
      counts[code].map { "exit \(code.rawValue): \($0)" }
    }
    if !failures.isEmpty { text += " (" + failures.joined(separator: ", ") + ")" }
    text += " in \(formatNumber(seconds)) s"
    return CLIError(code: .ok, command: command, message: text).line + "\n"
  }
}

/// Seconds since `start` on the monotonic clock.
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

/// The help paragraph on `--files-from` shared by the commands that take it.
let filesFromHelp = """
  With --files-from, the input paths are read from a list (a file, or '-' for standard
  input): one path per line, or per NUL-terminated record with -0. The bytes of each record
  are the path, unchanged (no trimming; names need not be UTF-8); empty records are skipped.
  The list is read as it is processed, so memory stays flat however many paths it holds.
  No FILE arguments go with it. Each file keeps its own --timeout. One failed file does not
  stop the batch: it gets its result line (with --jsonl: "error" and "exitCode", the code
  that file alone would have given) and the next file is taken. When the list is done, one
  summary line goes to stderr: files, ok, failed by exit code, seconds.
  """
