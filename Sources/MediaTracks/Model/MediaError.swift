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
    kind == .other && code == MediaError.timedOutCode
  }

  /// Whether the work was given up because its task was cancelled (an async entry point such
  /// as ``MediaProbe/probe(path:preferences:locale:timeout:remote:)-async``). Such an error
  /// has kind ``Kind/other`` and code `AVERROR(ECANCELED)`.
  public var isCancelled: Bool {
    kind == .other && code == MediaError.cancelledCode
  }

  /// A one-line description: the detail and, for FFmpeg failures, FFmpeg's message.
  public var description: String {
    if code == 0 || (isTimeout && detail.hasPrefix("timed out"))
      || (isCancelled && detail.hasPrefix("cancelled"))
    {
      return detail
    }
    return "\(detail): \(MediaError.message(for: code))"
  }
}
