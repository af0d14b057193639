/// The last block of each Matroska track, read from the clusters at the end of the file: a
/// track's end where its headers and tags state no length (mkvmerge without statistics tags,
/// GStreamer's `matroskamux`), as a player finds it when it reaches the end.
enum MatroskaBlocks {
  /// The most bytes read from the end of the file.
  static let tailBytes = 1 << 20

  /// The end of a track's last block seen.
  struct LastBlock: Equatable {
    /// The block's time: its cluster's `Timestamp` plus its own offset, in the segment's
    /// timestamp units (`TimestampScale`, FFmpeg's stream time base).
    var ticks: Int64
    /// The frames the block holds (more than one when laced).
    var frames: Int
    /// The block's `BlockDuration` in timestamp units, or `nil` when it states none.
    var duration: Int64?
    /// The block group's `DiscardPadding` in nanoseconds (the samples to drop from the end of
    /// the block's decoded audio), or `nil` when it states none.
    var discardPadding: Int64? = nil
    /// The first two bytes of the block's first frame (an Opus packet's table of contents and
    /// frame count), fewer when the frame is shorter.
    var frameHead: [UInt8] = []
    /// The first byte of each of the block's frames, in order (a Vorbis packet's type and
    /// mode); empty when its lacing cannot be read, and an empty frame has none.
    var frameBytes: [UInt8] = []
    /// For a last block: the first byte of the last frame of the track's block before it, or
    /// `nil` when that block is not among the bytes read.
    var precedingFrameByte: UInt8? = nil
    /// For a first block: the time of the track's next block in the file, or `nil` when that
    /// block is not among the bytes read.
    var nextTicks: Int64? = nil
  }

  /// The last block of each track (by `TrackNumber`) in the clusters within the last
  /// ``tailBytes`` of `source`; a track whose blocks all come before is not there. Empty when
  /// no cluster is found.
  static func lastBlocks(_ source: some ByteSource) -> [Int: LastBlock] {
    let start = max(0, source.size - Int64(tailBytes))
    return blocks(in: source.bytes(at: start, count: Int(source.size - start)), earliest: false)
  }

  /// The most bytes read from the start of the file for the first blocks.
  static let headBytes = 1 << 18

  /// The first block of each track (by `TrackNumber`) in the clusters within the first
  /// ``headBytes`` of `source`; a track whose blocks all come after is not there.
  static func firstBlocks(_ source: some ByteSource) -> [Int: LastBlock] {
    blocks(in: source.bytes(at: 0, count: headBytes), earliest: true)
  }

  /// The latest (or `earliest`) block of each track in the clusters found in `bytes`.
  private static func blocks(in bytes: [UInt8], earliest: Bool) -> [Int: LastBlock] {
    var blocks: [Int: LastBlock] = [:]
    var at = 0
    while at + 4 <= bytes.count {
      guard bytes[at] == 0x1F, bytes[at + 1] == 0x43, bytes[at + 2] == 0xB6, bytes[at + 3] == 0x75,
        let end = readCluster(bytes, at: at, into: &blocks, earliest: earliest)
      else {
        at += 1
        continue
      }
      at = end
    }
    return blocks
  }

  /// Reads the cluster whose ID is at `at` into `blocks`; returns where it ends (its size, or
  /// the next cluster for one of unknown size), or `nil` when these bytes are not a cluster
  /// (its first element, after a `CRC-32`, must be its `Timestamp`).
  private static func readCluster(
    _ bytes: [UInt8], at: Int, into blocks: inout [Int: LastBlock], earliest: Bool
  ) -> Int? {
    typealias EBML = MatroskaDeclarations
    guard let (size, sizeLength) = EBML.vint(bytes, at + 4, keepMarker: false) else { return nil }
    var start = at + 4 + sizeLength
    let end = size < 0 ? bytes.count : min(bytes.count, start + Int(clamping: size))
    // A CRC-32 element first (FFmpeg's Matroska muxer writes one in each cluster, not in
    // WebM): 4 bytes of checksum.
    if start + 6 <= end, bytes[start] == 0xBF, bytes[start + 1] == 0x84 { start += 6 }
    guard let (firstID, idLength) = EBML.vint(bytes, start, keepMarker: true), firstID == 0xE7,
      let (timeSize, timeLength) = EBML.vint(bytes, start + idLength, keepMarker: false),
      (1...8).contains(timeSize)
    else { return nil }
    let timeStart = start + idLength + timeLength
    guard timeStart + Int(timeSize) <= end else { return nil }
    let clusterTime = Int64(
      truncatingIfNeeded: EBML.unsigned(bytes, timeStart..<timeStart + Int(timeSize)))
    var child = timeStart + Int(timeSize)
    while child < end {
      guard let (id, idLength) = EBML.vint(bytes, child, keepMarker: true) else { break }
      // The next cluster, after one of unknown size (its own size may be unknown too: a
      // streamable file's clusters all are).
      if id == 0x1F43_B675 { return child }
      guard let (childSize, sizeLength) = EBML.vint(bytes, child + idLength, keepMarker: false),
        childSize >= 0
      else { break }
      let payload = child + idLength + sizeLength
      let payloadEnd = min(end, payload + Int(clamping: childSize))
      // A block cut by the end of the bytes (a file cut short, a recording stopped
      // mid-cluster) is not counted: the demuxer does not give it.
      let whole = payload + Int(clamping: childSize) <= bytes.count
      if !whole && (id == 0xA3 || id == 0xA0) { break }
      if id == 0xA3 {
        record(
          bytes, payload..<payloadEnd, clusterTime: clusterTime, duration: nil,
          discardPadding: nil, earliest: earliest, &blocks)
      } else if id == 0xA0 {
        var block: Range<Int>? = nil
        var duration: Int64? = nil
        var padding: Int64? = nil
        for (field, value) in EBML.elements(bytes, payload..<payloadEnd) {
          if field == 0xA1 { block = value }
          if field == 0x9B { duration = Int64(truncatingIfNeeded: EBML.unsigned(bytes, value)) }
          if field == 0x75A2, (1...8).contains(value.count) {
            // A signed integer: sign-extended from its stored bytes.
            let raw = EBML.unsigned(bytes, value)
            let unused = UInt64(64 - 8 * value.count)
            padding = Int64(bitPattern: raw << unused) >> unused
          }
        }
        if let block {
          record(
            bytes, block, clusterTime: clusterTime, duration: duration, discardPadding: padding,
            earliest: earliest, &blocks)
        }
      }
      child = payload + Int(clamping: childSize)
    }
    // In a cluster of unknown size, what could not be read is looked through for the next
    // cluster; a cluster of known size is skipped whole.
    return size < 0 ? max(child, at + 4) : max(end, at + 4)
  }

