// StretchQuality: our TimeStretcher against SoundTouch (soundstretch), FFmpeg (atempo), Rubber
// Band (R2 and R3) and Chrome's WSOLA (scaletempo2, through mpv), on deterministic synthetic
// signals and on real-content ones (a music mix, speech-like material, white, pink and
// applause-like noise, stereo sources with distinct levels; see RealContent.swift), in one run.
//
//   swift run -c release StretchQuality [--quick] [--ours-only] [--json-out PATH]
//       [--only SIGNALS] [--tools NAMES] [--speeds SPEEDS] [--no-throughput] [--seed N]
//       [--music-variant N] [--audio-out DIR]
//
// --quick times 10 s instead of 60 s of audio; --ours-only skips the peers; --json-out also
// writes every figure to PATH as JSON (for Scripts/check-thresholds.py). Peers run as commands
// on WAV files in a temporary directory (removed at the end); a missing peer is skipped.
// For a quicker look at a part of the run: --only measures the comma-separated signals alone
// (clicks, tones, vibrato, chirp, chord, noise, stereo, music, speech, white, pink, applause,
// stereolevels; the click train always runs, as it aligns the spectrograms), --tools keeps the
// peers whose name contains one of the comma-separated words (case-insensitive), --speeds
// keeps the comma-separated speeds and --no-throughput skips the throughput runs. The figures
// not measured print as "n/a" (null in the JSON); `make bench` runs everything. --seed N draws
// another band-limited noise for the timeline (0, the default, is the benchmark's own), to see
// how much a figure owes to one draw of noise. --music-variant N (1, 2, ...) plays another music
// mix of the same kind (other chords and bass notes, another draw of the cloud and hi-hats), to
// see whether a change to the stretcher holds beyond the benchmark's own mix (0, the default).
// --audio-out DIR also writes the audio behind the report's spectrograms and the music mix at
// each of its goal speeds (see AudioDump.swift).
import Foundation
import TimeStretch

let rate = 44_100
let speeds: [Double] =
  option("--speeds").map { $0.split(separator: ",").compactMap { Double($0) } }
  ?? [0.5, 0.75, 1.25, 1.5, 2, 2.5, 3]
let goalSpeeds: Set<Double> = [0.5, 1.5, 2]
/// The speeds of the real-content goals (fast speech: ``speechGoalSpeeds``).
let realGoalSpeeds: Set<Double> = [0.5, 1.5, 2, 3]
let speechGoalSpeeds: Set<Double> = [2, 2.5, 3]
let quick = CommandLine.arguments.contains("--quick")
/// The value after `flag` on the command line.
func option(_ flag: String) -> String? {
  CommandLine.arguments.firstIndex(of: flag).flatMap {
    $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
  }
}
let jsonOutPath = option("--json-out")
/// The signals measured (nil: all of them).
let onlySignals: Set<String>? = option("--only").map {
  Set($0.split(separator: ",").map { $0.lowercased() })
}
func wants(_ signal: String) -> Bool { signal == "clicks" || onlySignals?.contains(signal) ?? true }
let toolWords: [String]? = option("--tools").map {
  $0.split(separator: ",").map { $0.lowercased() }
}
let runThroughput = !CommandLine.arguments.contains("--no-throughput")
/// Whether the run is a part of the whole (a missing figure then is not a failure).
let partial = onlySignals != nil || option("--speeds") != nil
let inputSeconds = 3.0
let inputFrames = Int(inputSeconds * Double(rate))

// MARK: Signals and their ideal stretches

func synth(frames: Int, channels: Int = 1, _ f: (Int) -> [Double]) -> Audio {
  var s = [Float](repeating: 0, count: frames * channels)
  for i in 0..<frames {
    let v = f(i)
    for c in 0..<channels { s[i * channels + c] = Float(v[c]) }
  }
  return Audio(samples: s, channels: channels, sampleRate: rate)
}

func tone(_ hz: Double, frames: Int) -> Audio {
  synth(frames: frames) { [0.5 * sin(2 * Double.pi * hz * Double($0) / Double(rate))] }
}

/// Harmonic complex (196 Hz, 10 harmonics) with a 5.5 Hz, ±1 % vibrato; `scale` is the speed
/// (the vibrato runs `scale` times faster, the pitch does not move).
func vibrato(frames: Int, scale: Double) -> Audio {
  let f0 = 196.0
  let depth = 0.01
  let fv = 5.5 * scale
  return synth(frames: frames) { i in
    let t = Double(i) / Double(rate)
    let base = t - depth * cos(2 * Double.pi * fv * t) / (2 * Double.pi * fv)
    var v = 0.0
    for h in 1...10 { v += 0.25 / Double(h) * sin(2 * Double.pi * f0 * Double(h) * base) }
    return [v]
  }
}

/// A C major chord (C4, E4 and G4, equal temperament): three tones whose sum beats and repeats
/// only about every 15 ms, longer than one tone's period. Stationary, so its ideal stretch is
/// the same chord, longer or shorter.
func chord(frames: Int) -> Audio {
  synth(frames: frames) { i in
    let t = Double(i) / Double(rate)
    return [[261.63, 329.63, 392.0].reduce(0.0) { $0 + 0.2 * sin(2 * Double.pi * $1 * t) }]
  }
}

