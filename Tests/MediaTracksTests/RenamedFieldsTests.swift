import Foundation
import Testing

@testable import MediaTracks

@Test func timedTextKeepsItsCodedKeys() throws {
  let text = TimedText(startTime: 1.5, endTime: 2.25, text: "Hi")
  let json = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
  #expect(json.contains("\"start\":1.5") && json.contains("\"end\":2.25"))
  #expect(!json.contains("startTime"))
  let old = #"{"start": 3, "end": 4, "text": "x"}"#
  #expect(
    try JSONDecoder().decode(TimedText.self, from: Data(old.utf8))
      == TimedText(startTime: 3, endTime: 4, text: "x"))
}

@Test func mediaInfoKeepsTheFormatKey() throws {
  let info = MediaInfo(path: "a.mkv", demuxerName: "matroska,webm")
  let json = String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
  #expect(json.contains(#""format":"matroska,webm""#))
  #expect(!json.contains("demuxerName"))
  #expect(try JSONDecoder().decode(MediaInfo.self, from: Data(json.utf8)) == info)
}

@Test func containerInfoKeepsTheFormatNameKey() throws {
  let info = ContainerInfo(demuxerName: "wav", streamCount: 1)
  let json = String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
  #expect(json.contains(#""formatName":"wav""#))
  #expect(!json.contains("demuxerName"))
  #expect(try JSONDecoder().decode(ContainerInfo.self, from: Data(json.utf8)) == info)
}

@available(*, deprecated, message: "tests the deprecated names")
@Test func oldNamesStillWork() {
  var text = TimedText(start: 1, end: 2, text: "t")
  text.end = 3
  #expect(text.start == 1 && text.endTime == 3)
  var info = MediaInfo(path: "p", format: "wav")
  info.format = "hls"
  #expect(info.demuxerName == "hls")
}
