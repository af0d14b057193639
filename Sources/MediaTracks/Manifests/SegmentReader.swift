#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the files a manifest names, and only those it may, at most
/// ``ManifestParser/maximumSegmentReads`` in all, through ``MediaProbe/Backend`` under the
/// timeout:
/// - for a local manifest, a relative reference (no scheme, not an absolute path) to a file
///   inside the manifest's folder once links are resolved (this module's reader, no nested
///   inputs);
/// - for a remote manifest (``RemoteAccess``), a reference resolved against the manifest's URL
///   that gives an `http:` or `https:` URL: never a local file, never another protocol.
struct SegmentReader {
  /// The manifest's local path or URL.
  let manifest: String
  /// The longest one reading call may take, in seconds (`nil`: the default).
  let timeout: Double?
  /// How a remote manifest's references are requested; `nil` for a local manifest.
  let remote: RemoteAccess?
  /// The manifest's folder, links resolved; `nil` when it cannot be resolved or the manifest is
  /// remote.
  private let root: String?
  /// The files read so far.
  private var reads = 0

  init(manifest: String, timeout: Double?, remote: RemoteAccess? = nil) {
    self.manifest = manifest
    self.timeout = timeout
    self.remote = remote
    root = remote == nil ? SegmentReader.realPath(SegmentReader.folder(of: manifest)) : nil
  }

  /// The audio and subtitle tracks of the first segment of the media playlist `uri` names
  /// (relative to the manifest); `nil` when it is not a file the manifest may name, is not a
  /// media playlist, cannot be read, or the reads are used up.
  mutating func firstSegmentTracks(ofPlaylist uri: String) -> (
    audio: [AudioTrack], subtitles: [SubtitleTrack]
  )? {
    guard reads < ManifestParser.maximumSegmentReads, let path = resolve(uri, relativeTo: manifest)
    else { return nil }
    let bytes: [UInt8]
    if let remote {
      reads += 1
      guard let deadline = try? Deadline(timeout: timeout),
        let fetched = try? RemoteFetch.fetch(
          path, access: remote, deadline: deadline, limit: ManifestParser.manifestLimit),
        ManifestParser.sniff(fetched.prefix(1 << 16)) == .hls
      else { return nil }
      bytes = fetched
    } else {
      guard let file = try? FileBytes(path: path),
        ManifestParser.sniff(file.signatureHead()) == .hls
      else { return nil }
      reads += 1
      guard (try? Deadline(timeout: timeout)) != nil,
        let read = try? ManifestParser.manifestBytes(file)
      else { return nil }
      bytes = read
    }
    guard let playlist = try? HLSPlaylist(bytes: bytes), playlist.isMediaPlaylist,
      let segment = playlist.segments.first
    else { return nil }
    return try? tracks(of: segment, playlist: path, name: uri)
  }

  /// The tracks of `segment` (its initialization section when it has one) of the media
  /// playlist at the local path `playlist`; `name` names the playlist in errors.
  /// - Throws: `.malformed` when the segment is not a local file the playlist may name, is
  ///   encrypted as a whole, or cannot be read as media; a timeout as the backend does.
  mutating func tracks(of segment: HLSPlaylist.Segment, playlist: String, name: String)
    throws(MediaError) -> (audio: [AudioTrack], subtitles: [SubtitleTrack])
  {
    let target = segment.initialization ?? segment.uri
    if segment.encryption?.uppercased() == "AES-128" {
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist",
        detail: "'\(name)': its segments are encrypted (AES-128) and cannot be read")
    }
    guard reads < ManifestParser.maximumSegmentReads,
      let path = resolve(target, relativeTo: playlist)
    else {
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist",
        detail: remote == nil
          ? "'\(name)' is a media playlist whose first segment '\(target)' is not a file in its "
            + "folder (URLs, absolute paths and paths out of the folder are not opened)"
          : "'\(name)' is a media playlist whose first segment '\(target)' is not an http(s) "
            + "URL (a remote playlist names remote media only)")
    }
    reads += 1
    let input: MediaInput = remote.map { .remote(path, access: $0) } ?? .path(path)
    do {
      let probed = try MediaProbe.Backend.probe(input, timeout: timeout, lenient: false)
      return (probed.audio, probed.subtitles)
    } catch {
      if error.isTimeout { throw error }
      throw MediaError(
        kind: .malformed, code: error.code, operation: error.operation,
        detail: "'\(name)': first segment '\(target)': \(error.detail)")
    }
  }

  /// The local file `uri` names relative to the file `base`, links resolved, when it is inside
  /// the manifest's folder; `nil` for a URL, an absolute path, a path out of the folder or a
  /// missing file. For a remote manifest, the http(s) URL `uri` resolves to against the URL
  /// `base`, or `nil`.
  func resolve(_ uri: String, relativeTo base: String) -> String? {
    if remote != nil { return RemoteURL.resolve(uri, against: base) }
    guard let root else { return nil }
    var text = Substring(uri.trimmingSpaces)
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
    guard !text.isEmpty, !text.hasPrefix("/") else { return nil }
    // A scheme (`https:`, `file:`, `data:`) before any slash: not a relative path.
    if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") { return nil }
    guard let decoded = SegmentReader.percentDecoded(text),
      let resolved = SegmentReader.realPath(SegmentReader.folder(of: base) + "/" + decoded)
    else { return nil }
    guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
    return resolved
  }

  /// The folder part of `path` (`"."` when it has none).
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `path` with links, `.` and `..` resolved, or `nil` when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// `text` with `%XX` escapes decoded; `nil` when that gives a NUL byte.
  static func percentDecoded(_ text: Substring) -> String? {
    let bytes = Array(text.utf8)
    guard bytes.contains(0x25) else { return String(text) }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == 0x25, index + 2 < bytes.count,
        let value = UInt8(
          String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
      {
        out.append(value)
        index += 3
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    guard !out.contains(0) else { return nil }
    return String(decoding: out, as: UTF8.self)
  }
}
