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

  /// The options of every remote open: the whitelist, headers and user agent, certificate
  /// verification, connect and read
  /// timeouts of the deadline's length, and bounded retries (a reset connection or a 5xx
  /// answer is retried with pauses of 0, 1, 3 s… up to 4 s, within the deadline).
  /// The caller frees the dictionary with `av_dict_free`.
  static func options(_ access: RemoteAccess, deadline: Deadline) throws(MediaError)
    -> OpaquePointer?
  {
    var dictionary: OpaquePointer? = nil
    let microseconds =
      deadline.seconds.isFinite ? String(Int64(min(deadline.seconds, 1e6) * 1e6)) : "-1"
    let pairs: [(String, String)] =
      [
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
        // FFmpeg does not verify certificates unless asked; the system's trust store (GnuTLS)
        // or the given authorities.
        ("tls_verify", "1"),
      ] + (access.certificateAuthorities.map { [("ca_file", $0)] } ?? [])
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
  ///
  /// A transfer that breaks off (a reset connection, a body shorter than stated) is tried
  /// again after 0.25 s and then 1 s, all within the deadline's length (FFmpeg's own retries
  /// cover a failed connect and 5xx answers).
  static func fetch(
    _ url: String, access: RemoteAccess, deadline: Deadline, limit: Int, prefixOnly: Bool = false
  ) throws(MediaError) -> [UInt8] {
    try Deadline.within(seconds: deadline.seconds) { () throws(MediaError) -> [UInt8] in
      var pauses: [UInt32] = [250_000, 1_000_000]
      while true {
        do throws(MediaError) {
          return try fetchOnce(
            url, access: access, deadline: deadline, limit: limit, prefixOnly: prefixOnly)
        } catch {
          let brokenOff = [cff_averror(ECONNRESET), cff_averror(EPIPE), cff_averror(EIO)]
          guard error.kind == .other, brokenOff.contains(error.code), !pauses.isEmpty,
            Deadline.itemEnd.map({ Deadline.now() + Double(pauses[0]) / 1e6 < $0 }) ?? true
          else { throw error }
          usleep(pauses.removeFirst())
        }
      }
    }
  }

  /// One attempt of ``fetch(_:access:deadline:limit:prefixOnly:)``.
  private static func fetchOnce(
    _ url: String, access: RemoteAccess, deadline: Deadline, limit: Int, prefixOnly: Bool
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
    // A body sent with `Content-Encoding: gzip` is inflated by FFmpeg while the stated length
    // is the compressed one, which exceeds the inflated length by at most gzip's framing (18
    // bytes, and 5 per stored 64 KiB block) for content that does not compress: only a body
    // shorter than that allows is taken to be cut off.
    let framing = 64 + stated / 8192
    if stated > 0, Int64(body.count) + framing < stated, !(prefixOnly && body.count >= limit) {
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
    return MediaError(
      kind: .other, code: code, operation: operation, detail: "cannot read '\(url)'")
  }
}

/// An http(s) media input as a ``ByteSource``, for the container-declaration readers: each read
/// is a range request (FFmpeg's `http` protocol seeks with `Range: bytes=offset-`), on one
/// connection opened at the first read and kept for the next. `size` is what the server
/// stated (`Content-Length`), as the demuxer's own reader saw it.
final class HTTPBytes: ByteSource {
  let name: String
  let size: Int64
  private let access: RemoteAccess
  private let deadline: Deadline
  private var context: UnsafeMutablePointer<AVIOContext>? = nil
  /// Whether opening failed once (no second try).
  private var failed = false

  /// A source for `url` of `size` bytes; nothing is requested until the first read.
  init(url: String, size: Int64, access: RemoteAccess, deadline: Deadline) {
    name = url
    self.size = size
    self.access = access
    self.deadline = deadline
  }

  deinit { avio_closep(&context) }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(MediaError)
    -> Int
  {
    guard offset >= 0, offset < size, buffer.count > 0 else { return 0 }
    deadline.start()
    let io = try open()
    let position = avio_seek(io, offset, SEEK_SET)
    guard position == offset else {
      throw RemoteFetch.error(
        Int32(truncatingIfNeeded: position < 0 ? position : -1), url: name, deadline: deadline,
        operation: "avio_seek")
    }
    guard let start = buffer.baseAddress else { return 0 }
    let base = start.assumingMemoryBound(to: UInt8.self)
    var filled = 0
    while filled < buffer.count {
      let want = Int32(min(buffer.count - filled, 1 << 20))
      let got = avio_read(io, base + filled, want)
      if deadline.isPast { throw deadline.error("avio_read", path: name) }
      if got <= 0 { break }
      filled += Int(got)
    }
    return filled
  }

  /// The connection, opened on first use.
  private func open() throws(MediaError) -> UnsafeMutablePointer<AVIOContext> {
    if let context { return context }
    guard !failed else {
      throw MediaError(kind: .notFound, operation: "http", detail: "cannot open '\(name)'")
    }
    var dictionary = try RemoteFetch.options(access, deadline: deadline)
    defer { av_dict_free(&dictionary) }
    var callback = AVIOInterruptCB(
      callback: Deadline.interruptCallback, opaque: Unmanaged.passUnretained(deadline).toOpaque())
    let code = avio_open2(&context, name, cff_avio_flag_read(), &callback, &dictionary)
    guard code >= 0, let io = context else {
      failed = true
      throw RemoteFetch.error(code, url: name, deadline: deadline, operation: "avio_open2")
    }
    return io
  }
}
