/// The one-pass SRT state machine over `\n`-separated bytes.
struct SRTParser {
  /// The input, read through a view that asserts its bounds in debug builds.
  let p: ByteView
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
  /// The index of the last cue stored, while text after it may still join it (-1: none, or the
  /// last timing line's cue was skipped).
  var lastCue = -1
  /// The last cue that text after a blank line joined (its one diagnostic is written).
  var joinedCue = -1
  /// Where joined text left blank lines (or a lone cue number) between a cue's lines: each gap
  /// becomes one line feed once parsing is done (`SubRip.joinParagraphs`).
  var joins: [Join] = []

  /// A gap in the text of cue `cue`: `gap` (from the line feed that ends one text line to the
  /// start of the next) is to become a single line feed.
  struct Join {
    var cue: Int
    var gap: Range<Int>
  }

  /// What a run produced, without the pointers it used. `cues` is filled in by the caller
  /// from the storage and `overflow`.
  struct Output {
    var cues: [Cue] = []
    var overflow: [Cue] = []
    var diagnostics = DiagnosticLog()
    var rewrite: [Int] = []
    var sawText = false
    var joins: [Join] = []
  }

  var output: Output {
    Output(
      overflow: overflow, diagnostics: diagnostics, rewrite: rewrite, sawText: sawText,
      joins: joins)
  }

  /// Where the general state machine is between cues.
  enum State {
    /// After blank lines (or at the start).
    case between
    /// After a cue number line, waiting for its timing line.
    case afterNumber
    /// In text that joins the last cue after a blank line.
    case inCue
    /// In text before any cue (or after a skipped one), skipped.
    case garbage
  }

  /// What a timing line said, plus the irregularities found in it.
  struct Timing {
    var start: Int64 = 0
    var end: Int64 = 0
    var flags: UInt16 = 0
  }

  // The bits of `Timing.flags`, one per repair (these lines differ only in name and value).
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
  init(_ input: ByteView, cues: UnsafeMutablePointer<Cue>? = nil, capacity: Int = 0) {
    p = input
    cueStorage = cues
    cueCapacity = cues == nil ? 0 : capacity
  }

  /// Where `run` is in the input: the next line to read, its number, and the cue number line
  /// that waits for its timing line.
  struct Position {
    var state = State.between
    /// Index of the next line's first byte.
    var i: Int
    /// 1-based number of the line at `i`.
    var line = 1
    /// The cue number line read in state `afterNumber`, and its line number.
    var pendingId = 0..<0
    var pendingLine = 0
    /// The cue number the next cue should have.
    var expected = 1
    /// The number a cue skipped for its lost timing line had (-1: none since the last cue):
    /// the next cue may have it too (a stray number line before cue 1 and cue 1), which is not
    /// out of sequence.
    var skipped = -1
  }

  /// A cue whose timing line is read: its times, its number's range, the line number and end
  /// of its timing line.
  struct CueHead {
    var timing: Timing
    var id: Range<Int>
    var line: Int
    var timingEnd: Int
  }

  /// The text lines of one cue as `cueText` found them, and the timing line that ended them,
  /// if any (a missing blank line).
  struct CueBody {
    var textStart = -1
    var textEnd = 0
    var previousTextEnd = 0
    var lastLineIsNumber = false
    var lastLineStart = 0
    var next: Timing? = nil
    var nextEnd = 0
  }

  /// Parses `p[start..<n]`.
  ///
  /// The common cue (a number line, a canonical timing line, text lines, a blank line) is read
  /// by a fast path (`numberedCue`) that tests the number and timing lines in word loads,
  /// without the line search; anything else goes through the general state machine
  /// (`generalLine`), which reads it the same way. A cue's text lines are read by `cueTexts`.
  mutating func run(_ start: Int, _ n: Int) {
    assert(n <= p.count, "parsing past the input")
    var lines = LineCursor(p.base, n, arrows: false)
    var braces = BraceCache()
    var at = Position(i: start)
    while at.i < n {
      let head: CueHead?
      if at.state != .afterNumber, let number = SRTParser.numberLine(p, at.i, n) {
        head = numberedCue(number, &at, n)
      } else {
        head = generalLine(&at, &lines)
      }
      guard let head else { continue }
      // A cue: its timing line is done; read text lines until a blank line, the end, or a
      // timing line (which starts the next cue at once).
      at.state = .between
      cueTexts(head, &at, &lines, &braces, n)
    }
    if at.state == .afterNumber { skipPending(&at) }
  }

