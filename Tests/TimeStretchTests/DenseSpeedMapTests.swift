import Testing
import TimeStretch

/// The ideal output of a speed map: output frames (fractional) at which each change plays, and
/// the stream's total, from `Σ interval frames / speed` (changes sorted by frame, the last one
/// at a frame winning, changes at or after the end dropped).
private func idealMap(
  changes: [(frame: Int, speed: Double)], start: Double, frames: Int
) -> (plays: [Double], total: Double) {
  var byFrame: [Int: Double] = [:]
  for change in changes where change.frame < frames { byFrame[change.frame] = change.speed }
  var plays: [Double] = []
  var output = 0.0
  var previous = (frame: 0, speed: start)
  for frame in byFrame.keys.sorted() {
    output += Double(frame - previous.frame) / previous.speed
    plays.append(output)
    previous = (frame, byFrame[frame] ?? start)
  }
  output += Double(frames - previous.frame) / previous.speed
  return (plays, output)
}

/// Pushes `input` (mono) in blocks of `block` frames, pulling everything after each push, then
/// finishes; returns the frames pulled.
private func run(_ s: inout TimeStretcher, _ input: [Float], block: Int) -> Int {
  var buffer = [Float](repeating: 0, count: 8192)
  var pulled = 0
  var pos = 0
  while pos < input.count {
    let n = min(block, input.count - pos)
    s.push(input[pos..<(pos + n)])
    pos += n
    while case let got = s.pull(into: &buffer, maxFrames: buffer.count), got > 0 { pulled += got }
  }
  s.finish()
  while case let got = s.pull(into: &buffer, maxFrames: buffer.count), got > 0 { pulled += got }
  return pulled
}

@Test func tenThousandChangesOneMillisecondApartKeepTheMapExact() throws {
  // 10,000 changes 1 ms apart, all scheduled before the first push (a dense --speed-map). With
  // 64 waiting at most, the rest applied late: 6.944 s of output where the map said 8.5 s.
  let rate = 48_000
  let frames = 10 * rate + 480
  let input = sine(frequency: 440, sampleRate: rate, frames: frames).map { $0 * 0.3 }
  let speeds = [1.0, 1.5, 0.8, 2, 1.25, 0.5]
  var changes: [(frame: Int, speed: Double)] = []
  for k in 1...10_000 { changes.append((k * rate / 1000, speeds[k % speeds.count])) }
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: 1)
  for change in changes { try s.setSpeed(change.speed, atInputFrame: change.frame) }
  let pulled = run(&s, input, block: 4096)
  let ideal = idealMap(changes: changes, start: 1, frames: frames)
  // The length: the map's sum, rounded.
  #expect(abs(Double(pulled) - ideal.total) <= 0.5 + 1e-6, "\(pulled) vs \(ideal.total)")
  #expect(s.totalOutputFrames == pulled)
  // Every change has its breakpoint within half an output frame of where it plays, and maps
  // back to its input frame within half an output frame times its speed.
  let points = s.breakpoints
  #expect(points.count == changes.count + 1)
  for (point, (change, plays)) in zip(points.dropFirst(), zip(changes, ideal.plays)) {
    #expect(abs(Double(point.outputFrame) - plays) <= 0.5 + 1e-6, "change at \(change.frame)")
    #expect(point.speed == change.speed)
    let media = s.mediaTime(forOutputFrame: point.outputFrame) * Double(rate)
    #expect(abs(media - Double(change.frame)) <= change.speed / 2 + 1e-6)
  }
  // Between breakpoints too, and from the oldest one on (no breakpoint dropped).
  #expect(s.mediaTime(forOutputFrame: 0) == 0)
  #expect(abs(s.mediaTime(forOutputFrame: 24) * Double(rate) - 24) < 1e-9)
  for (k, plays) in zip(1..., ideal.plays) where k % 97 == 0 {
    let o = Int(plays.rounded(.up)) + 3
    let expected = Double(changes[k - 1].frame) + (Double(o) - plays) * changes[k - 1].speed
    #expect(abs(s.mediaTime(forOutputFrame: o) * Double(rate) - expected) <= 2 + 1e-6)
    let back = s.outputFrame(forMediaTime: expected / Double(rate))
    #expect(abs(back - Double(o)) <= 2 + 1e-6)
  }
}

