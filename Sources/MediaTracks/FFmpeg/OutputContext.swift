internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an encoder writes: a file it creates by name, or a descriptor its caller opened.
struct OutputDestination {
  /// The output's name: the file to create, or for a descriptor the name the user gave it (its
  /// extension picks the format; it labels errors).
  var path: String
  /// An open, writable descriptor owned by the caller, or `nil` to create `path`. The encoder
  /// never closes or removes a descriptor it was given.
  var descriptor: Int32? = nil
}

/// Owns one muxing `AVFormatContext` and its output. Written by name, the file is closed and
/// removed (when it is a regular file) unless `commit()` succeeded, so a failure never leaves a
/// partial file; written to a caller's descriptor, nothing is closed or removed: the caller owns
/// the file.
struct OutputContext: ~Copyable {
  let raw: UnsafeMutablePointer<AVFormatContext>
  let path: String
  private let descriptor: Int32?
  private var opened = false
  private var committed = false

  /// Allocates a muxer by FFmpeg's short name. The corresponding C function is
  /// `avformat_alloc_output_context2`.
  init(format name: String, destination: OutputDestination) throws(MediaError) {
    // Loads FFmpeg and silences its logging: encoders log too (the AAC encoder's statistics, a
    // muxer's warnings), and failures are reported as typed errors instead.
    try FFmpegLibraries.require()
    var context: UnsafeMutablePointer<AVFormatContext>? = nil
    let detail = "this FFmpeg cannot write '\(name)' for '\(destination.path)'"
    let code = try FFmpegCall.check("avformat_alloc_output_context2", .invalidArgument, detail) {
      avformat_alloc_output_context2(&context, nil, name, nil)
    }
    raw = try FFmpegCall.find(
      "avformat_alloc_output_context2", .invalidArgument, code: code, detail
    ) { context }
    path = destination.path
    descriptor = destination.descriptor
  }

  /// Whether the muxer wants codec headers in extradata rather than in the stream.
  var wantsGlobalHeader: Bool {
    (Int32(raw.pointee.oformat.pointee.flags) & cff_format_flag_global_header()) != 0
  }

  /// Creates the output (or wraps the caller's descriptor) and writes the container header.
  /// The corresponding C functions are `avio_open` (or `avio_alloc_context`) and
  /// `avformat_write_header`.
  mutating func open() throws(MediaError) {
    if (Int32(raw.pointee.oformat.pointee.flags) & cff_format_flag_nofile()) == 0 {
      if let descriptor {
        raw.pointee.pb = try Self.writer(for: descriptor, name: path)
      } else {
        try FFmpegCall.check("avio_open", .outputFailed, "cannot create '\(path)'") {
          avio_open(&raw.pointee.pb, path, AVIO_FLAG_WRITE)
        }
      }
    }
    opened = true
    try FFmpegCall.check(
      "avformat_write_header", .outputFailed,
      "cannot write the header of '\(path)'"
        + (raw.pointee.pb.map { $0.pointee.seekable == 0 } == true
          ? " (this format needs a seekable output, not a pipe or device)" : "")
    ) { avformat_write_header(raw, nil) }
  }

  /// Writes the trailer and closes the output (a caller's descriptor stays open), which then
  /// stays. The corresponding C functions are `av_write_trailer` and `avio_closep`.
  mutating func commit() throws(MediaError) {
    var code = av_write_trailer(raw)
    if code >= 0 && raw.pointee.pb != nil {
      avio_flush(raw.pointee.pb)
      code = raw.pointee.pb.pointee.error
      let closed = closeOutput()
      if code >= 0 { code = closed }
    }
    try FFmpegCall.check("av_write_trailer", .outputFailed, "cannot finish '\(path)'") { code }
    committed = true
  }

  /// Closes the output: `avio_closep` for a file opened by name, or frees the writer around a
  /// caller's descriptor (which stays open). Returns 0 or a negative error.
  private func closeOutput() -> Int32 {
    guard let pb = raw.pointee.pb else { return 0 }
    guard descriptor != nil else { return avio_closep(&raw.pointee.pb) }
    av_free(pb.pointee.buffer)
    pb.pointee.buffer = nil
    var context: UnsafeMutablePointer<AVIOContext>? = pb
    avio_context_free(&context)
    raw.pointee.pb = nil
    return 0
  }