/// Linear chirp 100 Hz → 4 kHz over the input; the ideal output sweeps `scale` times faster.
func chirp(frames: Int, scale: Double) -> Audio {
  let f0 = 100.0
  let f1 = 4000.0
  return synth(frames: frames) { i in
    let t = Double(i) / Double(rate)
    return [0.5 * sin(2 * Double.pi * (f0 * t + (f1 - f0) * scale * t * t / (2 * inputSeconds)))]
  }
}

let clickSpacing = Int(0.1234 * Double(rate))
let clickStart = Int(0.05 * Double(rate))
let clickPositions = Array(stride(from: clickStart, to: inputFrames - 2000, by: clickSpacing))

func clicks(frames: Int, at positions: [Int]) -> Audio {
  var s = [Float](repeating: 0, count: frames)
  for p in positions where p < frames { s[p] = 0.9 }
  return Audio(samples: s, channels: 1, sampleRate: rate)
}

/// Band-limited noise panned left, the right channel 22 frames (499 µs) later.
let stereoDelay = 22
let stereoInput: Audio = {
  var rng: UInt64 = 0x1234_5678
  var lp1 = 0.0
  var lp2 = 0.0
  var src = [Double](repeating: 0, count: inputFrames + stereoDelay)
  for i in 0..<src.count {
    rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let white = Double(Int64(bitPattern: rng) >> 11) / Double(1 << 52)
    lp1 += 0.3 * (white - lp1)
    lp2 += 0.3 * (lp1 - lp2)
    src[i] = lp2
  }
  return synth(frames: inputFrames, channels: 2) { i in
    [0.7 * src[i + stereoDelay], 0.35 * src[i]]
  }
}()

/// Mono band-limited noise (flat to about 2 kHz, then falling): its waveform has no periodic
/// ambiguity, so short stretches of the output can be located in the input.
/// The draw of the timeline's noise (`--seed`; 0 is the benchmark's).
let noiseSeed = option("--seed").flatMap { UInt64($0) } ?? 0
/// The music mix played (`--music-variant`; 0 is the benchmark's own, see ``musicScore``).
let musicVariant = option("--music-variant").flatMap { Int($0) }.map { max(0, $0) } ?? 0
let noiseInput: Audio = {
  var rng: UInt64 = 0x9E37_79B9 &+ noiseSeed &* 0x2545_F491_4F6C_DD1D
  var lp1 = 0.0
  var lp2 = 0.0
  return synth(frames: inputFrames) { _ in
    rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let white = Double(Int64(bitPattern: rng) >> 11) / Double(1 << 52)
    lp1 += 0.3 * (white - lp1)
    lp2 += 0.3 * (lp1 - lp2)
    return [0.7 * lp2]
  }
}()

func outputLength(_ speed: Double) -> Int { Int((Double(inputFrames) / speed).rounded()) }

// MARK: Tools

struct Tool {
  var name: String
  var isOurs: Bool
  /// Float WAV in and out, or 16-bit PCM (soundstretch 2.3 writes broken 32-bit files).
  var float = true
  /// Returns the arguments for the command, or nil for in-process.
  var command: ((String, String, Double) -> [String])?
  /// Ours: the stretcher's quality.
  var quality: TimeStretcher.Quality = .standard
}

func which(_ program: String) -> String? {
  for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
    let path = "\(dir)/\(program)"
    if FileManager.default.isExecutableFile(atPath: path) { return path }
  }
  return nil
}

