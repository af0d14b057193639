/// One media input a backend reads: a path (a local file, or a URL the backend can open) or
/// bytes in memory.
enum MediaInput {
  /// A local file path or a URL.
  case path(String)
  /// The whole file in memory; `name` names it in results and errors.
  case bytes([UInt8], name: String)
  /// An http(s) URL, requested with `access`.
  case remote(String, access: RemoteAccess)

  /// The name results and errors give the input.
  var name: String {
    switch self {
    case .path(let path): return path
    case .bytes(_, let name): return name
    case .remote(let url, _): return url
    }
  }
}

/// What a backend reads from one media input: the container's facts and the raw facts of its
/// tracks, in stream order (kinds, labels and the default choice not yet set).
struct ProbedMedia {
  /// The demuxer's name (`"matroska,webm"`, `"wav"`).
  var demuxerName: String
  /// The file's duration in seconds, or `nil` when unknown.
  var duration: Double?
  /// The container's overall bit rate in bits per second, or `nil`.
  var bitRate: Int?
  var audio: [AudioTrack]
  var subtitles: [SubtitleTrack]
}

/// The one thing the track model, labels, selection and manifests need from a media library:
/// the tracks of a media input. ``FFmpegBackend`` is the backend here; another (AVFoundation
/// on Apple platforms) would conform to this protocol, and ``MediaProbe/Backend`` would name
/// it, without a change anywhere else.
protocol ProbingBackend {
  /// Reads the container's facts and tracks of `input`.
  ///
  /// - Parameters:
  ///   - input: The file, URL or bytes.
  ///   - timeout: The longest one reading call may take, in seconds (`nil`: the default).
  ///   - lenient: Whether facts the headers state are kept when the pass that completes them
  ///     fails (probing a file); otherwise that failure is the error (a manifest's segment).
  /// - Throws: `MediaError` as ``MediaProbe/probe(path:preferences:locale:timeout:)`` documents.
  static func probe(_ input: MediaInput, timeout: Double?, lenient: Bool) throws(MediaError)
    -> ProbedMedia
}
