/// Bytes held in memory as a ``ByteSource``: media given as bytes, and a named pipe or any
/// input read whole first (``init(reading:deadline:limit:)``).
struct MemoryBytes: ByteSource {
  /// The bytes; the source shares the array's storage (no copy).
  let bytes: [UInt8]
  let name: String

  /// Wraps `bytes`; `name` labels errors.
  init(_ bytes: [UInt8], name: String) {
    self.bytes = bytes
    self.name = name
  }

  var size: Int64 { Int64(bytes.count) }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(MediaError)
    -> Int
  {
    guard offset >= 0, offset < Int64(bytes.count) else { return 0 }
    let start = Int(offset)
    let count = min(buffer.count, bytes.count - start)
    bytes.withUnsafeBytes { source in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + count)]))
    }
    return count
  }
}

extension MemoryBytes {
  /// Reads the local file or named pipe `path` whole (each read within `deadline`), as a
  /// manifest is read.
  ///
  /// - Parameter limit: The most bytes accepted.
  /// - Throws: `.notFound` when it cannot be opened or read, `.malformed` when it exceeds
  ///   `limit` or is a device, a timeout when a pipe gives nothing within the deadline.
  init(reading path: String, deadline: Deadline, limit: Int) throws(MediaError) {
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
        self.init(bytes, name: path)
        return
      case .failed(let code):
        throw MediaError.reading(path, errno: code)
      case .timedOut:
        throw deadline.error("read", path: path)
      }
      if bytes.count > limit { throw MediaError.tooLargeForManifest(path) }
    }
  }
}
