import Foundation
import Testing

@testable import MediaTracks

/// Files as tag editors and joined encoder runs leave them
/// (`Scripts/make-retag-fixtures.sh`).
private func retagged(_ name: String) -> String { fixtures + "/retagged/" + name }

/// Chained Ogg files whose two links share one serial number (FLAC: 0.3 s at 16 kHz, then
/// 0.5 s at 8 kHz; Vorbis: 0.4 s at 22,050 Hz, then 0.3 s at 11,025 Hz): FFmpeg 5.1 reads the
/// last page's granule position at the first link's rate (0.25 s, 0.15 s). Each link counts
/// its own length at its own rate, as for links whose serial numbers differ, and decoding
/// gives every link.
@Test(arguments: [
  ("flac-chained-same-serial.oga", "flac", 0.8), ("vorbis-chained-same-serial.ogg", "vorbis", 0.7),
])
func chainedOggLinksSharingASerialNumberAllCount(
  name: String, codec: String, seconds: Double
) throws {
  let path = retagged(name)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == codec)
  #expect(abs(try #require(track.duration) - seconds) < 0.001)
  #expect(abs(try #require(info.duration) - seconds) < 0.001)
  // The walk finds both links whether or not the last page's serial differs from the first's;
  // over http(s) (no whole-file walk) such a file is left to FFmpeg.
  let source = try #require(try FileBytes(path: path))
  #expect(abs(try #require(OggChain.duration(source)) - seconds) < 0.001)
  #expect(OggChain.duration(source, wholeFile: false) == nil)
  // Decoding gives both links (Vorbis's decoder gives a block more at the boundary).
  let decoded = try decodedAudio(path)
  let decodedSeconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(decodedSeconds >= seconds - 0.001)
  #expect(decodedSeconds < seconds + 0.05)
}

/// 1 s of LAME CBR (its Info frame's LAME tag states the encoder delay and padding) followed
/// by a tag larger than a sixteenth of the frames (an APEv2 tag, an appended ID3v2.4 tag, each
/// with a 4,000-byte cover): FFmpeg 5.1 takes the bytes past the Info frame's count for
/// another file joined on, drops the count, estimates 1.59 s from the bit rate and decodes
/// the padding at the end (22,511 samples). The track lasts what the LAME tag states, and the
/// decoder gives exactly that.
@Test(arguments: ["mp3-ape-cover.mp3", "mp3-id3v24-appended.mp3"])
func anMP3WithALargeTagAtTheEndStaysGapless(name: String) throws {
  let path = retagged(name)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "mp3")
  #expect(track.sampleRate == 22050)
  #expect(track.duration == 1)
  #expect(info.duration == 1)
  let decoded = try decodedAudio(path)
  #expect(decoded.rate == 22050)
  #expect(decoded.frames == 22050)
}
