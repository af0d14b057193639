/// The bytes of Broadcast Wave sound essence in an MXF file (SMPTE 377M's KLV packets, SMPTE
/// 382M's sound elements), counted by walking the file's top-level KLV packets: the PCM the
/// file holds, where its header states its length in whole edit units, rounded up
/// (GStreamer's `mxfmux` states 5.4 s for 5.341 s of PCM).
enum MXFEssence {
  /// The most KLV packets walked (hours of frame-wrapped essence): past it the count is
  /// unknown.
  static let maxPackets = 1 << 20

  /// The bytes of BWF sound elements (key `06 0E 2B 34 01 02 01 01 0D 01 03 01`, item type
  /// 0x16, element type 0x01 frame-wrapped or 0x02 clip-wrapped) of one track, or `nil` when
  /// `source` is not walked to its end in whole KLV packets, holds none, or holds sound
  /// elements of more than one track.
  static func soundBytes(_ source: any ByteSource) -> Int64? {
    let prefix: [UInt8] = [0x06, 0x0E, 0x2B, 0x34, 0x01, 0x02, 0x01, 0x01, 0x0D, 0x01, 0x03, 0x01]
    var at: Int64 = 0
    var total: Int64 = 0
    var track: [UInt8]? = nil
    for _ in 0..<maxPackets {
      if at == source.size { return total > 0 ? total : nil }
      let head = source.bytes(at: at, count: 25)
      guard head.count >= 17, head[0..<4].elementsEqual(prefix[0..<4]) else { return nil }
      // BER length: short form, or 0x80 | the count of big-endian bytes that follow.
      var length: Int64 = 0
      var headerBytes: Int64 = 17
      if head[16] < 0x80 {
        length = Int64(head[16])
      } else {
        let count = Int(head[16] & 0x7F)
        guard (1...8).contains(count), head.count >= 17 + count else { return nil }
        for byte in head[17..<17 + count] {
          guard length < Int64.max >> 8 else { return nil }
          length = length << 8 | Int64(byte)
        }
        headerBytes += Int64(count)
      }
      if head[0..<12].elementsEqual(prefix), head[12] == 0x16, [1, 2].contains(head[14]) {
        let number = Array(head[13..<16])
        if let track, track != number { return nil }
        track = number
        total += length
      }
      guard length <= source.size - at - headerBytes else { return nil }
      at += headerBytes + length
    }
    return nil
  }
}
