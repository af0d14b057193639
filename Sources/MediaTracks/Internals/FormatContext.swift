internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Owns one demuxing `AVFormatContext`; closes it when it goes away.
///
/// The raw pointer never leaves this module: callers copy the fields they need into values.
struct FormatContext: ~Copyable {
  private(set) var raw: UnsafeMutablePointer<AVFormatContext>
  /// The custom reader of a context opened on bytes in memory (freed after the context).
  private var customIO: UnsafeMutablePointer<AVIOContext>? = nil
  /// The bytes a memory context reads; kept alive as long as the context.
  private var memory: MemorySource? = nil

  /// Opens `path` for reading. The corresponding C function is `avformat_open_input`.
  ///
  /// For extensions whose demuxer checks its own magic bytes (Matroska/WebM, MP4/MOV, Ogg, WAVE,
  /// FLAC) that demuxer is tried first, which skips FFmpeg's probe of every format; if it
  /// rejects the file, the file is opened again with the full probe.
  init(path: String) throws(MediaError) {
    try FFmpegLibraries.require()
    var context: UnsafeMutablePointer<AVFormatContext>? = nil
    var code: Int32 = -1
    if let hint = FormatContext.demuxerHint(for: path), let format = av_find_input_format(hint) {
      code = avformat_open_input(&context, path, format, nil)
      if code == cff_averror(ENOENT) || code == cff_averror(EACCES) || code == cff_averror(EISDIR) {
        throw MediaError.opening(path, code: code)
      }
    }
    if code < 0 {
      context = nil
      code = avformat_open_input(&context, path, nil, nil)
    }
    guard code >= 0, let opened = context else { throw MediaError.opening(path, code: code) }
    // Raw-stream demuxers (FLAC, AC-3, DTS) open an empty file and report a track of 0 Hz and
    // no channels. (A named pipe's size is 0 too, and is not empty.)
    var info = stat()
    if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 {
      avformat_close_input(&context)
      throw MediaError(
        kind: .malformed, operation: "avformat_open_input", detail: "'\(path)' is empty")
    }
    raw = opened
  }

  /// The demuxer to try first for `path`'s extension, or `nil` to probe.
  static func demuxerHint(for path: String) -> String? {
    guard let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
    let ext = path[path.index(after: dot)...]
    guard ext.utf8.count <= 4, !ext.contains("/") else { return nil }
    switch ext.lowercased() {
    case "mkv", "mka", "mks", "webm": return "matroska"
    case "mp4", "m4a", "m4v", "mov": return "mov"
    case "ogg", "oga", "opus": return "ogg"
    case "wav": return "wav"
    case "flac": return "flac"
    default: return nil
    }
  }

  /// Reads packets to fill in stream parameters the headers lack.
  /// The corresponding C function is `avformat_find_stream_info`.
  func findStreamInfo(path: String) throws(MediaError) {
    let code = avformat_find_stream_info(raw, nil)
    if code < 0 {
      throw MediaError(
        kind: .malformed, code: code, operation: "avformat_find_stream_info",
        detail: "cannot read stream information of '\(path)'")
    }
  }

  /// The number of streams in the container.
  var streamCount: Int { Int(raw.pointee.nb_streams) }

  /// The demuxer's short name, for example `"matroska,webm"` or `"mov,mp4,m4a,3gp,3g2,mj2"`.
  var formatName: String {
    guard let iformat = raw.pointee.iformat, let name = iformat.pointee.name else { return "" }
    return String(cString: name)
  }

  /// Opens bytes held in memory, read through a custom `AVIOContext` (no temporary file).
  /// `name` only labels errors. The corresponding C functions are `avio_alloc_context` and
  /// `avformat_open_input`.
  init(bytes: [UInt8], name: String) throws(MediaError) {
    try FFmpegLibraries.require()
    let source = MemorySource(bytes)
    let bufferSize = 32_768
    guard let context = avformat_alloc_context(),
      let buffer = av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self)
    else {
      throw MediaError(
        kind: .other, code: cff_averror(ENOMEM), operation: "avformat_alloc_context",
        detail: "cannot open '\(name)'")
    }
    let opaque = Unmanaged.passUnretained(source).toOpaque()
    guard
      let io = avio_alloc_context(
        buffer, Int32(bufferSize), 0, opaque, memoryRead, nil, memorySeek)
    else {
      av_free(buffer)
      avformat_free_context(context)
      throw MediaError(
        kind: .other, code: cff_averror(ENOMEM), operation: "avio_alloc_context",
        detail: "cannot open '\(name)'")
    }
    context.pointee.pb = io
    context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    var opened: UnsafeMutablePointer<AVFormatContext>? = context
    // On failure avformat_open_input frees the context but not the custom reader.
    let code = avformat_open_input(&opened, nil, nil, nil)
    guard code >= 0, let opened else {
      FormatContext.free(io)
      throw MediaError.opening(name, code: code)
    }
    raw = opened
    customIO = io
    memory = source
  }

  /// Frees a custom reader and its (possibly reallocated) buffer.
  private static func free(_ io: UnsafeMutablePointer<AVIOContext>) {
    av_free(io.pointee.buffer)
    io.pointee.buffer = nil
    var context: UnsafeMutablePointer<AVIOContext>? = io
    avio_context_free(&context)
  }

  deinit {
    var context: UnsafeMutablePointer<AVFormatContext>? = raw
    avformat_close_input(&context)
    if let io = customIO { FormatContext.free(io) }
  }
}

