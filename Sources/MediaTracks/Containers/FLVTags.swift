/// The last audio tag of an FLV file, found from its end: every tag is followed by its own size
/// (`PreviousTagSize`, Adobe's FLV specification E.3), so the tags can be walked backwards
/// without reading the file. FFmpeg 5.1's FLV demuxer states no stream durations and cannot
/// resume reading after a seek by bytes.
enum FLVTags {
  /// The most tags walked back from the end looking for an audio tag.
  static let maxTags = 4096

  /// The timestamp in milliseconds of the last audio tag in `source`, or `nil` when the file
  /// does not start like FLV, a tag size is inconsistent, or no audio tag is near the end.
  static func lastAudioTimestamp(_ source: any ByteSource) -> Int64? {
    let head = source.bytes(at: 0, count: 9)
    guard head.count == 9, head.starts(with: Array("FLV".utf8)) else { return nil }
    // The header's size, then the first PreviousTagSize (0).
    let headerSize =
      Int64(head[5]) << 24 | Int64(head[6]) << 16 | Int64(head[7]) << 8 | Int64(head[8])
    let firstTag = headerSize + 4
    var end = source.size
    for _ in 0..<maxTags {
      let sizeBytes = source.bytes(at: end - 4, count: 4)
      guard sizeBytes.count == 4 else { return nil }
      let tagSize = sizeBytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
      let start = end - 4 - tagSize
      guard tagSize >= 11, start >= firstTag else { return nil }
      let tag = source.bytes(at: start, count: 11)
      guard tag.count == 11 else { return nil }
      let dataSize = Int64(tag[1]) << 16 | Int64(tag[2]) << 8 | Int64(tag[3])
      // A tag's size is its 11-byte header and its data.
      guard dataSize + 11 == tagSize else { return nil }
      if tag[0] & 0x1F == 8 {
        return Int64(tag[7]) << 24 | Int64(tag[4]) << 16 | Int64(tag[5]) << 8 | Int64(tag[6])
      }
      end = start
    }
    return nil
  }
}
