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

@Test(arguments: ["stereo-surround.ts", "mp2-aac.ts", "multitrack.mkv", "aac-movtext.mp4"])
func decoderDefaultTrackIsTheProbes(name: String) throws {
  // MPEG-TS headers state no channel counts: the decoder chose its default track before
  // reading the stream facts, so it decoded the stereo track where the probe chose 5.1.
  let info = try MediaProbe.probe(path: fixtures + "/" + name)
  let decoder = try AudioDecoder(path: fixtures + "/" + name)
  #expect(decoder.streamIndex == info.defaultAudio)
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

@Test(arguments: ["truncated-header.wav", "truncated.mp4", "truncated-48k.m4a"])
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

/// Encodes `frames` frames at 48 kHz to `path`, channel c (from 0) a tone of frequency
/// proportional to c + 1 at level 0.1 · (c + 1), so each channel can be told from the others.
private func writeChannelTones(_ path: String, channels: Int, mask: UInt64?, frames: Int) throws {
  var encoder = try AudioEncoder(
    path: path, sampleRate: 48_000, channels: channels, channelMask: mask)
  var samples = [Float](repeating: 0, count: frames * channels)
  for i in 0..<frames {
    for c in 0..<channels {
      samples[i * channels + c] =
        0.1 * Float(c + 1) * Float(sin(Double(i) * 0.05 * Double(c + 1)))
    }
  }
  try encoder.write(samples, frames: frames)
  try encoder.finish()
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
    try writeChannelTones(path, channels: channels, mask: mask, frames: 4800)
    let decoder = try AudioDecoder(path: path)
    #expect(decoder.channels == channels)
    // AAC in MP4 cannot say "side" rather than "back": FFmpeg reads that file's layout back as
    // unknown, as it does when it writes one itself. (Matroska's headers do not state FLAC's
    // layout; its stream does, and the decoder takes it from the first frame.)
    if !(ext == "m4a" && mask == 0x60F) {
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

@Test(arguments: ["flac", "mka", "ogg", "opus", "m4a"])
func threeAndFourChannelsKeepEveryChannel(ext: String) throws {
  // 3.0 and quad in containers that do not state a layout (FLAC in Matroska, Vorbis, Opus) read
  // as FFmpeg's defaults for the count (2.1, 4.0), and converting to those mixed the centre or
  // rear channels away: one channel came out silent. Opus refused 3 and 4 channels without a
  // layout. Each channel carries its own level, which must come back on its own channel.
  for (mask, channels): (UInt64?, Int) in [(0x7, 3), (0x33, 4), (nil, 3), (nil, 4)] {
    let path = temporaryPath("channels-\(channels)-\(mask ?? 0).\(ext)")
    defer { unlink(path) }
    try writeChannelTones(path, channels: channels, mask: mask, frames: 9600)
    var decoder = try AudioDecoder(path: path)
    #expect(decoder.channels == channels, "\(ext)")
    if let mask {
      #expect(decoder.channelMask == mask, "\(ext) \(mask)")
      // The probe's label agrees (it reads the stream facts when the container states none).
      let info = try MediaProbe.probe(path: path)
      #expect(info.audio.first?.channelLayout == (mask == 0x7 ? "3.0" : "quad"), "\(ext)")
    }
    let output = try decodeAll(&decoder)
    // The levels in the middle of the clip, channel by channel (the codec may reorder
    // channels within its layout only as FFmpeg's order says, which keeps them here).
    let start = output.count / channels / 4 * channels
    // The speaker of each channel: AAC band-limits a low-frequency-effects channel (the third
    // of 2.1, the default layout for three channels), so its level is not compared.
    var speakers: [UInt64] = []
    var bits = decoder.channelMask ?? 0
    while bits != 0 {
      speakers.append(bits & (~bits + 1))
      bits &= bits - 1
    }
    for c in 0..<channels where !(ext == "m4a" && c < speakers.count && speakers[c] == 0x8) {
      let level = rms(Array(output[start..<(start + channels * 4800)]), offset: c, stride: channels)
      let expected = 0.1 * Double(c + 1) / 2.0.squareRoot()
      #expect(abs(level - expected) < 0.2 * expected, "\(ext) \(mask ?? 0) channel \(c): \(level)")
    }
  }
}

@Test func veryShortFilesAreNotTruncated() throws {
  // A 1,000-sample MP3 states its encoder delay and padding in its duration (about twice what
  // decodes): it was refused as truncated after every sample had been delivered.
  for (ext, frames) in [("mp3", 1000), ("opus", 100), ("m4a", 300)] {
    let path = temporaryPath("short-\(frames).\(ext)")
    defer { unlink(path) }
    var encoder = try AudioEncoder(path: path, sampleRate: 48_000, channels: 1)
    try encoder.write([Float](repeating: 0.1, count: frames), frames: frames)
    try encoder.finish()
    var decoder = try AudioDecoder(path: path)
    let output = try decodeAll(&decoder)
    #expect(output.count >= frames / 2, "\(ext): \(output.count)")
  }
}

@Test func hugeFrameCountsAreTypedErrorsOrCapped() throws {
  let path = temporaryPath("huge.wav")
  defer { unlink(path) }
  var encoder = try AudioEncoder(path: path, sampleRate: 8000, channels: 2)
  #expect {
    try encoder.write([0, 0], frames: Int.max / 2 + 1)
  } throws: { ($0 as? MediaError)?.kind == .invalidArgument }
  var decoder = try AudioDecoder(path: fixtures + "/tone.flac")
  var buffer: [Float] = []
  let got = try decoder.read(into: &buffer, maxFrames: Int.max)
  #expect(got > 0 && got <= AudioDecoder.maxFramesPerRead)
  #expect(buffer.count <= AudioDecoder.maxFramesPerRead * decoder.channels)
}

@Test(arguments: ["flac", "ac3", "mp3", "dts"])
func emptyAndCutFilesAreMalformed(ext: String) throws {
  // An empty FLAC or AC-3 file probed as one track of 0 Hz and no channels; an empty or cut MP3
  // gave `.other` (FFmpeg's EINVAL) rather than `.malformed`.
  let empty = temporaryPath("empty." + ext)
  let file = try #require(fopen(empty, "wb"))
  fclose(file)
  defer { unlink(empty) }
  #expect { _ = try MediaProbe.probe(path: empty) } throws: {
    ($0 as? MediaError)?.kind == .malformed
  }
  #expect { _ = try AudioDecoder(path: empty) } throws: {
    ($0 as? MediaError)?.kind == .malformed
  }
  if ext == "mp3" || ext == "flac" {
    let source = try #require(fopen(fixtures + "/tone." + ext, "rb"))
    var head = [UInt8](repeating: 0, count: 100)
    let got = fread(&head, 1, 100, source)
    fclose(source)
    let cut = temporaryPath("cut." + ext)
    let out = try #require(fopen(cut, "wb"))
    fwrite(head, 1, got, out)
    fclose(out)
    defer { unlink(cut) }
    #expect { _ = try MediaProbe.probe(path: cut) } throws: {
      ($0 as? MediaError)?.kind == .malformed
    }
  }
}

@Test func aTimestampJumpIsNotATruncation() throws {
  // Complete MPEG-TS with a 100 s timestamp jump: its duration from the last timestamps is
  // about 100 s, which the truncation check must not take for a duration the headers state.
  var decoder = try AudioDecoder(path: fixtures + "/timestamp-jump.ts")
  let output = try decodeAll(&decoder)
  #expect(output.count > 48_000 / 2)
}

@Test func aacWhoseConfigurationTheDecoderRefusesIsListedUndecodable() throws {
  // AAC LD from FFmpeg's encoder: the sample entry states a rate and channels, but FFmpeg
  // 5.1's decoder does not implement the configuration (epConfig 1). Listed as not
  // decodable (it was listed decodable, and only decoding failed), and decoding says why.
  let path = fixtures + "/aac-ld.m4a"
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "aac")
  #expect(track.profile == "LD")
  #expect(!track.decodable)
  #expect {
    _ = try AudioDecoder(path: path)
  } throws: { error in
    guard let error = error as? MediaError, error.kind == .malformed else { return false }
    return "\(error)".contains("does not implement")
  }
}
