/// The chunks of an AIFF or AIFF-C file (`FORM` then `AIFF` or `AIFC`, sizes big-endian) that
/// say where its sound data starts and how far the header states that it runs.
enum AIFFChunks {
  /// Where the sample frames of a streamed AIFF file start, in bytes from the start of the file.
  ///
  /// A writer that cannot seek back to fill in the sizes (sox and GStreamer's `aiffmux` writing
  /// to a pipe) leaves the `SSND` chunk's size at a placeholder just under 2 GiB (sox:
  /// 0x7F000008, GStreamer: 0x7FFF0008) and the `COMM` frame count at what that size would
  /// hold: hours of audio in a file of a second. The sound data then runs to the end of the
  /// file. `nil` when the `SSND` size is not such a placeholder, or when the chunk it states
  /// fits in `fileSize` (then the header is right, or the file is really cut short), and for
  /// anything but AIFF.
  static func streamedSoundStart(_ head: ArraySlice<UInt8>, fileSize: Int64) -> Int? {
    let bytes = Array(head)
    guard bytes.count >= 12, bytes[0..<4].elementsEqual("FORM".utf8),
      bytes[8..<12].elementsEqual("AIFF".utf8) || bytes[8..<12].elementsEqual("AIFC".utf8)
    else { return nil }
    var at = 12
    while at + 8 <= bytes.count {
      let size = Int(u32(bytes, at + 4))
      let body = at + 8
      if bytes[at..<(at + 4)].elementsEqual("SSND".utf8) {
        // The chunk's body: an offset to the first sample frame, a block size, the frames.
        guard body + 8 <= bytes.count, isPlaceholder(size), Int64(body + size) > fileSize
        else { return nil }
        let start = body + 8 + Int(u32(bytes, body))
        return Int64(start) <= fileSize ? start : nil
      }
      at = body + size + (size & 1)
    }
    return nil
  }

  /// Whether `size`, an `SSND` chunk's stated size, is a placeholder a streaming writer leaves:
  /// from 0x7F000000 (2,130,706,432 bytes) up.
  static func isPlaceholder(_ size: Int) -> Bool {
    size >= 0x7F00_0000
  }

  private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[at + $1]) }
  }
}
