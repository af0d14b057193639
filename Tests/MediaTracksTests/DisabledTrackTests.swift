import Testing

@testable import MediaTracks

/// A Matroska track whose `FlagEnabled` is 0 is not usable, whatever its `FlagDefault` says.
/// FFmpeg 5.1 does not read the flag and gives such a track the `default` disposition.

/// mkvmerge's file (`Scripts/make-othertool-fixtures.sh`): English stereo, default but
/// disabled; English mono, enabled; two English SubRip tracks flagged default, the first
/// disabled.
private let disabledDefault = fixtures + "/othertools/disabled-default-mkvmerge.mka"

@Test func aDisabledDefaultTrackIsListedButNotChosen() throws {
  let info = try MediaProbe.probe(path: disabledDefault)
  // Still listed, with what the file states.
  #expect(info.audio.map(\.index) == [0, 1])
  #expect(info.subtitles.map(\.index) == [2, 3])
  #expect(info.audio[0].dispositions == ["default"])
  #expect(info.audio[0].channels == 2)
  #expect(info.subtitles[0].dispositions == ["default"])
  // The enabled tracks are the default choice (the disabled stereo one was, by its flag).
  #expect(info.defaultAudio == 1)
  #expect(info.defaultSubtitle == 3)
  #expect(info.audio[1].kind == .main)
  // With a preferred language that is not the audio's, the full English track shown is the
  // enabled one too.
  var preferring = info
  preferring.finish(preferences: TrackPreferences(languages: ["en"], subtitles: .always))
  #expect(preferring.defaultAudio == 1)
  #expect(preferring.defaultSubtitle == 3)
}

@Test func theDecoderDecodesTheEnabledTrackByDefault() throws {
  let decoder = try AudioDecoder(path: disabledDefault)
  #expect(decoder.streamIndex == 1)
  #expect(decoder.channels == 1)
}

@Test func disabledTracksAreChosenOnlyWhenNoneIsEnabled() {
  var disabled = AudioTrack(
    index: 0, codec: "aac", sampleRate: 48000, channels: 6, channelLayout: "5.1",
    language: "en", dispositions: ["default"])
  disabled.isEnabled = false
  let enabled = AudioTrack(
    index: 1, codec: "aac", sampleRate: 48000, channels: 2, channelLayout: "stereo",
    language: "en")
  var tracks = [disabled, enabled]
  TrackKinds.classify(&tracks)
  #expect(tracks.map(\.kind) == [.alternative, .main])
  #expect(TrackSelection.defaultAudio(in: tracks, preferences: TrackPreferences())?.index == 1)
  // A file whose only audio is disabled still plays it (and `mtool stretch` reads it).
  var alone = [disabled]
  TrackKinds.classify(&alone)
  #expect(TrackSelection.defaultAudio(in: alone, preferences: TrackPreferences())?.index == 0)
  // A disabled subtitle track is never shown by default.
  var subtitle = SubtitleTrack(index: 2, codec: "subrip", language: "fr", dispositions: ["default"])
  subtitle.isEnabled = false
  #expect(
    TrackSelection.defaultSubtitle(
      in: [subtitle], audio: enabled, preferences: TrackPreferences(subtitles: .always)) == nil)
  #expect(
    TrackSelection.defaultSubtitle(
      in: [subtitle], audio: enabled,
      preferences: TrackPreferences(languages: ["fr"], subtitles: .always)) == nil)
}
