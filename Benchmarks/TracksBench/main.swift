// TracksBench: how fast `mtool tracks` lists the tracks of 1,000 small media files, beside
// ffprobe run once per file and beside an in-process full probe with libavformat; and whether
// every file's channels, sample rates and languages agree with ffprobe's.
//
// Usage: swift run -c release TracksBench [--json] [--json-out PATH] [--samples N]
//        [--ffprobe-samples N] [--skip-ffprobe]
// --json prints the results as JSON instead of the table; --json-out PATH also writes them to
// PATH (for Scripts/check-thresholds.py); --skip-ffprobe leaves out the ffprobe loop and the
// field check, for quick reruns.
// Needs the corpus (Scripts/make-tracks-corpus.sh) and the release mtool
// (swift build -c release --product mtool).

import CFFmpeg
import Foundation
import MediaTracks

// MARK: Setup

let packageRoot: String = {
  var path = #filePath
  for _ in 0..<3 {
    guard let slash = path.lastIndex(of: "/") else { break }
    path = String(path[..<slash])
  }
  return path
}()

let arguments = Array(CommandLine.arguments.dropFirst())
let jsonOutput = arguments.contains("--json")
let jsonOutPath: String? = arguments.firstIndex(of: "--json-out").flatMap {
  $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
}

func option(_ name: String, default value: Int) -> Int {
  guard let position = arguments.firstIndex(of: name), position + 1 < arguments.count,
    let number = Int(arguments[position + 1]), number > 0
  else { return value }
  return number
}

let samples = option("--samples", default: 5)
let ffprobeSamples = option("--ffprobe-samples", default: 1)
let corpus = packageRoot + "/Benchmarks/corpus/tracks"
let mtool = packageRoot + "/.build/release/mtool"

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data(("TracksBench: " + message + "\n").utf8))
  exit(1)
}

let files: [String] = {
  guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpus) else {
    fail("no corpus at \(corpus); run Scripts/make-tracks-corpus.sh")
  }
  return names.filter { !$0.hasPrefix(".") }.sorted().map { corpus + "/" + $0 }
}()
guard files.count >= 100 else { fail("the corpus has only \(files.count) files") }
guard FileManager.default.isExecutableFile(atPath: mtool) else {
  fail("no release mtool at \(mtool); run swift build -c release --product mtool")
}

