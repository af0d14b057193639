import Foundation
import Testing

@testable import MediaTracks

/// Files of `Scripts/make-length-fixtures.sh` whose headers state more audio than they hold.
private func lengthFixture(_ name: String) -> String { fixtures + "/lengths/" + name }

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

/// AAC from FFmpeg's Matroska muxer with timestamps left negative (two 12 s voices at 16 kHz):
/// the first block, the encoder's 1,024 samples of delay, is timed at -64 ms, and the track
/// states 12 s from 0, the last frame's padding left out. Decoding gave all 189 frames
/// (12.096 s); it gives the 12 s of input the track is, the delay dropped: the decoder's
/// output from its 1,025th sample on.
@Test func matroskaBlocksBeforeZeroAreNotDecoded() throws {
  let path = fixtures + "/player/two-voices.mkv"
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "aac")
  #expect(abs(try #require(track.duration) - 12) < 1e-9)
  #expect(try decodedFrames(path) == 12 * 16000)
}

/// MP3 through GStreamer's xingmux: its Xing header has no LAME tag and counts 20 frames, its
/// own among them; 19 frames of audio follow, which is what FFmpeg and GStreamer decode. The
/// track was listed at the header's 20 frames (0.522 s, FFmpeg 5.1's figure); it is the
/// frames that are there.
@Test func xingHeaderWithoutEncoderTagIsNotTheLength() throws {
  let path = lengthFixture("xingmux.mp3")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "mp3")
  let duration = try #require(track.duration)
  #expect(abs(duration - 19.0 * 1152 / 44100) < 1e-9)
  let decoded = try decodedFrames(path)
  #expect(decoded == 19 * 1152)
  #expect(abs(Double(decoded) / 44100 - duration) < 1e-9)
}

/// MPEG-TS of two 0.3 s pieces of AAC whose timestamps are 100 s apart (16 frames of 1,024
/// samples each at 48 kHz): FFmpeg 5.1 states one frame (0.021 s) for the track; the file is
/// small enough to be read whole, and its frames are what it holds, what decoding gives.
@Test func transportStreamWithATimestampJumpIsListedAtItsFrames() throws {
  let path = fixtures + "/timestamp-jump.ts"
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let duration = try #require(track.duration)
  #expect(abs(duration - 32.0 * 1024 / 48000) < 1e-9)
  #expect(try decodedFrames(path) == 32 * 1024)
}

/// Theora and Vorbis cut at 0.5 s at a page boundary (oggz-chop), the pages keeping their
/// granule positions: the Vorbis stream's first audio page states 25,280 and its packets
/// decode to 4,096 samples, so the stream starts at sample 21,184 (Vorbis I, A.2) and holds
/// 44,100 - 21,184 = 22,916 samples, what decoding gives. FFmpeg 5.1 times its first packet
/// before 0 and stated 0.543 s, the last granule less the start it reads (23,940 samples).
@Test func vorbisStreamStartingPastZeroLastsWhatItDecodes() throws {
  let path = lengthFixture("vorbis-late-start.ogg")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "vorbis")
  #expect(abs(try #require(track.duration) - 22916.0 / 44100) < 1e-9)
  #expect(abs(try #require(track.startTime) - 21184.0 / 44100) < 1e-9)
  #expect(try decodedFrames(path) == 22916)
}

/// The start is read from the pages only while the first audio page is intact: with one bit of
/// its granule position flipped its checksum no longer matches and no start is read from it
/// (the length is then left as FFmpeg reads it); the headers of
/// a stream that is not Vorbis give none either.
@Test func vorbisStartNeedsAnIntactFirstAudioPage() throws {
  let path = lengthFixture("vorbis-late-start.ogg")
  var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  let streams = OggChain.firstStreams(MemoryBytes(bytes, name: "cut"))
  #expect(streams.map(\.rate) == [nil, 44100])
  let serial = try #require(streams.last?.serial)
  #expect(OggChain.vorbisStart(MemoryBytes(bytes, name: "cut"), serial: serial) == 21184)
  #expect(OggChain.vorbisStart(MemoryBytes(bytes, name: "cut"), serial: streams[0].serial) == nil)
  // The first page with a granule position past the headers' pages, of the audio stream.
  var offset = 0
  var audioPages = 0
  while audioPages < 3, let page = OggChain.page(MemoryBytes(bytes, name: "cut"), at: Int64(offset))
  {
    if page.serial == serial { audioPages += 1 }
    if audioPages < 3 { offset += page.size }
  }
  #expect(audioPages == 3)
  bytes[offset + 6] ^= 0x01
  #expect(OggChain.vorbisStart(MemoryBytes(bytes, name: "cut"), serial: serial) == nil)
}
