#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads small text files (manifests) whole.
enum FileBytes {
  /// The largest manifest accepted, in bytes.
  static let limit = 16 << 20

  /// The bytes of `path`.
  /// - Throws: `.notFound` when it cannot be opened, `.malformed` when it exceeds `limit`.
  static func read(_ path: String) throws(MediaError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw MediaError(
        kind: .notFound, operation: "open", detail: "cannot open '\(path)': \(errnoText())")
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw MediaError(
          kind: .notFound, operation: "read", detail: "cannot read '\(path)': \(errnoText())")
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
      if bytes.count > limit {
        throw MediaError(
          kind: .malformed, operation: "read", detail: "'\(path)' is too large for a manifest")
      }
    }
    return bytes
  }

  private static func errnoText() -> String {
    guard let text = strerror(errno) else { return "error \(errno)" }
    return String(cString: text)
  }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}
