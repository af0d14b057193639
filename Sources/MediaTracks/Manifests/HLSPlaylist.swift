/// An HLS playlist (RFC 8216 and its revision, RFC 8216bis): a multivariant ("master")
/// playlist's `#EXT-X-MEDIA` renditions and `#EXT-X-STREAM-INF` variants, or a media playlist's
/// segments, with every attribute.
public struct HLSPlaylist: Hashable, Sendable, Codable {
  /// One `#EXT-X-MEDIA` tag (RFC 8216 section 4.3.4.1).
  public struct Rendition: Hashable, Sendable, Codable {
    /// `TYPE`: `AUDIO`, `VIDEO`, `SUBTITLES` or `CLOSED-CAPTIONS`.
    public var type: String
    /// `GROUP-ID`.
    public var groupID: String
    /// `NAME`: the rendition's readable name.
    public var name: String
    /// `LANGUAGE`: a BCP-47 tag as written, or `nil`.
    public var language: String?
    /// `ASSOC-LANGUAGE`: an associated language (for example a written form), or `nil`.
    public var associatedLanguage: String?
    /// `DEFAULT=YES`.
    public var isDefault: Bool
    /// `AUTOSELECT=YES` (implied by `DEFAULT=YES`).
    public var autoselect: Bool
    /// `FORCED=YES` (subtitles only).
    public var forced: Bool
    /// `CHANNELS`, for example `"6"` or `"16/JOC"`, or `nil`.
    public var channels: String?
    /// `SAMPLE-RATE` (RFC 8216bis) in Hz, or `nil`.
    public var sampleRate: Int?
    /// `CHARACTERISTICS`: Uniform Type Identifiers such as
    /// `public.accessibility.describes-video`.
    public var characteristics: [String]
    /// `URI` of the rendition's media playlist, or `nil` (the media is in the variants).
    public var uri: String?
    /// `INSTREAM-ID` (closed captions), for example `"CC1"` or `"SERVICE1"`, or `nil`.
    public var instreamID: String?
    /// Every attribute exactly as written (quotes removed), by name.
    public var attributes: [String: String]
  }

  /// One `#EXT-X-STREAM-INF` tag: a variant stream.
  public struct Variant: Hashable, Sendable, Codable {
    /// `BANDWIDTH` (the peak) in bits per second, or `nil`.
    public var bandwidth: Int?
    /// `AVERAGE-BANDWIDTH` in bits per second, or `nil`.
    public var averageBandwidth: Int?
    /// `CODECS`, split at commas: `["avc1.64001f", "mp4a.40.2"]`.
    public var codecs: [String]
    /// `AUDIO` group, or `nil`.
    public var audioGroup: String?
    /// `SUBTITLES` group, or `nil`.
    public var subtitleGroup: String?
    /// The URI line after the tag.
    public var uri: String
    /// Every attribute exactly as written (quotes removed), by name.
    public var attributes: [String: String]
  }

  /// One media segment of a media playlist (RFC 8216 section 4.3.2).
  public struct Segment: Hashable, Sendable, Codable {
    /// The URI line (or, for a low-latency playlist without whole segments yet, the first
    /// `#EXT-X-PART`'s `URI`).
    public var uri: String
    /// The `#EXTINF` duration in seconds, or `nil`.
    public var duration: Double?
    /// The `URI` of the `#EXT-X-MAP` (initialization section) that applies, or `nil`.
    public var initialization: String?
    /// The `METHOD` of the `#EXT-X-KEY` that applies (`AES-128`, `SAMPLE-AES`), or `nil` when
    /// the segment is not encrypted.
    public var encryption: String?
    /// The segment's `#EXT-X-BYTERANGE` (RFC 8216 section 4.3.2.2): it is that sub-range of
    /// the resource its URI names; `nil` when it is the whole resource.
    public var byteRange: ByteRange? = nil
    /// The discontinuity sequence number (RFC 8216 section 4.3.3.3): the playlist's
    /// `#EXT-X-DISCONTINUITY-SEQUENCE` (0 when absent) plus the `#EXT-X-DISCONTINUITY` tags
    /// before the segment. Timestamps of segments of one number are continuous; after a
    /// discontinuity they may restart.
    public var discontinuitySequence: Int = 0
  }

