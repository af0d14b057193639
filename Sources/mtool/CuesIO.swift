#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole file, or standard input for `-`.
///
/// - Throws: `CLIError` with exit code 66 when the file is missing or unreadable.
func readInput(_ path: String, command: String) throws(CLIError) -> [UInt8] {
  let fd: Int32
  if path == "-" {
    fd = 0
  } else {
    fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      throw CLIError.noInput(command, "cannot open '\(path)': \(reason)")
    }
  }
  defer { if fd != 0 { close(fd) } }
  var bytes: [UInt8] = []
  var st = stat()
  if fstat(fd, &st) == 0 {
    if st.st_mode & S_IFMT == S_IFDIR {
      throw CLIError.noInput(command, "'\(path)' is a directory")
    }
    if st.st_size > 0 { bytes.reserveCapacity(Int(st.st_size)) }
  }
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count == 0 { break }
    if count < 0 {
      if errno == EINTR { continue }
      let reason = String(cString: strerror(errno))
      throw CLIError.noInput(command, "cannot read '\(path)': \(reason)")
    }
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
  private var fd: Int32 = -1
  private var path: String? = nil
  private var temporary = ""
  private var target = OutputTarget("")
  private var failed = false
  /// The `errno` of the write that failed.
  private var writeError: Int32 = 0

  /// Output to standard output (`nil` or `-`) or to `path` (see ``OutputTarget``).
  init(path: String?, command: String) throws(CLIError) {
    guard let path, path != "-" else { return }
    self.path = path
    target = OutputTarget(path)
    if target.inPlace {
      fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else {
      temporary = target.file + ".partial-\(getpid())"
      fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, target.mode ?? 0o644)
      if fd >= 0, let mode = target.mode { fchmod(fd, mode) }
    }
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      throw CLIError.failure(command, "cannot write '\(path)': \(reason)")
    }
    buffer.reserveCapacity(1 << 16)
  }

  mutating func write(_ string: String) {
    if path == nil {
      stdout.write(string)
    } else {
      buffer.append(contentsOf: string.utf8)
      if buffer.count >= 1 << 16 { flushFile() }
    }
  }

  mutating func write(bytes: some Sequence<UInt8>) {
    if path == nil {
      stdout.write(bytes: bytes)
    } else {
      buffer.append(contentsOf: bytes)
      if buffer.count >= 1 << 16 { flushFile() }
    }
  }

  private mutating func flushFile() {
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
    guard let path else {
      guard stdout.flush() else { throw .standardOutputFailed(command) }
      return
    }
    flushFile()
    var reason = failed ? String(cString: strerror(writeError)) : ""
    if !target.inPlace && fsync(fd) != 0 && errno != EINVAL && errno != EROFS {
      failed = true
      reason = String(cString: strerror(errno))
    }
    if close(fd) != 0 && !failed {
      failed = true
      reason = String(cString: strerror(errno))
    }
    fd = -1
    if target.inPlace {
      if failed { throw CLIError.failure(command, "cannot write '\(path)': \(reason)") }
      return
    }
    if !failed && rename(temporary, target.file) != 0 {
      failed = true
      reason = String(cString: strerror(errno))
    }
    if failed {
      unlink(temporary)
      throw CLIError.failure(command, "cannot write '\(path)': \(reason)")
    }
  }

  /// Abandons a file output (removes the temporary file); standard output is flushed.
  mutating func discard() {
    guard path != nil else {
      stdout.flush()
      return
    }
    if fd >= 0 { close(fd) }
    fd = -1
    if !target.inPlace { unlink(temporary) }
  }
}

/// The C library's `write`, reachable from types that have a `write` method of their own.
private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, pointer, count)
}
