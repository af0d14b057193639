/// How http and https inputs are requested: extra request headers (a CDN's token, a cookie)
/// and the user agent. Local inputs ignore it.
///
/// Every remote request mtool makes (a manifest, a media playlist, a subtitle file, a media
/// file and its range requests) goes through FFmpeg's own `http` and `https` protocols with
/// these fields, under the caller's timeout, following at most FFmpeg's bound of redirects,
/// retrying a reset connection or a 5xx answer a bounded number of times with growing pauses,
/// verifying an https server's certificate and name, and with only `http`, `https`, `tls` and
/// `tcp` allowed: a remote document can never make mtool read a local file or use another
/// protocol.
public struct RemoteAccess: Hashable, Sendable {
  /// Extra request headers, each `Name: value` (no line breaks).
  public var headers: [String]
  /// The `User-Agent` header.
  public var userAgent: String
  /// A PEM file of the certificate authorities an https server's certificate must chain to,
  /// or `nil` for the system's trust store. Certificates are always verified.
  public var certificateAuthorities: String?

  /// The user agent sent when none is given.
  public static let defaultUserAgent = "mtool/1"

  /// Access with `headers` (each `Name: value`), `userAgent` and, for https, the certificate
  /// authorities in the PEM file `certificateAuthorities` (`nil`: the system's).
  public init(
    headers: [String] = [], userAgent: String = RemoteAccess.defaultUserAgent,
    certificateAuthorities: String? = nil
  ) {
    self.headers = headers
    self.userAgent = userAgent
    self.certificateAuthorities = certificateAuthorities
  }

  /// The headers as one block of `Name: value` lines, each ended by CR LF.
  /// - Throws: `.invalidArgument` for a header without a name and a colon, or with a line
  ///   break or NUL in it (which would smuggle a header or a request in).
  func headerBlock() throws(MediaError) -> String {
    var block = ""
    for header in headers + ["User-Agent: \(userAgent)"] {
      let bytes = Array(header.utf8)
      let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
      let nameOK =
        colon.map { at in
          at > 0
            && bytes[..<at].allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
        } ?? false
      guard nameOK, !bytes.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
        throw MediaError(
          kind: .invalidArgument, operation: "header",
          detail: "a request header must be 'Name: value' on one line, got '\(header)'")
      }
      block += header + "\r\n"
    }
    return block
  }
}

/// http and https URLs: what is one, and how a reference in a remote document resolves.
enum RemoteURL {
  /// Whether `text` is an absolute `http:` or `https:` URL (case-insensitive scheme).
  static func isRemote(_ text: String) -> Bool {
    scheme(of: Substring(text)).map { $0 == "http" || $0 == "https" } ?? false
  }

  /// The lower-cased scheme of `text` when it starts with one (`scheme:` before any `/`, `?`
  /// or `#`), else `nil`.
  static func scheme(of text: Substring) -> String? {
    guard let colon = text.firstIndex(of: ":"), colon > text.startIndex else { return nil }
    let name = text[..<colon]
    guard let first = name.first, first.isASCII, first.isLetter,
      name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    else { return nil }
    return name.lowercased()
  }

  /// `reference` (from a document fetched from `base`) as an absolute URL, by RFC 3986's
  /// resolution; `nil` unless the result is an `http:` or `https:` URL. So a remote document
  /// can name other remote resources only: `file:`, `data:` and every other scheme are refused,
  /// and a path resolves against the remote base, never against the local disk.
  static func resolve(_ reference: String, against base: String) -> String? {
    var ref = Substring(reference.trimmingSpaces)
    if let hash = ref.firstIndex(of: "#") { ref = ref[..<hash] }
    if scheme(of: ref) != nil {
      let absolute = String(ref)
      return isRemote(absolute) ? absolute : nil
    }
    guard isRemote(base), let baseScheme = scheme(of: Substring(base)) else { return nil }
    let afterScheme = base.dropFirst(baseScheme.count + 1)
    guard afterScheme.hasPrefix("//") else { return nil }
    let authorityStart = afterScheme.index(afterScheme.startIndex, offsetBy: 2)
    let authorityEnd =
      afterScheme[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" }
      ?? afterScheme.endIndex
    let origin = base[..<authorityEnd]
    var basePath = afterScheme[authorityEnd...]
    if let cut = basePath.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      basePath = basePath[..<cut]
    }
    if ref.hasPrefix("//") { return baseScheme + ":" + ref }
    if ref.isEmpty { return String(origin) + basePath }
    if ref.hasPrefix("?") { return String(origin) + basePath + ref }
    var path: Substring
    var query: Substring = ""
    if let mark = ref.firstIndex(of: "?") {
      query = ref[mark...]
      path = ref[..<mark]
    } else {
      path = ref
    }
    let merged: String
    if path.hasPrefix("/") {
      merged = String(path)
    } else {
      let folder = basePath.lastIndex(of: "/").map { basePath[...$0] } ?? "/"
      merged = String(folder) + path
    }
    return String(origin) + removingDotSegments(merged) + query
  }

  /// `path` with `.` and `..` segments removed (RFC 3986, 5.2.4); `..` never climbs above the
  /// root.
  static func removingDotSegments(_ path: String) -> String {
    var output: [Substring] = []
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    for (index, segment) in segments.enumerated() {
      let last = index == segments.count - 1
      switch segment {
      case ".":
        if last { output.append("") }
      case "..":
        if output.count > 1 { output.removeLast() }
        if last { output.append("") }
      default:
        output.append(segment)
      }
    }
    let joined = output.joined(separator: "/")
    return joined.hasPrefix("/") ? joined : "/" + joined
  }

  /// The extension of the URL's path (`vtt` for `https://h/a/b.vtt?x=1`), lower-cased, or
  /// `nil`.
  static func pathExtension(_ url: String) -> String? {
    var text = Substring(url)
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
    guard let slash = text.lastIndex(of: "/") else { return nil }
    let name = text[text.index(after: slash)...]
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    let ext = name[name.index(after: dot)...]
    return ext.isEmpty ? nil : ext.lowercased()
  }
}
