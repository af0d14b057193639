/// SubRip (`.srt`) subtitles, read as they are found in the wild.
///
/// The parser reads what FFmpeg's SRT demuxer or Media3's `SubripParser` read, and reports
/// each repair as a `Diagnostic` with its line number: missing, wrong or out-of-sequence cue
/// numbers; missing or extra blank lines (a timing line always starts a new cue); any number
/// of spaces or tabs around the arrow (none too); `.` instead of `,` before the milliseconds.
///
/// A timestamp is `H:M:S,m` where each field is a run of digits read by its value, as both
/// readers read it:
/// - minutes or seconds of one or three and more digits (`00:00:013,567` is 13.567 s);
/// - minutes or seconds of 60 or more are added as given (`00:00:75,000` is 75 s, 00:01:15);
/// - one to two millisecond digits, and four to nine, are a count of milliseconds (`,5` is
///   5 ms, `,1234` is 1.234 s);
/// - the hours may be left out (`01:02,500`, Media3; also with text after the end time, as
///   in a WebVTT timing line `01:02.500 --> 01:03.000 align:start` renamed to `.srt`);
/// - the milliseconds may be left out (`00:01:02`, Media3), but then the line may hold
///   nothing after the end time (Media3 reads no such line, FFmpeg no timestamp without
///   milliseconds: `10:30 --> 11:45 at the station` in cue text stays text);
/// - spaces after a `:` or the separator (`00: 00: 01, 000`, FFmpeg) in the full form;
/// - a field of more than 9 digits makes the cue skipped (the line is still a timing line).
///
/// Each of these is a diagnostic; those that decide a time also say what it was read as
/// (`read as 00:01:15,000 --> 00:01:16,000`), so no time is taken silently. Signs, a `:`
/// before the milliseconds, an arrow other than `-->` and spaces before a `:` make the line
/// no timing line, as in both readers. Also accepted: `X1:… X2:… Y1:… Y2:…` coordinates or
/// other text after a full timing line (ignored, with a diagnostic); CRLF, CR and LF line
/// ends; a leading byte order mark, and one before a later cue's number or timing line (files
/// joined with `cat`, each with its mark; ignored, with a diagnostic). A cue ends where the next one starts (a timing line, or a
/// number line and a timing line), not at a blank line: text after blank lines that starts no
/// cue joins the cue before it after one line break (a lone number line without text after it
/// is dropped), with one diagnostic per cue so joined, as FFmpeg's demuxer reads it. Text
/// before the first cue, or after a skipped one, is skipped with a diagnostic.
///
/// Styling markup (`<i>`, `<b>`, `<u>`, `<font color=…>`) stays in the cue text; the cue text
/// tree (`parseCueText(_:)`) maps it, reads `<br>` as a line break and drops other tags, as
/// FFmpeg and Media3 do. ASS override blocks (`{\…}`) are removed from the stored text;
/// `{\an1}` to `{\an9}` become positioning settings (see `settings(forASSAlignment:)`).
public enum SubRip {
  /// Parses SRT from UTF-8 bytes.
  ///
  /// - Parameter utf8: The file as UTF-8 bytes (a leading BOM is skipped). The returned
  ///   document shares the storage when no rewrite is needed; line ends are normalised to `\n`
  ///   and ASS override blocks removed otherwise.
  /// - Returns: The document with `format == .srt`, its cues in file order.
  /// - Throws: `SubtitleError.notSubtitles` when the input has text but not a single timing line.
  /// - Complexity: O(*n*) in the size of the input, one pass, no allocation per line.
  public static func parse(_ utf8: [UInt8]) throws(SubtitleError) -> SubtitleDocument {
    var text = utf8
    let bom = text.count >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF
    let start = bom ? 3 : 0
    // The count of `>` bounds the cue count: every timing line has one (CR removal changes
    // no `>`). A file whose first 4 KiB hold a CR gets it from the pass that rewrites the
    // line ends; any other from one pass that also looks for a CR.
    var arrows = 0
    let rewritten = utf8.withUnsafeBufferPointer { buffer -> [UInt8]? in
      guard let base = buffer.baseAddress else { return nil }
      let headEnd = min(4096, buffer.count)
      let head = ByteScanner.countAndSeekVector(0x3E, 0x0D, base, 0, headEnd)
      var rest = (count: 0, seen: false)
      if !head.seen {
        rest = ByteScanner.countAndSeekVector(0x3E, 0x0D, base, headEnd, buffer.count)
      }
      arrows = head.count + rest.count
      guard head.seen || rest.seen else { return nil }
      return ByteScanner.replacingLineEnds(buffer, from: 0, counting: 0x3E, count: &arrows)
    }
    if let rewritten { text = rewritten }
    var result = SRTParser.Output()
    // The cues are written straight into the array's storage: an `append` per cue would check
    // the array's uniqueness and capacity through a runtime call each time.
    let capacity = min(arrows, text.count / 16) + 1
    var cues = [Cue](unsafeUninitializedCapacity: capacity) { storage, initialized in
      initialized = 0
      HugePages.advise(storage)
      text.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress, let cueBase = storage.baseAddress else { return }
        var parser = SRTParser(
          ByteView(base, count: buffer.count), cues: cueBase, capacity: storage.count)
        parser.run(start, buffer.count)
        initialized = min(parser.cueCount, storage.count)
        result = parser.output
      }
    }
    cues += result.overflow
    result.overflow = []
    var parser = result
    parser.cues = cues
    if parser.cues.isEmpty && parser.sawText {
      throw SubtitleError.notSubtitles(reason: "no SRT timing line ('00:00:01,000 --> …') found")
    }
    if !parser.joins.isEmpty {
      joinParagraphs(in: &text, parser: &parser)
    }
    if !parser.rewrite.isEmpty {
      removeOverrideBlocks(in: &text, parser: &parser)
    }
    return SubtitleDocument(
      format: .srt, text: text, cues: parser.cues, diagnostics: parser.diagnostics.list)
  }

  /// Whether `utf8` looks like SRT: a timing line (`00:00:01,000 --> 00:00:02,000`) within its
  /// first 64 lines.
  ///
  /// - Parameter utf8: The start of a file as UTF-8 bytes.
  /// - Complexity: O(1): at most 64 lines of 256 bytes are looked at.
  public static func looksLikeSRT(_ utf8: [UInt8]) -> Bool {
    utf8.withUnsafeBufferPointer { buffer -> Bool in
      guard let p = buffer.baseAddress else { return false }
      let n = buffer.count
      var i = 0
      var lines = 0
      while i < n && lines < 64 {
        var eol = ByteScanner.findEitherScalar(0x0A, 0x0D, p, i, min(n, i + 256))
        if eol == min(n, i + 256) && eol < n { eol = ByteScanner.findMemchr(0x0A, p, i, n) }
        if SRTParser.timingLine(ByteView(p, count: n), i, eol) != nil { return true }
        i = eol + 1
        lines += 1
      }
      return false
    }
  }

  /// The cue settings that express ASS alignment `\an<n>` (numeric keypad layout: 1 to 3
  /// bottom, 4 to 6 middle, 7 to 9 top; 1, 4, 7 left; 2, 5, 8 centre; 3, 6, 9 right), in the
  /// terms a WebVTT cue would use:
  ///
  /// | rows | settings |
  /// |---|---|
  /// | bottom (1–3) | `line` auto (the default) |
  /// | middle (4–6) | `line:50%`, `lineAlign` center (`snapToLines` false) |
  /// | top (7–9) | `line:0` (the first line from the top, `lineAlign` start) |
  ///
  /// | columns | settings |
  /// |---|---|
  /// | left (1, 4, 7) | `align:left` |
  /// | centre (2, 5, 8) | `align:center` (the default) |
  /// | right (3, 6, 9) | `align:right` |
  ///
  /// - Parameter alignment: 1 to 9; any other value gives the default settings.
  /// - Returns: Settings with only `line`, `snapToLines`, `lineAlign` and `align` changed.
  public static func settings(forASSAlignment alignment: Int) -> CueSettings {
    var s = CueSettings()
    guard (1...9).contains(alignment) else { return s }
    switch (alignment - 1) / 3 {
    case 1:
      s.line = 50
      s.snapToLines = false
      s.lineAlign = .center
    case 2:
      s.line = 0
    default: break
    }
    switch (alignment - 1) % 3 {
    case 0: s.align = .left
    case 2: s.align = .right
    default: break
    }
    return s
  }

  /// The ASS alignment (1 to 9) closest to `settings`: the inverse of
  /// `settings(forASSAlignment:)` on its results, and an approximation for other settings
  /// (`start`/`end` alignment read as left/right; a `line` in the top or bottom third of the
  /// frame as top or bottom).
  ///
  /// - Parameter settings: WebVTT-style cue settings.
  /// - Returns: 1 to 9; 2 (bottom centre) for default settings.
  public static func assAlignment(for settings: CueSettings) -> Int {
    var row = 0
    if let line = settings.line {
      if settings.snapToLines {
        row = line >= 0 ? 2 : 0
      } else if line < 100.0 / 3 {
        row = 2
      } else if line <= 200.0 / 3 {
        row = 1
      }
    }
    var column = 1
    switch settings.align {
    case .left, .start: column = 0
    case .right, .end: column = 2
    case .center: column = 1
    }
    return row * 3 + column + 1
  }

}
