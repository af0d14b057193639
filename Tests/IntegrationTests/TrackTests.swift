import MediaTracks
import PlayerKit
import Testing

extension IntegrationTests {
  @Suite("Audio selection: defaults, remembered choice, switching mid-play")
  struct TrackTests {
    @Test("--prefer fr,en: French audio and French forced subtitles")
    func preferFrench() throws {
      let session = try play("", config: playerConfig(prefer: ["fr", "en"]))
      defer { session.destroy() }
      let ready = try #require(session.log.first)
      #expect(ready.kind == .ready)
      #expect(ready.audio == 1)
      #expect(ready.subtitles == "3")
      #expect(session.audioSelection?.tracks.map(\.label) == ["English", "French"])
    }

    @Test("--prefer en: English audio and no subtitles")
    func preferEnglish() throws {
      let session = try play("", config: playerConfig(prefer: ["en"]))
      defer { session.destroy() }
      let ready = try #require(session.log.first)
      #expect(ready.audio == 0)
      #expect(ready.subtitles == nil)
    }

    @Test("The remembered audio language wins over the preferred languages")
    func rememberedChoiceWins() throws {
      let first = try play("play; 1s; audio en; 1s; end")
      #expect(first.memory.audioLanguage == "en")
      let memory = first.memory
      first.destroy()
      let second = try play("", memory: memory)
      defer { second.destroy() }
      #expect(second.log.first?.audio == 0)
      // Nothing remembered: the preferred language again.
      let third = try play("")
      defer { third.destroy() }
      #expect(third.log.first?.audio == 1)
    }

    @Test("The remembered subtitle choice wins too: a language, or off")
    func rememberedSubtitles() throws {
      let english = try play("", memory: PlayerMemory(subtitleLanguage: "eng"))
      defer { english.destroy() }
      #expect(english.log.first?.audio == 1)
      #expect(english.log.first?.subtitles == "2")
      let off = try play("", memory: PlayerMemory(subtitlesOff: true))
      defer { off.destroy() }
      #expect(off.log.first?.subtitles == nil)
      // Chosen off, subtitles no longer follow the audio.
      try off.run(script: "audio 0; audio 1")
      #expect(off.events(.subtitles).isEmpty)
      let first = try play("subs 4; subs off")
      #expect(first.memory == PlayerMemory(subtitlesOff: true))
      first.destroy()
    }

    @Test("Play after the end starts again from the beginning")
    func replay() throws {
      let session = try play("play; 6s; speed 2; 4s; play; 1s")
      defer { session.destroy() }
      #expect(session.events(.ended).map(\.detail) == ["media"])
      #expect(session.events(.seek).map(\.sample) == [0])
      #expect(session.events(.time).last?.sample == 2 * sampleRate)
      #expect(session.state == .playing)
    }

    @Test("Switching continues from the same media time; forced subtitles follow the audio")
    func switchMidPlay() throws {
      let session = try play("play; 1.5s; speed 2; 0.5s; audio next; 1s; audio 1; 0.5s")
      defer { session.destroy() }
      let switches = session.events(.audio)
      #expect(switches.map(\.audio) == [0, 1])
      let times = session.events(.time)
      // Each switch happens at the position of the time event before it, to the sample.
      #expect(switches[0].sample == times[1].sample)
      #expect(switches[1].sample == times[2].sample)
      // After a switch the map starts at the switch position.
      let map = try #require(session.mediaTimeMap)
      #expect(map.base == switches[1].sample)
      #expect(times[3].sample == mappedSample(map))
      #expect(abs(times[3].sample - switches[1].sample - sampleRate) <= session.latencyFrames)
      // French forced (3) with French audio, none with English (understood), back with French.
      #expect(session.events(.subtitles).map(\.subtitles) == [nil, "3"])
      #expect(session.log.first?.subtitles == "3")
    }

    @Test("A language choice picks that language's track; unknown ones are refused")
    func audioByLanguage() throws {
      let session = try play("play; 0.5s; audio fre")
      defer { session.destroy() }
      #expect(session.audioTrack == 1)
      #expect(session.events(.audio).isEmpty)
      try session.run(script: "audio eng")
      #expect(session.audioTrack == 0)
      #expect(throws: PlayerError.self) { try session.run(script: "audio de") }
      #expect(throws: PlayerError.self) { try session.run(script: "audio 7") }
    }

    @Test("The two-second multitrack fixture plays to its end on each track")
    func multitrackPlaysToTheEnd() throws {
      let path = fixtures + "/multitrack.mkv"
      let session = try play(
        "play; 0.5s; audio next; 0.5s; audio next; 3s", config: playerConfig(prefer: ["en"]),
        path: path)
      defer { session.destroy() }
      #expect(session.events(.audio).map(\.audio) == [1, 2])
      let ended = try #require(session.events(.ended).first)
      #expect(ended.detail == "media")
      #expect(abs(ended.position - 2) < 0.05)
      #expect(session.state == .ended)
    }
  }
}
