import PlayerKit
import SubtitleParser
import Testing

@testable import MediaTracks

extension IntegrationTests {
  @Suite("Subtitles plugin: cue events in order, seeks, delay, in-media streams")
  struct SubtitleTests {
    /// Media seconds one render block covers at `rate`.
    func blockSpan(_ rate: Double, block: Int = 512) -> Double {
      Double(block) * rate / Double(sampleRate)
    }

    /// Checks that each cue of `cues` entered once and exited once, in timeline order, each
    /// event within one render block after its (offset) time.
    func checkPlayedThrough(
      _ session: PlayerSession, cues: [(start: Double, end: Double)], offset: Double = 0,
      rate: Double = 1
    ) {
      let cueEvents = session.log.filter { $0.kind == .cueEnter || $0.kind == .cueExit }
      let entered = cueEvents.filter { $0.kind == .cueEnter }.compactMap(\.cue)
      let exited = cueEvents.filter { $0.kind == .cueExit }.compactMap(\.cue)
      let order = CueTimeline(times: cues.map { (startTime: $0.start, endTime: $0.end) }).order
      #expect(entered == order)
      #expect(exited.sorted() == order.sorted())
      let slack = blockSpan(rate) + latencySlack
      for event in cueEvents {
        guard let cue = event.cue else { continue }
        var time = (event.kind == .cueEnter ? cues[cue].start : cues[cue].end) + offset
        // Cues still showing at the end of the media exit there.
        if let end = session.events(.ended).first?.position { time = min(time, end) }
        #expect(event.position >= time, "\(event.logLine)")
        #expect(event.position < time + slack, "\(event.logLine)")
      }
      for cue in order {
        let enter = cueEvents.firstIndex { $0.kind == .cueEnter && $0.cue == cue } ?? -1
        let exit = cueEvents.firstIndex { $0.kind == .cueExit && $0.cue == cue } ?? -1
        #expect(enter < exit)
      }
    }

    /// Positions are exact; a small allowance covers rounding to the sample.
    let latencySlack = 1.0 / Double(sampleRate)

    let sideCues: [(start: Double, end: Double)] = [(0.5, 1.5), (2, 6), (4, 5), (9, 11.5)]
    let englishCues: [(start: Double, end: Double)] = [
      (1, 2.5), (3, 4), (5.5, 7.5), (8, 9), (10, 11),
    ]

    @Test("Side-loaded WebVTT: every cue enters and exits once, in order")
    func sideloadedPlayThrough() throws {
      let session = try play("play; 13s", config: playerConfig(subs: sideVTT))
      defer { session.destroy() }
      #expect(session.log.first?.subtitles == "file")
      checkPlayedThrough(session, cues: sideCues)
      #expect(session.events(.ended).count == 1)
      #expect(session.events(.cueEnter).first?.text == "Side one")
    }

    @Test("In-media English SRT at 2x: every cue enters and exits once, in order")
    func embeddedAtDoubleSpeed() throws {
      let session = try play("subs 2; speed 2; play; 7s", config: playerConfig(prefer: ["en"]))
      defer { session.destroy() }
      checkPlayedThrough(session, cues: englishCues, rate: 2)
      #expect(session.events(.cueEnter).map(\.text)[2] == "Three,\non two lines.")
      #expect(session.memory.subtitleLanguage == "en")
    }

    @Test("A seek back re-fires the cues it passes again; a seek forward shows what is active")
    func seekRefiresCues() throws {
      let session = try play(
        "play; 2.5s; seek 0.6; 1s; seek 4.5; 0.2s", config: playerConfig(subs: sideVTT))
      defer { session.destroy() }
      let cueEvents = session.log.filter {
        $0.kind == .cueEnter || $0.kind == .cueExit || $0.kind == .seek
      }
      let summary = cueEvents.map { event -> String in
        switch event.kind {
        case .seek: "seek"
        case .cueEnter: "+\(event.cue ?? -1)"
        default: "-\(event.cue ?? -1)"
        }
      }
      #expect(summary == ["+0", "-0", "+1", "seek", "-1", "+0", "-0", "seek", "+1", "+2"])
      let seeks = session.events(.seek)
      #expect(
        seeks.map(\.sample) == [Int(0.6 * Double(sampleRate)), Int(4.5 * Double(sampleRate))])
      #expect(session.subtitles?.active == [1, 2])
      #expect(session.log.last?.activeCues == [1, 2])
    }

