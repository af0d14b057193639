/// The trims of an Opus stream in MPEG-TS (the Opus mapping for MPEG-2 TS: each access
/// unit after a control header, 0x3FF in its top 11 bits, then
/// flags, the unit's size in bytes of 255 and a last one below, and the trims the flags
/// announce: `start_trim` on the stream's first unit (the encoder's pre-skip), `end_trim` on
/// its last (the padding of its last frame)).
///
/// FFmpeg 5.1's Opus parser strips the control headers and their trims: its decoder gave the
/// pre-skip and the padding (3.02 s for 3.0 s of input, from GStreamer's `mpegtsmux` and from
/// FFmpeg's own muxer; GStreamer's listed 3.0135 s). The length read here is what a player
/// presents.
struct TSOpusTrims: Equatable {
  /// Samples at 48 kHz to drop at the start (the first unit's `start_trim`).
  var start: Int
  /// Samples at 48 kHz to drop at the end (the last unit's `end_trim`).
  var end: Int
  /// The samples presented, at 48 kHz: what the units decode to, less both trims.
  var presented: Int64

  /// How much of the file's start, and of its end, is read.
  static let scanBytes = 1 << 18

  /// The trims and length of the Opus stream on `pid` of the MPEG-TS file `source`, or `nil`
  /// when its first two and last PES packets are not found in the file's first and last
  /// ``scanBytes``, lack a timestamp, or do not start with a control header.
  ///
  /// The length runs from the first PES packet's timestamp to the end of the last one's units.
  /// Muxers time the first unit two ways, told apart by the second packet's timestamp: FFmpeg
  /// gives it its whole length, the start trim included, and GStreamer only what is presented
  /// of it (the second packet comes `start_trim` samples sooner); in the first case the start
  /// trim is taken off the span too.
  static func read(_ source: any ByteSource, pid: Int) -> TSOpusTrims? {
    let head = source.bytes(at: 0, count: scanBytes)
    guard let (size, first) = TSDeclarations.packetLayout(head) else { return nil }
    let opening = pesPackets(head, packetSize: size, from: first, pid: pid)
    guard opening.count >= 2, let startTime = opening[0].pts, let secondTime = opening[1].pts,
      let firstUnit = accessUnits(opening[0].payload).first,
      let firstSamples = Self.samples(of: accessUnits(opening[0].payload))
    else { return nil }
    let tailStart = max(0, source.size - Int64(scanBytes))
    let tail = source.bytes(at: tailStart, count: scanBytes)
    guard let (tailSize, tailFirst) = TSDeclarations.packetLayout(tail), tailSize == size,
      let closing = pesPackets(tail, packetSize: size, from: tailFirst, pid: pid).last(where: {
        $0.pts != nil
      }),
      let endTime = closing.pts
    else { return nil }
    let lastUnits = accessUnits(closing.payload)
    guard let lastUnit = lastUnits.last, let held = Self.samples(of: lastUnits) else { return nil }
    /// Samples at 48 kHz between two 90 kHz timestamps, which are 33 bits and may wrap once.
    func elapsed(from start: Int64, to end: Int64) -> Double {
      var span = end - start
      if span < 0 { span += 1 << 33 }
      return (Double(span) * 48000 / 90000).rounded()
    }
    let start = firstUnit.startTrim
    let step = elapsed(from: startTime, to: secondTime)
    let countsStart: Bool
    if abs(step - Double(firstSamples)) <= 2 {
      countsStart = true
    } else if abs(step - Double(firstSamples - start)) <= 2 {
      countsStart = false
    } else {
      return nil
    }
    let presented =
      elapsed(from: startTime, to: endTime) + Double(held) - Double(lastUnit.endTrim)
      - (countsStart ? Double(start) : 0)
    guard start > 0 || lastUnit.endTrim > 0, presented.isFinite, presented > 0,
      presented < Double(Int64.max / 2)
    else { return nil }
    return TSOpusTrims(start: start, end: lastUnit.endTrim, presented: Int64(presented))
  }

