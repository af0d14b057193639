/// The order the WebVTT writer puts cues in.
extension SubtitleDocument {
  /// The positions in `cues` in order of start time, ties (and times that are not numbers) in
  /// array order; nil when the cues are in that order already. WebVTT requires cues in order
  /// of non-decreasing start time, which SRT files do not always keep.
  ///
  /// - Parameter cues: The cues, for example a document's.
  /// - Returns: The positions in writing order, or nil for the array's own order.
  /// - Complexity: O(*c*) for cues in order; O(*c* log *c*) otherwise.
  static func startTimeOrder(of cues: [Cue]) -> [Int]? {
    guard cues.count > 1 else { return nil }
    var sorted = true
    for k in 1..<cues.count where cues[k].startTime < cues[k - 1].startTime {
      sorted = false
      break
    }
    if sorted { return nil }
    // Stable: equal start times keep their order by the position tie-break.
    func key(_ k: Int) -> Double {
      let t = cues[k].startTime
      return t.isNaN ? -.infinity : t
    }
    let order = cues.indices.sorted { key($0) < key($1) || (key($0) == key($1) && $0 < $1) }
    return order == Array(cues.indices) ? nil : order
  }

  /// The diagnostic a conversion to WebVTT adds when `startTimeOrder(of:)` reorders `cues`:
  /// how many cues start before one earlier in the file, at the first such cue.
  static func startOrderNote(_ cues: [Cue], into notes: inout DiagnosticLog) {
    guard startTimeOrder(of: cues) != nil else { return }
    var latest = -Double.infinity
    var moved = 0
    var first: Cue? = nil
    for cue in cues {
      if cue.startTime < latest {
        moved += 1
        if first == nil { first = cue }
      } else if cue.startTime > latest {
        latest = cue.startTime
      }
    }
    guard let first else { return }
    notes.add(
      line: first.line, offset: first.textRange.lowerBound,
      "\(moved) cue(s) start before an earlier cue; written in start-time order (WebVTT requires it)"
    )
  }
}
