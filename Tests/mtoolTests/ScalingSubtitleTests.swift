import SubtitleParser
import Testing

// Linear time, checked generally: every parser and writer of SubtitleParser gets adversarial
// input at 1x and 10x size (see `expectLinear` in ScalingSupport.swift).

/// Bytes of `text`.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The sum of the sizes of every cue's tree, which builds each one.
func treeWeight(_ document: SubtitleDocument) -> Int {
  var weight = 0
  for cue in document.cues {
    let tree = document.cueTree(of: cue)
    weight &+= tree.count &+ CueNode.plainText(tree).utf8.count
  }
  return weight
}

/// Parses `bytes` as a subtitle file, or gives an empty document when they are not one.
func parsed(_ bytes: [UInt8], format: SubtitleFormat? = nil) -> SubtitleDocument {
  (try? SubtitleFile.parse(bytes, format: format)) ?? SubtitleDocument(format: .srt, text: [])
}

/// A measure of a parse: cues plus diagnostics plus regions and styles.
func weight(_ document: SubtitleDocument) -> Int {
  document.cues.count &+ document.diagnosticCount &+ document.regions.count
    &+ document.styles.count
}

/// A WebVTT file of one cue whose text is `payload`.
func vttCue(_ payload: String) -> [UInt8] {
  utf8("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\(payload)\n")
}

/// An SRT file of one cue whose text is `payload`.
func srtCue(_ payload: String) -> [UInt8] {
  utf8("1\n00:00:01,000 --> 00:00:02,000\n\(payload)\n")
}

@Suite(.serialized) struct ScalingSubtitleTests {
  // MARK: - File parsing

  @Test func manyRegionsReferencedByManyCues() {
    expectLinear("regions", size: 150) { n in
      var text = "WEBVTT\n\n"
      for i in 0..<n { text += "REGION\nid:region\(i) width:40%\n\n" }
      for i in 0..<n {
        // Every cue names the first region (the far end of a search from the back), a
        // redefined one, and one that does not exist.
        text += "00:00:01.000 --> 00:00:02.000 region:region0\nx\n\n"
        text += "00:00:01.000 --> 00:00:02.000 region:region\(i) region:none\(i)\ny\n\n"
      }
      return utf8(text)
    } run: {
      weight(parsed($0))
    }
  }

  @Test func manyStyleBlocks() {
    expectLinear("STYLE blocks", size: 250) { n in
      utf8(
        "WEBVTT\n\n" + String(repeating: "STYLE\n::cue(.a) { color: red }\n\n", count: n)
          + "00:00:01.000 --> 00:00:02.000\nx\n")
    } run: {
      weight(parsed($0))
    }
  }

  @Test func hugeSingleLines() {
    expectLinear("one long WebVTT line", size: 10_000) { n in
      vttCue(String(repeating: "abc-->", count: n))
    } run: {
      weight(parsed($0))
    }
    expectLinear("one long SRT line", size: 10_000) { n in
      srtCue(String(repeating: "a{\\b1", count: n))
    } run: {
      weight(parsed($0))
    }
    expectLinear("one long line without a timing line", size: 10_000) { n in
      utf8(String(repeating: "0:0", count: n))
    } run: {
      weight(parsed($0, format: .srt)) &+ weight(parsed($0, format: .webVTT))
    }
  }

  @Test func longTimestampDigitRuns() {
    expectLinear("SRT hours of many digits", size: 10_000) { n in
      let digits = String(repeating: "9", count: n)
      return utf8("1\n\(digits):00:00,000 --> \(digits):00:01,000\nx\n\n" + "2\n\(digits)\n")
    } run: {
      weight(parsed($0, format: .srt))
    }
    expectLinear("WebVTT timestamps of many digits", size: 10_000) { n in
      let digits = String(repeating: "0", count: n)
      return utf8(
        "WEBVTT\n\n\(digits):00.000 --> \(digits):01.000\nx\n\n"
          + "00:01.000 --> 00:02.000 line:\(digits)% position:\(digits)%\ny <\(digits)>\n")
    } run: {
      weight(parsed($0)) &+ treeWeight(parsed($0))
    }
  }

  @Test func carriageReturnOnlyFiles() {
    expectLinear("CR-only SRT", size: 500) { n in
      var text = ""
      for i in 0..<n { text += "\(i + 1)\r00:00:01,000 --> 00:00:02,000\rline\rline\r\r" }
      return utf8(text)
    } run: {
      weight(parsed($0))
    }
    expectLinear("CR-only WebVTT", size: 500) { n in
      utf8("WEBVTT\r\r" + String(repeating: "00:01.000 --> 00:02.000\rline\r\r", count: n))
    } run: {
      weight(parsed($0))
    }
  }

