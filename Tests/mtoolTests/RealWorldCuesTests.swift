import Foundation
import SubtitleParser
import Testing

// `mtool cues` on subtitles nobody here wrote, and on SRT variants as found in the wild
// (`Tests/Fixtures/subtitles-wild`, made by `Scripts/make-wild-srt.py`), read against FFmpeg's
// own reading of the same files; and the rules that decide a file's format and an output's.

/// `../shared/realworld/<name>` beside the repository, or nil when that folder is not there.
private func realWorldSubtitle(_ name: String) -> String? {
  var root = #filePath
  while let slash = root.lastIndex(of: "/"), !root.hasSuffix("/Tests") {
    root = String(root[..<slash])
  }
  root = String(root.dropLast("/Tests".count))
  let folder = URL(fileURLWithPath: root).deletingLastPathComponent().path
  let path = folder + "/shared/realworld/" + name
  return FileManager.default.fileExists(atPath: path) ? path : nil
}

/// The folder of wild SRT variants.
private let wildFolder = fixtures + "/subtitles-wild"

/// The variant files, sorted.
private let wildFiles: [String] =
  ((try? FileManager.default.contentsOfDirectory(atPath: fixtures + "/subtitles-wild")) ?? [])
  .filter { $0.hasSuffix(".srt") }.sorted()

/// Where `ffprobe` is, or nil.
private let ffprobe: String? = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// A cue as both readers give it: times in milliseconds, and whether its text shows anything.
private struct TimedCue: Equatable, CustomStringConvertible {
  var start: Int
  var end: Int
  var visible: Bool
  var description: String { "\(start)-\(end)\(visible ? "" : " (no text)")" }
}

/// `mtool cues FILE --json`: the cues and the diagnostics' reasons.
private func mtoolCues(_ path: String) throws -> (cues: [TimedCue], diagnostics: [String]) {
  let result = try runMtool(["cues", path, "--json"])
  #expect(result.status == 0, "\(path): \(result.stderr)")
  let document = try jsonObject(result.stdout)
  let cues = try #require(document["cues"] as? [[String: Any]])
  let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
  return (
    cues.map { cue in
      let text = cue["text"] as? String ?? ""
      return TimedCue(
        start: Int((((cue["startTime"] as? Double) ?? -1) * 1000).rounded()),
        end: Int((((cue["endTime"] as? Double) ?? -1) * 1000).rounded()),
        visible: text.contains { !$0.isWhitespace })
    },
    diagnostics.map { $0["reason"] as? String ?? "" }
  )
}

/// FFmpeg's reading of an SRT file: its SRT demuxer's packets (pts and duration are in
/// milliseconds), each with whether its payload shows anything.
private func ffmpegCues(_ path: String, tool: String) throws -> [TimedCue] {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: tool)
  process.arguments = [
    "-v", "error", "-f", "srt", "-show_packets", "-show_data", "-of", "json", path,
  ]
  let out = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  let packets = document["packets"] as? [[String: Any]] ?? []
  return packets.map { packet in
    let pts = (packet["pts"] as? Int) ?? 0
    let duration = (packet["duration"] as? Int) ?? 0
    // `-show_data` is a hex dump: "00000000: 4865 6c6c ...  Hell..." per 16 bytes.
    var bytes: [UInt8] = []
    for line in (packet["data"] as? String ?? "").split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let hex = line[line.index(after: colon)...].prefix(41).filter { $0 != " " }
      var index = hex.startIndex
      while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < next {
        if let byte = UInt8(hex[index..<next], radix: 16) { bytes.append(byte) }
        index = next
      }
    }
    let visible = bytes.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    return TimedCue(start: pts, end: pts + duration, visible: visible)
  }
}

// MARK: - The real file

@Test(
  .enabled(
    if: realWorldSubtitle("subrip_typical_with_tags") != nil,
    "../shared/realworld/subrip_typical_with_tags is not beside the repository"))
