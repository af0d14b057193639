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
  }

  /// The last block of each track (by `TrackNumber`) in the clusters within the last
  /// ``tailBytes`` of `source`; a track whose blocks all come before is not there. Empty when
  /// no cluster is found.
  static func lastBlocks(_ source: some ByteSource) -> [Int: LastBlock] {
    let start = max(0, source.size - Int64(tailBytes))
    let bytes = source.bytes(at: start, count: Int(source.size - start))
    var blocks: [Int: LastBlock] = [:]
    var at = 0
    while at + 4 <= bytes.count {
      guard bytes[at] == 0x1F, bytes[at + 1] == 0x43, bytes[at + 2] == 0xB6, bytes[at + 3] == 0x75,
        let end = readCluster(bytes, at: at, into: &blocks)
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
  /// (its first element must be its `Timestamp`).
  private static func readCluster(_ bytes: [UInt8], at: Int, into blocks: inout [Int: LastBlock])
    -> Int?
  {
    typealias EBML = MatroskaDeclarations
    guard let (size, sizeLength) = EBML.vint(bytes, at + 4, keepMarker: false) else { return nil }
    let start = at + 4 + sizeLength
    let end = size < 0 ? bytes.count : min(bytes.count, start + Int(clamping: size))
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
      if id == 0xA3 {
        record(bytes, payload..<payloadEnd, clusterTime: clusterTime, duration: nil, &blocks)
      } else if id == 0xA0 {
        var block: Range<Int>? = nil
        var duration: Int64? = nil
        for (field, value) in EBML.elements(bytes, payload..<payloadEnd) {
          if field == 0xA1 { block = value }
          if field == 0x9B { duration = Int64(truncatingIfNeeded: EBML.unsigned(bytes, value)) }
        }
        if let block {
          record(bytes, block, clusterTime: clusterTime, duration: duration, &blocks)
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
    _ blocks: inout [Int: LastBlock]
  ) {
    guard
      let (track, length) = MatroskaDeclarations.vint(bytes, range.lowerBound, keepMarker: false),
      track > 0, range.lowerBound + length + 3 <= range.upperBound
    else { return }
    let header = range.lowerBound + length
    let offset = Int64(Int16(bitPattern: UInt16(bytes[header]) << 8 | UInt16(bytes[header + 1])))
    let laced = bytes[header + 2] & 0x06 != 0
    let frames = laced && header + 3 < range.upperBound ? Int(bytes[header + 3]) + 1 : 1
    let block = LastBlock(ticks: clusterTime + offset, frames: frames, duration: duration)
    let number = Int(track)
    if let last = blocks[number], last.ticks > block.ticks { return }
    blocks[number] = block
  }
}
