extension SubStationAlpha {
  /// A document of SSA/ASS events as a Matroska track stores them (`S_TEXT/ASS`,
  /// `S_TEXT/SSA`; FFmpeg's `ass` packets): the script header (`[Script Info]` and the styles
  /// sections) in the track's `CodecPrivate`, and each block one event as
  /// `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`. The header and the
  /// events are read together as one script by ``parse(_:)``, so each event gets its style's
  /// bold, italic, underline, colour and alignment, and `\pos`, `\n` and margins are read
  /// against the header's `PlayResX`, `PlayResY` and `WrapStyle`, as the same events in an
  /// `.ass` file are (Media3's `MatroskaExtractor` hands `CodecPrivate` to its `SsaParser` so).
  ///
  /// - Parameters:
  ///   - blocks: Start and end times in seconds and each block's bytes, in the order to keep.
  ///     A block with fewer than eight commas is not in that layout: it is read as the text
  ///     alone, in the `Default` style, with a diagnostic.
  ///   - header: The track's `CodecPrivate` (FFmpeg: the stream's extradata) as UTF-8; empty
  ///     for ASS defaults (one `Default` style, bottom centre, 384 × 288). An `[Events]`
  ///     section in it (mkvmerge and FFmpeg keep its `Format:` line there) is left out: the
  ///     blocks are the events.
  /// - Returns: A document of format `.ass` with one cue per block that has a `Dialogue`
  ///   event, at the times given (to the millisecond, not rounded to a script's
  ///   centiseconds), and the diagnostics of reading the header and the events.
  /// - Complexity: O(*n*) in the size of the header and the blocks.
  public static func document(
    blocks: [(startTime: Double, endTime: Double, bytes: ArraySlice<UInt8>)], header: [UInt8]
  ) -> SubtitleDocument {
    var script = headerWithoutEvents(header)
    var notes = DiagnosticLog()
    if !contains(script, "[script info]") {
      script = Array("[Script Info]\nScriptType: v4.00+\n".utf8) + script
    }
    if !contains(script, "styles]") {
      script += Array("\n[V4+ Styles]\nFormat: Name, Alignment\nStyle: Default,2\n".utf8)
    }
    script += Array(
      ("\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, "
        + "Effect, Text\n").utf8)
    let comma = UInt8(ascii: ",")
    for (index, block) in blocks.enumerated() {
      // The times are the event's number (restored below), so no event is lost to a time a
      // script cannot write.
      let bytes = block.bytes
      var commas: [Int] = []
      commas.reserveCapacity(8)
      for j in bytes.indices where bytes[j] == comma {
        commas.append(j)
        if commas.count == 8 { break }
      }
      script += Array("Dialogue: ".utf8)
      if commas.count == 8 {
        // Layer, the times, then Style through Text as stored.
        script += bytes[(commas[0] + 1)..<commas[1]]
        script += Array(",0:00:00.00,\(stamp(index)),".utf8)
        appendLine(bytes[(commas[1] + 1)...], to: &script)
      } else {
        notes.add(
          line: 0, offset: bytes.startIndex,
          "event \(index + 1) is not ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,"
            + "Effect,Text: read as its text alone")
        script += Array("0,0:00:00.00,\(stamp(index)),Default,,0,0,0,,".utf8)
        appendLine(bytes, to: &script)
      }
      script.append(0x0A)
    }
    guard var document = try? parse(script) else {
      return SubtitleDocument(format: .ass, text: [], diagnostics: notes.list)
    }
    restoreTimes(of: &document, count: blocks.count) {
      (blocks[$0].startTime, blocks[$0].endTime)
    }
    if !notes.isEmpty { document.diagnostics = notes.list + document.diagnostics }
    return document
  }

  /// Appends `bytes` to `script` as the rest of one line: line breaks become ASS's `\N`, and
  /// trailing NUL, CR, LF and space bytes are left out.
  private static func appendLine(_ bytes: ArraySlice<UInt8>, to script: inout [UInt8]) {
    var bytes = bytes
    while let last = bytes.last, last == 0 || last == 0x0A || last == 0x0D || last == 0x20 {
      bytes = bytes.dropLast()
    }
    var j = bytes.startIndex
    while j < bytes.endIndex {
      let c = bytes[j]
      if c == 0x0D || c == 0x0A {
        script += [0x5C, 0x4E]  // \N
        if c == 0x0D, j + 1 < bytes.endIndex, bytes[j + 1] == 0x0A { j += 1 }
      } else {
        script.append(c)
      }
      j += 1
    }
  }

  /// `header` without its `[Events]` section (from its section line to the next section line
  /// or the end), and without NUL bytes that pad its end.
  private static func headerWithoutEvents(_ header: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(header.count + 1)
    var inEvents = false
    var start = header.startIndex
    while start < header.endIndex {
      var end = start
      while end < header.endIndex, header[end] != 0x0A, header[end] != 0x0D { end += 1 }
      var first = start
      while first < end, header[first] == 0x20 || header[first] == 0x09 { first += 1 }
      if first < end, header[first] == UInt8(ascii: "[") {
        inEvents = hasPrefix(header[first..<end], "[events]")
      }
      if !inEvents {
        out += header[start..<end]
        out.append(0x0A)
      }
      start = end + 1
    }
    while let last = out.last, last == 0 || last == 0x0A { out.removeLast() }
    if !out.isEmpty { out.append(0x0A) }
    return out
  }

  /// Whether `bytes` contains `needle` (lowercase ASCII), in any case.
  private static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
    let n = Array(needle.utf8)
    guard bytes.count >= n.count else { return false }
    for i in 0...(bytes.count - n.count) where hasPrefix(bytes[i..<(i + n.count)], needle) {
      return true
    }
    return false
  }

  /// Whether `bytes` starts with `prefix` (lowercase ASCII), in any case.
  private static func hasPrefix(_ bytes: ArraySlice<UInt8>, _ prefix: String) -> Bool {
    var i = bytes.startIndex
    for c in prefix.utf8 {
      guard i < bytes.endIndex, lower(bytes[i]) == c else {
        return false
      }
      i += 1
    }
    return true
  }
}
