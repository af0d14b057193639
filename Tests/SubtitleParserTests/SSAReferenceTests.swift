import Testing

@testable import SubtitleParser

/// Our SSA/ASS reader beside two others on the fixtures of `Scripts/make-ass-fixtures.py`.
///
/// The constants were printed by `Scripts/make-ass-fixtures.py --reference`: pysubs2 1.8.1's
/// `(event.start, event.end, event.plaintext)` per event, and the cue texts of FFmpeg 5.1's
/// `ffmpeg -i X -f webvtt -`. Where a reader differs from the specification (and from what
/// libass renders), the test says so and checks the specification's reading instead.
@Suite struct SSAReferenceTests {
  /// pysubs2's events of basic.ass and override.ass: start and end in ms, plain text.
  static let pysubs2: [String: [(Int, Int, String)]] = [
    "basic.ass": [
      (1000, 3500, "Hello, world, with commas\nsecond line"),
      (2000, 4250, "A sign on top"),
      (3000, 5000, "soft\nbreak"),
      (3_723_040, 3_725_600, "late"),
    ],
    "override.ass": [
      (1000, 2000, "italic bold under"),
      (2000, 3000, "red lime"),
      (3000, 4000, "top centre"),
      (4000, 5000, "placed"),
      (5000, 6000, "moving"),
      (6000, 7000, "karaoke"),
      (7000, 8000, "m 0 0 l 10 0 10 10after drawing"),
      (8000, 9000, "kept text"),
    ],
  ]

  @Test(arguments: ["basic.ass", "override.ass"])
  func timesAndTextsMatchPysubs2(name: String) throws {
    let document = try SubtitleFile.parse(try assFixture(name), pathExtension: "ass")
    let expected = try #require(Self.pysubs2[name])
    #expect(document.cues.count == expected.count)
    for (cue, (start, end, text)) in zip(document.cues, expected) {
      #expect(Int((cue.startTime * 1000).rounded()) == start)
      #expect(Int((cue.endTime * 1000).rounded()) == end)
      var ours = document.plainText(of: cue)
      // pysubs2's plain text writes `\h` as a space; ours keeps it a no-break space.
      ours = String(ours.map { $0 == "\u{A0}" ? " " : $0 })
      switch (name, start) {
      case ("basic.ass", 3000):
        // `\n` is a line break only under WrapStyle 2 (and a space otherwise, as libass
        // renders it); pysubs2 and FFmpeg always break.
        #expect(ours == "soft break")
      case ("override.ass", 7000):
        // `\p1` … `\p0` is a drawing (libass draws it); both readers keep its commands as text.
        #expect(ours == "after drawing")
      default:
        #expect(ours == text)
      }
    }
  }

  /// FFmpeg's WebVTT cue texts where its reading agrees with the specification.
  static let ffmpegWebVTT: [(file: String, cue: Int, text: String)] = [
    ("basic.ass", 0, "Hello, world, with commas\nsecond line"),
    ("basic.ass", 3, "late"),
    ("override.ass", 0, "<i>italic</i> <b>bold</b> <u>under</u>"),
    ("override.ass", 2, "top centre"),
    ("override.ass", 5, "karaoke"),
    ("legacy.ssa", 0, "<i>top centre italic</i>"),
    ("legacy.ssa", 1, "<i>bottom left</i>"),
  ]

  @Test func webVTTTextsMatchFFmpeg() throws {
    for (file, index, text) in Self.ffmpegWebVTT {
      let document = try SubtitleFile.parse(
        try assFixture(file), pathExtension: String(file.split(separator: ".").last ?? ""))
      let vtt = document.converted(to: .webVTT)
      #expect(vtt.text(of: vtt.cues[index]) == text, "\(file) cue \(index)")
    }
    // Where FFmpeg differs: it writes `\h` as it is inside styled text
    // (`<b><i>A sign\hon top</i></b>`), and drops the text after `\t(…\b1)` (`<b>`); the
    // colour of the Sign style and the text after `\t` are kept here.
    let basic = try SubStationAlpha.parse(try assFixture("basic.ass")).converted(to: .webVTT)
    #expect(basic.text(of: basic.cues[1]) == "<c.yellow><b><i>A sign\u{A0}on top</i></b></c>")
    let override = try SubStationAlpha.parse(try assFixture("override.ass"))
      .converted(to: .webVTT)
    #expect(override.text(of: override.cues[7]) == "kept text")
  }

  @Test func reorderedColumnsAreReadByTheirFormatLines() throws {
    // pysubs2 reads style and event fields in its own column order only (it fails on
    // legacy.ssa and reordered.ass), and FFmpeg gives no cue for reordered.ass; the Format
    // lines say where each field is.
    let document = try SubStationAlpha.parse(try assFixture("reordered.ass"))
    #expect(
      document.cues.map { document.plainText(of: $0) } == [
        "hard\nbreak under WrapStyle 2", "short and long fractions",
      ])
  }
}
