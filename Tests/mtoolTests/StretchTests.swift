import Foundation
import MediaTracks
import Testing

/// A fresh scratch folder for one test's outputs.
private func scratchFolder() throws -> String {
  let path = NSTemporaryDirectory() + "mtool-stretch-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Decodes a whole file and returns (frames, sample rate).
private func decodedLength(_ path: String) throws -> (Int, Int) {
  var decoder = try AudioDecoder(path: path)
  var buffer: [Float] = []
  var frames = 0
  while case let n = try decoder.read(into: &buffer, maxFrames: 4096), n > 0 { frames += n }
  return (frames, decoder.sampleRate)
}

@Test(arguments: [0.5, 1.5, 2.0])
func stretchesToTheExactLength(speed: Double) throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let out = folder + "/out.wav"
  let result = try runMtool(["stretch", fixtures + "/clip.wav", out, "--speed", "\(speed)"])
  #expect(result.status == 0, "\(result.stderr)")
  let (frames, rate) = try decodedLength(out)
  #expect(rate == 22050)
  let expected = (44100.0 / speed).rounded()
  // Within one millisecond of input duration / speed.
  #expect(abs(Double(frames) - expected) <= 22.05)
  // Nothing but the output is left in the folder.
  #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.wav"])
}

@Test func jsonSummaryDescribesTheRun() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try runMtool([
    "stretch", fixtures + "/clip.wav", folder + "/out.flac", "--speed", "2", "--json",
  ])
  #expect(result.status == 0, "\(result.stderr)")
  let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
  #expect(object?["channels"] as? Int == 2)
  #expect(object?["sampleRate"] as? Int == 22050)
  #expect(object?["speed"] as? Double == 2)
  #expect(object?["inputFrames"] as? Int == 44100)
  #expect(object?["outputFrames"] as? Int == 22050)
  #expect((object?["realtimeFactor"] as? Double ?? 0) > 0)
  #expect(object?["quality"] as? String == "standard")
  #expect((object?["latency"] as? Double ?? 1) <= 0.03)
  #expect(object?["outputSampleRate"] as? Int == 22050)
  // Opus is written at 48 kHz: the summary says so beside the stretch's rate.
  let opus = try runMtool([
    "stretch", fixtures + "/clip.wav", folder + "/out.opus", "--speed", "2", "--json",
  ])
  #expect(opus.status == 0, "\(opus.stderr)")
  let opusObject =
    try JSONSerialization.jsonObject(with: Data(opus.stdout.utf8)) as? [String: Any]
  #expect(opusObject?["sampleRate"] as? Int == 22050)
  #expect(opusObject?["outputSampleRate"] as? Int == 48000)
}

/// `--quality fine` runs the band split: exact length, its latency in the summary; an unknown
/// quality is a usage error (64) naming the choices, with nothing written.
/// A few samples written as Opus (resampled to 48 kHz) make a file that reads back: the
/// resampler's flush gave nothing for an input shorter than its filter, and the file had no
/// audio page (exit 0, and FFmpeg could not open it).
@Test(arguments: [1, 20, 40])
func aFewSamplesWrittenAsOpusReadBack(frames: Int) throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let made = try runShell(
    "sox -n -r 44100 -c 1 -b 16 in.wav synth \(frames)s sine 440 && "
      + "$M stretch in.wav out.opus --speed 2 && $M stretch out.opus back.wav --speed 1",
    in: folder
  ).0
  #expect(made.status == 0, "\(made.stderr)")
}

@Test func qualityChoosesTheStretcher() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try runMtool([
    "stretch", fixtures + "/clip.wav", folder + "/out.wav", "--speed", "1.5", "--quality", "fine",
    "--json",
  ])
  #expect(result.status == 0, "\(result.stderr)")
  let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
  #expect(object?["quality"] as? String == "fine")
  #expect(object?["outputFrames"] as? Int == 29400)
  let latency = object?["latency"] as? Double ?? 0
  #expect(latency > 0.05 && latency < 0.2)
  let (frames, _) = try decodedLength(folder + "/out.wav")
  #expect(frames == 29400)
  let bad = try runMtool([
    "stretch", fixtures + "/clip.wav", folder + "/bad.wav", "--speed", "1.5", "--quality", "best",
  ])
  #expect(bad.status == 64)
  #expect(bad.stderr.contains("standard or fine"))
  #expect(bad.stderr.filter { $0 == "\n" }.count == 1)
  #expect(!FileManager.default.fileExists(atPath: folder + "/bad.wav"))
}

