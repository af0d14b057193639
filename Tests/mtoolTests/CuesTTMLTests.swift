import Foundation
import Testing

// mtool cues on TTML/IMSC1 documents: listing, JSON, conversion, detection, errors.

@Suite struct CuesTTMLTests {
  let sample = fixtures + "/imsc-tests/imsc1/ttml/timing/BasicTiming001.ttml"

  @Test func listsConvertsAndDescribesATTMLFile() throws {
    let listing = try runMtool(["cues", sample])
    #expect(listing.status == 0)
    #expect(listing.stdout.contains("00:00:10.000 --> 00:00:20.000"))
    let srt = try runMtool(["cues", sample, "--to", "srt"])
    #expect(srt.stdout.hasPrefix("1\n00:00:10,000 --> 00:00:20,000\nThis text must appear"))
    let vtt = try runMtool(["cues", sample, "--to", "vtt"])
    #expect(vtt.stdout.hasPrefix("WEBVTT\n\n00:00:10.000 --> 00:00:20.000\n"))
    let json = try runMtool(["cues", sample, "--json"])
    #expect(json.stdout.hasPrefix("{\"format\":\"ttml\""))
  }

  @Test func contentDecidesForStandardInputAndTTMLIsReadOnly() throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: sample))
    let piped = try runMtool(["cues", "-", "--to", "srt"], stdin: bytes)
    #expect(piped.status == 0)
    #expect(piped.stdout.contains("00:00:10,000 --> 00:00:20,000"))
    let write = try runMtool(["cues", sample, "-o", NSTemporaryDirectory() + "x.ttml"])
    #expect(write.status == 64)
    #expect(write.stderr.contains("TTML is read only"))
    let to = try runMtool(["cues", sample, "--to", "ttml"])
    #expect(to.status == 64)
  }

  @Test func anUnboundedEndIsListedAsTheJSONGivesIt() throws {
    // A paragraph with no end lasts to the largest WebVTT timestamp, 2^53 ms: the listing
    // showed 9e15 ms (2500000000:00:00.000) instead.
    let document = Data(
      """
      <tt xmlns="http://www.w3.org/ns/ttml"><body><p begin="1s">forever</p></body></tt>
      """.utf8)
    let listing = try runMtool(["cues", "-"], stdin: document)
    #expect(listing.stdout.contains("00:00:01.000 --> 2501999792:59:00.992"))
    let json = try runMtool(["cues", "-", "--json"], stdin: document)
    #expect(json.stdout.contains("\"endTime\":9007199254740.992"))
  }

  @Test func aFileNamedTTMLThatIsNotIsMalformed() throws {
    let path = NSTemporaryDirectory() + "mtool-not-\(getpid()).ttml"
    try "WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try runMtool(["cues", path])
    #expect(result.status == 65)
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func theXMLDeclarationsEncodingIsReadAndAnotherIsMalformed() throws {
    func document(_ encoding: String) -> Data {
      Data(
        Array(
          """
          <?xml version="1.0" encoding="\(encoding)"?>
          <tt xmlns="http://www.w3.org/ns/ttml"><body><p begin="1s" end="2s">D
          """.utf8) + [0xE9] + Array("jala</p></body></tt>\n".utf8))
    }
    let latin1 = try runMtool(["cues", "-"], stdin: document("ISO-8859-1"))
    #expect(latin1.status == 0)
    #expect(latin1.stdout.contains("Déjala"))
    #expect(latin1.stderr.isEmpty)
    // Another encoding is exit 65 with one line naming it, unless --encoding says what it is.
    let unknown = try runMtool(["cues", "-"], stdin: document("EBCDIC-US"))
    #expect(unknown.status == 65)
    #expect(unknown.stderr.split(separator: "\n").count == 1)
    #expect(unknown.stderr.contains("'EBCDIC-US'"))
    let forced = try runMtool(["cues", "-", "--encoding", "latin1"], stdin: document("EBCDIC-US"))
    #expect(forced.status == 0)
    #expect(forced.stdout.contains("Déjala"))
    // Declared UTF-8 but not: replaced, and counted.
    let invalid = try runMtool(["cues", "-"], stdin: document("UTF-8"))
    #expect(invalid.status == 0)
    #expect(invalid.stdout.contains("D\u{FFFD}jala"))
    #expect(invalid.stderr.contains("1 diagnostic"))
  }
}
