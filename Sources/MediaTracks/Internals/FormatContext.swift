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

  /// Opens `path` for reading. The corresponding C function is `avformat_open_input`.
  ///
  /// For extensions whose demuxer checks its own magic bytes (Matroska/WebM, MP4/MOV, Ogg, WAVE,
  /// FLAC) that demuxer is tried first, which skips FFmpeg's probe of every format; if it
  /// rejects the file, the file is opened again with the full probe.
  init(path: String) throws(MediaError) {
    cff_quiet_logging()
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
    guard code >= 0, let context else { throw MediaError.opening(path, code: code) }
    raw = context
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

  deinit {
    var context: UnsafeMutablePointer<AVFormatContext>? = raw
    avformat_close_input(&context)
  }
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
  /// may cover longer subtitle or video streams), or `nil` when unknown or only estimated from
  /// the bit rate and file size.
  func headerDuration(ofStream index: Int) -> Double? {
    guard raw.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE else { return nil }
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
