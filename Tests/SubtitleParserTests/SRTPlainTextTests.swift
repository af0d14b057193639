import SubtitleParser
import Testing

@Test func plainTextOfAnSRTCueFollowsSRTMarkup() throws {
  let bytes = Array(
    "1\n00:00:01,000 --> 00:00:02,000\n<font color=\"red\">1 < 2</font> <i>it</i>\n".utf8)
  let document = try SubtitleFile.parse(bytes)
  #expect(document.plainText(of: document.cues[0]) == "1 < 2 it")
}
