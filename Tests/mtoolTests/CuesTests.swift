import Foundation
import Testing

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "mtool-cues-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

func jsonObject(_ text: String) throws -> [String: Any] {
  let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
  return try #require(value as? [String: Any])
}

@Test func cuesListsSRT() throws {
  let result = try runMtool(["cues", fixtures + "/sample.srt"])
  #expect(result.status == 0)
  #expect(result.stderr.isEmpty)
  #expect(
    result.stdout == """
      #1 1  00:00:00.500 --> 00:00:01.500
          Hello, <i>world</i>.
      #2 2  00:00:01.800 --> 00:00:02.900  line:0
          Second cue,
          two lines.

      """)
}

@Test func cuesJSONUsesVTTCueNames() throws {
  let result = try runMtool(["cues", "--json", fixtures + "/sample.vtt"])
  #expect(result.status == 0)
  let document = try jsonObject(result.stdout)
  #expect(document["format"] as? String == "vtt")
  let keys = ["format", "header", "regions", "styles", "cues", "diagnostics", "timestampMap"]
  #expect(Set(document.keys) == Set(keys))
  let cues = try #require(document["cues"] as? [[String: Any]])
  #expect(cues.count == 2)
  #expect(cues[0]["id"] as? String == "intro")
  #expect(cues[0]["startTime"] as? Double == 0.5)
  #expect(cues[0]["position"] as? Double == 10)
  #expect(cues[0]["line"] as? String == "auto")
  #expect(cues[1]["line"] as? Double == 0)
  for key in [
    "vertical", "snapToLines", "lineAlign", "positionAlign", "size", "align", "region", "text",
  ] {
    #expect(cues[0][key] != nil, "missing \(key)")
  }
}

@Test func cuesJSONLinesWithTree() throws {
  let result = try runMtool(["cues", "--jsonl", "--tree", fixtures + "/sample.srt"])
  #expect(result.status == 0)
  let lines = result.stdout.split(separator: "\n")
  #expect(lines.count == 2)
  let first = try jsonObject(String(lines[0]))
  let tree = try #require(first["tree"] as? [[String: Any]])
  #expect(tree.count == 3)
  #expect(tree[1]["name"] as? String == "i")
  #expect(tree[1]["type"] as? String == "element")
}

@Test func cuesConvertsToFileAndBack() throws {
  let dir = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: dir) }
  let vtt = dir.appendingPathComponent("out.vtt").path
  let result = try runMtool(["cues", fixtures + "/sample.srt", "--to", "vtt", "-o", vtt])
  #expect(result.status == 0)
  #expect(result.stdout.isEmpty)
  let written = try String(contentsOfFile: vtt, encoding: .utf8)
  #expect(written.hasPrefix("WEBVTT\n\n1\n00:00:00.500 --> 00:00:01.500\n"))
  let back = try runMtool(["cues", vtt, "--to", "srt"])
  let original = try String(contentsOfFile: fixtures + "/sample.srt", encoding: .utf8)
  #expect(back.stdout == original.replacingOccurrences(of: "\r\n", with: "\n"))
  #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.vtt"])
}

@Test func cuesFailureLeavesNoOutputFile() throws {
  let dir = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: dir) }
  let input = dir.appendingPathComponent("bad.txt").path
  try "just some text\n".write(toFile: input, atomically: true, encoding: .utf8)
  let out = dir.appendingPathComponent("out.vtt").path
  let result = try runMtool(["cues", input, "--to", "vtt", "-o", out])
  #expect(result.status == 65)
  #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["bad.txt"])
}

@Test func cuesAtAndShift() throws {
  let at = try runMtool(["cues", fixtures + "/sample.srt", "--at", "2", "--jsonl"])
  #expect(at.status == 0)
  #expect(at.stdout.split(separator: "\n").count == 1)
  #expect(at.stdout.contains("\"id\":\"2\""))
  let shifted = try runMtool(["cues", fixtures + "/sample.srt", "--shift", "-1", "--json"])
  let document = try jsonObject(shifted.stdout)
  let cues = try #require(document["cues"] as? [[String: Any]])
  #expect(cues.map { $0["startTime"] as? Double } == [0, 0.8])
  let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
  #expect(diagnostics.count == 1)
  #expect(shifted.stderr.isEmpty)
}

@Test func cuesStdinAndStats() throws {
  let input = Data("1\n00:00:01,000 --> 00:00:02,000\nA\n\n00:00:03,000 --> 00:00:04,000\nB\n".utf8)
  let result = try runMtool(["cues", "-", "--stats"], stdin: input)
  #expect(result.status == 0)
  #expect(result.stdout.contains("cues: 2\n"))
  #expect(result.stdout.contains("diagnostics: 1\n"))
  #expect(result.stdout.contains("bytes: \(input.count)\n"))
  #expect(result.stdout.contains("parse time: "))
  #expect(result.stderr == "mtool: cues: 1 diagnostic (see --json)\n")
}