  /// Records a `Block` or `SimpleBlock` (track number, 16-bit time offset, flags, lacing).
  private static func record(
    _ bytes: [UInt8], _ range: Range<Int>, clusterTime: Int64, duration: Int64?,
    discardPadding: Int64?, earliest: Bool, _ blocks: inout [Int: LastBlock]
  ) {
    guard
      let (track, length) = MatroskaDeclarations.vint(bytes, range.lowerBound, keepMarker: false),
      track > 0, range.lowerBound + length + 3 <= range.upperBound
    else { return }
    let header = range.lowerBound + length
    let offset = Int64(Int16(bitPattern: UInt16(bytes[header]) << 8 | UInt16(bytes[header + 1])))
    let lacing = bytes[header + 2] >> 1 & 3
    let frames = lacing != 0 && header + 3 < range.upperBound ? Int(bytes[header + 3]) + 1 : 1
    var block = LastBlock(
      ticks: clusterTime &+ offset, frames: frames, duration: duration,
      discardPadding: discardPadding)
    if let first = firstFrameStart(bytes, lacing: lacing, frames: frames, at: header + 3),
      first < range.upperBound
    {
      block.frameHead = Array(bytes[first..<min(first + 2, range.upperBound)])
    }
    if let starts = frameStarts(
      bytes, lacing: lacing, frames: frames, at: header + 3, end: range.upperBound)
    {
      block.frameBytes = starts.filter { $0 < range.upperBound }.map { bytes[$0] }
    }
    let number = Int(track)
    if let known = blocks[number] {
      if earliest {
        if known.ticks <= block.ticks {
          // The block after the earliest one (in file order: muxers may give the first two
          // packets one time).
          if known.nextTicks == nil { blocks[number]?.nextTicks = block.ticks }
          return
        }
        block.nextTicks = known.ticks
      } else {
        if known.ticks > block.ticks { return }
        block.precedingFrameByte = known.frameBytes.last
      }
    }
    blocks[number] = block
  }

  /// Where each of a block's frames starts (see ``firstFrameStart(_:lacing:frames:at:)`` for
  /// the lacing schemes; fixed-size lacing splits the rest evenly), or `nil` when the lace
  /// header runs past `end` or states sizes that do not fit.
  private static func frameStarts(
    _ bytes: [UInt8], lacing: UInt8, frames: Int, at: Int, end: Int
  ) -> [Int]? {
    if lacing == 0 { return [at] }
    var sizes: [Int] = []
    var position = at + 1
    switch lacing {
    case 1:
      for _ in 0..<(frames - 1) {
        var size = 0
        while position < end, bytes[position] == 255 {
          size += 255
          position += 1
        }
        guard position < end else { return nil }
        sizes.append(size + Int(bytes[position]))
        position += 1
      }
    case 2:
      let size = (end - position) / frames
      sizes = Array(repeating: size, count: frames - 1)
    default:
      // EBML lacing: the first size unsigned, then each further one as a signed difference
      // (the stored value less half its range).
      for index in 0..<(frames - 1) {
        guard let (value, length) = MatroskaDeclarations.vint(bytes, position, keepMarker: false),
          value >= 0
        else { return nil }
        if index == 0 {
          sizes.append(Int(value))
        } else {
          let bias = (Int64(1) << (7 * length - 1)) - 1
          sizes.append((sizes.last ?? 0) + Int(value - bias))
        }
        position += length
      }
    }
    var starts = [position]
    for size in sizes {
      guard size >= 0, let last = starts.last, last + size <= end else { return nil }
      starts.append(last + size)
    }
    return starts
  }

  /// Where a block's first frame starts: after its lace header (Matroska's Xiph lacing: the
  /// frame count less one, then each size but the last's as a run of bytes up to one below
  /// 255; EBML lacing: the count, then the first size as a variable-length integer; fixed-size
  /// lacing: the count), or at `at` for a block that is not laced.
  private static func firstFrameStart(_ bytes: [UInt8], lacing: UInt8, frames: Int, at: Int)
    -> Int?
  {
    switch lacing {
    case 0: return at
    case 2: return at + 1
    case 1:
      var position = at + 1
      for _ in 0..<(frames - 1) {
        while position < bytes.count, bytes[position] == 255 { position += 1 }
        position += 1
      }
      return position
    default:
      // EBML lacing: the first size, then a signed difference for each further size but the
      // last.
      var position = at + 1
      for _ in 0..<(frames - 1) {
        guard let (_, length) = MatroskaDeclarations.vint(bytes, position, keepMarker: false)
        else { return nil }
        position += length
      }
      return position
    }
  }
}
