/// Whole documents fetched from http(s) URLs: what the subtitle commands read when given a URL,
/// through the same HTTP stack, limits and errors as remote manifests and media.
public enum RemoteFile {
  /// The most bytes one document (a manifest, a playlist, a subtitle file) may have: 16 MiB.
  public static let documentLimit = 16 << 20

  /// Whether `path` is an `http:` or `https:` URL (which the other entry points of this module
  /// then fetch instead of opening a local file).
  public static func isRemote(_ path: String) -> Bool { RemoteURL.isRemote(path) }

  /// The lower-cased extension of the URL's path (`"vtt"` for `https://cdn/a.vtt?t=1`), or
  /// `nil`: what names a remote document's format, as a local file's extension does.
  public static func pathExtension(_ url: String) -> String? { RemoteURL.pathExtension(url) }

  /// The body of `url`.
  ///
  /// - Parameters:
  ///   - url: An `http:` or `https:` URL.
  ///   - access: Extra headers and the user agent.
  ///   - timeout: The longest the whole transfer may take, in seconds (`nil`:
  ///     ``MediaProbe/defaultTimeout``).
  ///   - limit: The most bytes accepted (default ``documentLimit``).
  /// - Returns: The bytes; the caller owns them.
  /// - Throws: `MediaError`: `.invalidArgument` for a URL that is not http(s), a bad header or
  ///   timeout; `.notFound` for a 4xx answer or a server that cannot be reached; `.malformed`
  ///   for a body over `limit`; a timeout (``MediaError/isTimeout``); `.other` for a 5xx
  ///   answer after the retries, a redirect loop or a transfer that broke off.
  public static func fetch(
    _ url: String, access: RemoteAccess = RemoteAccess(), timeout: Double? = nil,
    limit: Int = documentLimit
  ) throws(MediaError) -> [UInt8] {
    guard RemoteURL.isRemote(url) else {
      throw MediaError(
        kind: .invalidArgument, operation: "fetch", detail: "'\(url)' is not an http(s) URL")
    }
    let deadline = try Deadline(timeout: timeout)
    return try RemoteFetch.fetch(url, access: access, deadline: deadline, limit: max(0, limit))
  }

  /// ``fetch(_:access:timeout:limit:)`` as an async call that honours task cancellation: the
  /// transfer runs on a thread of its own and ends at FFmpeg's next check once the task is
  /// cancelled, with an error whose ``MediaError/isCancelled`` is true.
  public static func fetch(
    _ url: String, access: RemoteAccess = RemoteAccess(), timeout: Double? = nil,
    limit: Int = documentLimit
  ) async throws(MediaError) -> [UInt8] {
    try await BlockingWork.run("fetch") { () throws(MediaError) -> [UInt8] in
      try fetch(url, access: access, timeout: timeout, limit: limit)
    }
  }
}
