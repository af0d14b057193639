/// Decodes plain PCM WAVE files in Swift, without FFmpeg: 16, 24 and 32-bit integer and 32-bit
/// float samples, in a plain or a `WAVE_FORMAT_EXTENSIBLE` header, little-endian (`RIFF`) or
/// big-endian (`RIFX`, which FFmpeg 5.1 decodes as little-endian: noise).
///
/// It gives what FFmpeg's WAVE demuxer, PCM decoders and float conversion give for the same
/// file: the same rate, channels, layout name, duration and samples (integers scaled by
/// 2^-(bits-1)), and the same errors for a file cut short. One exception: an EXTENSIBLE header
/// stating fewer valid bits than the container holds (24 in 32) is integer PCM read at the
/// container's size, where FFmpeg 5.1 takes it for 24-bit float and gives silence. Anything else (another encoding, a
/// header it does not read, a data size a streaming writer left unset, a pipe) is not taken:
/// ``init(path:)`` returns `nil` before reading any audio, and FFmpeg decodes the file.
final class WaveReader {
  /// How the samples are stored.
  enum Encoding {
    case int16, int24, int32, float32
  }

  let sampleRate: Int
  let channels: Int
  /// The duration the header states; `nil` for a file cut short, as FFmpeg reports it.
  let duration: Double?
  let channelLayoutName: String
  /// The speakers as a WAVE channel mask: 0 when a header of more than two channels assigns
  /// them none (an EXTENSIBLE mask of 0, or a plain header), nil for the default layout of one
  /// or two channels.
  let channelMask: UInt64?

  private let path: String
  /// The file, read at ``position``.
  private let source: FileBytes
  /// Where the next audio byte is read, in bytes from the start of the file.
  private var position: Int64
  private let encoding: Encoding
  /// Whether the samples are big-endian (a `RIFX` file).
  private let bigEndian: Bool
  private let bytesPerFrame: Int
  /// Whole frames of audio left in the file.
  private var framesLeft: Int
  /// Whether the header states more audio than the file holds.
  private let truncated: Bool
  private var framesDecoded = 0
  private var bytes: [UInt8] = []

  /// Opens `path` when it is a plain PCM WAVE file this reader decodes.
  ///
  /// - Returns: `nil` when the file is something else (FFmpeg then opens it).
  /// - Throws: `MediaError` with kind `.notFound` when the file cannot be opened, as FFmpeg
  ///   reports it.
  init?(path: String) throws(MediaError) {
    // Only a regular file, checked before opening it: opening a pipe has effects on its writer,
    // and its bytes cannot be given back to FFmpeg once read. Anything else (a missing file, a
    // folder, a URL) is FFmpeg's to open and to report.
    guard let source = try FileBytes(path: path), let format = WaveReader.parse(head: source)
    else { return nil }
    // IEC 61937 (S/PDIF) bursts of AC-3, DTS or AAC carried as 16-bit PCM: FFmpeg's WAVE
    // demuxer finds them and decodes the codec inside; read as PCM they are full-scale noise.
    if format.encoding == .int16, !format.bigEndian,
      WaveReader.holdsIEC61937(
        source.head(format.dataOffset + Self.burstSearchBytes), from: format.dataOffset)
    {
      return nil
    }
    let fileSize = Int(source.size)
    let available = max(0, min(format.dataSize, fileSize - format.dataOffset))
    self.path = path
    self.source = source
    position = Int64(format.dataOffset)
    encoding = format.encoding
    bigEndian = format.bigEndian
    sampleRate = format.sampleRate
    channels = format.channels
    bytesPerFrame = format.blockAlign
    framesLeft = available / format.blockAlign
    truncated = format.dataOffset + format.dataSize > fileSize
    duration =
      truncated ? nil : Double(format.dataSize / format.blockAlign) / Double(format.sampleRate)
    channelLayoutName = format.layoutName
    channelMask = format.channelMask
  }