func subripTypicalWithTagsGivesFourteenCuesWithDiagnostics() throws {
  let path = try #require(realWorldSubtitle("subrip_typical_with_tags"))
  // No extension: the content says SRT.
  let (cues, diagnostics) = try mtoolCues(path)
  // As Media3 and FFmpeg read it (ffprobe -show_packets: pts and pts + duration).
  let expected: [(Int, Int)] = [
    (0, 1234), (2345, 3456), (4567, 8901), (9567, 12901), (13567, 14901), (15567, 15901),
    (16567, 16901), (17567, 17901), (18567, 18901), (19567, 19901), (20567, 20901),
    (21567, 22901), (23567, 23901), (24567, 24901),
  ]
  #expect(cues.count == 14)
  #expect(cues.map { [$0.start, $0.end] } == expected.map { [$0.0, $0.1] })
  // One diagnostic for each of the ten three-digit-seconds timing lines, saying what it was
  // read as; the override blocks removed are diagnostics too.
  let widths = diagnostics.filter { $0.hasPrefix("minutes or seconds not two digits wide") }
  #expect(widths.count == 10)
  #expect(
    widths.first == "minutes or seconds not two digits wide; read as 00:00:13,567 --> 00:00:14,901")
  let listing = try runMtool(["cues", path])
  #expect(listing.status == 0)
  #expect(listing.stdout.contains("#14 14  00:00:24.567 --> 00:00:24.901"))
  #expect(listing.stderr.contains("diagnostics (see --json)"))
}

// MARK: - The wild corpus against FFmpeg

/// Files on which FFmpeg's reading and ours differ by design: our cues (start-end in ms), and
/// why.
private let differsFromFFmpeg: [String: (cues: [String], reason: String)] = [
  "no-hours.srt": (["62500-63000", "5000-6000"], "Media3 reads MM:SS,mmm; FFmpeg needs hours"),
  "no-millis.srt": (["1000-2000", "5000-6000"], "Media3 reads HH:MM:SS; FFmpeg needs ,mmm"),
  "signed.srt": (["5000-6000"], "FFmpeg's %d takes a sign; a negative time is no time here"),
  "absurd-fields.srt": (
    ["5000-6000"], "a field of more than 9 digits: FFmpeg's %d overflows, here the cue is skipped"
  ),
]

/// Variants with nothing to repair: no diagnostic. Every other variant has at least one.
private let cleanVariants: Set<String> = [
  "canonical.srt", "crlf.srt", "bom-crlf.srt", "no-final-newline.srt", "extra-blank-lines.srt",
  "long-text.srt", "three-digit-hours.srt", "utf16le-bom.srt", "leading-trailing-spaces.srt",
  "whitespace-lines.srt", "timing-lookalikes.srt",
]

@Test func wildCorpusIsThere() {
  #expect(wildFiles.count >= 60, "run Scripts/make-wild-srt.py")
}

/// Cue counts and times of every variant equal FFmpeg's reading of the same file (FFmpeg drops
/// cues without text, so the cues compared are those with visible text; and it replaces an
/// end before the start, so only the start of such a cue is compared).
@Test(
  .enabled(if: ffprobe != nil, "ffprobe is not installed"), arguments: wildFiles)
