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
/// ends; a leading byte order mark. Text between cues that is not a cue is skipped with a
/// diagnostic.
///
/// Styling markup (`<i>`, `<b>`, `<u>`, `<font color=…>`) stays in the cue text. ASS override
/// blocks (`{\…}`) are removed from the stored text; `{\an1}` to `{\an9}` become positioning
/// settings (see `settings(forASSAlignment:)`).
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
        var parser = SRTParser(base, cues: cueBase, capacity: storage.count)
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
        if SRTParser.timingLine(p, i, eol) != nil { return true }
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

  // MARK: - Internals

  /// Removes `{\…}` blocks from the cues `parser.rewrite` lists, in place, and turns `\anN`
  /// into settings.
  static func removeOverrideBlocks(in text: inout [UInt8], parser: inout SRTParser.Output) {
    var notes = DiagnosticLog()
    text.withUnsafeMutableBufferPointer { buffer in
      guard let p = buffer.baseAddress else { return }
      for index in parser.rewrite {
        var cue = parser.cues[index]
        var read = cue.textRange.lowerBound
        var write = read
        let end = cue.textRange.upperBound
        var line = cue.line + 1
        // The next `}` and the next line feed, each found once and reused while it is ahead
        // (linear for unmatched `{\`). A block ends on its own line: one whose `}` is on a
        // later line is text (removing it took the line break with it).
        var nextBrace = read - 1
        var nextFeed = read - 1
        while read < end {
          let c = p[read]
          if c == 0x0A { line += 1 }
          if c == 0x7B, read + 1 < end, p[read + 1] == 0x5C {
            if nextBrace <= read {
              nextBrace = ByteScanner.findScalar(0x7D, UnsafePointer(p), read + 2, end)
            }
            if nextFeed <= read {
              nextFeed = ByteScanner.findScalar(0x0A, UnsafePointer(p), read + 2, end)
            }
            let close = nextBrace
            if close < end && close < nextFeed {
              var removed = false
              var k = read + 1
              while k < close {
                // Each override starts with a backslash.
                var name = k + 1
                while name < close && p[name] != 0x5C { name += 1 }
                if name - k == 4, p[k + 1] == 0x61, p[k + 2] == 0x6E, p[k + 3] >= 0x31,
                  p[k + 3] <= 0x39
                {
                  let keep = cue.settings.region
                  cue.settings = settings(forASSAlignment: Int(p[k + 3] - 0x30))
                  cue.settings.region = keep
                } else {
                  removed = true
                }
                k = name
              }
              if removed {
                let at = read
                notes.add(
                  line: line, offset: read,
                  "ASS override \(String(decoding: UnsafeBufferPointer(start: p + at, count: close + 1 - at), as: UTF8.self)) removed"
                )
              }
              read = close + 1
              continue
            }
          }
          p[write] = c
          write += 1
          read += 1
        }
        cue.textRange = cue.textRange.lowerBound..<write
        parser.cues[index] = cue
      }
    }
    if !notes.isEmpty {
      parser.diagnostics = DiagnosticLog.merged(parser.diagnostics, notes)
    }
  }
}

/// The one-pass SRT state machine over `\n`-separated bytes.
struct SRTParser {
  let p: UnsafePointer<UInt8>
  /// Where cues go while they fit: uninitialized storage for `cueCapacity` cues, of which the
  /// first `min(cueCount, cueCapacity)` are written. Cues past the capacity go to `overflow`.
  let cueStorage: UnsafeMutablePointer<Cue>?
  let cueCapacity: Int
  var cueCount = 0
  var overflow: [Cue] = []
  var diagnostics = DiagnosticLog()
  /// Cue indices whose text contains `{` and may hold ASS override blocks.
  var rewrite: [Int] = []
  /// Whether any non-blank line was seen.
  var sawText = false

  /// What a run produced, without the pointers it used. `cues` is filled in by the caller
  /// from the storage and `overflow`.
  struct Output {
    var cues: [Cue] = []
    var overflow: [Cue] = []
    var diagnostics = DiagnosticLog()
    var rewrite: [Int] = []
    var sawText = false
  }

  var output: Output {
    Output(overflow: overflow, diagnostics: diagnostics, rewrite: rewrite, sawText: sawText)
  }

