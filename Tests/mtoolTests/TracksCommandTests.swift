import Foundation
import Testing

private func parseJSON(_ text: String) throws -> Any {
  try JSONSerialization.jsonObject(with: Data(text.utf8))
}

private func files(_ result: RunResult) throws -> [[String: Any]] {
  let document = try #require(try parseJSON(result.stdout) as? [String: Any])
  return try #require(document["files"] as? [[String: Any]])
}

@Test func tracksTableMarksTheDefaultChoice() throws {
  let result = try runMtool(["tracks", fixtures + "/multitrack.mkv"])
  #expect(result.status == 0)
  #expect(result.stderr.isEmpty)
  let lines = result.stdout.split(separator: "\n").map(String.init)
  #expect(lines.first?.hasSuffix("multitrack.mkv: matroska,webm, 2.9 s") == true)
  let marked = lines.filter { $0.hasPrefix("  * ") }
  #expect(marked.count == 1)
  #expect(marked.first?.contains("#0  English") == true)
  #expect(result.stdout.contains("English \u{2013} Commentary (Director's Commentary)"))
  #expect(result.stdout.contains("French \u{2013} Forced"))
}

@Test func tracksPreferChangesTheChoice() throws {
  let result = try runMtool(["tracks", "--prefer", "fr-CA,en", fixtures + "/multitrack.mkv"])
  #expect(result.status == 0)
  let marked = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  * ") }
  #expect(marked.count == 2)
  #expect(marked.first?.contains("#1  French") == true)
  #expect(marked.last?.contains("#4  French \u{2013} Forced") == true)
}

@Test func tracksJSONHasEveryKey() throws {
  let result = try runMtool(["tracks", "--json", fixtures + "/multitrack.mkv"])
  #expect(result.status == 0)
  let file = try #require(try files(result).first)
  for key in [
    "path", "format", "duration", "audio", "subtitles", "defaultAudio", "defaultSubtitle", "error",
  ] {
    #expect(file.keys.contains(key), "missing \(key)")
  }
  #expect(file["format"] as? String == "matroska,webm")
  #expect(file["defaultAudio"] as? Int == 0)
  #expect(file["defaultSubtitle"] is NSNull)
  #expect(file["error"] is NSNull)
  let audio = try #require(file["audio"] as? [[String: Any]])
  #expect(audio.count == 3)
  let french = audio[1]
  for key in [
    "index", "codec", "profile", "language", "languageTag", "title", "channels", "channelLayout",
    "sampleRate", "bitRate", "duration", "dispositions", "kind", "label",
  ] {
    #expect(french.keys.contains(key), "audio lacks \(key)")
  }
  #expect(french["index"] as? Int == 1)
  #expect(french["language"] as? String == "fr")
  #expect(french["languageTag"] as? String == "fre")
  #expect(french["channels"] as? Int == 6)
  #expect(french["channelLayout"] as? String == "5.1")
  #expect(french["sampleRate"] as? Int == 48000)
  #expect(french["kind"] as? String == "main")
  #expect(audio[2]["kind"] as? String == "commentary")
  #expect(audio[2]["dispositions"] as? [String] == ["comment"])
  let subtitles = try #require(file["subtitles"] as? [[String: Any]])
  #expect(subtitles.map { $0["index"] as? Int } == [3, 4])
  #expect(subtitles[1]["dispositions"] as? [String] == ["forced"])
}

@Test func tracksJSONListsFailedFilesAndSetsExitCodes() throws {
  let paths = [
    fixtures + "/clip.wav", fixtures + "/no-such.mkv", fixtures + "/truncated-header.wav",
  ]
  let result = try runMtool(["tracks", "--json", "--jobs", "2"] + paths)
  #expect(result.status == 66)
  let listed = try files(result)
  #expect(listed.map { $0["path"] as? String } == paths)
  #expect(listed[0]["error"] is NSNull)
  #expect(listed[1]["error"] is String)
  #expect(listed[2]["error"] is String)
  let errors = result.stderr.split(separator: "\n")
  #expect(errors.count == 2)
  #expect(errors.allSatisfy { $0.hasPrefix("mtool: tracks: ") })
  #expect(errors.first?.hasPrefix("mtool: tracks: \(paths[1]): ") == true)

  let bad = try runMtool(["tracks", fixtures + "/truncated-header.wav", fixtures + "/clip.wav"])
  #expect(bad.status == 65)
  #expect(bad.stdout.contains("clip.wav: wav"))
  #expect(bad.stderr.split(separator: "\n").count == 1)
}

