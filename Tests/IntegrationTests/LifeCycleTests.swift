import Foundation
import PlayerKit
import Testing

extension IntegrationTests {
  @Suite("Life cycle: destroy releases everything; the command line")
  struct LifeCycleTests {
    @Test("destroy drops the decoder and every plugin's state")
    func destroyReleases() throws {
      let session = try play("play; 0.5s", config: playerConfig(subs: sideVTT))
      var seen = 0
      session.observe { _ in seen += 1 }
      let before = session.resources
      #expect(before.decoderOpen)
      #expect(
        before.plugins == ["speed": .configured, "asel": .configured, "subtitles": .configured])
      #expect(before.observers == 1)
      session.destroy()
      let after = session.resources
      #expect(!after.decoderOpen)
      #expect(after.plugins == ["speed": .destroyed, "asel": .destroyed, "subtitles": .destroyed])
      #expect(after.observers == 0)
      #expect(session.state == .destroyed)
      #expect(session.speed?.menu == nil)
      #expect(session.audioSelection?.tracks.isEmpty == true)
      #expect(session.subtitles?.document == nil)
      #expect(throws: PlayerError.self) { try session.run(script: "play") }
      #expect(seen == 0)
    }

    @Test("Out-of-range times from the Swift API are refused, not trapped on")
    func outOfRange() throws {
      let session = try play("play; 0.1s")
      defer { session.destroy() }
      for command in [ScriptCommand.wait(1e300), .seek(.infinity), .delay(.nan)] {
        #expect(throws: PlayerError.self) { try session.perform(command) }
      }
      #expect(session.currentSample == sampleRate / 10)
    }

    @Test("200 sessions leave no file descriptor open")
    func noDescriptorLeak() throws {
      let script = "play; 0.05s; audio next; 0.05s; subs 2; seek 3; 0.02s; end"
      let config = playerConfig(subs: sideVTT)
      #expect(openFixtureDescriptors() == 0)
      for _ in 0..<200 {
        let session = try play(script, config: config)
        // The open decoder holds the media file open: the count can see a leak.
        #expect(openFixtureDescriptors() == 1)
        session.destroy()
      }
      #expect(openFixtureDescriptors() == 0)
    }

    @Test("Observers see time updates after every block; the log keeps the rest")
    func observers() throws {
      let session = PlayerSession(path: twoVoices, config: playerConfig(), renderBlock: 160)
      defer { session.destroy() }
      var updates: [Int] = []
      var kinds: [PlayerEvent.Kind] = []
      let token = session.observe { event in
        if event.kind == .timeUpdate {
          updates.append(event.sample)
        } else {
          kinds.append(event.kind)
        }
      }
      try session.configure()
      try session.run(script: "play; 0.1s; pause")
      #expect(updates == (1...10).map { $0 * 160 })
      #expect(kinds == [.ready, .play, .time, .pause])
      #expect(session.log.map(\.kind) == kinds)
      session.removeObserver(token)
      try session.run(script: "play; 0.1s")
      #expect(updates.count == 10)
    }

    @Test("Events round-trip through JSON")
    func jsonEvents() throws {
      let session = try play("play; 1s; speed 2; 1s", config: playerConfig(subs: sideVTT))
      defer { session.destroy() }
      let data = try JSONEncoder().encode(session.log)
      #expect(try JSONDecoder().decode([PlayerEvent].self, from: data) == session.log)
      #expect(session.log[0].logLine.hasPrefix("0.000 0.000 [0] 1x ready audio=1 subs=file"))
    }

    @Test(
      "Bad scripts are usage errors",
      arguments: [
        "play; jump 3", "speed", "speed fast", "3", "-2s", "seek -1", "audio next 2", "subs x",
        "play now", "1e300s", "seek 1e9", "delay nan",
      ])
    func badScripts(script: String) {
      #expect(throws: PlayerError.self) { try PlayerScript.parse(script) }
      do {
        _ = try PlayerScript.parse(script)
      } catch {
        #expect(error.exitCode == 64)
      }
    }

