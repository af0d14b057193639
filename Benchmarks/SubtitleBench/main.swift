// Subtitle parsing throughput: our SRT, WebVTT, SSA/ASS and TTML parsers beside FFmpeg's
// demuxers (TTML: ttconv, Scripts/ttconv-bench.py; FFmpeg 5.1 reads no TTML), a
// plain newline scan and, for ASS, Python's pysubs2 (Scripts/pysubs2-bench.py, run once per
// round in a process of its own), on the generated corpus (Scripts/make-subtitle-corpus.py).
//
//   swift run -c release SubtitleBench [--json] [--json-out PATH] [--samples N] [--rounds N]
//                                      [--min-time SECONDS] [--only NAME] [--no-ffmpeg]
//                                      [CORPUS_DIR]
//
// --json prints the results as JSON instead of the table; --json-out PATH also writes them to
// PATH (for Scripts/check-thresholds.py).
//
// Every row (ours and the peers alike) is measured in each of --rounds rounds (default 3) over
// all the files: at least --samples samples (default 7) and for at least --min-time seconds
// (default 1) each time. A row keeps its fastest CPU time of all rounds and its wall-clock
// samples from all of them. On a shared virtual machine a neighbour can slow a core by a third
// for a second or more at a time (seen here: a parse alternating between 6 and 9 ms in
// stretches of about one second). A row of a few milliseconds, measured only a few times, fits
// inside one such stretch; the time window gives each row, fast or slow, the same stretch of
// time to be watched over, and the rounds spread those windows over the whole run.

import CFFmpeg
@_spi(Benchmarks) import SubtitleParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 20)
  while true {
    let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
    if n == 0 { break }
    bytes.append(contentsOf: chunk[0..<n])
  }
  return bytes
}

func loadAverage() -> String {
  guard let bytes = readFile("/proc/loadavg") else { return "n/a" }
  return String(decoding: bytes, as: UTF8.self).split(separator: " ").prefix(3).joined(
    separator: " ")
}

/// CPU time of the calling thread, seconds: unaffected by time spent waiting for a core on a
/// shared machine (unlike the wall clock).
func threadCPUTime() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// One measurement: wall-clock seconds of each sample, sorted, and the smallest thread CPU time.
struct Samples {
  var wall: [Double]
  var cpu: Double
}

/// Runs `body` once to warm up, then at least `samples` times and for at least `minTime`
/// seconds of wall-clock time (at most `maxSamples` times), so that every row, however fast
/// one run of it is, is watched over the same stretch of time.
func measure(samples: Int, minTime: Double, _ body: () -> Void) -> Samples {
  let maxSamples = 5000
  let clock = ContinuousClock()
  body()
  var times: [Double] = []
  var cpu = Double.infinity
  let windowStart = clock.now
  while times.count < samples
    || (times.count < maxSamples && seconds(clock.now - windowStart) < minTime)
  {
    let cpuStart = threadCPUTime()
    let start = clock.now
    body()
    let d = clock.now - start
    cpu = min(cpu, threadCPUTime() - cpuStart)
    times.append(seconds(d))
  }
  return Samples(wall: times.sorted(), cpu: cpu)
}

