import Foundation
import Testing

// `mtool tracks --files-from` and `mtool stretch --files-from`: lists read as bytes, one result
// per listed path, failures that stay per file, the summary line and the batch's exit code.

private func jsonLines(_ text: String) throws -> [[String: Any]] {
  try text.split(separator: "\n").map {
    try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
  }
}

/// A new empty folder for one test.
private func scratchFolder() throws -> String {
  let path = NSTemporaryDirectory() + "mtool-batch-" + UUID().uuidString
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// The stderr lines other than the summary, and the summary (the last line).
private func summary(_ result: RunResult) -> (errors: [Substring], summary: Substring?) {
  let lines = result.stderr.split(separator: "\n")
  return (Array(lines.dropLast()), lines.last)
}

@Test func tracksFilesFromGivesOneLinePerPathWithItsExitCode() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let listed = [
    fixtures + "/clip.wav", fixtures + "/gone.wav", fixtures + "/truncated-header.wav",
    fixtures + "/multitrack.mkv",
  ]
  // An empty line between two paths and a missing final newline.
  let list = listed[0] + "\n\n" + listed[1...].joined(separator: "\n")
  try list.write(toFile: folder + "/list.txt", atomically: true, encoding: .utf8)
  let result = try runMtool(["tracks", "--files-from", folder + "/list.txt", "--jsonl"])
  #expect(result.status == 66)
  let lines = try jsonLines(result.stdout)
  #expect(lines.count == 4)
  var byPath: [String: [String: Any]] = [:]
  for line in lines { byPath[line["path"] as? String ?? ""] = line }
  #expect(Set(byPath.keys) == Set(listed))
  #expect(byPath[listed[0]]?["line"] as? Int == 1)
  #expect(byPath[listed[0]]?["exitCode"] as? Int == 0)
  #expect(byPath[listed[0]]?["error"] is NSNull)
  #expect(byPath[listed[1]]?["line"] as? Int == 3)
  #expect(byPath[listed[1]]?["exitCode"] as? Int == 66)
  #expect(byPath[listed[1]]?["error"] is String)
  #expect(byPath[listed[2]]?["exitCode"] as? Int == 65)
  #expect((byPath[listed[3]]?["audio"] as? [Any])?.count == 3)
  let (errors, last) = summary(result)
  #expect(errors.count == 2)
  #expect(
    last?.hasPrefix("mtool: tracks: 4 files: 2 ok, 2 failed (exit 66: 1, exit 65: 1) in ") == true)

  // The same files given one at a time exit with the code their line carries.
  for path in listed {
    let alone = try runMtool(["tracks", path])
    #expect(Int(alone.status) == byPath[path]?["exitCode"] as? Int)
  }
}

@Test func tracksFilesFromReadsNULSeparatedStandardInput() throws {
  let listed = [fixtures + "/tone.mp3", fixtures + "/vorbis.ogg", fixtures + "/tone.flac"]
  let input = Data(listed.map { $0 + "\0" }.joined().utf8)
  let result = try runMtool(["tracks", "--files-from", "-", "-0", "--json"], stdin: input)
  #expect(result.status == 0)
  let document = try #require(
    try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  let files = try #require(document["files"] as? [[String: Any]])
  #expect(files.compactMap { $0["path"] as? String } == listed)
  #expect(files.compactMap { $0["line"] as? Int } == [1, 2, 3])
  #expect(result.stderr.hasPrefix("mtool: tracks: 3 files: 3 ok, 0 failed in "))

  // Without -0, the whole input is one record holding NUL bytes: no path, reported, exit 66.
  let unsplit = try runMtool(["tracks", "--files-from", "-", "--jsonl"], stdin: input)
  #expect(unsplit.status == 66)
  let lines = try jsonLines(unsplit.stdout)
  #expect(lines.count == 1)
  #expect((lines.first?["error"] as? String)?.contains("NUL") == true)
}

@Test func tracksFilesFromTakesNamesThatAreNotUTF8() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // The list names `caf\xE9.wav` (Latin-1) and `\xFF.wav`, copies of clip.wav.
  let script = """
    cp "\(fixtures)/clip.wav" "$(printf 'caf\\351.wav')"
    cp "\(fixtures)/clip.wav" "$(printf '\\377.wav')"
    printf 'caf\\351.wav\\n\\377.wav\\nmissing\\377.wav\\n' > list
    "$M" tracks --files-from list --jsonl
    """
  let (result, _) = try runShell(script, in: folder)
  #expect(result.status == 66)
  let lines = try jsonLines(result.stdout)
  let paths = Set(lines.compactMap { $0["path"] as? String })
  #expect(paths == ["caf\\xE9.wav", "\\xFF.wav", "missing\\xFF.wav"])
  for line in lines where line["path"] as? String != "missing\\xFF.wav" {
    #expect(line["format"] as? String == "wav")
    #expect(line["exitCode"] as? Int == 0)
  }
  #expect(result.stderr.contains("mtool: tracks: missing\\xFF.wav: "))
}