@Test func speedMapChangesSpeedAtInputTimes() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try runMtool([
    "stretch", fixtures + "/clip.wav", folder + "/out.wav", "--speed-map", "0:1,1:2", "--json",
  ])
  #expect(result.status == 0, "\(result.stderr)")
  let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
  // 1 s at 1x then 1 s at 2x: 1.5 s of output. The change lands at the requested input sample,
  // so the length is exact to a frame.
  let frames = object?["outputFrames"] as? Int ?? 0
  #expect(abs(frames - 33075) <= 1)
}

@Test(arguments: ["0", "-1", "nan", "inf", "1e9", "abc", "0.01", "11"])
func badSpeedIsUsageErrorNamingTheRange(speed: String) throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try runMtool([
    "stretch", fixtures + "/clip.wav", folder + "/o.wav", "--speed", speed,
  ])
  #expect(result.status == 64)
  #expect(result.stderr.hasPrefix("mtool: stretch: "))
  #expect(result.stderr.contains("0.1 to 10"))
  #expect(result.stderr.filter { $0 == "\n" }.count == 1)
  #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
}

@Test func failuresHaveTheDocumentedExitCodes() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let out = folder + "/o.wav"
  let cases: [([String], Int32)] = [
    (["stretch", folder + "/missing.wav", out, "--speed", "2"], 66),
    (["stretch", folder, out, "--speed", "2"], 66),
    (["stretch", fixtures + "/sample.srt", out, "--speed", "2"], 65),
    (["stretch", fixtures + "/clip.wav", fixtures + "/clip.wav", "--speed", "2"], 64),
    (["stretch", fixtures + "/clip.wav", folder + "/no/such/dir/o.wav", "--speed", "2"], 1),
    (["stretch", fixtures + "/clip.wav", folder + "/o.xyz", "--speed", "2"], 64),
    (["stretch", fixtures + "/clip.wav", out], 64),
    (["stretch", fixtures + "/clip.wav", out, "--speed-map", "5:1,2:2"], 64),
    (["stretch", fixtures + "/multitrack.mkv", out, "--speed", "2", "--track", "de"], 65),
  ]
  for (arguments, code) in cases {
    let result = try runMtool(arguments)
    #expect(result.status == code, "\(arguments): \(result.stderr)")
    #expect(result.stderr.hasPrefix("mtool: stretch: "), "\(arguments)")
    #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments)")
  }
  #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
}

@Test(arguments: ["fr", "fre", "fra", "fr-FR"])
func trackByLanguagePicksThatTrack(selector: String) throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try runMtool([
    "stretch", fixtures + "/multitrack.mkv", folder + "/fr.wav", "--speed", "1.25", "--track",
    selector, "--json",
  ])
  #expect(result.status == 0, "\(result.stderr)")
  let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
  #expect(object?["track"] as? Int == 1)
  #expect(object?["channels"] as? Int == 6)
}

@Test func interruptRemovesThePartialOutput() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // The input is a FIFO fed with a WAV header and one second of audio, then held open: the
  // command blocks mid-stream with its partial output created, and is interrupted there.
  signal(SIGPIPE, SIG_IGN)
  let fifo = folder + "/in.wav"
  #expect(mkfifo(fifo, 0o600) == 0)
  var header = Data("RIFF".utf8)
  func le32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { header.append(contentsOf: $0) } }
  func le16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { header.append(contentsOf: $0) } }
  le32(0xFFFF_FFF0)
  header.append(contentsOf: Array("WAVEfmt ".utf8))
  le32(16)
  le16(1)
  le16(2)
  le32(48000)
  le32(48000 * 4)
  le16(4)
  le16(16)
  header.append(contentsOf: Array("data".utf8))
  le32(0xFFFF_FFC0)
  let audio = Data(count: 48000 * 4)
  feed(fifo, header + audio, holdOpen: 30)
  let process = try startQuietly(["stretch", fifo, folder + "/out.wav", "--speed", "0.5"])
  var sawPartial = false
  for _ in 0..<500 {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    if names.contains(where: { $0.hasPrefix(".out.wav.") && $0.hasSuffix(".tmp") }) {
      sawPartial = true
      break
    }
    usleep(20_000)
  }
  usleep(200_000)
  process.interrupt()
  process.waitUntilExit()
  #expect(sawPartial)
  #expect(process.terminationStatus == 130)
  #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["in.wav"])
}

