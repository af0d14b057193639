/// The segments of an HLS subtitle media playlist (segmented WebVTT), read in order (each
/// whole, or the `#EXT-X-BYTERANGE` sub-range of its file), for a subtitle parser to join into
/// one document (SubtitleParser's `SubtitleDocument(joiningSegments:timing:)` applies each
/// segment's `X-TIMESTAMP-MAP` and lines up discontinuity sequences with the playlist).
///
/// The playlist's references are read as ``ManifestParser`` reads a manifest's: for a local
/// playlist only relative references to files inside its folder (links resolved), for a remote
/// one only http(s) URLs resolved against its URL, fetched eight at a time so their round trips
/// overlap. A live playlist is read once, with the segments it lists.
public enum HLSSubtitleSegments {
  /// The longest `#EXTINF` a subtitle segment may state, in seconds (a day).
  static let longestSegment = 86_400.0

  /// The most segments read from one playlist.
  public static let maximumSegments = 100_000
  /// The most bytes read in all, over every segment: 256 MiB.
  public static let maximumBytes = 256 << 20

  /// Whether `bytes` (a file's content) is an HLS playlist (`#EXTM3U` at its start, after an
  /// optional byte order mark).
  public static func isPlaylist(_ bytes: [UInt8]) -> Bool {
    ManifestParser.sniff(bytes.prefix(1 << 16)) == .hls
  }

  /// One WebVTT segment of a subtitle playlist: its bytes and where the playlist places it.
  public struct Segment: Hashable, Sendable {
    /// The segment's bytes: its resource whole, or the `#EXT-X-BYTERANGE` sub-range of it.
    public var bytes: [UInt8]
    /// Where the segment starts on the playlist's timeline, in seconds: the sum of the
    /// `#EXTINF` durations of the segments before it (a segment without one counts 0).
    public var start: Double
    /// Its discontinuity sequence number (see ``HLSPlaylist/Segment/discontinuitySequence``).
    public var discontinuitySequence: Int

    /// A segment of `bytes` that starts at `start` seconds, in discontinuity sequence
    /// `discontinuitySequence`.
    public init(bytes: [UInt8], start: Double, discontinuitySequence: Int) {
      self.bytes = bytes
      self.start = start
      self.discontinuitySequence = discontinuitySequence
    }
  }

  /// The bytes of each segment the media playlist `playlist` lists, in playlist order; the
  /// bytes of ``segments(playlist:at:timeout:remote:)``.
  ///
  /// - Parameters:
  ///   - playlist: The playlist's content.
  ///   - path: Where it was read: a local path or an http(s) URL (what references resolve
  ///     against).
  ///   - timeout: The longest one segment's transfer may take, in seconds (`nil`:
  ///     ``MediaProbe/defaultTimeout``).
  ///   - remote: How a remote playlist's segments are requested.
  /// - Returns: One byte array per segment; the caller owns them.
  /// - Throws: `MediaError` `.malformed` when it is not an HLS media playlist (a multivariant
  ///   playlist names the subtitle playlists to give instead), lists no segment or too many,
  ///   names a segment that is not a file it may open (local: a relative path to a file in its
  ///   folder, or out of it to a file with a media extension that no link leads to) or not an
  ///   http(s) URL (remote), is encrypted, has fragmented MP4 segments (an `#EXT-X-MAP`), or its segments exceed
  ///   ``maximumBytes``; a segment's read error (a 4xx
  ///   answer: `.notFound`; a timeout) as it happens.
  public static func read(
    playlist: [UInt8], at path: String, timeout: Double? = nil,
    remote: RemoteAccess = RemoteAccess()
  ) throws(MediaError) -> [[UInt8]] {
    try segments(playlist: playlist, at: path, timeout: timeout, remote: remote).map(\.bytes)
  }