  enum State {
    case between
    case afterNumber
    case inCue
    case garbage
  }

  /// What a timing line said, plus the irregularities found in it.
  struct Timing {
    var start: Int64 = 0
    var end: Int64 = 0
    var flags: UInt16 = 0
  }

  static let shortMillis: UInt16 = 1
  static let noMillis: UInt16 = 2
  static let noHours: UInt16 = 4
  static let absurdHours: UInt16 = 8
  static let outOfRange: UInt16 = 16
  static let coordinates: UInt16 = 32
  static let trailing: UInt16 = 64
  /// Minutes, seconds or milliseconds of more than 9 digits: the cue is skipped.
  static let absurdField: UInt16 = 128
  /// Minutes or seconds not two digits wide (`0:0:1,000`, `00:00:013,567`).
  static let fieldWidth: UInt16 = 256
  /// More than three millisecond digits, read as a count of milliseconds.
  static let longMillis: UInt16 = 512
  /// Spaces after a `:` or the millisecond separator.
  static let innerSpaces: UInt16 = 1024
  /// `.` before the milliseconds.
  static let dotSeparator: UInt16 = 2048
  /// Other than one space on each side of the arrow (none, several, tabs).
  static let arrowSpacing: UInt16 = 4096

  /// A parser that reads `base`; its cues go to `cues` (room for `capacity`), then to
  /// `overflow`. Without storage (for `timingLine` alone) every cue goes to `overflow`.
  init(_ base: UnsafePointer<UInt8>, cues: UnsafeMutablePointer<Cue>? = nil, capacity: Int = 0) {
    p = base
    cueStorage = cues
    cueCapacity = cues == nil ? 0 : capacity
  }