@Test func tracksJSONLinesGivesOneObjectPerFile() throws {
  let paths = [fixtures + "/multitrack.mkv", fixtures + "/clip.wav", fixtures + "/gone.wav"]
  let result = try runMtool(["tracks", "--jsonl", "-j", "3"] + paths)
  #expect(result.status == 66)
  let lines = result.stdout.split(separator: "\n").map(String.init)
  #expect(lines.count == 3)
  let objects = try lines.map { try #require(try parseJSON($0) as? [String: Any]) }
  #expect(Set(objects.compactMap { $0["path"] as? String }) == Set(paths))
}

@Test(arguments: [
  ["--prefer", "1x"], ["--jobs", "0"], ["--json", "--jsonl"], ["--jobs", "many"],
])
func tracksRejectsBadOptions(options: [String]) throws {
  let result = try runMtool(["tracks"] + options + [fixtures + "/clip.wav"])
  #expect(result.status == 64)
  #expect(result.stdout.isEmpty)
  #expect(result.stderr.hasPrefix("mtool: tracks: "))
}

@Test func tracksReadsHLSAndDASHManifests() throws {
  let result = try runMtool([
    "tracks", "--json", "--prefer", "de", fixtures + "/master.m3u8", fixtures + "/manifest.mpd",
  ])
  #expect(result.status == 0)
  let listed = try files(result)
  #expect(listed.map { $0["format"] as? String } == ["hls", "dash"])
  #expect(listed[0]["defaultAudio"] as? Int == 0)
  #expect(listed[0]["defaultSubtitle"] as? Int == 9)
  #expect(listed[1]["defaultAudio"] as? Int == 2)
  #expect(listed[1]["defaultSubtitle"] as? Int == 7)
  let audio = try #require(listed[1]["audio"] as? [[String: Any]])
  #expect(
    audio.map { $0["kind"] as? String } == ["main", "translation", "main-desc", "commentary"])
}

/// Runs `mtool` with standard output on `/dev/full` (every write fails with ENOSPC).
private func runIntoFullDevice(_ arguments: [String]) throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: mtoolBinary)
  process.arguments = arguments
  guard let full = FileHandle(forWritingAtPath: "/dev/full") else { return -1 }
  process.standardOutput = full
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}

@Test func aFullStandardOutputIsAFailure() throws {
  // Exit 1 (documented for an output that cannot be written), not 0 with the listing lost.
  let media = fixtures + "/multitrack.mkv"
  #expect(try runIntoFullDevice(["tracks", media]) == 1)
  #expect(try runIntoFullDevice(["tracks", "--jsonl", media]) == 1)
  #expect(try runIntoFullDevice(["tracks", "--json", media]) == 1)
  #expect(try runIntoFullDevice(["cues", fixtures + "/sample.srt"]) == 1)
}

@Test func operandsAfterDoubleDashAreFiles() throws {
  // A file may be called `-h`: after `--` it is probed, not taken for a request for help.
  let result = try runMtool(["tracks", "--", "-h"])
  #expect(result.status == 66)
  #expect(result.stderr.contains("-h: no such file"))
}

@Test func waveFilesHaveADuration() throws {
  // The WAVE demuxer leaves the container's duration unset until the stream-info pass, which
  // a probe from the headers skips.
  let result = try runMtool(["tracks", "--json", fixtures + "/clip.wav"])
  let file = try #require(try files(result).first)
  let duration = try #require(file["duration"] as? Double)
  #expect(abs(duration - 2.0) < 0.01)
}

@Test func tableColumnsStayAlignedWithLongLabels() throws {
  // "English – Commentary (Director's Commentary)" is longer than the usual label column: the
  // details of every row of the file start in one column.
  let result = try runMtool(["tracks", fixtures + "/multitrack.mkv"])
  #expect(result.status == 0)
  let rows = result.stdout.split(separator: "\n").filter { $0.contains("#") }
  let columns = Set(
    rows.compactMap { row -> Int? in
      guard let codec = row.range(of: "  opus") ?? row.range(of: "  subrip") else { return nil }
      return row.distance(from: row.startIndex, to: codec.lowerBound)
    })
  #expect(rows.count == 5)
  #expect(columns.count == 1, "\(result.stdout)")
}

@Test func manifestsThatHideTheirAudioOrAreDamagedFailAndPlaceholdersAreUnknown() throws {
  let folder = NSTemporaryDirectory() + "mtool-manifests-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
  }
  // No audio rendition, no CODECS, and the variant's first segment missing: which audio the
  // stream carries is unknown, not "none".
  try write("master.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nv.m3u8\n")
  try write("v.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg0.ts\n#EXT-X-ENDLIST\n")
  #expect(failedWithOneLine(try runMtool(["tracks", folder + "/master.m3u8"]), 66))
  // DASH cut short: refused, not read up to the cut.
  try write(
    "cut.mpd",
    "<MPD><Period><AdaptationSet lang=\"en\" mimeType=\"audio/mp4\"><Representation id=\"a\"")
  #expect(failedWithOneLine(try runMtool(["tracks", folder + "/cut.mpd"]), 65))
  // A placeholder bandwidth of 1 bit/s is no bit rate.
  try write(
    "placeholder.mpd",
    """
    <MPD><Period><AdaptationSet lang="en" mimeType="audio/mp4" codecs="mp4a.40.2">
    <Representation id="a" bandwidth="1"/></AdaptationSet></Period></MPD>
    """)
  let table = try runMtool(["tracks", folder + "/placeholder.mpd"])
  #expect(table.status == 0 && !table.stdout.contains("kb/s"), "\(table.stdout)")
  let json = try runMtool(["tracks", "--json", folder + "/placeholder.mpd"])
  #expect(json.stdout.contains("\"bitRate\":null"), "\(json.stdout)")
}