  /// The samples at 48 kHz `units` decode to, or `nil` when one's table of contents does not
  /// read.
  static func samples(of units: [Unit]) -> Int? {
    var total = 0
    for unit in units {
      guard let samples = FormatContext.opusPacketSamples(unit.head) else { return nil }
      total += samples
    }
    return total
  }

  /// One PES packet: its timestamp (90 kHz, `nil` when it states none) and the payload the
  /// packets of `pid` carry, up to the next packet that starts one.
  struct PES {
    var pts: Int64?
    var payload: [UInt8]
  }

  /// The PES packets of `pid` in `bytes`, from the first one that starts in them; the last may
  /// be cut by the end of `bytes`.
  static func pesPackets(_ bytes: [UInt8], packetSize: Int, from first: Int, pid: Int) -> [PES] {
    var result: [PES] = []
    var at = first
    while at + 188 <= bytes.count {
      defer { at += packetSize }
      guard bytes[at] == 0x47 else { continue }
      let packetPID = (Int(bytes[at + 1]) & 0x1F) << 8 | Int(bytes[at + 2])
      guard packetPID == pid else { continue }
      let unitStart = bytes[at + 1] & 0x40 != 0
      let control = (bytes[at + 3] >> 4) & 3
      guard control & 1 != 0 else { continue }
      var payload = at + 4
      if control & 2 != 0 { payload += 1 + Int(bytes[at + 4]) }
      guard payload <= at + 188 else { continue }
      if unitStart {
        // The PES header: start code, stream id, length, two flag bytes, header length.
        guard payload + 9 <= at + 188, bytes[payload] == 0, bytes[payload + 1] == 0,
          bytes[payload + 2] == 1
        else { continue }
        let headerLength = Int(bytes[payload + 8])
        var pts: Int64? = nil
        if bytes[payload + 7] & 0x80 != 0, headerLength >= 5, payload + 14 <= at + 188 {
          let p = payload + 9
          pts =
            Int64(bytes[p] >> 1 & 0x07) << 30 | Int64(bytes[p + 1]) << 22
            | Int64(bytes[p + 2] >> 1) << 15 | Int64(bytes[p + 3]) << 7 | Int64(bytes[p + 4] >> 1)
        }
        let data = payload + 9 + headerLength
        guard data <= at + 188 else { continue }
        result.append(PES(pts: pts, payload: Array(bytes[data..<(at + 188)])))
      } else if !result.isEmpty {
        result[result.count - 1].payload += bytes[payload..<(at + 188)]
      }
    }
    return result
  }

  /// One access unit: its trims (0 when not stated) and its first two bytes (the Opus
  /// packet's table of contents, and for code 3 its frame count).
  struct Unit {
    var startTrim = 0
    var endTrim = 0
    var head: [UInt8] = []
  }

  /// The access units of a PES payload, up to the first that does not start with a control
  /// header or does not fit.
  static func accessUnits(_ payload: [UInt8]) -> [Unit] {
    var units: [Unit] = []
    var at = 0
    while at + 2 <= payload.count, payload[at] == 0x7F, payload[at + 1] & 0xE0 == 0xE0 {
      let flags = payload[at + 1]
      at += 2
      var size = 0
      while at < payload.count {
        let byte = payload[at]
        size += Int(byte)
        at += 1
        if byte != 0xFF { break }
      }
      var unit = Unit()
      /// The 16-bit big-endian value at `at`, then past it.
      func trim() -> Int? {
        guard at + 2 <= payload.count else { return nil }
        defer { at += 2 }
        return Int(payload[at]) << 8 | Int(payload[at + 1])
      }
      if flags & 0x10 != 0 {
        guard let value = trim() else { break }
        unit.startTrim = value
      }
      if flags & 0x08 != 0 {
        guard let value = trim() else { break }
        unit.endTrim = value
      }
      if flags & 0x04 != 0 {
        guard at < payload.count else { break }
        at += 1 + Int(payload[at])
      }
      guard size > 0, at + size <= payload.count else { break }
      unit.head = Array(payload[at..<min(at + 2, at + size)])
      units.append(unit)
      at += size
    }
    return units
  }
}
