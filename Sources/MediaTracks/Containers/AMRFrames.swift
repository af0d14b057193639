/// The length of an AMR file in the RFC 4867 storage format (`#!AMR\n` for AMR-NB,
/// `#!AMR-WB\n` for AMR-WB), from its frames: each frame holds 20 ms whatever its mode, and its
/// first byte's frame type gives its size, so walking the frames counts the audio exactly where
/// FFmpeg 5.1 states no length (it estimates one from the bit rate only after decoding).
enum AMRFrames {
  /// The most bytes walked (about 3 hours of AMR-WB at its highest rate): past it the length
  /// stays unknown.
  static let scanBytes: Int64 = 64 << 20

  /// Bytes after the one-byte header of each frame type (RFC 4867 5.3; 3GPP TS 26.101 and
  /// 26.201): speech modes, comfort noise, then reserved types and `NO_DATA`, which hold none.
  static let narrowbandSizes = [12, 13, 15, 17, 19, 20, 26, 31, 5, 0, 0, 0, 0, 0, 0, 0]
  static let widebandSizes = [17, 23, 32, 36, 40, 46, 50, 58, 60, 5, 0, 0, 0, 0, 0, 0]

  /// Which AMR a file without the storage format's magic holds.
  enum Band {
    case narrowband, wideband
  }

  /// The duration in seconds of the single-channel AMR file `source` holds, or `nil` when it
  /// does not start with a storage-format magic (or, `headerless`, holds frames of that band
  /// from its first byte on, as GStreamer's encoders write them to a file), is larger than
  /// ``scanBytes`` or holds no frame. A last frame cut short still counts (the decoder gives
  /// its 20 ms).
  static func duration(_ source: any ByteSource, headerless: Band? = nil) -> Double? {
    guard source.size <= scanBytes else { return nil }
    let head = Array(source.head(9))
    let sizes: [Int]
    var at: Int
    if let headerless {
      sizes = headerless == .wideband ? widebandSizes : narrowbandSizes
      at = 0
    } else if head.starts(with: Array("#!AMR-WB\n".utf8)) {
      sizes = widebandSizes
      at = 9
    } else if head.starts(with: Array("#!AMR\n".utf8)) {
      sizes = narrowbandSizes
      at = 6
    } else {
      return nil
    }
    guard let bytes = try? source.contents() else { return nil }
    var frames = 0
    while at < bytes.count {
      at += 1 + sizes[Int(bytes[at] >> 3 & 0x0F)]
      frames += 1
    }
    return frames > 0 ? Double(frames) * 0.02 : nil
  }
}
