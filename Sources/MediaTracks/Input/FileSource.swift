internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A local file or named pipe opened for reading under a ``Deadline``: FFmpeg reads local media
/// through it (a custom reader), never through its own `file` protocol, so it opens nothing but
/// this one file.
///
/// A pipe is opened without blocking (opening one waits for a writer) and read only when
/// `poll` says it has data, so a pipe whose writer never comes or stalls ends with a timeout.
/// Devices (`/dev/zero`, `/dev/urandom`, a terminal) are refused: they never end.
final class FileSource {
  /// What one read gave.
  enum ReadOutcome {
    /// This many bytes (more than 0).
    case bytes(Int)
    /// The end of the file (or every writer of the pipe closed it).
    case end
    /// `read` failed with this `errno`.
    case failed(Int32)
    /// The deadline passed before any byte came.
    case timedOut
  }

  let path: String
  let descriptor: Int32
  /// A regular file (seekable, with a size); otherwise a pipe.
  let isRegular: Bool
  let deadline: Deadline

  /// Opens `path`.
  /// - Throws: `.notFound` for a missing or unreadable file or a folder (as FFmpeg reports
  ///   them), `.malformed` for a device or socket.
  init(path: String, deadline: Deadline) throws(MediaError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw MediaError.opening(path, code: -errno) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = -errno
      close(descriptor)
      throw MediaError.opening(path, code: code)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      // Reads of a regular file do not wait for a writer: blocking mode, as usual.
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
      isRegular = true
    case S_IFIFO:
      isRegular = false
    case S_IFDIR:
      close(descriptor)
      throw MediaError.opening(path, code: -EISDIR)
    default:
      close(descriptor)
      throw MediaError(
        kind: .malformed, operation: "open",
        detail: "'\(path)' is a device, not a media file or a pipe")
    }
    self.path = path
    self.descriptor = descriptor
    self.deadline = deadline
  }

  deinit { close(descriptor) }

  /// The file's current size in bytes (a regular file), or `nil`.
  var size: Int64? {
    var info = stat()
    guard isRegular, fstat(descriptor, &info) == 0 else { return nil }
    return Int64(info.st_size)
  }

  /// Reads up to `count` bytes into `buffer`, waiting for a pipe's writer until the deadline.
  func read(into buffer: UnsafeMutableRawPointer, count: Int) -> ReadOutcome {
    while true {
      if deadline.isPast { return .timedOut }
      if !isRegular {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, min(deadline.millisecondsLeft, 1000))
        if ready < 0 && errno != EINTR { return .failed(errno) }
        // Nothing yet (or a signal): look at the deadline again.
        if ready <= 0 { continue }
      }
      let got = systemRead(descriptor, buffer, count)
      if got > 0 { return .bytes(got) }
      if got == 0 { return .end }
      if errno == EINTR || errno == EAGAIN { continue }
      return .failed(errno)
    }
  }

  /// Where the reader's view of a regular file starts, in bytes (see ``makeReader(from:)``).
  private(set) var readerStart: Int64 = 0
  /// Bytes the reader sees after the file's end (see ``makeReader(from:tail:)``).
  private(set) var readerTail: [UInt8] = []
  /// Where the file's bytes end for a reader with a tail (the file's end when `nil`).
  private(set) var readerEnd: Int64? = nil

  /// Bytes every reader of a regular file gives in place of the file's own, in order of offset
  /// and apart (see ``BytePatch``): repairs of what FFmpeg misreads. Set before the first
  /// reader is made.
  var patches: [BytePatch] = []

  /// Writes the ``patches`` that fall in the `count` bytes read into `buffer` from the file's
  /// byte `position` over them.
  fileprivate func applyPatches(
    to buffer: UnsafeMutablePointer<UInt8>, count: Int, at position: Int64
  ) {
    let end = position + Int64(count)
    for patch in patches where patch.offset < end {
      let patchEnd = patch.offset + Int64(patch.bytes.count)
      guard patchEnd > position else { continue }
      for index in max(patch.offset, position)..<min(patchEnd, end) {
        buffer[Int(index - position)] = patch.bytes[Int(index - patch.offset)]
      }
    }
  }

  /// The end of the file's bytes a reader sees, before its tail.
  var viewEnd: Int64? { readerEnd ?? size }

  /// A custom `AVIOContext` reading this file (seekable when it is a regular file). The source
  /// must outlive it; free it with ``free(_:)``.
  ///
  /// With `start` past 0 (a regular file only), the reader sees the file from that byte on, as
  /// if the bytes before it were not there: its offsets and size are the view's. One reader
  /// of a source is used at a time (the last one made sets the view).
  ///
  /// With a `tail` (a regular file only), the reader sees the file up to byte `end` (its end
  /// when `nil`), then those bytes.
  func makeReader(from start: Int64 = 0, end: Int64? = nil, tail: [UInt8] = [])
    -> UnsafeMutablePointer<AVIOContext>?
  {
    let start = isRegular ? max(0, start) : 0
    if start > 0 || readerStart > 0 {
      guard lseek(descriptor, off_t(start), SEEK_SET) == off_t(start) else { return nil }
    }
    readerStart = start
    readerTail = isRegular ? tail : []
    readerEnd = isRegular && !tail.isEmpty ? end : nil
    let bufferSize = 32_768
    guard let buffer = av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self) else {
      return nil
    }
    let opaque = Unmanaged.passUnretained(self).toOpaque()
    guard
      let io = avio_alloc_context(
        buffer, Int32(bufferSize), 0, opaque, fileRead, nil, isRegular ? fileSeek : nil)
    else {
      av_free(buffer)
      return nil
    }
    return io
  }

  /// Frees a custom reader and its (possibly reallocated) buffer.
  static func free(_ io: UnsafeMutablePointer<AVIOContext>) {
    av_free(io.pointee.buffer)
    io.pointee.buffer = nil
    var context: UnsafeMutablePointer<AVIOContext>? = io
    avio_context_free(&context)
  }

  /// Moves a regular file's offset back to the start of the reader's view (for a second
  /// open).
  func rewind() -> Bool {
    isRegular && lseek(descriptor, off_t(readerStart), SEEK_SET) == off_t(readerStart)
  }
}

