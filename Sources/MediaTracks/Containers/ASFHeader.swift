/// The layout of an ASF file's data packets, from its Header Object (ASF specification 3.1
/// and 3.2, File Properties Object): all data packets have one size, stated as both the minimum
/// and the maximum, and follow the Data Object's 50-byte header. A read started at a packet's
/// first byte resumes FFmpeg 5.1's ASF demuxer; one started elsewhere finds nothing.
struct ASFHeader: Equatable {
  /// The size of every data packet in bytes.
  let packetSize: Int64
  /// The offset of the first data packet from the file's start.
  let firstPacket: Int64

  /// The most bytes of the Header Object read (VLC writes under 1 KiB; metadata can add more).
  static let maxHeaderBytes = 1 << 20

  /// The Header Object's GUID, 75B22630-668E-11CF-A6D9-00AA0062CE6C, as stored.
  private static let headerGUID: [UInt8] = [
    0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C,
  ]
  /// The File Properties Object's GUID, 8CABDCA1-A947-11CF-8EE4-00C00C205365.
  private static let filePropertiesGUID: [UInt8] = [
    0xA1, 0xDC, 0xAB, 0x8C, 0x47, 0xA9, 0xCF, 0x11, 0x8E, 0xE4, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65,
  ]

  /// The packet layout of the ASF file in `source`, or `nil` when it does not start with a
  /// Header Object, states no File Properties Object, or states packets of varying size.
  static func read(_ source: any ByteSource) -> ASFHeader? {
    let start = source.bytes(at: 0, count: 30)
    guard start.count == 30, Array(start[0..<16]) == headerGUID else { return nil }
    let headerSize = littleEndian(start, at: 16, count: 8)
    guard headerSize > 30, headerSize <= Int64(maxHeaderBytes) else { return nil }
    let header = source.bytes(at: 0, count: Int(headerSize))
    guard header.count == Int(headerSize) else { return nil }
    var offset = 30
    while offset + 24 <= header.count {
      let size = Int(littleEndian(header, at: offset + 16, count: 8))
      guard size >= 24, offset + size <= header.count else { return nil }
      if Array(header[offset..<offset + 16]) == filePropertiesGUID, size >= 104 {
        let minimum = littleEndian(header, at: offset + 92, count: 4)
        let maximum = littleEndian(header, at: offset + 96, count: 4)
        guard minimum > 0, minimum == maximum else { return nil }
        return ASFHeader(packetSize: minimum, firstPacket: headerSize + 50)
      }
      offset += size
    }
    return nil
  }

  /// Whether `head`, a file's first bytes, starts with an ASF Header Object's GUID.
  static func starts(_ head: some Collection<UInt8>) -> Bool {
    head.starts(with: headerGUID)
  }

  /// The offset of the first data packet at or after `offset`.
  func packetStart(atOrAfter offset: Int64) -> Int64 {
    guard offset > firstPacket else { return firstPacket }
    let packets = (offset - firstPacket + packetSize - 1) / packetSize
    return firstPacket + packets * packetSize
  }

  /// The unsigned little-endian integer of `count` bytes at `offset` of `bytes`.
  private static func littleEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int64 {
    var value: UInt64 = 0
    for index in (offset..<offset + count).reversed() { value = value << 8 | UInt64(bytes[index]) }
    return Int64(truncatingIfNeeded: min(value, UInt64(Int64.max)))
  }
}

/// A change to the bytes a custom reader gives FFmpeg: `bytes` in place of the file's own at
/// byte `offset` (see ``FileSource/patches``). The file itself is never written.
struct BytePatch: Equatable, Sendable {
  /// The offset of the first byte replaced, from the file's start.
  let offset: Int64
  /// The bytes FFmpeg reads there instead.
  let bytes: [UInt8]
}

extension ASFHeader {
  /// The most bytes of data packets read at a time by ``paddingRepairs(_:)``.
  private static let scanChunkBytes = 1 << 20