@Test func filesFromRecordsAreBytesUntrimmedAndTooLongOnesAreReported() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  try FileManager.default.copyItem(atPath: fixtures + "/clip.wav", toPath: folder + "/ a.wav")
  let long = String(repeating: "x", count: 5000)
  let list = " a.wav\n a.wav \n\(long)\n\n\n"
  let (result, _) = try runShell(
    "printf '%s' '\(list)' > list; \"$M\" tracks --files-from list --jsonl", in: folder)
  #expect(result.status == 66)
  let lines = try jsonLines(result.stdout).sorted {
    ($0["line"] as? Int ?? 0) < ($1["line"] as? Int ?? 0)
  }
  #expect(lines.compactMap { $0["line"] as? Int } == [1, 2, 3])
  #expect(lines.compactMap { $0["exitCode"] as? Int } == [0, 66, 66])
  #expect(lines[1]["path"] as? String == " a.wav ")
  #expect((lines[2]["error"] as? String)?.contains("longer than 4096 bytes") == true)
}

@Test(arguments: [
  (["--files-from"], 64),
  (["--files-from", "LIST", "EXTRA"], 64),
  (["-0", "CLIP"], 64),
  (["--files-from", "/nonexistent/list"], 66),
  (["--files-from", "FIXTURES"], 66),
])
func tracksFilesFromRefusesBadUse(arguments: [String], status: Int) throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  try (fixtures + "/clip.wav\n").write(
    toFile: folder + "/list", atomically: true, encoding: .utf8)
  let replaced = arguments.map {
    switch $0 {
    case "LIST": folder + "/list"
    case "EXTRA", "CLIP": fixtures + "/clip.wav"
    case "FIXTURES": fixtures
    default: $0
    }
  }
  let result = try runMtool(["tracks"] + replaced)
  #expect(failedWithOneLine(result, Int32(status)))
  #expect(result.stdout.isEmpty)
}

@Test func tracksFilesFromHelpDocumentsTheBatch() throws {
  let result = try runMtool(["help", "tracks"])
  #expect(result.status == 0)
  for text in [
    "--files-from", "-0, --null", "summary line", "\"exitCode\"", "order files complete",
  ] {
    #expect(result.stdout.contains(text))
  }
}

@Test func stretchFilesFromWritesEachOutputAndResumes() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  try FileManager.default.createDirectory(
    atPath: folder + "/in/sub", withIntermediateDirectories: true)
  for name in ["in/a.wav", "in/sub/b.wav"] {
    try FileManager.default.copyItem(atPath: fixtures + "/tone.flac", toPath: folder + "/" + name)
  }
  try "in/a.wav\nin/missing.wav\nin/sub/b.wav\n\(fixtures)/sample.srt\n".write(
    toFile: folder + "/list", atomically: true, encoding: .utf8)
  let template = "{dir}/{stem}.1_5x.{ext}"
  let (first, _) = try runShell(
    "\"$M\" stretch --files-from list --output-template '\(template)' --speed 1.5 --jsonl",
    in: folder)
  #expect(first.status == 66)
  let lines = try jsonLines(first.stdout)
  #expect(
    lines.compactMap { $0["status"] as? String } == ["written", "failed", "written", "failed"])
  #expect(lines.compactMap { $0["exitCode"] as? Int } == [0, 66, 0, 65])
  #expect(
    lines.compactMap { $0["output"] as? String } == [
      "in/a.1_5x.wav", "in/missing.1_5x.wav", "in/sub/b.1_5x.wav", fixtures + "/sample.1_5x.srt",
    ])
  #expect(lines[0]["outputFrames"] as? Int ?? 0 > 0)
  #expect(FileManager.default.fileExists(atPath: folder + "/in/sub/b.1_5x.wav"))
  let (errors, last) = summary(first)
  #expect(errors.count == 2)
  #expect(
    last?.hasPrefix("mtool: stretch: 4 files: 2 written, 2 failed (exit 66: 1, exit 65: 1) in ")
      == true)

  // Run again: what exists is left alone, the failures fail again.
  let before = try FileManager.default.attributesOfItem(atPath: folder + "/in/a.1_5x.wav")
  let (again, _) = try runShell(
    "\"$M\" stretch --files-from list --output-template '\(template)' --speed 1.5 --skip-existing",
    in: folder)
  #expect(again.status == 66)
  #expect(again.stdout == "in/a.1_5x.wav: skipped (exists)\nin/sub/b.1_5x.wav: skipped (exists)\n")
  #expect(
    again.stderr.split(separator: "\n").last?.hasPrefix(
      "mtool: stretch: 4 files: 0 written, 2 skipped (output exists), 2 failed") == true)
  let after = try FileManager.default.attributesOfItem(atPath: folder + "/in/a.1_5x.wav")
  #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)

  // Without --skip-existing an output is rewritten (a new file renamed over it).
  let (rewrite, _) = try runShell(
    "echo in/a.wav | \"$M\" stretch --files-from - --output-template '\(template)' -s 2", in: folder
  )
  #expect(rewrite.status == 0)
  #expect(rewrite.stdout.hasPrefix("in/a.1_5x.wav: 0.5 s -> 0.25 s at 2x"))
}

