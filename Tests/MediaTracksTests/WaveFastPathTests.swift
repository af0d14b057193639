import Testing

@testable import MediaTracks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The WAVE fast path (decoding and encoding in Swift) against FFmpeg on the same files.

private func scratch(_ name: String) -> String {
  "/tmp/mediatracks-wave-\(getpid())-\(name)"
}

/// Deterministic bytes (a linear congruential sequence).
private func noise(_ count: Int, seed: UInt32) -> [UInt8] {
  var state = seed
  return (0..<count).map { _ in
    state = state &* 1_664_525 &+ 1_013_904_223
    return UInt8(truncatingIfNeeded: state >> 24)
  }
}

private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
private func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }

/// A WAVE file: `fmt ` with `tag`, optional extensible fields, extra chunks, then `data`.
private struct WaveSpec: CustomTestStringConvertible {
  var name: String
  var tag: Int
  var channels: Int
  var rate: Int
  var bits: Int
  var mask: Int? = nil
  var subformat = 1
  var extraChunk = false
  var frames = 3000
  var declaredExtra = 0
  var floats = false
  /// The `data` size the header declares instead of the real one (a streaming writer's 0 or
  /// 0xFFFFFFFF), and the RIFF size with it.
  var streamingSize: Int? = nil

  var testDescription: String { name }