  /// Notes that the pending cue number has no timing line; when it is the number the next cue
  /// should have, the cue after it should have the next one.
  mutating func skipPending(_ at: inout Position) {
    note(at.pendingLine, at.pendingId.lowerBound, "cue number without a timing line skipped")
    if SRTParser.bareNumber(p, at.pendingId.lowerBound, at.pendingId.upperBound) == at.expected {
      at.skipped = at.expected
      at.expected &+= 1
    }
  }

  /// The cue number line `number` at `at.i`: with a canonical timing line after it, the cue
  /// (both lines read); otherwise nil, with the number pending for the general loop.
  @inline(__always)
  mutating func numberedCue(
    _ number: (end: Int, value: Int), _ at: inout Position, _ n: Int
  ) -> CueHead? {
    // A cue number line: the general loop would take it as the pending cue number.
    sawText = true
    let i = at.i
    let j = number.end &+ 1
    guard let fast = SRTParser.canonicalTimingLine(p, j, n) else {
      at.pendingId = i..<number.end
      at.pendingLine = at.line
      at.state = .afterNumber
      at.i = j
      at.line &+= 1
      return nil
    }
    let head = CueHead(
      timing: Timing(start: fast.start, end: fast.end, flags: 0), id: i..<number.end,
      line: at.line &+ 1, timingEnd: fast.eol)
    // `begin` for a number of at most 7 digits and a timing line with nothing repaired.
    if number.value != at.expected && number.value != at.skipped {
      note(at.line, i, "cue number \(number.value) out of sequence (expected \(at.expected))")
    }
    at.expected = number.value &+ 1
    at.skipped = -1
    at.i = fast.eol &+ 1
    at.line &+= 2
    return head
  }

  /// One line between cues (blank lines, a cue number, a timing line, or text to skip) read by
  /// the general state machine: the cue it starts, if it is a timing line.
  ///
  /// Not inlined: it is the rare path (the corpus's cues all take `numberedCue`), and inlined it
  /// made `run` too large for the compiler to inline `cueTexts`, the hot path, into it.
  @inline(never)
  mutating func generalLine(
    _ at: inout Position, _ lines: inout LineCursor
  ) -> CueHead? {
    var i = at.i
    let eol = lines.line(from: i).end
    if eol &- i > 3 && SRTParser.isBOM(p, i)
      && (SRTParser.isNumber(p, i &+ 3, eol) || SRTParser.timingLine(p, i &+ 3, eol) != nil)
    {
      // A byte order mark before a cue's number or timing line: files joined with `cat`,
      // each with its mark. The mark starts a file, not text of the cue before it.
      note(at.line, i, "byte order mark inside the file (files joined?) ignored")
      i &+= 3
    }
    let blank = SRTParser.isBlank(p, i, eol)
    if !blank { sawText = true }
    var timing: Timing? = nil
    var timingId = 0..<0
    switch at.state {
    case .afterNumber:
      if let found = SRTParser.timingLine(p, i, eol) {
        timing = found
        timingId = at.pendingId
      } else if SRTParser.isNumber(p, i, eol) {
        skipPending(&at)
        at.pendingId = i..<eol
        at.pendingLine = at.line
      } else if SRTParser.isDamagedTiming(p, i, eol, afterNumber: true) {
        // A number line, then what was meant as its timing line (an arrow, or a bare
        // timestamp where the file was cut short): a cue whose times cannot be read, skipped
        // with its text, never shown as text of the cue before it.
        note(at.line, i, "cue with an unreadable timing line skipped")
        lastCue = -1
        at.state = .garbage
      } else if !blank && lastCue >= 0
        && SRTParser.bareNumber(p, at.pendingId.lowerBound, at.pendingId.upperBound)
          == at.expected
      {
        // The number the next cue should have, then text: a cue whose timing line is lost,
        // skipped with its text (as Media3's and VLC's readers skip it; FFmpeg's shows the
        // number and text as more text of the cue before).
        note(
          at.pendingLine, at.pendingId.lowerBound,
          "cue number without a timing line skipped with its text")
        at.skipped = at.expected
        at.expected &+= 1
        lastCue = -1
        at.state = .garbage
      } else if !blank && lastCue >= 0 {
        // Another number line and text, no timing line: both are text of the last cue.
        join(at.pendingId.lowerBound, eol, line: at.pendingLine)
        at.state = .inCue
      } else {
        skipPending(&at)
        if !blank { note(at.line, i, "text outside a cue skipped") }
        at.state = blank ? .between : .garbage
      }
    case .between, .garbage, .inCue:
      if blank {
        at.state = .between
      } else if SRTParser.isNumber(p, i, eol) {
        // Digits alone are never a timing line: test for the common cue number first.
        at.pendingId = i..<eol
        at.pendingLine = at.line
        at.state = .afterNumber
      } else if let found = SRTParser.timingLine(p, i, eol) {
        timing = found
      } else if at.state != .inCue && SRTParser.isDamagedTiming(p, i, eol, afterNumber: false) {
        // A timing line that cannot be read, after a blank line: its cue is skipped with its
        // text, not joined to the cue before it.
        note(at.line, i, "cue with an unreadable timing line skipped")
        lastCue = -1
        at.state = .garbage
      } else if lastCue >= 0 {
        // Cues end at the next cue's number and timing line, not at a blank line: text after
        // one is the last cue's (as FFmpeg's demuxer reads it).
        join(i, eol, line: at.line)
        at.state = .inCue
      } else if at.state == .between {
        note(at.line, i, "text outside a cue skipped")
        at.state = .garbage
      }
    }
    at.i = eol + 1
    at.line += 1
    guard let timing else { return nil }
    let head = CueHead(timing: timing, id: timingId, line: at.line - 1, timingEnd: eol)
    begin(timing, timingId, head.line, i, &at.expected, &at.skipped)
    return head
  }

