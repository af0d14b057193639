#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the local files a manifest names, and only those it may: a relative reference (no
/// scheme, not an absolute path) to a file inside the manifest's folder once links are resolved,
/// through ``MediaProbe/Backend`` (this module's reader, the timeout, no nested inputs), at most
/// ``ManifestParser/maximumSegmentReads`` files in all.
struct SegmentReader {
  /// The manifest's local path.
  let manifest: String
  /// The longest one reading call may take, in seconds (`nil`: the default).
  let timeout: Double?
  /// The manifest's folder, links resolved; `nil` when it cannot be resolved (nothing is read).
  private let root: String?
  /// The files read so far.
  private var reads = 0

  init(manifest: String, timeout: Double?) {
    self.manifest = manifest
    self.timeout = timeout
    root = SegmentReader.realPath(SegmentReader.folder(of: manifest))
  }

  /// The audio and subtitle tracks of the first segment of the media playlist `uri` names
  /// (relative to the manifest); `nil` when it is not a local file the manifest may name, is
  /// not a media playlist, cannot be read, or the reads are used up.
  mutating func firstSegmentTracks(ofPlaylist uri: String) -> (
    audio: [AudioTrack], subtitles: [SubtitleTrack]
  )? {
    guard reads < ManifestParser.maximumSegmentReads, let path = resolve(uri, relativeTo: manifest),
      let file = try? FileBytes(path: path), ManifestParser.sniff(file.signatureHead()) == .hls
    else { return nil }
    reads += 1
    guard (try? Deadline(timeout: timeout)) != nil,
      let bytes = try? ManifestParser.manifestBytes(file),
      let playlist = try? HLSPlaylist(bytes: bytes), playlist.isMediaPlaylist,
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
        detail:
          "'\(name)' is a media playlist whose first segment '\(target)' is not a file in its "
          + "folder (URLs, absolute paths and paths out of the folder are not opened)")
    }
    reads += 1
    do {
      let probed = try MediaProbe.Backend.probe(.path(path), timeout: timeout, lenient: false)
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
  /// missing file.
  func resolve(_ uri: String, relativeTo base: String) -> String? {
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
