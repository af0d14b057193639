extension SubStationAlpha {
  /// A document of SSA/ASS events as an in-media stream delivers them (Matroska `S_TEXT/ASS`:
  /// each sample an event's `Text` field, override blocks and `\N` included), read as the same
  /// events in a script are: markup, line breaks, `\an`/`\pos` positioning and all.
  ///
  /// - Parameters:
  ///   - events: Start and end times in seconds and each event's text, in the order to keep.
  ///   - header: The stream's script header (`[Script Info]` and the styles sections, as the
  ///     codec's private data holds it), or `nil` for ASS defaults (one `Default` style,
  ///     bottom centre, 384 × 288).
  /// - Returns: A document of format `.ass` with one cue per event, at the times given (to the
  ///   millisecond, not rounded to a script's centiseconds).
  public static func document(
    events: [(startTime: Double, endTime: Double, text: String)], header: String? = nil
  ) -> SubtitleDocument {
    var script = header ?? ""
    if !script.contains("[Script Info]") { script = "[Script Info]\nScriptType: v4.00+\n" + script }
    if !script.contains("Styles]") {
      script += "\n[V4+ Styles]\nFormat: Name, Alignment\nStyle: Default,2\n"
    }
    script += "\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, "
    script += "Effect, Text\n"
    for (index, event) in events.enumerated() {
      // One line per event: its own line breaks are ASS's `\N`. The times are the event's
      // number (restored below), so no event is lost to a time a script cannot write.
      let text = event.text.replacing("\r\n", with: "\\N").replacing("\n", with: "\\N")
        .replacing("\r", with: "\\N")
      script += "Dialogue: 0,0:00:00.00,\(stamp(index)),Default,,0,0,0,,\(text)\n"
    }
    guard var document = try? parse(Array(script.utf8)) else {
      return SubtitleDocument(format: .ass, text: [])
    }
    restoreTimes(of: &document, count: events.count) {
      (events[$0].startTime, events[$0].endTime)
    }
    return document
  }

  /// The script time that stands for event `index`: (index + 1) centiseconds.

  /// Gives each cue of a script built with ``stamp(_:)`` end times the times of the event its
  /// end time numbers (`time(n)`: start and end in seconds, for `n` below `count`), and no
  /// source line.
  static func restoreTimes(
    of document: inout SubtitleDocument, count: Int, time: (Int) -> (Double, Double)
  ) {
    for position in document.cues.indices {
      let index = Int((document.cues[position].endTime * 100).rounded()) - 1
      guard (0..<count).contains(index) else { continue }
      (document.cues[position].startTime, document.cues[position].endTime) = time(index)
      document.cues[position].line = 0
    }
  }
  static func stamp(_ index: Int) -> String {
    let centiseconds = index + 1
    let seconds = centiseconds / 100
    return
      "\(seconds / 3600):\(pad(seconds / 60 % 60)):\(pad(seconds % 60)).\(pad(centiseconds % 100))"
  }

  static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
