import Foundation
import Testing

@testable import MediaTracks

/// Files from encoders and muxers of `Scripts/make-moremuxer-fixtures.sh` (mpcenc, GStreamer's
/// 3gppmux) whose facts FFmpeg 5.1 misstates.
private func moreMuxer(_ name: String) -> String { fixtures + "/othertools/" + name }

/// Musepack SV8 from mpcenc: its stream header's 83,790 samples at 44100 Hz (1.9 s), not the
/// whole 73,728-sample packets FFmpeg 5.1 counts (1.67 s); the decoder gives whole frames of
/// 1,152 samples, its synthesis filter's delay not taken off: the stated samples and less than
/// two frames more (85,248: 74 frames).
@Test func musepackLengthIsItsStreamHeaders() throws {
  let path = moreMuxer("mpcenc-sv8.mpc")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "musepack8")
  #expect(abs(try #require(track.duration) - 83790.0 / 44100) < 1e-9)
  #expect(abs(try #require(info.duration) - 83790.0 / 44100) < 1e-9)
  let decoded = try decodedFrames(path)
  #expect(decoded >= 83790 && decoded < 83790 + 2 * 1152)
}

/// The stream header is found after the packets before it, its sizes read as 7-bit groups; a
/// file with no header before its audio, a bad version, or no samples has no length from it.
@Test func musepackStreamHeaderIsRead() {
  // "MPCK", an "RG" packet of 12 bytes, then "SH": size 14, CRC, version 8, 300,000 samples
  // (0x92 0xA7 0x60), 1,000 of silence (0x87 0x68), 48 kHz (index 1 in the top 3 bits).
  let replayGain: [UInt8] = Array("RG".utf8) + [12] + [UInt8](repeating: 0, count: 9)
  func header(version: UInt8, samples: [UInt8]) -> [UInt8] {
    Array("SH".utf8) + [14, 0, 0, 0, 0, version] + samples + [0x87, 0x68, 0x20, 0x1B]
  }
  let good = Array("MPCK".utf8) + replayGain + header(version: 8, samples: [0x92, 0xA7, 0x60])
  #expect(MusepackHeader.duration(MemoryBytes(good, name: "a.mpc")) == 299_000.0 / 48000)
  let badVersion = Array("MPCK".utf8) + header(version: 7, samples: [0x92, 0xA7, 0x60])
  #expect(MusepackHeader.duration(MemoryBytes(badVersion, name: "b.mpc")) == nil)
  let noSamples = Array("MPCK".utf8) + header(version: 8, samples: [0x00, 0x00, 0x00])
  #expect(MusepackHeader.duration(MemoryBytes(noSamples, name: "c.mpc")) == nil)
  let audioFirst = Array("MPCK".utf8) + Array("AP".utf8) + [3] + good[4...]
  #expect(MusepackHeader.duration(MemoryBytes(Array(audioFirst), name: "d.mpc")) == nil)
  #expect(MusepackHeader.duration(MemoryBytes(Array("MP+".utf8) + good, name: "e.mpc")) == nil)
}

/// A 3GPP timed-text track that GStreamer starts with a 1.2 s empty edit: its last cue, 2.5 s
/// to 3.0 s in the sample table, keeps its end (FFmpeg 5.1 ends it at the media's length,
/// 2.5 s, so it lasted no time); the first keeps its times.
@Test func lastCueBehindAnEmptyEditKeepsItsEnd() throws {
  let path = moreMuxer("tx3g-empty-edit.3gp")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.subtitles.first)
  #expect(track.codec == "mov_text")
  let cues = try SubtitleStreamReader(path: path, streamIndex: track.index).read()
  #expect(cues.map(\.text) == ["First cue", "Last cue"])
  #expect(cues.count == 2)
  guard cues.count == 2 else { return }
  #expect(abs(cues[0].startTime - 1.2) < 1e-9 && abs(cues[0].endTime - 2.0) < 1e-9)
  #expect(abs(cues[1].startTime - 2.5) < 1e-9 && abs(cues[1].endTime - 3.0) < 1e-9)
}

/// MP3 at 22050 Hz (576 samples a frame) in OGM from ogmmerge, whose granules count 1,152 a
/// frame: FFmpeg 5.1 states 2.14 s; the frames give what the decoder gives (42 frames, lame's
/// Info frame included: 1.097 s).
@Test func ogmMPEGAudioLastsItsFrames() throws {
  let path = moreMuxer("ogmmerge-mp3-22k.ogm")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "mp3")
  var decoder = try AudioDecoder(path: path)
  var frames: [Float] = []
  var decoded = 0
  while case let count = try decoder.read(into: &frames, maxFrames: 4096), count > 0 {
    decoded += count
  }
  let seconds = Double(decoded) / Double(decoder.sampleRate)
  #expect(abs(seconds - 42 * 576 / 22050.0) < 1e-9)
  #expect(abs(try #require(track.duration) - seconds) < 1e-9)
  #expect(abs(try #require(info.duration) - seconds) < 1e-9)
}
