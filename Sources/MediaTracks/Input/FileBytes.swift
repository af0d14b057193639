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

  /// The first bytes of the regular file `path` that tell whether it is a manifest (see
  /// ``head(descriptor:)``); empty when it cannot be read.
  static func head(_ path: String) -> ArraySlice<UInt8> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    return head(descriptor: descriptor)
  }

  /// The first bytes of the open regular file `descriptor` that tell whether it is a manifest
  /// (``ManifestParser/sniff(_:)``), read from offset 0 (the file offset is left alone): the
  /// first 512 bytes when they cannot start a playlist or an XML document (media), else up
  /// to the first 64 KiB.
  static func head(descriptor: Int32) -> ArraySlice<UInt8> {
    var first = [UInt8](repeating: 0, count: 512)
    let got = first.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard got > 0 else { return [] }
    let start = first[0..<got].drop {
      [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0)
    }
    guard let lead = start.first, lead == UInt8(ascii: "#") || lead == UInt8(ascii: "<"),
      got == first.count
    else { return first[0..<got] }
    return WaveHeader.leadingBytes(descriptor: descriptor)
  }

  private static func errnoText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}