  /// How far into the data ``holdsIEC61937(_:from:)`` looks for a burst, in bytes: FFmpeg's
  /// WAVE demuxer probes about as much, and a burst repeats every 6,144 bytes for AC-3 (2,048
  /// or more for DTS).
  static let burstSearchBytes = 16_384

  /// Whether the 16-bit little-endian samples in `bytes` from `start` hold an IEC 61937 burst
  /// preamble (the sync words Pa = 0xF872 and Pb = 0x4E1F, at a sample boundary): compressed
  /// audio passed through as PCM, not PCM. Two sync words in a row at one of 8,192 positions
  /// are about a chance in a million for real audio, and then FFmpeg decodes the file as PCM
  /// still, only more slowly.
  static func holdsIEC61937(_ bytes: ArraySlice<UInt8>, from start: Int) -> Bool {
    var i = bytes.startIndex + start
    while i + 4 <= bytes.endIndex {
      if bytes[i] == 0x72, bytes[i + 1] == 0xF8, bytes[i + 2] == 0x1F, bytes[i + 3] == 0x4E {
        return true
      }
      i += 2
    }
    return false
  }

  /// Decodes up to `maxFrames` frames into the start of `buffer` (grown when smaller).
  /// Returns the frames written, `0` at the end of the audio.
  func read(into buffer: inout [Float], maxFrames: Int) throws(MediaError) -> Int {
    let wanted = maxFrames * channels
    if buffer.count < wanted {
      buffer.append(contentsOf: repeatElement(0, count: wanted - buffer.count))
    }
    let frames = min(maxFrames, framesLeft)
    if frames == 0 { return try end() }
    let byteCount = frames * bytesPerFrame
    // Little-endian float samples are read straight into `buffer`; the others go through
    // `bytes`, allocated without being filled first (the read overwrites what is used).
    let direct = encoding == .float32 && !bigEndian && Int(littleEndian: 1) == 1
    if !direct && bytes.count < byteCount {
      bytes = [UInt8](unsafeUninitializedCapacity: byteCount) { _, count in count = byteCount }
    }
    let filled =
      direct
      ? try readBytes(into: &buffer, count: byteCount)
      : try readBytes(into: &bytes, count: byteCount)
    if filled < byteCount {
      // The file ends before the size its header declares: it shrank while it was read (a file
      // already short when opened ends where it ends, and `end` reports it).
      framesLeft = 0
      throw truncatedError()
    }
    let got = frames
    framesLeft -= got
    if !direct { convert(samples: got * channels, into: &buffer) }
    framesDecoded += got
    return got
  }

