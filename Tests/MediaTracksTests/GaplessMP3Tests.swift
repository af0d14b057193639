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
