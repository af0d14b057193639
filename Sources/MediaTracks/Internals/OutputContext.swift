internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Owns one muxing `AVFormatContext` and its output file. Unless `commit()` succeeded, the file
/// is closed and removed when the owner goes away, so a failure never leaves a partial file.
struct OutputContext: ~Copyable {
  let raw: UnsafeMutablePointer<AVFormatContext>
  let path: String
  private var opened = false
  private var committed = false

  /// Allocates a muxer by FFmpeg's short name. The corresponding C function is
  /// `avformat_alloc_output_context2`.
  init(format name: String, path: String) throws(MediaError) {
    // Loads FFmpeg and silences its logging: encoders log too (the AAC encoder's statistics, a
    // muxer's warnings), and failures are reported as typed errors instead.
    try FFmpegLibraries.require()
    var context: UnsafeMutablePointer<AVFormatContext>? = nil
    let code = avformat_alloc_output_context2(&context, nil, name, path)
    guard code >= 0, let context else {
      throw MediaError(
        kind: .invalidArgument, code: code, operation: "avformat_alloc_output_context2",
        detail: "this FFmpeg cannot write '\(name)' for '\(path)'")
    }
    raw = context
    self.path = path
  }

  /// Whether the muxer wants codec headers in extradata rather than in the stream.
  var wantsGlobalHeader: Bool {
    (Int32(raw.pointee.oformat.pointee.flags) & cff_format_flag_global_header()) != 0
  }

  /// Creates the output file and writes the container header.
  /// The corresponding C functions are `avio_open` and `avformat_write_header`.
  mutating func open() throws(MediaError) {
    if (Int32(raw.pointee.oformat.pointee.flags) & cff_format_flag_nofile()) == 0 {
      let code = avio_open(&raw.pointee.pb, path, AVIO_FLAG_WRITE)
      if code < 0 {
        throw MediaError(
          kind: .outputFailed, code: code, operation: "avio_open",
          detail: "cannot create '\(path)'")
      }
    }
    opened = true
    let code = avformat_write_header(raw, nil)
    if code < 0 {
      throw MediaError(
        kind: .outputFailed, code: code, operation: "avformat_write_header",
        detail: "cannot write the header of '\(path)'")
    }
  }

  /// Writes the trailer and closes the file, which then stays.
  /// The corresponding C functions are `av_write_trailer` and `avio_closep`.
  mutating func commit() throws(MediaError) {
    var code = av_write_trailer(raw)
    if code >= 0 && raw.pointee.pb != nil {
      avio_flush(raw.pointee.pb)
      code = raw.pointee.pb.pointee.error
      let closed = avio_closep(&raw.pointee.pb)
      if code >= 0 { code = closed }
    }
    if code < 0 {
      throw MediaError(
        kind: .outputFailed, code: code, operation: "av_write_trailer",
        detail: "cannot finish '\(path)'")
    }
    committed = true
  }

  /// Closes and removes the output file now (idempotent).
  mutating func discard() {
    guard !committed else { return }
    if raw.pointee.pb != nil { avio_closep(&raw.pointee.pb) }
    if opened { unlink(path) }
    opened = false
  }

  deinit {
    if !committed {
      if raw.pointee.pb != nil { avio_closep(&raw.pointee.pb) }
      if opened { unlink(path) }
    }
    avformat_free_context(raw)
  }
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
    if code < 0 {
      capacity = 0
      throw MediaError(
        kind: .other, code: code, operation: "av_samples_alloc", detail: "out of memory")
    }
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
