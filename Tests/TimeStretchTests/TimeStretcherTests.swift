import Testing

@testable import TimeStretch

/// Streams `input` through a stretcher with random push and pull sizes.
func streamed(
  _ input: [Float], channels: Int, sampleRate: Int, speed: Double, seed: UInt64,
  quality: TimeStretcher.Quality = .standard
) throws -> [Float] {
  var s = try TimeStretcher(
    sampleRate: sampleRate, channels: channels, speed: speed, quality: quality)
  var rng = SeededGenerator(seed: seed)
  let frames = input.count / channels
  var out: [Float] = []
  var buffer = [Float](repeating: 0, count: 3000 * channels)
  var pos = 0
  while pos < frames {
    let n = min(frames - pos, Int(rng.next() % 1500) + 1)
    s.push(Array(input[(pos * channels)..<((pos + n) * channels)]), frames: n)
    pos += n
    let want = Int(rng.next() % 3000) + 1
    let got = s.pull(into: &buffer, maxFrames: want)
    out += buffer[0..<(got * channels)]
  }
  s.finish()
  while true {
    let got = s.pull(into: &buffer, maxFrames: Int(rng.next() % 700) + 1)
    if got == 0 { break }
    out += buffer[0..<(got * channels)]
  }
  return out
}

@Test(arguments: [0.5, 1.0, 1.5, 2.7])
func blockSizesDoNotChangeTheOutput(speed: Double) throws {
  let input = mixture(sampleRate: 16_000, frames: 12_000, channels: 2, clickEvery: 2100, seed: 7)
  var whole = try TimeStretcher(sampleRate: 16_000, channels: 2, speed: speed)
  let expected = whole.process(input: input)
  let a = try streamed(input, channels: 2, sampleRate: 16_000, speed: speed, seed: 1)
  let b = try streamed(input, channels: 2, sampleRate: 16_000, speed: speed, seed: 99)
  #expect(a == expected)
  #expect(b == expected)
}

@Test(arguments: [0.1, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0, 10.0])
func outputLengthIsExact(speed: Double) throws {
  for frames in [0, 1, 999, 6007] {
    var s = try TimeStretcher(sampleRate: 8000, channels: 1, speed: speed)
    let input = sine(frequency: 300, sampleRate: 8000, frames: frames)
    let out = s.process(input: input)
    #expect(out.count == Int((Double(frames) / speed).rounded()), "frames \(frames)")
  }
}

@Test func badParametersThrow() {
  do {
    _ = try TimeStretcher(sampleRate: 44_100, channels: 2, speed: .nan)
    Issue.record("NaN accepted")
  } catch {
    guard case .speedOutOfRange(let v, let r) = error else {
      Issue.record("wrong error \(error)")
      return
    }
    #expect(v.isNaN && r == 0.1...10)
  }
  for speed in [0, -1, Double.infinity, -Double.infinity, 1e9, 0.05, 11] {
    #expect(throws: StretchError.speedOutOfRange(speed, supported: 0.1...10)) {
      _ = try TimeStretcher(sampleRate: 44_100, channels: 2, speed: speed)
    }
  }
  #expect(throws: StretchError.sampleRateOutOfRange(0, supported: 4000...192_000)) {
    _ = try TimeStretcher(sampleRate: 0, channels: 2, speed: 1)
  }
  #expect(throws: StretchError.sampleRateOutOfRange(3999, supported: 4000...192_000)) {
    _ = try TimeStretcher(sampleRate: 3999, channels: 2, speed: 1)
  }
  #expect(throws: StretchError.sampleRateOutOfRange(400_000, supported: 4000...192_000)) {
    _ = try TimeStretcher(sampleRate: 400_000, channels: 2, speed: 1)
  }
  for channels in [0, 9, -3] {
    #expect(throws: StretchError.channelCountOutOfRange(channels, supported: 1...8)) {
      _ = try TimeStretcher(sampleRate: 44_100, channels: channels, speed: 1)
    }
  }
}

@Test func setSpeedValidates() throws {
  var s = try TimeStretcher(sampleRate: 8000, channels: 1, speed: 1)
  for bad in [0, -1, Double.nan, Double.infinity, 1e9] {
    do {
      try s.setSpeed(bad)
      Issue.record("speed \(bad) accepted")
    } catch {
      if case .speedOutOfRange(let v, _) = error {
        #expect(v == bad || (v.isNaN && bad.isNaN))
      } else {
        Issue.record("wrong error \(error)")
      }
    }
  }
  #expect(s.speed == 1)
  try s.setSpeed(2.5)
  #expect(s.speed == 2.5)
}