  /// The cue `head` and any cues that follow it without a blank line: reads each one's text
  /// lines and stores it.
  @inline(__always)
  mutating func cueTexts(
    _ head: CueHead, _ at: inout Position, _ lines: inout LineCursor,
    _ braces: inout BraceCache, _ n: Int
  ) {
    var head = head
    while true {
      var body = cueText(&at, &lines, n)
      var nextId = 0..<0
      if body.next != nil && body.lastLineIsNumber {
        // The last text line (ending at `textEnd`) is the next cue's number.
        nextId = body.lastLineStart..<body.textEnd
        body.textEnd = body.previousTextEnd
        if body.textStart == body.lastLineStart { body.textStart = -1 }
      } else if body.next != nil, let mark = joinedFileMark(body) {
        // `cat` of a file that ends without a line break and one that starts with a byte
        // order mark: the last line is text, the mark, then the next cue's number.
        note(at.line &- 1, mark, "byte order mark inside the file (files joined?) ignored")
        nextId = (mark &+ 3)..<body.textEnd
        if mark == body.lastLineStart {
          body.textEnd = body.previousTextEnd
          if body.textStart == body.lastLineStart { body.textStart = -1 }
        } else {
          body.textEnd = mark
        }
      }
      if body.lastLineIsNumber && body.textStart >= 0 {
        dropLostNumber(&body, nextId, &at, n)
      }
      finish(
        head.timing, head.id, head.line, head.timingEnd, body.textStart, body.textEnd, n, &braces)
      guard let found = body.next else { break }
      note(at.line, at.i, "missing blank line: a timing line starts a new cue")
      begin(found, nextId, at.line, at.i, &at.expected, &at.skipped)
      head = CueHead(timing: found, id: nextId, line: at.line, timingEnd: body.nextEnd)
      at.i = body.nextEnd &+ 1
      at.line &+= 1
    }
  }

  /// Drops the last text line of `body` when it is a cue number whose timing line is lost: the
  /// number the next cue should have (`at.expected`), one less than the next cue's number (the
  /// line `nextId` before a timing line, or the first line after the blank lines that end the
  /// text), after another text line of the cue. `A`, `2`, then `3` and a timing line is the cue
  /// `A` and cue 3; cue 2 lost its timing line and text. A cue whose only text is a number, or a
  /// number the next cue also has, keeps it. Read only when the last line held a number.
  @inline(never)
  mutating func dropLostNumber(
    _ body: inout CueBody, _ nextId: Range<Int>, _ at: inout Position, _ n: Int
  ) {
    let end = body.textEnd
    var start = end
    while start > body.textStart && p[start &- 1] != 0x0A { start &-= 1 }
    guard start > body.textStart, let value = SRTParser.bareNumber(p, start, end),
      value == at.expected
    else { return }
    let next: Int?
    if body.next != nil {
      next = SRTParser.bareNumber(p, nextId.lowerBound, nextId.upperBound)
    } else {
      next = nextNumber(from: at.i, n)
    }
    guard next == value &+ 1 else { return }
    // The line's number: `at.line` is the line at `at.i` (past the end: one more).
    var line = at.line
    var k = start
    while k < min(at.i, n) {
      if p[k] == 0x0A { line &-= 1 }
      k &+= 1
    }
    if at.i > n { line &-= 1 }
    note(line, start, "cue number without a timing line skipped")
    at.expected = value &+ 1
    body.textEnd = start &- 1
  }

