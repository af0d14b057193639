/// Counts the chunks an AVI file's `movi` lists hold per stream, for a file without an index
/// (`idx1`), where FFmpeg's demuxer indexes only the packets it read while probing.
enum AVIChunks {
  /// The most chunk headers read: a file of more is not counted (`nil`).
  static let maxChunks = 1 << 20

  /// How many non-empty chunks of stream `stream` (ids `nnwb`, `nnwc`, `nndc`, `nndb`, `nnpc`:
  /// `nn` its number in decimal) the `movi` lists of `source` hold, in the `RIFF AVI ` and any
  /// `RIFF AVIX` (OpenDML) parts, `rec ` lists included; `nil` when the file is not AVI, has
  /// no `movi` list, or has more than ``maxChunks`` chunks.
  /// - Complexity: O(*n*) in the number of chunks, each header read on its own (8 bytes).
  static func count(stream: Int, in source: some ByteSource) -> Int? {
    guard stream >= 0, stream < 100 else { return nil }
    let head = source.bytes(at: 0, count: 12)
    guard head.count == 12, head.starts(with: Array("RIFF".utf8)),
      Array(head[8..<12]) == Array("AVI ".utf8)
    else { return nil }
    let tens = UInt8(ascii: "0") + UInt8(stream / 10)
    let ones = UInt8(ascii: "0") + UInt8(stream % 10)
    var count = 0
    var headers = 0
    var foundMovie = false
    // Ranges of lists still to walk: the file's RIFF parts first.
    var pending: [(start: Int64, end: Int64)] = [(0, source.size)]
    var topLevel = true
    while let range = pending.popLast() {
      var at = range.start
      while at + 8 <= range.end {
        headers += 1
        if headers > maxChunks { return nil }
        let header = source.bytes(at: at, count: 12)
        guard header.count >= 8 else { break }
        let size =
          Int64(header[4]) | Int64(header[5]) << 8 | Int64(header[6]) << 16
          | Int64(header[7]) << 24
        let id = Array(header[0..<4])
        let body = at + 8
        let end = min(range.end, body + size)
        if topLevel {
          // RIFF parts: walk each one's chunks.
          if id == Array("RIFF".utf8), header.count == 12 { pending.insert((body + 4, end), at: 0) }
        } else if id == Array("LIST".utf8), header.count == 12 {
          let type = Array(header[8..<12])
          if type == Array("movi".utf8) {
            foundMovie = true
            pending.append((body + 4, end))
          } else if type == Array("rec ".utf8) {
            pending.append((body + 4, end))
          }
        } else if id[0] == tens, id[1] == ones, size > 0 {
          count += 1
        }
        // Chunks are padded to an even size.
        at = body + size + (size & 1)
      }
      topLevel = false
    }
    return foundMovie ? count : nil
  }
}