@Test func resetStartsOver() throws {
  let a = mixture(sampleRate: 8000, frames: 5000, channels: 1, clickEvery: 900, seed: 3)
  let b = sine(frequency: 440, sampleRate: 8000, frames: 4000)
  var fresh = try TimeStretcher(sampleRate: 8000, channels: 1, speed: 1.3)
  let expected = fresh.process(input: b)
  var s = try TimeStretcher(sampleRate: 8000, channels: 1, speed: 1.3)
  s.push(a)
  var buffer = [Float](repeating: 0, count: 1000)
  _ = s.pull(into: &buffer, maxFrames: 1000)
  s.reset()
  #expect(s.deliveredFrames == 0)
  s.push(b)
  s.finish()
  var out: [Float] = []
  while true {
    let n = s.pull(into: &buffer, maxFrames: 1000)
    if n == 0 { break }
    out += buffer[0..<n]
  }
  #expect(out == expected)
}

@Test(arguments: [2, 6])
func identicalChannelsStayIdentical(channels: Int) throws {
  let mono = mixture(sampleRate: 16_000, frames: 8000, channels: 1, clickEvery: 1700, seed: 5)
  var input = [Float](repeating: 0, count: mono.count * channels)
  for i in 0..<mono.count {
    for c in 0..<channels { input[i * channels + c] = mono[i] }
  }
  var s = try TimeStretcher(sampleRate: 16_000, channels: channels, speed: 0.8)
  let out = s.process(input: input)
  let first = channel(out, 0, of: channels)
  for c in 1..<channels {
    #expect(channel(out, c, of: channels) == first)
  }
}

@Test(arguments: [0.5, 0.75, 1.5, 2.0, 3.0])
func pitchIsPreserved(speed: Double) throws {
  let rate = 16_000
  let input = sine(frequency: 440, sampleRate: rate, frames: 16_000)
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: speed)
  let out = s.process(input: input)
  let f = zeroCrossingFrequency(out, sampleRate: rate, from: 800, to: out.count - 800)
  #expect(abs(f - 440) < 0.5, "estimated \(f) Hz")
}

@Test func unitSpeedReproducesTheInput() throws {
  let input = mixture(sampleRate: 8000, frames: 6000, channels: 2, clickEvery: 1000, seed: 11)
  var s = try TimeStretcher(sampleRate: 8000, channels: 2, speed: 1)
  let out = s.process(input: input)
  #expect(out.count == input.count)
  var worst: Float = 0
  for i in 0..<out.count { worst = max(worst, abs(out[i] - input[i])) }
  #expect(worst < 1e-5)
}

@Test func speedChangesKeepTheMediaTimeMapExact() throws {
  let rate = 8000
  let input = mixture(sampleRate: rate, frames: 40_000, channels: 1, clickEvery: 3000, seed: 2)
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: 1)
  var buffer = [Float](repeating: 0, count: 512)
  var pulled = 0
  let speeds = [1.5, 0.5, 2.5, 0.75, 4, 1]
  var pos = 0
  var step = 0
  while pos < 40_000 {
    let n = min(1000, 40_000 - pos)
    s.push(Array(input[pos..<(pos + n)]), frames: n)
    pos += n
    while true {
      let got = s.pull(into: &buffer, maxFrames: 512)
      if got == 0 { break }
      pulled += got
    }
    if pos % 6000 == 0 {
      try s.setSpeed(speeds[step % speeds.count])
      step += 1
    }
  }
  s.finish()
  while true {
    let got = s.pull(into: &buffer, maxFrames: 512)
    if got == 0 { break }
    pulled += got
  }
  let points = s.breakpoints
  #expect(points.count == 7)
  for i in 1..<points.count {
    let a = points[i - 1]
    let b = points[i]
    #expect(b.outputFrame > a.outputFrame)
    let expected = a.inputFrame + Double(b.outputFrame - a.outputFrame) * a.speed
    #expect(abs(b.inputFrame - expected) < 1e-9)
    #expect(abs(s.mediaTime(forOutputFrame: b.outputFrame) - b.inputFrame / Double(rate)) < 1e-12)
  }
  // The total output maps back onto the total input.
  let last = points[points.count - 1]
  let end = Double(last.outputFrame) + (40_000 - last.inputFrame) / last.speed
  #expect(pulled == Int(end.rounded()))
  #expect(abs(s.mediaTime(forOutputFrame: pulled) - 5) < 0.5 / Double(rate) * 4)
}

