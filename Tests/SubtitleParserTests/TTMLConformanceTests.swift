import Foundation
import SubtitleParser
import Testing

// The W3C IMSC 1.0.1–1.3 test documents (Tests/Fixtures/imsc-tests, see its README): every
// document parses as TTML, and its cues begin and end exactly at the times the W3C's exemplar
// renderings change (the intermediate synchronic documents).

private let suite: URL = {
  var path = #filePath
  while let slash = path.lastIndex(of: "/"), !path.hasSuffix("/Tests") {
    path = String(path[..<slash])
  }
  return URL(fileURLWithPath: path + "/Fixtures/imsc-tests")
}()

/// Each test's name (`suite/Name`), its document and the times its renderings change.
private let cases: [(name: String, file: URL, times: [Double])] = {
  guard let data = try? Data(contentsOf: suite.appendingPathComponent("isd_times.json")),
    let table = try? JSONSerialization.jsonObject(with: data) as? [String: [Double]]
  else { return [] }
  var files: [String: URL] = [:]
  let walker = FileManager.default.enumerator(at: suite, includingPropertiesForKeys: nil)
  while let url = walker?.nextObject() as? URL {
    guard url.pathExtension == "ttml" else { continue }
    let suiteName = url.pathComponents.first { $0.hasPrefix("imsc1") } ?? ""
    files[suiteName + "/" + url.deletingPathExtension().lastPathComponent] = url
  }
  return table.keys.sorted().compactMap { name in
    files[name].map { (name, $0, table[name] ?? []) }
  }
}()

@Test func theSuiteIsThereAndShowsText() throws {
  #expect(cases.count >= 300)
  // A document may rightly show nothing (display none, images), but nearly all show text.
  var showing = 0
  for test in cases {
    let document = try SubtitleFile.parse([UInt8](Data(contentsOf: test.file)))
    if !document.cues.isEmpty { showing += 1 }
  }
  #expect(showing >= cases.count - 12, "\(showing) of \(cases.count) documents show text")
}

/// Changes of an exemplar's intermediate document that change nothing shown: in
/// `region-timing`, a paragraph begins at 5 s in a region that is active only from 10 s (its
/// text reads "should only appear during the interval [10s,15s)").
private let invisibleChanges: [String: [Double]] = ["imsc1/region-timing": [5]]

@Test(arguments: cases.map(\.name))
func cueTimesAreTheRenderingsChanges(name: String) throws {
  let test = try #require(cases.first { $0.name == name })
  let bytes = try [UInt8](Data(contentsOf: test.file))
  let document = try SubtitleFile.parse(bytes)
  #expect(document.format == .ttml)
  let cues = document.cues.map { ($0.startTime, $0.endTime) }
  let finite = cues.flatMap { [$0.0, $0.1] }.filter { $0 < 9e12 }
  func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 0.0015 }
  // Image documents (IMSC's image profile) show nothing a text reader keeps: no cue, a note.
  if cues.isEmpty, document.diagnostics.contains(where: { $0.reason.contains("image") }) {
    return
  }
  // Every cue boundary is a change of the rendering.
  let extra = finite.filter { time in !test.times.contains { near($0, time) } }
  #expect(extra.isEmpty, "times no rendering changes at: \(extra)")
  // Every change of the rendering is a cue boundary, but for changes between two empty
  // screens (a container that ends with nothing shown).
  let invisible = invisibleChanges[name] ?? []
  let missing = test.times.filter { time in
    if invisible.contains(where: { near($0, time) }) { return false }
    let shownBefore = cues.contains { $0.0 < time && time <= $0.1 + 1e-9 }
    let startsThen = cues.contains { near($0.0, time) }
    return !finite.contains { near($0, time) } && (shownBefore || startsThen)
  }
  #expect(missing.isEmpty, "renderings change where no cue begins or ends: \(missing)")
}
