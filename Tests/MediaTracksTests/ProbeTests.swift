import Foundation
import MediaTracks
import Testing

@Test func probesMultitrackMatroska() throws {
  let info = try MediaProbe.probe(path: fixtures + "/multitrack.mkv")
  #expect(info.demuxerName == "matroska,webm")
  #expect(info.audio.map(\.index) == [0, 1, 2])
  #expect(info.subtitles.map(\.index) == [3, 4])
  let english = info.audio[0]
  #expect(english.codec == "opus")
  #expect(english.sampleRate == 48000)
  #expect(english.channels == 2)
  #expect(english.channelLayout == "stereo")
  #expect(english.language == "en")
  #expect(english.languageTag == "eng")
  #expect(english.dispositions == ["default"])
  #expect(english.kind == .main)
  let french = info.audio[1]
  #expect(french.language == "fr")
  #expect(french.languageTag == "fre")
  #expect(french.channels == 6)
  #expect(french.channelLayout == "5.1")
  #expect(french.kind == .main)
  let commentary = info.audio[2]
  #expect(commentary.kind == .commentary)
  #expect(commentary.title == "Director's Commentary")
  #expect(commentary.dispositions == ["comment"])
  #expect(
    info.audio.map(\.label) == [
      "English", "French", "English \u{2013} Commentary (Director's Commentary)",
    ])
  #expect(info.subtitles.map(\.label) == ["English", "French \u{2013} Forced"])
  #expect(info.subtitles[1].isForced)
  #expect(info.defaultAudio == 0)
  #expect(info.defaultSubtitle == nil)
  let duration = try #require(info.duration)
  #expect(abs(duration - 2.907) < 0.01)
}

@Test func preferencesChangeTheDefaultChoice() throws {
  let french = try MediaProbe.probe(
    path: fixtures + "/multitrack.mkv", preferences: TrackPreferences(languages: ["fr-FR"]))
  #expect(french.defaultAudio == 1)
  // French audio is understood: only the forced French track.
  #expect(french.defaultSubtitle == 4)
  let german = try MediaProbe.probe(
    path: fixtures + "/multitrack.mkv", preferences: TrackPreferences(languages: ["de", "en"]))
  #expect(german.defaultAudio == 0)
  #expect(german.defaultSubtitle == nil)
}

@Test func probesWave() throws {
  let info = try MediaProbe.probe(path: fixtures + "/clip.wav")
  #expect(info.demuxerName == "wav")
  #expect(info.audio.count == 1)
  #expect(info.audio.first?.codec == "pcm_s16le")
  #expect(info.audio.first?.sampleRate == 22050)
  #expect(info.audio.first?.bitRate == 705600)
  #expect(info.audio.first?.label == "Unknown language")
  #expect(info.defaultAudio == 0)
}

@Test func probeErrorsAreTyped() {
  #expect {
    _ = try MediaProbe.probe(path: fixtures + "/missing.mkv")
  } throws: { ($0 as? MediaError)?.kind == .notFound }
  #expect {
    _ = try MediaProbe.probe(path: fixtures + "/truncated-header.wav")
  } throws: { ($0 as? MediaError)?.kind == .malformed }
}

@Test func batchKeepsInputOrderAndPerFileErrors() {
  let paths = [
    fixtures + "/multitrack.mkv", fixtures + "/missing.mkv", fixtures + "/clip.wav",
    fixtures + "/subtitles-only.mkv", fixtures + "/truncated-header.wav",
  ]
  for jobs in [1, 3, 8] {
    let results = MediaProbe.probe(paths: paths, jobs: jobs)
    #expect(results.count == paths.count)
    for (path, result) in zip(paths, results) {
      switch result {
      case .success(let info): #expect(info.path == path)
      case .failure:
        #expect(path.hasSuffix("missing.mkv") || path.hasSuffix("truncated-header.wav"))
      }
    }
    if case .success(let info) = results[3] {
      #expect(info.audio.isEmpty)
      #expect(info.subtitles.count == 1)
      #expect(info.defaultAudio == nil)
    }
  }
}

@Test func batchTransformRunsOncePerFileAndKeepsInputOrder() {
  let paths = [
    fixtures + "/multitrack.mkv", fixtures + "/missing.mkv", fixtures + "/clip.wav",
    fixtures + "/subtitles-only.mkv", fixtures + "/truncated-header.wav",
  ]
  for jobs in [1, 2, 8] {
    let seen = Counter()
    let outputs = MediaProbe.probe(
      paths: paths, jobs: jobs,
      transform: { position, result -> String in
        seen.add()
        switch result {
        case .success(let info): return "\(position) ok \(info.audio.count)"
        case .failure(let error): return "\(position) \(error.kind.rawValue)"
        }
      },
      onOutput: { position, output in #expect(output.hasPrefix("\(position) ")) })
    #expect(seen.value == paths.count)
    #expect(
      outputs == ["0 ok 3", "1 notFound", "2 ok 1", "3 ok 0", "4 malformed"],
      "jobs \(jobs)")
  }
}

/// A thread-safe counter for the batch tests.
private final class Counter: @unchecked Sendable {
  // @unchecked: `count` is only touched while `lock` is held.
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
