/// An HLS master playlist (RFC 8216): its `#EXT-X-MEDIA` renditions and `#EXT-X-STREAM-INF`
/// variants, with every attribute.
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
    /// `CHARACTERISTICS`: Uniform Type Identifiers such as
    /// `public.accessibility.describes-video`.
    public var characteristics: [String]
    /// `URI` of the rendition's media playlist, or `nil`.
    public var uri: String?
    /// `INSTREAM-ID` (closed captions), for example `"CC1"`, or `nil`.
    public var instreamID: String?
    /// Every attribute exactly as written (quotes removed), by name.
    public var attributes: [String: String]
  }

  /// One `#EXT-X-STREAM-INF` tag: a variant stream.
  public struct Variant: Hashable, Sendable, Codable {
    /// `BANDWIDTH` in bits per second, or `nil`.
    public var bandwidth: Int?
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

  /// The `#EXT-X-MEDIA` tags in order.
  public var renditions: [Rendition]
  /// The `#EXT-X-STREAM-INF` tags in order.
  public var variants: [Variant]

  /// Parses a master playlist.
  ///
  /// Tolerant: unknown tags, blank lines, CRLF line ends and a byte-order mark are accepted;
  /// `#EXT-X-MEDIA` tags without `TYPE` are skipped.
  ///
  /// - Parameter bytes: The playlist's UTF-8 bytes.
  /// - Throws: `MediaError` with kind `.malformed` when the text does not start with `#EXTM3U`
  ///   or is a media playlist (segments) rather than a master playlist.
  /// - Complexity: O(*n*) in the number of bytes.
  public init(bytes: [UInt8]) throws(MediaError) {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      line -> ArraySlice<UInt8> in
      var line = line
      while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
      return line
    }
    if let first = lines.first, first.starts(with: [0xEF, 0xBB, 0xBF]) {
      lines[0] = first.dropFirst(3)
    }
    guard let first = lines.first, first.starts(with: Array("#EXTM3U".utf8)) else {
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist", detail: "not an HLS playlist (no #EXTM3U)")
    }
    var renditions: [Rendition] = []
    var variants: [Variant] = []
    var pendingVariant: [String: String]? = nil
    var segments = 0
    for line in lines.dropFirst() {
      if line.isEmpty { continue }
      if line.starts(with: Array("#EXT-X-MEDIA:".utf8)) {
        let attributes = HLSPlaylist.attributes(line.dropFirst(13))
        guard let type = attributes["TYPE"] else { continue }
        let yes = { (name: String) in attributes[name] == "YES" }
        renditions.append(
          Rendition(
            type: type, groupID: attributes["GROUP-ID"] ?? "", name: attributes["NAME"] ?? "",
            language: attributes["LANGUAGE"], associatedLanguage: attributes["ASSOC-LANGUAGE"],
            isDefault: yes("DEFAULT"), autoselect: yes("AUTOSELECT") || yes("DEFAULT"),
            forced: yes("FORCED"), channels: attributes["CHANNELS"],
            characteristics: (attributes["CHARACTERISTICS"] ?? "").split(separator: ",").map {
              String($0)
            }, uri: attributes["URI"], instreamID: attributes["INSTREAM-ID"],
            attributes: attributes))
      } else if line.starts(with: Array("#EXT-X-STREAM-INF:".utf8)) {
        pendingVariant = HLSPlaylist.attributes(line.dropFirst(18))
      } else if line.starts(with: Array("#EXTINF".utf8)) {
        segments += 1
      } else if line.first != 0x23, let attributes = pendingVariant {
        variants.append(
          Variant(
            bandwidth: attributes["BANDWIDTH"].flatMap { Int($0) },
            codecs: (attributes["CODECS"] ?? "").split(separator: ",").map {
              String($0).trimmingSpaces
            }, audioGroup: attributes["AUDIO"], subtitleGroup: attributes["SUBTITLES"],
            uri: String(decoding: line, as: UTF8.self), attributes: attributes))
        pendingVariant = nil
      }
    }
    if renditions.isEmpty && variants.isEmpty && segments > 0 {
      throw MediaError(
        kind: .malformed, operation: "HLSPlaylist",
        detail: "a media playlist, not a master playlist: it lists no renditions")
    }
    self.renditions = renditions
    self.variants = variants
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
