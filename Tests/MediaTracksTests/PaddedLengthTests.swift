import Foundation
import Testing

@testable import MediaTracks

/// Files of `Scripts/make-padding-fixtures.sh`.
private func paddingFixture(_ name: String) -> String { fixtures + "/lengths/" + name }

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
  #expect(try decodedFrames(path) == 8000)
}

/// An ALAC frame header stating its sample count (a channel pair, the count's flag set, 3,904
/// samples), and one stating none (a frame of the stream's full length).
@Test func alacFrameHeaderStatesItsCount() {
  #expect(ALACFrames.statedSamples([0x20, 0x00, 0x10, 0x00, 0x00, 0x1E, 0x80]) == 3904)
  #expect(ALACFrames.statedSamples([0x20, 0x00, 0x00, 0x00, 0x00, 0x1E, 0x80]) == nil)
  #expect(ALACFrames.statedSamples([0xE0, 0x00, 0x10, 0x00, 0x00, 0x1E, 0x80]) == nil)
  #expect(ALACFrames.statedSamples([0x20, 0x00, 0x10]) == nil)
}

/// AAC from FFmpeg's Matroska muxer, blocks timed from 0: the track states 1.021 s (the input
/// and the encoder's 1,024 samples of delay, to the millisecond), and its 48 frames decode to
/// 1.024 s, the last frame's padding with them. The decode ends at the stated duration, which
/// the track is listed at.
@Test func matroskaAACEndsAtItsStatedDuration() throws {
  let path = paddingFixture("aac-ffmpeg.mka")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "aac")
  let duration = try #require(track.duration)
  #expect(abs(duration - 1.021) < 1e-9)
  #expect(try decodedFrames(path) == 49008)
}

/// The stated duration ends the decode only inside the last block's last frame, and more
/// than a timestamp unit before its end.
@Test func matroskaPaddedEndNeedsTheStatedEndInTheLastFrame() {
  let frame = 1024.0 / 48000
  let block = (start: 47 * frame, frames: 1)
  let inside = FormatContext.matroskaPaddedEnd(
    stated: 1.021, lastBlock: block, frameSeconds: frame, tick: 0.001, rate: 48000)
  #expect(inside?.frames(atRate: 48000) == 49008)
  // Stated past the blocks' end, a frame or more before it, within a tick of it: no end.
  for stated in [1.03, 47 * frame - 0.001, 48 * frame - 0.0005] {
    #expect(
      FormatContext.matroskaPaddedEnd(
        stated: stated, lastBlock: block, frameSeconds: frame, tick: 0.001, rate: 48000) == nil)
  }
}

/// PCM from GStreamer's mxfmux, 5,000 samples at 8 kHz: the header states 0.7 s, whole edit
/// units of 0.1 s rounded up (FFmpeg 5.1's figure), and the sound essence holds 0.625 s, what
/// decodes. The track and the file are listed at the essence.
@Test func mxfPCMIsListedAtItsEssence() throws {
  let path = paddingFixture("pcm-mxfmux.mxf")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "pcm_s16le")
  #expect(abs(try #require(track.duration) - 0.625) < 1e-9)
  #expect(abs(try #require(info.duration) - 0.625) < 1e-9)
  #expect(try decodedFrames(path) == 5000)
}
