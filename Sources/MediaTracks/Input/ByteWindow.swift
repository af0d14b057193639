/// A stretch of another ``ByteSource`` as a source of its own: the `data` chunk of a WAVE
/// file holding MPEG audio frames, walked as a raw stream is (``ElementaryFrames``). Offsets
/// are from the window's start; reads never go past its end.
struct ByteWindow: ByteSource {
  /// The source the window looks into.
  let base: any ByteSource
  /// Where the window starts in `base`, in bytes.
  let start: Int64
  /// The window's length in bytes (at most what `base` holds after `start`).
  let size: Int64

  var name: String { base.name }

  /// The `length` bytes of `base` from `start`, clamped to the end of `base`.
  init(_ base: any ByteSource, start: Int64, length: Int64) {
    self.base = base
    self.start = max(0, start)
    self.size = max(0, min(length, base.size - self.start))
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(MediaError)
    -> Int
  {
    guard offset >= 0, offset < size else { return 0 }
    let count = Int(min(Int64(buffer.count), size - offset))
    return try base.read(
      into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: start + offset)
  }
}
