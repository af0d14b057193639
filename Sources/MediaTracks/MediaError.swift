internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error reported by FFmpeg or by this module while reading or writing media.
///
/// `code` is FFmpeg's negative `AVERROR` value (or `0` for errors raised by this module itself),
/// `operation` names what was being done, and `detail` is a readable explanation.
public struct MediaError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of failure, independent of FFmpeg's numeric codes.
  public enum Kind: String, Hashable, Sendable, Codable {
    /// The input does not exist or cannot be opened for reading.
    case notFound
    /// The input exists but is not media FFmpeg can read (garbage, truncated, unknown format).
    case malformed
    /// The input has no stream of the requested type (for example no audio track).
    case noSuchStream
    /// The output could not be created or written.
    case outputFailed
    /// A caller-supplied argument is invalid.
    case invalidArgument
    /// Any other FFmpeg failure, and a timeout (see ``MediaError/isTimeout``).
    case other
  }

  /// The kind of failure.
  public var kind: Kind
  /// FFmpeg's `AVERROR` code, or `0` when the error did not come from FFmpeg.
  public var code: Int32
  /// What was being done, for example `"avformat_open_input"`.
  public var operation: String
  /// A readable explanation, including the path where one applies.
  public var detail: String

  /// Creates an error.
  public init(kind: Kind, code: Int32 = 0, operation: String, detail: String) {
    self.kind = kind
    self.code = code
    self.operation = operation
    self.detail = detail
  }

  /// Whether one reading call (opening the input, its stream-information pass, or reading one
  /// packet) took longer than the timeout given (``MediaProbe/defaultTimeout`` by default): a
  /// pipe whose writer never writes, a server that stops answering, a demuxer that never
  /// ends. Such an error has kind ``Kind/other`` and code `AVERROR(ETIMEDOUT)`; its operation
  /// names the call.
  public var isTimeout: Bool {
    kind == .other && code == cff_averror(ETIMEDOUT)
  }

  /// A timeout of `operation` on `path` after `seconds`.
  static func timeout(_ operation: String, path: String, seconds: String) -> MediaError {
    MediaError(
      kind: .other, code: cff_averror(ETIMEDOUT), operation: operation,
      detail: "timed out: '\(path)' gave no answer within \(seconds) s (\(operation))")
  }

  /// A one-line description: the detail and, for FFmpeg failures, FFmpeg's message.
  public var description: String {
    if code == 0 || (isTimeout && detail.hasPrefix("timed out")) { return detail }
    return "\(detail): \(MediaError.message(for: code))"
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
    return MediaError(
      kind: kind, code: code, operation: "avformat_open_input", detail: "cannot open '\(path)'")
  }
}