@Test func latencyIsAtMostThirtyMilliseconds() throws {
  for rate in [8000, 22_050, 44_100, 48_000, 96_000, 192_000] {
    let s = try TimeStretcher(sampleRate: rate, channels: 2, speed: 1)
    #expect(s.latencySeconds <= 0.030)
    #expect(s.latencyFrames > 0)
  }
}

@Test func availableFramesMatchesPull() throws {
  var s = try TimeStretcher(sampleRate: 8000, channels: 1, speed: 1.7)
  let input = mixture(sampleRate: 8000, frames: 9000, channels: 1, clickEvery: 1000, seed: 4)
  var buffer = [Float](repeating: 0, count: 20_000)
  var pos = 0
  while pos < 9000 {
    s.push(Array(input[pos..<(pos + 900)]), frames: 900)
    pos += 900
    let promised = s.availableFrames
    #expect(s.pull(into: &buffer, maxFrames: 20_000) == promised)
    #expect(s.availableFrames == 0)
  }
}

@Test func clicksAreNeitherDoubledNorDropped() throws {
  let rate = 16_000
  let every = 1600
  var input = [Float](repeating: 0, count: 32_000)
  for i in stride(from: 800, to: input.count, by: every) { input[i] = 0.9 }
  for speed in [0.5, 0.75, 1.5, 2.0] {
    var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: speed)
    let out = s.process(input: input)
    var peaks: [Int] = []
    for i in 0..<out.count where abs(out[i]) > 0.3 {
      if let last = peaks.last, i - last < 16 { continue }
      peaks.append(i)
    }
    let expected = stride(from: 800, to: input.count, by: every).map {
      Int((Double($0) / speed).rounded())
    }.filter { $0 < out.count }
    #expect(peaks.count == expected.count, "speed \(speed): \(peaks.count) peaks")
    for (p, e) in zip(peaks, expected) {
      // On time within 2 ms up to 1.5x; faster, the 30 ms look-ahead allows up to one hop late.
      let tolerance = speed <= 1.5 ? rate / 500 : rate / 100
      #expect(abs(p - e) <= tolerance, "speed \(speed): click at \(p), expected \(e)")
    }
  }
}

@Test func nonFiniteInputDoesNotPropagate() throws {
  var input = sine(frequency: 300, sampleRate: 8000, frames: 4000)
  input[100] = .nan
  input[2000] = .infinity
  var s = try TimeStretcher(sampleRate: 8000, channels: 1, speed: 0.7)
  let out = s.process(input: input)
  #expect(out.allSatisfy { $0.isFinite })
}

@Test func slicesAndSpansPushLikeArrays() throws {
  let input = mixture(sampleRate: 8000, frames: 7000, channels: 2, clickEvery: 1300, seed: 8)
  var whole = try TimeStretcher(sampleRate: 8000, channels: 2, speed: 1.6)
  let expected = whole.process(input: input)
  var bySlice = try TimeStretcher(sampleRate: 8000, channels: 2, speed: 1.6)
  var bySpan = try TimeStretcher(sampleRate: 8000, channels: 2, speed: 1.6)
  for start in stride(from: 0, to: input.count, by: 1234) {
    let slice = input[start..<min(start + 1234, input.count)]
    bySlice.push(slice)
    let copy = Array(slice)
    bySpan.push(copy.span)
  }
  for s in [0, 1] {
    var out: [Float] = []
    var buffer = [Float](repeating: 0, count: 2000)
    if s == 0 { bySlice.finish() } else { bySpan.finish() }
    while true {
      let n =
        s == 0
        ? bySlice.pull(into: &buffer, maxFrames: 1000) : bySpan.pull(into: &buffer, maxFrames: 1000)
      if n == 0 { break }
      out += buffer[0..<(2 * n)]
    }
    #expect(out == expected)
  }
}

/// Pushes silence until `availableFrames` reaches `wanted` (at most `limit` pushes of 960
/// frames); returns the pushes made.
func pushUntilAvailable(_ s: inout TimeStretcher, _ wanted: Int, limit: Int = 200) -> Int {
  var pushes = 0
  let block = [Float](repeating: 0.01, count: 960 * s.channels)
  while s.availableFrames < wanted && pushes < limit {
    s.push(block)
    pushes += 1
  }
  return pushes
}

