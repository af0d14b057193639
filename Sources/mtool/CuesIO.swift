import MediaTracks

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The most a subtitle input may hold: 1 GiB. Past it, the input is refused (exit 65) instead
/// of read, so `mtool cues - < /dev/zero` ends with one line instead of exhausting memory.
let subtitleInputLimit = 1 << 30

/// The seconds a wait for data from a pipe or device may take when no `--timeout` is given:
/// the same as for media (`MediaProbe.defaultTimeout`).
let defaultReadTimeout = 30.0

/// Reads a whole file, or standard input for `-`, up to ``subtitleInputLimit`` bytes.
///
/// A named pipe, a socket or a device is read under a deadline: each wait for data may last
/// `timeout` seconds (default ``defaultReadTimeout``), so a pipe whose writer never comes or
/// stalls ends the command instead of hanging it. Standard input waits as long as it takes
/// unless `timeout` is given (a person may be typing).
///
/// - Throws: `CLIError` with exit code 66 when the file is missing or unreadable, 65 when it is
///   larger than the limit, 1 when a wait for data passed the deadline.
func readInput(_ path: String, command: String, timeout: Double? = nil) throws(CLIError)
  -> [UInt8]
{
  let fd: Int32
  if path == "-" {
    fd = 0
  } else {
    // Without blocking, so that opening a pipe does not wait for its writer.
    fd = open(fileSystemPath(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      throw CLIError.noInput(command, "cannot open '\(path)': \(reason)")
    }
  }
  defer { if fd != 0 { close(fd) } }
  var info = stat()
  let isRegular = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  // The seconds each wait for data may take, or nil to wait as long as it takes.
  let wait: Double? = isRegular ? nil : path == "-" ? timeout : timeout ?? defaultReadTimeout
  if fd != 0 && wait == nil { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
  let shown = path == "-" ? "standard input" : "'\(path)'"
  let tooLarge = CLIError.data(
    command,
    "\(shown) is larger than \(subtitleInputLimit >> 30) GiB, the most mtool reads as subtitles")
  var bytes: [UInt8] = []
  if info.st_mode & S_IFMT == S_IFDIR {
    throw CLIError.noInput(command, "'\(path)' is a directory")
  }
  if isRegular && info.st_size > subtitleInputLimit { throw tooLarge }
  if isRegular && info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size)) }
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    if let wait {
      var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, Int32(min(wait * 1000, 1e9).rounded(.up)))
      if ready < 0 && errno == EINTR { continue }
      if ready == 0 {
        throw CLIError.failure(
          command, "timed out: \(shown) gave no data within \(formatNumber(wait)) s")
      }
    }
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count == 0 { break }
    if count < 0 {
      if errno == EINTR || errno == EAGAIN { continue }
      let reason = String(cString: strerror(errno))
      throw CLIError.noInput(command, "cannot read \(shown): \(reason)")
    }
    if bytes.count + count > subtitleInputLimit { throw tooLarge }
    bytes.append(contentsOf: chunk[0..<count])
  }
  return bytes
}

/// Where a command's result goes: standard output, or a file that appears only complete.
///
/// A file is written under a temporary name beside it and renamed into place by `commit()`;
/// `discard()` (or never committing) removes the temporary file, so a failure never leaves a
/// partial output behind.
struct OutputSink {
  private var stdout = StandardOutput()
  private var buffer: [UInt8] = []
  private var file: OutputFile? = nil
  private var failed = false
  /// The `errno` of the write that failed.
  private var writeError: Int32 = 0

  /// Output to standard output (`nil` or `-`) or to `path` (see ``OutputFile``).
  init(path: String?, command: String) throws(CLIError) {
    guard let path, path != "-" else { return }
    file = try OutputFile(path: path, command: command)
    buffer.reserveCapacity(1 << 16)
  }

  mutating func write(_ string: String) {
    if file == nil {
      stdout.write(string)
    } else {
      buffer.append(contentsOf: string.utf8)
      if buffer.count >= 1 << 16 { flushFile() }
    }
  }

  mutating func write(bytes: some Sequence<UInt8>) {
    if file == nil {
      stdout.write(bytes: bytes)
    } else {
      buffer.append(contentsOf: bytes)
      if buffer.count >= 1 << 16 { flushFile() }
    }
  }

  private mutating func flushFile() {
    guard let fd = file?.descriptor else { return }
    buffer.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var offset = 0
      while offset < raw.count && !failed {
        let written = systemWrite(fd, base + offset, raw.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 {
          failed = true
          writeError = written < 0 ? errno : ENOSPC
        }
        offset += max(0, written)
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Finishes the output: flushes standard output, or completes and renames the file.
  mutating func commit(command: String) throws(CLIError) {
    guard let file else {
      guard stdout.flush() else { throw .standardOutputFailed(command) }
      return
    }
    flushFile()
    if failed {
      file.discard()
      throw CLIError.failure(
        command, "cannot write '\(file.name)': \(String(cString: strerror(writeError)))")
    }
    try file.commit()
  }

  /// Abandons a file output (removes the temporary file); standard output is flushed.
  mutating func discard() {
    guard let file else {
      stdout.flush()
      return
    }
    file.discard()
  }
}

/// The C library's `write`, reachable from types that have a `write` method of their own.
private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, pointer, count)
}

/// The subtitle file at the http(s) `url`, fetched whole (at most
/// `RemoteFile.documentLimit` bytes) within `timeout` seconds.
/// - Throws: The exit codes of media errors: 66 for a 4xx answer or an unreachable server, 65
///   for a body over the limit, 1 for a timeout or a broken transfer, 64 for a bad header.
func readRemoteInput(
  _ url: String, command: String, timeout: Double?, access: RemoteAccess
) throws(CLIError) -> [UInt8] {
  do throws(MediaError) {
    return try RemoteFile.fetch(url, access: access, timeout: timeout)
  } catch {
    throw mediaFailure(error, command: command)
  }
}
