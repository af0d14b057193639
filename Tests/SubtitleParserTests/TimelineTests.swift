import Testing

@testable import SubtitleParser

/// The obvious O(n) model the timeline is checked against.
struct BruteTimeline {
  var times: [(start: Double, end: Double)]
  var offset = 0.0
  var current: Set<Int> = []
  var last: (time: Double, offset: Double)? = nil
  /// Cues starting exactly where the last call landed, not active there and not reported.
  var landed: Set<Int> = []

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
    ordered(
      times.indices.filter { times[$0].start + offset <= time && time < times[$0].end + offset })
  }

  mutating func step(to time: Double, playing: Bool) -> ([Int], [Int]) {
    let now = Set(active(at: time))
    var passed: Set<Int> = []
    if playing, let last {
      for (i, (start, end)) in times.enumerated()
      where start + offset <= time && end + offset <= time
        && (start + last.offset > last.time || landed.contains(i))
      {
        passed.insert(i)
      }
    }
    let before = last == nil ? [] : current
    let entered = now.subtracting(before).union(passed)
    let exited = before.subtracting(now).union(passed)
    landed = Set(
      times.indices.filter {
        times[$0].start + offset == time && times[$0].end + offset <= time && !passed.contains($0)
      })
    current = now
    last = (time, offset)
    return (ordered(entered), ordered(exited))
  }

  func nextBoundary(after time: Double) -> Double? {
    let all = times.flatMap { [$0.start + offset, $0.end + offset] }.filter { $0 > time }
    return all.min()
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
  var timeline = CueTimeline(times: times.map { (startTime: $0.start, endTime: $0.end) })
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

@Test func zeroLengthCuesWhereThePlayerStartsOrLandsAreReported() {
  // A player starting at 0 and one seeking to 5 land on a zero-length cue without playing
  // over it; the next forward move reports it.
  var timeline = CueTimeline(times: [(0, 0), (5, 5)])
  #expect(timeline.advance(to: 0) == ([], []))
  #expect(timeline.advance(to: 1) == ([0], [0]))
  #expect(timeline.seek(to: 5) == ([], []))
  #expect(timeline.advance(to: 6) == ([1], [1]))
  #expect(timeline.advance(to: 7) == ([], []))
  // Reported once, also when the player stands still first.
  var still = CueTimeline(times: [(2, 2)])
  _ = still.seek(to: 2)
  #expect(still.advance(to: 2) == ([0], [0]))
  #expect(still.advance(to: 3) == ([], []))
}

@Test func boundariesAreTheSumsTheActiveSetUses() {
  // 0.1 + 0.7 rounds to 0.7999999999999999, while 0.8 - 0.7 rounds below 0.1: the rule
  // `start + offset <= t` must be applied to the sum as written.
  var timeline = CueTimeline(times: [(startTime: 0.1, endTime: 1.1)], offset: 0.7)
  #expect(timeline.active(at: 0.1 + 0.7) == [0])
  let boundary = timeline.nextBoundary(after: 0)
  #expect(boundary == 0.1 + 0.7)
  #expect(timeline.advance(to: boundary ?? 0).entered == [0])
  #expect(timeline.nextBoundary(after: 0.1 + 0.7) == 1.1 + 0.7)
}

@Test func aNaNTimeChangesNothing() {
  var timeline = CueTimeline(times: [(1, 2), (0, 10)])
  #expect(timeline.advance(to: 0) == ([1], []))
  #expect(timeline.advance(to: .nan) == ([], []))
  #expect(timeline.seek(to: .nan) == ([], []))
  #expect(timeline.active(at: .nan) == [])
  #expect(timeline.nextBoundary(after: .nan) == nil)
  #expect(timeline.advance(to: 3) == ([0], [0]))
  timeline.offset = .nan
  #expect(timeline.advance(to: 4) == ([], []))
  timeline.offset = 0
  #expect(timeline.advance(to: 11) == ([], [1]))
}

@Test func anOffsetChangeLandingOnAZeroLengthCueReportsItOnce() {
  // Cue time went from 5 to 7 (media 4 with offset -3): the zero-length cue at 7 was passed
  // over and reported; the next step must not report it again.
  var timeline = CueTimeline(times: [(7, 7)])
  #expect(timeline.advance(to: 5) == ([], []))
  timeline.offset = -3
  #expect(timeline.advance(to: 4) == ([0], [0]))
  #expect(timeline.advance(to: 4.5) == ([], []))
  // Landing on it by an offset change that moves cue time back reports it on the next move.
  var back = CueTimeline(times: [(3, 3)])
  #expect(back.advance(to: 5) == ([], []))
  back.offset = 2
  #expect(back.advance(to: 5) == ([], []))
  #expect(back.advance(to: 6) == ([0], [0]))
  #expect(back.advance(to: 7) == ([], []))
}
