/// Serialising documents as SRT and WebVTT.
///
/// Both writers use `\n` line ends and UTF-8 without a byte order mark. A document of the other
/// format is converted first (`converted(to:)`); call that directly to see what the conversion
/// could not express.
extension SubtitleDocument {
  /// The document as SRT: cues numbered from 1, `HH:MM:SS,mmm` times (negative times written as
  /// 0), positioning as a leading `{\anN}` when it is not bottom centre.
  ///
  /// - Returns: UTF-8 bytes.
  /// - Complexity: O(*n*) in the size of the text.
  public func srt() -> [UInt8] {
    written(as: .srt)
  }

  /// `srt()` as a `String`.
  public func srtString() -> String { String(decoding: srt(), as: UTF8.self) }

  /// The document as WebVTT: the `WEBVTT` line with the header, `REGION` and `STYLE` blocks,
  /// then the cues with their identifiers and every setting that differs from the default, in
  /// order of start time as WebVTT requires (cues of equal start time in document order).
  ///
  /// - Returns: UTF-8 bytes.
  /// - Complexity: O(*n*) in the size of the text.
  public func webVTT() -> [UInt8] {
    written(as: .webVTT)
  }

  /// `webVTT()` as a `String`.
  public func webVTTString() -> String { String(decoding: webVTT(), as: UTF8.self) }

  // MARK: - Internals

  /// The document written as `target` (a writable format), converted first when it is in
  /// another format; empty for a read-only target.
  func written(as target: SubtitleFormat) -> [UInt8] {
    target.writer?.serialize(format == target ? self : converted(to: target)) ?? []
  }