@Test func cuesEncodingOption() throws {
  var bytes = Data("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
  bytes.append(contentsOf: [0xA4, 0x0A])
  let result = try runMtool(["cues", "-", "--encoding", "ISO-8859-15", "--jsonl"], stdin: bytes)
  #expect(result.status == 0)
  #expect(result.stdout.contains("\"text\":\"€\""))
  let bad = try runMtool(["cues", "-", "--encoding", "EBCDIC"], stdin: bytes)
  #expect(bad.status == 64)
  #expect(bad.stderr.hasPrefix("mtool: cues: "))
}

/// Argument lists and the exit status each must give.
let cuesFailures: [(arguments: [String], status: Int32)] = [
  (["cues", "/no/such/file.srt"], 66),
  (["cues", "--format", "vtt", "SAMPLE_SRT"], 65),
  (["cues", "--format", "xml", "SAMPLE_SRT"], 64),
  (["cues", "--to", "ass", "SAMPLE_SRT"], 64),
  (["cues", "--at", "soon", "SAMPLE_SRT"], 64),
  (["cues", "--json", "--jsonl", "SAMPLE_SRT"], 64),
  (["cues"], 64),
]

@Test(arguments: cuesFailures.indices)
func cuesExitCodes(index: Int) throws {
  let (arguments, status) = cuesFailures[index]
  let resolved = arguments.map { $0 == "SAMPLE_SRT" ? fixtures + "/sample.srt" : $0 }
  let result = try runMtool(resolved)
  #expect(result.status == status)
  #expect(result.stdout.isEmpty)
  #expect(result.stderr.hasPrefix("mtool: cues: "))
  #expect(result.stderr.filter { $0 == "\n" }.count == 1)
}

@Test func cuesRejectsNonSubtitles() throws {
  let result = try runMtool(["cues", "-"], stdin: Data("<html>hello</html>\n".utf8))
  #expect(result.status == 65)
  #expect(result.stderr.hasPrefix("mtool: cues: not a subtitle file"))
}

/// pysubs2's MicroDVD output: refused (65) with the format's name, on one line.
@Test func cuesNamesAFormatItDoesNotRead() throws {
  let result = try runMtool(["cues", "-"], stdin: Data("{0}{0}25\n{25}{88}Hello\n".utf8))
  #expect(result.status == 65)
  #expect(result.stdout.isEmpty)
  #expect(result.stderr.hasPrefix("mtool: cues: MicroDVD subtitles"))
  #expect(result.stderr.contains("not a format read here"))
  #expect(result.stderr.filter { $0 == "\n" }.count == 1)
}

@Test func cuesTreeOfWebVTTUsesTheConformanceShape() throws {
  let vtt = "WEBVTT\n\n00:00.000 --> 00:01.000\n<ruby>a<rt>b</rt></ruby><00:00.500><c.x>c</c>\n"
  let result = try runMtool(["cues", "-", "--jsonl", "--tree"], stdin: Data(vtt.utf8))
  #expect(result.status == 0)
  let cue = try jsonObject(result.stdout)
  let tree = try #require(cue["tree"] as? [[String: Any]])
  #expect(tree.count == 3)
  #expect(tree[0]["name"] as? String == "ruby")
  let rubyChildren = try #require(tree[0]["children"] as? [[String: Any]])
  #expect(rubyChildren.map { $0["type"] as? String } == ["text", "element"])
  #expect(tree[1]["type"] as? String == "timestamp")
  #expect(tree[1]["value"] as? String == "00:00:00.500")
  #expect(tree[2]["name"] as? String == "span")
  #expect((tree[2]["attributes"] as? [String: String]) == ["class": "x"])
}

@Test func anOutputThroughALinkReplacesTheFileItNames() throws {
  // The output used to be renamed over the link itself, leaving the file it named unchanged.
  let folder = NSTemporaryDirectory() + "mtool-link-\(getpid())"
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let real = folder + "/real.vtt"
  try Data("old".utf8).write(to: URL(fileURLWithPath: real))
  #expect(chmod(real, 0o600) == 0)
  #expect(symlink("real.vtt", folder + "/link.vtt") == 0)
  let result = try runMtool([
    "cues", fixtures + "/sample.srt", "--to", "vtt", "-o", folder + "/link.vtt",
  ])
  #expect(result.status == 0, "\(result.stderr)")
  let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/link.vtt")
  #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
  let written = try String(contentsOfFile: real, encoding: .utf8)
  #expect(written.hasPrefix("WEBVTT"))
  var info = stat()
  #expect(stat(real, &info) == 0 && info.st_mode & 0o777 == 0o600)
  // A device is written in place, not replaced by a file.
  #expect(
    try runMtool(["cues", fixtures + "/sample.srt", "--to", "vtt", "-o", "/dev/null"]).status == 0)
  #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
}

