import Testing

@testable import SubtitleParser

/// An ISO base media box: a 32-bit big-endian size, the type, the body.
private func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
  let size = UInt32(8 + body.count)
  return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
    + Array(type.utf8) + body
}

private func box(_ type: String, _ text: String) -> [UInt8] { box(type, Array(text.utf8)) }

/// A `vttc` cue box with the given parts (absent when `nil`).
private func cue(
  _ text: String?, settings: String? = nil, id: String? = nil, source: UInt32? = nil
) -> [UInt8] {
  var body: [UInt8] = []
  if let source {
    body += box(
      "vsid",
      [
        UInt8(source >> 24), UInt8(source >> 16 & 0xFF), UInt8(source >> 8 & 0xFF),
        UInt8(source & 0xFF),
      ])
  }
  if let id { body += box("iden", id) }
  if let settings { body += box("sttg", settings) }
  if let text { body += box("payl", text) }
  return box("vttc", body)
}

private let emptyCue = box("vtte", [])

@Suite("WebVTT in MP4 (wvtt) samples and TTML in MP4 (stpp) samples")
struct MP4SampleTests {
  @Test func aCueBoxGivesItsTextSettingsIdentifierAndSource() throws {
    let cues = try MP4WebVTT.cues(
      inSample: cue("Hello\r\n<b>you</b>", settings: "line:10% align:start", id: "a", source: 7))
    #expect(
      cues == [
        MP4WebVTT.SampleCue(
          identifier: "a", settings: "line:10% align:start", text: "Hello\n<b>you</b>", sourceID: 7)
      ])
  }

  @Test func emptyCueBoxesEmptySamplesAndOtherBoxesGiveNoCue() throws {
    #expect(try MP4WebVTT.cues(inSample: emptyCue).isEmpty)
    #expect(try MP4WebVTT.cues(inSample: []).isEmpty)
    let withComment = box("vtta", "NOTE a comment") + cue("text") + box("free", [1, 2, 3])
    #expect(try MP4WebVTT.cues(inSample: withComment).map(\.text) == ["text"])
    // A cue box without payload is a cue with no text; unknown boxes inside it are skipped.
    #expect(try MP4WebVTT.cues(inSample: box("vttc", box("ctim", "00:01.000"))).map(\.text) == [""])
  }

  @Test func aSampleCarriesSeveralCuesInOrder() throws {
    let sample = cue("one") + cue("two", settings: "align:end") + cue("three")
    #expect(try MP4WebVTT.cues(inSample: sample).map(\.text) == ["one", "two", "three"])
  }

  @Test(
    "Boxes that do not fit are a typed error naming the sample and byte",
    arguments: [
      ([0, 0, 0, 9] + Array("vttc".utf8), 0, "more bytes than"),  // states 9, has 8
      ([0, 0, 0, 4] + Array("vttc".utf8), 0, "less than its header"),
      (cue("ok") + [0, 0, 0], 18, "too few for a box header"),
      ([0, 0, 0, 1] + Array("vttc".utf8) + [0, 0], 0, "64-bit size"),
      (box("vttc", [0, 0, 0, 20] + Array("payl".utf8) + [65]), 8, "more bytes than"),
      (box("vttc", box("vsid", [1, 2])), 16, "not 4"),
    ] as [([UInt8], Int, String)])
  func truncatedBoxesThrow(bytes: [UInt8], offset: Int, reason: String) {
    #expect {
      try MP4WebVTT.cues(inSample: bytes)
    } throws: { error in
      guard case .badSample(let index, let at, let why) = error as? SubtitleError else {
        return false
      }
      return index == 0 && at == offset && why.contains(reason)
    }
  }

  @Test func aLargeSizeBoxIsRead() throws {
    let body = box("payl", "big")
    let size = UInt64(16 + body.count)
    var large: [UInt8] = [0, 0, 0, 1] + Array("vttc".utf8)
    for shift in stride(from: 56, through: 0, by: -8) {
      large.append(UInt8(size >> UInt64(shift) & 0xFF))
    }
    #expect(try MP4WebVTT.cues(inSample: large + body).map(\.text) == ["big"])
  }

  @Test func garbageNeverCrashes() {
    // A fixed linear congruential sequence: random-looking bytes, the same every run, with
    // box headers sprinkled in so that nesting is reached.
    var state: UInt64 = 0x1234_5678
    var thrown = 0
    for round in 0..<3000 {
      var bytes: [UInt8] = []
      for _ in 0..<(round % 64) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.append(UInt8(truncatingIfNeeded: state >> 33))
      }
      if round % 3 == 0 { bytes = box("vttc", bytes) }
      do { _ = try MP4WebVTT.cues(inSample: bytes) } catch { thrown += 1 }
      _ = try? MP4WebVTT.document(samples: [SubtitleSample(startTime: 0, duration: 1, bytes: bytes)]
      )
    }
    #expect(thrown > 0)
  }

  @Test func aCueRepeatedInConsecutiveSamplesIsOneCue() throws {
    // Shaka Packager's layout of two overlapping cues: [0.5, 1) A; [1, 2) A B; [2, 3) B; gap.
    let a = cue("Hello <b>world</b>", settings: "line:10% align:start", id: "intro")
    let b = cue("Second\nline")
    let samples = [
      SubtitleSample(startTime: 0, duration: 0.5, bytes: emptyCue),
      SubtitleSample(startTime: 0.5, duration: 0.5, bytes: a),
      SubtitleSample(startTime: 1, duration: 1, bytes: a + b),
      SubtitleSample(startTime: 2, duration: 1, bytes: b),
      SubtitleSample(startTime: 3, duration: 2, bytes: emptyCue),
      SubtitleSample(startTime: 5, duration: nil, bytes: a),
      SubtitleSample(startTime: 6, duration: nil, bytes: cue("last")),
    ]
    let document = try MP4WebVTT.document(samples: samples)
    #expect(document.format == .webVTT)
    let cues = document.cues.map {
      (document.id(of: $0), $0.startTime, $0.endTime, document.text(of: $0))
    }
    #expect(cues.count == 4)
    #expect(cues[0] == ("intro", 0.5, 2, "Hello <b>world</b>"))
    #expect(cues[1] == ("", 1, 3, "Second\nline"))
    // Not continued across the gap; a sample without duration ends where the next starts,
    // and the last one at its own start.
    #expect(cues[2] == ("intro", 5, 6, "Hello <b>world</b>"))
    #expect(cues[3] == ("", 6, 6, "last"))
    #expect(document.cues[0].settings.line == 10)
    #expect(document.cues[0].settings.align == .start)
    #expect(document.cueTree(of: document.cues[0]).count == 2)
  }

  @Test func sourceIdentifiersJoinCuesAndTheHeaderGivesRegions() throws {
    let header = "WEBVTT\n\nREGION\nid:low\nwidth:40%\nlines:2\n"
    let samples = [
      SubtitleSample(
        startTime: 10, duration: 1, bytes: cue("a", settings: "region:low", source: 1)),
      SubtitleSample(
        startTime: 11, duration: 1, bytes: cue("a", settings: "region:low", source: 1)),
      // The same text from another source is another cue.
      SubtitleSample(startTime: 12, duration: 1, bytes: cue("a", source: 2)),
    ]
    let document = try MP4WebVTT.document(samples: samples, configuration: Array(header.utf8))
    #expect(document.cues.map { [$0.startTime, $0.endTime] } == [[10, 12], [12, 13]])
    #expect(document.regions.map(\.id) == ["low"])
    #expect(document.region(of: document.cues[0])?.width == 40)
  }

  @Test func textThatWouldEndACueStaysText() throws {
    let sample = cue("one\n\ntwo --> three", settings: "align:end\nline:0", id: "x --> y")
    let document = try MP4WebVTT.document(
      samples: [SubtitleSample(startTime: 1.0005, duration: 1, bytes: sample)],
      configuration: Array("not a header".utf8))
    #expect(document.cues.count == 1)
    #expect(document.cues[0].startTime == 1.0005)
    #expect(document.plainText(of: document.cues[0]) == "one\ntwo --> three")
    // A header with a damaged signature is replaced by the signature alone.
    let damaged = try MP4WebVTT.document(
      samples: [SubtitleSample(startTime: 0, duration: 1, bytes: cue("kept"))],
      configuration: Array("WEBVTTX\n\n00:01.000 --> 00:02.000\nnot a cue".utf8))
    #expect(damaged.cues.map { damaged.text(of: $0) } == ["kept"])
  }

  @Test func aBadSampleIsNamedByItsIndex() {
    let samples = [
      SubtitleSample(startTime: 0, duration: 1, bytes: cue("fine")),
      SubtitleSample(startTime: 1, duration: 1, bytes: [0, 0, 0, 99]),
    ]
    #expect(throws: SubtitleError.self) { try MP4WebVTT.document(samples: samples) }
    do {
      _ = try MP4WebVTT.document(samples: samples)
    } catch {
      #expect(error.description.hasPrefix("subtitle sample 1, byte 0"))
    }
  }

  // MARK: - TTML

  private func ttml(_ body: String) -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">
      <body><div>\(body)</div></body></tt>
      """.utf8)
  }

  @Test func ttmlSampleTimesAreOnTheTrackTimelineAndCutToTheSample() throws {
    let samples = [
      SubtitleSample(
        startTime: 0, duration: 2,
        bytes: ttml(
          #"<p begin="00:00:00.500" end="00:00:01.500">one</p><p begin="1s" end="3s">two</p>"#)),
      // The paragraph repeated in the next segment, unchanged: one cue from 1 s to 3 s.
      SubtitleSample(startTime: 2, duration: 2, bytes: ttml(#"<p begin="1s" end="3s">two</p>"#)),
      SubtitleSample(startTime: 4, duration: 6, bytes: []),
      // Times count from the track's start, not the sample's: 10.5 s, not 20.5 s.
      SubtitleSample(
        startTime: 10, duration: 2,
        bytes: ttml(#"<p begin="10.5s" end="11s" tts:fontStyle="italic">three</p>"#)),
      // A paragraph outside its sample is not shown; one overrunning it is cut.
      SubtitleSample(
        startTime: 12, duration: 1,
        bytes: ttml(#"<p begin="1s" end="2s">stale</p><p begin="12.5s" end="20s">cut</p>"#)),
    ]
    let document = try TTML.document(samples: samples)
    #expect(document.format == .ttml)
    let cues = document.cues.map { ($0.startTime, $0.endTime, document.text(of: $0)) }
    #expect(cues.count == 4)
    #expect(cues[0] == (0.5, 1.5, "one"))
    #expect(cues[1] == (1, 3, "two"))
    #expect(cues[2] == (10.5, 11, "<i>three</i>"))
    #expect(cues[3] == (12.5, 13, "cut"))
  }

  @Test func ttmlPositionsComeThroughAndChangedTextIsANewCue() throws {
    let head = #"""
      <head><layout><region xml:id="top" tts:origin="10% 5%" tts:extent="80% 20%"/></layout></head>
      """#
    func sample(_ start: Double, _ text: String) -> SubtitleSample {
      let body = #"<p region="top" begin="0s" end="100s">\#(text)</p>"#
      let document =
        #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">"#
        + head + "<body><div>\(body)</div></body></tt>"
      return SubtitleSample(startTime: start, duration: 1, bytes: Array(document.utf8))
    }
    let document = try TTML.document(samples: [sample(0, "a"), sample(1, "a"), sample(2, "b")])
    #expect(document.cues.map { [$0.startTime, $0.endTime] } == [[0, 2], [2, 3]])
    #expect(document.cues[0].settings == document.cues[1].settings)
    // As the same document read as a file places it: the region's 80% width, centred.
    let file = try TTML.parse(sample(0, "a").bytes)
    #expect(document.cues[0].settings == file.cues[0].settings)
    #expect(document.cues[0].settings.size == 80)
  }

  @Test func aSampleThatIsNotTTMLIsATypedError() {
    let samples = [
      SubtitleSample(startTime: 0, duration: 1, bytes: ttml("<p>fine</p>")),
      SubtitleSample(startTime: 1, duration: 1, bytes: Array("WEBVTT\n".utf8)),
    ]
    #expect {
      try TTML.document(samples: samples)
    } throws: { error in
      guard case .badSample(let index, _, _) = error as? SubtitleError else { return false }
      return index == 1
    }
  }
}