    @Test("Scripts parse to commands")
    func scripts() throws {
      let commands = try PlayerScript.parse(
        "play; 3s; speed 2; 2s; speed up; audio next; audio 1; audio fr; subs off; subs 3; "
          + "subs file; delay -0.5; seek 10; pause; end;")
      #expect(
        commands == [
          .play, .wait(3), .speed(.exact(2)), .wait(2), .speed(.up), .audio(.next),
          .audio(.index(1)),
          .audio(.language("fr")), .subs(.off), .subs(.index(3)), .subs(.file), .delay(-0.5),
          .seek(10), .pause, .end,
        ])
    }

    @Test("The command line: bad keys exit 64 with one stderr line; missing media 66")
    func commandLine() throws {
      let bad = try runPlayer([twoVoices, "--speeds", "0.5,1,1", "--script", "play; 1s"])
      #expect(bad.status == 64)
      #expect(
        bad.stderr == "PlayerSession: speed.options: menu speed #2 (1.0) repeats an earlier speed\n"
      )
      let script = try runPlayer([twoVoices, "--script", "play; fly"])
      #expect(script.status == 64)
      #expect(script.stderr.hasPrefix("PlayerSession: script: 'fly'"))
      let missing = try runPlayer([fixtures + "/player/none.mkv", "--script", "play"])
      #expect(missing.status == 66)
      let good = try runPlayer([
        twoVoices, "--subs", sideVTT, "--prefer", "fr,en", "--speeds", "0.5,1,2", "--labels",
        "Slow,Normal,Fast", "--script", "play; 3s; speed 2; 2s; audio next; seek 10; 2s; end",
      ])
      #expect(good.status == 0)
      #expect(good.stderr.isEmpty)
      let lines = good.stdout.split(separator: "\n")
      #expect(lines.first?.contains(" ready audio=1 subs=file ") == true)
      #expect(lines.contains { $0.hasPrefix("5.000 7.000 [112000] 2x time") })
      #expect(lines.last?.contains(" time ") == true)
      let json = try runPlayer([twoVoices, "--json", "--script", "play; 1s; end"])
      let events = try json.stdout.split(separator: "\n").map {
        try JSONDecoder().decode(PlayerEvent.self, from: Data($0.utf8))
      }
      #expect(events.map(\.kind) == [.ready, .play, .time, .ended])
    }

    @Test("The command line remembers the audio choice in a --memory file")
    func commandLineMemory() throws {
      let file = NSTemporaryDirectory() + "player-memory-\(getpid()).json"
      defer { try? FileManager.default.removeItem(atPath: file) }
      let first = try runPlayer([
        twoVoices, "--prefer", "fr,en", "--memory", file, "--script", "audio en; end",
      ])
      #expect(first.status == 0)
      #expect(first.stdout.hasPrefix("0.000 0.000 [0] 1x ready audio=1 "))
      let second = try runPlayer([
        twoVoices, "--prefer", "fr,en", "--memory", file, "--script", "end",
      ])
      #expect(second.stdout.hasPrefix("0.000 0.000 [0] 1x ready audio=0 "))
      try Data("{".utf8).write(to: URL(fileURLWithPath: file))
      let broken = try runPlayer([twoVoices, "--memory", file, "--script", "end"])
      #expect(broken.status == 64)
    }
  }
}

/// The result of running the built `PlayerSession` binary.
struct PlayerRun {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs the `PlayerSession` executable built beside the tests.
func runPlayer(_ arguments: [String]) throws -> PlayerRun {
  let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
  var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
  var binary = "PlayerSession"
  while dir.path != "/" {
    let candidate = dir.appendingPathComponent("PlayerSession").path
    if FileManager.default.isExecutableFile(atPath: candidate) {
      binary = candidate
      break
    }
    dir = dir.deletingLastPathComponent()
  }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: binary)
  process.arguments = arguments
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return PlayerRun(
    status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
    stderr: String(decoding: stderr, as: UTF8.self))
}