func wildSRTReadsAsFFmpegReadsIt(name: String) throws {
  let path = wildFolder + "/" + name
  let (ours, diagnostics) = try mtoolCues(path)
  if cleanVariants.contains(name) {
    #expect(diagnostics.isEmpty, "\(name): \(diagnostics)")
  } else {
    #expect(!diagnostics.isEmpty, "\(name): every repair is a diagnostic")
  }
  if let known = differsFromFFmpeg[name] {
    #expect(ours.map { "\($0.start)-\($0.end)" } == known.cues, "\(name): \(known.reason)")
    return
  }
  let theirs = try ffmpegCues(path, tool: try #require(ffprobe))
  let a = ours.filter(\.visible)
  let b = theirs.filter(\.visible)
  #expect(a.count == b.count, "\(name): ours \(a), FFmpeg's \(b)")
  for (x, y) in zip(a, b) {
    #expect(x.start == y.start, "\(name): ours \(a), FFmpeg's \(b)")
    if x.end >= x.start { #expect(x.end == y.end, "\(name): ours \(a), FFmpeg's \(b)") }
  }
}

/// Lines that look like timing lines but are not are never cues: in a file of nothing else
/// there is nothing to read (65), as for FFmpeg, which finds no packet in them.
@Test func timingLookAlikesAreNotSubtitles() throws {
  let folder = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: folder) }
  let lines = [
    "00:00:03,000 -> 00:00:04,000", "00:00:03:000 --> 00:00:04:000",
    "00.00.03,000 --> 00.00.04,000", "00 :00:03,000 --> 00:00:04,000", "00:00:03,000 --> ",
    "--> 00:00:04,000", "0x:00:03,000 --> 00:00:04,000", "00:00:03,000 => 00:00:04,000",
    "10:30 --> 11:45 at the station", "-00:00:01,000 --> 00:00:02,000",
    "00:00:01 --> 00:00:02 later", "1 --> 2", "00:00:01,000 --> 00:00:02,abc",
  ]
  for (index, line) in lines.enumerated() {
    let path = folder.appendingPathComponent("lookalike-\(index).srt").path
    try Data("1\n\(line)\nText\n".utf8).write(to: URL(fileURLWithPath: path))
    let result = try runMtool(["cues", path])
    #expect(result.status == 65, "\(line): \(result.stdout)")
  }
}

// MARK: - Format by extension, the same in the library and the command line

@Test func explicitExtensionDecidesTheFormatSniffingOnlyOtherwise() throws {
  let folder = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: folder) }
  let srtBody = "1\n00:00:01,000 --> 00:00:02,000\nText\n"
  let contents: [(String, [UInt8])] = [
    ("tab-signature", Array("\tWEBVTT\n\n00:01.000 --> 00:02.000\nx\n".utf8)),
    ("bom-garbage", [0xEF, 0xBB, 0xBF] + Array("xWEBVTT\n\n\(srtBody)".utf8)),
    ("webvtt", Array("WEBVTT\n\n00:01.000 --> 00:02.000\nx\n".utf8)),
    ("srt", Array(srtBody.utf8)),
  ]
  for (label, bytes) in contents {
    for name in ["x.vtt", "x.VTT", "x.srt", "x.txt", "x"] {
      let path = folder.appendingPathComponent("\(label)-\(name)").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let format = SubtitleFile.format(forPath: path)
      let library = Result(catching: { () throws(SubtitleError) -> SubtitleDocument in
        try SubtitleFile.parse(bytes, format: format)
      })
      let result = try runMtool(["cues", path, "--json"])
      switch library {
      case .success(let document):
        #expect(result.status == 0, "\(label) as \(name)")
        #expect(try jsonObject(result.stdout)["format"] as? String == document.format.rawValue)
      case .failure:
        #expect(result.status == 65, "\(label) as \(name)")
      }
      // The extension API says the same.
      let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "") : ""
      let byExtension = Result(catching: { () throws(SubtitleError) -> SubtitleDocument in
        try SubtitleFile.parse(bytes, pathExtension: ext)
      })
      #expect((try? byExtension.get())?.format == (try? library.get())?.format)
    }
  }
  // A `.vtt` with a damaged signature is an error, as in browsers.
  let bad = folder.appendingPathComponent("tab-signature-x.vtt").path
  let result = try runMtool(["cues", bad])
  #expect(result.status == 65)
  #expect(result.stderr.hasPrefix("mtool: cues: not a WebVTT file"))
  // A renamed SRT file says how to read it.
  let renamed = try runMtool(["cues", folder.appendingPathComponent("srt-x.vtt").path])
  #expect(renamed.status == 65)
  #expect(renamed.stderr.hasSuffix("it reads as SRT with --format srt\n"))
  // Standard input is sniffed: the same bytes read as SRT (they hold an SRT timing line).
  let piped = try runMtool(["cues", "-", "--json"], stdin: Data(contents[1].1))
  #expect(piped.status == 0)
  #expect(try jsonObject(piped.stdout)["format"] as? String == "srt")
  // --format wins over the extension (`00:01.000 --> 00:02.000` is an SRT timing line too).
  let forced = try runMtool(["cues", bad, "--format", "srt", "--json"])
  #expect(forced.status == 0)
  #expect(try jsonObject(forced.stdout)["format"] as? String == "srt")
  let forcedSRT = try runMtool(
    ["cues", folder.appendingPathComponent("bom-garbage-x.vtt").path, "--format", "srt"])
  #expect(forcedSRT.status == 0)
}

