import Testing

@testable import SubtitleParser

/// Files in subtitle formats that are not read, as other tools write them (pysubs2's MicroDVD,
/// MPL2, TMPlayer and JSON writers; SCC, SAMI, EBU STL, VobSub, LRC, SubViewer): refused with
/// the format's name, not as "not a subtitle file".
@Suite struct UnsupportedFormatTests {
  static let samples: [(text: String, name: String)] = [
    ("{0}{0}25\n{25}{88}Hello, world!\n", "MicroDVD"),
    ("{25}{}Open end\n", "MicroDVD"),
    ("[10][35] Hello, world!\n[40][60] SIGN TEXT\n", "MPL2"),
    ("00:00:01:Hello, <i>world</i>!\n00:00:04:SIGN\n", "TMPlayer"),
    ("0:00:01=Hello\n", "TMPlayer"),
    ("{\"info\": {\"Title\": \"Test\"}, \"events\": []}", "JSON"),
    ("[\n  {\"start\": 1}\n]\n", "JSON"),
    ("Scenarist_SCC V1.0\r\n\r\n00:00:01:00\t9420 9420\r\n", "Scenarist SCC"),
    ("<SAMI>\n<BODY><SYNC Start=1000><P>Hi\n</BODY></SAMI>\n", "SAMI"),
    ("\u{FEFF}<sami><body></body></sami>", "SAMI"),
    ("[00:12.34]Lyric line\n", "LRC"),
    ("[INFORMATION]\n[TITLE]x\n[END INFORMATION]\n", "SubViewer"),
    ("00:00:01.00,00:00:02.00\nHello\n", "SubViewer"),
    ("# VobSub index file, v7 (do not modify this line!)\n", "VobSub"),
  ]

  @Test(arguments: samples.indices)
  func aFormatNotReadIsNamed(index: Int) throws {
    let (text, name) = Self.samples[index]
    #expect(SubtitleFile.unsupportedFormat(Array(text.utf8))?.contains(name) == true)
    #expect(throws: SubtitleError.self) { try SubtitleFile.parse(Array(text.utf8)) }
    do {
      _ = try SubtitleFile.parse(Array(text.utf8))
    } catch {
      guard case .unsupportedFormat(let found) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(found.contains(name))
      #expect(error.description.contains("not a format read here"))
    }
  }

  @Test func binaryFormatsAreNamed() {
    let stl = Array("850STL25.01".utf8) + [UInt8](repeating: 0x20, count: 1013)
    #expect(SubtitleFile.unsupportedFormat(stl)?.hasPrefix("EBU STL") == true)
    let vobsub: [UInt8] = [0x00, 0x00, 0x01, 0xBA, 0x44, 0x00, 0x04]
    #expect(SubtitleFile.unsupportedFormat(vobsub)?.contains("VobSub") == true)
  }

  /// A MicroDVD file renamed `.srt` says what it is too.
  @Test func aForcedSRTThatIsMicroDVD() {
    do {
      _ = try SubtitleFile.parse(Array("{25}{88}Hello\n".utf8), format: .srt)
      Issue.record("parsed")
    } catch {
      #expect(error == .unsupportedFormat(name: "MicroDVD subtitles ({frame}{frame}text)"))
    }
  }

  /// What is read is not taken for these, and text that is no format keeps the old message.
  @Test func readFormatsAndPlainTextAreNotNamed() throws {
    for text in [
      "1\n00:00:01,000 --> 00:00:02,000\n[10][35] text\n",
      "WEBVTT\n\n00:01.000 --> 00:02.000\n{0}\n",
      "Hello there\n", "{not json\n", "[Script Info]\n",
    ] {
      #expect(SubtitleFile.unsupportedFormat(Array(text.utf8)) == nil)
    }
    #expect(
      throws: SubtitleError.notSubtitles(
        reason: "neither a WEBVTT signature nor an SRT timing line at the start")
    ) {
      try SubtitleFile.parse(Array("Hello there\n".utf8))
    }
    let srt = try SubtitleFile.parse(Array("1\n00:00:01,000 --> 00:00:02,000\n[10][35] x\n".utf8))
    #expect(srt.cues.count == 1)
  }
}
