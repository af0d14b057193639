internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Remote requests through FFmpeg's own `http`/`https` protocols: the one HTTP stack for
/// manifests, subtitle files and media (see ``RemoteAccess``).
enum RemoteFetch {
  /// The protocols a remote input may use, FFmpeg's whitelist: nothing local, nothing else.
  static let protocols = "http,https,tls,tcp"

  /// The options of every remote open: the whitelist, headers and user agent, connect and read
  /// timeouts of the deadline's length, and bounded retries (a reset connection or a 5xx
  /// answer is retried with pauses of 0, 1, 3 s… up to 4 s, within the deadline).
  /// The caller frees the dictionary with `av_dict_free`.
  static func options(_ access: RemoteAccess, deadline: Deadline) throws(MediaError)
    -> OpaquePointer?
  {
    var dictionary: OpaquePointer? = nil
    let microseconds =
      deadline.seconds.isFinite ? String(Int64(min(deadline.seconds, 1e6) * 1e6)) : "-1"
    let pairs: [(String, String)] = [
      ("protocol_whitelist", protocols),
      ("headers", try access.headerBlock()),
      ("user_agent", access.userAgent),
      ("rw_timeout", microseconds),
      ("timeout", microseconds),
      ("reconnect", "1"),
      ("reconnect_on_network_error", "1"),
      ("reconnect_on_http_error", "5xx"),
      ("reconnect_delay_max", "4"),
      ("icy", "0"),
    ]
    for (key, value) in pairs {
      _ = av_dict_set(&dictionary, key, value, 0)
    }
    return dictionary
  }

  /// Starts FFmpeg's network layer once per process (TLS library set-up).
  static let networkReady: Bool = {
    avformat_network_init() >= 0
  }()

  /// The body of `url`: at most `limit` bytes, read under `deadline` (which is started here and
  /// covers the whole transfer).
  ///
  /// - Parameters:
  ///   - prefixOnly: Whether a longer body is cut at `limit` (reading a head) rather than
  ///     refused.
  /// - Throws: As ``error(_:url:deadline:operation:)`` maps FFmpeg's codes; `.malformed` when
  ///   the body exceeds `limit` (and `prefixOnly` is false); `.other` when the body ends before
  ///   the length the server stated.
  static func fetch(
    _ url: String, access: RemoteAccess, deadline: Deadline, limit: Int, prefixOnly: Bool = false
  ) throws(MediaError) -> [UInt8] {
    try FFmpegLibraries.require()
    _ = networkReady
    var dictionary = try options(access, deadline: deadline)
    defer { av_dict_free(&dictionary) }
    var callback = AVIOInterruptCB(
      callback: Deadline.interruptCallback, opaque: Unmanaged.passUnretained(deadline).toOpaque())
    var context: UnsafeMutablePointer<AVIOContext>? = nil
    deadline.start()
    let opened = avio_open2(&context, url, cff_avio_flag_read(), &callback, &dictionary)
    guard opened >= 0, let io = context else {
      throw error(opened, url: url, deadline: deadline, operation: "avio_open2")
    }
    defer { avio_closep(&context) }
    let stated = avio_size(io)
    if stated > Int64(limit), !prefixOnly { throw tooLarge(url, limit: limit) }
    var body: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while body.count < limit || !prefixOnly {
      let want = Int32(min(chunk.count, prefixOnly ? limit - body.count : chunk.count))
      let got = chunk.withUnsafeMutableBufferPointer { avio_read(io, $0.baseAddress, want) }
      if deadline.isPast { throw deadline.error("avio_read", path: url) }
      if got == cff_averror_eof() || got == 0 { break }
      guard got > 0 else { throw error(got, url: url, deadline: deadline, operation: "avio_read") }
      body.append(contentsOf: chunk[..<Int(got)])
      if body.count > limit, !prefixOnly { throw tooLarge(url, limit: limit) }
    }
    if stated > 0, Int64(body.count) < stated, !(prefixOnly && body.count >= limit) {
      throw MediaError(
        kind: .other, code: cff_averror(EIO), operation: "avio_read",
        detail: "'\(url)' ended after \(body.count) of the \(stated) bytes its server stated")
    }
    return body
  }

  /// The error for a body over `limit` bytes.
  private static func tooLarge(_ url: String, limit: Int) -> MediaError {
    MediaError(
      kind: .malformed, operation: "avio_read",
      detail: "'\(url)' is larger than \(limit) bytes, the most read for one document")
  }

  /// The error for FFmpeg's `code` from a remote `operation`: a timeout when the deadline
  /// passed; `.notFound` (operation `http`) for an answer of 400, 401, 403, 404, 410 or another 4xx and for a
  /// server that cannot be reached (refused, no route, unknown host); `.other` for a 5xx
  /// answer after the retries and any other failure (a redirect loop, a reset connection).
  static func error(_ code: Int32, url: String, deadline: Deadline, operation: String)
    -> MediaError
  {
    if deadline.expired || code == cff_averror(ETIMEDOUT) || code == cff_averror_exit() {
      return deadline.error(operation, path: url)
    }
    let missing: Set<Int32> = [
      cff_averror_http_bad_request(), cff_averror_http_unauthorized(),
      cff_averror_http_forbidden(), cff_averror_http_not_found(), cff_averror_http_other_4xx(),
      cff_averror(ECONNREFUSED), cff_averror(EHOSTUNREACH), cff_averror(ENETUNREACH),
    ]
    if missing.contains(code) {
      return MediaError(
        kind: .notFound, code: code, operation: "http", detail: "cannot open '\(url)'")
    }
    return MediaError(kind: .other, code: code, operation: operation, detail: "cannot read '\(url)'")
  }
}