@Test func aWaveFromANamedPipeEnds() throws {
  // At the end of a WAVE input the reader checks the file's size against its header. It used to
  // open the path again for that, and opening a named pipe again waits for a writer forever.
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  signal(SIGPIPE, SIG_IGN)
  let fifo = folder + "/in.wav"
  #expect(mkfifo(fifo, 0o600) == 0)
  feed(fifo, try Data(contentsOf: URL(fileURLWithPath: fixtures + "/clip.wav")), holdOpen: 0)
  let process = try startQuietly(["stretch", fifo, folder + "/out.wav", "--speed", "2"])
  var waited = 0
  while process.isRunning && waited < 400 {
    usleep(50_000)
    waited += 1
  }
  let hung = process.isRunning
  if hung {
    process.terminate()
    // Unblocks the command's second open, if that is where it waits.
    _ = FileHandle(forWritingAtPath: fifo)
  }
  process.waitUntilExit()
  #expect(!hung, "the command did not end within 20 s")
  #expect(process.terminationStatus == 0)
  #expect(FileManager.default.fileExists(atPath: folder + "/out.wav"))
}

@Test func speedsAreDecimalNumbersAsPeopleWriteThem() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  for (speed, status) in [
    ("2x", Int32(0)), ("2X", 0), ("1.5\u{00D7}", 0), (" 2", 0), ("0x2", 64), ("inf", 64),
    ("x", 64), ("2xx", 64), ("2x2", 64),
  ] {
    let result = try runMtool([
      "stretch", fixtures + "/clip.wav", folder + "/out.wav", "--speed", speed,
    ])
    #expect(result.status == status, "'\(speed)': \(result.stderr)")
  }
  // Hexadecimal is not a time either.
  #expect(try runMtool(["cues", fixtures + "/sample.srt", "--shift", "0x10"]).status == 64)
}

/// Writes `data` into the named pipe `fifo` on a thread of its own (opening a pipe for writing
/// waits for its reader), then keeps it open for `holdOpen` seconds before closing it. The reader
/// may close its end first: a failed write is not the tests' concern.
private func feed(_ fifo: String, _ data: Data, holdOpen: TimeInterval) {
  Thread {
    guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
    try? handle.write(contentsOf: data)
    if holdOpen > 0 { Thread.sleep(forTimeInterval: holdOpen) }
    try? handle.close()
  }.start()
}

/// Starts `mtool` with `arguments`, its output and errors discarded.
private func startQuietly(_ arguments: [String]) throws -> Process {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: mtoolBinary)
  process.arguments = arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  return process
}

/// The RIFF and data chunk sizes of a WAVE file's 44-byte header.
private func waveSizes(_ bytes: [UInt8]) -> (riff: UInt32, data: UInt32)? {
  guard bytes.count >= 44, bytes[0..<4].elementsEqual("RIFF".utf8),
    bytes[36..<40].elementsEqual("data".utf8)
  else { return nil }
  func word(_ at: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
  }
  return (word(4), word(40))
}

@Test func outputDashWritesWaveToStandardOutput() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let clip = fixtures + "/clip.wav"
  // Through a pipe: a streaming header (sizes unknown), then every sample; nothing else.
  let (piped, _) = try runShell(
    "\"$M\" stretch '\(clip)' - --speed 2 | cat > piped.wav", in: folder)
  #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
  let pipedBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/piped.wav")))
  #expect(waveSizes(pipedBytes).map { $0.riff == 0xFFFF_FFFF && $0.data == 0xFFFF_FFFF } == true)
  // 2 s of 22050 Hz stereo at 2x: 1 s, 16-bit.
  #expect(abs((pipedBytes.count - 44) / 4 - 22050) <= 22)
  // Redirected to a file after other bytes: a complete header where the WAVE starts.
  let (redirected, _) = try runShell(
    "{ printf 'head'; \"$M\" stretch '\(clip)' - --speed 2; } > file.bin", in: folder)
  #expect(redirected.status == 0, "\(redirected.stderr)")
  let fileBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/file.bin")))
  #expect(fileBytes.count >= 4 && fileBytes[0..<4].elementsEqual("head".utf8))
  let wave = Array(fileBytes.dropFirst(4))
  #expect(
    waveSizes(wave).map { Int($0.data) == wave.count - 44 && Int($0.riff) == wave.count - 8 }
      == true)
  #expect(wave.count == pipedBytes.count)
  // Another format by --format.
  let (flac, _) = try runShell(
    "\"$M\" stretch '\(clip)' - --speed 2 --format flac | cat > out.flac", in: folder)
  #expect(flac.status == 0, "\(flac.stderr)")
  let flacBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/out.flac")))
  #expect(flacBytes.starts(with: Array("fLaC".utf8)))
  #expect(abs(try decodedLength(folder + "/out.flac").0 - 22050) <= 22)
}

