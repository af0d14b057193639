/// What an input is, recognised by its first bytes (its signature) rather than by its name.
///
/// The name is only a tie-breaker: it decides where the content does not (a pipe, which is not
/// read ahead; a media file whose first bytes several demuxers claim, or none this list knows).
enum InputSignature {
  /// The manifest kind `head` (an input's first bytes, see ``ByteSource/signatureHead()``)
  /// starts, or `nil`: text starting with `#EXTM3U` is HLS, XML with an `MPD` element is DASH
  /// (a byte-order mark and leading whitespace allowed).
  static func manifest(_ head: ArraySlice<UInt8>) -> ManifestParser.ManifestKind? {
    var bytes = head
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
    // A playlist's first line is its signature (RFC 8216 section 4.3.1.1); blank lines and
    // spaces before it are skipped, as players do.
    if bytes.starts(with: "#EXTM3U".utf8) { return .hls }
    guard bytes.first == UInt8(ascii: "<") else { return nil }
    // An element named MPD, with or without a namespace prefix: `<MPD` or `:MPD`, then a space,
    // `>` or `/`.
    let name = Array("MPD".utf8)
    var index = bytes.startIndex
    while let found = bytes[index...].firstIndex(of: UInt8(ascii: "M")) {
      index = found + 1
      guard found > bytes.startIndex, found + 3 < bytes.endIndex,
        bytes[found..<(found + 3)].elementsEqual(name)
      else { continue }
      let before = bytes[found - 1]
      let after = bytes[found + 3]
      if before == UInt8(ascii: "<") || before == UInt8(ascii: ":"),
        isSpace(after) || after == UInt8(ascii: ">") || after == UInt8(ascii: "/")
      {
        return .dash
      }
    }
    return nil
  }

  /// The manifest kind a file's name says: `.m3u8` is HLS, `.mpd` DASH (case-insensitive).
  static func manifest(named path: String) -> ManifestParser.ManifestKind? {
    let lowered = path.lowercased()
    return lowered.hasSuffix(".m3u8") ? .hls : lowered.hasSuffix(".mpd") ? .dash : nil
  }

  /// The FFmpeg demuxer that alone claims the media `head` starts, to be tried before FFmpeg's
  /// probe of every format: an EBML header of DocType `matroska` or `webm`, an ISO BMFF `ftyp`
  /// or `moov` box, an Ogg page (`OggS`), a FLAC stream (`fLaC`). `nil` when the content does
  /// not say, or does not say alone: a RIFF/WAVE header is also the start of FFmpeg's ACT
  /// format, so there the name decides.
  static func demuxer(_ head: ArraySlice<UInt8>) -> String? {
    let bytes = Array(head.prefix(64))
    func matches(_ text: String, at offset: Int) -> Bool {
      let pattern = Array(text.utf8)
      return bytes.count >= offset + pattern.count
        && bytes[offset..<(offset + pattern.count)].elementsEqual(pattern)
    }
    if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
      // The DocType is within the EBML header, itself within the first bytes.
      let matroska = Array("matroska".utf8)
      let webm = Array("webm".utf8)
      let found = bytes.indices.contains { at in
        bytes[at...].starts(with: matroska) || bytes[at...].starts(with: webm)
      }
      return found ? "matroska" : nil
    }
    if matches("ftyp", at: 4) || matches("moov", at: 4) { return "mov" }
    if matches("OggS", at: 0) { return "ogg" }
    if matches("fLaC", at: 0) { return "flac" }
    return nil
  }

  /// The demuxer a media file's extension names, tried first when its content does not say
  /// (see ``demuxer(_:)``), or `nil` to probe.
  static func demuxer(named path: String) -> String? {
    guard let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
    let ext = path[path.index(after: dot)...]
    guard ext.utf8.count <= 4, !ext.contains("/") else { return nil }
    switch ext.lowercased() {
    case "mkv", "mka", "mks", "webm": return "matroska"
    case "mp4", "m4a", "m4v", "mov": return "mov"
    case "ogg", "oga", "opus": return "ogg"
    case "wav": return "wav"
    case "flac": return "flac"
    default: return nil
    }
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
