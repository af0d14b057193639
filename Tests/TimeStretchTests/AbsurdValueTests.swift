import Testing
import TimeStretch

// Every public entry point given absurd values throws a typed error or does what its
// documentation says; none traps (an arithmetic overflow or an out-of-range conversion from
// Double would end the test process).

private let absurdInts = [Int.min, Int.min + 1, -1, 0, 1, Int.max - 1, Int.max]
private let absurdDoubles: [Double] = [
  .nan, -.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
  .leastNonzeroMagnitude, -0.0, 0, 1e300, -1e300, 0x1p62, 0x1p63, 0x1p64, 2e14,
]

@Test func absurdConstructionParametersThrow() {
  for rate in absurdInts {
    #expect(throws: StretchError.self) {
      _ = try TimeStretcher(sampleRate: rate, channels: 2, speed: 1)
    }
  }
  for channels in absurdInts where channels != 1 {
    #expect(throws: StretchError.self) {
      _ = try TimeStretcher(sampleRate: 48_000, channels: channels, speed: 1)
    }
  }
  for speed in absurdDoubles {
    #expect(throws: StretchError.self) {
      _ = try TimeStretcher(sampleRate: 48_000, channels: 1, speed: speed)
    }
  }
}

@Test func absurdSpeedsThrowAndLeaveTheStretcherWorking() throws {
  var s = try TimeStretcher(sampleRate: 48_000, channels: 1, speed: 1)
  for speed in absurdDoubles {
    #expect(throws: StretchError.self) { try s.setSpeed(speed) }
    #expect(throws: StretchError.self) { try s.setSpeed(speed, atInputFrame: 100) }
    #expect(throws: StretchError.self) { try s.setSpeed(speed, atMediaTime: 1) }
  }
  #expect(s.speed == 1)
  s.push(sine(frequency: 440, sampleRate: 48_000, frames: 4800))
  s.finish()
  #expect(s.totalOutputFrames == 4800)
}

@Test func absurdMediaTimesThrowOrSchedule() throws {
  var s = try TimeStretcher(sampleRate: 192_000, channels: 1, speed: 1)
  for seconds in absurdDoubles {
    do {
      try s.setSpeed(2, atMediaTime: seconds)
      // Only finite times at or after the start, whose frame fits, are taken.
      #expect(seconds.isFinite && seconds >= 0 && seconds * 192_000 < 0x1p62)
    } catch {
      guard case .invalidMediaTime = error else {
        Issue.record("\(seconds): \(error)")
        continue
      }
    }
  }
  // Those far beyond the end are dropped.
  s.push(sine(frequency: 440, sampleRate: 192_000, frames: 19_200))
  s.finish()
  #expect(s.totalOutputFrames == 9600)
}

@Test func changesAtTheFarthestFramesAreKeptAndDroppedAtTheEnd() throws {
  var s = try TimeStretcher(sampleRate: 8000, channels: 2, speed: 0.1)
  try s.setSpeed(10, atInputFrame: Int.max)
  try s.setSpeed(0.1, atInputFrame: Int.max - 1)
  try s.setSpeed(10, atInputFrame: Int.max / 2)
  for frame in [Int.min, Int.min + 1, -1] {
    #expect(throws: StretchError.inputFrameInPast(frame, earliest: 0)) {
      try s.setSpeed(2, atInputFrame: frame)
    }
  }
  let input = sine(frequency: 440, sampleRate: 8000, frames: 800, channels: 2)
  s.push(input)
  _ = s.availableFrames
  var buffer = [Float](repeating: 0, count: 1 << 16)
  _ = s.pull(into: &buffer, maxFrames: Int.max)
  s.finish()
  while s.pull(into: &buffer, maxFrames: Int.max) > 0 {}
  #expect(s.totalOutputFrames == 8000)
  #expect(s.breakpoints.count == 1)
}

