import Testing

@testable import MediaTracks

/// Tracks whose stated length is not what their packets decode to
/// (`Scripts/make-othertool-fixtures.sh`).

/// Matroska and WebM: Vorbis, whose last packet nothing trims and whose first decodes to
/// nothing, and a live recording cut inside a block.
@Test(arguments: [
  // mkvmerge's Duration counts a quarter of the first (long) block: 0.2667 s listed before.
  "vorbis-native-mkvmerge.webm",
  // GStreamer's Duration is the input's length: 0.25 s listed before, 0.268 s decoded.
  "vorbis-gstreamer.webm",
  // The cut block was counted: 0.4535 s listed before, 0.4335 s decoded.
  "opus-streamable-cut.webm",
])
func aMatroskaTrackLastsWhatItsBlocksDecodeTo(name: String) throws {
  let path = fixtures + "/othertools/" + name
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoded = try decodedAudio(path)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  // Block times are in milliseconds (GStreamer) or 22.7 µs (mkvmerge): within one.
  #expect(abs(try #require(track.duration) - seconds) < 0.001, "\(track.duration ?? 0) \(seconds)")
  #expect(abs(try #require(info.duration) - seconds) < 0.001)
}

/// Speex in FLV, whose frame length FFmpeg 5.1 leaves unset: FFmpeg's `libspeex` file (one
/// 20 ms frame a tag) was listed at its last tag's time, 0.48 s; GStreamer's at 0.471 s, its
/// Speex header and comment packets written as audio tags and its audio timed 9 ms early. Each
/// lasts its packets' frames, 0.5 s; the decoder gives GStreamer's comment packet as one frame
/// of noise besides (0.52 s).
@Test(arguments: [("speex-ffmpeg.flv", 0.5), ("speex-gstreamer.flv", 0.52)])
func speexInFLVLastsItsPacketsFrames(name: String, decodedSeconds: Double) throws {
  let path = fixtures + "/othertools/" + name
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "speex")
  let decoded = try decodedAudio(path)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(abs(seconds - decodedSeconds) < 1e-9)
  #expect(abs(try #require(track.duration) - 0.5) < 1e-9)
  #expect(abs(try #require(info.duration) - 0.5) < 1e-9)
  // Within one frame of what is decoded.
  #expect(abs(try #require(track.duration) - seconds) <= 0.02 + 1e-9)
}

/// The tags are walked from the start: a Speex header packet gives the frames a packet holds,
/// and it and the comment packet after it are not audio.
@Test func speexTagsAreCounted() {
  func tag(_ timestamp: Int, _ payload: [UInt8]) -> [UInt8] {
    let size = payload.count + 1
    let header: [UInt8] = [
      8, UInt8(size >> 16), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
      UInt8(timestamp >> 16 & 0xFF), UInt8(timestamp >> 8 & 0xFF), UInt8(timestamp & 0xFF), 0,
      0, 0, 0,
    ]
    let whole = header + [0xB2] + payload
    let total = whole.count
    return whole + [
      UInt8(total >> 24), UInt8(total >> 16 & 0xFF), UInt8(total >> 8 & 0xFF), UInt8(total & 0xFF),
    ]
  }
  let start = Array("FLV".utf8) + [1, 4, 0, 0, 0, 9, 0, 0, 0, 0]
  var speexHeader = Array("Speex   ".utf8) + [UInt8](repeating: 0, count: 72)
  speexHeader[64] = 2
  let frames =
    start + tag(0, speexHeader) + tag(0, [1, 2, 3]) + tag(0, [9, 9]) + tag(40, [9, 9])
    + tag(80, [9, 9])
  #expect(
    FLVTags.speexAudio(MemoryBytes(frames, name: "two.flv"))
      == FLVTags.SpeexAudio(packets: 3, framesPerPacket: 2, firstTimestamp: 0))
  // Without a header, the packets' spacing tells: 40 ms apart, two frames each; a tag cut by
  // the end of the file is not counted.
  let spaced =
    start + tag(100, [9]) + tag(140, [9]) + tag(180, [9]) + Array(tag(220, [9]).prefix(8))
  #expect(
    FLVTags.speexAudio(MemoryBytes(spaced, name: "spaced.flv"))
      == FLVTags.SpeexAudio(packets: 3, framesPerPacket: 2, firstTimestamp: 100))
  #expect(FLVTags.speexAudio(MemoryBytes(start, name: "empty.flv")) == nil)
}
