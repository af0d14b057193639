import MediaTracks
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decodes a whole track; returns the interleaved samples.
private func decodeAll(_ decoder: inout AudioDecoder, chunk: Int = 1000) throws -> [Float] {
  var all: [Float] = []
  var buffer: [Float] = []
  while true {
    let frames = try decoder.read(into: &buffer, maxFrames: chunk)
    if frames == 0 { break }
    #expect(frames <= chunk)
    all.append(contentsOf: buffer[0..<frames * decoder.channels])
  }
  return all
}

/// Root-mean-square level of every `stride`-th sample starting at `offset`.
private func rms(_ samples: [Float], offset: Int = 0, stride step: Int = 1) -> Double {
  var sum = 0.0
  var count = 0
  for index in Swift.stride(from: offset, to: samples.count, by: step) {
    sum += Double(samples[index]) * Double(samples[index])
    count += 1
  }
  return count == 0 ? 0 : (sum / Double(count)).squareRoot()
}

private func temporaryPath(_ name: String) -> String {
  "/tmp/mediatracks-test-\(getpid())-\(name)"
}

private func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

@Test func decodesWaveClip() throws {
  var decoder = try AudioDecoder(path: fixtures + "/clip.wav")
  #expect(decoder.sampleRate == 22050)
  #expect(decoder.channels == 2)
  #expect(decoder.streamIndex == 0)
  #expect(decoder.channelLayoutName == "stereo")
  let stated = decoder.duration
  let duration = try #require(stated)
  #expect(abs(duration - 2) < 0.01)
  let samples = try decodeAll(&decoder)
  #expect(samples.count == 2 * 44100)
  // Two sine tones of amplitude 0.5 each (FFmpeg's sine source is 1/8 full scale, halved):
  // both channels carry signal and nothing clips.
  #expect(rms(samples, offset: 0, stride: 2) > 0.01)
  #expect(rms(samples, offset: 1, stride: 2) > 0.01)
  #expect(samples.allSatisfy { abs($0) <= 1 })
}

@Test func smallAndOddReadSizesGiveTheSameSamples() throws {
  var whole = try AudioDecoder(path: fixtures + "/clip.wav")
  var pieces = try AudioDecoder(path: fixtures + "/clip.wav")
  #expect(try decodeAll(&whole, chunk: 4096) == decodeAll(&pieces, chunk: 7))
}

@Test func decodesEveryOpusTrackOfMatroska() throws {
  let expected: [(index: Int, channels: Int, layout: String)] = [
    (0, 2, "stereo"), (1, 6, "5.1"), (2, 2, "stereo"),
  ]
  for track in expected {
    var decoder = try AudioDecoder(path: fixtures + "/multitrack.mkv", streamIndex: track.index)
    #expect(decoder.sampleRate == 48000)
    #expect(decoder.channels == track.channels)
    #expect(decoder.channelLayoutName == track.layout)
    let samples = try decodeAll(&decoder)
    let frames = samples.count / track.channels
    // 2 s at 48 kHz, give or take the codec's pre-skip and padding.
    #expect(abs(frames - 96000) < 2000, "track \(track.index): \(frames) frames")
    #expect(rms(samples) > 0.01)
  }
}

@Test func defaultTrackOfMatroskaIsTheFlaggedOne() throws {
  let decoder = try AudioDecoder(path: fixtures + "/multitrack.mkv")
  #expect(decoder.streamIndex == 0)
}

@Test func subtitleStreamIsNotAudio() {
  #expect {
    _ = try AudioDecoder(path: fixtures + "/multitrack.mkv", streamIndex: 3)
  } throws: { ($0 as? MediaError)?.kind == .noSuchStream }
  #expect {
    _ = try AudioDecoder(path: fixtures + "/multitrack.mkv", streamIndex: 99)
  } throws: { ($0 as? MediaError)?.kind == .noSuchStream }
}

