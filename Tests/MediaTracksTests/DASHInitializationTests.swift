import MediaTracks
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// DASH manifests whose audio facts live in the initialization segments: the BaseURL chain and
// the segment descriptions locate them, and a local manifest reads only files in its folder.

/// A new, empty folder of its own for one test case (cases of one test run in parallel).
private func folder(_ name: String) -> String {
  var template = Array("/tmp/mediatracks-dash-\(name)-XXXXXX".utf8CString)
  guard let made = mkdtemp(&template) else { return "/tmp/mediatracks-dash-\(getpid())-\(name)" }
  return String(cString: made)
}

private func write(_ text: String, to path: String) {
  let file = fopen(path, "wb")
  _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
  fclose(file)
}

private func copy(_ fixture: String, to folder: String, as name: String) {
  let target = folder + "/" + name
  _ = system("mkdir -p \"$(dirname '\(target)')\" && cp '\(fixtures)/\(fixture)' '\(target)'")
}

/// An MPD with one audio set that states no codec, rate or channels; `segments` is the segment
/// description inside its Representation, `periodBase` the Period's BaseURL.
private func manifest(_ segments: String, periodBase: String? = nil, id: String = "a1") -> String {
  """
  <?xml version="1.0"?>
  <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S">
    <Period>\(periodBase.map { "<BaseURL>\($0)</BaseURL>" } ?? "")
      <AdaptationSet contentType="audio" lang="en">
        <Representation id="\(id)" bandwidth="64000">\(segments)</Representation>
      </AdaptationSet>
    </Period>
  </MPD>
  """
}

@Test func theTemplateLocatesTheInitializationSegment() throws {
  let dir = folder("template")
  defer { _ = system("rm -rf '\(dir)'") }
  copy("aac-movtext.mp4", to: dir, as: "media/a1/init-00064000.mp4")
  write(
    manifest(
      #"<SegmentTemplate initialization="$RepresentationID$/init-$Bandwidth%08d$.mp4" media="$RepresentationID$/$Number$.m4s"/>"#,
      periodBase: "media/"), to: dir + "/m.mpd")
  let parsed = try DASHManifest(bytes: Array(manifest("").utf8))
  #expect(parsed.adaptationSets.first?.initialization == nil)
  let info = try MediaProbe.probe(path: dir + "/m.mpd")
  #expect(info.audio.map(\.codec) == ["aac"])
  #expect(info.audio.first?.sampleRate == 8000)
  #expect(info.audio.first?.channels == 1)
  // Facts the manifest states stay as stated.
  #expect(info.audio.first?.bitRate == 64000)
}

@Test(arguments: [
  (#"<SegmentBase><Initialization sourceURL="init.mp4"/></SegmentBase>"#, "init.mp4"),
  (#"<BaseURL>whole.mp4</BaseURL><SegmentBase indexRange="0-99"/>"#, "whole.mp4"),
  (
    #"<SegmentList><Initialization sourceURL="i/init.mp4"/><SegmentURL media="1.m4s"/></SegmentList>"#,
    "i/init.mp4"
  ),
  (#"<BaseURL>whole.mp4</BaseURL>"#, "whole.mp4"),
])
func everySegmentDescriptionNamesItsInitialization(description: String, file: String) throws {
  let parsed = try DASHManifest(bytes: Array(manifest(description).utf8))
  #expect(parsed.adaptationSets.first?.initialization == file)
  let dir = folder("desc-\(file.count)")
  defer { _ = system("rm -rf '\(dir)'") }
  copy("aac-movtext.mp4", to: dir, as: file)
  write(manifest(description), to: dir + "/m.mpd")
  #expect(try MediaProbe.probe(path: dir + "/m.mpd").audio.first?.sampleRate == 8000)
}

@Test(arguments: [
  "/etc/passwd", "../../../../../../etc/passwd", "file:///etc/passwd",
  "https://example.invalid/init.mp4",
])
func aLocalManifestReadsOnlyFilesInItsFolder(reference: String) throws {
  let dir = folder("escape")
  defer { _ = system("rm -rf '\(dir)'") }
  write(
    manifest(#"<SegmentBase><Initialization sourceURL="\#(reference)"/></SegmentBase>"#),
    to: dir + "/m.mpd")
  let info = try MediaProbe.probe(path: dir + "/m.mpd")
  #expect(info.audio.count == 1)
  #expect(info.audio.first?.codec == "")
  #expect(info.audio.first?.sampleRate == 0)
}

@Test(arguments: [
  ("$RepresentationID$/i-$Bandwidth$.mp4", "a1/i-64000.mp4"),
  ("a$$b-$Bandwidth%08d$", "a$b-00064000"),
  ("$Number$-$Time$", "$Number$-$Time$"),
  ("open$end", "open$end"),
])
func templatesFillTheirIdentifiers(pattern: String, expected: String) throws {
  let text = manifest(#"<SegmentTemplate initialization="\#(pattern)"/>"#)
  let parsed = try DASHManifest(bytes: Array(text.utf8))
  #expect(parsed.adaptationSets.first?.initialization == expected)
}

@Test func baseURLsApplyInTurn() throws {
  let text = """
    <MPD><BaseURL>https://cdn.example/v1/</BaseURL><Period><BaseURL>p/</BaseURL>
    <AdaptationSet contentType="audio"><BaseURL>audio/</BaseURL>
    <Representation id="r"><SegmentTemplate initialization="$RepresentationID$.mp4"/>
    </Representation></AdaptationSet>
    <AdaptationSet contentType="audio"><BaseURL>/root/</BaseURL>
    <Representation id="s"><BaseURL>https://other.example/x/</BaseURL>
    <SegmentBase><Initialization sourceURL="i.mp4"/></SegmentBase>
    </Representation></AdaptationSet></Period></MPD>
    """
  let parsed = try DASHManifest(bytes: Array(text.utf8))
  #expect(
    parsed.adaptationSets.map(\.initialization) == [
      "https://cdn.example/v1/p/audio/r.mp4", "https://other.example/x/i.mp4",
    ])
}
