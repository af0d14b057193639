/// The length of a raw audio elementary stream, MPEG audio (layers I to III: `.mp1`, `.mp2`,
/// `.mp3`) or ADTS AAC (`.aac`), from its frames: each frame header gives the frame's size
/// and the samples it holds, so walking the frames counts the audio exactly. Without a Xing,
/// Info or VBRI header (MP3) and always for ADTS, FFmpeg 5.1 only estimates a length from the
/// first frames' bit rate and the file size, which for variable-bit-rate audio can be off by
/// any factor (10 s of ADTS starting quiet was listed as 39 s, an MP3 of 10 s as 20 s).
enum ElementaryFrames {
  /// The stream's format.
  enum Kind {
    /// MPEG-1, 2 or 2.5 audio, layer I, II or III.
    case mpegAudio
    /// AAC in ADTS frames.
    case adts
  }

  /// What a walk over the frames found.
  struct Walk: Equatable {
    /// The audio's length in seconds: the whole frames' samples over their sample rate.
    var seconds: Double
    /// The whole frames' bytes, headers included.
    var frameBytes: Int64
    /// The whole frames counted (an MPEG audio stream's first frame left out when it holds a
    /// Xing, Info or VBRI header and `countingInfoFrame` is false).
    var frames: Int = 0
    /// Whether the frames' bit rates differ (variable bit rate); for ADTS, whether their sizes
    /// differ by more than the bit reservoir's usual spread (see ``walk(_:kind:)``).
    var variableBitRate: Bool
    /// The bit rate every frame header states, in bits per second, when they all state the
    /// same one (MPEG audio at a constant bit rate); `nil` otherwise and for ADTS.
    var constantBitRate: Int? = nil
    /// The average bit rate in bits per second (`frameBytes` over `seconds`).
    var averageBitRate: Int { Int((Double(frameBytes) * 8 / seconds).rounded()) }
  }

  /// The most bytes walked (about 9 hours of MP3 at 128 kbit/s): past it the walk gives up.
  static let scanBytes: Int64 = 512 << 20
  /// The most bytes in a row that are not frames (tags, damage) a walk skips: past it the
  /// length stays unknown.
  static let junkBytes: Int64 = 4 << 20
  /// The bytes read at a time.
  static let chunkBytes = 1 << 20

  /// ADTS sampling frequencies by index (ISO/IEC 14496-3, 1.6.3.4).
  static let adtsSampleRates = [
    96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
  ]

  /// One frame header's facts.
  struct Header {
    /// The frame's size in bytes, header included.
    var length: Int
    /// Samples per channel the frame decodes to.
    var samples: Int
    /// Samples per second.
    var sampleRate: Int
    /// The bit rate the header states (MPEG audio), or 0 (ADTS states none).
    var bitRate: Int
    /// The header bits every frame of the stream shares (version, layer, sample rate, and for
    /// ADTS the profile and channel configuration).
    var key: UInt32
  }

  /// The MPEG audio frame header at the start of `b` (at least 4 bytes), or `nil`.
  static func mpegAudioHeader(_ b: UnsafeBufferPointer<UInt8>) -> Header? {
    guard b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
    let version = (b[1] >> 3) & 3  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    let layer = (b[1] >> 1) & 3  // 3: I, 2: II, 1: III
    let rateIndex = Int(b[2] >> 4)
    let sampleIndex = Int((b[2] >> 2) & 3)
    // Free format (bit-rate index 0) states no size: such a stream is not walked.
    guard version != 1, layer != 0, (1...14).contains(rateIndex), sampleIndex < 3 else {
      return nil
    }
    let mpeg1 = version == 3
    let table = mpeg1 ? 3 - Int(layer) : (layer == 3 ? 3 : 4)
    let bitRate = ContainerDeclarations.mpegAudioBitRateTables[table][rateIndex - 1] * 1000
    let sampleRate =
      ContainerDeclarations.mpegAudioSampleRates[sampleIndex] >> (mpeg1 ? 0 : version == 2 ? 1 : 2)
    let padding = Int((b[2] >> 1) & 1)
    let length =
      layer == 3
      ? (12 * bitRate / sampleRate + padding) * 4
      : (layer == 1 && !mpeg1 ? 72 : 144) * bitRate / sampleRate + padding
    let samples = layer == 3 ? 384 : (layer == 1 && !mpeg1 ? 576 : 1152)
    return Header(
      length: length, samples: samples, sampleRate: sampleRate, bitRate: bitRate,
      key: UInt32(b[1]) << 8 | UInt32(b[2] & 0x0C))
  }

