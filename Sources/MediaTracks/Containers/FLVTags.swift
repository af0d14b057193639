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
    lastAudioTag(source)?.timestamp
  }

  /// The last audio tag of an FLV file: its timestamp in milliseconds, and for uncompressed
  /// audio (SoundFormat 0 and 3, PCM of 8 or 16 bits; 7 and 8, G.711 A-law and µ-law) the
  /// samples it holds, its data after the one-byte audio header over the bytes of a frame
  /// (`nil` for other formats, whose frames the decoder knows).
  static func lastAudioTag(_ source: any ByteSource) -> (timestamp: Int64, pcmSamples: Int64?)? {
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
        let timestamp =
          Int64(tag[7]) << 24 | Int64(tag[4]) << 16 | Int64(tag[5]) << 8 | Int64(tag[6])
        var samples: Int64? = nil
        if dataSize > 1, let flags = source.bytes(at: start + 11, count: 1).first {
          let format = flags >> 4
          let width: Int64 = [0, 3].contains(format) && flags & 0x02 != 0 ? 2 : 1
          let channels: Int64 = flags & 0x01 != 0 ? 2 : 1
          if [0, 3, 7, 8].contains(format) { samples = (dataSize - 1) / (width * channels) }
        }
        return (timestamp, samples)
      }
      end = start
    }
    return nil
  }

  /// What the Speex audio tags of an FLV file hold (SoundFormat 11: 16 kHz mono, its frames
  /// 20 ms each whatever the mode).
  struct SpeexAudio: Equatable {
    /// The audio packets: every Speex tag but a Speex header packet (`Speex   `, which
    /// GStreamer's `flvmux` writes as a tag) and the comment packet after it.
    var packets: Int
    /// The frames in each packet: the header packet's `frames_per_packet`, else the
    /// packets' timestamps over their count (one for FFmpeg's `libspeex` files).
    var framesPerPacket: Int
    /// The first audio packet's timestamp in milliseconds.
    var firstTimestamp: Int64

    /// The frames' length in seconds.
    var seconds: Double { Double(packets * framesPerPacket) * 0.02 }
  }

  /// The Speex audio of `source`, from its tags walked from the start (reading their headers
  /// and the first bytes of each Speex packet); `nil` when the file does not start like FLV,
  /// holds audio in another format, or no Speex packet. A tag cut by the end of the file is
  /// not counted (the demuxer does not give it). The whole file is walked: local files only.
  static func speexAudio(_ source: any ByteSource) -> SpeexAudio? {
    let chunkSize = 1 << 16
    var chunkStart: Int64 = 0
    var chunk: [UInt8] = []
    /// The `count` bytes at `offset` (fewer at the end of the file).
    func peek(_ offset: Int64, _ count: Int) -> ArraySlice<UInt8> {
      if offset < chunkStart || offset + Int64(count) > chunkStart + Int64(chunk.count) {
        chunkStart = offset
        chunk = source.bytes(at: offset, count: max(count, chunkSize))
      }
      let from = Int(offset - chunkStart)
      return chunk[from..<min(chunk.count, from + count)]
    }
    let head = peek(0, 9)
    guard head.count == 9, head.starts(with: Array("FLV".utf8)) else { return nil }
    let headerSize =
      Int64(head[5]) << 24 | Int64(head[6]) << 16 | Int64(head[7]) << 8 | Int64(head[8])
    var offset = headerSize + 4
    var packets = 0
    var stated: Int? = nil
    var commentNext = false
    var first: Int64? = nil
    var last: Int64 = 0
    while offset + 11 <= source.size {
      let tag = peek(offset, 11 + 1 + 68)
      guard tag.count >= 11 else { break }
      let base = tag.startIndex
      let dataSize = Int64(tag[base + 1]) << 16 | Int64(tag[base + 2]) << 8 | Int64(tag[base + 3])
      guard offset + 11 + dataSize <= source.size else { break }
      defer { offset += 11 + dataSize + 4 }
      guard tag[base] & 0x1F == 8, dataSize > 1, tag.count > 12 else { continue }
      guard tag[base + 11] >> 4 == 11 else { return nil }
      let packet = tag[(base + 12)...]
      if packet.starts(with: Array("Speex   ".utf8)) {
        // Speex's header: frames_per_packet is the 32-bit little-endian field at 64.
        if packet.count >= 68 {
          let at = packet.startIndex + 64
          let value = (0..<4).reduce(0) { $0 | Int(packet[at + $1]) << (8 * $1) }
          if (1...10).contains(value) { stated = value }
        }
        commentNext = true
        continue
      }
      if commentNext {
        commentNext = false
        continue
      }
      let timestamp =
        Int64(tag[base + 7]) << 24 | Int64(tag[base + 4]) << 16 | Int64(tag[base + 5]) << 8
        | Int64(tag[base + 6])
      if first == nil { first = timestamp }
      last = timestamp
      packets += 1
    }
    guard let first, packets > 0 else { return nil }
    var frames = stated ?? 1
    if stated == nil, packets > 1 {
      let spacing = Double(last - first) / Double(packets - 1)
      frames = max(1, Int((spacing / 20).rounded()))
    }
    return SpeexAudio(packets: packets, framesPerPacket: frames, firstTimestamp: first)
  }
}
