import MediaTracks
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Test(arguments: [(44_100, 2), (22_050, 1), (48_000, 1)])
func mp3StatingItsDelayAndPaddingIsListedAtTheAudioItHolds(rate: Int, channels: Int) throws {
  // FFmpeg's MP3 encoder (like LAME) writes an Info frame whose LAME tag states the encoder
  // delay and padding; the decoder drops them, and the file is listed at what it gives, to the
  // sample (FFmpeg 5.1 lists the frames' samples: 2.064 s for 2 s).
  let path = "/tmp/mediatracks-gapless-\(getpid())-\(rate).mp3"
  defer { unlink(path) }
  var encoder = try AudioEncoder(path: path, sampleRate: rate, channels: channels)
  let frames = 2 * rate
  let tone = (0..<frames * channels).map { Float(0.3 * sin(Double($0 / channels) * 0.05)) }
  try encoder.write(tone, frames: frames)
  try encoder.finish()
  let listed = try #require(try MediaProbe.probe(path: path).audio.first?.duration)
  var decoder = try AudioDecoder(path: path)
  var buffer: [Float] = []
  var decoded = 0
  while case let got = try decoder.read(into: &buffer, maxFrames: 4096), got > 0 { decoded += got }
  #expect(decoded == frames)
  #expect(abs(listed * Double(rate) - Double(decoded)) < 1, "listed \(listed) s")
}

@Test(arguments: [7, 204, 5_000])
func bytesAfterTheFramesALAMETagCountsAreNotAudio(garbage: Int) throws {
  // Bytes after the last frame that are no tag FFmpeg knows (damage, a download's leftovers;
  // the first starting like a frame header, so the last "frame" looks cut): the LAME tag
  // counts the frames, all of them are there, so the file is whole and its audio is the
  // tag's. FFmpeg 5.1 took 5,000 such bytes for a second file joined on (its length then
  // estimated: 2.0 s listed as 2.03 s) and decoded 227 samples of the padding; 204 bytes
  // starting with a frame's sync were refused as a cut file.
  let rate = 44_100
  let path = "/tmp/mediatracks-garbage-\(getpid())-\(garbage).mp3"
  defer { unlink(path) }
  let frames = 2 * rate
  try encodeStereoTone(path: path, rate: rate, frames: frames)
  var tail = pseudoRandomBytes(garbage, seed: 0x9E37_79B9_7F4A_7C15 &* UInt64(garbage))
  // A frame header like the stream's own (MPEG-1 layer III, 128 kbit/s, 44.1 kHz) first.
  for (i, byte) in [0xFF, 0xFB, 0x90, 0x64].enumerated() where i < tail.count {
    tail[i] = UInt8(byte)
  }
  let file = try #require(fopen(path, "ab"))
  #expect(fwrite(tail, 1, tail.count, file) == tail.count)
  fclose(file)
  let listed = try #require(try MediaProbe.probe(path: path).audio.first?.duration)
  var decoder = try AudioDecoder(path: path)
  var buffer: [Float] = []
  var decoded = 0
  while case let got = try decoder.read(into: &buffer, maxFrames: 4096), got > 0 { decoded += got }
  #expect(decoded == frames)
  #expect(abs(listed * Double(rate) - Double(decoded)) < 1, "listed \(listed) s")
}

@Test func mp3CutShortWithGarbageAfterTheCutIsTruncated() throws {
  // A file cut at 70 % with other bytes after the cut (a broken download's leftovers): the last
  // 16 KiB hold no frame, so the cut frame cannot be seen there; the Xing header states more
  // bytes than the file holds and more frames than it has. FFmpeg 5.1 decoded the 1.4 s and
  // the file was listed at its tag's 2 s.
  let rate = 44_100
  let path = "/tmp/mediatracks-cutgarbage-\(getpid()).mp3"
  defer { unlink(path) }
  let frames = 2 * rate
  try encodeStereoTone(path: path, rate: rate, frames: frames)
  let garbage = pseudoRandomBytes(20_000, seed: 12_345)
  let file = try #require(fopen(path, "rb"))
  var bytes = [UInt8](repeating: 0, count: 1 << 20)
  let count = fread(&bytes, 1, bytes.count, file)
  fclose(file)
  let cut = Array(bytes[0..<(count * 7 / 10)]) + garbage
  let out = try #require(fopen(path, "wb"))
  #expect(fwrite(cut, 1, cut.count, out) == cut.count)
  fclose(out)
  let listed = try #require(try MediaProbe.probe(path: path).audio.first?.duration)
  #expect(listed < 1.5, "listed \(listed) s")
  #expect {
    var decoder = try AudioDecoder(path: path)
    var buffer: [Float] = []
    while try decoder.read(into: &buffer, maxFrames: 4096) > 0 {}
  } throws: { ($0 as? MediaError)?.kind == .malformed }
}