@Test func outputDashRefusesWhatDoesNotFit() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let clip = fixtures + "/clip.wav"
  let cases: [([String], Int32)] = [
    (["stretch", clip, "-", "--speed", "2", "--json"], 64),
    (["stretch", clip, "-", "--speed", "2", "--format", "m4a"], 64),
    (["stretch", clip, "-", "--speed", "2", "--format", "xyz"], 64),
    (["stretch", clip, folder + "/o.wav", "--speed", "2", "--format", "flac"], 64),
    (["stretch", "-", "-", "--speed", "2"], 64),
  ]
  for (arguments, code) in cases {
    let result = try runMtool(arguments)
    #expect(failedWithOneLine(result, code), "\(arguments): \(result.stderr)")
    #expect(result.stdout.isEmpty, "\(arguments)")
  }
  #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
}

/// An empty speed is a bad value, not a missing option: one line saying so (64), for
/// `--speed ''`, `--speed=`, a blank one, and a `--speed-map` entry without its speed.
@Test(arguments: [["--speed", ""], ["--speed="], ["--speed", " "], ["--speed-map", "0:"]])
func emptySpeedIsABadValueNotAMissingOne(arguments: [String]) throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try runMtool(["stretch", fixtures + "/clip.wav", folder + "/o.wav"] + arguments)
  #expect(failedWithOneLine(result, 64), "\(result.stderr)")
  #expect(result.stderr.contains("is empty"), "\(result.stderr)")
  #expect(!result.stderr.contains("required"), "\(result.stderr)")
  #expect(result.stderr.contains("0.1 to 10"))
  #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  // Without either option, the speed is still missing.
  let missing = try runMtool(["stretch", fixtures + "/clip.wav", folder + "/o.wav"])
  #expect(failedWithOneLine(missing, 64))
  #expect(missing.stderr.contains("--speed or --speed-map is required"))
}

/// `--bitrate` for an output written losslessly (WAVE, FLAC, Matroska's FLAC; WAVE on standard
/// output and on a device) is one line naming the option (64), before the input is read, and
/// nothing is written; for a lossy output it is taken.
@Test func bitRateForALosslessOutputIsRefused() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let clip = fixtures + "/clip.wav"
  let rate = ["--speed", "2", "--bitrate", "96000"]
  let cases: [[String]] = [
    ["stretch", clip, folder + "/o.wav"] + rate,
    ["stretch", clip, folder + "/o.WAV"] + rate,
    ["stretch", clip, folder + "/o.flac"] + rate,
    ["stretch", clip, folder + "/o.mka"] + rate,
    ["stretch", clip, "-"] + rate,
    ["stretch", clip, "-", "--format", "flac"] + rate,
    ["stretch", clip, "/dev/null"] + rate,
    ["stretch", folder + "/missing.wav", folder + "/o.wav"] + rate,
  ]
  for arguments in cases {
    let result = try runMtool(arguments)
    #expect(failedWithOneLine(result, 64), "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains("--bitrate applies to lossy outputs only"), "\(arguments)")
    #expect(result.stdout.isEmpty, "\(arguments)")
  }
  // A batch whose template names a lossless extension stops at once; one that keeps each
  // input's extension fails the files it would write losslessly.
  let list = folder + "/list"
  try (clip + "\n").write(toFile: list, atomically: true, encoding: .utf8)
  let batch = try runMtool(
    ["stretch", "--files-from", list, "--output-template", folder + "/{stem}.flac"] + rate)
  #expect(failedWithOneLine(batch, 64), "\(batch.stderr)")
  let kept = try runMtool(
    ["stretch", "--files-from", list, "--output-template", folder + "/{stem}.x.{ext}"] + rate)
  #expect(kept.status == 64)
  #expect(kept.stderr.contains("--bitrate applies to lossy outputs only"))
  #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["list"])
  let mp3 = try runMtool(["stretch", clip, folder + "/o.mp3"] + rate)
  #expect(mp3.status == 0, "\(mp3.stderr)")
}