@Test func formatForPathReadsOnlyTheLastComponent() {
  #expect(SubtitleFile.format(forPath: "a/b.srt") == .srt)
  #expect(SubtitleFile.format(forPath: "a.vtt/b") == nil)
  #expect(SubtitleFile.format(forPath: "dir/.vtt") == nil)
  #expect(SubtitleFile.format(forPath: "movie.en.VTT") == .webVTT)
  #expect(SubtitleFile.format(forPath: "movie.srt.txt") == nil)
  #expect(SubtitleFile.format(forPath: "-") == nil)
  #expect(SubtitleFile.format(forPath: "x.") == nil)
}

// MARK: - The output's extension

@Test func outputExtensionImpliesTheFormatAndNeverTakesAListing() throws {
  let folder = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: folder) }
  let input = folder.appendingPathComponent("a.srt").path
  try Data("1\n00:00:01,000 --> 00:00:02,000\n<i>Hi</i>\n".utf8).write(
    to: URL(fileURLWithPath: input))
  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
  func read(_ name: String) -> String {
    (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? "<missing>"
  }

  // -o FILE.vtt / .srt without --to converts.
  var result = try runMtool(["cues", input, "-o", path("b.vtt")])
  #expect(result.status == 0)
  #expect(read("b.vtt") == "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\n<i>Hi</i>\n")
  result = try runMtool(["cues", path("b.vtt"), "-o", path("c.SRT")])
  #expect(result.status == 0)
  #expect(read("c.SRT") == "1\n00:00:01,000 --> 00:00:02,000\n<i>Hi</i>\n")
  result = try runMtool(["cues", input, "--to", "vtt", "-o", path("d.vtt")])
  #expect(result.status == 0)
  #expect(read("d.vtt").hasPrefix("WEBVTT\n"))

  // A conflict is a usage error, and a good file there stays as it was.
  let conflicts: [[String]] = [
    ["--to", "srt", "-o", path("b.vtt")], ["--to", "vtt", "-o", path("c.SRT")],
    ["--json", "-o", path("b.vtt")], ["--jsonl", "-o", path("b.vtt")],
    ["--stats", "-o", path("c.SRT")], ["--tree", "-o", path("b.vtt")],
    ["--to", "vtt", "-o", path("e.json")], ["--jsonl", "-o", path("e.json")],
  ]
  let before = (read("b.vtt"), read("c.SRT"))
  for arguments in conflicts {
    result = try runMtool(["cues", input] + arguments)
    #expect(result.status == 64, "\(arguments)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("mtool: cues: "), "\(arguments)")
  }
  #expect(read("b.vtt") == before.0)
  #expect(read("c.SRT") == before.1)
  #expect(!FileManager.default.fileExists(atPath: path("e.json")))

  // JSON goes into .json (asked for or implied), the listing into any other name.
  result = try runMtool(["cues", input, "--json", "-o", path("f.json")])
  #expect(result.status == 0)
  #expect(try jsonObject(read("f.json"))["format"] as? String == "srt")
  result = try runMtool(["cues", input, "-o", path("g.json")])
  #expect(result.status == 0)
  #expect(try jsonObject(read("g.json"))["format"] as? String == "srt")
  result = try runMtool(["cues", input, "-o", path("h.txt")])
  #expect(result.status == 0)
  #expect(read("h.txt").hasPrefix("#1 1  00:00:01.000 --> 00:00:02.000"))
  result = try runMtool(["cues", input, "--to", "srt", "-o", path("i.txt")])
  #expect(result.status == 0)
  #expect(read("i.txt") == "1\n00:00:01,000 --> 00:00:02,000\n<i>Hi</i>\n")
  // Standard output takes whatever the flags ask for.
  result = try runMtool(["cues", input, "-o", "-"])
  #expect(result.status == 0)
  #expect(result.stdout.hasPrefix("#1 1"))
}
