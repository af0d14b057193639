import Foundation
import Testing

/// One row of the bad-input matrix: a command line, the exit code it must end with, and the
/// prefix of its single stderr line.
struct BadInputCase: Sendable, CustomTestStringConvertible {
  var name: String
  var arguments: [String]
  var status: Int32
  var stderrPrefix: String

  var testDescription: String { name }
}

/// A scratch folder shared by the matrix, with the generated bad inputs in it.
let badInputs: String = {
  let folder = NSTemporaryDirectory() + "mtool-bad-inputs-\(getpid())"
  let fm = FileManager.default
  try? fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
  func write(_ name: String, _ bytes: [UInt8]) {
    _ = fm.createFile(atPath: folder + "/" + name, contents: Data(bytes))
  }
  write("empty.srt", [])
  write("empty.wav", [])
  write("garbage.mkv", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
  write("nul.srt", [0, 0, 0, 0] + Array("1\n00:00:01,000 --> 00:00:02,000\nx\n".utf8))
  write("nul-only.vtt", [UInt8](repeating: 0, count: 256))
  write("not-vtt.vtt", Array("WEBVTTX\n\n00:01.000 --> 00:02.000\nx\n".utf8))
  write(
    "absurd-hours.srt",
    Array("1\n99999999999999999999:00:00,000 --> 99999999999999999999:00:01,000\nx\n".utf8))
  // UTF-16 LE with a BOM and an unpaired surrogate half in the text.
  var utf16: [UInt8] = [0xFF, 0xFE]
  for unit in Array("1\r\n00:00:01,000 --> 00:00:02,000\r\nA".utf16) + [0xD800]
    + Array("B\r\n".utf16)
  {
    utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
  }
  write("half-surrogate.srt", utf16)
  write("invalid-utf8.vtt", Array("WEBVTT\n\n00:01.000 --> 00:02.000\n".utf8) + [0xC3, 0x28, 0xFF])
  let nested =
    String(repeating: "<b>", count: 100_000) + "deep" + String(repeating: "</b>", count: 100_000)
  write("nested.vtt", Array("WEBVTT\n\n00:01.000 --> 00:02.000\n\(nested)\n".utf8))
  if let truncated = fm.contents(atPath: fixtures + "/clip.wav") {
    write("truncated.wav", Array(truncated.prefix(100)))
  }
  return folder
}()

let badInputCases: [BadInputCase] = {
  let f = fixtures
  let b = badInputs
  /// Each row writes into its own empty folder, so rows running at once don't see each other.
  func outIn(_ row: String) -> String {
    let folder = b + "/out-" + String(row.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder + "/out.wav"
  }
  return [
    BadInputCase(
      name: "tracks: missing file", arguments: ["tracks", b + "/missing.mkv"], status: 66,
      stderrPrefix: "mtool: tracks: "),
    BadInputCase(
      name: "tracks: a directory", arguments: ["tracks", b], status: 66,
      stderrPrefix: "mtool: tracks: "),
    BadInputCase(
      name: "tracks: empty file", arguments: ["tracks", b + "/empty.wav"], status: 65,
      stderrPrefix: "mtool: tracks: "),
    BadInputCase(
      name: "tracks: garbage", arguments: ["tracks", b + "/garbage.mkv"], status: 65,
      stderrPrefix: "mtool: tracks: "),
    BadInputCase(
      name: "cues: missing file", arguments: ["cues", b + "/missing.srt"], status: 66,
      stderrPrefix: "mtool: cues: "),
    BadInputCase(
      name: "cues: a directory", arguments: ["cues", b], status: 66,
      stderrPrefix: "mtool: cues: "),
    BadInputCase(
      name: "cues: empty file", arguments: ["cues", b + "/empty.srt"], status: 65,
      stderrPrefix: "mtool: cues: "),
    BadInputCase(
      name: "cues: media is not subtitles", arguments: ["cues", f + "/clip.wav"], status: 65,
      stderrPrefix: "mtool: cues: "),
    BadInputCase(
      name: "cues: NUL bytes only", arguments: ["cues", b + "/nul-only.vtt"], status: 65,
      stderrPrefix: "mtool: cues: "),
    BadInputCase(
      name: "cues: bad WebVTT signature",
      arguments: ["cues", "--format", "vtt", b + "/not-vtt.vtt"],
      status: 65, stderrPrefix: "mtool: cues: "),
    BadInputCase(
      name: "cues: absurd hours", arguments: ["cues", b + "/absurd-hours.srt"], status: 65,
      stderrPrefix: "mtool: cues: "),
    BadInputCase(
      name: "cues: unknown encoding",
      arguments: ["cues", "--encoding", "klingon", f + "/sample.srt"],
      status: 64, stderrPrefix: "mtool: cues: "),
    BadInputCase(
      name: "cues: bad --at", arguments: ["cues", "--at", "soon", f + "/sample.srt"], status: 64,
      stderrPrefix: "mtool: cues: "),
    BadInputCase(
      name: "cues: absurd --shift", arguments: ["cues", "--shift", "1e308", f + "/sample.srt"],
      status: 64, stderrPrefix: "mtool: cues: --shift expects seconds"),
    BadInputCase(
      name: "cues: absurd --at", arguments: ["cues", "--at", "-1e300", f + "/sample.srt"],
      status: 64, stderrPrefix: "mtool: cues: --at expects seconds"),
    BadInputCase(
      name: "stretch: missing file",
      arguments: ["stretch", b + "/missing.wav", outIn("stretch: missing file"), "--speed", "2"],
      status: 66, stderrPrefix: "mtool: stretch: "),
    BadInputCase(
      name: "stretch: a directory",
      arguments: ["stretch", b, outIn("stretch: a directory"), "--speed", "2"], status: 66,
      stderrPrefix: "mtool: stretch: "),
    BadInputCase(
      name: "stretch: empty file",
      arguments: ["stretch", b + "/empty.wav", outIn("stretch: empty file"), "--speed", "2"],
      status: 65, stderrPrefix: "mtool: stretch: "),
    BadInputCase(
      name: "stretch: garbage",
      arguments: ["stretch", b + "/garbage.mkv", outIn("stretch: garbage"), "--speed", "2"],
      status: 65, stderrPrefix: "mtool: stretch: "),
    BadInputCase(
      name: "stretch: truncated media",
      arguments: [
        "stretch", f + "/truncated.mp4", outIn("stretch: truncated media"), "--speed", "2",
      ], status: 65,
      stderrPrefix: "mtool: stretch: "),
    BadInputCase(
      name: "stretch: truncated WAVE",
      arguments: [
        "stretch", b + "/truncated.wav", outIn("stretch: truncated WAVE"), "--speed", "2",
      ], status: 65,
      stderrPrefix: "mtool: stretch: "),
    BadInputCase(
      name: "stretch: no audio",
      arguments: ["stretch", f + "/video-only.mp4", outIn("stretch: no audio"), "--speed", "2"],
      status: 65, stderrPrefix: "mtool: stretch: "),
    BadInputCase(
      name: "stretch: subtitles only",
      arguments: [
        "stretch", f + "/subtitles-only.mkv", outIn("stretch: subtitles only"), "--speed", "2",
      ], status: 65,
      stderrPrefix: "mtool: stretch: "),
    BadInputCase(
      name: "stretch: speed 0",
      arguments: ["stretch", f + "/clip.wav", outIn("stretch: speed 0"), "--speed", "0"],
      status: 64, stderrPrefix: "mtool: stretch: speed"),
    BadInputCase(
      name: "stretch: speed -1",
      arguments: ["stretch", f + "/clip.wav", outIn("stretch: speed -1"), "--speed", "-1"],
      status: 64, stderrPrefix: "mtool: stretch: speed"),
    BadInputCase(
      name: "stretch: speed NaN",
      arguments: ["stretch", f + "/clip.wav", outIn("stretch: speed NaN"), "--speed", "nan"],
      status: 64, stderrPrefix: "mtool: stretch: speed"),
    BadInputCase(
      name: "stretch: speed inf",
      arguments: ["stretch", f + "/clip.wav", outIn("stretch: speed inf"), "--speed", "inf"],
      status: 64, stderrPrefix: "mtool: stretch: speed"),
    BadInputCase(
      name: "stretch: speed 1e9",
      arguments: ["stretch", f + "/clip.wav", outIn("stretch: speed 1e9"), "--speed", "1e9"],
      status: 64, stderrPrefix: "mtool: stretch: speed"),
    BadInputCase(
      name: "stretch: output in a missing folder",
      arguments: ["stretch", f + "/clip.wav", b + "/no/such/folder/o.wav", "--speed", "2"],
      status: 1, stderrPrefix: "mtool: stretch: "),
    BadInputCase(
      name: "stretch: output equal to input",
      arguments: ["stretch", f + "/clip.wav", f + "/clip.wav", "--speed", "2"], status: 64,
      stderrPrefix: "mtool: stretch: "),
  ]
}()

@Test(arguments: badInputCases)
func badInputGetsOneLineAndTheDocumentedCode(_ row: BadInputCase) throws {
  let fixturesBefore = try FileManager.default.contentsOfDirectory(atPath: fixtures).sorted()
  let result = try runMtool(row.arguments)
  #expect(result.status == row.status, "\(result.stderr)")
  #expect(result.stderr.hasPrefix(row.stderrPrefix), "\(result.stderr)")
  #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
  #expect(result.stdout.isEmpty)
  // No output (partial or whole) is left behind, and the inputs are untouched.
  if let output = row.arguments.first(where: { $0.contains("/out-") }) {
    let folder = String(output[..<(output.lastIndex(of: "/") ?? output.endIndex)])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }
  #expect(try FileManager.default.contentsOfDirectory(atPath: fixtures).sorted() == fixturesBefore)
}

/// An input the user may not read: every command exits 66 with one stderr line, and `stretch`
/// leaves no output. (As root the command runs as `nobody`, for whom mode 000 applies.)
@Test(arguments: ["cues", "tracks", "stretch"])
func unreadableInputIsNoInput(_ command: String) throws {
  let fm = FileManager.default
  let folder = badInputs + "/unreadable-" + command
  try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
  try fm.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: folder)
  let name = command == "cues" ? "/locked.srt" : "/locked.wav"
  let source = command == "cues" ? fixtures + "/sample.srt" : fixtures + "/clip.wav"
  let input = folder + name
  try? fm.removeItem(atPath: input)
  try fm.copyItem(atPath: source, toPath: input)
  try fm.setAttributes([.posixPermissions: 0], ofItemAtPath: input)
  var arguments = [command, input]
  if command == "stretch" { arguments += [folder + "/out.wav", "--speed", "2"] }
  let result = try runMtool(arguments, unprivileged: true)
  #expect(result.status == 66, "\(result.stderr)")
  #expect(result.stderr.hasPrefix("mtool: \(command): "), "\(result.stderr)")
  #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
  #expect(result.stdout.isEmpty)
  #expect(try fm.contentsOfDirectory(atPath: folder) == [String(name.dropFirst())])
}

/// Damaged text that is still subtitles parses with diagnostics instead of failing.
@Test(arguments: ["nul.srt", "half-surrogate.srt", "invalid-utf8.vtt", "nested.vtt"])
func damagedTextParsesWithDiagnostics(_ name: String) throws {
  let result = try runMtool(["cues", "--json", badInputs + "/" + name])
  #expect(result.status == 0, "\(result.stderr)")
  let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
  let cues = object?["cues"] as? [[String: Any]] ?? []
  #expect(cues.count == 1)
}

@Test func deeplyNestedTagsBuildATree() throws {
  let result = try runMtool(["cues", "--json", "--tree", badInputs + "/nested.vtt"])
  #expect(result.status == 0, "\(result.stderr)")
  #expect(result.stdout.contains("deep"))
}

/// Under a sanitizer (10-50x slower) the big inputs shrink: the sanitizer checks memory safety,
/// the plain run checks the sizes.
let sanitized =
  ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
  || ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil

@Test func aMillionCuesParse() throws {
  let count = sanitized ? 20_000 : 1_000_000
  var bytes = Array("WEBVTT\n\n".utf8)
  bytes.reserveCapacity(count * 32)
  for i in 0..<count {
    let ms = i * 10
    bytes += Array("\(stamp(ms)) --> \(stamp(ms + 5))\nc\n\n".utf8)
  }
  let path = NSTemporaryDirectory() + "mtool-million-\(getpid()).vtt"
  _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
  defer { try? FileManager.default.removeItem(atPath: path) }
  let result = try runMtool(["cues", "--stats", path])
  #expect(result.status == 0, "\(result.stderr)")
  #expect(result.stdout.contains("\(count)"))
}

/// `hh:mm:ss.ttt` for a time in milliseconds.
private func stamp(_ ms: Int) -> String {
  func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
  let millis = ms % 1000
  let pad = millis < 10 ? "00" : millis < 100 ? "0" : ""
  return "\(two(ms / 3_600_000)):\(two(ms / 60_000 % 60)):\(two(ms / 1000 % 60)).\(pad)\(millis)"
}

@Test func aHugeOneLineFileIsRejectedInLinearTime() throws {
  // 256 MiB of one line without a newline (1 GiB in the benchmark): not subtitles.
  let path = NSTemporaryDirectory() + "mtool-one-line-\(getpid()).srt"
  let size = sanitized ? 8 << 20 : 256 << 20
  _ = FileManager.default.createFile(
    atPath: path, contents: Data(repeating: UInt8(ascii: "a"), count: size))
  defer { try? FileManager.default.removeItem(atPath: path) }
  let result = try runMtool(["cues", path])
  #expect(result.status == 65)
  #expect(result.stderr.hasPrefix("mtool: cues: "))
}

@Test func aFullDiskLeavesNoPartialOutput() throws {
  // A tiny tmpfs where the machine allows mounting one (root in a privileged container).
  let mountPoint = NSTemporaryDirectory() + "mtool-tiny-\(getpid())"
  try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
  let mount = Process()
  mount.executableURL = URL(fileURLWithPath: "/bin/mount")
  mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint]
  mount.standardError = FileHandle.nullDevice
  guard (try? mount.run()) != nil else { return }
  mount.waitUntilExit()
  guard mount.terminationStatus == 0 else {  // Not allowed here: nothing to check.
    try? FileManager.default.removeItem(atPath: mountPoint)
    return
  }
  defer {
    let umount = Process()
    umount.executableURL = URL(fileURLWithPath: "/bin/umount")
    umount.arguments = [mountPoint]
    try? umount.run()
    umount.waitUntilExit()
    try? FileManager.default.removeItem(atPath: mountPoint)
  }
  let result = try runMtool([
    "stretch", fixtures + "/clip.wav", mountPoint + "/out.wav", "--speed", "0.5",
  ])
  #expect(result.status == 1, "\(result.stderr)")
  #expect(result.stderr.hasPrefix("mtool: stretch: "))
  #expect(result.stderr.filter { $0 == "\n" }.count == 1)
  #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint).isEmpty)
}
