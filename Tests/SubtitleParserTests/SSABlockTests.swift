import Testing

@testable import SubtitleParser

// SSA/ASS events as Matroska stores them: the script header in CodecPrivate, each block
// ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text.

private let header = """
  [Script Info]
  ScriptType: v4.00+
  PlayResX: 1920
  PlayResY: 1080
  WrapStyle: 2

  [V4+ Styles]
  Format: Name, Bold, Italic, PrimaryColour, Alignment
  Style: Default,0,0,&H00FFFFFF,2
  Style: Top,-1,0,&H00FFFFFF,8

  [Events]
  Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

  """

private func blocks(_ texts: [String]) -> [(
  startTime: Double, endTime: Double, bytes: ArraySlice<UInt8>
)] {
  texts.enumerated().map {
    (Double($0.offset) * 2, Double($0.offset) * 2 + 1.5, Array($0.element.utf8)[...])
  }
}

@Test func matroskaASSBlocksTakeTheHeadersStylesAndPlayRes() {
  let document = SubStationAlpha.document(
    blocks: blocks([
      "0,0,Top,,0,0,0,,bold top", "1,0,Default,,0,0,0,,{\\pos(960,540)}centre, with commas",
      "2,0,Default,,0,0,0,,soft\\nbreak\r\n",
    ]),
    header: Array(header.utf8))
  #expect(document.format == .ass)
  #expect(document.cues.count == 3)
  #expect(document.cues.map(\.startTime) == [0, 2, 4])
  #expect(document.cues.map(\.endTime) == [1.5, 3.5, 5.5])
  #expect(document.text(of: document.cues[0]).hasSuffix("bold top"))
  #expect(document.text(of: document.cues[0]).contains("\\b1"))
  // The Top style's alignment 8 (top), and \pos against 1920 x 1080.
  #expect(document.cues[0].settings.line == 0)
  #expect(document.cues[1].settings.line == 50)
  #expect(document.cues[1].settings.position == 50)
  #expect(document.text(of: document.cues[1]).hasSuffix("centre, with commas"))
  // WrapStyle 2: `\n` is a line break.
  #expect(document.text(of: document.cues[2]) == "soft\nbreak")
  #expect(document.diagnostics.isEmpty)
}

@Test func matroskaASSBlocksWithoutAHeaderOrInAnotherLayout() {
  let document = SubStationAlpha.document(
    blocks: blocks(["0,0,Default,,0,0,0,,{\\pos(192,144)}x", "just text", ""]), header: [])
  #expect(document.cues.count == 3)
  // 384 x 288 by default.
  #expect(document.cues[0].settings.line == 50)
  #expect(document.text(of: document.cues[1]) == "just text")
  #expect(document.diagnostics.contains { $0.reason.contains("event 2 is not ReadOrder") })
  #expect(SubStationAlpha.document(blocks: [], header: Array(header.utf8)).cues.isEmpty)
}