@Test func fileWithoutAudioIsNoSuchStream() {
  #expect {
    _ = try AudioDecoder(path: fixtures + "/subtitles-only.mkv")
  } throws: { ($0 as? MediaError)?.kind == .noSuchStream }
}

@Test func missingFileIsNotFoundForDecoder() {
  #expect {
    _ = try AudioDecoder(path: fixtures + "/no-such.wav")
  } throws: { ($0 as? MediaError)?.kind == .notFound }
}

@Test(arguments: ["truncated-header.wav", "truncated.mp4"])
func truncatedFileIsMalformed(name: String) {
  #expect {
    var decoder = try AudioDecoder(path: fixtures + "/" + name)
    _ = try decodeAll(&decoder)
  } throws: { ($0 as? MediaError)?.kind == .malformed }
}

@Test func nonPositiveReadSizeIsInvalid() throws {
  var decoder = try AudioDecoder(path: fixtures + "/clip.wav")
  var buffer: [Float] = []
  #expect {
    _ = try decoder.read(into: &buffer, maxFrames: 0)
  } throws: { ($0 as? MediaError)?.kind == .invalidArgument }
}

@Test(arguments: [
  ("wav", 22050, 0), ("flac", 22050, 0), ("m4a", 22050, 2048), ("ogg", 48000, 2000),
  ("mka", 22050, 0), ("mp3", 22050, 2400), ("aac", 22050, 2048),
])
func encodesAndDecodesBack(ext: String, rate: Int, padding: Int) throws {
  var source = try AudioDecoder(path: fixtures + "/clip.wav")
  let input = try decodeAll(&source)
  let path = temporaryPath("roundtrip." + ext)
  defer { unlink(path) }
  var encoder = try AudioEncoder(path: path, sampleRate: 22050, channels: 2)
  // Feed uneven chunks to exercise the internal framing.
  var offset = 0
  var chunk = 333
  while offset < input.count / 2 {
    let frames = min(chunk, input.count / 2 - offset)
    try encoder.write(Array(input[offset * 2..<(offset + frames) * 2]), frames: frames)
    offset += frames
    chunk = chunk * 7 % 1000 + 1
  }
  try encoder.finish()
  #expect(fileExists(path))

  var decoder = try AudioDecoder(path: path)
  #expect(decoder.sampleRate == rate)
  #expect(decoder.channels == 2)
  let output = try decodeAll(&decoder)
  let expectedFrames = 44100 * rate / 22050
  let frames = output.count / 2
  #expect(frames >= expectedFrames - 64, "\(ext): \(frames) frames")
  #expect(frames <= expectedFrames + padding + 64, "\(ext): \(frames) frames")
  // The level survives encoding within 1 dB.
  let ratio = rms(output) / rms(input)
  #expect(ratio > 0.89 && ratio < 1.12, "\(ext): level ratio \(ratio)")
  if padding == 0 {
    // Lossless (16-bit): samples agree to within one quantisation step.
    let worst = zip(input, output).map { abs($0 - $1) }.max() ?? 1
    #expect(worst <= 1.0 / 32768 + 1e-6)
  }
}

@Test func unknownExtensionIsInvalid() {
  #expect {
    _ = try AudioEncoder(path: temporaryPath("out.xyz"), sampleRate: 44100, channels: 2)
  } throws: { ($0 as? MediaError)?.kind == .invalidArgument }
  #expect(!fileExists(temporaryPath("out.xyz")))
}

@Test func droppedEncoderLeavesNoFile() throws {
  let path = temporaryPath("dropped.flac")
  do {
    var encoder = try AudioEncoder(path: path, sampleRate: 8000, channels: 1)
    try encoder.write([Float](repeating: 0.25, count: 4000), frames: 4000)
    #expect(fileExists(path))
  }
  #expect(!fileExists(path))
  let abandoned = try AudioEncoder(path: path, sampleRate: 8000, channels: 1)
  abandoned.abandon()
  #expect(!fileExists(path))
}