  /// Reads the next `count` bytes of audio into the start of `array`'s memory; returns how
  /// many there were (fewer at the end of the file).
  private func readBytes<Element>(
    into array: inout [Element], count: Int
  ) throws(MediaError) -> Int {
    var failure: MediaError? = nil
    let source = source
    let position = position
    let filled = array.withUnsafeMutableBytes { raw -> Int in
      do throws(MediaError) {
        // Never past the array's memory, whatever a header claims (the caller sizes it).
        return try source.read(
          into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<min(count, raw.count)]),
          at: position)
      } catch {
        failure = error
        return 0
      }
    }
    if let failure {
      throw MediaError(
        kind: .malformed, code: failure.code, operation: "av_read_frame",
        detail: "cannot read the audio of '\(path)'")
    }
    self.position += Int64(filled)
    return filled
  }

  /// The end of the audio: `0`, or the error FFmpeg reports for an empty or cut-short file.
  private func end() throws(MediaError) -> Int {
    if framesDecoded == 0 {
      throw MediaError(
        kind: .malformed, operation: "avcodec_receive_frame",
        detail: "no decodable audio in '\(path)'")
    }
    if truncated { throw truncatedError() }
    return 0
  }

  /// The error for audio that ends before the size the header declares, as FFmpeg's path
  /// reports it.
  private func truncatedError() -> MediaError {
    MediaError(
      kind: .malformed, operation: "av_read_frame",
      detail: "'\(path)' is truncated: its audio ends long before its stated duration")
  }

  /// Converts `count` samples from `bytes` to floats at the start of `buffer`, as FFmpeg's
  /// sample conversion does (big-endian ones are put in little-endian order first).
  private func convert(samples count: Int, into buffer: inout [Float]) {
    let encoding = encoding
    if bigEndian {
      let width = bytesPerFrame / channels
      bytes.withUnsafeMutableBytes { raw in
        for start in stride(from: 0, to: count * width, by: width) {
          var low = start
          var high = start + width - 1
          while low < high {
            raw.swapAt(low, high)
            low += 1
            high -= 1
          }
        }
      }
    }
    // One loop per encoding, alike on purpose: each keeps its load and scale inside its loop.
    bytes.withUnsafeBytes { raw in
      buffer.withUnsafeMutableBufferPointer { out in
        switch encoding {
        case .int16:
          for i in 0..<count {
            let value = Int16(
              littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))
            out[i] = Float(value) * (1 / 32_768)
          }
        case .int24:
          for i in 0..<count {
            let low = UInt32(raw[3 * i]) | UInt32(raw[3 * i + 1]) << 8
            let value = Int32(bitPattern: (low | UInt32(raw[3 * i + 2]) << 16) << 8)
            out[i] = Float(value) * (1 / 2_147_483_648)
          }
        case .int32:
          for i in 0..<count {
            let value = Int32(
              littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self))
            out[i] = Float(value) * (1 / 2_147_483_648)
          }
        case .float32:
          for i in 0..<count {
            let bits = UInt32(
              littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
            out[i] = Float(bitPattern: bits)
          }
        }
      }
    }
  }
}

extension WaveReader {
  /// The facts of a WAVE header this reader takes.
  struct Format {
    var encoding: Encoding
    var sampleRate: Int
    var channels: Int
    var blockAlign: Int
    var layoutName: String
    /// The EXTENSIBLE header's channel mask, or nil (none, or 0: the default layout).
    var channelMask: UInt64?
    var dataOffset: Int
    var dataSize: Int
    /// The bits of each sample that carry audio: fewer than the container's in an EXTENSIBLE
    /// header that states so (24 in 32), else the container's.
    var validBits: Int
    /// The container's bits per sample.
    var containerBits: Int
    /// Whether the file is `RIFX`: its samples are big-endian.
    var bigEndian = false
  }

  /// Parses the header of `source`: from its first 4 KiB, where the `data` chunk of almost
  /// every file starts, else from its first 64 KiB (the same result, read further: the chunks
  /// are walked in order, and what decides it lies before the `data` chunk's body).
  static func parse(head source: FileBytes) -> Format? {
    let first = source.head(4_096)
    if let format = parse(first) { return format }
    guard first.count == 4_096, WaveHeader.isBigEndian(first) != nil else { return nil }
    return parse(source.head())
  }

  /// Parses the RIFF header in `header` (the first bytes of a file).
  static func parse(_ header: ArraySlice<UInt8>) -> Format? {
    let base = header.startIndex
    guard let bigEndian = WaveHeader.isBigEndian(header) else { return nil }
    func u16(_ at: Int) -> Int { WaveHeader.u16(header, base + at, bigEndian: bigEndian) }
    func u32(_ at: Int) -> Int { WaveHeader.u32(header, base + at, bigEndian: bigEndian) }
    var format: Format? = nil
    var result: Format? = nil
    WaveHeader.forEachChunk(in: header) { chunk in
      let at = chunk.bodyOffset - base
      if chunk.is("fmt ") {
        guard format == nil, chunk.size >= 16, at + chunk.size <= header.count else { return false }
        format = parseFormat(at: at, size: chunk.size, bigEndian: bigEndian, u16: u16, u32: u32)
        format?.bigEndian = bigEndian
        return format != nil
      }
      guard chunk.is("data") else { return true }
      // An unset size (see `WaveHeader.isUnsetSize`) goes to FFmpeg.
      if var found = format, !WaveHeader.isUnsetSize(chunk.size) {
        found.dataOffset = at
        found.dataSize = chunk.size
        result = found
      }
      return false
    }
    return result
  }

