/// The RIFF/WAVE header of a file: reading its first bytes and walking its chunks. The Swift
/// WAVE reader parses its header with it, and the FFmpeg path asks it whether a file is cut
/// short. Both byte orders are read: `RIFF` (little-endian) and `RIFX` (big-endian, whose
/// sizes, `fmt ` fields and samples are all big-endian).
enum WaveHeader {
  /// One chunk of a RIFF header: its four-byte tag, where its body starts (an index into the
  /// header slice it was read from) and the size its header declares.
  struct Chunk {
    let header: ArraySlice<UInt8>
    let tagOffset: Int
    let size: Int
    /// Whether the file is `RIFX`: its numbers and samples are big-endian.
    let bigEndian: Bool
    var bodyOffset: Int { tagOffset + 8 }

    /// Whether the chunk's tag is `name` (four ASCII bytes).
    func `is`(_ name: StaticString) -> Bool {
      let bytes = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
      return header[tagOffset..<(tagOffset + 4)].elementsEqual(bytes)
    }
  }

  /// The 16-bit value at `at` (an index into `header`), little-endian unless `bigEndian`.
  static func u16(_ header: ArraySlice<UInt8>, _ at: Int, bigEndian: Bool = false) -> Int {
    bigEndian
      ? Int(header[at]) << 8 | Int(header[at + 1])
      : Int(header[at]) | Int(header[at + 1]) << 8
  }

  /// The 32-bit value at `at` (an index into `header`), little-endian unless `bigEndian`.
  static func u32(_ header: ArraySlice<UInt8>, _ at: Int, bigEndian: Bool = false) -> Int {
    bigEndian
      ? u16(header, at, bigEndian: true) << 16 | u16(header, at + 2, bigEndian: true)
      : u16(header, at) | u16(header, at + 2) << 16
  }

  /// Whether `header` starts a `RIFX` (big-endian) WAVE file; `nil` when it starts no WAVE
  /// file at all.
  static func isBigEndian(_ header: ArraySlice<UInt8>) -> Bool? {
    let base = header.startIndex
    guard header.count >= 12, header[(base + 8)..<(base + 12)].elementsEqual("WAVE".utf8)
    else { return nil }
    if header[base..<(base + 4)].elementsEqual("RIFF".utf8) { return false }
    if header[base..<(base + 4)].elementsEqual("RIFX".utf8) { return true }
    return nil
  }

  /// Calls `visit` with each chunk whose header lies inside `header`, in file order, until it
  /// returns `false`. Returns `false` when `header` does not start a RIFF or RIFX WAVE file.
  @discardableResult
  static func forEachChunk(in header: ArraySlice<UInt8>, _ visit: (Chunk) -> Bool) -> Bool {
    guard let bigEndian = isBigEndian(header) else { return false }
    var offset = header.startIndex + 12
    while offset + 8 <= header.endIndex {
      let size = u32(header, offset + 4, bigEndian: bigEndian)
      let chunk = Chunk(header: header, tagOffset: offset, size: size, bigEndian: bigEndian)
      if !visit(chunk) { break }
      offset += 8 + size + (size & 1)
    }
    return true
  }

  /// Whether the `fmt ` chunk in `header` assigns its channels no speakers: a
  /// `WAVE_FORMAT_EXTENSIBLE` header whose `dwChannelMask` is 0 (`KSAUDIO_SPEAKER_DIRECTOUT`:
  /// no speaker positions, whatever the count), or a plain `WAVEFORMATEX` of more than two
  /// channels (which names speakers only for mono and stereo). `false` for anything else,
  /// and when `header` holds no whole `fmt ` chunk.
  static func assignsNoSpeakers(_ header: ArraySlice<UInt8>) -> Bool {
    var none = false
    forEachChunk(in: header) { chunk in
      guard chunk.is("fmt ") else { return true }
      let at = chunk.bodyOffset
      guard chunk.size >= 16, at + chunk.size <= header.endIndex else { return false }
      let tag = u16(header, at, bigEndian: chunk.bigEndian)
      let channels = u16(header, at + 2, bigEndian: chunk.bigEndian)
      if tag == 0xFFFE {
        // cbSize (at least 22), valid bits, then the channel mask.
        none =
          chunk.size >= 40 && u16(header, at + 16, bigEndian: chunk.bigEndian) >= 22
          && u32(header, at + 20, bigEndian: chunk.bigEndian) == 0
      } else {
        none = channels > 2
      }
      return false
    }
    return none
  }

  /// The format tag of the `fmt ` chunk in `header` (`wFormatTag`: 1 PCM, 0x2000 AC-3,
  /// 0xFFFE EXTENSIBLE, …), or `nil` when `header` holds no `fmt ` chunk.
  static func formatTag(_ header: ArraySlice<UInt8>) -> Int? {
    var tag: Int? = nil
    forEachChunk(in: header) { chunk in
      guard chunk.is("fmt ") else { return true }
      if chunk.size >= 2, chunk.bodyOffset + 2 <= header.endIndex {
        tag = u16(header, chunk.bodyOffset, bigEndian: chunk.bigEndian)
      }
      return false
    }
    return tag
  }

