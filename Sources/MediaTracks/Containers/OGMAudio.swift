/// The length of MPEG audio (MP3, MP2) in an OGM file (Ogg with the DirectShow-era `\u{1}audio`
/// stream header, as ogmmerge writes it), from its frames. The header's granule positions are
/// the muxer's count of samples, and ogmmerge counts 1,152 for every MP3 frame, so MPEG-2
/// Layer III (sample rates of 24 kHz and below: 576 samples a frame) is listed twice as long as
/// it plays: 4.9 s of speech at 22050 Hz as 9.8 s. The frames in the stream's data packets are
/// what the decoder gives.
enum OGMAudio {
  /// The largest file walked (the whole file is read): past it the length stays FFmpeg's.
  static let scanBytes: Int64 = 64 << 20

  /// The OGM stream header's sub-types (a WAVE format tag in hexadecimal text) for MPEG audio.
  static let mpegSubtypes: Set<String> = ["0050", "0055"]

  /// The duration in seconds of the MPEG audio of the OGM stream in `source` that the first
  /// beginning-of-stream page with an OGM audio header of sub-type `0055` or `0050` opens:
  /// its data packets' frames (each packet after its one-byte flags and the length bytes they
  /// announce), an Info frame included, which FFmpeg hands to the decoder. `nil` when the file
  /// is larger than ``scanBytes``, holds no such stream, or its data hold no whole frame.
  static func mpegAudioDuration(_ source: any ByteSource) -> Double? {
    guard source.size > 0, source.size <= scanBytes, let bytes = try? source.contents() else {
      return nil
    }
    var serial: UInt32? = nil
    var payload: [UInt8] = []
    var packet: [UInt8] = []
    // Appends a whole packet of the stream: data packets (first byte even) lose their header.
    func finish() {
      defer { packet.removeAll(keepingCapacity: true) }
      guard let flags = packet.first, flags & 1 == 0 else { return }
      let lengthBytes = Int(flags >> 6 & 3) | Int(flags << 1 & 4)
      guard packet.count > 1 + lengthBytes else { return }
      payload += packet[(1 + lengthBytes)...]
    }
    var at = 0
    while at + 27 <= bytes.count {
      guard let page = OggChain.page(in: bytes[at...]), at + page.size <= bytes.count else {
        // Not a page here: resynchronise on the next capture pattern.
        at += 1
        continue
      }
      defer { at += page.size }
      let body = at + page.headerSize
      if serial == nil, page.beginsStream, isMPEGAudioHeader(bytes[body..<(at + page.size)]) {
        serial = page.serial
      }
      guard page.serial == serial else { continue }
      // A page that does not continue a packet drops what an earlier page left unfinished.
      if bytes[at + 5] & 1 == 0 { packet.removeAll(keepingCapacity: true) }
      var offset = body
      for lacing in bytes[(at + 27)..<(at + page.headerSize)] {
        packet += bytes[offset..<(offset + Int(lacing))]
        offset += Int(lacing)
        if lacing < 255 { finish() }
      }
    }
    guard serial != nil, !payload.isEmpty,
      let walk = ElementaryFrames.walk(
        MemoryBytes(payload, name: source.name), kind: .mpegAudio, countingInfoFrame: true)
    else { return nil }
    return walk.seconds
  }

  /// Whether a beginning-of-stream page's body opens an OGM audio stream of MPEG audio: the
  /// header packet type 1, `audio` padded to 8 bytes, then the 4-character sub-type.
  private static func isMPEGAudioHeader(_ body: ArraySlice<UInt8>) -> Bool {
    guard body.count >= 13, body[body.startIndex] == 1,
      body[(body.startIndex + 1)..<(body.startIndex + 6)].elementsEqual("audio".utf8)
    else { return false }
    let subtype = String(
      decoding: body[(body.startIndex + 9)..<(body.startIndex + 13)], as: UTF8.self)
    return mpegSubtypes.contains(subtype)
  }
}