  /// Removes the file this context created by name, when it is a regular file (never a device
  /// or a pipe written in place, never a caller's descriptor).
  private func removeCreatedFile() {
    guard opened, descriptor == nil else { return }
    var info = stat()
    if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { unlink(path) }
  }

  /// Closes and removes the output file now (idempotent).
  mutating func discard() {
    guard !committed else { return }
    _ = closeOutput()
    removeCreatedFile()
    opened = false
  }

  deinit {
    if !committed {
      _ = closeOutput()
      removeCreatedFile()
    }
    avformat_free_context(raw)
  }

  /// A writer (`AVIOContext`) on the caller's `descriptor`: seekable when the descriptor is a
  /// regular file, streaming otherwise (a pipe, a terminal, a device).
  private static func writer(
    for descriptor: Int32, name: String
  ) throws(MediaError) -> UnsafeMutablePointer<AVIOContext> {
    let bufferSize = 65_536
    var info = stat()
    let seekable =
      fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
      && lseek(descriptor, 0, SEEK_CUR) >= 0
    let buffer = try FFmpegCall.allocate("av_malloc", code: cff_averror(ENOMEM)) {
      av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self)
    }
    let opaque = UnsafeMutableRawPointer(bitPattern: Int(descriptor) + 1)
    return try FFmpegCall.allocate(
      "avio_alloc_context", code: cff_averror(ENOMEM), "cannot write '\(name)'"
    ) {
      let io = avio_alloc_context(
        buffer, Int32(bufferSize), 1, opaque, nil, descriptorWrite,
        seekable ? descriptorSeek : nil)
      if io == nil { av_free(buffer) }
      return io
    }
  }
}

/// The descriptor a writer's `opaque` carries (the descriptor plus one, so never null).
private func descriptor(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
  Int32(truncatingIfNeeded: Int(bitPattern: opaque) - 1)
}

/// `write_packet` of a descriptor writer: writes all of `buffer`, or returns `AVERROR(errno)`.
private func descriptorWrite(
  _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
  guard let buffer, size > 0 else { return 0 }
  let fd = descriptor(opaque)
  var done = 0
  while done < Int(size) {
    let count = write(fd, buffer + done, Int(size) - done)
    if count < 0 {
      if errno == EINTR { continue }
      return cff_averror(errno)
    }
    if count == 0 { return cff_averror(ENOSPC) }
    done += count
  }
  return size
}

/// `seek` of a descriptor writer, with FFmpeg's `AVSEEK_SIZE` (the file's size).
private func descriptorSeek(
  _ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32
) -> Int64 {
  let fd = descriptor(opaque)
  if whence & 0x10000 != 0 {  // AVSEEK_SIZE
    var info = stat()
    return fstat(fd, &info) == 0 ? Int64(info.st_size) : Int64(cff_averror(errno))
  }
  let result = lseek(fd, off_t(offset), whence & ~0x20000)  // without AVSEEK_FORCE
  return result < 0 ? Int64(cff_averror(errno)) : Int64(result)
}

/// An owned sample buffer from `av_samples_alloc`, one pointer per plane.
struct SampleBuffer: ~Copyable {
  private(set) var planes: [UnsafeMutablePointer<UInt8>?]
  private(set) var capacity: Int

  init(planeCount: Int) {
    planes = Array(repeating: nil, count: max(1, planeCount))
    capacity = 0
  }

  /// Makes room for `frames` frames. The corresponding C function is `av_samples_alloc`.
  mutating func reserve(
    frames: Int, channels: Int, format: AVSampleFormat
  ) throws(MediaError) {
    guard frames > capacity else { return }
    av_freep(&planes[0])
    let size = max(frames, capacity * 2)
    let code = planes.withUnsafeMutableBufferPointer {
      av_samples_alloc($0.baseAddress, nil, Int32(channels), Int32(size), format, 0)
    }
    if code < 0 { capacity = 0 }
    try FFmpegCall.check("av_samples_alloc", .other, "out of memory") { code }
    capacity = size
  }

  /// Calls `body` with the plane pointer array.
  mutating func withPlanes<R>(
    _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> R
  ) -> R {
    planes.withUnsafeMutableBufferPointer { body($0.baseAddress) }
  }

  deinit {
    var first = planes[0]
    av_freep(&first)
  }
}
