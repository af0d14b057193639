/// The length of a chained Ogg file (RFC 3533 section 4: logical bitstreams one after another,
/// as internet radio records and `cat a.ogg b.ogg` make), from its pages. FFmpeg 5.1 takes the
/// length of such a file from the last page's granule position alone, read at the first link's
/// rate: the last link's length in the wrong units (0.6 s for 2 s of Vorbis at 44.1 kHz followed
/// by 1.2 s at 22.05 kHz). The pages' headers are walked instead, and each link's audio counts
/// its own length at its own rate.
enum OggChain {
  /// The most bytes walked: past it the length is left to FFmpeg.
  static let scanBytes: Int64 = 256 << 20

  /// One page's header: its flags, granule position, serial number, sequence number and total
  /// size.
  struct Page {
    var beginsStream: Bool
    var granule: Int64
    var serial: UInt32
    var sequence: UInt32 = 0
    var headerSize: Int
    var size: Int
  }

  /// The CRC-32 of RFC 3533 (polynomial 0x04C11DB7, not reflected, no initial or final
  /// inversion), by byte.
  static let crcTable: [UInt32] = (0..<256).map { byte -> UInt32 in
    var r = UInt32(byte) << 24
    for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? r << 1 ^ 0x04C1_1DB7 : r << 1 }
    return r
  }

  /// Whether `page` (a whole page: header, segment table and body) has the checksum it states:
  /// a page damaged on disk or in transfer states a granule position that is not to be
  /// believed (one bit flipped in its top byte makes a length of millions of years).
  static func checksumMatches(_ page: ArraySlice<UInt8>) -> Bool {
    guard page.count >= 27 else { return false }
    let base = page.startIndex
    var stated: UInt32 = 0
    for i in (22..<26).reversed() { stated = stated << 8 | UInt32(page[base + i]) }
    var crc: UInt32 = 0
    for (offset, byte) in page.enumerated() {
      let value = (22..<26).contains(offset) ? 0 : byte
      crc = crc << 8 ^ crcTable[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ value)]
    }
    return crc == stated
  }

  /// The page whose header starts at `offset`, or `nil` when none does.
  static func page(_ source: any ByteSource, at offset: Int64) -> Page? {
    page(in: source.bytes(at: offset, count: 27 + 255)[...])
  }

  /// The page whose header starts `head` (bytes already read), or `nil` when none does.
  static func page(in head: ArraySlice<UInt8>) -> Page? {
    let base = head.startIndex
    guard head.count >= 27, head.starts(with: Array("OggS".utf8)), head[base + 4] == 0 else {
      return nil
    }
    let segments = Int(head[base + 26])
    guard head.count >= 27 + segments else { return nil }
    let body = head[(base + 27)..<(base + 27 + segments)].reduce(0) { $0 + Int($1) }
    var granule: UInt64 = 0
    for i in (6..<14).reversed() { granule = granule << 8 | UInt64(head[base + i]) }
    var serial: UInt32 = 0
    for i in (14..<18).reversed() { serial = serial << 8 | UInt32(head[base + i]) }
    var sequence: UInt32 = 0
    for i in (18..<22).reversed() { sequence = sequence << 8 | UInt32(head[base + i]) }
    return Page(
      beginsStream: head[base + 5] & 2 != 0, granule: Int64(bitPattern: granule), serial: serial,
      sequence: sequence, headerSize: 27 + segments, size: 27 + segments + body)
  }

  /// The sample rate and the samples to skip at the start (Opus's pre-skip) that an audio
  /// stream's first packet states: Vorbis, Opus, FLAC and Speex; `nil` for anything else
  /// (video, a skeleton).
  static func audioTiming(_ packet: [UInt8]) -> (rate: Int, skip: Int)? {
    func le(_ at: Int, _ count: Int) -> Int {
      (0..<count).reversed().reduce(0) { $0 << 8 | Int(packet[at + $1]) }
    }
    if packet.count >= 16, packet.starts(with: [1] + Array("vorbis".utf8)) {
      return (le(12, 4), 0)
    }
    if packet.count >= 12, packet.starts(with: Array("OpusHead".utf8)) { return (48000, le(10, 2)) }
    if packet.count >= 30, packet.starts(with: [0x7F] + Array("FLAC".utf8)) {
      // STREAMINFO follows the mapping header (13 bytes) and its block header (4): 20 bits of
      // rate after the block sizes (4 bytes) and frame sizes (6 bytes).
      let at = 27
      return (Int(packet[at]) << 12 | Int(packet[at + 1]) << 4 | Int(packet[at + 2]) >> 4, 0)
    }
    if packet.count >= 40, packet.starts(with: Array("Speex   ".utf8)) { return (le(36, 4), 0) }
    return nil
  }

  /// The codec a stream's first packet names (Vorbis, Opus, FLAC, Speex, Theora), or `nil`.
  static func codecName(_ packet: [UInt8]) -> String? {
    if packet.starts(with: [1] + Array("vorbis".utf8)) { return "vorbis" }
    if packet.starts(with: Array("OpusHead".utf8)) { return "opus" }
    if packet.starts(with: [0x7F] + Array("FLAC".utf8)) { return "flac" }
    if packet.starts(with: Array("Speex   ".utf8)) { return "speex" }
    if packet.starts(with: [0x80] + Array("theora".utf8)) { return "theora" }
    return nil
  }

  /// The first link of a chained Ogg stream (links one after the other, each beginning with
  /// its own first pages) whose codec differs from the first link's: its byte offset, the
  /// first link's codec and its own. `nil` when every link is in one codec, or past
  /// ``scanBytes`` or a damaged page (the walk stops there).
  static func codecChange(_ source: any ByteSource) -> (offset: Int64, from: String, to: String)? {
    var offset: Int64 = 0
    var first: String? = nil
    var inFirstPages = true
    while offset < min(source.size, scanBytes), let page = page(source, at: offset) {
      if page.beginsStream {
        let codec = codecName(source.bytes(at: offset + Int64(page.headerSize), count: 8))
        if let codec {
          if first == nil {
            first = codec
          } else if !inFirstPages, let from = first, codec != from {
            return (offset, from, codec)
          }
        }
      } else {
        inFirstPages = false
      }
      offset += Int64(page.size)
    }
    return nil
  }

  /// The streams the file begins with, in the order of their first pages (the order FFmpeg
  /// 5.1 numbers its streams in, a Skeleton stream included): each one's serial number and, for
  /// audio, the sample rate its first packet states (see ``audioTiming(_:)``). Empty when
  /// `source` does not start with an Ogg page.
  static func firstStreams(_ source: any ByteSource) -> [(serial: UInt32, rate: Int?)] {
    var streams: [(serial: UInt32, rate: Int?)] = []
    var offset: Int64 = 0
    while let page = page(source, at: offset), page.beginsStream, streams.count < 256 {
      let packet = source.bytes(at: offset + Int64(page.headerSize), count: 64)
      streams.append((page.serial, audioTiming(packet)?.rate))
      offset += Int64(page.size)
    }
    return streams
  }

  /// The length in samples of an Ogg Vorbis file whose audio is all on one page: a single
  /// logical stream whose first page with a granule position (the first audio page) is also
  /// its last (`EOS`) and the file's last page. Its granule position is then the stream's
  /// length from sample 0, and the packets' samples past it are padding to trim at the end
  /// (Vorbis I specification, A.2: a last page's granule position shorter than its packets
  /// decode trims the end). FFmpeg 5.1 takes a stream's timing from its first audio page
  /// unless that page ends the stream, and then trims the end by a wrong amount: 128 samples
  /// too many for 0.5 s from oggenc at 44.1 kHz, and none at all for 0.2 s (its first packet
  /// counted at 128 samples, which it decodes to none). `nil` for anything else (several
  /// pages of audio, several streams or links, a damaged page, other codecs); the walk reads
  /// at most 16 pages.
  ///
  /// With `beforeOtherCodec`, the page may instead be followed by the first page of a chained
  /// link in another codec (which FFmpeg 5.1 reads through a demuxer of its own): the length
  /// is then the first link's.
  static func singlePageVorbisLength(_ source: any ByteSource, beforeOtherCodec: Bool = false)
    -> Int64?
  {
    guard let first = page(source, at: 0), first.beginsStream else { return nil }
    let packet = source.bytes(at: Int64(first.headerSize), count: 7)
    guard packet.elementsEqual([1] + Array("vorbis".utf8)) else { return nil }
    var offset: Int64 = 0
    for _ in 0..<16 {
      guard let current = page(source, at: offset), current.serial == first.serial else {
        return nil
      }
      let flags = source.bytes(at: offset + 5, count: 1).first ?? 0
      if current.granule > 0 {
        let whole = source.bytes(at: offset, count: current.size)
        let end = offset + Int64(current.size)
        let endsHere =
          beforeOtherCodec
          ? page(source, at: end).map { next in
            next.beginsStream
              && codecName(source.bytes(at: end + Int64(next.headerSize), count: 8))
                .map { $0 != "vorbis" } == true
          } == true
          : end == source.size
        guard flags & 4 != 0, endsHere, whole.count == current.size, checksumMatches(whole[...])
        else { return nil }
        return current.granule
      }
      offset += Int64(current.size)
    }
    return nil
  }

  /// The most pages walked from the start of a file for ``vorbisStart(_:serial:)``.
  static let startPages = 512

  /// The sample a Vorbis stream `serial` begins at, from its first pages (Vorbis I
  /// specification, A.2): the granule position of its first audio page less the samples the
  /// audio packets ending on that page decode to. A stream cut from a longer one (a recording
  /// joined late, a file cut at a page boundary) starts past 0, and its length is its last
  /// granule position less that start; a start below 0 means samples trimmed at the start.
  /// `nil` when the stream is not Vorbis, its headers cannot be read, no audio page is among
  /// the first ``startPages`` pages or ``scanBytes`` bytes, or that page is damaged.
  static func vorbisStart(_ source: any ByteSource, serial: UInt32) -> Int64? {
    var headers: [[UInt8]] = []
    /// The packet being gathered across pages (a header whole, an audio packet's first byte).
    var pending: [UInt8] = []
    var modes: VorbisModes? = nil
    var previousBlock: Int? = nil
    var offset: Int64 = 0
    for _ in 0..<startPages {
      guard offset < min(source.size, scanBytes), let page = page(source, at: offset) else {
        return nil
      }
      defer { offset += Int64(page.size) }
      guard page.serial == serial else { continue }
      let whole = source.bytes(at: offset, count: page.size)
      guard whole.count == page.size else { return nil }
      let lacing = whole[27..<page.headerSize]
      var at = page.headerSize
      var samples: Int64 = 0
      var audioEnded = false
      for length in lacing {
        let piece = whole[at..<(at + Int(length))]
        at += Int(length)
        if headers.count < 3 {
          pending += piece
        } else if pending.isEmpty, let byte = piece.first {
          pending = [byte]
        }
        guard length < 255 else { continue }
        defer { pending = [] }
        if headers.count < 3 {
          headers.append(pending)
          if headers.count == 3 {
            guard let parsed = VorbisModes(identification: headers[0], setup: headers[2]) else {
              return nil
            }
            modes = parsed
          }
          continue
        }
        guard let modes, let block = modes.blockSize(ofPacket: pending) else { continue }
        if let previousBlock { samples += Int64(previousBlock / 4 + block / 4) }
        previousBlock = block
        audioEnded = true
      }
      if audioEnded, page.granule >= 0 {
        guard checksumMatches(whole[...]) else { return nil }
        return page.granule - samples
      }
    }
    return nil
  }

  /// The block sizes of a Vorbis stream's modes, from its identification and setup headers
  /// (Vorbis I specification, 4.2.2 and 4.2.4), which tell how many samples each audio packet
  /// decodes to.
  struct VorbisModes {
    /// The short and long block sizes in samples.
    var shortBlock: Int
    var longBlock: Int
    /// Each mode's block flag (`true`: the long block), in mode-number order.
    var longModes: [Bool]

    /// Reads the modes, or `nil` when the headers are not Vorbis's or the mode table cannot
    /// be found. The mode table ends the setup header: the mode count less one (6 bits), then
    /// per mode a block flag (1 bit), a window type and a transform type (16 bits each, both
    /// 0 in Vorbis I) and a mapping (8 bits), then the framing bit. It is found from the end,
    /// as the longest run of modes whose types are 0 and whose count field matches.
    init?(identification: [UInt8], setup: [UInt8]) {
      guard identification.count >= 30, identification.starts(with: [1] + Array("vorbis".utf8)),
        setup.count > 7, setup.starts(with: [5] + Array("vorbis".utf8)), let last = setup.last,
        last != 0
      else { return nil }
      let sizes = identification[28]
      shortBlock = 1 << Int(sizes & 15)
      longBlock = 1 << Int(sizes >> 4)
      // Bits are numbered from the first byte's least significant bit.
      func bits(_ start: Int, _ count: Int) -> Int {
        var value = 0
        for k in (0..<count).reversed() {
          let bit = start + k
          value = value << 1 | Int(setup[bit >> 3] >> UInt8(bit & 7) & 1)
        }
        return value
      }
      let framing = (setup.count - 1) * 8 + (7 - last.leadingZeroBitCount)
      let floor = 7 * 8
      var flags: [Bool] = []
      var start = framing
      while flags.count < 64, start - 41 - 6 >= floor, bits(start - 40, 32) == 0 {
        start -= 41
        flags.insert(bits(start, 1) == 1, at: 0)
      }
      while !flags.isEmpty, bits(start - 6, 6) != flags.count - 1 {
        flags.removeFirst()
        start += 41
      }
      guard !flags.isEmpty else { return nil }
      longModes = flags
    }

    /// The block size audio `packet` (at least its first byte) is coded with: its mode number
    /// follows the packet-type bit. `nil` for an empty packet, a header, or a mode not in the
    /// table.
    func blockSize(ofPacket packet: [UInt8]) -> Int? {
      guard let first = packet.first, first & 1 == 0 else { return nil }
      let width = Int.bitWidth - (longModes.count - 1).leadingZeroBitCount
      let mode = Int(first >> 1) & (1 << width - 1)
      guard mode < longModes.count else { return nil }
      return longModes[mode] ? longBlock : shortBlock
    }
  }

  /// The bytes at the end of a file searched for a stream's last page: two pages of the
  /// largest size (65,307 bytes), so a page whose packet ends is among them unless another
  /// stream's pages fill them all.
  static let tailBytes = 2 * 65_307

  /// The granule position of the last page of stream `serial` on which a packet ends (its
  /// granule is not -1), among the pages that start in the last ``tailBytes`` of `source` and
  /// end within it; `nil` when there is none.
  static func lastGranule(_ source: any ByteSource, serial: UInt32) -> Int64? {
    let start = max(0, source.size - Int64(tailBytes))
    let tail = source.bytes(at: start, count: tailBytes)
    let sync = Array("OggS".utf8)
    var granule: Int64? = nil
    var at = 0
    while at + 27 <= tail.count {
      // The pages are read from the tail already fetched (over http(s) each read of the
      // source would be a request of its own).
      guard tail[at...].starts(with: sync), let page = page(in: tail[at...]),
        at + page.size <= tail.count
      else {
        at += 1
        continue
      }
      if page.serial == serial, page.granule >= 0 {
        // A damaged page is passed over: its granule position may be anything.
        guard checksumMatches(tail[at..<(at + page.size)]) else {
          at += 1
          continue
        }
        granule = page.granule
      }
      at += page.size
    }
    return granule
  }

  /// The duration in seconds of the chained Ogg file `source` holds: for each link (the streams
  /// that begin together), its longest audio stream's last granule position, less its
  /// pre-skip, over its rate; summed over the links. `nil` when the file is one link (FFmpeg's
  /// length stands), holds no audio, is larger than ``scanBytes``, or a page is broken.
  ///
  /// A link may reuse the serial number of the link before it or of the first: `flac --ogg`
  /// takes its serial from the clock (two files encoded in the same second share it), and a
  /// file joined to a copy of itself repeats it. FFmpeg 5.1 then reads the last page's granule
  /// position as the first stream's own (0.35 s for 0.4 s and 0.7 s of FLAC). A link begins
  /// at every run of beginning-of-stream pages, whatever its serial numbers.
  ///
  /// - Parameter wholeFile: Whether every file is walked. When `false` (over http(s), where a
  ///   walk fetches the whole file), only a file whose last page belongs to another stream
  ///   than its first is.
  static func duration(_ source: any ByteSource, wholeFile: Bool = true) -> Double? {
    guard source.size <= scanBytes, let first = page(source, at: 0) else { return nil }
    if !wholeFile {
      // Only a file whose last page belongs to another stream than its first is sure to be
      // chained.
      let tail = source.bytes(at: max(0, source.size - 65_536), count: 65_536)
      let sync = Array("OggS".utf8)
      guard let last = tail.indices.reversed().first(where: { tail[$0...].starts(with: sync) }),
        let lastPage = page(in: tail[last...]),
        lastPage.serial != first.serial
      else { return nil }
    }
    /// Each link's audio streams by serial number: rate, pre-skip, largest granule position,
    /// and where the page stating it is (its offset and size).
    var links: [[UInt32: (rate: Int, skip: Int, end: Int64, offset: Int64, size: Int)]] = []
    var beginning = false
    var offset: Int64 = 0
    while offset < source.size {
      guard let page = page(source, at: offset) else { return nil }
      if page.beginsStream {
        if !beginning { links.append([:]) }
        beginning = true
        let packet = source.bytes(at: offset + Int64(page.headerSize), count: 64)
        if let timing = audioTiming(packet), timing.rate > 0 {
          links[links.count - 1][page.serial] = (timing.rate, timing.skip, 0, 0, 0)
        }
      } else {
        beginning = false
      }
      if var stream = links.last?[page.serial], page.granule >= 0 {
        if page.granule > stream.end {
          stream.end = page.granule
          stream.offset = offset
          stream.size = page.size
        }
        links[links.count - 1][page.serial] = stream
      }
      offset += Int64(page.size)
    }
    guard links.count > 1 else { return nil }
    // The granule positions the lengths come from, each checked: a damaged page (its granule
    // position may be anything) leaves the length to FFmpeg.
    for stream in links.flatMap(\.values) where stream.size > 0 {
      guard checksumMatches(source.bytes(at: stream.offset, count: stream.size)[...]) else {
        return nil
      }
    }
    var total = 0.0
    for link in links {
      let lengths = link.values.map { Double(max(0, $0.end - Int64($0.skip))) / Double($0.rate) }
      guard let longest = lengths.max() else { continue }
      total += longest
    }
    return total > 0 ? total : nil
  }

  /// The first place where pages of one logical stream are missing: a page whose sequence
  /// number (RFC 3533 section 6, counted up by one a page for each stream, from 0 at its
  /// beginning-of-stream page) skips past the one after its stream's page before. `nil` when
  /// every stream counts on without a gap, or when the file is not pages from end to end (bytes
  /// between pages, a cut last page) or longer than ``scanBytes``: its pages are then not
  /// judged.
  ///
  /// - Returns: the byte offset of the page after the gap, and how many pages are missing.
  static func missingPages(_ source: any ByteSource) -> (offset: Int64, pages: Int)? {
    guard source.size <= scanBytes else { return nil }
    var next: [UInt32: UInt32] = [:]
    var gap: (offset: Int64, pages: Int)?
    var offset: Int64 = 0
    while offset < source.size {
      guard let page = page(source, at: offset), offset + Int64(page.size) <= source.size else {
        return nil
      }
      if !page.beginsStream, let expected = next[page.serial], page.sequence > expected,
        gap == nil
      {
        gap = (offset, Int(page.sequence - expected))
      }
      next[page.serial] = page.sequence &+ 1
      offset += Int64(page.size)
    }
    return gap
  }
}