func seconds(_ d: Duration) -> Double {
  Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

/// FFmpeg's own demuxer in process: open the file, read every packet, close.
/// Returns the number of packets, or -1 when FFmpeg cannot open it.
func ffmpegDemux(_ path: String) -> Int {
  var context: UnsafeMutablePointer<AVFormatContext>? = nil
  guard avformat_open_input(&context, path, nil, nil) >= 0 else { return -1 }
  defer { avformat_close_input(&context) }
  guard let packet = av_packet_alloc() else { return -1 }
  var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
  defer { av_packet_free(&packetPointer) }
  var count = 0
  while av_read_frame(context, packet) >= 0 {
    count += 1
    av_packet_unref(packet)
  }
  return count
}

/// pysubs2's CPU and wall-clock times for `path` (Scripts/pysubs2-bench.py in its own process,
/// the interpreter of .build/venv-subs when there is one), and its event count; nil when it
/// does not run.
func pysubs2(_ path: String) -> (Samples, Int)? { pythonPeer("pysubs2-bench.py", path) }

/// ttconv's CPU and wall-clock times for `path` (Scripts/ttconv-bench.py, as for pysubs2) and
/// its paragraph count; nil when it does not run.
func ttconv(_ path: String) -> (Samples, Int)? { pythonPeer("ttconv-bench.py", path) }

/// A Python peer's times for `path`: `script` in Scripts/, run in its own process.
func pythonPeer(_ script: String, _ path: String) -> (Samples, Int)? {
  let venv = ".build/venv-subs/bin/python"
  let python = access(venv, X_OK) == 0 ? venv : "python3"
  guard let pipe = popen("\(python) Scripts/\(script) '\(path)' 3 2>/dev/null", "r") else {
    return nil
  }
  var output: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, pipe) }
    if n == 0 { break }
    output.append(contentsOf: chunk[0..<n])
  }
  guard pclose(pipe) == 0 else { return nil }
  // {"cpu_s": C, "wall_s": [W, …], "bytes": B, "events": E, …}
  let text = String(decoding: output, as: UTF8.self)
  func value(_ key: String) -> Substring? {
    guard let range = text.firstRange(of: "\"\(key)\": ") else { return nil }
    return text[range.upperBound...].prefix { $0 != "," && $0 != "}" }
  }
  guard let cpu = value("cpu_s").flatMap({ Double($0) }),
    let events = value("events").flatMap({ Int($0) }),
    let wallStart = text.firstRange(of: "\"wall_s\": [")
  else { return nil }
  let wall = text[wallStart.upperBound...].prefix { $0 != "]" }.split(separator: ",")
    .compactMap { Double($0.filter { $0 != " " }) }
  return (Samples(wall: wall.sorted(), cpu: cpu), events)
}

extension String {
  func replacingPrefix(_ prefix: String, _ replacement: String) -> String {
    hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
  }
}

struct Row {
  var file: String
  var name: String
  var bytes: Int
  var samples: Samples
  var cues: Int
  var times: [Double] { samples.wall }
  var cpuMin: Double { samples.cpu }
  var cpuMBps: Double { Double(bytes) / cpuMin / 1e6 }
  var minSeconds: Double { times.first ?? 0 }
  var median: Double { times.isEmpty ? 0 : times[times.count / 2] }
  var bestMBps: Double { Double(bytes) / minSeconds / 1e6 }
  var medianMBps: Double { Double(bytes) / median / 1e6 }
}

/// The rows of every round merged into one per file and parser: the fastest CPU time of all
/// rounds, the wall-clock samples of all of them; first-seen order.
func mergedRounds(_ rows: [Row]) -> [Row] {
  var merged: [Row] = []
  for row in rows {
    if let k = merged.firstIndex(where: { $0.file == row.file && $0.name == row.name }) {
      merged[k].samples.cpu = min(merged[k].samples.cpu, row.samples.cpu)
      merged[k].samples.wall = (merged[k].samples.wall + row.samples.wall).sorted()
      merged[k].cues = max(merged[k].cues, row.cues)
    } else {
      merged.append(row)
    }
  }
  return merged
}

func fixed(_ value: Double, _ decimals: Int) -> String {
  guard value.isFinite else { return "-" }
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let scaled = Int64((value * scale).rounded())
  let whole = String(scaled / Int64(scale))
  guard decimals > 0 else { return whole }
  let fraction = String(abs(scaled) % Int64(scale))
  return whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return left ? text + padding : padding + text
}

// MARK: - Arguments

var jsonOutput = false
var jsonOutPath: String? = nil
var samples = 7
var rounds = 3
var minTime = 1.0
var corpus = "Benchmarks/corpus"
var only: String? = nil
var withFFmpeg = true
var argumentIterator = CommandLine.arguments.dropFirst().makeIterator()
while let argument = argumentIterator.next() {
  switch argument {
  case "--json": jsonOutput = true
  case "--json-out": jsonOutPath = argumentIterator.next()
  case "--no-ffmpeg": withFFmpeg = false
  case "--only":
    only = argumentIterator.next()
  case "--samples":
    samples = max(5, Int(argumentIterator.next() ?? "") ?? 7)
  case "--rounds":
    rounds = max(1, Int(argumentIterator.next() ?? "") ?? 3)
  case "--min-time":
    minTime = max(0, Double(argumentIterator.next() ?? "") ?? 1)
  default: corpus = argument
  }
}

