/// One point where the playback speed changed: from output frame `outputFrame` on, output maps to
/// input (media) frames as `inputFrame + (o − outputFrame) · speed`.
public struct SpeedBreakpoint: Sendable, Hashable, Codable {
  /// The first output frame played at `speed` (frames since the start of the stream).
  public var outputFrame: Int
  /// The input (media) position of `outputFrame`, in input frames (fractional).
  public var inputFrame: Double
  /// The speed from `outputFrame` on (input frames per output frame).
  public var speed: Double
}

/// The piecewise-linear map from output frames to input (media) frames, one piece per speed.
///
/// The stretcher places every segment at the input position this map gives for the segment's
/// output position (plus a bounded local search offset), so the map is exact by construction.
/// It keeps every breakpoint since the start of the stream (or the last reset), 32 bytes each,
/// so an output frame maps exactly however many changes came before it. Lookups start from the
/// newest breakpoint, where the stretcher's own lookups fall, and gallop back: O(1) near the end,
/// O(log b) for a frame b breakpoints back.
struct MediaTimeMap {
  /// How many breakpoints are kept before the first one is added (more are kept as needed).
  static let initialCapacity = 256

  private(set) var points: [SpeedBreakpoint]
  /// For each breakpoint, the input frame of the scheduled change it starts, or `Int.min` when
  /// it starts none (the start, or a live change).
  private var scheduledFrames: [Int]

  init(speed: Double) {
    points = []
    points.reserveCapacity(Self.initialCapacity)
    points.append(SpeedBreakpoint(outputFrame: 0, inputFrame: 0, speed: speed))
    scheduledFrames = []
    scheduledFrames.reserveCapacity(Self.initialCapacity)
    scheduledFrames.append(Int.min)
  }

  mutating func reset(speed: Double) {
    points.removeAll(keepingCapacity: true)
    points.append(SpeedBreakpoint(outputFrame: 0, inputFrame: 0, speed: speed))
    scheduledFrames.removeAll(keepingCapacity: true)
    scheduledFrames.append(Int.min)
  }

  /// Makes room for `more` breakpoints beyond those kept, growing geometrically, so that adding
  /// them (while planning output) allocates nothing.
  mutating func reserve(_ more: Int) {
    let needed = points.count + max(0, more)
    guard needed > points.capacity || needed > scheduledFrames.capacity else { return }
    let capacity = max(needed, 2 * min(points.capacity, scheduledFrames.capacity))
    points.reserveCapacity(capacity)
    scheduledFrames.reserveCapacity(capacity)
  }

  var last: SpeedBreakpoint { points[points.count - 1] }

  /// Starts a new piece at `outputFrame` (which must not precede the last breakpoint), at input
  /// frame `exactInput` when given (a change scheduled at an input frame), else where the last
  /// piece reaches at `outputFrame`.
  ///
  /// A scheduled change's input frame rarely plays at a whole output frame. Its piece is the
  /// line at the new speed through that input frame at the exact (fractional) output frame where
  /// it plays, started at the nearest whole output frame: every later change then plays where
  /// the speeds say, however many there are. Taking the last piece's input frame at the whole
  /// frame instead moved each change by up to half an output frame times the old speed in input
  /// frames, which the new speed scaled (half a frame becomes 50 from 10x to 0.1x); starting
  /// the piece at the change's input frame at the whole frame moved every later output by the
  /// rounding, which added up over regular changes (255 changes at 3x every 100 frames lost 85
  /// output frames). The map is then discontinuous by at most half an output frame times the
  /// difference of the speeds (one output frame for a change placed a frame after where it
  /// plays, see ``TimeStretcher/applyScheduled(_:)``).
  ///
  /// `scheduledFrame` is the input frame of the scheduled change that starts the piece (`Int.min`
  /// for a live change), so that ``dropScheduled(atOrAfter:)`` can take it out again.
  mutating func change(
    speed: Double, atOutputFrame outputFrame: Int, exactInput: Double? = nil,
    scheduledFrame: Int = Int.min
  ) {
    assert(outputFrame >= last.outputFrame, "a new piece must not precede the last breakpoint")
    let input = exactInput ?? inputFrame(forOutputFrame: Double(outputFrame))
    if last.outputFrame == outputFrame {
      points[points.count - 1].speed = speed
      if let exactInput, points.count > 1 { points[points.count - 1].inputFrame = exactInput }
      scheduledFrames[scheduledFrames.count - 1] = scheduledFrame
      return
    }
    points.append(SpeedBreakpoint(outputFrame: outputFrame, inputFrame: input, speed: speed))
    scheduledFrames.append(scheduledFrame)
  }

  /// Removes the newest breakpoints that start scheduled changes at or after input frame
  /// `frame` (changes the stretcher put in the map ahead of the input, past the stream's end);
  /// returns whether it removed any.
  mutating func dropScheduled(atOrAfter frame: Int) -> Bool {
    var dropped = false
    while points.count > 1, let last = scheduledFrames.last, last != Int.min, last >= frame {
      points.removeLast()
      scheduledFrames.removeLast()
      dropped = true
    }
    return dropped
  }

  /// The index of the last breakpoint for which `before` is false (0 when there is none),
  /// where `before` holds for a suffix of the breakpoints: the last few are tried one by one
  /// (the stretcher's lookups fall there), then the search gallops back and bisects.
  @inline(__always)
  private func lastIndex(where before: (SpeedBreakpoint) -> Bool) -> Int {
    let n = points.count
    return points.withUnsafeBufferPointer { p in
      var i = n - 1
      // One by one over the newest breakpoints.
      let stop = max(0, n - 9)
      while i > stop && before(p[i]) {
        i -= 1
      }
      guard i == stop, i > 0, before(p[i]) else { return i }
      // p[i] is after the frame: gallop back to a breakpoint that is not, then bisect.
      var above = i
      var step = 8
      var below = max(0, above - step)
      while below > 0 && before(p[below]) {
        above = below
        step = step <= Int.max / 2 ? 2 * step : step
        below = max(0, above - step)
      }
      if before(p[below]) { return 0 }
      // p[below] is not after, p[above] is.
      while above - below > 1 {
        let middle = below + (above - below) / 2
        if before(p[middle]) { above = middle } else { below = middle }
      }
      return below
    }
  }

  /// The input frame (fractional) of an output frame.
  func inputFrame(forOutputFrame o: Double) -> Double {
    let b = piece(containing: o)
    return b.inputFrame + (o - Double(b.outputFrame)) * b.speed
  }

  /// The piece that output frame `o` (fractional) falls on.
  func piece(containing o: Double) -> SpeedBreakpoint {
    // Fast path: the newest piece.
    let l = last
    if !(Double(l.outputFrame) > o) { return l }
    return points[lastIndex { Double($0.outputFrame) > o }]
  }

  /// The output frame (fractional) of an input frame, on the piece that plays it.
  func outputFrame(forInputFrame x: Double) -> Double {
    let b = points[lastIndex { $0.inputFrame > x }]
    return Double(b.outputFrame) + (x - b.inputFrame) / b.speed
  }

  /// The output frame (fractional) of an input frame, on the newest piece.
  func outputFrameOnLastPiece(forInputFrame x: Double) -> Double {
    let b = last
    return Double(b.outputFrame) + (x - b.inputFrame) / b.speed
  }
}
