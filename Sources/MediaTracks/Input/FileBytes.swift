#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A local regular file as a ``ByteSource``, read with `pread` (no shared file offset is
/// moved). It keeps its ``FileSource`` open for as long as it lives.
struct FileBytes: ByteSource {
  /// The open file (a regular one).
  let file: FileSource
  let size: Int64

  var name: String { file.path }

  /// Reads `file`; `nil` when it is not a regular file (a pipe has no random access).
  init?(_ file: FileSource) {
    guard file.isRegular, let size = file.size else { return nil }
    self.file = file
    self.size = size
  }

  /// Opens `path` when it is a regular file; `nil` for anything else (a missing file, a
  /// folder, a pipe or a device), which is not opened.
  /// - Throws: `MediaError.opening` when a regular file cannot be opened.
  init?(path: String) throws(MediaError) {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    // The deadline only bounds reads of a pipe; a regular file is read at once.
    self.init(try FileSource(path: path, deadline: try Deadline(timeout: nil)))
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(MediaError)
    -> Int
  {
    guard let base = buffer.baseAddress, offset >= 0 else { return 0 }
    var filled = 0
    while filled < buffer.count {
      let got = pread(
        file.descriptor, base + filled, buffer.count - filled, off_t(offset) + off_t(filled))
      if got < 0 && errno == EINTR { continue }
      if got < 0 {
        let code = errno
        var error = MediaError.reading(file.path, errno: code)
        error.code = -code
        throw error
      }
      if got == 0 { break }
      filled += got
    }
    return filled
  }
}

extension MediaError {
  /// The error for a file or pipe that opened and then could not be read (`errno`: why),
  /// without an FFmpeg code.
  static func reading(_ path: String, errno code: Int32) -> MediaError {
    MediaError(
      kind: .notFound, operation: "read", detail: "cannot read '\(path)': \(errnoText(code))")
  }

  /// The error for a manifest larger than a manifest may be.
  static func tooLargeForManifest(_ path: String) -> MediaError {
    MediaError(
      kind: .malformed, operation: "read", detail: "'\(path)' is too large for a manifest")
  }

  private static func errnoText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}