@discardableResult
func run(_ args: [String]) -> (status: Int32, seconds: Double) {
  #if os(Linux)
    // Foundation's Process.waitUntilExit polls every 50 ms here, which rounds every command's
    // time up to the next 50 ms step; posix_spawn and waitpid time the command itself.
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    let clock = ContinuousClock()
    let start = clock.now
    var pid: pid_t = 0
    guard posix_spawn(&pid, args[0], &actions, nil, argv, environ) == 0 else { return (-1, 0) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let d = clock.now - start
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (code, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
  #else
    let p = Process()
    p.executableURL = URL(fileURLWithPath: args[0])
    p.arguments = Array(args.dropFirst())
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    let clock = ContinuousClock()
    let start = clock.now
    do { try p.run() } catch { return (-1, 0) }
    p.waitUntilExit()
    let d = clock.now - start
    return (
      p.terminationStatus,
      Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    )
  #endif
}

let oursOnly = CommandLine.arguments.contains("--ours-only")
var tools: [Tool] = [
  Tool(name: "mtool (ours)", isOurs: true, command: nil),
  Tool(name: "mtool fine (ours)", isOurs: true, command: nil, quality: .fine),
]
if !oursOnly, let p = which("soundstretch") {
  tools.append(
    Tool(name: "SoundTouch", isOurs: false, float: false) { i, o, s in
      [p, i, o, String(format: "-tempo=%.4f", (s - 1) * 100)]
    })
}
if !oursOnly, let p = which("ffmpeg") {
  tools.append(
    Tool(name: "ffmpeg atempo", isOurs: false) { i, o, s in
      [p, "-v", "error", "-y", "-i", i, "-af", "atempo=\(s)", "-c:a", "pcm_f32le", o]
    })
}
if !oursOnly, let p = which("rubberband") {
  tools.append(
    Tool(name: "Rubber Band R2", isOurs: false) { i, o, s in [p, "-q", "-T\(s)", i, o] })
  tools.append(
    Tool(name: "Rubber Band R3", isOurs: false) { i, o, s in [p, "-q", "--fine", "-T\(s)", i, o] })
}
// Chrome's WSOLA as mpv 0.35 carries it: the audio output writes a float WAV file, as fast as
// the filters run, at the input's rate (no resampling).
if !oursOnly, let p = which("mpv") {
  tools.append(
    Tool(name: "scaletempo2", isOurs: false) { i, o, s in
      [
        p, "--no-config", "--really-quiet", "--vo=null", "--no-video", "--ao=pcm",
        "--ao-pcm-file=\(o)", "--ao-pcm-waveheader=yes", "--audio-format=float",
        "--audio-samplerate=\(rate)", "--af=scaletempo2", "--speed=\(s)", i,
      ]
    })
}

if let toolWords {
  tools = tools.filter { t in
    t.isOurs || toolWords.contains { t.name.lowercased().contains($0) }
  }
}

let temp = FileManager.default.temporaryDirectory
  .appendingPathComponent("stretchquality-\(getpid())").path
try? FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)

func stretchOurs(_ a: Audio, speed: Double, quality: TimeStretcher.Quality = .standard) -> Audio? {
  do {
    var s = try TimeStretcher(
      sampleRate: a.sampleRate, channels: a.channels, speed: speed, quality: quality)
    var out: [Float] = []
    out.reserveCapacity(Int(Double(a.samples.count) / speed) + 1024)
    let block = 4096
    var buffer = [Float](repeating: 0, count: 8192 * a.channels)
    var pos = 0
    while pos < a.frames {
      let n = min(block, a.frames - pos)
      s.push(a.samples[(pos * a.channels)..<((pos + n) * a.channels)])
      pos += n
      while true {
        let got = s.pull(into: &buffer, maxFrames: 8192)
        if got == 0 { break }
        out += buffer[0..<(got * a.channels)]
      }
    }
    s.finish()
    while true {
      let got = s.pull(into: &buffer, maxFrames: 8192)
      if got == 0 { break }
      out += buffer[0..<(got * a.channels)]
    }
    return Audio(samples: out, channels: a.channels, sampleRate: a.sampleRate)
  } catch {
    print("mtool: \(error)")
    return nil
  }
}

var inputPaths: [String: String] = [:]
@MainActor func stretch(_ tool: Tool, _ name: String, _ a: Audio, speed: Double) -> Audio? {
  guard wants(name.hasPrefix("tone") ? "tones" : name) else { return nil }
  guard let command = tool.command else {
    return stretchOurs(a, speed: speed, quality: tool.quality)
  }
  let key = name + (tool.float ? ".f32" : ".s16")
  let inPath: String
  if let p = inputPaths[key] {
    inPath = p
  } else {
    inPath = "\(temp)/\(key).wav"
    do { try writeWave(a, to: inPath, float: tool.float) } catch { return nil }
    inputPaths[key] = inPath
  }
  let outPath = "\(temp)/out.wav"
  try? FileManager.default.removeItem(atPath: outPath)
  guard run(command(inPath, outPath, speed)).status == 0 else { return nil }
  return try? readWave(outPath)
}

// MARK: Measurements

struct Row {
  var snr220: [Double?] = []
  var snr1k: [Double?] = []
  var cents220: [Double?] = []
  var cents1k: [Double?] = []
  var scVibrato: [Double?] = []
  var scChirp: [Double?] = []
  var scChord: [Double?] = []
  var scClicks: [Double?] = []
  var doubled: [Double?] = []
  var missed: [Double?] = []
  var timeline: [Double?] = []
  var delayError: [Double?] = []
  var correlation: [Double?] = []
  var lengthError: [Double?] = []
  var timelineWorst: [Double?] = []
  var timelineP95: [Double?] = []
  var timelineCoverage: [Double?] = []
  var scMusic: [Double?] = []
  var lsdMusic: [Double?] = []
  var scSpeech: [Double?] = []
  var envSpeech: [Double?] = []
  var periodicityWhite: [Double?] = []
  var periodicityPink: [Double?] = []
  var periodicityApplause: [Double?] = []
  var levelWhite: [Double?] = []
  var levelPink: [Double?] = []
  var levelApplause: [Double?] = []
  var bandWhite: [Double?] = []
  var bandPink: [Double?] = []
  var bandApplause: [Double?] = []
  var ildError: [Double?] = []
}

let toneFFT = FFT(size: 32_768)
let toneWindow = blackmanHarris(32_768)
let specFFT = FFT(size: 2048)
let specWindow = hann(2048)
let tone220 = tone(220, frames: inputFrames)
let tone1k = tone(1000, frames: inputFrames)
let vibratoInput = vibrato(frames: inputFrames, scale: 1)
let chirpInput = chirp(frames: inputFrames, scale: 1)
let chordInput = chord(frames: inputFrames)
let clickInput = clicks(frames: inputFrames, at: clickPositions)
let noiseChannel = noiseInput.channel(0)
let timelineFFT = FFT(size: 4096)
func mono(_ x: [Double]) -> Audio {
  Audio(samples: x.map { Float($0) }, channels: 1, sampleRate: rate)
}
let musicInput = mono(musicMix(frames: inputFrames, scale: 1))
let speechInput = mono(speech(frames: inputFrames, scale: 1))
/// The noises: name, input, its samples, its Welch spectrum, and the rows' fields.
let noises: [(String, Audio, [Double], [Double], [WritableKeyPath<Row, [Double?]>])] = [
  ("white", whiteNoise(frames: inputFrames), \.periodicityWhite, \.levelWhite, \.bandWhite),
  ("pink", pinkNoise(frames: inputFrames), \.periodicityPink, \.levelPink, \.bandPink),
  (
    "applause", applause(frames: inputFrames), \.periodicityApplause, \.levelApplause,
    \.bandApplause
  ),
].map { name, x, p, l, b in
  (name, mono(x), x, welch(x, fft: specFFT, window: specWindow), [p, l, b])
}
/// The ideals, rendered once per signal and speed.
var ideals: [String: [Double]] = [:]
@MainActor func ideal(_ name: String, _ speed: Double, _ make: () -> [Double]) -> [Double] {
  let key = "\(name)@\(speed)"
  if let x = ideals[key] { return x }
  let x = make()
  ideals[key] = x
  return x
}

func cents(_ f: Double, _ ref: Double) -> Double { 1200 * log2(f / ref) }

var rows: [Row] = []
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
print("StretchQuality: 44.1 kHz, \(inputSeconds) s inputs; load average \(load)", terminator: "")
for tool in tools {
  var r = Row()
  for speed in speeds {
    let n = outputLength(speed)
    // Clicks first: their median offset aligns the spectrograms of this tool and speed.
    var shift = 0
    if let o = stretch(tool, "clicks", clickInput, speed: speed) {
      let x = o.channel(0)
      let ideal = clickPositions.map { Int((Double($0) / speed).rounded()) }.filter { $0 < n }
      let rep = matchClicks(
        detectClicks(x, threshold: 0.3, merge: rate / 500), ideal: ideal,
        spacing: Int(Double(clickSpacing) / speed))
      r.doubled.append(Double(rep.doubled))
      r.missed.append(Double(rep.missed))
      r.timeline.append(rep.maxError / Double(rate) * 1000)
      r.lengthError.append(Double(abs(o.frames - n)) / Double(rate) * 1000)
      shift = rep.medianOffset
      let idealAudio = clicks(frames: n, at: ideal)
      r.scClicks.append(
        spectralConvergence(
          x, idealAudio.channel(0), shift: shift, fft: specFFT, window: specWindow))
    } else {
      r.doubled.append(nil)
      r.missed.append(nil)
      r.timeline.append(nil)
      r.lengthError.append(nil)
      r.scClicks.append(nil)
    }
    for (input, hz) in [(tone220, 220.0), (tone1k, 1000.0)] {
      let o = stretch(tool, "tone\(Int(hz))", input, speed: speed)
      let a = o.map {
        toneAnalysis($0.channel(0), sampleRate: rate, fft: toneFFT, window: toneWindow)
      }
      if hz == 220 {
        r.snr220.append(a?.snr)
        r.cents220.append(a.map { cents($0.frequency, 220) })
      } else {
        r.snr1k.append(a?.snr)
        r.cents1k.append(a.map { cents($0.frequency, 1000) })
      }
    }
    if let o = stretch(tool, "vibrato", vibratoInput, speed: speed) {
      let ideal = vibrato(frames: n, scale: speed).channel(0)
      r.scVibrato.append(
        spectralConvergence(o.channel(0), ideal, shift: shift, fft: specFFT, window: specWindow))
    } else {
      r.scVibrato.append(nil)
    }
    if let o = stretch(tool, "chirp", chirpInput, speed: speed) {
      let ideal = chirp(frames: n, scale: speed).channel(0)
      r.scChirp.append(
        spectralConvergence(o.channel(0), ideal, shift: shift, fft: specFFT, window: specWindow))
    } else {
      r.scChirp.append(nil)
    }
    if let o = stretch(tool, "chord", chordInput, speed: speed) {
      r.scChord.append(
        spectralConvergence(
          o.channel(0), chord(frames: n).channel(0), shift: shift, fft: specFFT,
          window: specWindow))
    } else {
      r.scChord.append(nil)
    }
    // Timeline on continuous audio: the local offset of the output against the input, measured
    // every millisecond on band-limited noise (6 ms windows, lags up to ±40 ms; see
    // localOffsets), in media (input) milliseconds. A splicing stretcher plays each segment at
    // the input's own rate, so within a segment the timing runs at slope 1 instead of the speed,
    // a sawtooth of ±(segment hop / 2)·|1 − speed| around the segment's own offset; the offsets
    // are therefore averaged over 10 ms of output (±5 points) before the worst and the 95th
    // percentile are taken, which measures where segments sit rather than that sawtooth. A
    // point more than 10 ms from every neighbour within 2 ms is a false match and is left out
    // (see timelineError).
    // Points 50 ms from either end are left out.
    if let o = stretch(tool, "noise", noiseInput, speed: speed) {
      let margin = rate / 20
      let centres = Array(stride(from: margin, to: o.frames - margin, by: rate / 1000))
      let offsets = localOffsets(
        output: o.channel(0), input: noiseChannel, speed: speed, centres: centres,
        window: rate * 6 / 1000, maxLag: rate * 40 / 1000, fft: timelineFFT)
      let e = timelineError(offsets, span: 5, isolated: Double(rate) * 0.010)
      r.timelineWorst.append(e.map { $0.worst / Double(rate) * 1000 })
      r.timelineP95.append(e.map { $0.p95 / Double(rate) * 1000 })
      r.timelineCoverage.append(e?.coverage)
    } else {
      r.timelineWorst.append(nil)
      r.timelineP95.append(nil)
      r.timelineCoverage.append(nil)
    }
    if let o = stretch(tool, "stereo", stereoInput, speed: speed), o.channels == 2 {
      let d = interChannelDelay(o.channel(0), o.channel(1), maxLag: 64)
      r.delayError.append(abs(d.delay - Double(stereoDelay)) / Double(rate) * 1e6)
      r.correlation.append(d.corr)
    } else {
      r.delayError.append(nil)
      r.correlation.append(nil)
    }
    // Real content.
    if let o = stretch(tool, "music", musicInput, speed: speed) {
      let x = ideal("music", speed) { musicMix(frames: n, scale: speed) }
      r.scMusic.append(
        spectralConvergence(o.channel(0), x, shift: shift, fft: specFFT, window: specWindow))
      r.lsdMusic.append(
        logSpectralDistance(o.channel(0), x, shift: shift, fft: specFFT, window: specWindow))
    } else {
      r.scMusic.append(nil)
      r.lsdMusic.append(nil)
    }
    if let o = stretch(tool, "speech", speechInput, speed: speed) {
      let x = ideal("speech", speed) { speech(frames: n, scale: speed) }
      r.scSpeech.append(
        spectralConvergence(o.channel(0), x, shift: shift, fft: specFFT, window: specWindow))
      r.envSpeech.append(envelopeCorrelation(o.channel(0), x, shift: shift))
    } else {
      r.scSpeech.append(nil)
      r.envSpeech.append(nil)
    }
    for (name, audio, samples, spectrum, fields) in noises {
      if let o = stretch(tool, name, audio, speed: speed) {
        let x = o.channel(0)
        r[keyPath: fields[0]].append(periodicity(x, reference: spectrum))
        let l = levels(x, samples, fft: specFFT, window: specWindow)
        r[keyPath: fields[1]].append(l.level)
        r[keyPath: fields[2]].append(l.band)
      } else {
        for f in fields { r[keyPath: f].append(nil) }
      }
    }
    if let o = stretch(tool, "stereolevels", stereoLevelsInput, speed: speed), o.channels == 2 {
      r.ildError.append(ildError(o, stereoLevelsInput, fft: specFFT, window: specWindow))
    } else {
      r.ildError.append(nil)
    }
  }
  rows.append(r)
}

// Reference rows: the metric on the ideal signal itself (the analysis floor).
var floorRow = Row()
for speed in speeds {
  let n = outputLength(speed)
  let a = toneAnalysis(
    tone(220, frames: n).channel(0), sampleRate: rate, fft: toneFFT, window: toneWindow)
  let b = toneAnalysis(
    tone(1000, frames: n).channel(0), sampleRate: rate, fft: toneFFT, window: toneWindow)
  floorRow.snr220.append(a.snr)
  floorRow.snr1k.append(b.snr)
  floorRow.cents220.append(cents(a.frequency, 220))
  floorRow.cents1k.append(cents(b.frequency, 1000))
  for (_, _, samples, spectrum, fields) in noises {
    floorRow[keyPath: fields[0]].append(periodicity(samples, reference: spectrum))
  }
  floorRow.envSpeech.append(1)
}

// MARK: Tables

func cell(_ v: Double?, _ format: String, goal: ((Double) -> Bool)?, speed: Double) -> String {
  guard let v else { return partial ? "n/a" : "failed" }
  var s = String(format: format, v)
  if let goal, goalSpeeds.contains(speed), !goal(v) { s += " MISSED" }
  return s
}

@MainActor func table(
  _ title: String, _ keyPath: KeyPath<Row, [Double?]>, _ format: String,
  goal: ((Double) -> Bool)? = nil, showFloor: Bool = false, goalSpeedsOnly: Set<Double>? = nil
) {
  print("\n== \(title)")
  var header = "tool".padding(toLength: 16, withPad: " ", startingAt: 0)
  for s in speeds {
    let h = "\(s)x"
    header += String(repeating: " ", count: 14 - h.count) + h
  }
  print(header)
  for (tool, row) in zip(tools, rows) {
    var line = tool.name.padding(toLength: 16, withPad: " ", startingAt: 0)
    for (i, s) in speeds.enumerated() {
      let g = tool.isOurs && (goalSpeedsOnly?.contains(s) ?? true) ? goal : nil
      let c = cell(row[keyPath: keyPath][i], format, goal: g, speed: s)
      line += c.count < 14 ? String(repeating: " ", count: 14 - c.count) + c : " " + c
    }
    print(line)
  }
  if showFloor {
    var line = "(ideal signal)".padding(toLength: 16, withPad: " ", startingAt: 0)
    for i in speeds.indices {
      let c = cell(floorRow[keyPath: keyPath][i], format, goal: nil, speed: 0)
      line += String(repeating: " ", count: max(1, 14 - c.count)) + c
    }
    print(line)
  }
}

table("Tone SNR, 220 Hz (dB; goal >= 65)", \.snr220, "%.1f", goal: { $0 >= 65 }, showFloor: true)
table("Tone SNR, 1 kHz (dB; goal >= 65)", \.snr1k, "%.1f", goal: { $0 >= 65 }, showFloor: true)
table(
  "Pitch error, 220 Hz (cents; goal |e| <= 1)", \.cents220, "%+.3f", goal: { abs($0) <= 1 },
  showFloor: true)
table(
  "Pitch error, 1 kHz (cents; goal |e| <= 1)", \.cents1k, "%+.3f", goal: { abs($0) <= 1 },
  showFloor: true)
table(
  "Spectral convergence, harmonic complex with vibrato (goal <= 0.15)", \.scVibrato, "%.3f",
  goal: { $0 <= 0.15 })
table(
  "Spectral convergence, chirp 100 Hz-4 kHz (goal <= 0.15)", \.scChirp, "%.3f", goal: { $0 <= 0.15 }
)
table(
  "Spectral convergence, chord C4-E4-G4 (goal <= 0.15)", \.scChord, "%.3f", goal: { $0 <= 0.15 })
table("Spectral convergence, click train (goal <= 0.15)", \.scClicks, "%.3f", goal: { $0 <= 0.15 })
table(
  "Clicks doubled (of \(clickPositions.count); goal 0 at 0.5x)", \.doubled, "%.0f",
  goal: { $0 == 0 }, goalSpeedsOnly: [0.5])
table(
  "Clicks missed (of \(clickPositions.count); goal 0 at 1.5x and 2x)", \.missed, "%.0f",
  goal: { $0 == 0 }, goalSpeedsOnly: [1.5, 2])
table("Click timeline error, worst click (ms)", \.timeline, "%.2f")
table(
  "Stereo inter-channel delay error (us; true delay 499 us; goal <= 3)", \.delayError, "%.2f",
  goal: { $0 <= 3 })
table("Stereo inter-channel correlation at the delay (1 = perfect)", \.correlation, "%.4f")
table("Output length error (ms; goal <= 1)", \.lengthError, "%.2f", goal: { $0 <= 1 })

print("\n== Real content (see RealContent.swift; ideals rendered from the score at each speed)")
table(
  "Spectral convergence, music mix (below Rubber Band R3's and scaletempo2's)", \.scMusic, "%.3f")
table("Log-spectral distance, music mix (dB)", \.lsdMusic, "%.2f")
table("Spectral convergence, speech-like", \.scSpeech, "%.3f")
table(
  "Envelope correlation, speech-like (STOI-like; 1 = ideal; fast speech: >= scaletempo2's)",
  \.envSpeech, "%.3f")
for (name, _, _, _, fields) in noises {
  table(
    "Periodicity, \(name) noise (|autocorrelation| 0.5-100 ms, whitened; goal <= 0.03)",
    fields[0], "%.3f", goal: { $0 <= 0.03 }, showFloor: true)
  table(
    "Level change, \(name) noise (dB; goal within +-0.3)", fields[1], "%+.2f",
    goal: { abs($0) <= 0.3 })
  table("Largest octave-band level change, \(name) noise (dB)", fields[2], "%+.2f")
}
table(
  "Level difference between channels (ILD) error, worst of three sources (dB; goal <= 0.1)",
  \.ildError, "%+.2f", goal: { abs($0) <= 0.1 })

// The real-content goals, ours beside every peer: the figure and ours over the peer's.
@MainActor func summary(
  _ title: String, _ keyPath: KeyPath<Row, [Double?]>, at goalSpeeds: Set<Double>,
  _ format: String, verdict: (Double, [String: Double]) -> Bool
) {
  print("\n-- \(title)")
  for (i, speed) in speeds.enumerated() where goalSpeeds.contains(speed) {
    for (oursTool, oursRow) in zip(tools, rows) where oursTool.isOurs {
      let label = oursTool.quality == .standard ? "ours" : "ours \(oursTool.quality.rawValue)"
      guard let ours = oursRow[keyPath: keyPath][i] else {
        print("  \(speed)x: \(label) failed")
        continue
      }
      var peers: [String: Double] = [:]
      var line = "  \(speed)x: \(label) " + String(format: format, ours)
      for (tool, row) in zip(tools, rows) where !tool.isOurs {
        guard let v = row[keyPath: keyPath][i] else {
          line += " | \(tool.name) failed"
          continue
        }
        peers[tool.name] = v
        line += " | \(tool.name) " + String(format: format, v)
        if abs(v) > 1e-12 { line += String(format: " (%.2f)", ours / v) }
      }
      print(line + (verdict(ours, peers) ? "  met" : "  MISSED"))
    }
  }
}
print("\n== Real-content goals (ours, then each peer with ours / peer in brackets)")
summary(
  "Music mix spectral convergence below Rubber Band R3's and scaletempo2's", \.scMusic,
  at: realGoalSpeeds, "%.3f"
) { ours, peers in
  ours < (peers["Rubber Band R3"] ?? .infinity) && ours < (peers["scaletempo2"] ?? .infinity)
}
for (name, _, _, _, fields) in noises {
  summary("Periodicity, \(name) noise <= 0.03", fields[0], at: realGoalSpeeds, "%.3f") { o, _ in
    o <= 0.03
  }
  summary("Level change, \(name) noise within +-0.3 dB", fields[1], at: realGoalSpeeds, "%+.2f") {
    o, _ in abs(o) <= 0.3
  }
}
summary("ILD error <= 0.1 dB", \.ildError, at: realGoalSpeeds, "%+.2f") { o, _ in abs(o) <= 0.1 }
summary(
  "Fast speech envelope correlation at least scaletempo2's", \.envSpeech, at: speechGoalSpeeds,
  "%.3f"
) { ours, peers in ours >= (peers["scaletempo2"] ?? -.infinity) }

// The timeline table: worst / 95th percentile per cell, `*` where under 90 % of the points
// could be located in the input (the figures then cover only those that could).
print("\n== Timeline error on continuous audio (ms; goal <= 2)")
print("(band-limited noise; |media time played - ideal|, averaged over 10 ms; worst/p95)")
do {
  var header = "tool".padding(toLength: 16, withPad: " ", startingAt: 0)
  for s in speeds {
    let h = "\(s)x"
    header += String(repeating: " ", count: 14 - h.count) + h
  }
  print(header)
  var starred = false
  for (tool, row) in zip(tools, rows) {
    var line = tool.name.padding(toLength: 16, withPad: " ", startingAt: 0)
    for (i, s) in speeds.enumerated() {
      var c = "failed"
      if let w = row.timelineWorst[i], let p = row.timelineP95[i] {
        c = String(format: "%.2f/%.2f", w, p)
        if (row.timelineCoverage[i] ?? 0) < 0.9 {
          c += "*"
          starred = true
        }
        if tool.isOurs && goalSpeeds.contains(s) && w > 2 { c += " MISSED" }
      }
      line += c.count < 14 ? String(repeating: " ", count: 14 - c.count) + c : " " + c
    }
    print(line)
  }
  if starred {
    print(
      "(* fewer than 90 % of the points correlate above 0.5 with the input; figures over those)")
  }
}

// MARK: JSON

/// Writes every figure to `path` as JSON, with the throughput objects `throughput`.
@MainActor func writeJSON(to path: String, throughput: [[String: Any]]) {
  let toolObjects: [[String: Any]] = zip(tools, rows).map { tool, row in
    // Every field of Row is one figure per speed.
    let fields = Mirror(reflecting: row).children.compactMap { child -> (String, [Double?])? in
      guard let label = child.label, let values = child.value as? [Double?] else { return nil }
      return (label, values)
    }
    let bySpeed: [[String: Any]] = speeds.enumerated().map { i, speed in
      var object: [String: Any] = ["speed": speed]
      for (label, values) in fields where i < values.count { object[label] = value(values[i]) }
      return object
    }
    return ["name": tool.name, "ours": tool.isOurs, "bySpeed": bySpeed]
  }
  let document: [String: Any] = [
    "loadavg": load.trimmingCharacters(in: .whitespacesAndNewlines), "quick": quick,
    "tools": toolObjects, "throughput": throughput,
  ]
  if let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]) {
    _ = FileManager.default.createFile(atPath: path, contents: data)
  } else {
    print("(cannot write \(path))")
  }
}