  /// An `#EXT-X-BYTERANGE` value, `n[@o]`: `n` bytes of the resource from byte `o`, or, without
  /// `@o`, from the byte after the previous segment's sub-range (of the same resource).
  public struct ByteRange: Hashable, Sendable, Codable {
    /// The value as written.
    public var text: String
    /// `n`, the length in bytes; `nil` when the value is not `n[@o]` in decimal integers.
    public var length: Int?
    /// `o`, the offset of the first byte in the resource, when written (and `length` is not
    /// `nil`).
    public var offset: Int?

    /// Parses `n[@o]`; a value of another form keeps its `text` with `length` and `offset`
    /// `nil`.
    init(_ value: ArraySlice<UInt8>) {
      text = String(decoding: value, as: UTF8.self)
      length = nil
      offset = nil
      func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
      }
      let trimmed = value.drop { $0 == 0x20 || $0 == 0x09 }
      if let at = trimmed.firstIndex(of: 0x40) {
        guard let n = decimal(trimmed[..<at]), let o = decimal(trimmed[(at + 1)...]) else {
          return
        }
        length = n
        offset = o
      } else {
        length = decimal(trimmed)
      }
    }
  }

  /// The tracks a menu shows: the renditions of one `TYPE`, `NAME` and `LANGUAGE` (and the same
  /// `FORCED` and `CHARACTERISTICS`) are one track whatever their groups, since a group is only
  /// the set of renditions that go with a variant (RFC 8216bis section 4.4.6.1.1: the same
  /// content in another group is the same choice for the viewer).
  public struct RenditionTrack: Hashable, Sendable, Codable {
    /// The positions of its renditions in ``HLSPlaylist/renditions``, in order.
    public var renditions: [Int]
    /// The `GROUP-ID`s of those renditions, in order, without repeats.
    public var groups: [String]
  }

  /// The `#EXT-X-MEDIA` tags in order.
  public var renditions: [Rendition]
  /// The `#EXT-X-STREAM-INF` tags in order.
  public var variants: [Variant]
  /// A media playlist's segments in order (empty for a multivariant playlist).
  public var segments: [Segment]
  /// Whether the playlist has tags only a media playlist has (`#EXTINF`,
  /// `#EXT-X-TARGETDURATION`, `#EXT-X-MEDIA-SEQUENCE`, `#EXT-X-ENDLIST`, …) and neither
  /// renditions nor variants.
  public var isMediaPlaylist: Bool
  /// `#EXT-X-ENDLIST`: no segment will be added (a finished or on-demand playlist).
  public var hasEndList: Bool
  /// The `METHOD`s of a multivariant playlist's `#EXT-X-SESSION-KEY` tags other than `NONE`
  /// (`SAMPLE-AES`, `AES-128`): the media playlists' keys, declared in advance.
  public var sessionKeyMethods: [String] = []

  /// The sum of the segments' `#EXTINF` durations in seconds, or `nil` when there is none.
  public var segmentsDuration: Double? {
    var total = 0.0
    var any = false
    for segment in segments {
      if let duration = segment.duration {
        total += duration
        any = true
      }
    }
    return any ? total : nil
  }

  /// Parses a multivariant or media playlist.
  ///
  /// Tolerant: unknown tags, blank lines, CRLF line ends and a byte-order mark are accepted;
  /// `#EXT-X-MEDIA` tags without `TYPE` or `GROUP-ID` are skipped. `#EXT-X-DEFINE` variables (`NAME` and
  /// `VALUE`) are substituted in the lines that follow.
  ///
  /// - Parameter bytes: The playlist's UTF-8 bytes.
  /// - Throws: `MediaError` with kind `.malformed` when the text does not start with `#EXTM3U`,
  ///   lists no rendition, variant or segment and has no tag of a media playlist either, or (in
  ///   a playlist with `#EXT-X-DEFINE` tags) refers to a variable no tag declares.
  /// - Complexity: O(*n*) in the number of bytes.
  public init(bytes: [UInt8]) throws(MediaError) {
    let lines = HLSPlaylist.lines(bytes)
    // Blank lines and spaces before the signature are skipped, as players do (Media3 reads a
    // playlist written ` #EXTM3U `).
    let headerIndex = lines.firstIndex { line in line.contains { $0 != 0x20 && $0 != 0x09 } }
    guard let headerIndex,
      HLSPlaylist.isSignature(lines[headerIndex].drop { $0 == 0x20 || $0 == 0x09 })
    else {
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist", detail: "not an HLS playlist (no #EXTM3U)")
    }
    var reader = LineReader()
    var variables = Variables()
    for line in lines[(headerIndex + 1)...] where !line.isEmpty {
      if line.starts(with: Array("#EXT-X-DEFINE:".utf8)) {
        variables.define(HLSPlaylist.attributes(line.dropFirst(14)))
        continue
      }
      let line = try variables.substituted(line)
      if line.first == 0x23 {
        reader.tag(line)
      } else {
        reader.uri(line)
      }
    }
    if reader.segments.isEmpty, let firstPart = reader.firstPart {
      reader.segments.append(firstPart)
    }
    let master = !reader.renditions.isEmpty || !reader.variants.isEmpty
    if !master && !reader.mediaTags {
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist",
        detail: "an HLS playlist that lists no variant, rendition or segment")
    }
    self.renditions = reader.renditions
    self.variants = reader.variants
    self.segments = master ? [] : reader.segments
    self.isMediaPlaylist = !master
    self.hasEndList = reader.endList
    self.sessionKeyMethods = reader.sessionKeyMethods
  }

  /// The lines of `bytes` without their line ends and trailing spaces and tabs, the first one
  /// without a byte-order mark.
  /// Whether `line` (its leading spaces dropped) starts with the signature, `#EXTM3U`.
  private static func isSignature(_ line: ArraySlice<UInt8>) -> Bool {
    line.starts(with: "#EXTM3U".utf8)
  }

  private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      line -> ArraySlice<UInt8> in
      var line = line
      while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
      return line
    }
    if let first = lines.first, first.starts(with: [0xEF, 0xBB, 0xBF]) {
      lines[0] = first.dropFirst(3)
    }
    return lines
  }

  /// The variables of `#EXT-X-DEFINE` tags (RFC 8216bis section 4.4.2.3) and their
  /// substitution (section 4.3): a reference `{$name}` in a tag or URI line after the definition
  /// is replaced by the value, once (a value's own references stay as written). `IMPORT` and
  /// `QUERYPARAM` take their values from a parent playlist or the playlist's URL, which a
  /// playlist read on its own does not have: their references stay as written, as does any
  /// once 16 MiB have been substituted in all. A reference to a name no tag declares (before
  /// it) fails the playlist, as the RFC requires.
  private struct Variables {
    private var values: [[UInt8]: [UInt8]] = [:]
    /// Names declared by `IMPORT` or `QUERYPARAM`, whose values are not known here.
    private var declared: Set<[UInt8]> = []
    /// The bytes substitution may still add to the whole playlist: a short reference to a long
    /// value, repeated, must not grow a small playlist without bound. Past it, references stay
    /// as written.
    private var budget = 1 << 24

    mutating func define(_ attributes: [String: String]) {
      for key in ["IMPORT", "QUERYPARAM"] {
        if let name = attributes[key], !name.isEmpty { declared.insert(Array(name.utf8)) }
      }
      guard let name = attributes["NAME"], !name.isEmpty, let value = attributes["VALUE"] else {
        return
      }
      values[Array(name.utf8)] = Array(value.utf8)
    }

    /// `line` with every reference to a defined variable replaced. A name is letters, digits,
    /// `-` and `_` (section 4.4.2.3), so each byte is looked at a bounded number of times.
    /// - Throws: `.malformed` for a reference to a name no tag declared.
    mutating func substituted(_ line: ArraySlice<UInt8>) throws(MediaError) -> ArraySlice<UInt8> {
      guard line.contains(0x7B) else { return line }
      func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
      }
      var out: [UInt8] = []
      out.reserveCapacity(line.count)
      var index = line.startIndex
      while index < line.endIndex {
        if line[index] == 0x7B, index + 1 < line.endIndex, line[index + 1] == 0x24 {
          var end = index + 2
          while end < line.endIndex, isNameByte(line[end]) { end += 1 }
          if end < line.endIndex, line[end] == 0x7D,
            let value = values[Array(line[(index + 2)..<end])], value.count <= budget
          {
            budget -= value.count
            out += value
            index = end + 1
            continue
          }
          if end < line.endIndex, line[end] == 0x7D, end > index + 2,
            values[Array(line[(index + 2)..<end])] == nil,
            !declared.contains(Array(line[(index + 2)..<end]))
          {
            throw MediaError(
              kind: .malformed, operation: "HLSPlaylist",
              detail:
                "the variable reference '\(String(decoding: line[index...end], as: UTF8.self))'"
                + " names no #EXT-X-DEFINE")
          }
          // Not a reference to a defined name: kept as written, up to where the name ended.
          out += line[index..<end]
          index = end
          continue
        }
        out.append(line[index])
        index += 1
      }
      return out[...]
    }
  }

  /// The state of a playlist read line by line after `#EXTM3U`: what was found so far, and the
  /// tags that apply to the next URI line.
  private struct LineReader {
    var renditions: [Rendition] = []
    var variants: [Variant] = []
    var segments: [Segment] = []
    /// A low-latency playlist's first `#EXT-X-PART`, the segment when there is no whole one.
    var firstPart: Segment? = nil
    /// Whether a tag only a media playlist has was seen.
    var mediaTags = false
    var endList = false
    var sessionKeyMethods: [String] = []
    /// The attributes of the `#EXT-X-STREAM-INF` whose URI line comes next.
    private var pendingVariant: [String: String]? = nil
    /// The `#EXTINF` duration whose segment URI comes next (`.some(nil)`: none stated).
    private var pendingDuration: Double?? = nil
    /// The `#EXT-X-MAP` and `#EXT-X-KEY` method in force.
    private var map: String? = nil
    private var key: String? = nil
    /// The `#EXT-X-BYTERANGE` of the segment whose URI comes next.
    private var pendingByteRange: ByteRange? = nil
    /// `#EXT-X-DISCONTINUITY-SEQUENCE`, and the `#EXT-X-DISCONTINUITY` tags so far.
    private var discontinuityBase = 0
    private var discontinuities = 0

    private static let mediaTagNames = [
      "#EXT-X-TARGETDURATION", "#EXT-X-MEDIA-SEQUENCE", "#EXT-X-PLAYLIST-TYPE",
      "#EXT-X-DISCONTINUITY-SEQUENCE", "#EXT-X-PART-INF", "#EXT-X-SERVER-CONTROL",
    ].map { Array($0.utf8) }

    /// Reads a tag line (starting with `#`).
    mutating func tag(_ line: ArraySlice<UInt8>) {
      if line.starts(with: Array("#EXT-X-MEDIA:".utf8)) {
        let attributes = HLSPlaylist.attributes(line.dropFirst(13))
        if let rendition = Rendition(attributes: attributes) { renditions.append(rendition) }
      } else if line.starts(with: Array("#EXT-X-STREAM-INF:".utf8)) {
        pendingVariant = HLSPlaylist.attributes(line.dropFirst(18))
        pendingDuration = nil
      } else if line.starts(with: Array("#EXTINF".utf8)) {
        mediaTags = true
        // `#EXTINF:<duration>,[<title>]`
        let value = line.dropFirst(7).drop { $0 == 0x3A }.prefix { $0 != 0x2C }
        pendingVariant = nil
        pendingDuration = .some(
          Double(String(decoding: value, as: UTF8.self).trimmingSpaces).flatMap {
            $0.isFinite && $0 >= 0 ? $0 : nil
          })
      } else if line.starts(with: Array("#EXT-X-MAP:".utf8)) {
        mediaTags = true
        map = HLSPlaylist.attributes(line.dropFirst(11))["URI"]
      } else if line.starts(with: Array("#EXT-X-KEY:".utf8)) {
        let method = HLSPlaylist.attributes(line.dropFirst(11))["METHOD"]
        key = method == nil || method == "NONE" ? nil : method
      } else if line.starts(with: Array("#EXT-X-SESSION-KEY:".utf8)) {
        let method = HLSPlaylist.attributes(line.dropFirst(19))["METHOD"] ?? "NONE"
        if method != "NONE" { sessionKeyMethods.append(method) }
      } else if line.starts(with: Array("#EXT-X-PART:".utf8)) {
        mediaTags = true
        if firstPart == nil, let uri = HLSPlaylist.attributes(line.dropFirst(12))["URI"] {
          firstPart = Segment(uri: uri, duration: nil, initialization: map, encryption: key)
        }
      } else if line.starts(with: Array("#EXT-X-BYTERANGE:".utf8)) {
        pendingByteRange = ByteRange(line.dropFirst(17))
      } else if line.starts(with: Array("#EXT-X-DISCONTINUITY-SEQUENCE:".utf8)) {
        mediaTags = true
        let value = String(decoding: line.dropFirst(30), as: UTF8.self).trimmingSpaces
        discontinuityBase = Int(value).flatMap { $0 >= 0 ? $0 : nil } ?? 0
      } else if line.elementsEqual("#EXT-X-DISCONTINUITY".utf8) {
        discontinuities += 1
      } else if line.starts(with: Array("#EXT-X-ENDLIST".utf8)) {
        mediaTags = true
        endList = true
      } else if !mediaTags, Self.mediaTagNames.contains(where: { line.starts(with: $0) }) {
        mediaTags = true
      }
    }

    /// Reads a URI line: the segment after `#EXTINF`, else the variant after
    /// `#EXT-X-STREAM-INF`.
    mutating func uri(_ line: ArraySlice<UInt8>) {
      let uri = String(decoding: line, as: UTF8.self)
      if let duration = pendingDuration {
        let (sequence, overflow) = discontinuityBase.addingReportingOverflow(discontinuities)
        segments.append(
          Segment(
            uri: uri, duration: duration, initialization: map, encryption: key,
            byteRange: pendingByteRange, discontinuitySequence: overflow ? Int.max : sequence))
        pendingDuration = nil
        pendingByteRange = nil
      } else if let attributes = pendingVariant {
        variants.append(Variant(attributes: attributes, uri: uri))
        pendingVariant = nil
      }
    }
  }

  /// The tracks a menu shows (see ``RenditionTrack``), in the order of their first rendition.
  ///
  /// - Complexity: O(*r*) in the number of renditions (and linear in their names' length).
  public func renditionTracks() -> [RenditionTrack] {
    struct Key: Hashable {
      var type: String
      var name: String
      var language: String
      var forced: Bool
      var characteristics: [String]
    }
    var tracks: [RenditionTrack] = []
    var groupSets: [Set<String>] = []
    var byKey: [Key: Int] = [:]
    /// The tracks of renditions without a NAME, by key, and how many each group has given.
    var unnamed: [Key: (tracks: [Int], perGroup: [String: Int])] = [:]
    for (position, rendition) in renditions.enumerated() {
      let key = Key(
        type: rendition.type, name: rendition.name,
        language: (rendition.language ?? "").lowercased(), forced: rendition.forced,
        characteristics: rendition.characteristics.map { $0.trimmingSpaces }.sorted())
      // Renditions without a NAME (which the specification requires) of the same language and
      // purpose are matched group by group: the first of each group is one track, the second
      // of each group another (the same audio in a stereo and a surround group).
      if rendition.name.isEmpty {
        // Changed where it is stored (a copy written back would copy it for every rendition).
        func match(_ entry: inout (tracks: [Int], perGroup: [String: Int]), next: Int) -> Int? {
          let ordinal = entry.perGroup[rendition.groupID, default: 0]
          entry.perGroup[rendition.groupID] = ordinal + 1
          if ordinal < entry.tracks.count { return entry.tracks[ordinal] }
          entry.tracks.append(next)
          return nil
        }
        if let existing = match(&unnamed[key, default: ([], [:])], next: tracks.count) {
          tracks[existing].renditions.append(position)
          if groupSets[existing].insert(rendition.groupID).inserted {
            tracks[existing].groups.append(rendition.groupID)
          }
        } else {
          tracks.append(RenditionTrack(renditions: [position], groups: [rendition.groupID]))
          groupSets.append([rendition.groupID])
        }
        continue
      }
      if let existing = byKey[key] {
        tracks[existing].renditions.append(position)
        if groupSets[existing].insert(rendition.groupID).inserted {
          tracks[existing].groups.append(rendition.groupID)
        }
      } else {
        byKey[key] = tracks.count
        tracks.append(RenditionTrack(renditions: [position], groups: [rendition.groupID]))
        groupSets.append([rendition.groupID])
      }
    }
    return tracks
  }

  /// The distinct `BANDWIDTH`s (bits per second, ascending) of the variants that use each audio,
  /// subtitle or closed-captions group, by `GROUP-ID`.
  ///
  /// - Complexity: O(*v* log *v*) in the number of variants.
  public func groupBandwidths() -> [String: [Int]] {
    var found: [String: Set<Int>] = [:]
    for variant in variants {
      guard let bandwidth = variant.bandwidth else { continue }
      for name in ["AUDIO", "SUBTITLES", "CLOSED-CAPTIONS"] {
        if let group = variant.attributes[name] { found[group, default: []].insert(bandwidth) }
      }
    }
    return found.mapValues { $0.sorted() }
  }

  /// Parses an attribute list (RFC 8216 section 4.2): `NAME=value` pairs separated by commas,
  /// where quoted strings may contain commas.
  static func attributes(_ bytes: ArraySlice<UInt8>) -> [String: String] {
    var result: [String: String] = [:]
    var index = bytes.startIndex
    while index < bytes.endIndex {
      while index < bytes.endIndex && (bytes[index] == 0x20 || bytes[index] == 0x2C) { index += 1 }
      let nameStart = index
      while index < bytes.endIndex && bytes[index] != 0x3D && bytes[index] != 0x2C { index += 1 }
      let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).trimmingSpaces
      guard index < bytes.endIndex, bytes[index] == 0x3D else { continue }
      index += 1
      var value: String
      if index < bytes.endIndex && bytes[index] == 0x22 {
        index += 1
        let valueStart = index
        while index < bytes.endIndex && bytes[index] != 0x22 { index += 1 }
        value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
        if index < bytes.endIndex { index += 1 }
        while index < bytes.endIndex && bytes[index] != 0x2C { index += 1 }
      } else {
        let valueStart = index
        while index < bytes.endIndex && bytes[index] != 0x2C { index += 1 }
        value = String(decoding: bytes[valueStart..<index], as: UTF8.self).trimmingSpaces
      }
      if !name.isEmpty { result[name] = value }
    }
    return result
  }
}