  func bytes() -> [UInt8] {
    let blockAlign = channels * bits / 8
    var fmt = le16(mask == nil ? tag : 0xFFFE) + le16(channels) + le32(rate)
    fmt += le32(rate * blockAlign) + le16(blockAlign) + le16(bits)
    if let mask {
      fmt += le16(22) + le16(bits) + le32(mask) + le16(subformat) + le16(0)
      fmt += [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
    }
    var data: [UInt8]
    if floats {
      data = []
      var state: UInt32 = 7
      for _ in 0..<(frames * channels) {
        state = state &* 1_664_525 &+ 1_013_904_223
        let value = Float(Int32(bitPattern: state)) / Float(Int32.max)
        data += le32(Int(value.bitPattern))
      }
    } else {
      data = noise(frames * blockAlign, seed: UInt32(bits * 31 + channels))
    }
    var body = Array("WAVE".utf8) + Array("fmt ".utf8) + le32(fmt.count) + fmt
    if extraChunk {
      body += Array("LIST".utf8) + le32(5) + Array("INFOx".utf8) + [0]
      body += Array("fact".utf8) + le32(4) + le32(frames)
    }
    body += Array("data".utf8) + le32(streamingSize ?? (data.count + declaredExtra)) + data
    return Array("RIFF".utf8) + le32(streamingSize ?? body.count) + body
  }
}

private let specs: [WaveSpec] = [
  WaveSpec(name: "s16 stereo", tag: 1, channels: 2, rate: 44_100, bits: 16),
  WaveSpec(name: "s24 mono", tag: 1, channels: 1, rate: 48_000, bits: 24),
  WaveSpec(name: "s32 5.1 extensible", tag: 1, channels: 6, rate: 48_000, bits: 32, mask: 0x3F),
  WaveSpec(name: "f32 stereo 96k", tag: 3, channels: 2, rate: 96_000, bits: 32, floats: true),
  WaveSpec(
    name: "f32 extensible, no mask", tag: 3, channels: 4, rate: 32_000, bits: 32, mask: 0,
    subformat: 3, floats: true),
  WaveSpec(
    name: "s16 5.0(side) extensible", tag: 1, channels: 5, rate: 22_050, bits: 16, mask: 0x607),
  WaveSpec(name: "s16 three channels", tag: 1, channels: 3, rate: 8000, bits: 16),
  WaveSpec(
    name: "s16 with odd LIST and fact chunks", tag: 1, channels: 2, rate: 44_100, bits: 16,
    extraChunk: true),
  WaveSpec(
    name: "s16 truncated", tag: 1, channels: 2, rate: 44_100, bits: 16, declaredExtra: 40_000),
  WaveSpec(
    name: "s24 cut inside the first frame", tag: 1, channels: 2, rate: 44_100, bits: 24,
    frames: 0, declaredExtra: 4),
  WaveSpec(name: "u8 (FFmpeg)", tag: 1, channels: 1, rate: 8000, bits: 8),
  WaveSpec(name: "A-law (FFmpeg)", tag: 6, channels: 1, rate: 8000, bits: 8),
]

/// Everything a decoder reports for a file: facts, samples as bit patterns, or the error.
private struct Decoded: Equatable {
  var facts: [String] = []
  var samples: [UInt32] = []
  var error: MediaError? = nil
}

private func decode(_ path: String, fastPath: Bool) -> Decoded {
  var result = Decoded()
  do {
    var decoder = try AudioDecoder(path: path, streamIndex: nil, waveFastPath: fastPath)
    result.facts = [
      "\(decoder.sampleRate)", "\(decoder.channels)", "\(decoder.streamIndex)",
      "\(decoder.duration.map { String($0) } ?? "nil")", decoder.channelLayoutName,
    ]
    var buffer: [Float] = []
    while true {
      let frames = try decoder.read(into: &buffer, maxFrames: 1000)
      if frames == 0 { break }
      result.samples += buffer[0..<frames * decoder.channels].map(\.bitPattern)
    }
  } catch {
    result.error = error
  }
  return result
}

@Test(arguments: specs)
private func fastPathDecodesAsFFmpegDoes(spec: WaveSpec) throws {
  let path = scratch("decode-\(spec.name.filter(\.isLetter)).wav")
  let bytes = spec.bytes()
  let file = try #require(fopen(path, "wb"))
  #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
  fclose(file)
  defer { unlink(path) }
  let fast = decode(path, fastPath: true)
  let ffmpeg = decode(path, fastPath: false)
  #expect(fast.facts == ffmpeg.facts)
  #expect(fast.samples.count == ffmpeg.samples.count)
  #expect(fast.samples == ffmpeg.samples, "samples differ")
  #expect(fast.error == ffmpeg.error)
  let taken = WaveReader.parse(bytes[...]) != nil
  #expect(taken == !spec.name.hasSuffix("(FFmpeg)"))
}

@Test func fastPathTakesTheClipFixture() throws {
  let fast = decode(fixtures + "/clip.wav", fastPath: true)
  let ffmpeg = decode(fixtures + "/clip.wav", fastPath: false)
  #expect(fast.facts == ffmpeg.facts)
  #expect(fast.samples == ffmpeg.samples, "samples differ")
  #expect(fast.error == nil && ffmpeg.error == nil)
  #expect(!fast.samples.isEmpty)
}

@Test func fastPathReportsMissingFilesAndFoldersAsFFmpegDoes() {
  for path in ["/tmp/no-such-\(getpid()).wav", "/tmp"] {
    let fast = decode(path, fastPath: true)
    let ffmpeg = decode(path, fastPath: false)
    #expect(fast.error?.kind == .notFound)
    #expect(fast.error == ffmpeg.error)
    #expect(fast.error?.description == ffmpeg.error?.description)
  }
}

/// The chunks of a RIFF file by tag, in order.
private func chunks(_ bytes: [UInt8]) -> [(String, [UInt8])] {
  var result: [(String, [UInt8])] = []
  var offset = 12
  while offset + 8 <= bytes.count {
    let tag = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    let size =
      Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
      | Int(bytes[offset + 7]) << 24
    let end = min(bytes.count, offset + 8 + size)
    result.append((tag, Array(bytes[(offset + 8)..<end])))
    offset += 8 + size + (size & 1)
  }
  return result
}

private func readFile(_ path: String) -> [UInt8] {
  guard let file = fopen(path, "rb") else { return [] }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while case let count = fread(&buffer, 1, buffer.count, file), count > 0 {
    bytes += buffer[0..<count]
  }
  return bytes
}

@Test(arguments: [(1, 22_050), (2, 44_100), (6, 48_000), (2, 96_000), (8, 8000)])
func fastPathWritesWhatFFmpegWrites(channels: Int, rate: Int) throws {
  var samples: [Float] = []
  var state: UInt32 = 99
  for i in 0..<(5000 * channels) {
    state = state &* 1_664_525 &+ 1_013_904_223
    samples.append(Float(Int32(bitPattern: state)) / Float(Int32.max) * 1.2)
    if i % 97 == 0 { samples[i] = Float(i % 5) * 0.5 / 32_768 }
  }
  var files: [[UInt8]] = []
  var names: [String] = []
  for fastPath in [true, false] {
    let path = scratch("encode-\(channels)-\(rate)-\(fastPath).wav")
    defer { unlink(path) }
    var encoder = try AudioEncoder(
      path: path, sampleRate: rate, channels: channels, bitRate: nil, waveFastPath: fastPath)
    try encoder.write(samples, frames: 1234)
    try encoder.write(Array(samples[(1234 * channels)...]), frames: 5000 - 1234)
    try encoder.finish()
    names.append("\(encoder.codecName) \(encoder.outputSampleRate)")
    files.append(readFile(path))
  }
  #expect(names[0] == names[1])
  let fast = chunks(files[0]).filter { $0.0 != "LIST" }
  let ffmpeg = chunks(files[1]).filter { $0.0 != "LIST" }
  #expect(fast.map(\.0) == ["fmt ", "data"])
  #expect(fast.map(\.0) == ffmpeg.map(\.0))
  #expect(fast.first?.1 == ffmpeg.first?.1)
  #expect(fast.last?.1 == ffmpeg.last?.1, "data chunks differ")
  #expect(Array(files[0][0..<4]) == Array("RIFF".utf8))
}

/// A caller's descriptor gets the same bytes as a named file, across several of the 256 KiB blocks
/// handed to the disk as they are written, and a last partial one.
@Test func fastPathWriterToADescriptorWritesWhatItWritesByName() throws {
  let frames = 700_001
  var samples = [Float](repeating: 0, count: 2 * frames)
  var state: UInt32 = 7
  for i in samples.indices {
    state = state &* 1_664_525 &+ 1_013_904_223
    samples[i] = Float(Int32(bitPattern: state)) / Float(Int32.max)
  }
  let named = scratch("named.wav")
  let given = scratch("given.wav")
  defer {
    unlink(named)
    unlink(given)
  }
  let descriptor = open(given, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  try #require(descriptor >= 0)
  var toDescriptor = try AudioEncoder(
    fileDescriptor: descriptor, name: given, sampleRate: 44_100, channels: 2)
  var byName = try AudioEncoder(path: named, sampleRate: 44_100, channels: 2)
  var done = 0
  while done < frames {
    let n = min(8192, frames - done)
    let block = Array(samples[(2 * done)..<(2 * (done + n))])
    try toDescriptor.write(block, frames: n)
    try byName.write(block, frames: n)
    done += n
  }
  try toDescriptor.finish()
  try byName.finish()
  #expect(fsync(descriptor) == 0)
  #expect(close(descriptor) == 0)
  let expected = readFile(named)
  #expect(expected.count == 44 + 4 * frames)
  #expect(readFile(given) == expected)
}

@Test func fastPathWriterLeavesNoFileBehind() throws {
  let path = scratch("abandoned.wav")
  do {
    var encoder = try AudioEncoder(path: path, sampleRate: 8000, channels: 1)
    try encoder.write([0.1, 0.2], frames: 2)
    #expect(access(path, F_OK) == 0)
  }
  #expect(access(path, F_OK) != 0)
  var encoder = try AudioEncoder(path: path, sampleRate: 8000, channels: 1)
  #expect(throws: MediaError.self) { try encoder.write([0.1], frames: 2) }
  #expect(access(path, F_OK) != 0)
  let fast = #expect(throws: MediaError.self) {
    _ = try AudioEncoder(path: "/nonexistent-dir/out.wav", sampleRate: 8000, channels: 1)
  }
  let ffmpeg = #expect(throws: MediaError.self) {
    _ = try AudioEncoder(
      path: "/nonexistent-dir/out.wav", sampleRate: 8000, channels: 1, bitRate: nil,
      waveFastPath: false)
  }
  #expect(fast == ffmpeg)
}