  /// The sample rate, samples per frame and channel count of a free-format MPEG audio stream
  /// (bit-rate index 0: the frames state no size, their length is the encoder's choice, as
  /// `lame --freeformat` writes them) whose first frame starts the audio (after any ID3v2
  /// tag); `nil` for any other stream. FFmpeg 5.1's decoder does not read free format, and its
  /// demuxer took one such file for 32 kHz at 384 kb/s.
  static func freeFormatHeader(_ source: any ByteSource) -> (
    sampleRate: Int, frameSamples: Int, channels: Int
  )? {
    let b = source.bytes(at: id3v2Length(source), count: 4)
    guard b.count == 4, b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
    let version = (b[1] >> 3) & 3  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    let layer = (b[1] >> 1) & 3  // 3: I, 2: II, 1: III
    let sampleIndex = Int((b[2] >> 2) & 3)
    guard version != 1, layer != 0, b[2] >> 4 == 0, sampleIndex < 3 else { return nil }
    let mpeg1 = version == 3
    let rate =
      ContainerDeclarations.mpegAudioSampleRates[sampleIndex] >> (mpeg1 ? 0 : version == 2 ? 1 : 2)
    let samples = layer == 3 ? 384 : (layer == 1 && !mpeg1 ? 576 : 1152)
    return (rate, samples, b[3] >> 6 == 3 ? 1 : 2)
  }

  /// The ADTS frame header at the start of `b` (at least 7 bytes), or `nil`.
  static func adtsHeader(_ b: UnsafeBufferPointer<UInt8>) -> Header? {
    // Sync word, then layer 0.
    guard b[0] == 0xFF, b[1] & 0xF6 == 0xF0 else { return nil }
    let sampleIndex = Int((b[2] >> 2) & 0x0F)
    guard sampleIndex < adtsSampleRates.count else { return nil }
    let length = Int(b[3] & 3) << 11 | Int(b[4]) << 3 | Int(b[5] >> 5)
    let headerLength = b[1] & 1 == 0 ? 9 : 7
    guard length > headerLength else { return nil }
    let blocks = Int(b[6] & 3) + 1
    return Header(
      length: length, samples: 1024 * blocks, sampleRate: adtsSampleRates[sampleIndex],
      bitRate: 0,
      key: UInt32(b[1]) << 16 | UInt32(b[2] & 0xFD) << 8 | UInt32(b[3] & 0xC0))
  }

  /// Walks the frames of the raw stream `source` holds, from its first frame (after an ID3v2
  /// tag and anything else that is not a frame) to its last whole one. Bytes between frames
  /// that are not a frame (a damaged stretch, an ID3v1 or APE tag at the end) are skipped to
  /// the next header whose stream fields match the first frame's and which the next frame
  /// confirms. An MPEG audio stream's first frame holding a Xing, Info or VBRI header is not
  /// audio and is not counted, unless `countingInfoFrame`: in a container that does not know
  /// that frame (WAVE), FFmpeg 5.1 hands it to the decoder, which gives its samples (silence).
  ///
  /// - Returns: `nil` when `source` is larger than ``scanBytes``, holds no whole frame, or
  ///   cannot be read.
  static func walk(_ source: any ByteSource, kind: Kind, countingInfoFrame: Bool = false)
    -> Walk?
  {
    let size = source.size
    guard size > 0, size <= scanBytes else { return nil }
    let headerBytes = kind == .adts ? 7 : 4
    var reader = ChunkReader(source: source)
    func header(at offset: Int64) -> Header? {
      reader.withBytes(at: offset, count: headerBytes) { b in
        kind == .adts ? adtsHeader(b) : mpegAudioHeader(b)
      } ?? nil
    }
    // A frame starting at `offset` whose stream fields are `key` (any when nil), confirmed by
    // the next frame's header or by ending exactly at the end of the file.
    func confirmed(at offset: Int64, key: UInt32?) -> Header? {
      guard let h = header(at: offset), key == nil || h.key == key else { return nil }
      let next = offset + Int64(h.length)
      if next == size { return h }
      guard let following = header(at: next), following.key == h.key else { return nil }
      return h
    }
    var at = id3v2Length(source)
    var key: UInt32? = nil
    var samples = 0
    var frames = 0
    var frameBytes: Int64 = 0
    var sampleRate = 0
    var rates = Set<Int>()
    var smallest = Int.max
    var largest = 0
    var first = true
    while at + Int64(headerBytes) <= size {
      var frame = key.flatMap { k in header(at: at).flatMap { $0.key == k ? $0 : nil } }
      if frame == nil {
        // Out of step: the next confirmed frame, within ``junkBytes``.
        let lost = at
        while at + Int64(headerBytes) <= size, frame == nil {
          guard at - lost <= junkBytes else { return nil }
          frame = confirmed(at: at, key: key)
          if frame == nil { at = reader.nextSync(after: at) }
        }
      }
      guard let h = frame, at + Int64(h.length) <= size else { break }
      defer { at += Int64(h.length) }
      if first {
        first = false
        key = h.key
        sampleRate = h.sampleRate
        if kind == .mpegAudio && !countingInfoFrame
          && holdsVBRHeader(reader: &reader, at: at, length: h.length)
        {
          continue
        }
      }
      samples += h.samples
      frames += 1
      frameBytes += Int64(h.length)
      rates.insert(h.bitRate)
      smallest = min(smallest, h.length)
      largest = max(largest, h.length)
    }
    guard samples > 0, sampleRate > 0, !reader.failed else { return nil }
    // MPEG audio states each frame's bit rate. ADTS frames of constant-bit-rate AAC vary in
    // size with the bit reservoir, rarely by more than half the average frame.
    let variable =
      kind == .mpegAudio
      ? rates.count > 1
      : Double(largest - smallest) > 0.5 * Double(frameBytes) / Double(max(1, samples / 1024))
    return Walk(
      seconds: Double(samples) / Double(sampleRate), frameBytes: frameBytes, frames: frames,
      variableBitRate: variable,
      constantBitRate: rates.count == 1 ? rates.first.flatMap { $0 > 0 ? $0 : nil } : nil)
  }

