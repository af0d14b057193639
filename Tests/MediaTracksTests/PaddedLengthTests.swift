import Foundation
import Testing

@testable import MediaTracks

/// Files of `Scripts/make-padding-fixtures.sh`.
private func paddingFixture(_ name: String) -> String { fixtures + "/lengths/" + name }

/// Decodes every frame of the first audio track of `path`.
private func framesDecoded(_ path: String) throws -> Int {
  var decoder = try AudioDecoder(path: path)
  var samples: [Float] = []
  var decoded = 0
  while case let count = try decoder.read(into: &samples, maxFrames: 4096), count > 0 {
    decoded += count
  }
  return decoded
}

/// ALAC from FFmpeg's CAF muxer, 8,000 samples in packets of 4,096 and 3,904: its `pakt` chunk
/// states 8,192 valid frames (1.024 s, FFmpeg 5.1's figure), and the last packet's frame header
/// states its own 3,904 samples, which the decoder gives. The track and the file are listed at
/// the 8,000 samples decoded.
@Test func cafALACIsListedAtItsLastFrameCount() throws {
  let path = paddingFixture("alac-ffmpeg.caf")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "alac")
  #expect(abs(try #require(track.duration) - 1) < 1e-9)
  #expect(abs(try #require(info.duration) - 1) < 1e-9)
  #expect(try framesDecoded(path) == 8000)
}

/// An ALAC frame header stating its sample count (a channel pair, the count's flag set, 3,904
/// samples), and one stating none (a frame of the stream's full length).
@Test func alacFrameHeaderStatesItsCount() {
  #expect(ALACFrames.statedSamples([0x20, 0x00, 0x10, 0x00, 0x00, 0x1E, 0x80]) == 3904)
  #expect(ALACFrames.statedSamples([0x20, 0x00, 0x00, 0x00, 0x00, 0x1E, 0x80]) == nil)
  #expect(ALACFrames.statedSamples([0xE0, 0x00, 0x10, 0x00, 0x00, 0x1E, 0x80]) == nil)
  #expect(ALACFrames.statedSamples([0x20, 0x00, 0x10]) == nil)
}