extension HLSPlaylist.Rendition {
  /// The rendition an `#EXT-X-MEDIA` tag's attributes describe; `nil` without `TYPE` or
  /// `GROUP-ID` (which the RFC requires: a rendition in no group belongs to no variant).
  fileprivate init?(attributes: [String: String]) {
    guard let type = attributes["TYPE"], let group = attributes["GROUP-ID"], !group.isEmpty
    else { return nil }
    let yes = { (name: String) in attributes[name] == "YES" }
    self.init(
      type: type, groupID: group, name: attributes["NAME"] ?? "",
      language: attributes["LANGUAGE"], associatedLanguage: attributes["ASSOC-LANGUAGE"],
      isDefault: yes("DEFAULT"), autoselect: yes("AUTOSELECT") || yes("DEFAULT"),
      forced: yes("FORCED"), channels: attributes["CHANNELS"],
      sampleRate: attributes["SAMPLE-RATE"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil },
      characteristics: (attributes["CHARACTERISTICS"] ?? "").split(separator: ",").map {
        String($0)
      }, uri: attributes["URI"], instreamID: attributes["INSTREAM-ID"], attributes: attributes)
  }
}

extension HLSPlaylist.Variant {
  /// The variant an `#EXT-X-STREAM-INF` tag's attributes and the URI line after it describe.
  fileprivate init(attributes: [String: String], uri: String) {
    let number = { (name: String) in attributes[name].flatMap { Int($0) } }
    self.init(
      bandwidth: number("BANDWIDTH"), averageBandwidth: number("AVERAGE-BANDWIDTH"),
      codecs: (attributes["CODECS"] ?? "").split(separator: ",").map {
        String($0).trimmingSpaces
      }.filter { !$0.isEmpty }, audioGroup: attributes["AUDIO"],
      subtitleGroup: attributes["SUBTITLES"], uri: uri, attributes: attributes)
  }
}

extension String {
  /// The text without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
      let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
    else { return "" }
    return String(scalars[first...last])
  }
}
