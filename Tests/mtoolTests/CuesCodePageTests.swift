import Foundation
import Testing

/// `mtool cues` on SRT files in legacy code pages (Tests/Fixtures/codepages, from
/// Scripts/make-codepage-fixtures.py): read in the code page detected, with one diagnostic
/// naming it; `--encoding` overrides; double-byte encodings stay refused.
@Suite struct CuesCodePageTests {
  static let folder = fixtures + "/codepages/"

  static func cueTexts(_ json: [String: Any]) -> [String] {
    ((json["cues"] as? [[String: Any]]) ?? []).compactMap { $0["text"] as? String }
  }

  @Test(arguments: [
    ("ru-windows-1251", "windows-1251"), ("ru-koi8-r", "KOI8-R"),
    ("pl-windows-1250", "windows-1250"),
    ("el-windows-1253", "windows-1253"), ("tr-windows-1254", "windows-1254"),
  ])
  func aCodePageFileIsReadInIt(name: String, encoding: String) throws {
    let listing = try runMtool(["cues", Self.folder + name + ".srt"])
    #expect(listing.status == 0)
    #expect(listing.stderr == "mtool: cues: 1 diagnostic (see --json)\n")
    let result = try runMtool(["cues", Self.folder + name + ".srt", "--json"])
    #expect(result.status == 0)
    let json = try jsonObject(result.stdout)
    let reasons = ((json["diagnostics"] as? [[String: Any]]) ?? []).compactMap {
      $0["reason"] as? String
    }
    #expect(reasons.count == 1)
    #expect(reasons.first?.hasSuffix("the file is read as \(encoding)") == true)
    let reference = try runMtool(["cues", Self.folder + name + ".utf8.srt", "--json"])
    #expect(reference.status == 0)
    #expect(reference.stderr.isEmpty)
    #expect(Self.cueTexts(json) == Self.cueTexts(try jsonObject(reference.stdout)))
    // Named, the same encoding reads it without a word.
    let forced = try runMtool([
      "cues", Self.folder + name + ".srt", "--json", "--encoding", encoding,
    ])
    #expect(forced.status == 0)
    #expect(forced.stderr.isEmpty)
    #expect(Self.cueTexts(try jsonObject(forced.stdout)) == Self.cueTexts(json))
  }

  @Test func encodingOverridesDetection() throws {
    let path = Self.folder + "ru-windows-1251.srt"
    let forced = try runMtool(["cues", path, "--json", "--encoding", "koi8-r"])
    #expect(forced.status == 0)
    #expect(forced.stderr.isEmpty)
    #expect(Self.cueTexts(try jsonObject(forced.stdout)).first == "ъ МЕ ГМЮЧ, ВРН ОПНХГНЬКН БВЕПЮ.")
  }

  @Test(arguments: ["cjk-shift-jis", "cjk-gb18030", "cjk-big5", "cjk-euc-kr"])
  func aDoubleByteFileIsRefused(name: String) throws {
    let result = try runMtool(["cues", Self.folder + name + ".srt"])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("(line 3: runs of non-ASCII bytes"))
    #expect(result.stderr.contains("--encoding"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}