  /// Whether `size`, a `data` chunk's declared size, is one a streaming writer leaves when it
  /// cannot seek back to write the real one: 0, the 0xFFFFFFFF family, or a placeholder just
  /// under 2 GiB (sox writes 0x7FFFF000 to a pipe, GStreamer's `wavenc` 0x7FFF0000). The data
  /// then runs to the end of the file.
  static func isUnsetSize(_ size: Int) -> Bool {
    size == 0 || size >= 0xFFFF_FF00 || (0x7FFF_0000...0x7FFF_FFFF).contains(size)
  }

  /// Where the audio of a streamed WAVE file starts (bytes from the start of the file): the
  /// body of its `data` chunk when the header leaves that chunk's size unset (see
  /// ``isUnsetSize(_:)``); `nil` for a stated size and for anything but RIFF/RIFX WAVE.
  static func streamedDataOffset(_ header: ArraySlice<UInt8>) -> Int? {
    var offset: Int? = nil
    forEachChunk(in: header) { chunk in
      guard chunk.is("data") else { return true }
      if isUnsetSize(chunk.size) { offset = chunk.bodyOffset - header.startIndex }
      return false
    }
    return offset
  }

  /// Whether the `data` chunk declared in `path`'s header runs past the end of the file.
  /// Unset sizes (see ``isUnsetSize(_:)``) and files that are not
  /// RIFF/RIFX WAVE give `false`.
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
      if !isUnsetSize(chunk.size) {
        truncated = chunk.bodyOffset - header.startIndex + chunk.size > fileSize
      }
      return false
    }
    return truncated
  }

  /// The samples per channel a `fact` chunk before the `data` chunk states
  /// (`dwSampleLength`): a compressed format's length, its last block being padded (sox's IMA
  /// and Microsoft ADPCM, GSM). `nil` without a `fact` chunk in the first bytes of `source`,
  /// or when it states 0.
  static func factSampleLength(in source: some ByteSource) -> Int64? {
    let header = source.head()
    var length: Int64? = nil
    forEachChunk(in: header) { chunk in
      if chunk.is("data") { return false }
      guard chunk.is("fact") else { return true }
      if chunk.size >= 4, chunk.bodyOffset + 4 <= header.endIndex {
        let value = u32(header, chunk.bodyOffset, bigEndian: chunk.bigEndian)
        length = value > 0 ? Int64(value) : nil
      }
      return false
    }
    return length
  }

  /// Where the `data` chunk's body lies in `source`, wherever it stands: as
  /// ``dataRange(_:fileSize:)``, but a `data` chunk that starts past the first bytes (after a
  /// large `LIST`, `JUNK` or `bext` chunk) is found by reading the chunk headers after them,
  /// 8 bytes each, up to 4,096 chunks (no chunk's body is read). `nil` when the source starts
  /// no WAVE file, or no `data` chunk header lies inside it.
  static func dataRange(in source: some ByteSource) -> (offset: Int64, length: Int64)? {
    let head = source.head()
    if let range = dataRange(head, fileSize: source.size) { return range }
    guard let bigEndian = isBigEndian(head) else { return nil }
    // The first chunk whose header lies past the head, and the walk on from there.
    var offset = Int64(12)
    var chunks = 0
    while chunks < 4_096, offset + 8 <= source.size {
      let header =
        offset + 8 <= Int64(head.count)
        ? head[Int(offset)..<Int(offset + 8)] : source.bytes(at: offset, count: 8)[...]
      guard header.count == 8 else { return nil }
      let size = Int64(u32(header, header.startIndex + 4, bigEndian: bigEndian))
      if header.prefix(4).elementsEqual("data".utf8) {
        let body = offset + 8
        let rest = max(0, source.size - body)
        return (body, isUnsetSize(Int(size)) ? rest : min(size, rest))
      }
      offset += 8 + size + (size & 1)
      chunks += 1
    }
    return nil
  }

  /// Where the `data` chunk's body lies in a file of `fileSize` bytes whose first bytes are
  /// `header`: its offset and its length, the declared size clamped to the end of the file (an
  /// unset size, see ``isUnsetSize(_:)``, runs to the end). `nil` when `header` starts no
  /// WAVE file or holds no `data` chunk header.
  static func dataRange(_ header: ArraySlice<UInt8>, fileSize: Int64) -> (
    offset: Int64, length: Int64
  )? {
    var range: (offset: Int64, length: Int64)? = nil
    forEachChunk(in: header) { chunk in
      guard chunk.is("data") else { return true }
      let offset = Int64(chunk.bodyOffset - header.startIndex)
      let rest = max(0, fileSize - offset)
      range = (offset, isUnsetSize(chunk.size) ? rest : min(Int64(chunk.size), rest))
      return false
    }
    return range
  }
}