/// Bytes in memory and a read position, for a custom `AVIOContext`.
final class MemorySource {
  let bytes: [UInt8]
  var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// `read_packet` of a memory reader: copies up to `size` bytes, `AVERROR_EOF` at the end.
private func memoryRead(
  _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
  guard let opaque, let buffer, size > 0 else { return cff_averror_eof() }
  let source = Unmanaged<MemorySource>.fromOpaque(opaque).takeUnretainedValue()
  let count = min(Int(size), source.bytes.count - source.position)
  guard count > 0 else { return cff_averror_eof() }
  source.bytes.withUnsafeBufferPointer { bytes in
    guard let base = bytes.baseAddress else { return }
    buffer.update(from: base + source.position, count: count)
  }
  source.position += count
  return Int32(count)
}

/// `seek` of a memory reader: `SEEK_SET`/`SEEK_CUR`/`SEEK_END` and `AVSEEK_SIZE`.
private func memorySeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32)
  -> Int64
{
  guard let opaque else { return Int64(cff_averror(EINVAL)) }
  let source = Unmanaged<MemorySource>.fromOpaque(opaque).takeUnretainedValue()
  let size = Int64(source.bytes.count)
  if whence & AVSEEK_SIZE != 0 { return size }
  let base: Int64
  switch whence & ~AVSEEK_FORCE {
  case SEEK_SET: base = 0
  case SEEK_CUR: base = Int64(source.position)
  case SEEK_END: base = size
  default: return Int64(cff_averror(EINVAL))
  }
  let (target, overflow) = base.addingReportingOverflow(offset)
  guard !overflow, target >= 0, target <= size else { return Int64(cff_averror(EINVAL)) }
  source.position = Int(target)
  return target
}

extension FormatContext {
  /// The stream at `index` (which must be below `streamCount`); borrowed, never escapes.
  func stream(at index: Int) -> UnsafeMutablePointer<AVStream> {
    raw.pointee.streams[index]!
  }

  /// A stream's duration in seconds, else the container's, else `nil`.
  func duration(ofStream index: Int) -> Double? {
    let stream = stream(at: index)
    let value = stream.pointee.duration
    if value != cff_nopts_value() && value > 0 {
      return Double(value) * av_q2d(stream.pointee.time_base)
    }
    return containerDuration
  }

  /// The duration in seconds the headers state for the stream itself (not the container's, which
  /// may cover longer subtitle or video streams), or `nil` when unknown, only estimated from
  /// the bit rate and file size, or read from an Ogg file's last page.
  func headerDuration(ofStream index: Int) -> Double? {
    // Not a duration estimated from the bit rate (a guess), nor Ogg's, which the demuxer reads
    // from the last page, so it is where the file ends, cut or not, and includes a start
    // offset. (`duration_estimation_method` is only set by `avformat_find_stream_info`.)
    guard raw.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE,
      formatName != "ogg"
    else { return nil }
    let stream = stream(at: index)
    let value = stream.pointee.duration
    guard value != cff_nopts_value() && value > 0 else { return nil }
    return Double(value) * av_q2d(stream.pointee.time_base)
  }

  /// The container's duration in seconds, or `nil` when unknown.
  var containerDuration: Double? {
    let value = raw.pointee.duration
    guard value != cff_nopts_value() && value > 0 else { return nil }
    return Double(value) / Double(cff_time_base())
  }

  /// The stream index of the default audio track: the one ``TrackSelection`` picks with no
  /// language preference (from the facts the headers give).
  func defaultAudioStream(path: String) throws(MediaError) -> Int {
    var (audio, _) = tracks()
    TrackKinds.classify(&audio)
    guard let chosen = TrackSelection.defaultAudio(in: audio, preferences: TrackPreferences())
    else {
      throw MediaError(
        kind: .noSuchStream, operation: "AudioDecoder", detail: "'\(path)' has no audio track")
    }
    return chosen.index
  }
}
