// Deterministic subtitle inputs of a requested size, realistic and pathological.

/// The input shapes of the parsing part.
enum Shape: String, CaseIterable {
  /// Subtitles as people write them: one or two lines, some markup, accents and other scripts,
  /// WebVTT settings and identifiers now and then.
  case realistic
  /// One cue whose text is a single line without any newline up to the end of the file.
  case longLine = "long-line"
  /// One cue whose text is `<b>` over and over (nesting as deep as the input is long).
  case nested
  /// One valid cue, then lines that look like timing lines (`-->` and broken timestamps), a
  /// blank line after every third.
  case garbage
  /// The smallest cues there are, one after another.
  case tiny

  var what: String {
    switch self {
    case .realistic: return "realistic cues"
    case .longLine: return "one line, no newline"
    case .nested: return "<b> nesting, one cue"
    case .garbage: return "'-->' garbage lines"
    case .tiny: return "many tiny cues"
    }
  }
}

/// A linear congruential generator: the same inputs on every run.
struct Generator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 33
  }
  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

extension Array where Element == UInt8 {
  mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { append(contentsOf: $0) }
  }

  mutating func append(digits value: Int, width: Int) {
    var divisor = 1
    for _ in 1..<width { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      append(UInt8(48 + (rest / divisor) % 10))
      rest %= divisor
      divisor /= 10
    }
  }

  /// `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (WebVTT).
  mutating func append(timestamp milliseconds: Int, srt: Bool) {
    append(digits: milliseconds / 3_600_000, width: 2)
    append(0x3A)
    append(digits: milliseconds / 60_000 % 60, width: 2)
    append(0x3A)
    append(digits: milliseconds / 1000 % 60, width: 2)
    append(srt ? 0x2C : 0x2E)
    append(digits: milliseconds % 1000, width: 3)
  }

  mutating func append(timing start: Int, _ end: Int, srt: Bool) {
    append(timestamp: start, srt: srt)
    append(" --> ")
    append(timestamp: end, srt: srt)
  }
}

private let words: [[UInt8]] = [
  "the", "I", "you", "we", "know", "never", "tonight", "station", "café", "naïve", "über",
  "señor", "déjà", "vu", "Привет", "мир", "日本語", "字幕", "مرحبا", "שלום", "right", "now",
  "wait", "what", "is", "that", "sound", "…", "—", "okay", "Captain", "engine", "room", "door",
].map { Array($0.utf8) }

private let garbageLines: [StaticString] = [
  "-->", "--> --> -->", "00:00:01,000 -->", "--> 00:00:02,000", "00:00:01,000 --> 00:00:0x,000",
  "00:00:01.000 -- > 00:00:02.000", "99:99:99,999 --> 99:99:99,999 x",
  "-->-->-->-->-->-->-->-->", "1 --> 2", "a-->b", "00:00:01.000 -->00:00:02.000 line:-->",
  "00:00:01:00:00,000 --> 00:00:02,000",
]

/// An input of `shape` in SRT (`srt`) or WebVTT of about `size` bytes (never more).
func makeInput(_ shape: Shape, srt: Bool, size: Int) -> [UInt8] {
  var out: [UInt8] = []
  out.reserveCapacity(size + 256)
  if !srt { out.append("WEBVTT\n\n") }
  var rng = Generator(state: 0x5EED_0000 &+ UInt64(size))
  switch shape {
  case .realistic:
    var index = 1
    var time = 1000
    var cue: [UInt8] = []
    while true {
      cue.removeAll(keepingCapacity: true)
      let duration = 800 + rng.below(4000)
      if srt {
        cue.append(digits: index, width: String(index).count)
        cue.append(0x0A)
      } else if rng.below(5) == 0 {
        cue.append("cue-")
        cue.append(digits: index, width: String(index).count)
        cue.append(0x0A)
      }
      cue.append(timing: time, time + duration, srt: srt)
      if !srt && rng.below(4) == 0 { cue.append(" line:85% align:center size:80%") }
      cue.append(0x0A)
      for line in 0..<(1 + rng.below(2)) {
        if line == 1 { cue.append(0x0A) }
        let italic = rng.below(6) == 0
        if italic { cue.append("<i>") }
        if line == 1 && rng.below(3) == 0 { cue.append("- ") }
        for w in 0..<(3 + rng.below(6)) {
          if w > 0 { cue.append(0x20) }
          cue.append(contentsOf: words[rng.below(words.count)])
        }
        cue.append(rng.below(3) == 0 ? 0x3F : 0x2E)
        if italic { cue.append("</i>") }
      }
      cue.append("\n\n")
      guard out.count + cue.count <= size else { break }
      out.append(contentsOf: cue)
      index += 1
      time += duration + 200 + rng.below(1500)
    }
  case .longLine:
    if srt { out.append("1\n") }
    out.append(timing: 1000, 2000, srt: srt)
    out.append(0x0A)
    while out.count < size {
      let word = words[rng.below(words.count)]
      guard out.count + word.count + 1 <= size else { break }
      out.append(contentsOf: word)
      out.append(0x20)
    }
  case .nested:
    if srt { out.append("1\n") }
    out.append(timing: 1000, 2000, srt: srt)
    out.append(0x0A)
    while out.count + 4 <= size { out.append("<b>") }
    out.append(0x0A)
  case .garbage:
    if srt { out.append("1\n") }
    out.append(timing: 1000, 2000, srt: srt)
    out.append("\nvalid\n\n")
    var n = 0
    while true {
      let line = garbageLines[n % garbageLines.count]
      let extra = n % 3 == 2 ? 2 : 1
      guard out.count + line.utf8CodeUnitCount + extra <= size else { break }
      out.append(line)
      out.append(extra == 2 ? "\n\n" : "\n")
      n += 1
    }
  case .tiny:
    var index = 1
    while true {
      let needed = (srt ? String(index).count + 1 : 0) + 29 + 4
      guard out.count + needed <= size else { break }
      if srt {
        out.append(digits: index, width: String(index).count)
        out.append(0x0A)
      }
      out.append(timing: index, index + 1, srt: srt)
      out.append("\na\n\n")
      index += 1
    }
  }
  return out
}