  /// Parses `p[start..<n]`.
  ///
  /// The common cue (a number line, a canonical timing line, text lines, a blank line) is read
  /// by a fast path that tests the number and timing lines in word loads, without the line
  /// search; anything else goes through the general state machine, which reads it the same way.
  mutating func run(_ start: Int, _ n: Int) {
    let p = self.p
    var lines = ByteScanner.Cursor(0x0A, p, n, dense: true)
    var braces = BraceCache()
    var state = State.between
    var i = start
    var line = 1
    var pendingId = 0..<0
    var pendingLine = 0
    var expected = 1

    while i < n {
      var t: Timing
      var id: Range<Int>
      var cueLine: Int
      var timingEnd: Int
      if state != .afterNumber, let number = SRTParser.numberLine(p, i, n) {
        // A cue number line: the general loop would take it as the pending cue number.
        sawText = true
        let j = number.end &+ 1
        guard let fast = SRTParser.canonicalTimingLine(p, j, n) else {
          pendingId = i..<number.end
          pendingLine = line
          state = .afterNumber
          i = j
          line &+= 1
          continue
        }
        t = Timing(start: fast.start, end: fast.end, flags: 0)
        id = i..<number.end
        cueLine = line &+ 1
        timingEnd = fast.eol
        // `begin` for a number of at most 7 digits and a timing line with nothing repaired.
        if number.value != expected {
          note(line, i, "cue number \(number.value) out of sequence (expected \(expected))")
        }
        expected = number.value &+ 1
        i = fast.eol &+ 1
        line &+= 2
      } else {
        // Between cues: blank lines, a cue number, a timing line, or text to skip.
        let eol = lines.search(i)
        let blank = SRTParser.isBlank(p, i, eol)
        if !blank { sawText = true }
        var timing: Timing? = nil
        var timingId = 0..<0
        switch state {
        case .afterNumber:
          if let found = SRTParser.timingLine(p, i, eol) {
            timing = found
            timingId = pendingId
          } else if SRTParser.isNumber(p, i, eol) {
            note(pendingLine, pendingId.lowerBound, "cue number without a timing line skipped")
            pendingId = i..<eol
            pendingLine = line
          } else {
            note(pendingLine, pendingId.lowerBound, "cue number without a timing line skipped")
            if !blank { note(line, i, "text outside a cue skipped") }
            state = blank ? .between : .garbage
          }
        case .between, .garbage, .inCue:
          if blank {
            state = .between
          } else if SRTParser.isNumber(p, i, eol) {
            // Digits alone are never a timing line: test for the common cue number first.
            pendingId = i..<eol
            pendingLine = line
            state = .afterNumber
          } else if let found = SRTParser.timingLine(p, i, eol) {
            timing = found
          } else if state == .between {
            note(line, i, "text outside a cue skipped")
            state = .garbage
          }
        }
        let timingStart = i
        i = eol + 1
        line += 1
        guard let found = timing else { continue }
        t = found
        id = timingId
        cueLine = line - 1
        timingEnd = eol
        begin(t, id, cueLine, timingStart, &expected)
      }

      // A cue: its timing line is done; read text lines until a blank line, the end, or a
      // timing line (which starts the next cue at once).
      state = .between
      while true {
        var textStart = -1
        var textEnd = 0
        var previousTextEnd = 0
        var lastLineIsNumber = false
        var lastLineStart = 0
        var next: Timing? = nil
        var nextEnd = 0
        while i < n {
          let first = p[i]
          if first == 0x0A {
            i &+= 1
            line &+= 1
            break
          }
          let e = lines.search(i)
          let spaced = first == 0x20 || first == 0x09
          if spaced && SRTParser.isBlank(p, i &+ 1, e) {
            i = e &+ 1
            line &+= 1
            break
          }
          // (`sawText` is already set: by the timing line.)
          if first &- 0x30 < 10 || spaced {
            if let found = SRTParser.timingLine(p, i, e) {
              next = found
              nextEnd = e
              break
            }
            lastLineIsNumber = SRTParser.isNumber(p, i, e)
          } else {
            lastLineIsNumber = false
          }
          if textStart < 0 { textStart = i }
          previousTextEnd = textEnd
          textEnd = e
          lastLineStart = i
          i = e &+ 1
          line &+= 1
        }
        var nextId = 0..<0
        if next != nil && lastLineIsNumber {
          // The last text line (ending at `textEnd`) is the next cue's number.
          nextId = lastLineStart..<textEnd
          textEnd = previousTextEnd
          if textStart == lastLineStart { textStart = -1 }
        }
        finish(t, id, cueLine, timingEnd, textStart, textEnd, n, &braces)
        guard let found = next else { break }
        note(line, i, "missing blank line: a timing line starts a new cue")
        begin(found, nextId, line, i, &expected)
        t = found
        id = nextId
        cueLine = line
        timingEnd = nextEnd
        i = nextEnd &+ 1
        line &+= 1
      }
    }
    if state == .afterNumber {
      note(pendingLine, pendingId.lowerBound, "cue number without a timing line skipped")
    }
  }

