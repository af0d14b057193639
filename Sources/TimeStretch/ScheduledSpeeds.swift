/// A speed change scheduled at an input frame; `order` counts the changes scheduled before it,
/// so that of two changes at one frame the later one wins.
struct ScheduledSpeed {
  var frame: Int
  var speed: Double
  var order: Int

  /// Whether this change comes first: the earlier frame, then the earlier scheduled.
  @inline(__always)
  func precedes(_ other: ScheduledSpeed) -> Bool {
    frame < other.frame || (frame == other.frame && order < other.order)
  }
}

/// The speed changes waiting for their input frames: a binary min-heap by frame (then by the
/// order they were scheduled in), so any number of changes can wait, scheduled in any order.
///
/// Adding a change takes O(log n) (O(1) on average when changes come in ascending order, as the
/// new one stays at the end) and allocates only when the storage grows (geometrically). Taking
/// the first change takes O(log n) and allocates nothing.
struct ScheduledSpeeds {
  private var heap: [ScheduledSpeed] = []
  /// The number of changes scheduled since the last ``removeAll()``.
  private var scheduledSoFar = 0
  /// The fastest speed scheduled since the last ``removeAll()`` (0 when none was).
  private(set) var fastest: Double = 0

  /// The changes waiting, counting a change at a frame already scheduled as one more.
  var count: Int { heap.count }
  var isEmpty: Bool { heap.isEmpty }

  /// The frame of the first change.
  var firstFrame: Int? { heap.first?.frame }

  /// Schedules `speed` from input frame `frame`; a later change at the same frame replaces it.
  mutating func insert(frame: Int, speed: Double) {
    let change = ScheduledSpeed(frame: frame, speed: speed, order: scheduledSoFar)
    scheduledSoFar += 1
    fastest = max(fastest, speed)
    heap.append(change)
    // Sift up.
    var i = heap.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      guard change.precedes(heap[parent]) else { break }
      heap[i] = heap[parent]
      i = parent
    }
    heap[i] = change
  }

  /// Removes the first change (the earliest frame) and every other change at its frame, and
  /// returns the one scheduled last among them.
  mutating func removeFirst() -> ScheduledSpeed? {
    guard var taken = popMin() else { return nil }
    while let next = heap.first, next.frame == taken.frame, let later = popMin() {
      taken = later
    }
    return taken
  }

  private mutating func popMin() -> ScheduledSpeed? {
    guard let top = heap.first, let moved = heap.popLast() else { return nil }
    let n = heap.count
    guard n > 0 else { return top }
    // Sift `moved` down from the root.
    var i = 0
    while true {
      let left = 2 * i + 1
      guard left < n else { break }
      let right = left + 1
      let child = right < n && heap[right].precedes(heap[left]) ? right : left
      guard heap[child].precedes(moved) else { break }
      heap[i] = heap[child]
      i = child
    }
    heap[i] = moved
    return top
  }

  /// Drops every change, keeping the storage.
  mutating func removeAll() {
    heap.removeAll(keepingCapacity: true)
    scheduledSoFar = 0
    fastest = 0
  }

  /// The changes before input frame `frame`, looked at up to `limit` of them: how many there
  /// are, the fastest speed among them and the first one's frame, or nil when more than
  /// `limit` are.
  /// - Complexity: O(min(m, limit)) for m such changes (the heap is walked only where its
  ///   frames are before `frame`).
  func before(_ frame: Int, limit: Int) -> (count: Int, fastest: Double, first: Int)? {
    guard let first = heap.first, first.frame < frame else { return (0, 0, Int.max) }
    var state = (count: 0, fastest: 0.0, overflow: false)
    heap.withUnsafeBufferPointer { h in
      Self.visit(h, 0, before: frame, limit: limit, &state)
    }
    return state.overflow ? nil : (state.count, state.fastest, first.frame)
  }

  /// Counts node `i` and its subtree where frames are before `frame` into `state` (a child never
  /// comes before its parent, so a node at or after `frame` ends its subtree's walk), stopping
  /// once more than `limit` are counted. Recursion depth: the heap's, at most 63.
  private static func visit(
    _ h: UnsafeBufferPointer<ScheduledSpeed>, _ i: Int, before frame: Int, limit: Int,
    _ state: inout (count: Int, fastest: Double, overflow: Bool)
  ) {
    guard !state.overflow, i < h.count, h[i].frame < frame else { return }
    state.count += 1
    guard state.count <= limit else {
      state.overflow = true
      return
    }
    state.fastest = max(state.fastest, h[i].speed)
    visit(h, 2 * i + 1, before: frame, limit: limit, &state)
    visit(h, 2 * i + 2, before: frame, limit: limit, &state)
  }
}