  /// Where the frames of a raw MPEG audio or ADTS stream start when bytes that are not frames
  /// come between its ID3v2 tag (or the start of the file) and its first frame: a prefix of
  /// other data (a download manager's or a broken tagger's), zero padding after the tag, or a
  /// tag whose stated size falls short. FFmpeg 5.1's MP3 demuxer looks for the Xing, Info or
  /// VBRI header only where the tag ends, and both demuxers pass what lies before the first
  /// frame to their parser as frames: an MP3's encoder delay and padding were not trimmed
  /// (0.064 s more audio than listed after 1,500 zero bytes), a frame was lost, and random
  /// bytes decoded as failures long enough to fail the whole decode (200 KB before 2 s of
  /// MP3, 30 KB before 2 s of ADTS).
  ///
  /// The first frame is the first header followed by two more of the same stream, each where
  /// the one before ends (or one that ends exactly at the end of the file); a random prefix
  /// rarely holds such a run. The search covers ``junkBytes``.
  ///
  /// - Returns: The offset of the first frame; `nil` when a frame starts right after the tag
  ///   (the usual case), when no run of frames is found, or when `source` cannot be read.
  static func firstFrame(_ source: any ByteSource, kind: Kind) -> Int64? {
    let size = source.size
    let tagEnd = id3v2Length(source)
    let headerBytes = kind == .adts ? 7 : 4
    var reader = ChunkReader(source: source)
    func header(at offset: Int64) -> Header? {
      reader.withBytes(at: offset, count: headerBytes) { b in
        kind == .adts ? adtsHeader(b) : mpegAudioHeader(b)
      } ?? nil
    }
    // A header read on its own (a few bytes, not a chunk): the usual file is looked at no
    // further than its first two frame headers.
    func single(at offset: Int64) -> Header? {
      let bytes = source.bytes(at: offset, count: headerBytes)
      guard bytes.count == headerBytes else { return nil }
      return bytes.withUnsafeBufferPointer { b in
        kind == .adts ? adtsHeader(b) : mpegAudioHeader(b)
      }
    }
    // A run of `count` frames of one stream from `offset` (or fewer that end the file). The
    // protection bit may differ (an encoder's Info frame without the CRC its audio frames
    // carry).
    let protection: UInt32 = kind == .adts ? 0x1_0000 : 0x100
    func run(at offset: Int64, count: Int, _ read: (Int64) -> Header?) -> Bool {
      guard let first = read(offset) else { return false }
      var at = offset
      for _ in 0..<count {
        guard let h = read(at), (h.key ^ first.key) & ~protection == 0 else { return false }
        at += Int64(h.length)
        if at == size { return true }
      }
      return at < size
    }
    if run(at: tagEnd, count: 2, single) { return nil }
    var at = tagEnd
    while at < size, at - tagEnd <= junkBytes {
      if run(at: at, count: 3, { header(at: $0) }) { return reader.failed ? nil : at }
      at = reader.nextSync(after: at)
    }
    return nil
  }