@Test(arguments: Array(1...6) as [UInt64])
func randomDenseMapsGiveTheMappedLength(seed: UInt64) throws {
  // Random maps: up to 3,000 changes 1 to 400 frames apart at speeds across the whole range,
  // scheduled in shuffled order with some frames twice, pushed and pulled in random blocks.
  // Changes a frame or two apart at 10x play within one output frame and share a breakpoint;
  // the length still is the map's sum, within one output frame.
  var rng = SeededGenerator(seed: seed)
  let rate = [8000, 16_000, 44_100][Int(rng.next() % 3)]
  let frames = rate + Int(rng.next() % UInt64(2 * rate))
  let start = 0.1 + Double(rng.next() % 991) / 100
  var changes: [(frame: Int, speed: Double)] = []
  var frame = Int(rng.next() % 50)
  while frame < frames + 500 && changes.count < 3000 {
    changes.append((frame, 0.1 + Double(rng.next() % 991) / 100))
    if rng.next() % 20 == 0 { changes.append((frame, 0.1 + Double(rng.next() % 991) / 100)) }
    frame += 1 + Int(rng.next() % 400)
  }
  // Shuffled.
  var order = Array(changes.indices)
  order.shuffle(using: &rng)
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: start)
  var lastFor: [Int: Double] = [:]
  for i in order {
    // Among changes at one frame, the one scheduled last wins.
    try s.setSpeed(changes[i].speed, atInputFrame: changes[i].frame)
    lastFor[changes[i].frame] = changes[i].speed
  }
  let input = mixture(
    sampleRate: rate, frames: frames, channels: 1, clickEvery: rate / 3, seed: seed)
  let pulled = run(&s, input, block: 1 + Int(rng.next() % 5000))
  let winners = lastFor.map { (frame: $0.key, speed: $0.value) }
  let ideal = idealMap(changes: winners, start: start, frames: frames)
  #expect(abs(Double(pulled) - ideal.total) <= 1, "\(pulled) vs \(ideal.total)")
  #expect(s.totalOutputFrames == pulled)
  let points = s.breakpoints
  for i in 1..<points.count {
    #expect(points[i].outputFrame > points[i - 1].outputFrame)
  }
}

@Test func aMillionChangesScheduleInEitherOrder() throws {
  // Scheduling is O(log n) a change (the list of waiting changes was kept sorted by insertion,
  // O(n) a change). Ascending, then a descending run.
  var s = try TimeStretcher(sampleRate: 48_000, channels: 1, speed: 1)
  for k in 0..<1_000_000 { try s.setSpeed(k % 2 == 0 ? 1.5 : 0.75, atInputFrame: 1000 + 48 * k) }
  for k in stride(from: 100_000, to: 0, by: -1) {
    try s.setSpeed(k % 2 == 0 ? 2 : 1, atInputFrame: 1001 + 48 * k)
  }
  let frames = 48_000
  let pulled = run(&s, sine(frequency: 300, sampleRate: 48_000, frames: frames), block: 4800)
  // From frame 1000 on, every 48 frames: 1.5x for a frame then 2x for 47, then 0.75x for a
  // frame and 1x for 47, and so on.
  var changes: [(frame: Int, speed: Double)] = []
  for k in 0..<1000 {
    changes.append((1000 + 48 * k, k % 2 == 0 ? 1.5 : 0.75))
    if k > 0 { changes.append((1001 + 48 * k, k % 2 == 0 ? 2 : 1)) }
  }
  let ideal = idealMap(changes: changes, start: 1, frames: frames)
  #expect(abs(Double(pulled) - ideal.total) <= 1, "\(pulled) vs \(ideal.total)")
}

@Test func pushAndPullAllocateNoMoreWithManyChangesWaiting() throws {
  // The map's storage is reserved as changes are scheduled: output planned across thousands of
  // changes keeps the breakpoints' buffer where it was.
  var s = try TimeStretcher(sampleRate: 16_000, channels: 1, speed: 1)
  for k in 1...5000 { try s.setSpeed(k % 2 == 0 ? 1.5 : 0.75, atInputFrame: 16 * k) }
  s.push(sine(frequency: 300, sampleRate: 16_000, frames: 1600))
  var buffer = [Float](repeating: 0, count: 4096)
  while s.pull(into: &buffer, maxFrames: 4096) > 0 {}
  let before = s.breakpoints.withUnsafeBufferPointer { $0.baseAddress }
  let input = sine(frequency: 300, sampleRate: 16_000, frames: 78_000)
  var pos = 0
  while pos < input.count {
    s.push(input[pos..<min(input.count, pos + 1000)])
    pos += 1000
    while s.pull(into: &buffer, maxFrames: 4096) > 0 {}
  }
  #expect(s.breakpoints.count > 4900)
  #expect(s.breakpoints.withUnsafeBufferPointer { $0.baseAddress } == before)
}