  @Test func incrementalParsingInSmallChunks() {
    expectLinear("WebVTT fed 7 bytes at a time", size: 250) { n in
      vttCue(String(repeating: "a long line without an end ", count: n))
    } run: { bytes in
      var parser = WebVTTStreamParser()
      var cues = 0
      var i = 0
      while i < bytes.count {
        cues &+= (try? parser.feed(Array(bytes[i..<min(i + 7, bytes.count)])))?.count ?? 0
        i += 7
      }
      return cues &+ ((try? parser.finish())?.count ?? 0)
    }
  }

  // MARK: - Diagnostics

  @Test func manyDiagnostics() {
    expectLinear("invalid UTF-8 in WebVTT", size: 2500) { n in
      vttCue(String(repeating: "a\n", count: 1)) + [UInt8](repeating: 0xFF, count: n)
        + Array(repeating: [0x61, 0xC3, 0x0A], count: n).flatMap { $0 }
    } run: {
      weight(parsed($0))
    }
    expectLinear("invalid UTF-8 in SRT", size: 2500) { n in
      srtCue("a") + Array(repeating: [0x61, 0xFF, 0x00, 0x0A], count: n).flatMap { $0 }
    } run: {
      weight(parsed($0)) &+ weight(parsed($0, format: .srt))
    }
    expectLinear("NUL bytes", size: 2500) { n in
      vttCue("a") + Array(repeating: [0x00, 0x00, 0x0A], count: n).flatMap { $0 }
    } run: {
      weight(parsed($0)) &+ weight(parsed($0, format: .srt))
        &+ ((try? SubtitleFile.parse($0, encoding: .windows1252)).map(weight) ?? 0)
    }
    expectLinear("unpaired UTF-16 halves", size: 2500) { n in
      var bytes: [UInt8] = [0xFF, 0xFE]
      for unit in Array("1\n00:00:01,000 --> 00:00:02,000\n".utf16) {
        bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      }
      for i in 0..<n { bytes += i % 3 == 0 ? [0x0A, 0x00] : [0x00, 0xD8] }
      return bytes
    } run: {
      weight(parsed($0))
    }
    expectLinear("cue numbers out of sequence", size: 500) { n in
      utf8(String(repeating: "7\n00:00:01,000 --> 00:00:02,000\nx\n\n", count: n))
    } run: {
      weight(parsed($0))
    }
    expectLinear("unknown cue settings", size: 250) { n in
      vttCue("x") + utf8(String(repeating: "\n00:01.000 --> 00:02.000 a:b c d:e\nx\n", count: n))
    } run: {
      weight(parsed($0))
    }
  }

  // MARK: - Cue text and trees

  @Test func strayEndTags() {
    expectLinear("stray end tags, SRT tree", size: 1000) { n in
      parsed(srtCue(String(repeating: "x</b>", count: n)))
    } run: {
      treeWeight($0)
    }
    expectLinear("stray end tags, WebVTT tree", size: 1000) { n in
      parsed(vttCue(String(repeating: "x</b>", count: n)))
    } run: {
      treeWeight($0)
    }
    expectLinear("stray end tags under 256 open elements, SRT tree", size: 1000) { n in
      parsed(
        srtCue(String(repeating: "<i>", count: 300) + String(repeating: "x</b>", count: n)))
    } run: {
      treeWeight($0)
    }
  }

  @Test func nestingBeyondTheCap() {
    expectLinear("nested WebVTT tags", size: 1000) { n in
      parsed(
        vttCue(
          String(repeating: "<c.a><i>", count: n) + "deep" + String(repeating: "</i></c>", count: n)
        ))
    } run: {
      treeWeight($0)
    }
    expectLinear("nested SRT tags", size: 1000) { n in
      parsed(
        srtCue(
          String(repeating: "<b><font color=red>", count: n) + "deep"
            + String(repeating: "</font></b>", count: n)))
    } run: {
      treeWeight($0)
    }
    expectLinear("unclosed ruby and rt", size: 1000) { n in
      parsed(vttCue(String(repeating: "<ruby>a<rt>b", count: n)))
    } run: {
      treeWeight($0)
    }
  }

  @Test func manyClassesAndAnnotations() {
    expectLinear("classes on one tag", size: 2500) { n in
      parsed(vttCue("<c" + String(repeating: ".k", count: n) + ">x</c>"))
    } run: {
      treeWeight($0)
    }
    expectLinear("annotation words", size: 2500) { n in
      parsed(vttCue("<v " + String(repeating: "name \t ", count: n) + ">x</v>"))
    } run: {
      treeWeight($0)
    }
    expectLinear("font attributes", size: 1000) { n in
      parsed(srtCue("<font" + String(repeating: " color='red' x=1", count: n) + ">x</font>"))
    } run: {
      treeWeight($0)
    }
    expectLinear("unclosed tags and brackets", size: 2500) { n in
      parsed(srtCue(String(repeating: "<i <b <", count: n)))
    } run: {
      treeWeight($0) &+ treeWeight(parsed(vttCue(String(repeating: "<i <b <", count: 1))))
    }
  }

