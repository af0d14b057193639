import Foundation
import PlayerKit
import Testing
import TimeStretch

/// The committed fixtures directory, found from this file's path.
let fixtures: String = {
  var path = #filePath
  while let slash = path.lastIndex(of: "/"), !path.hasSuffix("/Tests") {
    path = String(path[..<slash])
  }
  return path + "/Fixtures"
}()

/// 12 s: English (stream 0, default) and French (1) mono AAC at 16 kHz; SRT subtitles:
/// English (2), French forced (3), French (4).
let twoVoices = fixtures + "/player/two-voices.mkv"
/// The sample rate of the fixture's audio (Hz).
let sampleRate = 16_000
/// The stretcher's segment hop at `sampleRate`: 10 ms.
let hop = sampleRate / 100
/// The side-loaded WebVTT file: four cues.
let sideVTT = fixtures + "/player/side.vtt"

/// A config with every plugin and a three-rate menu.
func playerConfig(
  prefer: [String] = ["fr", "en"], subs: String? = nil, speeds: [Double] = [0.5, 1, 2],
  labels: [String]? = ["Slow", "Normal", "Fast"]
) -> ControlsConfig {
  var config = ControlsConfig()
  config.enablePlugins(["speed", "asel", "subtitles"])
  config["speed.options"] = .numbers(speeds)
  if let labels { config["speed.labels"] = .strings(labels) }
  config.preferredLanguages = prefer
  config.sideloadedSubtitles = subs
  return config
}

/// Runs `script` in a configured session and returns the session (not destroyed) and its log.
func play(
  _ script: String, config: ControlsConfig = playerConfig(), memory: PlayerMemory = PlayerMemory(),
  block: Int = 512, path: String = twoVoices
) throws -> PlayerSession {
  let session = PlayerSession(path: path, config: config, memory: memory, renderBlock: block)
  try session.configure()
  try session.run(script: script)
  return session
}

/// The media sample the stretcher's map gives for the rendered frames, computed here from the
/// public breakpoints: `base + inputFrame + (delivered − outputFrame) · speed` on the last
/// piece that starts at or before `delivered`.
func mappedSample(_ map: (base: Int, delivered: Int, breakpoints: [SpeedBreakpoint])) -> Int {
  var i = map.breakpoints.count - 1
  while i > 0 && map.breakpoints[i].outputFrame > map.delivered { i -= 1 }
  let piece = map.breakpoints[i]
  let input = piece.inputFrame + Double(map.delivered - piece.outputFrame) * piece.speed
  return Int((Double(map.base) + input).rounded())
}

/// The open file descriptors of this process that refer to the player fixtures (other suites
/// running in the same process open other files, so only these are counted).
func openFixtureDescriptors() -> Int {
  let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  var count = 0
  for fd in fds {
    let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)
    if target?.contains("/Fixtures/player/") == true { count += 1 }
  }
  return count
}

/// All integration suites, run one test at a time: the descriptor count must not see another
/// test's open files.
@Suite(.serialized) struct IntegrationTests {}

extension PlayerSession {
  /// The events of one kind.
  func events(_ kind: PlayerEvent.Kind) -> [PlayerEvent] { log.filter { $0.kind == kind } }
}
