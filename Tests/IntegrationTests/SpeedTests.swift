import PlayerKit
import Testing
import TimeStretch

extension IntegrationTests {
  @Suite("Speed plugin: menu from custom keys, live rate, exact position")
  struct SpeedTests {
    @Test("3 s at 1x then 2 s at 2x: 7 s, exact to the sample of the stretcher's map")
    func threeThenTwoAtDouble() throws {
      let session = try play("play; 3s; speed 2; 2s")
      defer { session.destroy() }
      let times = session.events(.time)
      #expect(times.count == 2)
      // At 1x the map is the identity: exactly 3 s.
      #expect(times[0].sample == 3 * sampleRate)
      #expect(times[0].position == 3)
      let map = try #require(session.mediaTimeMap)
      #expect(times[1].sample == mappedSample(map))
      #expect(map.delivered == 5 * sampleRate)
      // The map against the script arithmetic: within the stretcher's latency.
      #expect(abs(times[1].sample - 7 * sampleRate) <= session.latencyFrames)
      #expect(times[1].speed == 2)
      #expect(session.events(.speed).first?.detail == "1x -> 2x \"Fast\"")
      // The breakpoint of the change is at most one 10 ms segment after the command.
      let change = try #require(map.breakpoints.last)
      #expect(change.speed == 2)
      #expect(change.outputFrame >= 3 * sampleRate && change.outputFrame <= 3 * sampleRate + hop)
    }

    /// Scripts and the media seconds their arithmetic gives.
    static let scripts: [(script: String, media: Double)] = [
      ("play; 1s; speed 0.5; 1s; speed 2; 1.5s; speed 1; 0.25s", 4.75),
      ("play; 0.7s; speed up; 0.3s; speed down; speed down; 2s", 2.3),
      ("play; 2s; pause; 5s; speed 0.5; play; 2s", 3),
    ]

    @Test("Positions follow the map across many changes", arguments: scripts)
    func manyChanges(script: String, expected: Double) throws {
      let session = try play(script)
      defer { session.destroy() }
      let last = try #require(session.events(.time).last)
      let map = try #require(session.mediaTimeMap)
      #expect(last.sample == mappedSample(map))
      #expect(last.sample == session.currentSample)
      let changes = max(1, map.breakpoints.count - 1)
      let error: Double = abs(Double(last.sample) - expected * Double(sampleRate))
      let bound: Double = Double(session.latencyFrames * changes)
      #expect(error <= bound)
    }

    @Test("Paused time renders nothing")
    func pauseStopsTheMedia() throws {
      let session = try play("play; 1s; pause; 3s; play; 1s")
      defer { session.destroy() }
      let times = session.events(.time)
      #expect(times.map(\.sample) == [sampleRate, sampleRate, 2 * sampleRate])
      #expect(times.map(\.clock) == [1, 4, 5])
      #expect(session.outputFrames == 2 * sampleRate)
      #expect(session.events(.play).map(\.detail) == ["first", ""])
    }

    @Test("Bad keys give the menu's typed error")
    func badKeys() throws {
      func failure(_ config: ControlsConfig) -> PlayerError? {
        let session = PlayerSession(path: twoVoices, config: config)
        defer { session.destroy() }
        do {
          try session.configure()
          return nil
        } catch {
          return error
        }
      }
      #expect(
        failure(playerConfig(speeds: [0.5, 1, 1], labels: nil))
          == .speedMenu(.duplicateMenuSpeed(index: 2, value: 1)))
      #expect(
        failure(playerConfig(speeds: [0.5, 1], labels: ["Slow"]))
          == .speedMenu(.labelCountMismatch(speeds: 2, labels: 1)))
      #expect(
        failure(playerConfig(speeds: [0, 1], labels: nil))
          == .speedMenu(
            .invalidMenuSpeed(index: 0, value: 0, supported: TimeStretcher.supportedSpeeds)))
      var config = playerConfig()
      config["speed.option"] = .numbers([1])
      #expect(
        failure(config)
          == .invalidKey(
            "speed.option", reason: "unknown key of the speed plugin (options, labels, default)"))
      config = playerConfig()
      config["speed.labels"] = .number(3)
      #expect(failure(config) == .invalidKey("speed.labels", reason: "expects a list of strings"))
      config = playerConfig()
      config.enablePlugins(["chromecast"])
      #expect(failure(config) == .unknownPlugin("chromecast"))
      #expect(failure(config)?.exitCode == 64)
    }

    @Test("A rate outside the menu is refused; up and down step through it")
    func menuRates() throws {
      let session = try play("play; 0.1s")
      defer { session.destroy() }
      #expect(throws: PlayerError.self) { try session.run(script: "speed 1.5") }
      #expect(session.currentSpeed == 1)
      try session.run(script: "speed up; speed up; speed up")
      #expect(session.currentSpeed == 2)
      try session.run(script: "speed down; speed down; speed down")
      #expect(session.currentSpeed == 0.5)
      #expect(session.events(.speed).count == 6)
    }
  }
}