@Test func availableFramesGrowsWhileASpeedChangeWaits() throws {
  // A live change that waits for an onset already placed, and one made while a scheduled
  // change waits: `availableFrames` used to stay at its value however much was pushed, so a
  // render loop that pushes until enough frames are available never ended.
  var big = [Float](repeating: 0, count: 48_000)
  do {
    var s = try TimeStretcher(sampleRate: 48_000, channels: 1, speed: 1)
    var input = [Float](repeating: 0, count: 9_600)
    input[1_000] = 0.9
    s.push(input)
    for _ in 0..<4 { _ = s.pull(into: &big, maxFrames: 240) }
    try s.setSpeed(1.5)
    #expect(pushUntilAvailable(&s, 512) < 10)
    let promised = s.availableFrames
    #expect(promised >= 512)
    #expect(s.pull(into: &big, maxFrames: promised) == promised)
  }
  do {
    var s = try TimeStretcher(sampleRate: 48_000, channels: 1, speed: 1)
    try s.setSpeed(2, atInputFrame: 96_000)
    try s.setSpeed(1.5)
    #expect(pushUntilAvailable(&s, 512) < 10)
    let promised = s.availableFrames
    #expect(promised >= 512)
    #expect(s.pull(into: &big, maxFrames: promised) == promised)
  }
}

@Test(arguments: [1, 2, 3])
func availableFramesIsNeverMoreThanPullDelivers(seed: UInt64) throws {
  var rng = SeededGenerator(seed: seed)
  let rate = 16_000
  var s = try TimeStretcher(sampleRate: rate, channels: 2, speed: 1)
  let input = mixture(sampleRate: rate, frames: 40 * 1000, channels: 2, clickEvery: 700, seed: seed)
  var buffer = [Float](repeating: 0, count: 2 * 170_000)  // 40,000 frames at 0.25x and more
  var pos = 0
  let speeds = [0.25, 0.5, 0.8, 1, 1.3, 2, 3.5, 4]
  while pos < 40_000 {
    switch rng.next() % 6 {
    case 0: try s.setSpeed(speeds[Int(rng.next() % 8)])
    case 1:
      let ahead = s.inputFrames + Int(rng.next() % 3000)
      try? s.setSpeed(speeds[Int(rng.next() % 8)], atInputFrame: ahead)
    case 2:
      let promised = s.availableFrames
      #expect(s.pull(into: &buffer, maxFrames: promised) == promised)
    default:
      let n = min(40_000 - pos, Int(rng.next() % 1000) + 1)
      s.push(input[(2 * pos)..<(2 * (pos + n))])
      pos += n
    }
  }
  s.finish()
  let promised = s.availableFrames
  #expect(s.pull(into: &buffer, maxFrames: promised + 1) == promised)
}

@Test(arguments: [0.25, 0.5, 0.75])
func slowSpeedsPlayUpToTheEnd(speed: Double) throws {
  // Past the end of the stream the buffer holds silence; the search used to follow the last
  // segment's continuation into it, so DC and low tones ended in 2.5 to 6 ms of silence and a
  // step. Every 2.5 ms window of the last 60 ms must keep a tenth of the level.
  let rate = 48_000
  let frames = rate * 3 / 10
  let dc = [Float](repeating: 0.5, count: frames)
  let low = sine(frequency: 60, sampleRate: rate, frames: frames)
  for (name, input) in [("DC", dc), ("60 Hz", low)] {
    var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: speed)
    let out = s.process(input: input)
    let peak = input.map { abs($0) }.max() ?? 0
    let window = rate / 400
    var quietest = Float.infinity
    for start in (out.count - rate * 6 / 100)...(out.count - window) {
      var energy: Float = 0
      for x in out[start..<(start + window)] { energy += x * x }
      quietest = min(quietest, (energy / Float(window)).squareRoot())
    }
    #expect(quietest >= 0.1 * peak, "\(name) at \(speed)x: RMS \(quietest) in the last 60 ms")
  }
}

@Test func speedChangesAfterFinishAreIgnored() throws {
  var s = try TimeStretcher(sampleRate: 8000, channels: 1, speed: 1.5)
  s.push(sine(frequency: 300, sampleRate: 8000, frames: 4000))
  s.finish()
  let total = s.totalOutputFrames
  try s.setSpeed(3)
  #expect(s.speed == 1.5)
  #expect(s.totalOutputFrames == total)
  #expect(throws: StretchError.self) { try s.setSpeed(.nan) }
}