cff_quiet_logging()
let files = [
  "bench.srt", "bench-crlf.srt", "bench.vtt", "bench-crlf.vtt", "bench.ass", "bench.ttml",
]
var rows: [Row] = []
var memoryLines: [String] = []
var notes: [String] = []
let loadBefore = loadAverage()

for round in 0..<rounds {
  for file in files where only.map({ file.contains($0) }) ?? true {
    let path = corpus + "/" + file
    guard let bytes = readFile(path) else {
      print("SubtitleBench: missing \(path); run Scripts/make-subtitle-corpus.py first")
      exit(1)
    }
    let isSRT = file.hasSuffix(".srt")
    let isASS = file.hasSuffix(".ass")
    let isTTML = file.hasSuffix(".ttml")
    func parse() throws(SubtitleError) -> SubtitleDocument {
      if isSRT { return try SubRip.parse(bytes) }
      if isASS { return try SubStationAlpha.parse(bytes) }
      if isTTML { return try TTML.parse(bytes) }
      return try WebVTT.parse(bytes)
    }
    var cueCount = 0
    var document: SubtitleDocument? = nil
    do {
      document = try parse()
      cueCount = document?.cues.count ?? 0
    } catch {
      if round == 0 { notes.append("\(file): our parser failed: \(error)") }
    }

    let ours = measure(samples: samples, minTime: minTime) {
      blackHole(try? parse())
    }
    rows.append(Row(file: file, name: "ours", bytes: bytes.count, samples: ours, cues: cueCount))

    let entry = measure(samples: samples, minTime: minTime) {
      blackHole(try? SubtitleFile.parse(bytes))
    }
    rows.append(
      Row(file: file, name: "SubtitleFile", bytes: bytes.count, samples: entry, cues: cueCount))

    // Conversion to the other format through the neutral model (cue texts read into trees and
    // written by the target's writer), from the parsed document; MB/s of the source file.
    if let document {
      let converted = measure(samples: samples, minTime: minTime) {
        blackHole(isSRT || isASS || isTTML ? document.webVTT() : document.srt())
      }
      rows.append(
        Row(
          file: file, name: isSRT || isASS || isTTML ? "to WebVTT" : "to SRT", bytes: bytes.count,
          samples: converted, cues: cueCount))
    }
    if isASS, let peer = pysubs2(path) {
      rows.append(
        Row(file: file, name: "pysubs2", bytes: bytes.count, samples: peer.0, cues: peer.1))
    } else if isASS, round == 0 {
      notes.append(
        "\(file): pysubs2 did not run (python3 -m venv .build/venv-subs, then pip install pysubs2)")
    }
    if isTTML, let peer = ttconv(path) {
      rows.append(
        Row(file: file, name: "ttconv", bytes: bytes.count, samples: peer.0, cues: peer.1))
    } else if isTTML, round == 0 {
      notes.append(
        "\(file): ttconv did not run (python3 -m venv .build/venv-subs, then pip install ttconv)")
    }

    var lines = 0
    let vector = measure(samples: samples, minTime: minTime) {
      lines = ByteScanner.count(of: 0x0A, in: bytes, kernel: .vector)
      blackHole(lines)
    }
    rows.append(Row(file: file, name: "newline SIMD", bytes: bytes.count, samples: vector, cues: 0))
    let memchrScan = measure(samples: samples, minTime: minTime) {
      blackHole(ByteScanner.count(of: 0x0A, in: bytes, kernel: .memchr))
    }
    rows.append(
      Row(file: file, name: "newline memchr", bytes: bytes.count, samples: memchrScan, cues: 0))

    var packets = 0
    // FFmpeg 5.1's WebVTT demuxer stops at a STYLE block, so it reads the twin without it.
    let ownFile = isSRT || isASS || isTTML
    let ffmpegPath = ownFile ? path : corpus + "/" + file.replacingPrefix("bench", "bench-nostyle")
    let ffmpegBytes = ownFile ? bytes.count : (readFile(ffmpegPath)?.count ?? 0)
    var ffmpeg = Samples(wall: [], cpu: 0)
    // FFmpeg 5.1 has no TTML demuxer: the TTML row has no FFmpeg peer.
    if withFFmpeg && !isTTML {
      ffmpeg = measure(samples: samples, minTime: minTime) {
        packets = ffmpegDemux(ffmpegPath)
        blackHole(packets)
      }
    }
    if packets < 0 && round == 0 { notes.append("\(file): FFmpeg could not open the file") }
    if !isTTML {
      rows.append(
        Row(file: file, name: "FFmpeg", bytes: ffmpegBytes, samples: ffmpeg, cues: packets))
    }

    if let document, round == 0 {
      let stride = MemoryLayout<Cue>.stride
      let owned = document.text.count + document.cues.count * stride
      memoryLines.append(
        "\(file): file \(bytes.count) B, document text \(document.text.count) B + cues "
          + "\(document.cues.count) x \(stride) B = \(owned) B (\(fixed(Double(owned) / Double(bytes.count), 2))x the file), "
          + "\(document.diagnostics.count) diagnostics")
    }
  }
}
rows = mergedRounds(rows)

