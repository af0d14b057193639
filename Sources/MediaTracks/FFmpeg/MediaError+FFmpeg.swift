internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The parts of ``MediaError`` that speak FFmpeg's codes.
extension MediaError {
  /// The code of a call that ran past its deadline: `AVERROR(ETIMEDOUT)`.
  static var timedOutCode: Int32 { cff_averror(ETIMEDOUT) }

  /// The code of a cancelled call, `AVERROR(ECANCELED)`.
  static var cancelledCode: Int32 { cff_averror(ECANCELED) }

  /// The error of work whose task was cancelled during `operation`.
  static func cancelled(_ operation: String) -> MediaError {
    MediaError(
      kind: .other, code: cancelledCode, operation: operation,
      detail: "cancelled: the task was cancelled (\(operation))")
  }

  /// A timeout of `operation` on `path` after `seconds`.
  static func timeout(_ operation: String, path: String, seconds: String) -> MediaError {
    MediaError(
      kind: .other, code: timedOutCode, operation: operation,
      detail: "timed out: '\(path)' gave no answer within \(seconds) s (\(operation))")
  }

  /// FFmpeg's text for an `AVERROR` code.
  static func message(for code: Int32) -> String {
    // AVERROR(e) is -e: FFmpeg describes those with the C library's text (the WAVE fast path
    // reports them); other codes get FFmpeg's own text.
    if code < 0, code > -4096, let text = strerror(-code) { return String(cString: text) }
    var buffer = [CChar](repeating: 0, count: 256)
    buffer.withUnsafeMutableBufferPointer { cff_strerror(code, $0.baseAddress, $0.count) }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    if bytes.isEmpty { return "FFmpeg error \(code)" }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Maps an FFmpeg return code from opening an input to a typed error.
  static func opening(_ path: String, code: Int32) -> MediaError {
    let kind: Kind
    if code == cff_averror(ENOENT) || code == cff_averror(EACCES) || code == cff_averror(EISDIR) {
      kind = .notFound
    } else if code == cff_averror_invaliddata() || code == cff_averror_eof()
      || code == cff_averror(EINVAL) || code == cff_averror_patchwelcome()
    {
      // What demuxers say of bytes they cannot read (the MP3 reader says EINVAL; the WAVE
      // reader says "patches welcome" of a big-endian RIFX file, a form this FFmpeg cannot
      // read). EIO, which the FLAC reader also says of a file cut inside its header, stays
      // `.other`: it is also what a failing disk says.
      kind = .malformed
    } else {
      kind = .other
    }
    // A local file whose bytes end before its container says is cut short: said so, rather
    // than the demuxer's "end of file" or "invalid data", and not taken for a failing disk
    // (the AIFF and FLAC readers say EIO of a file cut inside its header).
    if kind != .notFound, let source = try? FileBytes(path: path),
      let cut = DeclaredEnd.shortfall(source)
    {
      return MediaError(
        kind: .malformed, code: code, operation: "avformat_open_input",
        detail: "'\(path)' is truncated: \(cut)")
    }
    return MediaError(
      kind: kind, code: code, operation: "avformat_open_input", detail: "cannot open '\(path)'")
  }
}