@Test func availableFramesCountsNoSegmentAChangeAtTheLastBreakpointMoves() throws {
  // Two changes placed at one output frame: the second replaces the breakpoint's input frame,
  // later by up to half a frame times the speeds' difference. The segment there was counted
  // on the first, and pull then could not make it (480 promised, 240 delivered).
  var s = try TimeStretcher(sampleRate: 48_000, channels: 1, speed: 2.5)
  try s.setSpeed(4, atInputFrame: 1199)
  try s.setSpeed(0.25, atInputFrame: 1202)
  let input = sine(frequency: 440, sampleRate: 48_000, frames: 2165)
  var buffer = [Float](repeating: 0, count: 4800)
  s.push(Array(input[0..<1000]))
  _ = s.pull(into: &buffer, maxFrames: 480)
  s.push(Array(input[1000...]))
  let promised = s.availableFrames
  #expect(s.pull(into: &buffer, maxFrames: promised) == promised)
}

@Test func availableFramesStaysUsefulAfterLongSlowPlay() throws {
  // After a long stretch at 0.1x with its breakpoint at the start, a fast change scheduled
  // within the input pushed left the bound at 0 through 64,000 more frames (it ran the fast
  // speed from the last breakpoint over all the output already played).
  var s = try TimeStretcher(sampleRate: 8000, channels: 1, speed: 0.1)
  let input = sine(frequency: 300, sampleRate: 8000, frames: 80_000)
  var buffer = [Float](repeating: 0, count: 50_000)
  s.push(Array(input[0..<8000]))
  _ = s.pull(into: &buffer, maxFrames: 50_000)
  try s.setSpeed(10, atInputFrame: 7000)
  s.push(Array(input[8000..<16_000]))
  let promised = s.availableFrames
  #expect(promised > 0)
  #expect(s.pull(into: &buffer, maxFrames: promised) == promised)
}

@Test func availableFramesDoesNotDropWhenAPushReachesAScheduledChange() throws {
  var s = try TimeStretcher(sampleRate: 48_000, channels: 1, speed: 1)
  try s.setSpeed(10, atInputFrame: 48_000)
  let input = sine(frequency: 300, sampleRate: 48_000, frames: 48_001)
  s.push(Array(input[0..<48_000]))
  let before = s.availableFrames
  s.push(Array(input[48_000...]))
  #expect(s.availableFrames >= before - 240)
  var buffer = [Float](repeating: 0, count: 96_000)
  let promised = s.availableFrames
  #expect(s.pull(into: &buffer, maxFrames: promised) == promised)
}

@Test func changesPlacedTogetherKeepTheBreakpointsSegmentsSitOn() throws {
  // 256 changes within one segment's window overflowed the map's 256 breakpoints and dropped
  // the piece the segment sat on: 4,800 frames promised, 3,840 delivered. The map now keeps
  // every breakpoint; 1,000 changes a frame apart.
  var s = try TimeStretcher(sampleRate: 192_000, channels: 1, speed: 10)
  for i in 0..<1000 { try s.setSpeed(i % 2 == 0 ? 1 : 10, atInputFrame: 55_000 + i) }
  s.push([Float](repeating: 0.1, count: 52_000))
  var buffer = [Float](repeating: 0, count: 10_000)
  let promised = s.availableFrames
  #expect(s.pull(into: &buffer, maxFrames: promised) == promised)
  #expect(s.breakpoints.first?.outputFrame == 0)
}

/// Every supported rate gives a stretcher whose internal sizes fit together (the search reads
/// its reference out of the refinement's: under AddressSanitizer a misfit is an overflow), and it
/// searches and stretches 0.1 s of a tone to the exact length.
@Test func everySupportedSampleRateConstructs() throws {
  var rates = Array(stride(from: 8000, through: 192_000, by: 4001))
  rates += [8001, 11_025, 22_050, 44_100, 48_000, 88_200, 96_000, 176_400, 191_999, 192_000]
  for rate in rates {
    var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: 1.5)
    let frames = rate / 10
    s.push(sine(frequency: 440, sampleRate: rate, frames: frames))
    s.finish()
    var out = [Float](repeating: 0, count: 8192)
    var total = 0
    while case let n = s.pull(into: &out, maxFrames: 8192), n > 0 { total += n }
    #expect(total == Int((Double(frames) / 1.5).rounded()), "rate \(rate)")
  }
}
