import Testing

@testable import SubtitleParser

/// The obvious O(n) model the timeline is checked against.
struct BruteTimeline {
  var times: [(start: Double, end: Double)]
  var offset = 0.0
  var current: Set<Int> = []
  var last: Double? = nil

  func ordered(_ set: some Sequence<Int>) -> [Int] {
    set.sorted { a, b in
      let x = times[a]
      let y = times[b]
      if x.start != y.start { return x.start < y.start }
      if x.end != y.end { return x.end > y.end }
      return a < b
    }
  }

  func active(at time: Double) -> [Int] {
    let t = time - offset
    return ordered(times.indices.filter { times[$0].start <= t && t < times[$0].end })
  }

  mutating func step(to time: Double, playing: Bool) -> ([Int], [Int]) {
    let t = time - offset
    let now = Set(active(at: time))
    var passed: Set<Int> = []
    if playing, let last, t > last {
      passed = Set(
        times.indices.filter {
          times[$0].start > last && times[$0].start <= t && times[$0].end <= t
        })
    }
    let before = last == nil ? [] : current
    let entered = now.subtracting(before).union(passed)
    let exited = before.subtracting(now).union(passed)
    current = now
    last = t
    return (ordered(entered), ordered(exited))
  }

  func nextBoundary(after time: Double) -> Double? {
    let t = time - offset
    let all = times.flatMap { [$0.start, $0.end] }.filter { $0 > t }
    return all.min().map { $0 + offset }
  }
}

@Test(arguments: 1...6)
func timelineMatchesBruteForce(seed: Int) {
  var rng = SplitMix(seed: UInt64(seed) &* 7919)
  let count = Int(rng.next() % 60)
  // Times on a coarse grid so that ties, zero-length and nested cues are common.
  let times: [(start: Double, end: Double)] = (0..<count).map { _ in
    let start = Double(rng.next() % 40) / 2
    let length = Double(rng.next() % 12) / 2 * (rng.next() % 5 == 0 ? 0 : 1)
    return (start, start + length)
  }
  var timeline = CueTimeline(times: times)
  var brute = BruteTimeline(times: times)
  var t = -1.0
  for _ in 0..<300 {
    switch rng.next() % 10 {
    case 0: t = Double(rng.next() % 50) / 2 - 2  // seek anywhere
    case 1: t -= Double(rng.next() % 8) / 4  // small step back
    case 2:
      let delay = Double(Int(rng.next() % 9) - 4) / 2
      timeline.offset = delay
      brute.offset = delay
    default: t += Double(rng.next() % 6) / 4  // playback steps, some zero
    }
    #expect(timeline.active(at: t) == brute.active(at: t))
    #expect(timeline.nextBoundary(after: t) == brute.nextBoundary(after: t))
    if rng.next() % 7 == 0 {
      let (e, x) = timeline.seek(to: t)
      let (be, bx) = brute.step(to: t, playing: false)
      #expect(e == be && x == bx)
    } else {
      let (e, x) = timeline.advance(to: t)
      let (be, bx) = brute.step(to: t, playing: true)
      #expect(e == be, "entered at \(t)")
      #expect(x == bx, "exited at \(t)")
    }
  }
}

@Test func shortCuesInOneStepAreEnteredAndExited() {
  var timeline = CueTimeline(times: [(1, 1.1), (1.2, 1.2), (0.5, 3), (2, 4)])
  #expect(timeline.advance(to: 0) == ([], []))
  let step = timeline.advance(to: 2.5)
  #expect(step.entered == [2, 0, 1, 3])
  #expect(step.exited == [0, 1])
  #expect(timeline.active(at: 2.5) == [2, 3])
  #expect(timeline.nextBoundary(after: 2.5) == 3)
  let back = timeline.advance(to: 1.05)
  #expect(back.entered == [0])
  #expect(back.exited == [3])
}

@Test func offsetDelaysCues() {
  var timeline = CueTimeline(times: [(1, 2)], offset: 0.5)
  #expect(timeline.active(at: 1.2) == [])
  #expect(timeline.active(at: 1.6) == [0])
  #expect(timeline.nextBoundary(after: 0) == 1.5)
  #expect(timeline.advance(to: 1.6).entered == [0])
  timeline.offset = 2
  #expect(timeline.advance(to: 1.6).exited == [0])
  #expect(timeline.nextBoundary(after: 1.6) == 3)
}

@Test func timelineFromDocumentCues() throws {
  let document = try SubRip.parse(
    Array("1\n00:00:02,000 --> 00:00:03,000\nB\n\n2\n00:00:01,000 --> 00:00:05,000\nA\n".utf8))
  let timeline = CueTimeline(cues: document.cues)
  #expect(timeline.order == [1, 0])
  #expect(timeline.active(at: 2.5) == [1, 0])
  #expect(timeline.count == 2)
}