  /// The number on the first line at or after `from` that is not blank, if that line is a
  /// number alone.
  func nextNumber(from: Int, _ n: Int) -> Int? {
    var i = from
    while i < n {
      let eol = ByteScanner.findMemchr(0x0A, p.base, i, n)
      if !SRTParser.isBlank(p, i, eol) { return SRTParser.bareNumber(p, i, eol) }
      i = eol &+ 1
    }
    return nil
  }

  /// Where the last text line of `body` holds a byte order mark followed by digits alone (the
  /// mark and number that start a joined file), or nil. Read only when a timing line follows.
  @inline(never)
  func joinedFileMark(_ body: CueBody) -> Int? {
    guard body.textStart >= 0 else { return nil }
    var k = body.textEnd
    while k > body.lastLineStart && (p[k &- 1] == 0x20 || p[k &- 1] == 0x09) { k &-= 1 }
    let digitsEnd = k
    while k > body.lastLineStart && p[k &- 1] &- 0x30 < 10 { k &-= 1 }
    guard k < digitsEnd, k &- body.lastLineStart >= 3, SRTParser.isBOM(p, k &- 3) else {
      return nil
    }
    return k &- 3
  }

  /// The text lines of one cue from `at.i`: up to a blank line (read), the end, or a timing
  /// line (not read: `next` holds it).
  @inline(__always)
  mutating func cueText(
    _ at: inout Position, _ lines: inout LineCursor, _ n: Int
  ) -> CueBody {
    let p = self.p
    var body = CueBody()
    var i = at.i
    var line = at.line
    defer {
      at.i = i
      at.line = line
    }
    while i < n {
      let first = p[i]
      if first == 0x0A {
        i &+= 1
        line &+= 1
        break
      }
      let e = lines.line(from: i).end
      let spaced = first == 0x20 || first == 0x09
      if spaced && SRTParser.isBlank(p, i &+ 1, e) {
        i = e &+ 1
        line &+= 1
        break
      }
      // (`sawText` is already set: by the timing line.)
      if first &- 0x30 < 10 || spaced {
        if let found = SRTParser.timingLine(p, i, e) {
          body.next = found
          body.nextEnd = e
          break
        }
        body.lastLineIsNumber = SRTParser.isNumber(p, i, e)
      } else {
        body.lastLineIsNumber = false
      }
      if body.textStart < 0 { body.textStart = i }
      body.previousTextEnd = body.textEnd
      body.textEnd = e
      body.lastLineStart = i
      i = e &+ 1
      line &+= 1
    }
    return body
  }

