import Testing
import TimeStretch

/// Input frames and speeds of the changes the tests schedule (none on a segment boundary).
private let changes: [(frame: Int, speed: Double)] = [
  (5_001, 0.5), (20_003, 1.5), (31_337, 2), (40_111, 0.75),
]

/// Stretches mono `input` with `changes` scheduled before the first push, pushing and pulling
/// blocks of the sizes `sizes` gives (one block each when nil).
private func stretchScheduled(
  _ input: [Float], sampleRate: Int, sizes: ((Bool) -> Int)? = nil
) throws -> (output: [Float], breakpoints: [SpeedBreakpoint], total: Int?, mediaTimes: [Double]) {
  var s = try TimeStretcher(sampleRate: sampleRate, channels: 1, speed: 1)
  for c in changes {
    try s.setSpeed(c.speed, atInputFrame: c.frame)
  }
  var out: [Float] = []
  var buffer = [Float](repeating: 0, count: 4 * input.count)
  func drain(_ s: inout TimeStretcher) {
    while true {
      let n = sizes?(false) ?? buffer.count
      let got = s.pull(into: &buffer, maxFrames: n)
      if got == 0 { break }
      out += buffer[0..<got]
    }
  }
  var pos = 0
  while pos < input.count {
    let n = min(sizes?(true) ?? input.count, input.count - pos)
    s.push(input[pos..<(pos + n)])
    pos += n
    drain(&s)
  }
  s.finish()
  drain(&s)
  let times = s.breakpoints.map { s.mediaTime(forOutputFrame: $0.outputFrame) }
  return (out, s.breakpoints, s.totalOutputFrames, times)
}

/// Clicks every 1 234 frames (none at a change) over a quiet tone, so every segment has material.
private func clickTrack(frames: Int) -> (signal: [Float], clicks: [Int]) {
  var x = sine(frequency: 330, sampleRate: 16_000, frames: frames).map { $0 * 0.02 }
  let clicks = Array(stride(from: 600, to: frames - 600, by: 1234))
  for c in clicks { x[c] = 0.9 }
  return (x, clicks)
}

@Test func aScheduledChangeLandsAtItsInputFrame() throws {
  let rate = 16_000
  let (x, _) = clickTrack(frames: 3 * rate)
  let (out, points, total, mediaTimes) = try stretchScheduled(x, sampleRate: rate)
  #expect(points.count == changes.count + 1)
  var expectedOutput = 0.0
  var previousFrame = 0
  var previousSpeed = 1.0
  for ((point, change), time) in zip(zip(points.dropFirst(), changes), mediaTimes.dropFirst()) {
    expectedOutput += Double(change.frame - previousFrame) / previousSpeed
    // The breakpoint sits on the output frame nearest to the change, on the line at the new
    // speed through the change's input frame where it plays exactly: within half an output
    // frame of it (half the new speed in input frames).
    #expect(abs(point.inputFrame - Double(change.frame)) <= change.speed / 2 + 1e-9)
    #expect(abs(Double(point.outputFrame) - expectedOutput) <= 0.5 + 1e-9)
    #expect(point.speed == change.speed)
    let media = time * Double(rate)
    #expect(abs(media - Double(change.frame)) <= change.speed / 2 + 1e-9)
    previousFrame = change.frame
    previousSpeed = change.speed
  }
  expectedOutput += Double(x.count - previousFrame) / previousSpeed
  #expect(abs(Double(out.count) - expectedOutput) <= 1)
  #expect(total == out.count)
}

@Test func clicksAroundScheduledChangesPlayAtTheirMappedTimes() throws {
  let rate = 16_000
  let (x, clicks) = clickTrack(frames: 3 * rate)
  let (out, points, _, _) = try stretchScheduled(x, sampleRate: rate)
  func outputFrame(_ input: Double) -> Double {
    var b = points[0]
    for p in points where p.inputFrame <= input { b = p }
    return Double(b.outputFrame) + (input - b.inputFrame) / b.speed
  }
  var worst = 0.0
  for c in clicks {
    let expected = outputFrame(Double(c))
    let lo = max(0, Int(expected) - 160)
    let hi = min(out.count, Int(expected) + 160)
    guard lo < hi else { continue }
    var peak = lo
    for i in lo..<hi where abs(out[i]) > abs(out[peak]) { peak = i }
    #expect(abs(out[peak]) > 0.5, "click at input \(c) not found near output \(expected)")
    worst = max(worst, abs(Double(peak) - expected))
  }
  // Within a millisecond (16 frames) of the mapped time, before and after every change.
  #expect(worst <= 16, "worst click \(worst) frames off")
}

