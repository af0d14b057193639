import Foundation
import Testing

/// `mtool cues` on SSA/ASS: listing, JSON, conversion, and the exit codes of its errors.
@Suite struct CuesSSATests {
  let basic = fixtures + "/ass/basic.ass"

  @Test func listsAnASSFile() throws {
    let result = try runMtool(["cues", basic])
    #expect(result.status == 0)
    #expect(result.stdout.contains("#1  00:00:01.000 --> 00:00:03.500"))
    #expect(result.stdout.contains("Hello, world, with commas"))
  }

  @Test func jsonHasTheSameShapeAsForOtherFormats() throws {
    let result = try runMtool(["cues", "--json", basic])
    #expect(result.status == 0)
    let document = try jsonObject(result.stdout)
    #expect(document["format"] as? String == "ass")
    let keys = ["format", "header", "regions", "styles", "cues", "diagnostics", "timestampMap"]
    #expect(Set(document.keys) == Set(keys))
    let cues = try #require(document["cues"] as? [[String: Any]])
    #expect(cues.count == 4)
    #expect(cues[3]["startTime"] as? Double == 3723.04)
  }

  @Test func convertsToWebVTTAndSRT() throws {
    let vtt = try runMtool(["cues", basic, "--to", "vtt"])
    #expect(vtt.status == 0)
    #expect(vtt.stdout.hasPrefix("WEBVTT\n"))
    #expect(vtt.stdout.contains("<c.yellow><b><i>A sign\u{A0}on top</i></b></c>"))
    let srt = try runMtool(["cues", basic, "--to", "srt"])
    #expect(srt.status == 0)
    #expect(srt.stdout.contains("{\\an8}<font color=\"#ffff00\"><b><i>A sign"))
  }

  @Test func contentDecidesForStandardInput() throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: basic))
    let result = try runMtool(["cues", "-", "--json"], stdin: bytes)
    #expect(result.status == 0)
    #expect(try jsonObject(result.stdout)["format"] as? String == "ass")
  }

  @Test func writingASSIsAUsageError() throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runMtool(["cues", basic, "-o", folder.appendingPathComponent("x.ass").path])
    #expect(result.status == 64)
    let to = try runMtool(["cues", basic, "--to", "ass"])
    #expect(to.status == 64)
  }

  @Test func scriptsWithoutSectionsOrWithABadFormatLineAreMalformed() throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A script without [Events] has no cues; a file with no section of a script is not one.
    let noEvents = folder.appendingPathComponent("none.ass")
    try Data("[Script Info]\nTitle: x\n".utf8).write(to: noEvents)
    let a = try runMtool(["cues", noEvents.path, "--json"])
    #expect(a.status == 0)
    #expect(a.stdout.contains("\"cues\":[]") && a.stdout.contains("no [Events] section"))
    let noSections = folder.appendingPathComponent("plain.ass")
    try Data("Title: x\n".utf8).write(to: noSections)
    let c = try runMtool(["cues", noSections.path])
    #expect(c.status == 65)
    #expect(c.stderr == "mtool: cues: not an SSA/ASS file: no [Events] section\n")
    let badFormat = folder.appendingPathComponent("bad.ass")
    try Data("[Script Info]\n\n[Events]\nFormat: Start, End\n".utf8).write(to: badFormat)
    let b = try runMtool(["cues", badFormat.path])
    #expect(b.status == 65)
    #expect(b.stderr.contains("bad Format line (line 4)"))
  }
}
