/// The RIFF/WAVE header of a file: reading its first bytes and walking its chunks. The Swift
/// WAVE reader parses its header with it, and the FFmpeg path asks it whether a file is cut
/// short.
enum WaveHeader {
  /// One chunk of a RIFF header: its four-byte tag, where its body starts (an index into the
  /// header slice it was read from) and the size its header declares.
  struct Chunk {
    let header: ArraySlice<UInt8>
    let tagOffset: Int
    let size: Int
    var bodyOffset: Int { tagOffset + 8 }

    /// Whether the chunk's tag is `name` (four ASCII bytes).
    func `is`(_ name: StaticString) -> Bool {
      let bytes = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
      return header[tagOffset..<(tagOffset + 4)].elementsEqual(bytes)
    }
  }

  /// The little-endian 16-bit value at `at` (an index into `header`).
  static func u16(_ header: ArraySlice<UInt8>, _ at: Int) -> Int {
    Int(header[at]) | Int(header[at + 1]) << 8
  }

  /// The little-endian 32-bit value at `at` (an index into `header`).
  static func u32(_ header: ArraySlice<UInt8>, _ at: Int) -> Int {
    u16(header, at) | u16(header, at + 2) << 16
  }

  /// Calls `visit` with each chunk whose header lies inside `header`, in file order, until it
  /// returns `false`. Returns `false` when `header` does not start a RIFF/WAVE file.
  @discardableResult
  static func forEachChunk(in header: ArraySlice<UInt8>, _ visit: (Chunk) -> Bool) -> Bool {
    let base = header.startIndex
    guard header.count >= 12,
      header[base..<(base + 4)].elementsEqual("RIFF".utf8),
      header[(base + 8)..<(base + 12)].elementsEqual("WAVE".utf8)
    else { return false }
    var offset = base + 12
    while offset + 8 <= header.endIndex {
      let size = u32(header, offset + 4)
      if !visit(Chunk(header: header, tagOffset: offset, size: size)) { break }
      offset += 8 + size + (size & 1)
    }
    return true
  }

  /// Whether the `data` chunk declared in `path`'s header runs past the end of the file.
  /// Unknown sizes (0, or the 0xFFFFFFFF family streaming writers use) and files that are not
  /// plain RIFF/WAVE give `false`.
  ///
  /// FFmpeg's WAVE demuxer clamps the `data` chunk to the file's size, so a file cut short
  /// decodes without an error; the chunk size the header declares says otherwise.
  static func isTruncated(path: String) -> Bool {
    // Only a regular file has a size to compare with: opening a named pipe again would wait for
    // a writer that never comes.
    guard let source = try? FileBytes(path: path) else { return false }
    let fileSize = Int(source.size)
    let header = source.head()
    var truncated = false
    forEachChunk(in: header) { chunk in
      guard chunk.is("data") else { return true }
      if chunk.size > 0, chunk.size < 0xFFFF_FF00 {
        truncated = chunk.bodyOffset - header.startIndex + chunk.size > fileSize
      }
      return false
    }
    return truncated
  }
}