// MARK: - Report

/// `value` with one decimal, or `null` when it is not finite (a row that was not measured).
func jsonNumber(_ value: Double) -> String {
  value.isFinite ? fixed(value, 1) : "null"
}

func ratio(_ a: Row?, _ b: Row?) -> String {
  guard let a, let b, b.cpuMBps > 0, b.cpuMBps.isFinite else { return "-" }
  return fixed(a.cpuMBps / b.cpuMBps, 2) + "x"
}

do {
  var out =
    "{\"loadavg\":\"\(loadBefore)\",\"samples\":\(samples),\"rounds\":\(rounds),\"min_time_s\":\(minTime),\"results\":["
  for (i, row) in rows.enumerated() {
    if i > 0 { out += "," }
    out += "{\"file\":\"\(row.file)\",\"name\":\"\(row.name)\",\"bytes\":\(row.bytes),"
    out += "\"min_s\":\(row.minSeconds),\"median_s\":\(row.median),"
    out += "\"best_MBps\":\(jsonNumber(row.bestMBps)),"
    out += "\"median_MBps\":\(jsonNumber(row.medianMBps)),"
    out += "\"cpu_MBps\":\(jsonNumber(row.cpuMBps))"
    if let ffmpeg = rows.first(where: { $0.file == row.file && $0.name == "FFmpeg" }),
      ffmpeg.cpuMBps > 0, ffmpeg.cpuMBps.isFinite, row.cpuMBps.isFinite
    {
      out += ",\"cpu_over_FFmpeg\":\(fixed(row.cpuMBps / ffmpeg.cpuMBps, 2))"
    }
    if let peer = rows.first(where: { $0.file == row.file && $0.name == "pysubs2" }),
      peer.cpuMBps > 0, peer.cpuMBps.isFinite, row.cpuMBps.isFinite
    {
      out += ",\"cpu_over_pysubs2\":\(fixed(row.cpuMBps / peer.cpuMBps, 2))"
    }
    if let peer = rows.first(where: { $0.file == row.file && $0.name == "ttconv" }),
      peer.cpuMBps > 0, peer.cpuMBps.isFinite, row.cpuMBps.isFinite
    {
      out += ",\"cpu_over_ttconv\":\(fixed(row.cpuMBps / peer.cpuMBps, 2))"
    }
    out += "}"
  }
  out += "]}"
  if jsonOutput { print(out) }
  if let jsonOutPath {
    guard let file = fopen(jsonOutPath, "w") else {
      print("SubtitleBench: cannot write \(jsonOutPath)")
      exit(1)
    }
    fputs(out + "\n", file)
    fclose(file)
  }
}
if !jsonOutput {
  print(
    "SubtitleBench: \(rounds) rounds of at least \(samples) samples and \(fixed(minTime, 1)) s per"
      + " row, each after one warm-up, one thread; loadavg \(loadBefore)")
  print("MB/s = 10^6 bytes of file per second. FFmpeg reads the file itself (page cache);")
  print("ours parse bytes already in memory to cues (times, settings, text ranges).")
  print("MB/s uses the fastest wall-clock sample, cpu MB/s the fastest thread CPU time, of all")
  print("rounds; 'median' is over the samples of all rounds.")
  print("FFmpeg 5.1 reads no cue past a WebVTT STYLE block: its .vtt rows use bench-nostyle*.vtt,")
  print("the same cues without the STYLE block (MB/s of that file). 'SubtitleFile' adds encoding")
  print("and format detection (UTF-8 validation for SRT) to 'ours'.\n")
  print(
    pad("file", 15, left: true) + pad("parser", 16, left: true) + pad("cues", 8)
      + pad("min ms", 10) + pad("median ms", 11) + pad("MB/s", 9) + pad("med MB/s", 10)
      + pad("cpu MB/s", 10))
  for row in rows {
    print(
      pad(row.file, 15, left: true) + pad(row.name, 16, left: true)
        + pad(row.cues > 0 ? String(row.cues) : "", 8) + pad(fixed(row.minSeconds * 1000, 2), 10)
        + pad(fixed(row.median * 1000, 2), 11) + pad(fixed(row.bestMBps, 0), 9)
        + pad(fixed(row.medianMBps, 0), 10) + pad(fixed(row.cpuMBps, 0), 10))
  }
  print("")
  print("goals are judged on cpu MB/s (wall-clock MB/s depends on the load of a shared machine);")
  print("ratios compare cpu MB/s.")
  print(
    pad("file", 15, left: true) + pad("ours MB/s", 11) + pad("cpu MB/s", 10) + pad("goal", 7)
      + pad("", 8) + pad("vs FFmpeg", 11) + pad("vs newline ceiling", 20))
  for file in files
  where rows.contains(where: { $0.file == file }) && !file.hasSuffix(".ass")
    && !file.hasSuffix(".ttml")
  {
    let ours = rows.first { $0.file == file && $0.name == "ours" }
    let ffmpeg = rows.first { $0.file == file && $0.name == "FFmpeg" }
    let ceiling = rows.filter { $0.file == file && $0.name.hasPrefix("newline") }
      .max { $0.cpuMBps < $1.cpuMBps }
    let goal = file.hasSuffix(".srt") ? 1000.0 : 800.0
    let met = (ours?.cpuMBps ?? 0) >= goal
    print(
      pad(file, 15, left: true) + pad(fixed(ours?.bestMBps ?? 0, 0), 11)
        + pad(fixed(ours?.cpuMBps ?? 0, 0), 10) + pad(fixed(goal, 0), 7)
        + pad(met ? "met" : "MISSED", 8) + pad(ratio(ours, ffmpeg), 11)
        + pad(ratio(ours, ceiling), 20))
  }
  // The formats judged against a Python peer: its 20x goal, one line each.
  for (suffix, peerName) in [(".ass", "pysubs2"), (".ttml", "ttconv")] {
    for file in files where file.hasSuffix(suffix) && rows.contains(where: { $0.file == file }) {
      let ours = rows.first { $0.file == file && $0.name == "ours" }
      let peer = rows.first { $0.file == file && $0.name == peerName }
      let met = (ours?.cpuMBps ?? 0) >= 20 * (peer?.cpuMBps ?? .infinity)
      print(
        "\(file): ours \(fixed(ours?.cpuMBps ?? 0, 0)) cpu MB/s, \(peerName) "
          + "\(fixed(peer?.cpuMBps ?? 0, 1)) cpu MB/s: \(ratio(ours, peer)) (goal 20x: "
          + "\(peer == nil ? "not measured" : met ? "met" : "MISSED"))")
    }
  }
  print("\nmemory (MemoryLayout<Cue>.stride = \(MemoryLayout<Cue>.stride) B):")
  for line in memoryLines { print("  " + line) }
  print("loadavg after: \(loadAverage())")
  for note in notes { print("note: " + note) }
}
