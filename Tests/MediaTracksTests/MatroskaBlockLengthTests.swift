import Testing

@testable import MediaTracks

/// Matroska and WebM tracks whose stated length is not what their blocks decode to
/// (`Scripts/make-othertool-fixtures.sh`): Vorbis, whose last packet nothing trims and whose
/// first decodes to nothing, and a live recording cut inside a block.
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