@Test func shortInputIsRejected() throws {
  let path = temporaryPath("short.wav")
  var encoder = try AudioEncoder(path: path, sampleRate: 8000, channels: 2)
  #expect {
    try encoder.write([0, 0, 0], frames: 2)
  } throws: { ($0 as? MediaError)?.kind == .invalidArgument }
  #expect(!fileExists(path))
}

@Test func unwritableOutputFails() {
  #expect {
    _ = try AudioEncoder(path: "/nonexistent-dir/out.wav", sampleRate: 8000, channels: 1)
  } throws: { ($0 as? MediaError)?.kind == .outputFailed }
}

@Test(arguments: ["flac", "m4a", "ogg", "mka"])
func encodesSixChannels(ext: String) throws {
  let path = temporaryPath("surround." + ext)
  defer { unlink(path) }
  var encoder = try AudioEncoder(path: path, sampleRate: 44100, channels: 6)
  // Each channel carries its own constant-frequency tone.
  var samples = [Float](repeating: 0, count: 4410 * 6)
  for frame in 0..<4410 {
    for channel in 0..<6 {
      let phase = Double(frame) * Double(channel + 1) * 220 / 44100
      samples[frame * 6 + channel] = Float(0.2 * sin(2 * Double.pi * phase))
    }
  }
  try encoder.write(samples, frames: 4410)
  try encoder.finish()
  var decoder = try AudioDecoder(path: path)
  #expect(decoder.channels == 6)
  #expect(decoder.channelLayoutName == "5.1")
  #expect(decoder.sampleRate == (ext == "ogg" ? 48000 : 44100))
  let output = try decodeAll(&decoder)
  let seconds = Double(output.count / 6) / Double(decoder.sampleRate)
  #expect(seconds > 0.09 && seconds < 0.2, "\(ext): \(seconds) s")
}

@Test func mp3RejectsSurroundWithATypedError() {
  #expect {
    _ = try AudioEncoder(path: temporaryPath("surround.mp3"), sampleRate: 44100, channels: 6)
  } throws: { ($0 as? MediaError)?.kind == .invalidArgument }
  #expect(!fileExists(temporaryPath("surround.mp3")))
}

@Test(arguments: ["wav", "flac", "m4a", "mka"])
func speakerLayoutsSurviveEncoding(ext: String) throws {
  // Quad (front and back pairs, 0x33) and 5.1 with side surrounds (0x60F) used to be written
  // with the default layout for their count (4.0 and 5.1), which moves the rear pair of quad
  // to front centre and back centre.
  for mask: UInt64 in [0x33, 0x60F] {
    let channels = mask.nonzeroBitCount
    let path = temporaryPath("layout-\(mask).\(ext)")
    defer { unlink(path) }
    var encoder = try AudioEncoder(
      path: path, sampleRate: 48_000, channels: channels, channelMask: mask)
    let frames = 4800
    var samples = [Float](repeating: 0, count: frames * channels)
    for i in 0..<frames {
      for c in 0..<channels {
        samples[i * channels + c] = 0.1 * Float(c + 1) * Float(sin(Double(i) * 0.05))
      }
    }
    try encoder.write(samples, frames: frames)
    try encoder.finish()
    let decoder = try AudioDecoder(path: path)
    #expect(decoder.channels == channels)
    // AAC in MP4 cannot say "side" rather than "back": FFmpeg reads that file's layout back as
    // unknown, as it does when it writes one itself. Matroska's headers do not state FLAC's
    // layout (its stream does, which ffprobe finds by decoding); the decoder reports what the
    // headers state.
    if !(ext == "m4a" && mask == 0x60F) && ext != "mka" {
      #expect(decoder.channelMask == mask, "\(ext) \(String(mask, radix: 16))")
    }
  }
}

@Test func mp3RefusesMoreThanTwoChannelsByName() {
  #expect {
    _ = try AudioEncoder(path: temporaryPath("six.mp3"), sampleRate: 48_000, channels: 6)
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .invalidArgument && error.detail.contains("at most 2 channels")
  }
}