  /// The header of the one MPEG audio frame a file holds (after an ID3v2 tag, before nothing
  /// or an ID3v1 tag), or `nil`. FFmpeg 5.1's demuxer checks a frame by the header of the
  /// next one and refuses a file of one frame ("Invalid argument"): a 26 ms click cut from a
  /// longer file, which players play.
  ///
  /// - Returns: The frame's header bytes, where the frame ends, and the samples it holds.
  static func loneMPEGAudioFrame(_ source: any ByteSource)
    -> (header: [UInt8], end: Int64, samples: Int)?
  {
    let at = id3v2Length(source)
    let bytes = source.bytes(at: at, count: 4)
    guard bytes.count == 4,
      let h = bytes.withUnsafeBufferPointer({ mpegAudioHeader($0) })
    else { return nil }
    let end = at + Int64(h.length)
    let rest = source.size - end
    guard rest == 0 || (rest == 128 && source.bytes(at: end, count: 3).elementsEqual("TAG".utf8))
    else { return nil }
    return (bytes, end, h.samples)
  }

  /// Whether the MPEG audio frame at `offset` holds a Xing, Info or VBRI header.
  static func holdsVBRHeader(reader: inout ChunkReader, at offset: Int64, length: Int) -> Bool {
    reader.withBytes(at: offset, count: min(length, 64)) { b in
      for i in 4..<max(4, b.count - 3) {
        let tag = (b[i], b[i + 1], b[i + 2], b[i + 3])
        if tag == (0x58, 0x69, 0x6E, 0x67) || tag == (0x49, 0x6E, 0x66, 0x6F)
          || tag == (0x56, 0x42, 0x52, 0x49)
        {
          return true
        }
      }
      return false
    } ?? false
  }

  /// The bytes of an ID3v2 tag at the start of `source` (header, footer and any run of such
  /// tags), or 0.
  static func id3v2Length(_ source: any ByteSource) -> Int64 {
    var at: Int64 = 0
    while true {
      let h = source.bytes(at: at, count: 10)
      guard h.count == 10, h[0] == 0x49, h[1] == 0x44, h[2] == 0x33,
        h[6] & 0x80 == 0, h[7] & 0x80 == 0, h[8] & 0x80 == 0, h[9] & 0x80 == 0
      else { return at }
      let body = Int64(h[6]) << 21 | Int64(h[7]) << 14 | Int64(h[8]) << 7 | Int64(h[9])
      at += 10 + body + (h[5] & 0x10 != 0 ? 10 : 0)
    }
  }

  /// Reads a byte source a chunk at a time, for walks that move forward.
  struct ChunkReader {
    let source: any ByteSource
    var buffer: [UInt8] = []
    var start: Int64 = 0
    /// Whether a read failed (the walk's answer is then not trusted).
    var failed = false

    init(source: any ByteSource) { self.source = source }

    /// The offset of the first 0xFF byte (where every frame header starts) after `offset`,
    /// or the input's size when there is none.
    mutating func nextSync(after offset: Int64) -> Int64 {
      var at = offset + 1
      while at < source.size, fill(at: at, count: 1) {
        if let found = buffer[Int(at - start)...].firstIndex(of: 0xFF) {
          return start + Int64(found)
        }
        // None in the buffer: on from its end.
        at = start + Int64(buffer.count)
      }
      return source.size
    }

    /// Makes the buffer hold the `count` bytes from `offset`; false when the input ends
    /// before them or cannot be read.
    mutating func fill(at offset: Int64, count: Int) -> Bool {
      if offset >= start && offset + Int64(count) <= start + Int64(buffer.count) { return true }
      guard offset + Int64(count) <= source.size else { return false }
      let want = Int(min(Int64(max(count, ElementaryFrames.chunkBytes)), source.size - offset))
      buffer = source.bytes(at: offset, count: want)
      start = offset
      if buffer.count < count {
        failed = true
        return false
      }
      return true
    }

    /// `body` over the `count` bytes from `offset`, or `nil` when the input ends before them.
    mutating func withBytes<R>(
      at offset: Int64, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R? {
      guard fill(at: offset, count: count) else { return nil }
      let from = Int(offset - start)
      return buffer.withUnsafeBufferPointer { all in
        body(UnsafeBufferPointer(rebasing: all[from..<(from + count)]))
      }
    }
  }
}
