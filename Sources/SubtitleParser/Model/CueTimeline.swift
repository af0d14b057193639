/// The cues of a document arranged for playback: which cues are showing at a time, what changed
/// since the last tick, and when the next change happens.
///
/// A cue is active at media time `t` when `start + offset <= t < end + offset` (half-open, so a
/// cue ending at 5 s and one starting at 5 s never overlap, and a zero-length cue is never
/// active; `advance(to:)` still reports it when playback passes over it). Every comparison is
/// made on those sums as written, so `nextBoundary(after:)` returns exactly the time at which
/// `active(at:)` changes. A NaN time (or offset) matches no cue and changes no state.
///
/// Cues are kept ordered by start ascending, then end descending, then their index in the
/// document (a stable order); every result lists cue indices (into the array the timeline was
/// made from) in that order.
public struct CueTimeline: Hashable, Sendable {
  /// Start times in timeline order, seconds (without `offset`).
  private var starts: [Double]
  /// End times in timeline order, seconds (without `offset`).
  private var ends: [Double]
  /// The cue index of each timeline position.
  private var indices: [Int]
  /// End times sorted ascending, for `nextBoundary(after:)`.
  private var sortedEnds: [Double]
  /// A max-tree over `ends` (implicit binary tree over timeline positions, `leafBase` leaves).
  private var maxEnd: [Double]
  private var leafBase: Int
  /// The timeline positions active after the last `advance`/`seek`, ascending.
  private var current: [Int] = []
  /// The media time and offset of the last `advance`/`seek`, or `nil` before the first.
  private var lastTime: Double? = nil
  private var lastOffset: Double = 0
  /// Timeline positions of the cues that start exactly at the last time, are not active there
  /// (zero-length ones) and were not reported by the last call (which landed there by a seek,
  /// the first call, or an offset change), ascending: the next forward move reports them.
  private var landedOn: [Int] = []

  /// The subtitle delay in seconds, added to every cue time (positive shows subtitles later).
  /// It may change at any time; the next `advance(to:)` reports what the change (together with
  /// the step) made enter and exit.
  public var offset: Double

  /// Creates a timeline over `cues`.
  ///
  /// - Parameters:
  ///   - cues: The cues; only their times are kept. Cues with a NaN time are left out.
  ///   - offset: The initial subtitle delay in seconds.
  /// - Complexity: O(*n* log *n*).
  public init(cues: [Cue], offset: Double = 0) {
    self.init(times: cues.map { (startTime: $0.startTime, endTime: $0.endTime) }, offset: offset)
  }

  /// Creates a timeline from `(startTime, endTime)` pairs in seconds; results refer to
  /// positions in `times`.
  ///
  /// - Parameters:
  ///   - times: Start and end times in seconds; pairs with a NaN are left out.
  ///   - offset: The initial subtitle delay in seconds.
  /// - Complexity: O(*n* log *n*).
  public init(times: [(startTime: Double, endTime: Double)], offset: Double = 0) {
    self.offset = offset
    var order = times.indices.filter { !times[$0].startTime.isNaN && !times[$0].endTime.isNaN }
    order.sort { a, b in
      let x = times[a]
      let y = times[b]
      if x.startTime != y.startTime { return x.startTime < y.startTime }
      if x.endTime != y.endTime { return x.endTime > y.endTime }
      return a < b
    }
    indices = order
    starts = order.map { times[$0].startTime }
    ends = order.map { times[$0].endTime }
    sortedEnds = ends.sorted()
    var base = 1
    while base < max(1, order.count) { base <<= 1 }
    leafBase = base
    var tree = [Double](repeating: -.infinity, count: 2 * base)
    for (i, e) in ends.enumerated() { tree[base + i] = e }
    var node = base - 1
    while node >= 1 {
      tree[node] = max(tree[2 * node], tree[2 * node + 1])
      node -= 1
    }
    maxEnd = tree
  }

  /// Creates a timeline from `(start, end)` pairs in seconds.
  ///
  /// Cue times are `startTime` and `endTime` throughout this module (`Cue`, this initializer's
  /// pairs): `start` and `end` name byte offsets. Unlabelled pairs choose the initializer above.
  @_disfavoredOverload
  @available(*, deprecated, message: "label the pairs startTime and endTime")
  public init(times: [(start: Double, end: Double)], offset: Double = 0) {
    self.init(times: times.map { (startTime: $0.start, endTime: $0.end) }, offset: offset)
  }

  /// The number of cues in the timeline.
  public var count: Int { indices.count }

  /// The cue indices in timeline order (start ascending, end descending, index ascending).
  public var order: [Int] { indices }

  /// The cues active at media time `time`, in timeline order.
  ///
  /// - Parameter time: Media time in seconds (the `offset` is applied).
  /// - Returns: Cue indices.
  /// - Complexity: O(log *n* + *k* log(*n*/*k*)) for *k* results.
  public func active(at time: Double) -> [Int] {
    activePositions(at: time, offset: offset).map { indices[$0] }
  }

