import MediaTracks
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What each per-container fixture must probe as: format, then per audio track codec, sample
/// rate, channels and language.
private let expectations: [(file: String, format: String, audio: [(String, Int, Int, String?)])] =
  [
    ("aac-movtext.mp4", "mov,mp4,m4a,3gp,3g2,mj2", [("aac", 8000, 1, "en")]),
    ("opus-vtt.webm", "matroska,webm", [("opus", 48000, 1, "de")]),
    ("vorbis.ogg", "ogg", [("vorbis", 22050, 1, "it")]),
    ("mp2-aac.ts", "mpegts", [("mp2", 16000, 1, "pl"), ("aac", 8000, 1, "en")]),
    ("tone.flac", "flac", [("flac", 8000, 1, nil)]),
    ("tone.aac", "aac", [("aac", 8000, 1, nil)]),
    ("tone.mp3", "mp3", [("mp3", 8000, 1, nil)]),
    ("accessibility.mkv", "matroska,webm", [("opus", 48000, 1, "en"), ("opus", 48000, 1, "en")]),
    ("video-only.mp4", "mov,mp4,m4a,3gp,3g2,mj2", []),
  ]

@Test(arguments: expectations.indices)
func containerFixturesProbe(position: Int) throws {
  let expected = expectations[position]
  let info = try MediaProbe.probe(path: fixtures + "/" + expected.file)
  #expect(info.demuxerName == expected.format)
  #expect(info.audio.count == expected.audio.count, "\(expected.file)")
  for (track, facts) in zip(info.audio, expected.audio) {
    #expect(track.codec == facts.0, "\(expected.file)")
    #expect(track.sampleRate == facts.1, "\(expected.file)")
    #expect(track.channels == facts.2, "\(expected.file)")
    #expect(track.language == facts.3, "\(expected.file)")
    #expect(track.channelLayout == "mono", "\(expected.file)")
  }
}

@Test(arguments: expectations.indices)
func containerFixturesDecode(position: Int) throws {
  let expected = expectations[position]
  guard let first = expected.audio.first else {
    #expect {
      _ = try AudioDecoder(path: fixtures + "/" + expected.file)
    } throws: { ($0 as? MediaError)?.kind == .noSuchStream }
    return
  }
  var decoder = try AudioDecoder(path: fixtures + "/" + expected.file)
  #expect(decoder.sampleRate == first.1)
  #expect(decoder.channels == first.2)
  var buffer: [Float] = []
  var frames = 0
  var energy = 0.0
  while true {
    let count = try decoder.read(into: &buffer, maxFrames: 512)
    if count == 0 { break }
    frames += count
    for sample in buffer[0..<count] { energy += Double(sample) * Double(sample) }
  }
  // Half a second of tone, give or take codec delay and padding.
  let seconds = Double(frames) / Double(first.1)
  #expect(seconds > 0.4 && seconds < 0.7, "\(expected.file): \(seconds) s")
  #expect(energy > 0, "\(expected.file) decoded silence")
}

@Test func accessibilityDispositionsAndKinds() throws {
  let info = try MediaProbe.probe(path: fixtures + "/accessibility.mkv")
  #expect(info.audio.map(\.dispositions) == [["default"], ["visual_impaired"]])
  #expect(info.audio.map(\.kind) == [.main, .mainDescriptions])
  #expect(info.subtitles.map(\.dispositions) == [["hearing_impaired"], []])
  #expect(info.subtitles.map(\.kind) == [.captions, .subtitles])
  #expect(info.subtitles.map(\.label) == ["English \u{2013} SDH", "English"])
  #expect(info.defaultAudio == 0)
  let described = try MediaProbe.probe(
    path: fixtures + "/accessibility.mkv",
    preferences: TrackPreferences(languages: ["en"], audioDescription: true, captions: true))
  #expect(described.defaultAudio == 1)
  #expect(described.defaultSubtitle == 2)
}

@Test func mpegTransportStreamTrackFactsMatchAfterDecoding() throws {
  // The AAC track's profile comes from FFmpeg once packets were read.
  let info = try MediaProbe.probe(path: fixtures + "/mp2-aac.ts")
  #expect(info.audio[1].profile == "LC")
  #expect(info.audio[0].bitRate == 32000)
}

@Test func misnamedFileStillProbes() throws {
  // A WAVE file named .mkv: the Matroska demuxer rejects it and the full probe finds WAVE.
  let source = try #require(fopen(fixtures + "/clip.wav", "rb"))
  let path = "/tmp/mediatracks-test-\(getpid())-wave.mkv"
  let target = try #require(fopen(path, "wb"))
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = fread(&buffer, 1, buffer.count, source)
    if count == 0 { break }
    fwrite(buffer, 1, count, target)
  }
  fclose(source)
  fclose(target)
  defer { unlink(path) }
  let info = try MediaProbe.probe(path: path)
  #expect(info.demuxerName == "wav")
  #expect(info.audio.first?.sampleRate == 22050)
}

@Test(arguments: ["garbage.mkv", "garbage.mp4", "garbage.wav", "garbage.bin"])
func garbageIsMalformed(name: String) throws {
  let path = "/tmp/mediatracks-test-\(getpid())-\(name)"
  let file = try #require(fopen(path, "wb"))
  var state: UInt32 = 12345
  var bytes = [UInt8](repeating: 0, count: 20000)
  for index in bytes.indices {
    state = state &* 1_664_525 &+ 1_013_904_223
    bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
  }
  fwrite(bytes, 1, bytes.count, file)
  fclose(file)
  defer { unlink(path) }
  #expect {
    _ = try MediaProbe.probe(path: path)
  } throws: { ($0 as? MediaError)?.kind == .malformed }
  #expect {
    _ = try AudioDecoder(path: path)
  } throws: { ($0 as? MediaError)?.kind == .malformed }
}

@Test func subtitleFileHasNoAudio() throws {
  let info = try MediaProbe.probe(path: fixtures + "/sample.srt")
  #expect(info.audio.isEmpty)
  #expect(info.subtitles.first?.codec == "subrip")
  #expect {
    _ = try AudioDecoder(path: fixtures + "/sample.srt")
  } throws: { ($0 as? MediaError)?.kind == .noSuchStream }
}
