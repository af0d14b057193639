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
/// It keeps the newest ``capacity`` breakpoints: when more speed changes happen, the oldest piece
/// is dropped and output frames before the oldest kept breakpoint are extrapolated from it.
struct MediaTimeMap {
  /// How many breakpoints are kept.
  static let capacity = 256

  private(set) var points: [SpeedBreakpoint]

  init(speed: Double) {
    points = []
    points.reserveCapacity(Self.capacity)
    points.append(SpeedBreakpoint(outputFrame: 0, inputFrame: 0, speed: speed))
  }

  mutating func reset(speed: Double) {
    points.removeAll(keepingCapacity: true)
    points.append(SpeedBreakpoint(outputFrame: 0, inputFrame: 0, speed: speed))
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
  /// difference of the speeds.
  mutating func change(speed: Double, atOutputFrame outputFrame: Int, exactInput: Double? = nil) {
    let input = exactInput ?? inputFrame(forOutputFrame: Double(outputFrame))
    if last.outputFrame == outputFrame {
      points[points.count - 1].speed = speed
      if let exactInput, points.count > 1 { points[points.count - 1].inputFrame = exactInput }
      return
    }
    if points.count == Self.capacity {
      points.removeFirst()
    }
    points.append(SpeedBreakpoint(outputFrame: outputFrame, inputFrame: input, speed: speed))
  }

  /// The input frame (fractional) of an output frame.
  func inputFrame(forOutputFrame o: Double) -> Double {
    var i = points.count - 1
    while i > 0 && Double(points[i].outputFrame) > o {
      i -= 1
    }
    let b = points[i]
    return b.inputFrame + (o - Double(b.outputFrame)) * b.speed
  }

  /// The piece that output frame `o` (fractional) falls on.
  func piece(containing o: Double) -> SpeedBreakpoint {
    var i = points.count - 1
    while i > 0 && Double(points[i].outputFrame) > o {
      i -= 1
    }
    return points[i]
  }

  /// The output frame (fractional) of an input frame, on the piece that plays it.
  func outputFrame(forInputFrame x: Double) -> Double {
    var i = points.count - 1
    while i > 0 && points[i].inputFrame > x {
      i -= 1
    }
    let b = points[i]
    return Double(b.outputFrame) + (x - b.inputFrame) / b.speed
  }

  /// The output frame (fractional) of an input frame, on the newest piece.
  func outputFrameOnLastPiece(forInputFrame x: Double) -> Double {
    let b = last
    return Double(b.outputFrame) + (x - b.inputFrame) / b.speed
  }
}
