#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a 16-bit PCM WAVE file in Swift, without FFmpeg, laid out as FFmpeg's WAVE muxer lays
/// it out (a plain `fmt ` chunk, or `WAVE_FORMAT_EXTENSIBLE` with FFmpeg's default channel mask
/// for more than two channels or rates above 48 kHz), without FFmpeg's `LIST` chunk naming the
/// writing library. Samples are converted as FFmpeg converts floats to 16 bits: scaled by 32768,
/// rounded to nearest (ties to even) and clipped.
///
/// Created by name, the file is closed and removed unless ``finish()`` succeeded, when the writer
/// goes away (or at ``discard()``), so a failure never leaves a partial file. Given a caller's
/// descriptor, the writer neither closes nor removes it. An output that cannot seek (a pipe, a
/// device) gets a streaming header, whose sizes say "unknown" (`0xFFFFFFFF`, as FFmpeg writes
/// to a pipe).
final class WaveWriter {
  private let path: String
  private let channels: Int
  private var descriptor: Int32
  /// Whether the writer opened `descriptor` itself (and so closes it, and removes the file).
  private let ownsDescriptor: Bool
  /// Whether the sizes are filled in at the end (false for a streaming header).
  private let seekable: Bool
  private let headerSize: Int
  /// Where the header starts in a seekable file (the descriptor's offset when the writer began).
  private let start: off_t
  private var dataSize = 0
  private var committed = false
  private var bytes: [Int16] = []
  /// The clip's bounds, scaled samples (see ``write(_:frames:)``). Stored rather than literal
  /// constants: the compiler then keeps the clip as one minimum and one maximum instruction
  /// instead of carrying its comparisons through the conversion that follows.
  private var clipLow: Float = -32_768
  private var clipHigh: Float = 32_767
  /// Whether the data written is handed to the disk as it goes (see ``writebackBytes``): a
  /// caller's regular file, which the caller syncs when complete (as `mtool` does before
  /// renaming its output into place).
  private let startsWriteback: Bool
  /// The data bytes already handed to the disk.
  private var writebackStart = 0
  /// The data handed to the disk at a time: the kernel writes it while the caller computes
  /// what follows, so the final sync waits for the last of it alone (syncing 40 MB at the end
  /// took 17 ms, a tenth of a minute of stereo stretched to half speed). A quarter MiB, so that
  /// a few seconds of output (a few hundred KB) are not all left for the sync either.
  static let writebackBytes = 1 << 18