  /// The padding fields to read as zero so that FFmpeg 5.1 reads every data packet of `source`.
  ///
  /// A packet that is not full states its length and the padding after it. GStreamer's
  /// `asfmux` states the length of what the packet holds (header and payloads) and the padding
  /// that fills it up to the packet size, so the two add up to the packet size. FFmpeg 5.1 reads
  /// the length as the whole packet's, padding included: it refuses a packet whose padding is
  /// longer than that ("invalid padsize"), and in one whose padding is shorter it takes the
  /// padding out of the payloads. Either way it drops the packet, usually the stream's last (6 to
  /// 9 % of a 3 s file's audio). With its padding read as 0, FFmpeg takes the payloads as they
  /// are and skips the rest of the packet, as it does for any packet shorter than the size.
  ///
  /// Only packets whose stated length and padding add up to exactly the packet size, and whose
  /// length is shorter than it, are changed; a file from any other muxer (length the packet
  /// size, or not stated) has none. Every packet header is read once, a megabyte at a time.
  func paddingRepairs(_ source: any ByteSource) -> [BytePatch] {
    let dataObject = firstPacket - 50
    let sizeField = source.bytes(at: dataObject + 16, count: 8)
    let stated = sizeField.count == 8 ? Self.littleEndian(sizeField, at: 0, count: 8) : 0
    var end = source.size
    if stated > 50, dataObject + stated < end { end = dataObject + stated }
    guard packetSize >= 16, end > firstPacket else { return [] }
    let packets = (end - firstPacket) / packetSize
    let perChunk = max(1, Int64(Self.scanChunkBytes) / packetSize)
    var repairs: [BytePatch] = []
    var first: Int64 = 0
    while first < packets {
      let count = min(perChunk, packets - first)
      let start = firstPacket + first * packetSize
      let chunk = source.bytes(at: start, count: Int(count * packetSize))
      guard chunk.count == Int(count * packetSize) else { break }
      for k in 0..<Int(count) {
        let base = k * Int(packetSize)
        if let field = paddingToClear(chunk, at: base) {
          repairs.append(
            BytePatch(
              offset: start + Int64(base + field.offset),
              bytes: [UInt8](repeating: 0, count: field.width)))
        }
      }
      first += count
    }
    return repairs
  }

  /// Where the padding field of the packet at `base` of `bytes` is (its offset from `base` and
  /// its width), when the packet states a length short of ``packetSize`` and a padding that
  /// fills it up (see ``paddingRepairs(_:)``); `nil` otherwise.
  private func paddingToClear(_ bytes: [UInt8], at base: Int) -> (offset: Int, width: Int)? {
    var at = base
    // Error correction data (ASF specification 5.2.1): its flags byte has the top bit set, and
    // states the data's length in its low four bits.
    if bytes[at] & 0x80 != 0 {
      guard bytes[at] & 0x60 == 0 else { return nil }
      at += 1 + Int(bytes[at] & 0x0F)
    }
    guard at + 2 <= base + Int(packetSize) else { return nil }
    let flags = bytes[at]
    at += 2  // the length type flags and the property flags
    /// The width in bytes of a field whose type is the two bits at `shift` of `flags`.
    func width(_ shift: UInt8) -> Int { [0, 1, 2, 4][Int((flags >> shift) & 3)] }
    let lengthWidth = width(5)
    let sequenceWidth = width(1)
    let paddingWidth = width(3)
    guard lengthWidth > 0, paddingWidth > 0,
      at + lengthWidth + sequenceWidth + paddingWidth <= base + Int(packetSize)
    else { return nil }
    let length = Self.littleEndian(bytes, at: at, count: lengthWidth)
    let paddingOffset = at + lengthWidth + sequenceWidth
    let padding = Self.littleEndian(bytes, at: paddingOffset, count: paddingWidth)
    guard length > 0, length < packetSize, padding > 0, length + padding == packetSize else {
      return nil
    }
    return (paddingOffset - base, paddingWidth)
  }
}
