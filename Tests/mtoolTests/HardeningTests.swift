import Foundation
import Testing

// Findings on reading (hangs, inputs that make FFmpeg open other files, audio cut while being
// read, dense speed maps), each checked through the command line.

/// A fresh scratch folder with `in.wav` (2 s of 22.05 kHz stereo).
private func hardeningFolder() throws -> String {
  let path = NSTemporaryDirectory() + "mtool-hardening-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  try FileManager.default.copyItem(atPath: fixtures + "/clip.wav", toPath: path + "/in.wav")
  return path
}

@Test func aWaveCutWhileBeingStretchedIsMalformed() throws {
  let folder = try hardeningFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // 120 s of noise; cut to 1 MB shortly after the command starts reading it.
  let (result, _) = try runShell(
    """
    ffmpeg -v error -f lavfi -i anoisesrc=d=120:r=44100 -ac 2 long.wav
    $M stretch long.wav out.wav --speed 0.5 & pid=$!
    sleep 0.3; truncate -s 1000000 long.wav
    wait $pid; echo "status $?"
    ls -a | grep -c 'out'
    """, in: folder)
  #expect(result.stdout == "status 65\n0\n", "\(result.stdout) \(result.stderr)")
  #expect(result.stderr.contains("truncated"), "\(result.stderr)")
}

@Test func aWaveShorterThanItsHeaderIsMalformed() throws {
  let folder = try hardeningFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let (result, _) = try runShell(
    "head -c 100000 in.wav > cut.wav; $M stretch cut.wav out.wav --speed 2", in: folder)
  #expect(failedWithOneLine(result, 65), "\(result.status) \(result.stderr)")
}

@Test func aLiveManifestWithoutItsExtensionListsAndReturns() throws {
  let folder = try hardeningFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let manifest = """
    <?xml version="1.0"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" minimumUpdatePeriod="PT2S"
      availabilityStartTime="2026-01-01T00:00:00Z" profiles="urn:mpeg:dash:profile:isoff-live:2011">
      <Period id="1" start="PT0S">
        <AdaptationSet mimeType="audio/mp4" lang="fr" segmentAlignment="true">
          <Representation id="a" codecs="mp4a.40.2" bandwidth="128000" audioSamplingRate="48000">
            <SegmentTemplate media="http://127.0.0.1:9/a-$Number$.m4s" initialization="http://127.0.0.1:9/a.mp4"
              duration="2" startNumber="1"/>
          </Representation>
        </AdaptationSet>
      </Period>
    </MPD>
    """
  try manifest.write(toFile: folder + "/live", atomically: true, encoding: .utf8)
  try manifest.write(toFile: folder + "/live.mp4", atomically: true, encoding: .utf8)
  for name in ["live", "live.mp4"] {
    let (result, seconds) = try runShell("$M tracks \(name) --json", in: folder)
    #expect(result.status == 0, "\(name): \(result.stderr)")
    #expect(result.stdout.contains("\"language\":\"fr\""), "\(result.stdout)")
    #expect(seconds < 20)
  }
}

@Test func aPipeThatNeverSpeaksTimesOut() throws {
  let folder = try hardeningFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // A writer that opens the pipe and then says nothing; the command gives up after --timeout
  // (cues: a named pipe, and standard input when --timeout is given).
  for (pipe, command) in [
    ("quiet.wav", "tracks quiet.wav --timeout 1"),
    ("quiet.wav", "stretch quiet.wav out.wav --speed 2 --timeout 1"),
    ("quiet.srt", "cues quiet.srt --timeout 1"), ("quiet.srt", "cues - --timeout 1 < quiet.srt"),
  ] {
    let (result, seconds) = try runShell(
      """
      rm -f \(pipe); mkfifo \(pipe)
      sleep 30 > \(pipe) & writer=$!
      $M \(command); status=$?
      kill $writer; echo "status $status"
      """, in: folder)
    #expect(result.stdout == "status 1\n", "\(command): \(result.stdout) \(result.stderr)")
    #expect(result.stderr.contains("timed out"), "\(result.stderr)")
    #expect(seconds < 15, "\(command): \(seconds) s")
  }
  for command in [
    "tracks in.wav --timeout 0", "cues - --timeout nan",
    "stretch in.wav o.wav --speed 2 --timeout -1",
  ] {
    let (bad, _) = try runShell("$M \(command)", in: folder)
    #expect(failedWithOneLine(bad, 64), "\(command)")
  }
}