@Test func fastPathWriterClipsAndSilencesNaN() throws {
  let path = scratch("clip.wav")
  defer { unlink(path) }
  var encoder = try AudioEncoder(path: path, sampleRate: 8000, channels: 1)
  // Every NaN (negative, with a payload) is silence; the values repeat so that the writer's
  // vector loop takes them in every lane, not only its scalar tail.
  let values: [Float] = [
    .nan, .infinity, -.infinity, 2, -2, 0.5 / 32_768, 1.5 / 32_768, -1, -.nan,
    Float(nan: 0x1234, signaling: false), 1e30, -1e30, 32_767.5 / 32_768, -2.5 / 32_768,
  ]
  let expected: [Int16] = [
    0, 32_767, -32_768, 32_767, -32_768, 0, 2, -32_768, 0, 0, 32_767, -32_768, 32_767, -2,
  ]
  let input = Array(repeating: values, count: 5).joined()
  try encoder.write(Array(input), frames: input.count)
  try encoder.finish()
  let data = try #require(chunks(readFile(path)).last?.1)
  let samples = stride(from: 0, to: data.count, by: 2).map {
    Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)
  }
  #expect(samples == Array(Array(repeating: expected, count: 5).joined()))
}

private func write(_ bytes: [UInt8], to path: String) throws {
  let file = try #require(fopen(path, "wb"))
  #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
  fclose(file)
}

