#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the RIFF header of a WAVE file, to tell a truncated file from a complete one.
///
/// FFmpeg's WAVE demuxer clamps the `data` chunk to the file's size, so a file cut short
/// decodes without an error; the chunk size the header declares says otherwise.
enum WaveHeader {
  /// Whether the `data` chunk declared in `path`'s header runs past the end of the file.
  /// Unknown sizes (0, or the 0xFFFFFFFF family streaming writers use) and files that are not
  /// plain RIFF/WAVE give `false`.
  static func isTruncated(path: String) -> Bool {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return false }
    let fileSize = Int(info.st_size)
    var header = [UInt8](repeating: 0, count: 65_536)
    let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count >= 12 else { return false }
    func word(_ at: Int) -> Int {
      Int(header[at]) | Int(header[at + 1]) << 8 | Int(header[at + 2]) << 16
        | Int(header[at + 3]) << 24
    }
    func tag(_ at: Int, _ text: StaticString) -> Bool {
      let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
      return header[at..<(at + 4)].elementsEqual(bytes)
    }
    guard tag(0, "RIFF"), tag(8, "WAVE") else { return false }
    var offset = 12
    while offset + 8 <= count {
      let size = word(offset + 4)
      if tag(offset, "data") {
        guard size > 0, size < 0xFFFF_FF00 else { return false }
        return offset + 8 + size > fileSize
      }
      offset += 8 + size + (size & 1)
    }
    return false
  }
}