  /// Each segment the media playlist `playlist` lists, in playlist order, with where the
  /// playlist places it (its start on the playlist's timeline and its discontinuity sequence),
  /// which a joiner needs to line up segments whose timestamps restart after an
  /// `#EXT-X-DISCONTINUITY`.
  ///
  /// A segment with an `#EXT-X-BYTERANGE` is that sub-range of its resource (RFC 8216 section
  /// 4.3.2.2); a resource several segments name is read once.
  ///
  /// - Parameters: as ``read(playlist:at:timeout:remote:)``'s.
  /// - Returns: One ``Segment`` per segment; the caller owns them.
  /// - Throws: `MediaError` as ``read(playlist:at:timeout:remote:)`` does, and `.malformed`,
  ///   naming the playlist and the segment, for an `#EXT-X-BYTERANGE` that is not `n[@o]`,
  ///   that has no offset when the segment before is not a sub-range of the same resource, or
  ///   that ends past the end of its resource.
  public static func segments(
    playlist: [UInt8], at path: String, timeout: Double? = nil,
    remote: RemoteAccess = RemoteAccess()
  ) throws(MediaError) -> [Segment] {
    let parsed = try HLSPlaylist(bytes: playlist)
    guard parsed.isMediaPlaylist else {
      let names = parsed.renditions.filter { $0.type == "SUBTITLES" }.compactMap(\.uri)
      throw failure(
        path,
        "is a multivariant playlist; give one of its subtitle playlists"
          + (names.isEmpty ? "" : " (\(names.prefix(4).joined(separator: ", ")))"))
    }
    let segments = try readable(parsed.segments, of: path)
    // Text in fragmented MP4 (WebVTT `wvtt` or TTML `stpp` samples behind an initialization
    // section, as Shaka Packager writes by default) is no WebVTT document to join: see
    // ``readFragmented(playlist:at:timeout:remote:)``.
    if let map = segments.lazy.compactMap(\.initialization).first {
      throw failure(
        path,
        "has fragmented MP4 segments (#EXT-X-MAP '\(map)'): read them joined to their "
          + "initialization section")
    }
    let ranges = try byteRanges(of: segments, in: path)
    let bodies = try read(segments.map(\.uri), of: path, timeout: timeout, remote: remote)
    var result: [Segment] = []
    result.reserveCapacity(segments.count)
    var start = 0.0
    for (number, segment) in segments.enumerated() {
      var bytes = bodies[number]
      if let range = ranges[number] {
        guard range.upperBound <= bytes.count else {
          throw failure(
            path,
            "segment \(number + 1) ('\(segment.uri)'): #EXT-X-BYTERANGE:"
              + "\(segment.byteRange?.text ?? "") ends at byte \(range.upperBound), past the end "
              + "of the file (\(bytes.count) bytes)")
        }
        bytes = Array(bytes[range])
      }
      result.append(
        Segment(
          bytes: bytes, start: start, discontinuitySequence: segment.discontinuitySequence))
      // A segment's #EXTINF is at most the target duration (section 4.3.3.1), seconds in
      // practice: one past a day is not a duration, and would put the next segments' cues at
      // times no timeline holds.
      if let duration = segment.duration, duration > Self.longestSegment {
        throw failure(
          path,
          "segment \(number + 1) ('\(segment.uri)'): #EXTINF of \(duration) s is longer than a "
            + "segment can be (a day)")
      }
      start += segment.duration ?? 0
    }
    return result
  }

