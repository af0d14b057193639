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
  /// What ``prefetch(playlists:)`` read, by the reference as the manifest writes it (`nil`:
  /// not readable).
  private var prefetched: [String: Tracks?] = [:]

  /// The audio and subtitle tracks of one segment.
  typealias Tracks = (audio: [AudioTrack], subtitles: [SubtitleTrack])

  /// The most bytes read of a remote segment: its start, which holds what a probe needs (a TS
  /// segment's tables and first packets, an initialization section whole).
  static let remoteSegmentPrefix = 2 << 20

  init(manifest: String, timeout: Double?, remote: RemoteAccess? = nil) {
    self.manifest = manifest
    self.timeout = timeout
    self.remote = remote
    root = remote == nil ? SegmentReader.realPath(SegmentReader.folder(of: manifest)) : nil
  }

  /// For a remote manifest, reads the first segments of the media playlists `uris` names
  /// (relative to the manifest) at once, on up to eight threads, so that their round trips
  /// overlap; ``firstSegmentTracks(ofPlaylist:)`` then answers from them. Each counts as two
  /// reads (the playlist and its segment), as it would one at a time. Nothing for a local
  /// manifest.
  mutating func prefetch(playlists uris: [String]) {
    guard let remote else { return }
    var wanted: [String] = []
    for uri in uris where prefetched[uri] == nil && !wanted.contains(uri) {
      guard reads + 2 * (wanted.count + 1) <= ManifestParser.maximumSegmentReads else { break }
      wanted.append(uri)
    }
    guard !wanted.isEmpty else { return }
    reads += 2 * wanted.count
    let playlists = wanted
    let manifest = self.manifest
    let timeout = self.timeout
    let work = PthreadLocked((next: 0, results: [String: Tracks?]()))
    // The workers' deadlines see the caller's cancellation and the end of the whole item.
    let cancellation = CancellationFlag.current
    let itemEnd = Deadline.itemEnd
    WorkerThreads.run(count: min(playlists.count, 8)) {
      CancellationFlag.$current.withValue(cancellation) {
        Deadline.$itemEnd.withValue(itemEnd) { fetchPlaylists() }
      }
    }
    prefetched.merge(work.withLock { $0.results }) { first, _ in first }

    @Sendable func fetchPlaylists() {
      while true {
        let position = work.withLock { state -> Int? in
          guard state.next < playlists.count else { return nil }
          defer { state.next += 1 }
          return state.next
        }
        guard let position else { return }
        let uri = playlists[position]
        let found = RemoteURL.resolve(uri, against: manifest).flatMap {
          SegmentReader.remoteFirstSegmentTracks(
            playlist: $0, name: uri, access: remote, timeout: timeout)
        }
        work.withLock { $0.results[uri] = .some(found) }
      }
    }
  }

  /// The audio and subtitle tracks of the first segment of the media playlist `uri` names
  /// (relative to the manifest); `nil` when it is not a file the manifest may name, is not a
  /// media playlist, cannot be read, or the reads are used up.
  mutating func firstSegmentTracks(ofPlaylist uri: String) -> Tracks? {
    if let known = prefetched[uri] { return known }
    guard reads < ManifestParser.maximumSegmentReads, let path = resolve(uri, relativeTo: manifest)
    else { return nil }
    if let remote {
      reads += 2
      return SegmentReader.remoteFirstSegmentTracks(
        playlist: path, name: uri, access: remote, timeout: timeout)
    }
    guard let file = try? FileBytes(path: path),
      ManifestParser.sniff(file.signatureHead()) == .hls
    else { return nil }
    reads += 1
    guard (try? Deadline(timeout: timeout)) != nil,
      let bytes = try? ManifestParser.manifestBytes(file),
      let playlist = try? HLSPlaylist(bytes: bytes), playlist.isMediaPlaylist,
      let segment = playlist.segments.first
    else { return nil }
    return try? tracks(of: segment, playlist: path, name: uri)
  }

  /// The tracks of the media file `uri` names relative to the manifest (a DASH
  /// representation's initialization segment), or `nil` when it is not a file the manifest may
  /// name, cannot be read as media, or the reads are used up. A remote file is read up to its
  /// first ``remoteSegmentPrefix`` bytes, in one request, and probed in memory.
  mutating func mediaTracks(_ uri: String) -> Tracks? {
    guard reads < ManifestParser.maximumSegmentReads,
      let target = resolve(uri, relativeTo: manifest)
    else { return nil }
    reads += 1
    if let remote {
      guard let deadline = try? Deadline(timeout: timeout),
        let bytes = try? RemoteFetch.fetch(
          target, access: remote, deadline: deadline, limit: SegmentReader.remoteSegmentPrefix,
          prefixOnly: true)
      else { return nil }
      return try? SegmentReader.probe(
        .bytes(bytes, name: target), target: uri, name: manifest, timeout: timeout)
    }
    return try? SegmentReader.probe(.path(target), target: uri, name: manifest, timeout: timeout)
  }

  /// The tracks of `segment` (its initialization section when it has one) of the media
  /// playlist at `playlist` (the manifest's local path or URL); `name` names the playlist in
  /// errors.
  /// - Throws: `.notFound` when the segment is a relative path to no file, `.malformed` when it
  ///   is not a file the playlist may name, is encrypted as a whole, or cannot be read as media;
  ///   a timeout as the backend does.
  mutating func tracks(of segment: HLSPlaylist.Segment, playlist: String, name: String)
    throws(MediaError) -> Tracks
  {
    if let remote {
      reads += 1
      return try SegmentReader.remoteTracks(
        of: segment, playlist: playlist, name: name, access: remote, timeout: timeout)
    }
    let target = try SegmentReader.readableTarget(of: segment, name: name)
    // What the target is, in messages: the `#EXT-X-MAP` section when there is one.
    let what =
      segment.initialization == nil
      ? "first segment" : "initialization section (EXT-X-MAP)"
    guard reads < ManifestParser.maximumSegmentReads,
      let path = resolve(target, relativeTo: playlist)
    else {
      if reads < ManifestParser.maximumSegmentReads, isMissing(target, relativeTo: playlist) {
        throw MediaError(
          kind: .notFound, operation: "HLSPlaylist",
          detail: "'\(name)' is a media playlist whose \(what) '\(target)' is missing")
      }
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist",
        detail:
          "'\(name)' is a media playlist whose \(what) '\(target)' is not a file it may "
          + "open (URLs, absolute paths, links out of its folder and, out of its folder, files "
          + "without a media extension are not opened)")
    }
    reads += 1
    return SegmentReader.marked(
      try SegmentReader.probe(.path(path), target: target, name: name, timeout: timeout),
      by: segment)
  }

  /// `tracks` with the audio marked encrypted, and not decodable, when `segment` is encrypted
  /// by its playlist's `#EXT-X-KEY` sample by sample (`SAMPLE-AES`, `SAMPLE-AES-CTR`, a DRM
  /// system's method): the media may not say so itself (Apple's sample-encrypted MPEG-TS
  /// streams, an initialization section without `sinf`), and mtool has no key.
  static func marked(_ tracks: Tracks, by segment: HLSPlaylist.Segment) -> Tracks {
    guard let method = segment.encryption, method.uppercased() != "AES-128" else { return tracks }
    var audio = tracks.audio
    for position in audio.indices {
      audio[position].encrypted = true
      audio[position].decodable = false
    }
    return (audio, tracks.subtitles)
  }

  /// The reference of what is read of `segment`: its initialization section when it has one.
  /// - Throws: `.malformed` when the segments are encrypted as a whole (`AES-128`).
  private static func readableTarget(of segment: HLSPlaylist.Segment, name: String)
    throws(MediaError) -> String
  {
    if segment.encryption?.uppercased() == "AES-128" {
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist",
        detail: "'\(name)': its segments are encrypted (AES-128) and cannot be read")
    }
    return segment.initialization ?? segment.uri
  }

  /// The tracks of `input`, a playlist's segment: a failure other than a timeout is
  /// `.malformed`, naming the playlist and the segment.
  private static func probe(_ input: MediaInput, target: String, name: String, timeout: Double?)
    throws(MediaError) -> Tracks
  {
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

  /// The tracks of the first segment of the remote media playlist at the URL `playlist`, or
  /// `nil` when it is not one or cannot be read.
  private static func remoteFirstSegmentTracks(
    playlist: String, name: String, access: RemoteAccess, timeout: Double?
  ) -> Tracks? {
    guard let deadline = try? Deadline(timeout: timeout),
      let bytes = try? RemoteFetch.fetch(
        playlist, access: access, deadline: deadline, limit: ManifestParser.manifestLimit),
      ManifestParser.sniff(bytes.prefix(1 << 16)) == .hls,
      let parsed = try? HLSPlaylist(bytes: bytes), parsed.isMediaPlaylist,
      let segment = parsed.segments.first
    else { return nil }
    return try? remoteTracks(
      of: segment, playlist: playlist, name: name, access: access, timeout: timeout)
  }

  /// The tracks of `segment` of the remote media playlist at the URL `playlist`: its first
  /// ``remoteSegmentPrefix`` bytes, fetched in one request and probed in memory (confined, as
  /// bytes are: they cannot make FFmpeg open anything).
  private static func remoteTracks(
    of segment: HLSPlaylist.Segment, playlist: String, name: String, access: RemoteAccess,
    timeout: Double?
  ) throws(MediaError) -> Tracks {
    let target = try readableTarget(of: segment, name: name)
    guard let url = RemoteURL.resolve(target, against: playlist) else {
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist",
        detail:
          "'\(name)' is a media playlist whose first segment '\(target)' is not an http(s) "
          + "URL (a remote playlist names remote media only)")
    }
    let bytes: [UInt8]
    do {
      bytes = try RemoteFetch.fetch(
        url, access: access, deadline: try Deadline(timeout: timeout),
        limit: remoteSegmentPrefix, prefixOnly: true)
    } catch {
      if error.isTimeout { throw error }
      throw MediaError(
        kind: .malformed, code: error.code, operation: error.operation,
        detail: "'\(name)': first segment '\(target)': \(error.description)")
    }
    return marked(
      try probe(.bytes(bytes, name: url), target: target, name: name, timeout: timeout),
      by: segment)
  }

  /// The local file `uri` names relative to the file `base`, links resolved: a relative
  /// reference resolved as RFC 3986 resolves it (`.` and `..` segments removed from the path,
  /// as players resolve `../segments/seg1.ts`). A file inside the manifest's folder may be
  /// reached through links that stay in it; a file out of the folder only when it has a media
  /// segment or playlist extension (``mediaExtensions``) and no link leads to it, so that a
  /// manifest cannot make mtool open files that are not media (`../../etc/passwd`), nor follow
  /// a link planted in its folder. `nil` for a URL, an absolute path, a file it may not open or
  /// a missing file. For a remote manifest, the http(s) URL `uri` resolves to against the URL
  /// `base`, or `nil`.
  func resolve(_ uri: String, relativeTo base: String) -> String? {
    if remote != nil { return RemoteURL.resolve(uri, against: base) }
    guard let root, let path = localPath(uri, relativeTo: base),
      let resolved = SegmentReader.realPath(path)
    else { return nil }
    if SegmentReader.isInside(resolved, root) { return resolved }
    guard !SegmentReader.isInside(path, root), resolved == path,
      SegmentReader.hasMediaExtension(path)
    else { return nil }
    return resolved
  }

  /// Whether `uri` is a relative path that ``resolve(_:relativeTo:)`` would open but that names
  /// nothing (a segment not copied along with its playlist), rather than a URL, an absolute
  /// path or a file it may not open, which are refused whether they exist or not.
  func isMissing(_ uri: String, relativeTo base: String) -> Bool {
    guard remote == nil, let root, let path = localPath(uri, relativeTo: base),
      SegmentReader.isInside(path, root) || SegmentReader.hasMediaExtension(path)
    else { return false }
    var info = stat()
    return lstat(path, &info) != 0 && errno == ENOENT
  }

  /// The absolute path the relative reference `uri` names from the file `base`: `base`'s
  /// folder with links resolved, then `uri`'s segments with `.` and `..` removed as RFC 3986
  /// removes them (`..` at the top stays there); `nil` for what ``relativePath(_:)`` refuses
  /// or a folder that cannot be resolved.
  func localPath(_ uri: String, relativeTo base: String) -> String? {
    guard let decoded = SegmentReader.relativePath(uri),
      let folder = SegmentReader.realPath(SegmentReader.folder(of: base))
    else { return nil }
    var parts: [Substring] = []
    for part in (folder + "/" + decoded).split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == ".." {
        _ = parts.popLast()
      } else {
        parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// Whether the absolute path `path` is inside the folder `root`.
  static func isInside(_ path: String, _ root: String) -> Bool {
    root == "/" || path.hasPrefix(root + "/")
  }

  /// The extensions of the files a manifest may name out of its folder (any case): media
  /// segments, initialization sections, subtitle segments and playlists. FFmpeg's HLS demuxer
  /// keeps a playlist from opening other files with a list alike (`allowed_extensions`).
  static let mediaExtensions: Set<String> = [
    "3gp", "aac", "ac3", "ac4", "avi", "cmfa", "cmft", "cmfv", "dts", "ec3", "eac3", "flac",
    "fmp4", "m2ts", "m3u", "m3u8", "m4a", "m4s", "m4v", "mka", "mkv", "mov", "mp2", "mp3", "mp4",
    "mpd", "mpeg", "mpegts", "mpg", "mts", "oga", "ogg", "opus", "ts", "vtt", "wav", "webm",
    "webvtt",
  ]

  /// Whether the last part of `path` ends in one of ``mediaExtensions``.
  static func hasMediaExtension(_ path: String) -> Bool {
    let name = path.split(separator: "/").last ?? ""
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
    return mediaExtensions.contains(name[name.index(after: dot)...].lowercased())
  }

  /// `uri` as a path relative to its playlist's folder: trimmed, without its query or fragment,
  /// percent-decoded; `nil` for a URL (a scheme such as `https:`, `file:` or `data:` before any
  /// slash), an absolute path, an empty one, or one that decodes to a NUL byte.
  static func relativePath(_ uri: String) -> String? {
    var text = Substring(uri.trimmingSpaces)
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
    guard !text.isEmpty, !text.hasPrefix("/") else { return nil }
    if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") { return nil }
    return percentDecoded(text)
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
