import Foundation
import Testing

// The HLS and DASH files of the shared real-world collection (Android Media3's test assets,
// Apache License 2.0; see that folder's README), each giving what its README row says a user
// expects, through the command line. Skipped when the collection is not beside the checkout.

/// The shared real-world collection, found from this file's path: `../shared/realworld`
/// beside the package's folder.
private let realWorld: String = {
  var path = #filePath
  while let slash = path.lastIndex(of: "/"), !path.hasSuffix("/Tests") {
    path = String(path[..<slash])
  }
  // `path` is the package's Tests folder.
  if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
  return URL(fileURLWithPath: path).deletingLastPathComponent().path + "/shared/realworld"
}()

private let collectionPresent = FileManager.default.fileExists(
  atPath: realWorld + "/README.md")

/// `mtool tracks --json FILE` as one file's JSON object, with the run's status and duration.
private func tracks(_ name: String) throws -> (
  file: [String: Any], status: Int32, seconds: Double
) {
  let start = Date()
  let result = try runMtool(["tracks", "--json", realWorld + "/" + name])
  let seconds = Date().timeIntervalSince(start)
  let document = try #require(
    try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
    "\(result.stderr)")
  let files = try #require(document["files"] as? [[String: Any]])
  return (try #require(files.first), result.status, seconds)
}

private func audio(_ file: [String: Any]) -> [[String: Any]] {
  file["audio"] as? [[String: Any]] ?? []
}

private func subtitles(_ file: [String: Any]) -> [[String: Any]] {
  file["subtitles"] as? [[String: Any]] ?? []
}

@Suite(
  .enabled(
    if: collectionPresent, "the shared real-world collection (../shared/realworld) is absent"))
struct RealWorldManifestTests {
  /// README: "recognised by HLS by its content: 2 audio tracks" (the file has no extension).
  @Test func aLowLatencyMultivariantPlaylistWithoutExtensionListsTwoAudioTracks() throws {
    let (file, status, _) = try tracks("m3u8_live_low_latency_multivariant_with_audio_renditions")
    #expect(status == 0)
    #expect(file["format"] as? String == "hls")
    let tracks = audio(file)
    #expect(tracks.count == 2)
    #expect(tracks.map { $0["language"] as? String } == ["en", "de"])
    // The authors' names: "Deutsch" stays "Deutsch".
    #expect(tracks.map { $0["label"] as? String } == ["English", "Deutsch"])
    #expect(tracks.map { $0["codec"] as? String } == ["aac", "aac"])
    #expect(file["defaultAudio"] as? Int == 0)
    #expect(subtitles(file).isEmpty)
  }

  /// README: "renditions of the same NAME and LANGUAGE are one track".
  @Test func redundantRenditionsAreOneTrack() throws {
    let (file, status, _) = try tracks("m3u8_multivariant_with_redundant_variants_and_renditions")
    #expect(status == 0)
    let sound = audio(file)
    #expect(sound.count == 1)
    #expect(sound.first?["label"] as? String == "Deutsch")
    #expect(sound.first?["language"] as? String == "de")
    #expect(sound.first?["channels"] as? Int == 2)
    #expect(sound.first?["codec"] as? String == "aac")
    let text = subtitles(file)
    #expect(text.count == 1)
    #expect(text.first?["label"] as? String == "Deutsch")
    #expect(file["defaultAudio"] as? Int == sound.first?["index"] as? Int)
    #expect(file["defaultSubtitle"] as? Int == text.first?["index"] as? Int)
  }

  /// README: "recognised as DASH by its content; never a hang" (no extension, live).
  @Test func aLiveManifestWithoutExtensionListsItsTracksAtOnce() throws {
    let (file, status, seconds) = try tracks("mpd_sample_mpd_live")
    #expect(status == 0)
    #expect(seconds < 10, "\(seconds) s")
    #expect(file["format"] as? String == "dash")
    let sound = audio(file)
    #expect(sound.count == 1)
    #expect(sound.first?["codec"] as? String == "aac")
    #expect(sound.first?["sampleRate"] as? Int == 48000)
    #expect(sound.first?["channels"] as? Int == 2)
    #expect(sound.first?["bitRate"] as? Int == 272_000)
    // Role "main" makes it the default.
    #expect((sound.first?["dispositions"] as? [String])?.contains("default") == true)
    #expect(file["defaultAudio"] as? Int == sound.first?["index"] as? Int)
    let text = subtitles(file)
    #expect(text.map { $0["language"] as? String } == ["en"])
    #expect(text.map { $0["codec"] as? String } == ["webvtt"])
    // Role "caption".
    #expect(text.map { $0["kind"] as? String } == ["captions"])
  }

  /// README: "every Period's tracks" (audio and text are in the second Period).
  @Test func everyPeriodsTracksAreListed() throws {
    let (file, status, _) = try tracks("mpd_sample_mpd_stream_keys")
    #expect(status == 0)
    let sound = audio(file)
    // Sets 101 and 102 declare seamless switching between them: one track.
    #expect(sound.count == 1)
    #expect(sound.first?["codec"] as? String == "aac")
    #expect(sound.first?["bitRate"] as? Int == 256_000)
    let text = subtitles(file)
    #expect(text.map { $0["language"] as? String } == ["en", "de"])
    #expect(text.map { $0["languageTag"] as? String } == ["eng", "ger"])
    #expect(text.map { $0["codec"] as? String } == ["webvtt", "webvtt"])
    #expect(text.map { $0["label"] as? String } == ["English", "German"])
  }

  /// The table form of the same files: no 0 Hz, no empty label, exit 0.
  @Test(arguments: [
    "m3u8_live_low_latency_multivariant_with_audio_renditions",
    "m3u8_multivariant_with_redundant_variants_and_renditions", "mpd_sample_mpd_live",
    "mpd_sample_mpd_stream_keys",
  ])
  func tablesShowNoUnknownNumbers(name: String) throws {
    let result = try runMtool(["tracks", realWorld + "/" + name])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.stdout.contains(" 0 Hz"))
    #expect(result.stdout.contains("audio:\n"))
  }
}