  /// Reports what the timing line had to have repaired and checks the cue number.
  @inline(__always)
  mutating func begin(
    _ t: Timing, _ id: Range<Int>, _ line: Int, _ offset: Int, _ expected: inout Int,
    _ skipped: inout Int
  ) {
    defer { skipped = -1 }
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
      if value != expected && value != skipped || digits > 18 {
        note(line - 1, id.lowerBound, "cue number \(value) out of sequence (expected \(expected))")
      }
      expected = value &+ 1
    }
    if t.flags != 0 { timingNotes(t, line, offset) }
  }

  /// One diagnostic per flag of `t`, in the order the type documentation lists the repairs.
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
    let repairs: [(flag: UInt16, reason: String)] = [
      (SRTParser.noHours, "timestamp without hours read as MM:SS"),
      (SRTParser.fieldWidth, "minutes or seconds not two digits wide\(readAs)"),
      (SRTParser.shortMillis, "fewer than 3 millisecond digits, read as milliseconds"),
      (SRTParser.longMillis, "more than 3 millisecond digits, read as milliseconds\(readAs)"),
      (SRTParser.noMillis, "timestamp without milliseconds"),
      (SRTParser.outOfRange, "minutes or seconds of 60 or more, added as given\(readAs)"),
      (SRTParser.dotSeparator, "'.' before the milliseconds read as ','"),
      (SRTParser.arrowSpacing, "spacing around '-->' other than one space on each side"),
      (SRTParser.innerSpaces, "spaces inside a timestamp ignored"),
      (SRTParser.coordinates, "X1/X2/Y1/Y2 coordinates ignored"),
      (SRTParser.trailing, "text after the end time ignored"),
    ]
    for repair in repairs where f & repair.flag != 0 { note(line, offset, repair.reason) }
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
    mutating func next(_ at: Int, _ p: ByteView, _ n: Int) -> Int {
      if at >= from && at <= hit { return hit }
      hit = ByteScanner.findMemchr(0x7B, p.base, at, n)
      from = at
      return hit
    }
  }

  @inline(__always)
  mutating func finish(
    _ t: Timing, _ id: Range<Int>, _ line: Int, _ timingEnd: Int, _ textStart: Int,
    _ textEnd: Int, _ n: Int, _ braces: inout BraceCache
  ) {
    if t.flags & (SRTParser.absurdHours | SRTParser.absurdField) != 0 {
      lastCue = -1
      return
    }
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
    lastCue = cueCount
    cueCount &+= 1
  }

  /// Adds the lines `p[start..<end]`, found after a blank line, to the text of the last cue
  /// (after a line break when it has text), with one diagnostic per cue so joined.
  @inline(never)
  mutating func join(_ start: Int, _ end: Int, line: Int) {
    let index = lastCue
    var cue: Cue
    if index < cueCapacity, let cueStorage {
      cue = cueStorage[index]
    } else {
      cue = overflow[index - cueCapacity]
    }
    if cue.textRange.isEmpty {
      cue.textRange = start..<end
    } else {
      let gap = cue.textRange.upperBound..<start
      if gap.count > 1 { joins.append(Join(cue: index, gap: gap)) }
      cue.textRange = cue.textRange.lowerBound..<end
    }
    if rewrite.last != index && ByteScanner.findMemchr(0x7B, p.base, start, end) < end {
      rewrite.append(index)
    }
    if index < cueCapacity, let cueStorage {
      cueStorage[index] = cue
    } else {
      overflow[index - cueCapacity] = cue
    }
    if joinedCue != index {
      joinedCue = index
      note(line, start, "text after a blank line joined to the cue before it")
    }
  }

  /// Adds a diagnostic. Not inlined, so the callers' hot loops do not carry the building of
  /// every message.
  @inline(never)
  mutating func note(_ line: Int, _ offset: Int, _ reason: @autoclosure () -> String) {
    diagnostics.add(line: line, offset: offset, reason())
  }

  @inline(__always)
  static func isBlank(_ p: ByteView, _ from: Int, _ end: Int) -> Bool {
    var k = from
    while k < end {
      let c = p[k]
      if c != 0x20 && c != 0x09 { return false }
      k += 1
    }
    return true
  }

  /// Whether `p[at...]` starts with the UTF-8 byte order mark (U+FEFF). `at + 3` must be in
  /// bounds.
  @inline(__always)
  static func isBOM(_ p: ByteView, _ at: Int) -> Bool {
    p[at] == 0xEF && p[at &+ 1] == 0xBB && p[at &+ 2] == 0xBF
  }

  /// Whether `p[from..<end]`, which is no timing line, was meant as one: it starts with a digit
  /// and holds an arrow (`-->` damaged, or `->`); right after a cue number, a bare timestamp
  /// (digits, `:`, `,` and `.` only, with a `:`) also counts, as in a file cut short after it.
  /// Text such as `42` then `10:30 tomorrow` is not.
  static func isDamagedTiming(_ p: ByteView, _ from: Int, _ end: Int, afterNumber: Bool) -> Bool {
    var k = from
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    guard k < end, p[k] &- 0x30 < 10 else { return false }
    var colon = false
    var timestampOnly = true
    var previous: UInt8 = 0
    while k < end {
      let c = p[k]
      if c == 0x3E && previous == 0x2D { return true }
      if c == 0x3A { colon = true }
      let allowed =
        c &- 0x30 < 10 || c == 0x3A || c == 0x2C || c == 0x2E || c == 0x20
        || c == 0x09 || c == 0x0D
      if !allowed { timestampOnly = false }
      previous = c
      k += 1
    }
    return afterNumber && timestampOnly && colon
  }

  /// The value of `p[from..<end]` when it is digits only (at most 18), with optional spaces
  /// around them; nil otherwise.
  static func bareNumber(_ p: ByteView, _ from: Int, _ end: Int) -> Int? {
    guard isNumber(p, from, end) else { return nil }
    var value = 0
    var digits = 0
    for k in from..<end where p[k] &- 0x30 < 10 {
      value = value &* 10 &+ Int(p[k] &- 0x30)
      digits &+= 1
    }
    return digits <= 18 ? value : nil
  }

  /// Digits only, with optional spaces around them.
  @inline(__always)
  static func isNumber(_ p: ByteView, _ from: Int, _ end: Int) -> Bool {
    var k = from
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    let first = k
    while k < end && p[k] &- 0x30 < 10 { k += 1 }
    if k == first { return false }
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    return k == end
  }
}