  func serializedSRT() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(text.count + cues.count * 48)
    for (n, cue) in cues.enumerated() {
      if n > 0 { out.append(0x0A) }
      out.append(contentsOf: String(n + 1).utf8)
      out.append(0x0A)
      appendTimestamp(cue.startTime, separator: 0x2C, to: &out)
      out.append(contentsOf: " --> ".utf8)
      appendTimestamp(cue.endTime, separator: 0x2C, to: &out)
      out.append(0x0A)
      let alignment = SubRip.assAlignment(for: cue.settings)
      if alignment != 2 { out.append(contentsOf: "{\\an\(alignment)}".utf8) }
      let textStart = out.count
      appendSRTText(text[clamped(cue.textRange)], to: &out)
      disarmOverrideTags(in: &out, from: textStart)
      disarmTimingLines(in: &out, from: textStart)
      out.append(0x0A)
    }
    return out
  }

  /// An SRT reader starts a new cue at any line that reads as a timing line, even inside cue
  /// text (a file may have lost its blank lines). A cue-text line that would read so, e.g. one
  /// that had an override block such as `{\b1}` in front of it in the source, gets a WORD
  /// JOINER (U+2060, invisible) in front, which no timing line starts with.
  func disarmTimingLines(in out: inout [UInt8], from start: Int) {
    // The lines first, then one copy with every joiner in place (an insertion per line would
    // move the rest of the text each time: quadratic in a cue of many such lines).
    var timingLines: [Int] = []
    out.withUnsafeBufferPointer { buffer in
      guard let p = buffer.baseAddress else { return }
      let parser = SRTParser(ByteView(p, count: buffer.count))
      var lineStart = start
      while lineStart < buffer.count {
        let lineEnd = buffer[lineStart...].firstIndex(of: 0x0A) ?? buffer.count
        if parser.timingLine(lineStart, lineEnd) != nil { timingLines.append(lineStart) }
        lineStart = lineEnd + 1
      }
    }
    insertWordJoiners(at: timingLines, in: &out, from: start)
  }

  /// An SRT reader takes `{\…}` in cue text as an ASS override block and removes it (or, for
  /// `{\anN}`, moves the cue). Text that holds one literally, e.g. WebVTT text `{\b0}`, would
  /// then read back different from what was written, so the backslashes that open such a block
  /// are left out (`{b0}`); the text is otherwise kept. A block counts, as in the reader, when a
  /// `}` follows later on the same line.
  func disarmOverrideTags(in out: inout [UInt8], from start: Int) {
    let end = out.count
    guard start < end - 1,
      out[start..<(end - 1)].indices.contains(where: {
        out[$0] == 0x7B && out[$0 + 1] == 0x5C
      })
    else { return }
    var write = start
    var read = start
    while read < end {
      let lineEnd = out[read..<end].firstIndex(of: 0x0A) ?? end
      let close = out[read..<lineEnd].lastIndex(of: 0x7D) ?? read
      while read < lineEnd {
        let byte = out[read]
        out[write] = byte
        write += 1
        read += 1
        if byte == 0x7B && read < close && out[read] == 0x5C {
          while read < lineEnd && out[read] == 0x5C { read += 1 }
        }
      }
      if read < end {
        out[write] = out[read]
        write += 1
        read += 1
      }
    }
    out.removeSubrange(write..<end)
  }

  func serializedWebVTT() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(text.count + cues.count * 48)
    out.append(contentsOf: "WEBVTT".utf8)
    if !header.isEmpty {
      // The parser keeps what follows the one space or tab after the signature; header lines
      // follow a line feed.
      if !header.hasPrefix("\n") { out.append(0x20) }
      out.append(contentsOf: header.utf8)
    }
    if let map = timestampMap, !header.contains("X-TIMESTAMP-MAP") {
      out.append(contentsOf: "\nX-TIMESTAMP-MAP=MPEGTS:\(map.mpegts),LOCAL:".utf8)
      appendTimestamp(map.local, separator: 0x2E, to: &out)
    }
    out.append(contentsOf: "\n\n".utf8)
    for region in regions {
      var block = "REGION\nid:\(region.id)\nwidth:\(number(region.width))%\n"
      block += "lines:\(number(region.lineCount))\n"
      block += "regionanchor:\(number(region.regionAnchorX))%,\(number(region.regionAnchorY))%\n"
      block +=
        "viewportanchor:\(number(region.viewportAnchorX))%,\(number(region.viewportAnchorY))%\n"
      if region.scroll == "up" { block += "scroll:up\n" }
      out.append(contentsOf: block.utf8)
      out.append(0x0A)
    }
    for style in styles {
      out.append(contentsOf: "STYLE\n".utf8)
      out.append(contentsOf: style.utf8)
      if style.utf8.last != 0x0A { out.append(0x0A) }
      out.append(0x0A)
    }
    // WebVTT cues are in order of start time: an SRT file's may not be.
    let order = Self.startTimeOrder(of: cues)
    for n in cues.indices {
      let cue = cues[order?[n] ?? n]
      if n > 0 { out.append(0x0A) }
      let id = text[clamped(cue.idRange)]
      if !id.isEmpty {
        appendWebVTTText(id, to: &out)
        out.append(0x0A)
      }
      appendTimestamp(cue.startTime, separator: 0x2E, to: &out)
      out.append(contentsOf: " --> ".utf8)
      appendTimestamp(cue.endTime, separator: 0x2E, to: &out)
      out.append(contentsOf: webVTTSettings(cue.settings).utf8)
      out.append(0x0A)
      appendWebVTTText(text[clamped(cue.textRange)], to: &out)
      out.append(0x0A)
    }
    return out
  }

  /// Appends cue text for an SRT file. A blank line (empty, or spaces and tabs only) ends an
  /// SRT cue, so such lines (and a trailing line break) are left out: the written file then
  /// parses back to what was written.
  func appendSRTText(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
    appendNonBlankLines(bytes, spacesAreBlank: true, nulAsReplacement: false, to: &out)
  }

  /// Appends cue text for a WebVTT file. A blank line ends a WebVTT cue too, so empty lines
  /// (which text converted from SRT can hold, e.g. where a `{\an8}` line was removed) are left
  /// out; and a WebVTT parser reads NUL as U+FFFD, so NUL is written as U+FFFD. The written file
  /// then parses back to exactly what was written.
  func appendWebVTTText(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
    appendNonBlankLines(bytes, spacesAreBlank: false, nulAsReplacement: true, to: &out)
  }

  /// Appends the lines of `bytes` that are not blank, joined by LF: empty lines are blank, and
  /// with `spacesAreBlank` so are lines of spaces and tabs only. NUL is written as U+FFFD with
  /// `nulAsReplacement`.
  private func appendNonBlankLines(
    _ bytes: ArraySlice<UInt8>, spacesAreBlank: Bool, nulAsReplacement: Bool,
    to out: inout [UInt8]
  ) {
    var lineStart = bytes.startIndex
    var wroteLine = false
    while lineStart < bytes.endIndex {
      let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.endIndex
      let line = bytes[lineStart..<lineEnd]
      let blank =
        line.isEmpty || (spacesAreBlank && line.allSatisfy { $0 == 0x20 || $0 == 0x09 })
      if !blank {
        if wroteLine { out.append(0x0A) }
        if nulAsReplacement && line.contains(0) {
          for byte in line {
            if byte == 0 {
              out.append(contentsOf: [0xEF, 0xBF, 0xBD])
            } else {
              out.append(byte)
            }
          }
        } else {
          out.append(contentsOf: line)
        }
        wroteLine = true
      }
      lineStart = lineEnd < bytes.endIndex ? lineEnd + 1 : lineEnd
    }
  }

  /// ` vertical:rl line:0 …` for the settings that differ from the defaults.
  func webVTTSettings(_ s: CueSettings) -> String {
    var out = ""
    if s.vertical != .horizontal { out += " vertical:\(s.vertical.rawValue)" }
    if let line = s.line {
      out += " line:" + number(line) + (s.snapToLines ? "" : "%")
      if s.lineAlign != .start { out += ",\(s.lineAlign.rawValue)" }
    }
    if let position = s.position {
      out += " position:" + number(position) + "%"
      if s.positionAlign != .auto { out += ",\(s.positionAlign.rawValue)" }
    }
    if s.size != 100 { out += " size:" + number(s.size) + "%" }
    if s.align != .center { out += " align:\(s.align.rawValue)" }
    if let index = s.region, regions.indices.contains(index), !regions[index].id.isEmpty {
      out += " region:\(regions[index].id)"
    }
    return out
  }

  func clamped(_ range: Range<Int>) -> Range<Int> { range.clamped(to: 0..<text.count) }
}

