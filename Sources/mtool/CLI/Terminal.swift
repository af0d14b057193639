#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Unbuffered writes to standard error, for diagnostics and progress.
struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    var copy = string
    copy.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = writeAll(2, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}

/// Buffered writes to standard output; call `flush()` before exiting.
struct StandardOutput: TextOutputStream {
  private var buffer: [UInt8] = []
  /// Whether a write failed (standard output closed or full); what follows is dropped.
  private(set) var failed = false

  init() { buffer.reserveCapacity(1 << 16) }

  mutating func write(_ string: String) {
    buffer.append(contentsOf: string.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Writes raw bytes.
  mutating func write(bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Writes everything buffered so far. Returns false when stdout is closed or full.
  @discardableResult
  mutating func flush() -> Bool {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard !failed else { return false }
    failed = !buffer.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return true }
      var offset = 0
      while offset < raw.count {
        let written = writeAll(1, base + offset, raw.count - offset)
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
    return !failed
  }
}

/// Whether progress may be drawn on stderr: a terminal whose `TERM` is not `dumb`.
var stderrIsInteractiveTerminal: Bool {
  guard isatty(2) != 0 else { return false }
  if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
  return true
}

/// One `write(2)`, retried when a signal interrupts it before anything was written.
private func writeAll(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
  while true {
    let written = write(fd, pointer, count)
    if written < 0 && errno == EINTR { continue }
    return written
  }
}