// Audio for the benchmark report's spectrograms, with --audio-out DIR (see AudioDump.swift).
if let audioOutPath { dumpAudio(to: audioOutPath, tools: tools) }

/// A figure as JSON: nil and non-finite values become null.
func value(_ x: Double?) -> Any {
  guard let x, x.isFinite else { return NSNull() }
  return x
}

// MARK: Throughput

if !runThroughput {
  if let jsonOutPath { writeJSON(to: jsonOutPath, throughput: []) }
  try? FileManager.default.removeItem(atPath: temp)
  exit(0)
}

// Whole-process and in-process speed at every goal speed, on a short clip (3 s, where start-up
// counts) and a long input (60 s; 10 s with --quick): ours in process, `mtool stretch` as a
// command (decoding, stretching and writing a WAV file) and SoundTouch's soundstretch, each the
// best of several runs, so one slow run on a shared machine does not decide a ratio. The other
// peers run once, on the long input at 1.5x.
let throughputSpeeds: [Double] = [0.5, 1.5, 2, 3]
let longSeconds = quick ? 10.0 : 60.0
let clipSeconds = 3.0
let longInput: Audio = {
  let frames = Int(longSeconds * Double(rate))
  let v = vibrato(frames: frames, scale: 1)
  var s = [Float](repeating: 0, count: frames * 2)
  var rng: UInt64 = 99
  for i in 0..<frames {
    rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let noise = Float(Double(Int64(bitPattern: rng) >> 11) / Double(1 << 52)) * 0.05
    s[2 * i] = v.samples[i] + noise
    s[2 * i + 1] = 0.8 * v.samples[i] - noise
  }
  return Audio(samples: s, channels: 2, sampleRate: rate)
}()
let clipInput = Audio(
  samples: Array(longInput.samples[0..<(Int(clipSeconds) * rate * 2)]), channels: 2,
  sampleRate: rate)