@Test func absurdFrameCountsAreClamped() throws {
  var s = try TimeStretcher(sampleRate: 8000, channels: 3, speed: 1)
  let block = [Float](repeating: 0.25, count: 3 * 100 + 2)
  for frames in absurdInts {
    s.push(block, frames: frames)
  }
  // Int.max - 1 and Int.max took all 100 whole frames, 1 took one: 201 frames.
  #expect(s.pushedFrames == 201)
  s.push([])
  s.push([Float](repeating: 0, count: 2))
  s.push(block[0..<2])
  s.push(block.span)
  #expect(s.pushedFrames == 301)
  var small = [Float](repeating: 0, count: 3 * 7)
  var empty: [Float] = []
  for frames in absurdInts {
    #expect(s.pull(into: &small, maxFrames: frames) <= 7)
    #expect(s.pull(into: &empty, maxFrames: frames) == 0)
  }
  s.finish()
  var out = [Float](repeating: 0, count: 3 * 1000)
  var pulled = 0
  while case let n = s.pull(into: &out, maxFrames: Int.max), n > 0 { pulled += n }
  #expect(pulled > 0)
  #expect(s.deliveredFrames == s.totalOutputFrames)
}

@Test func mediaTimeOfAbsurdOutputFramesIsDefined() throws {
  var s = try TimeStretcher(sampleRate: 48_000, channels: 1, speed: 2)
  for k in 1...300 { try s.setSpeed(k % 2 == 0 ? 2 : 0.5, atInputFrame: 100 * k) }
  s.push(sine(frequency: 440, sampleRate: 48_000, frames: 48_000))
  s.finish()
  for frame in absurdInts {
    let t = s.mediaTime(forOutputFrame: frame)
    #expect(t.isFinite)
    if frame != 0 { #expect((t > 0) == (frame > 0)) }
  }
  for seconds in absurdDoubles {
    let o = s.outputFrame(forMediaTime: seconds)
    #expect(o.isNaN == seconds.isNaN)
    if seconds.isFinite && abs(seconds) < 1e300 { #expect(o.isFinite) }
  }
  // Monotonic across the map.
  var previous = -Double.infinity
  for frame in stride(from: 0, to: 60_000, by: 7) {
    let t = s.mediaTime(forOutputFrame: frame)
    #expect(t >= previous - 0.5 * 2 / 48_000)
    previous = t
  }
}

@Test func hugeFiniteSamplesDoNotTrap() throws {
  // Samples far outside −1...1 (up to the largest Float) overflow the similarity sums to
  // infinity; positions stay finite and the stream keeps its length.
  for channels in [1, 2] {
    var s = try TimeStretcher(sampleRate: 8000, channels: channels, speed: 1.37)
    var input = [Float](repeating: 0, count: 8000 * channels)
    for i in input.indices {
      input[i] =
        i % 3 == 0 ? .greatestFiniteMagnitude : (i % 5 == 0 ? -1e30 : .leastNonzeroMagnitude)
    }
    s.push(input)
    try s.setSpeed(0.1)
    s.push(input)
    s.finish()
    var out = [Float](repeating: 0, count: 4096 * channels)
    var pulled = 0
    while case let n = s.pull(into: &out, maxFrames: 4096), n > 0 { pulled += n }
    #expect(pulled == s.totalOutputFrames)
  }
}

@Test func absurdMenusThrow() {
  for rate in absurdDoubles {
    #expect(throws: StretchError.self) { try SpeedMenu(speeds: [1, rate]) }
    #expect(throws: StretchError.self) { try SpeedMenu(speeds: [1, 2], defaultSpeed: rate) }
  }
  #expect(throws: StretchError.emptyMenu) { try SpeedMenu(speeds: []) }
  if let menu = try? SpeedMenu(speeds: [0.5, 1, 2]) {
    for rate in absurdDoubles {
      #expect(menu.speeds.contains(menu.nearest(to: rate)))
      #expect(menu.speeds.contains(menu.stepUp(from: rate)))
      #expect(menu.speeds.contains(menu.stepDown(from: rate)))
      #expect(menu.label(for: rate) == nil || rate == 0.5 || rate == 1 || rate == 2)
    }
  }
}