@Test(arguments: [1, 2, 3])
func scheduledChangesGiveTheSameOutputInAnyBlockSizes(seed: UInt64) throws {
  let rate = 16_000
  let (x, _) = clickTrack(frames: 3 * rate)
  let whole = try stretchScheduled(x, sampleRate: rate).output
  var rng = SeededGenerator(seed: seed)
  let blocks = try stretchScheduled(x, sampleRate: rate) { isPush in
    Int(rng.next() % (isPush ? 3000 : 900)) + 1
  }.output
  #expect(blocks.count == whole.count)
  #expect(blocks == whole)
}

@Test func badScheduledChangesThrow() throws {
  var s = try TimeStretcher(sampleRate: 16_000, channels: 1, speed: 1)
  do {
    try s.setSpeed(.nan, atInputFrame: 1000)
    Issue.record("NaN was accepted")
  } catch {
    guard case .speedOutOfRange(let v, _) = error else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(v.isNaN)
  }
  for bad in [Double.infinity, -1, 0, 0.05, 11] {
    #expect(throws: StretchError.speedOutOfRange(bad, supported: 0.1...10)) {
      try s.setSpeed(bad, atInputFrame: 1000)
    }
  }
  #expect(throws: StretchError.inputFrameInPast(-1, earliest: 0)) {
    try s.setSpeed(2, atInputFrame: -1)
  }
  // After a second of output, the frames already planned are refused.
  s.push(sine(frequency: 440, sampleRate: 16_000, frames: 16_000))
  var buffer = [Float](repeating: 0, count: 20_000)
  #expect(s.pull(into: &buffer, maxFrames: 20_000) > 0)
  do {
    try s.setSpeed(2, atInputFrame: 8_000)
    Issue.record("a frame already played was accepted")
  } catch {
    guard case .inputFrameInPast(let frame, let earliest) = error else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(frame == 8_000)
    #expect(earliest > 15_000 && earliest <= 16_000)
    #expect(error.description.contains("8000"))
    try s.setSpeed(2, atInputFrame: earliest)
  }
}

@Test func scheduledChangesAreBoundedOnlyByAHugeCapacity() throws {
  // Far more than the 64 that could wait before; the capacity guards memory, not maps.
  #expect(TimeStretcher.scheduledCapacity >= 1 << 22)
  var s = try TimeStretcher(sampleRate: 16_000, channels: 1, speed: 1)
  for i in 0..<100_000 {
    try s.setSpeed(i % 2 == 0 ? 1.5 : 1, atInputFrame: 100 + 10 * i)
  }
  // The same frame again replaces its change.
  try s.setSpeed(2, atInputFrame: 100)
  s.push(sine(frequency: 440, sampleRate: 16_000, frames: 16_000))
  s.finish()
  // 100 frames at 1x, then changes every 10 frames from 2x (the replaced one) and 1x on.
  let points = s.breakpoints
  #expect(points.count == 1 + (16_000 - 100) / 10)
  #expect(points[1].speed == 2)
  // Reset drops them.
  s.reset()
  try s.setSpeed(2, atInputFrame: 5)
  #expect(
    StretchError.tooManyScheduledChanges(capacity: 4).description
      == "at most 4 scheduled speed changes can wait at a time")
}

@Test func scheduledChangesPastTheEndAreDropped() throws {
  var s = try TimeStretcher(sampleRate: 16_000, channels: 1, speed: 1)
  try s.setSpeed(2, atInputFrame: 8_000)
  try s.setSpeed(0.5, atInputFrame: 20_000)
  s.push(sine(frequency: 440, sampleRate: 16_000, frames: 16_000))
  s.finish()
  #expect(s.breakpoints.count == 2)
  #expect(s.totalOutputFrames == 12_000)
}