  /// The byte range of each of `segments` (of the playlist at `path`) in its resource, `nil`
  /// for a whole resource: an `#EXT-X-BYTERANGE` without `@o` starts at the byte after the
  /// previous segment's sub-range, which must be of the same resource (RFC 8216 section
  /// 4.3.2.2).
  private static func byteRanges(
    of segments: [HLSPlaylist.Segment], in path: String
  ) throws(MediaError) -> [Range<Int>?] {
    var ranges: [Range<Int>?] = []
    ranges.reserveCapacity(segments.count)
    for (number, segment) in segments.enumerated() {
      guard let byteRange = segment.byteRange else {
        ranges.append(nil)
        continue
      }
      let name = "segment \(number + 1) ('\(segment.uri)'): #EXT-X-BYTERANGE:\(byteRange.text)"
      guard let length = byteRange.length else {
        throw failure(path, "\(name) is not a length and an optional offset (n[@o])")
      }
      let offset: Int
      if let stated = byteRange.offset {
        offset = stated
      } else if number > 0, segments[number - 1].uri == segment.uri,
        let previous = ranges[number - 1]
      {
        offset = previous.upperBound
      } else {
        throw failure(
          path,
          "\(name) has no offset, and the segment before it is not a byte range of the same "
            + "file")
      }
      let (end, overflow) = offset.addingReportingOverflow(length)
      guard !overflow, end <= maximumBytes else {
        throw failure(path, "\(name) ends past \(maximumBytes) bytes, the most read")
      }
      ranges.append(offset..<end)
    }
    return ranges
  }

  /// The initialization section and the segments of an HLS subtitle media playlist of
  /// fragmented MP4 segments (WebVTT `wvtt` or TTML `stpp` samples, as CMAF packagers write
  /// them), joined in playlist order into one fragmented MP4 file, which a media reader reads
  /// as one subtitle track; `nil` when the playlist's segments are not fragmented MP4 (no
  /// `#EXT-X-MAP`). A file that several segments name in a row (byte ranges of one file) is
  /// read once, whole.
  ///
  /// - Parameters: as ``read(playlist:at:timeout:remote:)``'s.
  /// - Returns: The joined bytes; the caller owns them.
  /// - Throws: `MediaError` as ``read(playlist:at:timeout:remote:)`` does (an initialization
  ///   section that changes within the playlist is `.malformed`).
  public static func readFragmented(
    playlist: [UInt8], at path: String, timeout: Double? = nil,
    remote: RemoteAccess = RemoteAccess()
  ) throws(MediaError) -> [UInt8]? {
    let parsed = try HLSPlaylist(bytes: playlist)
    guard parsed.isMediaPlaylist, let map = parsed.segments.first?.initialization else {
      return nil
    }
    let segments = try readable(parsed.segments, of: path)
    guard segments.allSatisfy({ $0.initialization == map }) else {
      throw failure(path, "changes its initialization section (#EXT-X-MAP) between segments")
    }
    var uris: [String] = []
    for uri in [map] + segments.map(\.uri) where uri != uris.last { uris.append(uri) }
    var joined: [UInt8] = []
    for body in try read(uris, of: path, timeout: timeout, remote: remote) {
      joined += body
    }
    return joined
  }

  /// `segments`, the media playlist at `path`'s, when they can be read: some, not more than
  /// ``maximumSegments``, none encrypted whole (AES-128).
  private static func readable(
    _ segments: [HLSPlaylist.Segment], of path: String
  ) throws(MediaError) -> [HLSPlaylist.Segment] {
    guard !segments.isEmpty else { throw failure(path, "lists no segment") }
    guard segments.count <= maximumSegments else {
      throw failure(path, "lists more than \(maximumSegments) segments")
    }
    if segments.contains(where: { $0.encryption?.uppercased() == "AES-128" }) {
      throw failure(path, "has encrypted segments (AES-128), which cannot be read")
    }
    return segments
  }