/// `read(2)`, which ``FileSource/read(into:count:)`` hides.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}

/// `read_packet` of a file reader: bytes, `AVERROR_EOF` at the end, `AVERROR(ETIMEDOUT)` past the
/// deadline.
private func fileRead(
  _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
  guard let opaque, let buffer, size > 0 else { return cff_averror_eof() }
  let source = Unmanaged<FileSource>.fromOpaque(opaque).takeUnretainedValue()
  // Past the file's end: the reader's tail, the descriptor's offset standing for the position.
  var count = Int(size)
  if !source.readerTail.isEmpty, let fileSize = source.viewEnd {
    let position = Int64(lseek(source.descriptor, 0, SEEK_CUR))
    count = Int(min(Int64(count), max(0, fileSize - position)))
    if position >= fileSize {
      let at = Int(position - fileSize)
      guard at < source.readerTail.count else { return cff_averror_eof() }
      let count = min(Int(size), source.readerTail.count - at)
      source.readerTail.withUnsafeBufferPointer { tail in
        if let base = tail.baseAddress { buffer.update(from: base + at, count: count) }
      }
      _ = lseek(source.descriptor, off_t(count), SEEK_CUR)
      return Int32(count)
    }
  }
  let position = source.patches.isEmpty ? 0 : Int64(lseek(source.descriptor, 0, SEEK_CUR))
  switch source.read(into: buffer, count: count) {
  case .bytes(let count):
    if !source.patches.isEmpty, position >= 0 {
      source.applyPatches(to: buffer, count: count, at: position)
    }
    return Int32(count)
  case .end: return cff_averror_eof()
  case .failed(let code): return cff_averror(code)
  case .timedOut: return cff_averror(ETIMEDOUT)
  }
}

/// `seek` of a file reader: `SEEK_SET`/`SEEK_CUR`/`SEEK_END` and `AVSEEK_SIZE`.
private func fileSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32)
  -> Int64
{
  guard let opaque else { return Int64(cff_averror(EINVAL)) }
  let source = Unmanaged<FileSource>.fromOpaque(opaque).takeUnretainedValue()
  let start = source.readerStart
  let tail = Int64(source.readerTail.count)
  if whence & AVSEEK_SIZE != 0 {
    return source.viewEnd.map { max(0, $0 + tail - start) } ?? Int64(cff_averror(ESPIPE))
  }
  let origin: Int32
  switch whence & ~AVSEEK_FORCE {
  case SEEK_SET: origin = SEEK_SET
  case SEEK_CUR: origin = SEEK_CUR
  case SEEK_END: origin = SEEK_END
  default: return Int64(cff_averror(EINVAL))
  }
  var target = origin == SEEK_SET ? offset + start : offset
  var from = origin
  if origin == SEEK_END, tail > 0, let fileSize = source.viewEnd {
    target = fileSize + tail + offset
    from = SEEK_SET
  }
  let position = lseek(source.descriptor, off_t(target), from)
  guard position >= 0 else { return Int64(cff_averror(errno)) }
  // Before the view's start: back to it, and an error.
  if Int64(position) < start {
    _ = lseek(source.descriptor, off_t(start), SEEK_SET)
    return Int64(cff_averror(EINVAL))
  }
  return Int64(position) - start
}