@Test func manyExtremeScheduledChangesKeepTheLengthExact() throws {
  // 40 changes alternating between 10x and 0.1x every 50 ms of input. Each breakpoint sits on a
  // whole output frame; when the piece after it started where the old piece reached there
  // (instead of at the change's input frame), the new speed scaled that rounding up to 100
  // times, and the errors added up to over 10 ms.
  let rate = 44_100
  let frames = 2 * rate
  let input = sine(frequency: 330, sampleRate: rate, frames: frames)
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: 10)
  var expected = 0.0
  var previous = (frame: 0, speed: 10.0)
  for k in 1..<40 {
    let change = (frame: k * rate / 20 + 7, speed: k % 2 == 0 ? 10.0 : 0.1)
    try s.setSpeed(change.speed, atInputFrame: change.frame)
    expected += Double(change.frame - previous.frame) / previous.speed
    previous = change
  }
  expected += Double(frames - previous.frame) / previous.speed
  s.push(input)
  s.finish()
  var buffer = [Float](repeating: 0, count: 1 << 16)
  var produced = 0
  while true {
    let got = s.pull(into: &buffer, maxFrames: buffer.count)
    if got == 0 { break }
    produced += got
  }
  // Within a millisecond.
  #expect(abs(Double(produced) - expected) <= Double(rate) / 1000, "\(produced) vs \(expected)")
}

@Test(arguments: [(3.0, 3.0, 100), (2.0, 3.0, 500), (1.5, 1.25, 1000), (0.1, 10.0, 2205)])
func regularScheduledChangesDoNotDrift(a: Double, b: Double, every: Int) throws {
  // Changes every `every` input frames, alternating a and b (or the same speed again): each
  // breakpoint's output frame is rounded, and when the next change was placed from the
  // rounded one the errors added up (255 changes at 3x every 100 frames lost 85 frames).
  // Each change is scheduled just ahead of the input, as a player schedules them.
  let rate = 48_000
  let frames = 256 * every
  let input = sine(frequency: 440, sampleRate: rate, frames: frames)
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: a)
  var buffer = [Float](repeating: 0, count: 1 << 16)
  var expected = 0.0
  var previous = (frame: 0, speed: a)
  for k in 1..<256 {
    let change = (frame: k * every, speed: k % 2 == 0 ? a : b)
    try s.setSpeed(change.speed, atInputFrame: change.frame)
    s.push(Array(input[((k - 1) * every)..<(k * every)]))
    while s.pull(into: &buffer, maxFrames: buffer.count) > 0 {}
    expected += Double(change.frame - previous.frame) / previous.speed
    previous = change
  }
  expected += Double(frames - previous.frame) / previous.speed
  s.push(Array(input[(255 * every)...]))
  s.finish()
  // The length is the rounded sum; every breakpoint lies within half an output frame of where
  // its change plays.
  #expect(abs(Double(s.totalOutputFrames ?? 0) - expected) <= 0.5 + 1e-6)
  var output = 0.0
  var last = (frame: 0, speed: a)
  for (point, k) in zip(s.breakpoints.dropFirst(), 1...) {
    output += Double(k * every - last.frame) / last.speed
    #expect(abs(Double(point.outputFrame) - output) <= 0.5 + 1e-6, "change \(k)")
    last = (k * every, point.speed)
  }
}

@Test func mediaTimesScheduleChangesAndMapBack() throws {
  var s = try TimeStretcher(sampleRate: 48_000, channels: 1, speed: 1)
  try s.setSpeed(2, atMediaTime: 0.5)
  for bad in [-0.1, .nan, .infinity] {
    do {
      try s.setSpeed(2, atMediaTime: bad)
      Issue.record("\(bad) accepted")
    } catch {
      guard case .invalidMediaTime = error else {
        Issue.record("wrong error \(error)")
        continue
      }
    }
  }
  s.push(sine(frequency: 440, sampleRate: 48_000, frames: 48_000))
  s.finish()
  var out = [Float](repeating: 0, count: 48_000)
  _ = s.pull(into: &out, maxFrames: 48_000)
  // 0.5 s at 1x, then 0.5 s at 2x: 0.75 s of output.
  #expect(s.breakpoints.last?.outputFrame == 24_000)
  #expect(abs(s.outputFrame(forMediaTime: 0.5) - 24_000) < 1e-6)
  #expect(abs(s.outputFrame(forMediaTime: 1.0) - 36_000) < 1e-6)
  for frame in [0, 12_345, 24_000, 30_000, 36_000] {
    let media = s.mediaTime(forOutputFrame: frame)
    #expect(abs(s.outputFrame(forMediaTime: media) - Double(frame)) < 1e-6)
  }
}
