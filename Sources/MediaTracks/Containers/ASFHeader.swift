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