  @Test func characterReferences() {
    expectLinear("entities", size: 400) { n in
      parsed(
        vttCue(String(repeating: "&amp;&lt;&CounterClockwiseContourIntegral;&#x1F600;", count: n)))
    } run: {
      treeWeight($0)
    }
    expectLinear("unterminated entities", size: 500) { n in
      parsed(vttCue(String(repeating: "&CounterClockwiseContourIntegra&&#&#x", count: n)))
    } run: {
      treeWeight($0)
    }
    expectLinear("long numeric references", size: 2000) { n in
      parsed(
        vttCue("&#" + String(repeating: "9", count: n) + ";&#x" + String(repeating: "F", count: n)))
    } run: {
      treeWeight($0)
    }
  }

  @Test func htmlOfTrees() {
    expectLinear("cue HTML", size: 400) { n in
      WebVTT.parseCueText(
        String(repeating: "<v.a.b Anne><lang en><c.x>a&amp;b</c></lang></v><00:01.000>", count: n))
    } run: {
      CueHTMLNode.markup(CueNode.html($0)).utf8.count
    }
  }

  // MARK: - Timeline

  @Test func timelineWithIdenticalAndOverlappingCues() {
    expectLinear("identical cues", size: 1000) { n in
      CueTimeline(times: Array(repeating: (startTime: 1.0, endTime: 2.0), count: n))
    } run: { timeline in
      var timeline = timeline
      var total = timeline.active(at: 1.5).count
      for t in [0.5, 1.0, 1.5, 2.0, 0.0, 1.0, 3.0] {
        let step = timeline.advance(to: t)
        total &+= step.entered.count &+ step.exited.count
        total &+= Int(timeline.nextBoundary(after: t) ?? 0)
      }
      return total
    }
    expectLinear("zero-length cues at one time", size: 1000) { n in
      CueTimeline(times: Array(repeating: (startTime: 1.0, endTime: 1.0), count: n))
    } run: { timeline in
      var timeline = timeline
      var total = 0
      for t in [1.0, 2.0, 1.0, 1.0, 3.0] {
        total &+= timeline.seek(to: t).entered.count
        total &+= timeline.advance(to: t + 0.5).entered.count
      }
      return total
    }
    expectLinear("overlapping cues played through", size: 250) { n in
      CueTimeline(times: (0..<n).map { (startTime: Double($0), endTime: Double($0 + 50)) })
    } run: { timeline in
      // Playback in steps of a fixed count of cues: the work per step is fixed.
      var timeline = timeline
      var total = 0
      var t = 0.0
      while let next = timeline.nextBoundary(after: t) {
        t = next
        let step = timeline.advance(to: t)
        total &+= step.entered.count &+ step.exited.count
      }
      return total
    }
  }

  // MARK: - Conversion and writers

  @Test func conversionsAndWriters() {
    expectLinear("SRT to WebVTT and writers", size: 100) { n in
      var text = ""
      for i in 0..<n {
        text += "\(i + 1)\n00:00:01,000 --> 00:00:02,000\n{\\an8}<font color=red face=x>a</font> "
        text += "&<b>b</i>{\\b1}\n00:00:03,000 --> 00:00:04,000\n\n"
      }
      return parsed(utf8(text))
    } run: { document in
      document.webVTT().count &+ document.srt().count
        &+ document.shifted(by: -1.5).converted(to: .webVTT).diagnosticCount
    }
    expectLinear("WebVTT to SRT and writers", size: 100) { n in
      var text = "WEBVTT\n\nREGION\nid:r\n\n"
      for _ in 0..<n {
        text += "00:00:01.000 --> 00:00:02.000 region:r line:10% align:start\n"
        text += "<v Anne><c.red.x>a</c> &amp; &#x1F600; <00:01.500>{\\b1}b</v>\n"
        text += "00:00:03,000 --> 00:00:04,000\n\n"
      }
      return parsed(utf8(text))
    } run: { document in
      document.srt().count &+ document.webVTT().count
        &+ document.converted(to: .srt).diagnosticCount
    }
    expectLinear("markup, override blocks and timing lines through both writers", size: 1000) { n in
      parsed(srtCue(String(repeating: "<i>a</b>{\\b1}}\n00:00:01,000 --> 00:00:02,000 ", count: n)))
    } run: { document in
      document.webVTT().count &+ document.srt().count
    }
  }
}