/// Encodes `frames` frames of a stereo tone at `rate` Hz to MP3 at `path` (FFmpeg's encoder,
/// whose Info frame carries a LAME tag).
/// What comes before an MP3's first frame in files found in the wild.
enum LeadingBytes: CustomStringConvertible, Sendable {
  /// Random bytes, with no ID3v2 tag (a download manager's leftovers, another file's tail).
  case random(Int)
  /// An ID3v2.4 tag, then zero bytes (padding a tagger left outside the tag).
  case zerosAfterTag(Int)

  var description: String {
    switch self {
    case .random(let count): "\(count) random bytes"
    case .zerosAfterTag(let count): "an ID3v2 tag and \(count) zero bytes"
    }
  }

  var bytes: [UInt8] {
    switch self {
    case .random(let count):
      return pseudoRandomBytes(count, seed: 0x2545_F491_4F6C_DD1D &* UInt64(count))
    case .zerosAfterTag(let count):
      // One TIT2 frame (text encoding 3, UTF-8) in a tag whose syncsafe size covers it.
      let frame: [UInt8] = Array("TIT2".utf8) + [0, 0, 0, 6, 0, 0, 3] + Array("Hello".utf8)
      return Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame
        + [UInt8](repeating: 0, count: count)
    }
  }
}

@Test(arguments: [LeadingBytes.random(30_000), .random(200_000), .zerosAfterTag(1_500)])
func bytesBeforeTheFirstFrameAreNotAudio(leading: LeadingBytes) throws {
  // FFmpeg 5.1 looks for the Info frame's LAME tag only where the ID3v2 tag ends and parses
  // what comes before the first frame as frames: the encoder delay and padding were kept
  // (2.064 s decoded for 2 s after 1,500 zero bytes, 2.038 s listed and decoded after random
  // bytes), and 200 KB of random bytes failed the decode (exit 65) as 0.8 s of undecodable
  // audio. The file is read from its first frame.
  let rate = 44_100
  let frames = 2 * rate
  let name = "/tmp/mediatracks-leading-\(getpid())-\(leading.bytes.count)"
  let encoded = name + "-tone.mp3"
  let path = name + ".mp3"
  defer {
    unlink(encoded)
    unlink(path)
  }
  try encodeStereoTone(path: encoded, rate: rate, frames: frames)
  let tone = try #require(fopen(encoded, "rb"))
  var body = [UInt8](repeating: 0, count: 1 << 20)
  body.removeSubrange(fread(&body, 1, body.count, tone)...)
  fclose(tone)
  let whole = leading.bytes + body
  let file = try #require(fopen(path, "wb"))
  #expect(fwrite(whole, 1, whole.count, file) == whole.count)
  fclose(file)
  let listed = try #require(try MediaProbe.probe(path: path).audio.first?.duration)
  var decoder = try AudioDecoder(path: path)
  var buffer: [Float] = []
  var decoded = 0
  while case let got = try decoder.read(into: &buffer, maxFrames: 4096), got > 0 { decoded += got }
  #expect(decoded == frames, "\(leading)")
  #expect(abs(listed * Double(rate) - Double(decoded)) < 1, "listed \(listed) s")
}

private func encodeStereoTone(path: String, rate: Int, frames: Int) throws {
  var encoder = try AudioEncoder(path: path, sampleRate: rate, channels: 2)
  let tone = (0..<frames * 2).map { Float(0.3 * sin(Double($0 / 2) * 0.05)) }
  try encoder.write(tone, frames: frames)
  try encoder.finish()
}

/// `count` bytes of a linear congruential sequence from `seed` (the same bytes every run).
private func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
  var state = seed
  return (0..<count).map { _ in
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return UInt8(truncatingIfNeeded: state >> 33)
  }
}