    @Test("A delay changed during play shifts the cue events")
    func delayShiftsCues() throws {
      let plain = try play("play; 0.2s; 13s", config: playerConfig(subs: sideVTT))
      let delayed = try play("play; 0.2s; delay 0.75; 13s", config: playerConfig(subs: sideVTT))
      defer {
        plain.destroy()
        delayed.destroy()
      }
      checkPlayedThrough(plain, cues: sideCues)
      checkPlayedThrough(delayed, cues: sideCues, offset: 0.75)
      let a = plain.events(.cueEnter).map(\.position)
      let b = delayed.events(.cueEnter).map(\.position)
      #expect(a.count == b.count)
      for (x, y) in zip(a, b) { #expect(abs(y - x - 0.75) < blockSpan(1)) }
      #expect(delayed.events(.delay).first?.detail == "0.000 -> 0.750")
    }

    @Test("A delay change while a cue shows hides or shows it at once")
    func delayWhileShowing() throws {
      let session = try play("play; 1s; delay 1; delay -1.2", config: playerConfig(subs: sideVTT))
      defer { session.destroy() }
      let kinds = session.log.suffix(4).map {
        "\($0.kind.rawValue)\($0.cue.map { " \($0)" } ?? "")"
      }
      // At 1 s: cue 0 (0.5–1.5) shows; +1 s hides it; −1.2 s shows cue 1 (2–6 → 0.8–4.8).
      #expect(kinds == ["delay", "cue-exit 0", "delay", "cue-enter 1"])
    }

    @Test("Subtitle sources switch during play: off, the file, a track")
    func switchSources() throws {
      let session = try play(
        "play; 1s; subs off; 1s; subs file; 0.5s; subs 2", config: playerConfig(subs: sideVTT))
      defer { session.destroy() }
      #expect(session.events(.subtitles).map(\.subtitles) == [nil, "file", "2"])
      #expect(session.memory.subtitleLanguage == "en")
      #expect(!session.memory.subtitlesOff)
      // At 2.5 s the file shows cue 1 ("Side two"); the English track shows nothing then.
      #expect(session.log.last?.kind == .subtitles)
      #expect(throws: PlayerError.self) { try session.run(script: "subs 0") }
    }

    @Test("SubtitleStreamReader reads subrip, mov_text and webvtt streams")
    func streamReader() throws {
      let english = try SubtitleStreamReader(path: twoVoices, streamIndex: 2).read()
      #expect(english.map(\.startTime) == englishCues.map(\.start))
      #expect(english.map(\.endTime) == englishCues.map(\.end))
      #expect(english[2].text == "Three,\non two lines.")
      let forced = try SubtitleStreamReader(path: twoVoices, streamIndex: 3).read()
      #expect(forced.map(\.text) == ["PANNEAU : Sortie", "PANNEAU : Gare"])
      let movText = try SubtitleStreamReader(
        path: fixtures + "/player/en-movtext.mp4", streamIndex: 0
      )
      .read()
      #expect(movText.map(\.startTime) == englishCues.map(\.start))
      #expect(movText.map(\.endTime) == englishCues.map(\.end))
      #expect(movText.map(\.text) == english.map(\.text))
      let ass = try SubtitleStreamReader(path: fixtures + "/player/en-ass.mkv", streamIndex: 0)
        .read()
      #expect(ass.map(\.startTime) == englishCues.map(\.start))
      #expect(ass.map(\.text) == english.map(\.text))
      let webVTT = try SubtitleStreamReader(
        path: fixtures + "/player/side-webvtt.webm", streamIndex: 0
      ).read()
      #expect(webVTT.map(\.startTime) == sideCues.map(\.start))
      #expect(webVTT.map(\.endTime) == sideCues.map(\.end))
      #expect(
        webVTT.map(\.text) == ["Side one", "Side two", "Side three, overlapping", "Side four"])
    }

    @Test("SubtitleStreamReader refuses streams that are not subtitles and missing files")
    func streamReaderErrors() {
      #expect {
        try SubtitleStreamReader(path: twoVoices, streamIndex: 0).read()
      } throws: { ($0 as? MediaError)?.kind == .noSuchStream }
      #expect {
        try SubtitleStreamReader(path: twoVoices, streamIndex: 9).read()
      } throws: { ($0 as? MediaError)?.kind == .noSuchStream }
      #expect {
        try SubtitleStreamReader(path: fixtures + "/player/missing.mkv", streamIndex: 2).read()
      } throws: { ($0 as? MediaError)?.kind == .notFound }
    }

    @Test("Packet payloads to text: mov_text length prefix, ASS fields")
    func payloadText() {
      // An ASS block's Text field as stored; the script reading of document() applies to it.
      let ass = Array("3,0,Default,,0,0,0,,{\\i1}Hi{\\i0}, there\\Nsecond\r\n".utf8)
      #expect(
        SubtitleStreamReader.text(of: ass, codec: "ass") == "{\\i1}Hi{\\i0}, there\\Nsecond")
      let movText: [UInt8] = [0, 3] + Array("abcSTYL".utf8)
      #expect(SubtitleStreamReader.text(of: movText, codec: "mov_text") == "abc")
      #expect(SubtitleStreamReader.text(of: [0, 0], codec: "mov_text") == "")
      #expect(SubtitleStreamReader.text(of: Array("a\r\nb\n".utf8), codec: "subrip") == "a\nb")
    }
  }
}