@Test func aPipeThatSpeaksLateIsStillRead() throws {
  let folder = try hardeningFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let (result, _) = try runShell(
    """
    mkfifo late.srt
    (sleep 0.5; printf '1\\n00:00:01,000 --> 00:00:02,000\\nlate\\n' > late.srt) &
    $M cues late.srt --timeout 5
    """, in: folder)
  #expect(result.status == 0, "\(result.stderr)")
  #expect(result.stdout.contains("late"))
}

@Test func devicesAreNotMedia() throws {
  let folder = try hardeningFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  for command in ["tracks /dev/zero", "stretch /dev/urandom out.wav --speed 2"] {
    let (result, seconds) = try runShell("$M \(command)", in: folder)
    #expect(failedWithOneLine(result, 65), "\(command): \(result.status) \(result.stderr)")
    #expect(seconds < 15)
  }
}

@Test func aLocalFileNeverMakesFFmpegOpenAnother() throws {
  let folder = try hardeningFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // Lists of other files (concat, a media playlist) as inputs: refused, nothing else is read.
  let scripts = [
    "printf 'ffconcat version 1.0\\nfile in.wav\\nfile /etc/passwd\\n' > list.ffconcat",
    "printf '#EXTM3U\\n#EXT-X-TARGETDURATION:2\\n#EXTINF:2,\\nin.wav\\n#EXT-X-ENDLIST\\n' > list.wav",
  ]
  for script in scripts {
    let input = script.contains("ffconcat") ? "list.ffconcat" : "list.wav"
    let (result, _) = try runShell(
      script + "; $M stretch \(input) out.wav --speed 2", in: folder)
    #expect(failedWithOneLine(result, 65), "\(input): \(result.status) \(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/out.wav"))
  }
}

@Test func aDenseSpeedMapIsExact() throws {
  let folder = try hardeningFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // 1,900 changes 1 ms apart, alternating between 1x and 2x, over the 2 s input: the output is
  // the sum of each interval's input over its speed.
  var entries: [String] = []
  var expected = 0.0
  let rate = 22_050.0
  var previous = (time: 0.0, speed: 1.0)
  for index in 0..<1_900 {
    let time = 0.05 + Double(index) * 0.001
    let speed = index % 2 == 0 ? 2.0 : 1.0
    expected += ((time * rate).rounded() - (previous.time * rate).rounded()) / previous.speed
    previous = (time, speed)
    entries.append("\(time):\(Int(speed))")
  }
  expected += (2 * rate - (previous.time * rate).rounded()) / previous.speed
  let map = entries.joined(separator: ",")
  try map.write(toFile: folder + "/map", atomically: true, encoding: .utf8)
  let (result, _) = try runShell(
    "$M stretch in.wav out.wav --speed-map \"$(cat map)\" --json", in: folder)
  #expect(result.status == 0, "\(result.stderr)")
  let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
  let frames = json?["outputFrames"] as? Int ?? -1
  #expect(abs(Double(frames) - expected) <= 2, "\(frames) frames, map says \(expected)")
}

@Test func damagedTextCostsMemoryInProportionToItsSize() throws {
  // Sanitizers multiply memory by their own shadow and quarantine: measured without them only.
  let environment = ProcessInfo.processInfo.environment
  if environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil { return }
  let folder = try hardeningFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // 2 MB of UTF-16 SRT whose cue text is a million unpaired surrogate halves (each a repair): 4 MB
  // of them once peaked at 353 MiB (about 150 bytes per diagnostic); now about 28 MiB.
  var bytes: [UInt8] = [0xFF, 0xFE]
  func add(_ units: [UInt16]) {
    for unit in units { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
  }
  add(Array("1\r\n00:00:01,000 --> 00:00:02,000\r\n".utf16))
  for line in 0..<4_000 {
    add(Array(repeating: line % 2 == 0 ? 0xD800 : 0xDC00, count: 250) + Array("\r\n".utf16))
  }
  try Data(bytes).write(to: URL(fileURLWithPath: folder + "/halves.srt"))
  let (result, _) = try runShell(
    "python3 -c 'import resource, subprocess, sys; "
      + "code = subprocess.call([sys.argv[1], \"cues\", \"halves.srt\", \"--json\"], "
      + "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
      + "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \"$M\"",
    in: folder)
  let fields = result.stdout.split(separator: " ").compactMap {
    Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
  }
  #expect(fields.count == 2, "\(result.stdout) \(result.stderr)")
  guard fields.count == 2 else { return }
  #expect(fields[0] == 0)
  // Peak resident memory in KiB, well under what a diagnostic per repair would take.
  #expect(fields[1] < 120_000, "peak \(fields[1]) KiB for \(bytes.count) bytes")
}