  /// Moves playback to media time `time` and reports what changed since the last call.
  ///
  /// Forward moves are treated as playback: cues that started and ended within the step (also
  /// zero-length ones) appear in both lists. Backward moves are seeks: only the difference
  /// between the active sets is reported. The first call reports the cues active at `time` as
  /// entered; zero-length cues exactly at the time the first call, a seek or an `offset`
  /// change lands on are reported by the next forward move (once). A change of `offset` counts
  /// as part of the step. A NaN `time` reports nothing and changes nothing.
  ///
  /// - Parameter time: Media time in seconds.
  /// - Returns: Cue indices that entered and that exited, each in timeline order.
  /// - Complexity: O(log *n* + *k* + *m*): *k* active cues, *m* cues starting within the step.
  public mutating func advance(to time: Double) -> (entered: [Int], exited: [Int]) {
    step(to: time, playing: true)
  }

  /// Jumps to media time `time` without playing through the interval: reports only the
  /// difference between the cues active before and after.
  ///
  /// - Parameter time: Media time in seconds.
  /// - Returns: Cue indices that entered and that exited, each in timeline order.
  /// - Complexity: O(log *n* + *k*).
  public mutating func seek(to time: Double) -> (entered: [Int], exited: [Int]) {
    step(to: time, playing: false)
  }

  /// The first cue start or end strictly after media time `time`, the moment the set of active
  /// cues can next change; `nil` when there is none.
  ///
  /// - Parameter time: Media time in seconds.
  /// - Returns: Media time in seconds (the `offset` is applied).
  /// - Complexity: O(log *n*).
  public func nextBoundary(after time: Double) -> Double? {
    let offset = offset
    guard !time.isNaN, !offset.isNaN else { return nil }
    let s = firstIndex(in: starts) { $0 + offset > time }
    let e = firstIndex(in: sortedEnds) { $0 + offset > time }
    var best = Double.infinity
    if s < starts.count { best = starts[s] + offset }
    if e < sortedEnds.count { best = min(best, sortedEnds[e] + offset) }
    return best.isFinite ? best : nil
  }

  // MARK: - Internals

  private mutating func step(to time: Double, playing: Bool) -> (entered: [Int], exited: [Int]) {
    let offset = offset
    guard !time.isNaN, !offset.isNaN else { return ([], []) }
    let now = activePositions(at: time, offset: offset)
    // Cues that started after the last call and have ended by now: each is reported as both
    // entered and exited. None was active then or is now, so none is in `current` or `now`.
    var passed: [Int] = []
    if playing, let lastTime {
      let lastOffset = lastOffset
      var i = firstIndex(in: starts) { $0 + lastOffset > lastTime }
      while i < starts.count && starts[i] + offset <= time {
        if ends[i] + offset <= time { passed.append(i) }
        i += 1
      }
      let due = landedOn.filter { starts[$0] + offset <= time && ends[$0] + offset <= time }
      if !due.isEmpty { passed = merge(passed, due) }
    }
    let before = lastTime == nil ? [] : current
    var entered = difference(now, before)
    var exited = difference(before, now)
    if !passed.isEmpty {
      entered = merge(entered, passed)
      exited = merge(exited, passed)
    }
    // The cues starting exactly at `time` that are not active there and this call did not
    // report (it landed on them rather than playing over them).
    var landing: [Int] = []
    var j = firstIndex(in: starts) { $0 + offset >= time }
    var k = 0
    while j < starts.count && starts[j] + offset == time {
      while k < passed.count && passed[k] < j { k += 1 }
      if ends[j] + offset <= time && !(k < passed.count && passed[k] == j) { landing.append(j) }
      j += 1
    }
    landedOn = landing
    current = now
    lastTime = time
    lastOffset = offset
    return (entered.map { indices[$0] }, exited.map { indices[$0] })
  }

  /// Timeline positions active at media time `time` under `offset`, ascending.
  private func activePositions(at time: Double, offset: Double) -> [Int] {
    let upper = firstIndex(in: starts) { $0 + offset > time }
    var out: [Int] = []
    guard upper > 0, !time.isNaN, !offset.isNaN else { return out }
    // Depth-first, left to right, pruning subtrees whose largest end is not after the time.
    var stack: [(node: Int, low: Int, width: Int)] = [(1, 0, leafBase)]
    while let (node, low, width) = stack.popLast() {
      if low >= upper || maxEnd[node] + offset <= time { continue }
      if width == 1 {
        out.append(low)
        continue
      }
      let half = width / 2
      stack.append((2 * node + 1, low + half, half))
      stack.append((2 * node, low, half))
    }
    return out
  }

  /// The first index whose element satisfies `predicate`, which must be false then true along
  /// the array.
  private func firstIndex(in array: [Double], where predicate: (Double) -> Bool) -> Int {
    var low = 0
    var high = array.count
    while low < high {
      let mid = (low + high) / 2
      if predicate(array[mid]) { high = mid } else { low = mid + 1 }
    }
    return low
  }

  /// Elements of sorted `a` that are not in sorted `b`.
  private func difference(_ a: [Int], _ b: [Int]) -> [Int] {
    var out: [Int] = []
    var j = 0
    for x in a {
      while j < b.count && b[j] < x { j += 1 }
      if j < b.count && b[j] == x { continue }
      out.append(x)
    }
    return out
  }

  /// The sorted union of two sorted arrays without duplicates.
  private func merge(_ a: [Int], _ b: [Int]) -> [Int] {
    var out: [Int] = []
    out.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if j >= b.count || (i < a.count && a[i] < b[j]) {
        out.append(a[i])
        i += 1
      } else if i >= a.count || b[j] < a[i] {
        out.append(b[j])
        j += 1
      } else {
        out.append(a[i])
        i += 1
        j += 1
      }
    }
    return out
  }
}
