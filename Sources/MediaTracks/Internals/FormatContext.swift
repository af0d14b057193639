internal import CFFmpeg

/// Owns one demuxing `AVFormatContext`; closes it when it goes away.
///
/// The raw pointer never leaves this module: callers copy the fields they need into values.
struct FormatContext: ~Copyable {
  private(set) var raw: UnsafeMutablePointer<AVFormatContext>

  /// Opens `path` for reading. The corresponding C function is `avformat_open_input`.
  init(path: String) throws(MediaError) {
    cff_quiet_logging()
    var context: UnsafeMutablePointer<AVFormatContext>? = nil
    let code = avformat_open_input(&context, path, nil, nil)
    guard code >= 0, let context else { throw MediaError.opening(path, code: code) }
    raw = context
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
