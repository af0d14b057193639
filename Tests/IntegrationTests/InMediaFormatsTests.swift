import Foundation
import PlayerKit
import SubtitleParser
import Testing

// In-media ASS and mov_text subtitles and a side-loaded TTML file, each put on a CueTimeline
// with one call, and read as their syntax says (ASS override blocks as markup, not text).

@Suite("One call per source: in-media ASS and mov_text, side-loaded TTML")
struct InMediaFormatsTests {
  /// A Matroska file holding `script` as its one ASS stream, muxed by mkvmerge.
  func assMatroska(_ script: String) throws -> String {
    let dir = NSTemporaryDirectory() + "mtool-inmedia-\(getpid())"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try script.write(toFile: dir + "/in.ass", atomically: true, encoding: .utf8)
    let mkvmerge = Process()
    mkvmerge.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    mkvmerge.arguments = ["mkvmerge", "-q", "-o", dir + "/out.mkv", dir + "/in.ass"]
    mkvmerge.standardOutput = FileHandle.nullDevice
    try mkvmerge.run()
    mkvmerge.waitUntilExit()
    try #require(mkvmerge.terminationStatus == 0, "mkvmerge (make test-deps) is needed")
    return dir + "/out.mkv"
  }

  @Test("In-media ASS keeps its override blocks as markup and its line breaks")
  func inMediaASS() throws {
    let path = try assMatroska(
      """
      [Script Info]
      ScriptType: v4.00+
      PlayResX: 640
      PlayResY: 360

      [V4+ Styles]
      Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
      Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1

      [Events]
      Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
      Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,{\\i1}Leaning{\\i0}, then not
      Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\an8}Up here\\Nand below

      """)
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let document = try SubtitlesPlugin.document(path: path, streamIndex: 0)
    #expect(document.format == .ass)
    let timeline = CueTimeline(cues: document.cues)
    #expect(timeline.active(at: 1.5) == [0])
    #expect(timeline.active(at: 3.5) == [1])
    #expect(document.plainText(of: document.cues[0]) == "Leaning, then not")
    #expect(document.plainText(of: document.cues[1]) == "Up here\nand below")
    // The override blocks are markup: italics in the tree, on top in WebVTT.
    let vtt = String(decoding: document.webVTT(), as: UTF8.self)
    #expect(vtt.contains("<i>Leaning</i>, then not"))
    #expect(vtt.contains("line:0"))
  }

  @Test("In-media mov_text and a side-loaded TTML file, one call each")
  func movTextAndTTML() throws {
    let movText = try SubtitlesPlugin.document(
      path: fixtures + "/player/en-movtext.mp4", streamIndex: 0)
    #expect(movText.format == .srt)
    #expect(CueTimeline(cues: movText.cues).active(at: 1.5) == [0])
    #expect(movText.plainText(of: movText.cues[2]) == "Three,\non two lines.")

    let ttmlPath = fixtures + "/imsc-tests/imsc1/ttml/timing/BasicTiming001.ttml"
    let ttml = try SubtitlesPlugin.load(file: ttmlPath)
    #expect(ttml.format == .ttml)
    let timeline = CueTimeline(cues: ttml.cues)
    #expect(timeline.active(at: 9.9).isEmpty)
    #expect(timeline.active(at: 15) == [0])
    #expect(timeline.active(at: 20).isEmpty)
  }
}
