#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads small text files (manifests) whole.
enum FileBytes {
  /// The largest manifest accepted, in bytes.
  static let limit = 16 << 20

  /// The bytes of `path` (a regular file or a named pipe, read within `deadline` per read).
  /// - Throws: `.notFound` when it cannot be opened or read, `.malformed` when it exceeds
  ///   `limit` or is a device, a timeout when a pipe gives nothing within the deadline.
  static func read(_ path: String, deadline: Deadline) throws(MediaError) -> [UInt8] {
    let source = try FileSource(path: path, deadline: deadline)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    deadline.start()
    while true {
      let outcome = chunk.withUnsafeMutableBytes { raw -> FileSource.ReadOutcome in
        guard let base = raw.baseAddress else { return .end }
        return source.read(into: base, count: raw.count)
      }
      switch outcome {
      case .bytes(let count):
        bytes.append(contentsOf: chunk[0..<count])
        deadline.start()
      case .end:
        return bytes
      case .failed(let code):
        throw MediaError(
          kind: .notFound, operation: "read",
          detail: "cannot read '\(path)': \(errnoText(code))")
      case .timedOut:
        throw deadline.error("read", path: path)
      }
      if bytes.count > limit {
        throw MediaError(
          kind: .malformed, operation: "read", detail: "'\(path)' is too large for a manifest")
      }
    }
  }

  /// Up to the first 64 KiB of the regular file `path` (empty when it cannot be read).
  static func head(_ path: String) -> ArraySlice<UInt8> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    return WaveHeader.leadingBytes(descriptor: descriptor)
  }

  private static func errnoText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}
