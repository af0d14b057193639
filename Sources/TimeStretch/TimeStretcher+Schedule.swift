// Segment planning: which speed-map piece each output segment is placed on, and the scheduled
// and live speed changes that make the pieces.
//
// Positions are internal input frames: the stream's frame f is internal frame f + preroll, and the
// first `preroll` internal frames are silence, so the first real segment has a predecessor and the
// output starts at full level. Output segment k covers internal output frames k·hop ..< k·hop +
// window; the stream's output frame o is internal output frame o + hop.
extension TimeStretcher {
  /// The speed-map piece that segment `segment` and later will use (the pending speed applied).
  func nextPiece() -> SpeedBreakpoint {
    let last = map.last
    guard speed != last.speed, finished || !speedChangeWaits() else { return last }
    let out = max((max(segment, 1) - 1) * hop, last.outputFrame)
    if out == last.outputFrame {
      return SpeedBreakpoint(outputFrame: out, inputFrame: last.inputFrame, speed: speed)
    }
    let input = map.inputFrame(forOutputFrame: Double(out))
    return SpeedBreakpoint(outputFrame: out, inputFrame: input, speed: speed)
  }

  /// The input needed beyond a segment's ideal position before it is made: the search and the
  /// window, and at least the media its finished output hop plays (up to its centre, `hop`
  /// frames on), so output pulled before ``finish()`` never runs past the stream's end. The same
  /// on every piece, as the segment's centre sits on the map.
  func lookahead(_: SpeedBreakpoint) -> Int {
    max(reach, hop + 1)
  }

  /// The ideal internal input position of segment `k` on `piece`. A segment plays its input at
  /// the input's own rate, not at the speed, so only one point of it can sit on the speed map:
  /// its centre, where its window peaks and the two crossfades around it balance (with its
  /// start there, its centre would play `hop · (1 − speed)` frames of media off the map).
  @inline(__always)
  func idealPosition(_ k: Int, _ piece: SpeedBreakpoint) -> Double {
    if k == 0 { return Double(preroll - hop) }
    let onMap = mapPoint(k) - Double(piece.outputFrame)
    return Double(preroll - hop) + (piece.inputFrame + onMap * piece.speed)
  }

  /// The output frame (stream) whose media segment `k` is placed at: its centre's.
  @inline(__always)
  func mapPoint(_ k: Int) -> Double {
    Double(k * hop)
  }

  /// The ideal internal input position of segment `k` on the map as it stands.
  func idealPosition(_ k: Int) -> Double {
    idealPosition(k, map.piece(containing: mapPoint(k)))
  }

  /// The first input frame a speed change can still be scheduled at: the changes due before the
  /// next segment were applied when the previous one was planned (see ``applyScheduled(_:)``).
  func earliestSchedulableFrame() -> Int {
    guard segment > 0 else { return 0 }
    let x = map.inputFrame(forOutputFrame: Double(segment * hop))
    return Int(x.rounded(.up))
  }

  /// Applies the scheduled changes that segment `k` and its neighbours' planning can see: those
  /// played before the end of the segment's second hop.
  mutating func applyScheduled(upTo k: Int) {
    while let frame = scheduled.firstFrame {
      let o = map.outputFrameOnLastPiece(forInputFrame: Double(frame))
      guard o < Double((k + 1) * hop), let next = scheduled.removeFirst() else { return }
      applyScheduled(next)
    }
  }

  /// Puts a scheduled change (taken from ``scheduled``) in the map, at the output frame nearest
  /// to where its input frame plays (never before output already planned), and makes its speed
  /// the current one.
  mutating func applyScheduled(_ next: ScheduledSpeed) {
    let o = map.outputFrameOnLastPiece(forInputFrame: Double(next.frame))
    let planned = max(0, (segment - 1) * hop)
    let last = map.last.outputFrame
    // Placed where its input frame plays, the new piece's line passes through that input frame
    // at the exact (fractional) output frame `o`, so rounding the breakpoint to a whole frame
    // moves no later output.
    var at = Int(o.rounded())
    if at <= last && o != Double(last) {
      // It plays within an output frame of the last breakpoint, but not on it (changes closer
      // together than an output frame): its own breakpoint a frame after that one, still on
      // its line, so the change before it keeps its short piece and the length stays exact.
      // (Taking over the last breakpoint dropped that piece: up to 4 output frames lost a
      // change.)
      at = last + 1
    }
    // Placed later (output already planned), it continues the last piece.
    let onLine = at >= planned
    at = max(at, planned, last)
    let exact = Double(next.frame) + (Double(at) - o) * next.speed
    map.change(
      speed: next.speed, atOutputFrame: at, exactInput: onLine ? exact : nil,
      scheduledFrame: next.frame)
    speed = next.speed
  }

  /// Whether a pending speed change waits a segment: an onset already placed (at its time on
  /// the current piece) plays after the next segment's start, so a breakpoint there would move
  /// its media time. It waits at most two segments.
  func speedChangeWaits() -> Bool {
    guard lastEmitted != Int.min, segment >= 1 else { return false }
    let onsetOutput = map.outputFrame(forInputFrame: Double(lastEmitted - preroll))
    return onsetOutput >= Double((segment - 1) * hop)
  }

  /// Starts the requested speed's piece at the next segment (or a little later, see
  /// ``speedChangeWaits()``; at once when `force` is set).
  mutating func applyPendingSpeed(force: Bool = false) {
    guard speed != map.last.speed, force || !speedChangeWaits() else { return }
    let at = max((max(segment, 1) - 1) * hop, map.last.outputFrame)
    map.change(speed: speed, atOutputFrame: at)
  }
}