@Test func stretchOutputTemplateCollisionsAreRefused() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  try FileManager.default.createDirectory(
    atPath: folder + "/out", withIntermediateDirectories: true)
  for name in ["a.flac", "a.mp3"] {
    try FileManager.default.copyItem(
      atPath: fixtures + "/tone." + name.split(separator: ".")[1], toPath: folder + "/" + name)
  }
  try "a.flac\na.mp3\n./a.flac\n".write(toFile: folder + "/list", atomically: true, encoding: .utf8)
  // Two inputs, one output name: the second is refused, the batch goes on.
  let (result, _) = try runShell(
    "\"$M\" stretch --files-from list --output-template 'out/{stem}.wav' -s 1.5 --jsonl", in: folder
  )
  #expect(result.status == 64)
  let lines = try jsonLines(result.stdout)
  #expect(lines.compactMap { $0["status"] as? String } == ["written", "failed", "failed"])
  #expect(lines.compactMap { $0["exitCode"] as? Int } == [0, 64, 64])
  #expect((lines[1]["error"] as? String)?.contains("already written for another input") == true)

  // An output that is its own input fails alone (64), the others are written.
  let (onto, _) = try runShell(
    "printf 'a.flac\\na.mp3\\n' | \"$M\" stretch --files-from - --output-template '{dir}/{stem}.flac' -s 1.5 --jsonl",
    in: folder)
  #expect(onto.status == 64)
  let ontoLines = try jsonLines(onto.stdout)
  #expect(ontoLines.compactMap { $0["exitCode"] as? Int } == [64, 0])
  #expect((ontoLines[0]["error"] as? String)?.contains("is the input file") == true)
}

@Test(arguments: [
  ("out/x.wav", "neither {name} nor {stem}"),
  ("{dir}/{name}", "onto itself"),
  ("{dir}/{stem}.{ext}", "onto itself"),
  ("{dir}/{base}.wav", "unknown placeholder '{base}'"),
  ("{dir}/{stem.wav", "unclosed '{'"),
  ("{dir}/{stem}}.wav", "unmatched '}'"),
])
func stretchRefusesBadTemplatesBeforeAnyFile(template: String, reason: String) throws {
  let result = try runMtool(
    ["stretch", "--files-from", "-", "--output-template", template, "-s", "2"],
    stdin: Data((fixtures + "/clip.wav\n").utf8))
  #expect(failedWithOneLine(result, 64))
  #expect(result.stderr.contains(reason))
  #expect(result.stdout.isEmpty)
}

@Test func stretchTemplatePlaceholdersAndBraces() throws {
  let folder = try scratchFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  try FileManager.default.copyItem(atPath: fixtures + "/tone.flac", toPath: folder + "/.hidden")
  try FileManager.default.copyItem(atPath: fixtures + "/tone.flac", toPath: folder + "/x.y.flac")
  let (result, _) = try runShell(
    "printf '.hidden\\n%s/x.y.flac\\n' \"$PWD\" | \"$M\" stretch --files-from - -s 2 --jsonl --output-template '{dir}/{{{name}}}-{stem}-{ext}.wav'",
    in: folder)
  #expect(result.status == 0)
  let outputs = try jsonLines(result.stdout).compactMap { $0["output"] as? String }
  let real = try #require(outputs.last).split(separator: "/").dropLast().joined(separator: "/")
  #expect(outputs == ["./{.hidden}-.hidden-.wav", "/\(real)/{x.y.flac}-x.y-flac.wav"])
}

@Test(arguments: [
  ["--output-template", "{stem}.wav", "CLIP", "OUT"],
  ["--skip-existing", "CLIP", "OUT"],
  ["--jsonl", "CLIP", "OUT"],
  ["--files-from", "-", "--json", "--output-template", "{stem}.wav"],
  ["--files-from", "-"],
])
func stretchBatchOptionsNeedEachOther(arguments: [String]) throws {
  let replaced = arguments.map {
    $0 == "CLIP" ? fixtures + "/clip.wav" : $0 == "OUT" ? NSTemporaryDirectory() + "never.wav" : $0
  }
  let result = try runMtool(["stretch", "-s", "2"] + replaced, stdin: Data())
  #expect(failedWithOneLine(result, 64))
}