  /// A cue number line at `i`: one to seven digits, then LF, read as one 64-bit word (nil when
  /// `i + 8 > n` or the line is anything else; the general loop reads it then). The value is
  /// that of the digits.
  @inline(__always)
  static func numberLine(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> (end: Int, value: Int)? {
    guard i &+ 8 <= n else { return nil }
    let w = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
    let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let low = w & 0x0F0F_0F0F_0F0F_0F0F
    // A byte is nonzero where the byte of `w` is not a digit: its high nibble is not 3, or
    // its low nibble is over 9 (adding 6 carries into the high nibble; never past the byte).
    let nonDigit =
      ((w & highNibbles) ^ 0x3030_3030_3030_3030) | ((low &+ 0x0606_0606_0606_0606) & highNibbles)
    guard nonDigit != 0 else { return nil }
    let shift = UInt64(nonDigit.trailingZeroBitCount & ~7)
    guard shift != 0, (w >> shift) & 0xFF == 0x0A else { return nil }
    // The digits at the top of the word (leading zero digits below), then pairs, fours and
    // eights of digits combined by multiplies.
    var v = low << (64 &- shift)
    v = ((v &* 2561) >> 8) & 0x00FF_00FF_00FF_00FF
    v = ((v &* 6_553_601) >> 16) & 0x0000_FFFF_0000_FFFF
    v = (v &* 42_949_672_960_001) >> 32
    return (i &+ Int(shift &>> 3), Int(v))
  }

  /// The timing line at `j` when it is `HH:MM:SS,mmm --> HH:MM:SS,mmm` (or the same with
  /// three-digit hours on both sides) followed by LF: the times and the index of the LF. Such
  /// a line is one `timingLine` reads with no flag, to the same times (each timestamp is one
  /// `canonicalTimestamp` accepts). Nil for anything else.
  @inline(__always)
  static func canonicalTimingLine(_ p: UnsafePointer<UInt8>, _ j: Int, _ n: Int) -> (
    start: Int64, end: Int64, eol: Int
  )? {
    if j &+ 29 < n && p[j &+ 16] == 0x20 {
      return canonicalStamps(p, j, j &+ 17)
    }
    // `HHH:MM:SS,mmm --> HHH:MM:SS,mmm`: the hundreds digits, then as above.
    if j &+ 31 < n && p[j &+ 17] == 0x20 {
      let h1 = p[j] &- 0x30
      let h2 = p[j &+ 18] &- 0x30
      guard h1 < 10, h2 < 10, let stamps = canonicalStamps(p, j &+ 1, j &+ 19) else {
        return nil
      }
      return (
        Int64(h1) &* 360_000_000 &+ stamps.start, Int64(h2) &* 360_000_000 &+ stamps.end,
        stamps.eol
      )
    }
    return nil
  }

  /// `HH:MM:SS,mmm -->` at `a` and `HH:MM:SS,mmm` then LF at `b`, minutes and seconds below
  /// 60, `,` before the milliseconds, tested in four word loads; the bytes between
  /// `a + 16` and `b` are the caller's to test. The times and the index of the LF.
  @inline(__always)
  static func canonicalStamps(_ p: UnsafePointer<UInt8>, _ a: Int, _ b: Int) -> (
    start: Int64, end: Int64, eol: Int
  )? {
    let raw = UnsafeRawPointer(p)
    let w0 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: a, as: UInt64.self))
    let w1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: a &+ 8, as: UInt64.self))
    let w2 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: b, as: UInt64.self))
    let w3 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: b &+ 5, as: UInt64.self))
    // Per word: the bytes that must equal a value (`:`, `,`, the arrow, LF) and the high nibbles of digits (3); then the low nibbles of digits, which
    // carry into the high nibble when over 9 (over 5 for tens of minutes and seconds).
    // w0, w2: `HH:MM:SS`; w1: `,mmm -->`; w3: `:SS,mmm` LF.
    let clock: UInt64 = 0xF0F0_FFF0_F0FF_F0F0
    let clockValue: UInt64 = 0x3030_3A30_303A_3030
    let clockLow: UInt64 = 0x0F0F_000F_0F00_0F0F
    let clockAdd: UInt64 = 0x060A_0006_0A00_0606
    let millis: UInt64 = 0xFFFF_FFFF_F0F0_F0FF
    let millisValue: UInt64 = 0x3E2D_2D20_3030_302C
    let millisLow: UInt64 = 0x0000_0000_0F0F_0F00
    let millisAdd: UInt64 = 0x0000_0000_0606_0600
    let tail: UInt64 = 0xFFF0_F0F0_FFF0_F0FF
    let tailValue: UInt64 = 0x0A30_3030_2C30_303A
    let tailLow: UInt64 = 0x000F_0F0F_000F_0F00
    let tailAdd: UInt64 = 0x0006_0606_0006_0A00
    let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    // (`^` and `|` share a precedence: each `^` is in parentheses.)
    let wrong =
      ((w0 & clock) ^ clockValue) | ((w1 & millis) ^ millisValue)
      | ((w2 & clock) ^ clockValue) | ((w3 & tail) ^ tailValue)
    let over =
      ((w0 & clockLow) &+ clockAdd) | ((w1 & millisLow) &+ millisAdd)
      | ((w2 & clockLow) &+ clockAdd) | ((w3 & tailLow) &+ tailAdd)
    guard wrong | (over & highNibbles) == 0 else { return nil }
    return (time(w0 & clockLow, w1 >> 8), time(w2 & clockLow, w3 >> 32), b &+ 12)
  }

  /// Milliseconds from the digit values of `HH:MM:SS` (bytes 0, 1, 3, 4, 6, 7 of `clock`) and
  /// of `mmm` (bytes 0 to 2 of `millis`, ASCII).
  @inline(__always)
  static func time(_ clock: UInt64, _ millis: UInt64) -> Int64 {
    // Byte pairs to values: byte i becomes 10 x digit(i) + digit(i + 1).
    let pairs = (clock &* 10) &+ (clock >> 8)
    let hours = Int64(pairs & 0xFF)
    // Minutes (byte 3) times 60 plus seconds (byte 6), in the top 16 bits of one product
    // (the other partial products stay below bit 48 or wrap past bit 63).
    let clockSeconds = Int64(((pairs & 0x00FF_0000_FF00_0000) &* (60 << 24 | 1)) >> 48)
    let m = millis & 0x0F_0F0F
    let tens = (m &* 10) &+ (m >> 8)
    let ms = Int64(tens & 0xFF) &* 10 &+ Int64(m >> 16)
    return (hours &* 3600 &+ clockSeconds) &* 1000 &+ ms
  }

  /// Reports what the timing line had to have repaired and checks the cue number.
  @inline(__always)
  mutating func begin(
    _ t: Timing, _ id: Range<Int>, _ line: Int, _ offset: Int, _ expected: inout Int
  ) {
    if id.isEmpty {
      note(line, offset, "cue has no number")
      expected += 1
    } else {
      var value = 0
      var k = id.lowerBound
      while k < id.upperBound && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
      var digits = 0
      while k < id.upperBound {
        let d = p[k] &- 0x30
        if d >= 10 { break }
        if digits < 18 { value = value &* 10 &+ Int(d) }
        digits &+= 1
        k += 1
      }
      if value != expected || digits > 18 {
        note(line - 1, id.lowerBound, "cue number \(value) out of sequence (expected \(expected))")
      }
      expected = value &+ 1
    }
    if t.flags != 0 { timingNotes(t, line, offset) }
  }

  mutating func timingNotes(_ t: Timing, _ line: Int, _ offset: Int) {
    let f = t.flags
    if f & SRTParser.absurdHours != 0 {
      note(line, offset, "hours field too large; cue skipped")
      return
    }
    if f & SRTParser.absurdField != 0 {
      note(line, offset, "minutes, seconds or milliseconds of more than 9 digits; cue skipped")
      return
    }
    // Repairs that decide what a time is also say what it was read as.
    let reading = f & (SRTParser.fieldWidth | SRTParser.outOfRange | SRTParser.longMillis)
    let readAs = reading == 0 ? "" : "; read as \(SRTParser.reading(t))"
    if f & SRTParser.noHours != 0 { note(line, offset, "timestamp without hours read as MM:SS") }
    if f & SRTParser.fieldWidth != 0 {
      note(line, offset, "minutes or seconds not two digits wide\(readAs)")
    }
    if f & SRTParser.shortMillis != 0 {
      note(line, offset, "fewer than 3 millisecond digits, read as milliseconds")
    }
    if f & SRTParser.longMillis != 0 {
      note(line, offset, "more than 3 millisecond digits, read as milliseconds\(readAs)")
    }
    if f & SRTParser.noMillis != 0 { note(line, offset, "timestamp without milliseconds") }
    if f & SRTParser.outOfRange != 0 {
      note(line, offset, "minutes or seconds of 60 or more, added as given\(readAs)")
    }
    if f & SRTParser.dotSeparator != 0 {
      note(line, offset, "'.' before the milliseconds read as ','")
    }
    if f & SRTParser.arrowSpacing != 0 {
      note(line, offset, "spacing around '-->' other than one space on each side")
    }
    if f & SRTParser.innerSpaces != 0 { note(line, offset, "spaces inside a timestamp ignored") }
    if f & SRTParser.coordinates != 0 { note(line, offset, "X1/X2/Y1/Y2 coordinates ignored") }
    if f & SRTParser.trailing != 0 { note(line, offset, "text after the end time ignored") }
  }

  /// `HH:MM:SS,mmm --> HH:MM:SS,mmm` for the times of `t`: what a repaired line was read as.
  static func reading(_ t: Timing) -> String {
    var out: [UInt8] = []
    appendTimestamp(Double(t.start) / 1000, separator: 0x2C, to: &out)
    out.append(contentsOf: " --> ".utf8)
    appendTimestamp(Double(t.end) / 1000, separator: 0x2C, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The first `{` at or after a position, found with `memchr` and kept while later positions
  /// stay at or before it (`{` is sparse: most cues have none).
  struct BraceCache {
    var from = Int.max
    var hit = -1

    /// The first index `>= at` in `p[..<n]` holding `{`, or `n`.
    @inline(__always)
    mutating func next(_ at: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
      if at >= from && at <= hit { return hit }
      hit = ByteScanner.findMemchr(0x7B, p, at, n)
      from = at
      return hit
    }
  }

  @inline(__always)
  mutating func finish(
    _ t: Timing, _ id: Range<Int>, _ line: Int, _ timingEnd: Int, _ textStart: Int,
    _ textEnd: Int, _ n: Int, _ braces: inout BraceCache
  ) {
    if t.flags & (SRTParser.absurdHours | SRTParser.absurdField) != 0 { return }
    let p = self.p
    var lower = textStart < 0 ? timingEnd : textStart
    let upper = textStart < 0 ? timingEnd : textEnd
    // Leading `{\anN}` blocks only move the start of the text (the last one sets the
    // alignment); no rewrite is needed.
    var alignment = 0
    while upper &- lower >= 6 && p[lower] == 0x7B && p[lower &+ 1] == 0x5C
      && p[lower &+ 2] == 0x61 && p[lower &+ 3] == 0x6E && p[lower &+ 4] &- 0x31 < 9
      && p[lower &+ 5] == 0x7D
    {
      alignment = Int(p[lower &+ 4] &- 0x30)
      lower &+= 6
    }
    var idLower = id.lowerBound
    var idUpper = id.upperBound
    if idLower < idUpper {
      // Cue numbers rarely have spaces around them: test the end bytes before looping.
      let a = p[idLower]
      if a == 0x20 || a == 0x09 {
        idLower &+= 1
        while idLower < idUpper && (p[idLower] == 0x20 || p[idLower] == 0x09) { idLower &+= 1 }
      }
      let b = p[idUpper &- 1]
      if b == 0x20 || b == 0x09 {
        while idLower < idUpper && (p[idUpper &- 1] == 0x20 || p[idUpper &- 1] == 0x09) {
          idUpper &-= 1
        }
      }
    }
    if t.end < t.start { note(line, timingEnd, "end time before start time") }
    if lower < upper && braces.next(lower, p, n) < upper {
      rewrite.append(cueCount)
    }
    let cue = Cue(
      idRange: Range(uncheckedBounds: (idLower, idUpper)),
      textRange: Range(uncheckedBounds: (lower, upper)), startTime: Double(t.start) / 1000,
      endTime: Double(t.end) / 1000, line: line)
    if cueCount < cueCapacity, let cueStorage {
      let slot = cueStorage + cueCount
      slot.initialize(to: cue)
      if alignment != 0 { slot.pointee.settings = SubRip.settings(forASSAlignment: alignment) }
    } else {
      var late = cue
      if alignment != 0 { late.settings = SubRip.settings(forASSAlignment: alignment) }
      overflow.append(late)
    }
    cueCount &+= 1
  }

  mutating func note(_ line: Int, _ offset: Int, _ reason: @autoclosure () -> String) {
    diagnostics.add(line: line, offset: offset, reason())
  }

  @inline(__always)
  static func isBlank(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
    var k = from
    while k < end {
      let c = p[k]
      if c != 0x20 && c != 0x09 { return false }
      k += 1
    }
    return true
  }

  /// Digits only, with optional spaces around them.
  @inline(__always)
  static func isNumber(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
    var k = from
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    let first = k
    while k < end && p[k] &- 0x30 < 10 { k += 1 }
    if k == first { return false }
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    return k == end
  }

  /// Parses `[spaces] TIMESTAMP [spaces] --> [spaces] TIMESTAMP [rest]`.
  func timingLine(_ from: Int, _ end: Int) -> Timing? {
    SRTParser.timingLine(p, from, end)
  }

  /// `timingLine(_:_:)` over `p`.
  static func timingLine(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Timing? {
    var k = from
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    guard k < end, p[k] &- 0x30 < 10 else { return nil }
    var t = Timing()
    let start: Int64
    let stop: Int64
    // The common `HH:MM:SS,mmm --> HH:MM:SS,mmm` with single spaces in word loads; anything
    // else through `timestamp`, which reads this form the same way.
    if k + 29 <= end,
      UInt64(littleEndian: UnsafeRawPointer(p + k + 12).loadUnaligned(as: UInt64.self))
        & 0xFF_FFFF_FFFF == 0x20_3E2D_2D20,
      let first = canonicalTimestamp(p, k, end), let second = canonicalTimestamp(p, k + 17, end)
    {
      start = first
      stop = second
      k += 29
    } else {
      guard let first = timestamp(p, &k, end, &t.flags) else { return nil }
      let before = k
      while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
      let spacedBefore = k == before + 1 && p[before] == 0x20
      guard k + 3 <= end, p[k] == 0x2D, p[k + 1] == 0x2D, p[k + 2] == 0x3E else { return nil }
      k += 3
      let after = k
      while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
      if !spacedBefore || k != after + 1 || p[after] != 0x20 { t.flags |= SRTParser.arrowSpacing }
      guard let second = timestamp(p, &k, end, &t.flags) else { return nil }
      start = first
      stop = second
    }
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    if k < end {
      // FFmpeg ignores what follows a timing line with milliseconds; Media3 reads no line with
      // text after the end time, and FFmpeg no timestamp without milliseconds: such a line
      // is no timing line then (`10:30 --> 11:45 meeting` in cue text stays text).
      guard t.flags & SRTParser.noMillis == 0 else { return nil }
      let c = p[k] | 0x20
      if (c == 0x78 || c == 0x79) && k + 2 < end && p[k + 2] == 0x3A {
        t.flags |= SRTParser.coordinates
      } else {
        t.flags |= SRTParser.trailing
      }
    }
    t.start = start
    t.end = stop
    return t
  }

  /// Reads one digit run; returns its value (saturated past 12 digits) and digit count.
  @inline(__always)
  static func digits(_ p: UnsafePointer<UInt8>, _ k: inout Int, _ end: Int) -> (
    value: Int64, count: Int
  ) {
    var value: Int64 = 0
    var count = 0
    while k < end {
      let d = p[k] &- 0x30
      if d >= 10 { break }
      if count < 12 { value = value &* 10 &+ Int64(d) }
      count += 1
      k += 1
    }
    return (value, count)
  }

  /// `HH:MM:SS,mmm` at `k` (with `k + 12 <= end`) not followed by a digit,
  /// in milliseconds; nil leaves the case to the general rules.
  @inline(__always)
  static func canonicalTimestamp(_ p: UnsafePointer<UInt8>, _ k: Int, _ end: Int) -> Int64? {
    let w = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self).littleEndian
    let digitsOnly: UInt64 = 0xFFFF_00FF_FF00_FFFF  // bytes 0 1 3 4 6 7
    let d = w & digitsOnly
    // Every digit byte is 0x30...0x39 (adding 6 keeps the high nibble 3 only for 0...9),
    // bytes 2 and 5 are ':'.
    let highNibbles: UInt64 = 0xF0F0_00F0_F000_F0F0
    let threes: UInt64 = 0x3030_0030_3000_3030
    guard d & highNibbles == threes, (d &+ 0x0606_0006_0600_0606) & highNibbles == threes,
      w & ~digitsOnly == 0x0000_3A00_003A_0000
    else { return nil }
    let v = d &- threes
    // Byte pairs to values: byte i becomes 10 x digit(i) + digit(i + 1).
    let pairs = (v &* 10) &+ (v >> 8)
    let hours = Int64(pairs & 0xFF)
    let minutes = Int64((pairs >> 24) & 0xFF)
    let seconds = Int64((pairs >> 48) & 0xFF)
    let separator = p[k + 8]
    let d9 = p[k + 9] &- 0x30
    let d10 = p[k + 10] &- 0x30
    let d11 = p[k + 11] &- 0x30
    guard
      minutes < 60 && seconds < 60 && separator == 0x2C && d9 < 10
        && d10 < 10 && d11 < 10 && (k + 12 == end || p[k + 12] &- 0x30 >= 10)
    else { return nil }
    let millis = Int64(d9) &* 100 &+ Int64(d10) &* 10 &+ Int64(d11)
    return ((hours &* 60 &+ minutes) &* 60 &+ seconds) &* 1000 &+ millis
  }

  /// `H…:M…:S…[,.]m…` (also `M…:S…[,.]m…`), in milliseconds: the union of what FFmpeg's SRT
  /// demuxer and Media3's `SubripParser` read. Every field is a run of digits of any width,
  /// read by its value (`013` seconds are 13 s, `75` seconds are 1 min 15 s, as both readers
  /// take them; the flags make each a diagnostic). Hours are optional (Media3), and so are the
  /// milliseconds (Media3); spaces may follow a `:` or the separator when both are present
  /// (FFmpeg). A field of more than 9 digits sets `absurdHours` or `absurdField`.
  @inline(__always)
  static func timestamp(
    _ p: UnsafePointer<UInt8>, _ k: inout Int, _ end: Int, _ flags: inout UInt16
  ) -> Int64? {
    // The canonical `HH:MM:SS,mmm` first, eight bytes at a time in one 64-bit word; then
    // `HHH:MM:SS,mmm` (hours from 100 on) as the hundreds digit and the canonical form.
    if k + 12 <= end, let millis = canonicalTimestamp(p, k, end) {
      k += 12
      return millis
    }
    if k + 13 <= end, p[k + 3] == 0x3A, p[k] &- 0x30 < 10,
      let millis = canonicalTimestamp(p, k + 1, end)
    {
      let hundreds = Int64(p[k] &- 0x30)
      k += 13
      return hundreds &* 360_000_000 &+ millis
    }
    var spaced = false
    let first = digits(p, &k, end)
    guard first.count > 0, k < end, p[k] == 0x3A else { return nil }
    k += 1
    spaced = skipSpaces(p, &k, end) || spaced
    let second = digits(p, &k, end)
    guard second.count > 0 else { return nil }
    var hours: Int64 = 0
    var minutes = first
    var seconds = second
    if k < end && p[k] == 0x3A {
      k += 1
      spaced = skipSpaces(p, &k, end) || spaced
      let third = digits(p, &k, end)
      guard third.count > 0 else { return nil }
      if first.count > 9 {
        flags |= SRTParser.absurdHours
      } else {
        hours = first.value
      }
      minutes = second
      seconds = third
    } else {
      flags |= SRTParser.noHours
    }
    if minutes.count > 9 || seconds.count > 9 {
      flags |= SRTParser.absurdField
    } else if minutes.count != 2 || seconds.count != 2 {
      flags |= SRTParser.fieldWidth
    }
    if minutes.value >= 60 || seconds.value >= 60 { flags |= SRTParser.outOfRange }
    var millis: Int64 = 0
    if k < end && (p[k] == 0x2C || p[k] == 0x2E) {
      if p[k] == 0x2E { flags |= SRTParser.dotSeparator }
      k += 1
      spaced = skipSpaces(p, &k, end) || spaced
      let m = digits(p, &k, end)
      guard m.count > 0 else { return nil }
      if m.count < 3 {
        flags |= SRTParser.shortMillis
      } else if m.count > 9 {
        flags |= SRTParser.absurdField
      } else if m.count > 3 {
        flags |= SRTParser.longMillis
      }
      millis = m.value
    } else {
      flags |= SRTParser.noMillis
    }
    if spaced {
      // Only FFmpeg reads spaces inside a timestamp, and only in its full form.
      guard flags & (SRTParser.noHours | SRTParser.noMillis) == 0 else { return nil }
      flags |= SRTParser.innerSpaces
    }
    return ((hours &* 60 &+ minutes.value) &* 60 &+ seconds.value) &* 1000 &+ millis
  }

  /// Skips spaces and tabs at `k`; whether there were any.
  @inline(__always)
  static func skipSpaces(_ p: UnsafePointer<UInt8>, _ k: inout Int, _ end: Int) -> Bool {
    let start = k
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    return k != start
  }
}