let loadAverage =
  (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
  .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"

@inline(never) func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Runs a program to completion with posix_spawn; returns its standard output (standard error
/// goes to /dev/null). Spawning directly keeps launcher overhead out of the figures.
func run(_ program: String, _ args: [String]) -> Data {
  var pipeEnds: [Int32] = [0, 0]
  guard pipe(&pipeEnds) == 0 else { fail("pipe failed") }
  // A large pipe buffer, so the child seldom waits for the reader (F_SETPIPE_SZ).
  _ = fcntl(pipeEnds[0], 1031, Int32(1 << 20))
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
  posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
  posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv = ([program] + args).map { strdup($0) } + [nil]
  defer {
    for pointer in argv { free(pointer) }
  }
  var pid: pid_t = 0
  let code = posix_spawn(&pid, program, &actions, nil, argv, environ)
  posix_spawn_file_actions_destroy(&actions)
  close(pipeEnds[1])
  guard code == 0 else {
    close(pipeEnds[0])
    fail("cannot run \(program): error \(code)")
  }
  var output = Data()
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    if count <= 0 { break }
    output.append(contentsOf: chunk[0..<count])
  }
  close(pipeEnds[0])
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return output
}

struct Timing {
  var name: String
  /// Wall-clock seconds per sample.
  var seconds: [Double]
  /// CPU seconds (user + system, this process and its children) per sample.
  var cpu: [Double]
  var min: Double { seconds.min() ?? .nan }
  var cpuMin: Double { cpu.min() ?? .nan }
  var median: Double {
    let sorted = seconds.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }
}

/// CPU seconds used so far by this process and its waited-for children.
func cpuSeconds() -> Double {
  var total = 0.0
  for who in [RUSAGE_SELF, RUSAGE_CHILDREN] {
    var usage = rusage()
    getrusage(__rusage_who_t(who.rawValue), &usage)
    total += Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
    total += Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
  }
  return total
}

/// Times `body` `count` times after one warm-up run (skipped when `warmUp` is false).
func measure(_ name: String, count: Int, warmUp: Bool = true, _ body: () -> Void) -> Timing {
  if warmUp { body() }
  var seconds: [Double] = []
  var cpu: [Double] = []
  let clock = ContinuousClock()
  for _ in 0..<count {
    let cpuBefore = cpuSeconds()
    let elapsed = clock.measure(body)
    cpu.append(cpuSeconds() - cpuBefore)
    seconds.append(
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
  }
  return Timing(name: name, seconds: seconds, cpu: cpu)
}

// MARK: (a) mtool tracks --json, one process for all files

var mtoolOutput = Data()
let ours = measure("mtool tracks --json (1 process, default jobs)", count: samples) {
  mtoolOutput = run(mtool, ["tracks", "--json"] + files)
}
let oursSerial = measure("mtool tracks --json --jobs 1", count: samples) {
  blackHole(run(mtool, ["tracks", "--json", "--jobs", "1"] + files))
}

// MARK: (b) ffprobe once per file

var ffprobeOutputs: [Data] = []
let skipFFprobe = arguments.contains("--skip-ffprobe")
let ffprobe = measure(
  "ffprobe -show_streams -show_format -of json, once per file",
  count: skipFFprobe ? 0 : ffprobeSamples, warmUp: false
) {
  ffprobeOutputs = files.map {
    run("/usr/bin/ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", $0])
  }
}

// MARK: (c) in-process full probe: avformat_open_input + avformat_find_stream_info

av_log_set_level(AV_LOG_QUIET)
let fullProbe = measure("libavformat open + find_stream_info (in process)", count: samples) {
  var streams = 0
  for path in files {
    var context: UnsafeMutablePointer<AVFormatContext>? = nil
    guard avformat_open_input(&context, path, nil, nil) >= 0 else { continue }
    if avformat_find_stream_info(context, nil) >= 0, let context {
      streams += Int(context.pointee.nb_streams)
    }
    avformat_close_input(&context)
  }
  blackHole(streams)
}

// MARK: (d) the library in process, one thread

let library = measure("MediaProbe.probe (in process, 1 thread)", count: samples) {
  blackHole(MediaProbe.probe(paths: files, jobs: 1))
}

// MARK: Field check against ffprobe

var mismatches: [String] = []
var checkedStreams = 0
if !skipFFprobe {
  guard
    let document = try? JSONSerialization.jsonObject(with: mtoolOutput) as? [String: Any],
    let listed = document["files"] as? [[String: Any]], listed.count == files.count
  else { fail("mtool's JSON does not list every file") }
  for (position, file) in listed.enumerated() {
    let path = files[position]
    let name = String(path.split(separator: "/").last ?? "")
    if let error = file["error"] as? String {
      mismatches.append("\(name): mtool error: \(error)")
      continue
    }
    guard
      let probe = try? JSONSerialization.jsonObject(with: ffprobeOutputs[position])
        as? [String: Any],
      let streams = probe["streams"] as? [[String: Any]]
    else {
      mismatches.append("\(name): ffprobe gave no JSON")
      continue
    }
    let audio = (file["audio"] as? [[String: Any]]) ?? []
    let subtitles = (file["subtitles"] as? [[String: Any]]) ?? []
    let theirAudio = streams.filter { $0["codec_type"] as? String == "audio" }
    let theirSubtitles = streams.filter { $0["codec_type"] as? String == "subtitle" }
    if audio.count != theirAudio.count || subtitles.count != theirSubtitles.count {
      mismatches.append(
        "\(name): tracks \(audio.count)+\(subtitles.count) vs ffprobe "
          + "\(theirAudio.count)+\(theirSubtitles.count)")
      continue
    }
    for (track, theirs) in zip(audio, theirAudio) {
      checkedStreams += 1
      let index = track["index"] as? Int ?? -1
      let tags = theirs["tags"] as? [String: Any] ?? [:]
      let theirLanguage = tags["language"] as? String
      let theirRate = Int(theirs["sample_rate"] as? String ?? "") ?? 0
      let theirChannels = theirs["channels"] as? Int ?? 0
      if index != theirs["index"] as? Int { mismatches.append("\(name): stream index \(index)") }
      if track["channels"] as? Int != theirChannels {
        mismatches.append(
          "\(name) #\(index): channels \(track["channels"] ?? "-") vs \(theirChannels)")
      }
      if track["sampleRate"] as? Int != theirRate {
        mismatches.append(
          "\(name) #\(index): sample rate \(track["sampleRate"] ?? "-") vs \(theirRate)")
      }
      if track["languageTag"] as? String != theirLanguage
        || track["language"] as? String != LanguageTag.bcp47(theirLanguage)
      {
        mismatches.append(
          "\(name) #\(index): language \(track["languageTag"] ?? "nil") vs "
            + "\(theirLanguage ?? "nil")")
      }
      if track["codec"] as? String != theirs["codec_name"] as? String {
        mismatches.append(
          "\(name) #\(index): codec \(track["codec"] ?? "-") vs \(theirs["codec_name"] ?? "-")")
      }
    }
    for (track, theirs) in zip(subtitles, theirSubtitles) {
      checkedStreams += 1
      let tags = theirs["tags"] as? [String: Any] ?? [:]
      if track["languageTag"] as? String != tags["language"] as? String {
        mismatches.append("\(name): subtitle language differs")
      }
    }
  }
}

// MARK: Report

let ffprobeRatio = ffprobe.min / ours.min
let fullProbeRatio = fullProbe.min / ours.min
let libraryRatio = fullProbe.min / library.min
let ffprobeCPURatio = ffprobe.cpuMin / ours.cpuMin
let fullProbeCPURatio = fullProbe.cpuMin / ours.cpuMin
let timings = [ours, oursSerial, ffprobe, fullProbe, library]

do {
  var text = "{\"files\":\(files.count),\"loadavg\":\"\(loadAverage)\",\"timings\":["
  text += timings.map {
    "{\"name\":\"\($0.name)\",\"min\":\($0.min),\"median\":\($0.median),"
      + "\"cpuMin\":\($0.cpuMin),\"samples\":\($0.seconds.count)}"
  }.joined(separator: ",")
  text += "],\"ffprobeOverMtool\":\(ffprobeRatio),\"fullProbeOverMtool\":\(fullProbeRatio),"
  text += "\"fullProbeOverLibrary\":\(libraryRatio),\"ffprobeOverMtoolCPU\":\(ffprobeCPURatio),"
  text += "\"fullProbeOverMtoolCPU\":\(fullProbeCPURatio),\"checkedStreams\":\(checkedStreams),"
  text += "\"mismatches\":\(mismatches.count)}"
  if jsonOutput { print(text) }
  if let jsonOutPath,
    !FileManager.default.createFile(atPath: jsonOutPath, contents: Data(text.utf8))
  {
    fail("cannot write \(jsonOutPath)")
  }
}
if !jsonOutput {
  print("TracksBench: \(files.count) files, load average \(loadAverage)")
  for timing in timings {
    let name = timing.name.padding(toLength: 60, withPad: " ", startingAt: 0)
    print(
      "  \(name) min \(String(format: "%8.3f", timing.min)) s  median "
        + "\(String(format: "%8.3f", timing.median)) s  cpu \(String(format: "%7.3f", timing.cpuMin)) s"
        + "  (\(timing.seconds.count) samples, "
        + "\(String(format: "%.0f", Double(files.count) / timing.min)) files/s)")
  }
  func verdict(_ ratio: Double, _ goal: Double) -> String {
    ratio >= goal ? "ok" : "MISSED"
  }
  print(
    "  ffprobe loop / mtool:          \(String(format: "%7.1f", ffprobeRatio))x  "
      + "(goal >= 100x) \(verdict(ffprobeRatio, 100))")
  print(
    "  full in-process probe / mtool: \(String(format: "%7.1f", fullProbeRatio))x  "
      + "(goal >= 3x) \(verdict(fullProbeRatio, 3))")
  print(
    "  full in-process probe / library, 1 thread: \(String(format: "%.1f", libraryRatio))x")
  print(
    "  CPU time (load-independent): ffprobe loop / mtool "
      + "\(String(format: "%.1f", ffprobeCPURatio))x, full probe / mtool "
      + "\(String(format: "%.1f", fullProbeCPURatio))x")
  print(
    "  fields vs ffprobe: \(checkedStreams) streams checked, \(mismatches.count) mismatches")
  for line in mismatches.prefix(20) { print("    " + line) }
  if mismatches.count > 20 { print("    … \(mismatches.count - 20) more") }
}