  /// Parses a `fmt ` chunk's body of `size` bytes at `at`.
  private static func parseFormat(
    at: Int, size: Int, bigEndian: Bool, u16: (Int) -> Int, u32: (Int) -> Int
  ) -> Format? {
    var formatTag = u16(at)
    let channels = u16(at + 2)
    let sampleRate = u32(at + 4)
    let blockAlign = u16(at + 12)
    let bits = u16(at + 14)
    var mask = 0
    var validBits = 0
    if formatTag == 0xFFFE {
      // cbSize, valid bits, channel mask, then the sub-format GUID.
      guard size >= 40, u16(at + 16) >= 22 else { return nil }
      // Integer samples with fewer valid bits than their container (24 in 32) are stored
      // high-aligned, the low bits zero: they read as the container's integers.
      validBits = u16(at + 18)
      guard validBits == 0 || validBits == bits || (8..<bits).contains(validBits) else {
        return nil
      }
      mask = u32(at + 20)
      // The sub-format GUID: the format tag, then the base GUID's bytes. RIFX writers store
      // it two ways: with the bytes after the tag as in RIFF (sox: read big-endian, each word
      // is the little-endian one swapped), or with its fields big-endian (SciPy).
      let guidTail: [UInt16] = [0x0000, 0x0000, 0x0010, 0x0080, 0xAA00, 0x3800, 0x719B]
      let bigEndianTail = [0x0000, 0x0010, 0x8000, 0x00AA, 0x0038, 0x9B71]
      if guidTail.indices.allSatisfy({ i in
        u16(at + 26 + 2 * i) == Int(bigEndian ? guidTail[i].byteSwapped : guidTail[i])
      }) {
        formatTag = u16(at + 24)
      } else if bigEndian,
        bigEndianTail.indices.allSatisfy({ u16(at + 28 + 2 * $0) == bigEndianTail[$0] })
      {
        formatTag = u32(at + 24)
      } else {
        return nil
      }
    }
    let encoding: Encoding
    switch (formatTag, bits) {
    case (1, 16): encoding = .int16
    case (1, 24): encoding = .int24
    case (1, 32): encoding = .int32
    case (3, 32): encoding = .float32
    default: return nil
    }
    if encoding == .float32 && validBits != 0 && validBits != bits { return nil }
    guard (1...64).contains(channels), (1...768_000).contains(sampleRate),
      blockAlign == channels * bits / 8,
      let layoutName = layoutName(channels: channels, mask: mask)
    else { return nil }
    return Format(
      encoding: encoding, sampleRate: sampleRate, channels: channels, blockAlign: blockAlign,
      layoutName: layoutName, channelMask: mask == 0 && channels <= 2 ? nil : UInt64(mask),
      dataOffset: 0,
      dataSize: 0, validBits: validBits == 0 ? bits : validBits, containerBits: bits)
  }

  /// The clean layout name FFmpeg gives a WAVE channel mask, or `nil` for a mask this reader
  /// does not name (FFmpeg then decodes the file).
  static func layoutName(channels: Int, mask: Int) -> String? {
    if mask == 0 { return ChannelLayout.defaultName(channels: channels) }
    guard mask.nonzeroBitCount == channels else { return nil }
    switch mask {
    case 0x4: return "mono"
    case 0x3: return "stereo"
    case 0xB: return "2.1"
    case 0x7, 0x103: return "3.0"
    case 0x107: return "4.0"
    case 0x33, 0x603: return "quad"
    case 0x37, 0x607: return "5.0"
    case 0x3F, 0x60F: return "5.1"
    case 0x70F, 0x13F: return "6.1"
    case 0x63F, 0xFF: return "7.1"
    default: return nil
    }
  }
}
