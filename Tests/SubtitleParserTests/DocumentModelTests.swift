import SubtitleParser
import Testing

@Test func cueSettingsHaveIDLDefaults() {
  let settings = CueSettings()
  #expect(settings.vertical.rawValue == "")
  #expect(settings.line == nil)
  #expect(settings.snapToLines)
  #expect(settings.lineAlign == .start)
  #expect(settings.position == nil)
  #expect(settings.positionAlign == .auto)
  #expect(settings.size == 100)
  #expect(settings.align == .center)
}

@Test func documentSlicesTextLazily() {
  let bytes = Array("id1hello".utf8)
  let cue = Cue(idRange: 0..<3, textRange: 3..<8, startTime: 1, endTime: 2)
  let document = SubtitleDocument(format: .webVTT, text: bytes, cues: [cue])
  #expect(document.id(of: cue) == "id1")
  #expect(document.text(of: cue) == "hello")
}