@Test func aHugeShiftIsRefusedAndTheLargestExactOneWorks() throws {
  // Past 9e12 s cue times are no longer exact to the millisecond: refused, not clamped.
  for shift in ["1e17", "1e306", "-1e306", "9.1e12"] {
    let result = try runMtool(["cues", fixtures + "/sample.srt", "--shift", shift, "--json"])
    #expect(result.status == 64, "\(shift): \(result.stderr)")
    #expect(result.stdout.isEmpty)
  }
  for shift in ["9e12", "-9e12"] {
    let result = try runMtool(["cues", fixtures + "/sample.srt", "--shift", shift, "--json"])
    #expect(result.status == 0, "\(shift): \(result.stderr)")
    #expect(!result.stdout.contains("null,\"endTime\""))
  }
}

@Test func cuesRefusesToOverwriteItsInput() throws {
  // `-o` naming the input (by another path or a link) replaced the subtitles with the listing.
  let dir = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: dir) }
  let input = dir.appendingPathComponent("same.vtt").path
  try FileManager.default.copyItem(atPath: fixtures + "/sample.vtt", toPath: input)
  let original = try Data(contentsOf: URL(fileURLWithPath: input))
  let link = dir.appendingPathComponent("link.vtt").path
  try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
  for arguments in [
    ["cues", input, "-o", dir.path + "/./same.vtt"], ["cues", input, "--to", "srt", "-o", link],
  ] {
    let result = try runMtool(arguments)
    #expect(result.status == 64, "\(arguments)")
    #expect(result.stderr.contains("is the input file"), "\(result.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
  }
}

@Test func cuesRefusesToOverwriteTheFileOnItsStandardInput() throws {
  // `mtool cues - -o f.vtt < f.vtt`: standard input is the output file.
  let dir = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: dir) }
  let input = dir.appendingPathComponent("same.vtt").path
  try FileManager.default.copyItem(atPath: fixtures + "/sample.vtt", toPath: input)
  let original = try Data(contentsOf: URL(fileURLWithPath: input))
  let process = Process()
  process.executableURL = URL(fileURLWithPath: mtoolBinary)
  process.arguments = ["cues", "-", "-o", input]
  process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  #expect(process.terminationStatus == 64)
  #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
}

@Test func cuesStatsRefusesAtAndShift() throws {
  for option in ["--at", "--shift"] {
    let result = try runMtool(["cues", fixtures + "/sample.vtt", "--stats", option, "1"])
    #expect(result.status == 64, "\(option)")
    #expect(result.stdout.isEmpty)
  }
}

/// A DASH manifest given to `cues` is refused (65) naming its text files, as a multivariant
/// HLS playlist is, not read as a subtitle file with no signature.
@Test func aDASHManifestNamesItsSubtitleFiles() throws {
  let dir = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: dir) }
  let sidecar = dir.appendingPathComponent("m.mpd").path
  try """
  <?xml version="1.0"?>
  <MPD type="static" mediaPresentationDuration="PT4S"><Period>
    <AdaptationSet contentType="text" mimeType="text/vtt" lang="en">
      <Representation id="t" bandwidth="100"><BaseURL>subs/en.vtt</BaseURL></Representation>
    </AdaptationSet>
  </Period></MPD>
  """.write(toFile: sidecar, atomically: true, encoding: .utf8)
  let named = try runMtool(["cues", sidecar])
  #expect(named.status == 65)
  #expect(
    named.stderr
      == "mtool: cues: '\(sidecar)' is a DASH manifest; give one of its subtitle files (subs/en.vtt)\n"
  )
  let segmented = try runMtool(["cues", fixtures + "/manifest.mpd"])
  #expect(segmented.status == 65)
  #expect(segmented.stderr.contains("is a DASH manifest; give one of its subtitle files\n"))
}

/// Shift-JIS SRT on standard input: 65 with a way out, not windows-1252 mojibake with 0.
@Test func cuesRefusesTextInAnEncodingItCannotTell() throws {
  let sjis: [UInt8] = [0x82, 0xB1, 0x82, 0xF1, 0x82, 0xC9, 0x82, 0xBF, 0x82, 0xCD, 0x81, 0x41]
  let input = Data("1\n00:00:01,000 --> 00:00:02,000\n".utf8) + Data(sjis + sjis) + Data([0x0A])
  let result = try runMtool(["cues", "-"], stdin: input)
  #expect(result.status == 65)
  #expect(result.stdout.isEmpty)
  #expect(
    result.stderr.contains("neither UTF-8 nor a single-byte code page told by its letters (line 3"))
  #expect(result.stderr.contains("--encoding"))
}