  /// The bytes of each of `uris`, named by the playlist at `path`, in order.
  private static func read(
    _ uris: [String], of path: String, timeout: Double?, remote: RemoteAccess
  ) throws(MediaError) -> [[UInt8]] {
    let isRemote = RemoteURL.isRemote(path)
    let reader = SegmentReader(
      manifest: path, timeout: timeout, remote: isRemote ? remote : nil)
    var targets: [String] = []
    for uri in uris {
      guard let target = reader.resolve(uri, relativeTo: path) else {
        // A segment the playlist may name that is not there: missing input, as for any file.
        if !isRemote, reader.isMissing(uri, relativeTo: path) {
          throw MediaError(
            kind: .notFound, operation: "HLSPlaylist",
            detail: "'\(path)' names a segment '\(uri)' that is missing")
        }
        throw failure(
          path,
          isRemote
            ? "names a segment '\(uri)' that is not an http(s) URL"
            : "names a segment '\(uri)' that is not a file it may open (URLs, absolute "
              + "paths, links out of its folder and, out of its folder, files without a media "
              + "extension are not opened)")
      }
      targets.append(target)
    }
    // A resource several segments name (byte ranges of one file) is read once.
    var distinct: [String] = []
    var position: [String: Int] = [:]
    for target in targets where position[target] == nil {
      position[target] = distinct.count
      distinct.append(target)
    }
    let bodies: [[UInt8]]
    if isRemote {
      // Remote segments are read within the timeout in all.
      bodies = try Deadline.within(seconds: timeout ?? MediaProbe.defaultTimeout) {
        () throws(MediaError) -> [[UInt8]] in
        try fetchAll(distinct, access: remote, timeout: timeout)
      }
    } else {
      bodies = try readAll(distinct)
    }
    return targets.map { target in position[target].map { bodies[$0] } ?? [] }
  }

  /// Local segment files, each whole.
  private static func readAll(_ paths: [String]) throws(MediaError) -> [[UInt8]] {
    var total = 0
    var bodies: [[UInt8]] = []
    bodies.reserveCapacity(paths.count)
    for path in paths {
      guard let file = try FileBytes(path: path) else {
        throw MediaError(
          kind: .notFound, operation: "HLSPlaylist", detail: "cannot read segment '\(path)'")
      }
      total += Int(file.size)
      guard total <= maximumBytes else { throw tooLarge(path) }
      bodies.append(try file.contents())
    }
    return bodies
  }

  /// Remote segments, eight transfers at a time; the first failure (in playlist order) is the
  /// error.
  private static func fetchAll(_ urls: [String], access: RemoteAccess, timeout: Double?)
    throws(MediaError) -> [[UInt8]]
  {
    // The workers' deadlines see the caller's cancellation and the end of the whole item.
    let cancellation = CancellationFlag.current
    let itemEnd = Deadline.itemEnd
    let work = PthreadLocked(
      (
        next: 0, total: 0, bodies: [[UInt8]?](repeating: nil, count: urls.count),
        errors: [MediaError?](repeating: nil, count: urls.count)
      ))
    WorkerThreads.run(count: min(urls.count, 8)) {
      CancellationFlag.$current.withValue(cancellation) {
        Deadline.$itemEnd.withValue(itemEnd) { fetchSegments() }
      }
    }
    let (bodies, errors) = work.withLock { ($0.bodies, $0.errors) }
    if let error = errors.lazy.compactMap({ $0 }).first { throw error }
    return bodies.map { $0 ?? [] }

    @Sendable func fetchSegments() {
      while true {
        let position = work.withLock { state -> Int? in
          guard state.next < urls.count, !state.errors.contains(where: { $0 != nil }) else {
            return nil
          }
          defer { state.next += 1 }
          return state.next
        }
        guard let position else { return }
        let result = Result { () throws(MediaError) -> [UInt8] in
          try RemoteFetch.fetch(
            urls[position], access: access, deadline: try Deadline(timeout: timeout),
            limit: RemoteFile.documentLimit)
        }
        work.withLock { state in
          switch result {
          case .success(let body):
            state.total += body.count
            if state.total > maximumBytes {
              state.errors[position] = tooLarge(urls[position])
            } else {
              state.bodies[position] = body
            }
          case .failure(let error):
            state.errors[position] = error
          }
        }
      }
    }
  }

  private static func failure(_ path: String, _ reason: String) -> MediaError {
    MediaError(kind: .malformed, operation: "HLSPlaylist", detail: "'\(path)' \(reason)")
  }

  private static func tooLarge(_ path: String) -> MediaError {
    MediaError(
      kind: .malformed, operation: "HLSPlaylist",
      detail: "the segments up to '\(path)' hold more than \(maximumBytes) bytes")
  }
}