@Test(arguments: [true, false])
func fileCutWhileBeingReadIsTruncated(fastPath: Bool) throws {
  // Ten seconds declared and present when opened; cut to one second after the first read.
  let spec = WaveSpec(name: "long", tag: 1, channels: 2, rate: 44_100, bits: 16, frames: 441_000)
  let path = scratch("shrinking-\(fastPath).wav")
  try write(spec.bytes(), to: path)
  defer { unlink(path) }
  var decoder = try AudioDecoder(path: path, streamIndex: nil, waveFastPath: fastPath)
  var buffer: [Float] = []
  #expect(try decoder.read(into: &buffer, maxFrames: 4096) == 4096)
  #expect(truncate(path, 44 + 44_100 * 4) == 0)
  var frames = 4096
  var failure: MediaError? = nil
  do {
    while true {
      let got = try decoder.read(into: &buffer, maxFrames: 4096)
      if got == 0 { break }
      frames += got
    }
  } catch {
    failure = error
  }
  #expect(failure?.kind == .malformed)
  #expect(failure?.description.contains("truncated") == true)
  #expect(frames <= 44_100 + 8192)
}

@Test(arguments: [0xFFFF_FFFF, 0])
func streamingHeaderReadsToTheEnd(size: Int) throws {
  // What ffmpeg and sox write to a pipe: sizes unset, the audio runs to the end of the file.
  let spec = WaveSpec(
    name: "streaming", tag: 1, channels: 2, rate: 8000, bits: 16, frames: 20_000,
    streamingSize: size)
  let path = scratch("streaming-\(size).wav")
  try write(spec.bytes(), to: path)
  defer { unlink(path) }
  for fastPath in [true, false] {
    let decoded = decode(path, fastPath: fastPath)
    #expect(decoded.error == nil)
    #expect(decoded.samples.count == 20_000 * 2)
  }
}
