/// The SRT timing readers: the word-at-a-time readers of the canonical number and timing
/// lines, and the general reader of every timestamp form the parser accepts.
extension SRTParser {
  /// A cue number line at `i`: one to seven digits, then LF, read as one 64-bit word (nil when
  /// `i + 8 > n` or the line is anything else; the general loop reads it then). The value is
  /// that of the digits.
  @inline(__always)
  static func numberLine(_ p: ByteView, _ i: Int, _ n: Int) -> (end: Int, value: Int)? {
    guard i &+ 8 <= n else { return nil }
    let w = p.load(at: i)
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
  static func canonicalTimingLine(_ p: ByteView, _ j: Int, _ n: Int) -> (
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
  ///
  /// A fused kernel, kept on purpose beside `TimestampWord.read` (which reads one timestamp):
  /// the cue-number fast path tests the whole line, arrow and line feed included, in these
  /// four loads. Tested against `timingLine`.
  @inline(__always)
  static func canonicalStamps(_ p: ByteView, _ a: Int, _ b: Int) -> (
    start: Int64, end: Int64, eol: Int
  )? {
    let w0 = p.load(at: a)
    let w1 = p.load(at: a &+ 8)
    let w2 = p.load(at: b)
    let w3 = p.load(at: b &+ 5)
    // Per word: the bytes that must equal a value (`:`, `,`, the arrow, LF) and the high
    // nibbles of digits (3); then the low nibbles of digits, which carry into the high nibble
    // when over 9 (over 5 for tens of minutes and seconds).
    // w0, w2: `HH:MM:SS`; w1: `,mmm -->`; w3: `:SS,mmm` LF. The three groups of constants
    // below look alike on purpose: one group per word layout, only their values differ.
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

  /// Parses `[spaces] TIMESTAMP [spaces] --> [spaces] TIMESTAMP [rest]`.
  func timingLine(_ from: Int, _ end: Int) -> Timing? {
    SRTParser.timingLine(p, from, end)
  }

  /// `timingLine(_:_:)` over `p`.
  static func timingLine(_ p: ByteView, _ from: Int, _ end: Int) -> Timing? {
    var k = from
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    guard k < end, p[k] &- 0x30 < 10 else { return nil }
    var t = Timing()
    let start: Int64
    let stop: Int64
    // The common `HH:MM:SS,mmm --> HH:MM:SS,mmm` with single spaces in word loads; anything
    // else through `timestamp`, which reads this form the same way.
    if k + 29 <= end,
      p.load(at: k + 12)
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
  static func digits(_ p: ByteView, _ k: inout Int, _ end: Int) -> (
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
  static func canonicalTimestamp(_ p: ByteView, _ k: Int, _ end: Int) -> Int64? {
    assert(k + 12 <= end, "canonicalTimestamp past the end")
    guard let millis = TimestampWord.read(p.pointer(at: k, reading: 12), at: 0, separator: 0x2C),
      k + 12 == end || p[k + 12] &- 0x30 >= 10
    else { return nil }
    return millis
  }

  /// `H…:M…:S…[,.]m…` (also `M…:S…[,.]m…`), in milliseconds: the union of what FFmpeg's SRT
  /// demuxer and Media3's `SubripParser` read. Every field is a run of digits of any width,
  /// read by its value (`013` seconds are 13 s, `75` seconds are 1 min 15 s, as both readers
  /// take them; the flags make each a diagnostic). Hours are optional (Media3), and so are the
  /// milliseconds (Media3); spaces may follow a `:` or the separator when both are present
  /// (FFmpeg). A field of more than 9 digits sets `absurdHours` or `absurdField`.
  @inline(__always)
  static func timestamp(
    _ p: ByteView, _ k: inout Int, _ end: Int, _ flags: inout UInt16
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
  static func skipSpaces(_ p: ByteView, _ k: inout Int, _ end: Int) -> Bool {
    let start = k
    while k < end && (p[k] == 0x20 || p[k] == 0x09) { k += 1 }
    return k != start
  }
}
