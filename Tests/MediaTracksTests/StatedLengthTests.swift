import Foundation
import Testing

@testable import MediaTracks

/// Files of `Scripts/make-length-fixtures.sh` whose headers state more audio than they hold.
private func lengthFixture(_ name: String) -> String { fixtures + "/lengths/" + name }

/// Decodes every frame of the first audio track of `path`.
private func decodedFrames(_ path: String) throws -> Int {
  var decoder = try AudioDecoder(path: path)
  var samples: [Float] = []
  var decoded = 0
  while case let count = try decoder.read(into: &samples, maxFrames: 4096), count > 0 {
    decoded += count
  }
  return decoded
}

/// AAC in AVI from FFmpeg's muxer, the audio starting 0.1 s after the video: the muxer writes
/// four empty audio chunks before the first frame, and the stream header's length counts them
/// (52 frames, 1.109 s). They hold no audio: the track is its 48 frames of 1,024 samples, what
/// decoding gives.
@Test func aviEmptyAudioChunksAreNotListed() throws {
  let path = lengthFixture("avi-empty-chunks.avi")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "aac")
  let duration = try #require(track.duration)
  #expect(abs(duration - 48.0 * 1024 / 48000) < 1e-9)
  let decoded = try decodedFrames(path)
  #expect(decoded == 48 * 1024)
  #expect(abs(Double(decoded) / 48000 - duration) < 1e-9)
}