@inline(never) func blackHole(_ x: Int) {
  if x == -1 { print("") }
}

/// Runs of each timed command or call: the best counts.
let fastRuns = quick ? 3 : 5
/// One throughput figure: what ran, on how many seconds at which speed, its best time.
struct Timing {
  var name: String
  var ours: Bool
  var speed: Double
  var inputSeconds: Double
  var seconds: Double
  /// Whether the throughput goal applies (the default quality's rows).
  var judged = true
}
var timings: [Timing] = []
let mtoolBinary = FileManager.default.currentDirectoryPath + "/.build/release/mtool"
var mtoolUsable = FileManager.default.isExecutableFile(atPath: mtoolBinary)
print(
  "\n== Throughput, 44.1 kHz stereo (x realtime, best of \(fastRuns) runs; goal: ours >= 2x "
    + "SoundTouch's at every speed, whole process)")
for (seconds, audio) in [(clipSeconds, clipInput), (longSeconds, longInput)] {
  let path = "\(temp)/big-\(Int(seconds)).wav"
  let path16 = "\(temp)/big16-\(Int(seconds)).wav"
  try? writeWave(audio, to: path)
  try? writeWave(audio, to: path16, float: false)
  for speed in throughputSpeeds {
    // In process: one warm-up, then the best of the runs.
    let clock = ContinuousClock()
    var best = Double.infinity
    for run in 0...fastRuns {
      let start = clock.now
      let o = stretchOurs(audio, speed: speed)
      let d = clock.now - start
      blackHole(o?.frames ?? 0)
      if run > 0 {
        best = min(best, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
      }
    }
    timings.append(
      Timing(
        name: "mtool (ours), in process", ours: true, speed: speed,
        inputSeconds: seconds, seconds: best))
    /// The best of `count` runs of `args`, or nil if one fails.
    func bestRun(_ args: [String], count: Int) -> Double? {
      var b = Double.infinity
      for _ in 0..<count {
        let r = run(args)
        guard r.status == 0 else { return nil }
        b = min(b, r.seconds)
      }
      return b
    }
    if mtoolUsable {
      let out = "\(temp)/big-out.wav"
      let args = [mtoolBinary, "stretch", path, out, "--speed", "\(speed)"]
      if let b = bestRun(args, count: fastRuns), let o = try? readWave(out), o.frames > 0 {
        timings.append(
          Timing(
            name: "mtool stretch (command)", ours: true, speed: speed,
            inputSeconds: seconds, seconds: b))
        // The fine quality, for its cost (the goal is the default's).
        if let b = bestRun(args + ["--quality", "fine"], count: fastRuns) {
          timings.append(
            Timing(
              name: "mtool stretch --quality fine", ours: true, speed: speed,
              inputSeconds: seconds, seconds: b, judged: false))
        }
      } else {
        print("(mtool stretch is not usable yet; its rows are skipped)")
        mtoolUsable = false
      }
    }
    for tool in tools where !tool.isOurs {
      guard let command = tool.command else { continue }
      let isSoundTouch = tool.name == "SoundTouch"
      guard isSoundTouch || (speed == 1.5 && seconds == longSeconds) else { continue }
      let args = command(tool.float ? path : path16, "\(temp)/big-out.wav", speed)
      // Rubber Band takes tens of seconds on the long input: one run.
      let count = tool.name.hasPrefix("Rubber Band") ? 1 : fastRuns
      if let b = bestRun(args, count: count) {
        timings.append(
          Timing(
            name: tool.name, ours: false, speed: speed,
            inputSeconds: seconds, seconds: b))
      }
    }
  }
}
/// SoundTouch's time on the same input at the same speed.
@MainActor func soundTouchSeconds(_ t: Timing) -> Double? {
  timings.first {
    $0.name == "SoundTouch" && $0.speed == t.speed && $0.inputSeconds == t.inputSeconds
  }?.seconds
}
print("(wall time of the whole command for the commands; of the calls for ours in process)")
for t in timings {
  let x = t.inputSeconds / t.seconds
  var line = "\(Int(t.inputSeconds)) s at \(t.speed)x  ".padding(
    toLength: 16, withPad: " ", startingAt: 0)
  line += t.name.padding(toLength: 28, withPad: " ", startingAt: 0)
  line += String(format: "%8.3f s %8.1fx realtime", t.seconds, x)
  if t.ours, let st = soundTouchSeconds(t) {
    line += String(format: "  (%.2fx SoundTouch)", st / t.seconds)
    if t.judged && t.seconds * 2 > st { line += " MISSED" }
    if !t.judged { line += " (no goal)" }
  }
  print(line)
}

// MARK: JSON

if let jsonOutPath {
  let throughput: [[String: Any]] = timings.map { t in
    var object: [String: Any] = [
      "name": t.name, "ours": t.ours, "seconds": value(t.seconds), "speed": t.speed,
      "inputSeconds": t.inputSeconds, "xRealtime": value(t.inputSeconds / t.seconds),
    ]
    if let st = soundTouchSeconds(t) { object["overSoundTouch"] = value(st / t.seconds) }
    return object
  }
  writeJSON(to: jsonOutPath, throughput: throughput)
}

try? FileManager.default.removeItem(atPath: temp)