  /// Creates (or truncates) the destination's file, or takes its descriptor, and writes a
  /// header with placeholder sizes (or a streaming header when the output cannot seek).
  ///
  /// - Throws: `MediaError` with kind `.outputFailed` when the file cannot be created.
  init(
    destination: OutputDestination, sampleRate: Int, channels: Int, channelMask: UInt64? = nil
  ) throws(MediaError) {
    path = destination.path
    self.channels = channels
    if let given = destination.descriptor {
      descriptor = given
      ownsDescriptor = false
    } else {
      descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
      ownsDescriptor = true
      if descriptor < 0 {
        throw MediaError(
          kind: .outputFailed, code: -errno, operation: "avio_open",
          detail: "cannot create '\(path)'")
      }
    }
    var info = stat()
    // A regular file, written from where its descriptor stands (a caller's standard output may
    // stand past other bytes), and not in append mode (where every write, the sizes' too, goes
    // to the end): its sizes are filled in there at the end.
    start = lseek(descriptor, 0, SEEK_CUR)
    seekable =
      fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && start >= 0
      && fcntl(descriptor, F_GETFL) & O_APPEND == 0
    startsWriteback = seekable && !ownsDescriptor
    var header = WaveWriter.header(sampleRate: sampleRate, channels: channels, mask: channelMask)
    headerSize = header.count
    if !seekable {
      for offset in [4, header.count - 4] {
        header.replaceSubrange(offset..<offset + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
      }
    }
    let code = header.withUnsafeBytes { writeAll($0) }
    if code < 0 {
      throw MediaError(
        kind: .outputFailed, code: code, operation: "avformat_write_header",
        detail: "cannot write the header of '\(path)'")
    }
  }

  deinit { discard() }

  /// Converts and appends `frames` interleaved frames at `samples`.
  ///
  /// - Throws: `MediaError` with kind `.outputFailed` when writing fails or the data would pass
  ///   the 4 GiB a WAVE file can describe.
  func write(_ samples: UnsafePointer<Float>?, frames: Int) throws(MediaError) {
    guard let samples, frames > 0 else { return }
    let count = frames * channels
    guard !seekable || dataSize + 2 * count <= 0xFFFF_FFFF - headerSize else {
      throw MediaError(
        kind: .outputFailed, operation: "av_interleaved_write_frame",
        detail: "cannot write '\(path)': more audio than a WAVE file can hold")
    }
    if bytes.count < count {
      // Allocated without being filled first: the conversion writes what is written out.
      bytes = [Int16](unsafeUninitializedCapacity: count) { _, initialized in
        initialized = count
      }
    }
    let code = bytes.withUnsafeMutableBufferPointer { out -> Int32 in
      // Adding 1.5 * 2^23 to a value of at most 2^22 in size rounds it to an integer (ties to
      // even) held in the low mantissa bits: the sample is the bit pattern less that of
      // 1.5 * 2^23. No branch and no checked conversion, so the loop vectorises; each step
      // below is one vector instruction (NaN, which equals nothing, becomes 0; then the clip,
      // each comparison written in the operand order of the processor's min and max, and the
      // narrowing, whose saturation the clip makes exact).
      let magic: Float = 12_582_912
      let low = clipLow
      let high = clipHigh
      for i in 0..<count {
        var x = samples[i] * 32_768
        x = x < low ? low : x
        x = x > high ? high : x
        x = x == x ? x : 0
        out[i] = Int16(truncatingIfNeeded: (x + magic).bitPattern).littleEndian
      }
      return writeAll(UnsafeRawBufferPointer(start: out.baseAddress, count: 2 * count))
    }
    if code < 0 {
      throw MediaError(
        kind: .outputFailed, code: code, operation: "av_interleaved_write_frame",
        detail: "cannot write '\(path)'")
    }
    dataSize += 2 * count
    if startsWriteback && dataSize - writebackStart >= Self.writebackBytes {
      // Dirty pages are written back (asynchronously) rather than dropped; the advice fails
      // only on a descriptor that is not a regular file, and the data is synced later anyway.
      _ = posix_fadvise(
        descriptor, start + off_t(headerSize + writebackStart), off_t(dataSize - writebackStart),
        POSIX_FADV_DONTNEED)
      writebackStart = dataSize
    }
  }

  /// Fills in the RIFF and data sizes and closes the file, which then stays.
  ///
  /// - Throws: `MediaError` with kind `.outputFailed` when the sizes cannot be written or the
  ///   file cannot be closed.
  func finish() throws(MediaError) {
    var riffSize = UInt32(truncatingIfNeeded: headerSize - 8 + dataSize).littleEndian
    var chunkSize = UInt32(truncatingIfNeeded: dataSize).littleEndian
    var code: Int32 = 0
    if seekable
      && (pwrite(descriptor, &riffSize, 4, start + 4) != 4
        || pwrite(descriptor, &chunkSize, 4, start + off_t(headerSize - 4)) != 4)
    {
      code = -errno
    }
    if ownsDescriptor {
      let closed = close(descriptor)
      if code == 0 && closed != 0 { code = -errno }
    }
    descriptor = -1
    if code < 0 {
      throw MediaError(
        kind: .outputFailed, code: code, operation: "av_write_trailer",
        detail: "cannot finish '\(path)'")
    }
    committed = true
  }

  /// Closes and removes the output file now (idempotent; nothing once finished).
  func discard() {
    guard !committed else { return }
    if descriptor >= 0 && ownsDescriptor {
      close(descriptor)
      var info = stat()
      if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { unlink(path) }
    }
    descriptor = -1
  }

  /// Writes all of `buffer` at the current position; `0`, or a negative errno value.
  private func writeAll(_ buffer: UnsafeRawBufferPointer) -> Int32 {
    var done = 0
    while done < buffer.count {
      guard let base = buffer.baseAddress else { return 0 }
      let count = systemWrite(descriptor, base + done, buffer.count - done)
      if count < 0 {
        if errno == EINTR { continue }
        return -errno
      }
      done += count
    }
    return 0
  }

  /// The header up to and including the `data` chunk's size field (filled in at the end).
  /// The header (sizes 0 until finished); `mask` names the speakers (0: none assigned, kept as
  /// the input stated it; nil or one that does not name `channels` speakers: FFmpeg's default
  /// layout for the count).
  static func header(sampleRate: Int, channels: Int, mask: UInt64? = nil) -> [UInt8] {
    var bytes: [UInt8] = []
    func tag(_ text: String) { bytes.append(contentsOf: text.utf8) }
    func u16(_ value: Int) {
      bytes.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)])
    }
    func u32(_ value: Int) {
      u16(value & 0xFFFF)
      u16(value >> 16 & 0xFFFF)
    }
    let defaultMask = defaultChannelMask(channels: channels)
    // A mask of 0 (speakers not assigned, as the input said) is kept; one that does not name
    // `channels` speakers gives way to the default.
    let speakers =
      mask.flatMap { $0 == 0 || $0.nonzeroBitCount == channels ? Int($0) : nil } ?? defaultMask
    // FFmpeg's rule: extensible above two channels (which have a layout) and above 48 kHz; and
    // for a layout other than the default (mono or stereo on other speakers).
    let extensible = channels > 2 || sampleRate > 48_000 || speakers != defaultMask
    tag("RIFF")
    u32(0)
    tag("WAVE")
    tag("fmt ")
    u32(extensible ? 40 : 16)
    u16(extensible ? 0xFFFE : 1)
    u16(channels)
    u32(sampleRate)
    u32(sampleRate * channels * 2)
    u16(channels * 2)
    u16(16)
    if extensible {
      u16(22)
      u16(16)
      u32(speakers)
      // KSDATAFORMAT_SUBTYPE_PCM.
      u32(1)
      u32(0x0010_0000)
      u32(0xAA00_0080)
      u32(0x719B_3800)
    }
    tag("data")
    u32(0)
    return bytes
  }

  /// The mask of FFmpeg's default layout for `channels` (as `av_channel_layout_default`).
  static func defaultChannelMask(channels: Int) -> Int {
    switch channels {
    case 1: return 0x4
    case 2: return 0x3
    case 3: return 0xB
    case 4: return 0x107
    case 5: return 0x37
    case 6: return 0x3F
    case 7: return 0x70F
    case 8: return 0x63F
    default: return 0
    }
  }
}

/// `write(2)`, which a method named `write` would hide.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