/// Puts a WORD JOINER (U+2060, invisible) before each offset of `positions` (ascending, each at
/// least `start`) in `out`, which SRT writing uses to keep text from reading as markup or as a
/// timing line. One copy of the text from `start` on, whatever the number of joiners.
func insertWordJoiners(at positions: [Int], in out: inout [UInt8], from start: Int) {
  guard !positions.isEmpty else { return }
  var rebuilt: [UInt8] = []
  rebuilt.reserveCapacity(out.count - start + 3 * positions.count)
  var copied = start
  for at in positions {
    rebuilt.append(contentsOf: out[copied..<at])
    rebuilt.append(contentsOf: [0xE2, 0x81, 0xA0])
    copied = at
  }
  rebuilt.append(contentsOf: out[copied...])
  out.replaceSubrange(start..., with: rebuilt)
}

/// `HH:MM:SS<sep>mmm` (hours at least two digits) for `seconds`, rounded to the millisecond;
/// negative or NaN times are written as 0, huge ones as the largest the format's reader takes:
/// 2^53 ms for WebVTT (`.` before the milliseconds), whose parser reads that far, and
/// 999999999 hours for SRT (`,`), whose readers skip longer hours.
func appendTimestamp(_ seconds: Double, separator: UInt8, to out: inout [UInt8]) {
  let limit =
    separator == 0x2E ? Double(VTTSyntax.maxMilliseconds) : 999_999_999.0 * 3_600_000
  let millis = seconds.isNaN ? 0 : Int64(min(max(0, (seconds * 1000).rounded()), limit))
  let hours = millis / 3_600_000
  let minutes = millis / 60_000 % 60
  let secs = millis / 1000 % 60
  let ms = millis % 1000
  if hours < 10 { out.append(0x30) }
  out.append(contentsOf: String(hours).utf8)
  out.append(0x3A)
  out.append(UInt8(0x30 + minutes / 10))
  out.append(UInt8(0x30 + minutes % 10))
  out.append(0x3A)
  out.append(UInt8(0x30 + secs / 10))
  out.append(UInt8(0x30 + secs % 10))
  out.append(separator)
  out.append(UInt8(0x30 + ms / 100))
  out.append(UInt8(0x30 + ms / 10 % 10))
  out.append(UInt8(0x30 + ms % 10))
}

/// A number as WebVTT writes it: plain decimal notation without an exponent, integers without
/// a fraction, and the shortest digits that read back as the same `Double`.
func number(_ value: Double) -> String {
  guard value.isFinite else { return "0" }
  if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
  let text = String(value)
  guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
  // Move the decimal point of the shortest round-trip digits by the exponent.
  let exponent = Int(text[text.index(after: e)...]) ?? 0
  var mantissa = text[..<e]
  let negative = mantissa.hasPrefix("-")
  if negative { mantissa = mantissa.dropFirst() }
  let point = mantissa.firstIndex(of: ".").map {
    mantissa.distance(from: mantissa.startIndex, to: $0)
  }
  let digits = mantissa.filter { $0 != "." }
  let position = (point ?? digits.count) + exponent
  var out: String
  if position <= 0 {
    out = "0." + String(repeating: "0", count: -position) + digits
  } else if position >= digits.count {
    out = digits + String(repeating: "0", count: position - digits.count)
  } else {
    let cut = digits.index(digits.startIndex, offsetBy: position)
    out = String(digits[..<cut]) + "." + String(digits[cut...])
  }
  if out.contains(".") {
    while out.hasSuffix("0") { out.removeLast() }
    if out.hasSuffix(".") { out.removeLast() }
  }
  return negative ? "-" + out : out
}
