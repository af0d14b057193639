/// SubStation Alpha (`.ssa`, v4) and Advanced SubStation Alpha (`.ass`, v4+) subtitles.
///
/// Read: `[Script Info]` (`PlayResX`, `PlayResY`, `WrapStyle`, `ScriptType`), `[V4+ Styles]`
/// and `[V4 Styles]` with their `Format:` line in any column order, and `[Events]`
/// `Dialogue:` lines in the order of their `Format:` line (the default v4+ or v4 order when
/// there is none), `Text` last, so that it may hold commas. `Comment:` lines and other event
/// kinds are skipped; layers and overlapping events are kept as separate cues, in file order.
/// Times are `H:MM:SS.cc`; the digits after the point are a fraction of a second (`.5` is
/// 500 ms), as `pysubs2` reads them.
///
/// The stored cue text is the event's text with `\N` (and `\n` under `WrapStyle: 2`) as a line
/// feed, `\n` otherwise as a space and `\h` as a no-break space; override blocks `{…}` stay in
/// it, and a style whose bold, italic, underline or colour differs from the defaults puts a
/// block of its own in front (`{\r\b1\1c&H0000FF&}`), so that the text alone gives the cue's
/// look (`cueTree(of:)`). `\an`, `\a`, `\pos` and `\move` (its start) become the cue's
/// settings, relative to `PlayResX` × `PlayResY` (384 × 288 when the script gives neither,
/// as in libass). Every repair and skip is a diagnostic.
public enum SubStationAlpha {
  /// Parses SSA/ASS from UTF-8 bytes.
  ///
  /// - Parameter utf8: The file as UTF-8 (a leading byte order mark is skipped; CRLF, CR and
  ///   LF line ends).
  /// - Returns: The document, `format == .ass`, its cues in file order.
  /// - Throws: `SubtitleError.missingSection` for a file with none of `[Script Info]`, a
  ///   styles section and `[Events]` (a script with no `[Events]`, such as a styles or fonts
  ///   file, is a document without cues and a diagnostic),
  ///   `SubtitleError.badFormatLine` for a `Format:` line of `[Events]` without `Start`, `End`
  ///   or `Text`, or with `Text` not last, or one of a styles section without `Name`.
  /// - Complexity: O(*n*) in the size of the input.
  public static func parse(_ utf8: [UInt8]) throws(SubtitleError) -> SubtitleDocument {
    var parser = SSAParser()
    return try parser.run(utf8)
  }

  /// Whether `utf8` starts (after a byte order mark, blank lines and `;` comment lines) with
  /// the `[Script Info]` section header, in any case.
  ///
  /// - Parameter utf8: The start of a file as UTF-8.
  /// - Complexity: O(*n*) in the length of the leading blank and comment lines.
  public static func looksLikeSSA(_ utf8: [UInt8]) -> Bool {
    var i = 0
    if utf8.count >= 3, utf8[0] == 0xEF, utf8[1] == 0xBB, utf8[2] == 0xBF { i = 3 }
    let header = Array("[script info]".utf8)
    while i < utf8.count {
      let c = utf8[i]
      if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
        i += 1
      } else if c == 0x3B {
        while i < utf8.count && utf8[i] != 0x0A && utf8[i] != 0x0D { i += 1 }
      } else {
        guard utf8.count - i >= header.count else { return false }
        for k in 0..<header.count where lower(utf8[i + k]) != header[k] { return false }
        return true
      }
    }
    return false
  }

  /// The settings of an ASS alignment (`\an`, numpad layout) at a point `x`, `y` of a
  /// `width` × `height` script (`\pos`): the point is the cue's anchor, as percentages of the
  /// frame, with the line and position alignment the numpad key names.
  ///
  /// - Parameters:
  ///   - alignment: 1 to 9 (other values read as 2).
  ///   - x: Horizontal position in script pixels.
  ///   - y: Vertical position in script pixels.
  ///   - width: `PlayResX`.
  ///   - height: `PlayResY`.
  /// - Returns: Settings with `line` and `position` in percent (`snapToLines` false).
  public static func settings(
    forAlignment alignment: Int, x: Double, y: Double, width: Double, height: Double
  ) -> CueSettings {
    let key = (1...9).contains(alignment) ? alignment : 2
    var s = CueSettings()
    s.snapToLines = false
    s.line = clampedPercent(y / height * 100)
    s.position = clampedPercent(x / width * 100)
    switch (key - 1) / 3 {
    case 0: s.lineAlign = .end
    case 1: s.lineAlign = .center
    default: s.lineAlign = .start
    }
    switch (key - 1) % 3 {
    case 0:
      s.positionAlign = .lineLeft
      s.align = .left
    case 2:
      s.positionAlign = .lineRight
      s.align = .right
    default:
      s.positionAlign = .center
    }
    return s
  }

  /// The numpad alignment (`\an`) of a legacy SSA alignment (`\a`, and v4 style alignment):
  /// 1–3 bottom, +4 top, +8 middle; nil for other values.
  ///
  /// - Parameter legacy: The `\a` value.
  /// - Returns: 1 to 9, or nil.
  public static func numpadAlignment(legacy: Int) -> Int? {
    switch legacy {
    case 1, 2, 3: legacy
    case 5, 6, 7: legacy + 2
    case 9, 10, 11: legacy - 5
    default: nil
    }
  }

  /// A percentage limited to 0…100 (NaN as 0).
  static func clampedPercent(_ value: Double) -> Double {
    guard value.isFinite else { return 0 }
    let rounded = (value * 1000).rounded() / 1000
    return min(100, max(0, rounded))
  }

  /// ASCII lowercase of a byte.
  @inline(__always)
  static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
}
