/// An invalid parameter given to the stretcher or the speed menu.
public enum StretchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A speed that is not finite or outside the supported range.
  case speedOutOfRange(Double, supported: ClosedRange<Double>)
  /// A sample rate outside the supported range (Hz).
  case sampleRateOutOfRange(Int, supported: ClosedRange<Int>)
  /// A channel count outside the supported range.
  case channelCountOutOfRange(Int, supported: ClosedRange<Int>)
  /// A speed menu with no speeds.
  case emptyMenu
  /// A menu speed (at `index`, zero-based) that is not finite, not positive or outside the
  /// supported range.
  case invalidMenuSpeed(index: Int, value: Double, supported: ClosedRange<Double>)
  /// A menu speed (at `index`, zero-based) equal to an earlier one.
  case duplicateMenuSpeed(index: Int, value: Double)
  /// A label list whose length differs from the speed list's.
  case labelCountMismatch(speeds: Int, labels: Int)
  /// A default speed that is not one of the menu's speeds.
  case defaultSpeedNotInMenu(Double)
  /// A speed change scheduled at an input frame the stretcher has already planned output for;
  /// `earliest` is the first input frame a change can still be scheduled at.
  case inputFrameInPast(Int, earliest: Int)
  /// More scheduled speed changes waiting than the stretcher keeps (`capacity`).
  case tooManyScheduledChanges(capacity: Int)
  /// A media time (seconds) that is not finite or is negative.
  case invalidMediaTime(Double)

  /// A one-line description naming the bad value and the supported range.
  public var description: String {
    switch self {
    case .speedOutOfRange(let s, let r):
      "speed \(s) is outside the supported range \(r.lowerBound)...\(r.upperBound)"
    case .sampleRateOutOfRange(let s, let r):
      "sample rate \(s) Hz is outside the supported range \(r.lowerBound)...\(r.upperBound) Hz"
    case .channelCountOutOfRange(let c, let r):
      "channel count \(c) is outside the supported range \(r.lowerBound)...\(r.upperBound)"
    case .emptyMenu:
      "a speed menu needs at least one speed"
    case .invalidMenuSpeed(let i, let v, let r):
      "menu speed #\(i) (\(v)) is outside the supported range \(r.lowerBound)...\(r.upperBound)"
    case .duplicateMenuSpeed(let i, let v):
      "menu speed #\(i) (\(v)) repeats an earlier speed"
    case .labelCountMismatch(let r, let l):
      "a speed menu with \(r) speeds needs \(r) labels, not \(l)"
    case .defaultSpeedNotInMenu(let v):
      "default speed \(v) is not one of the menu's speeds"
    case .inputFrameInPast(let f, let earliest):
      "input frame \(f) is already planned; the earliest frame for a speed change is \(earliest)"
    case .tooManyScheduledChanges(let capacity):
      "at most \(capacity) scheduled speed changes can wait at a time"
    case .invalidMediaTime(let t):
      "media time \(t) s is not a finite time at or after the start"
    }
  }
}

// The menu errors under their former names, for one release. They build errors and match them
// in `==` and `#expect(throws:)`; a `case` pattern that binds values needs the new names.
extension StretchError {
  /// ``invalidMenuSpeed(index:value:supported:)`` under its former name.
  @available(*, deprecated, renamed: "invalidMenuSpeed(index:value:supported:)")
  public static func invalidMenuRate(
    index: Int, value: Double, supported: ClosedRange<Double>
  ) -> StretchError {
    .invalidMenuSpeed(index: index, value: value, supported: supported)
  }

  /// ``duplicateMenuSpeed(index:value:)`` under its former name.
  @available(*, deprecated, renamed: "duplicateMenuSpeed(index:value:)")
  public static func duplicateMenuRate(index: Int, value: Double) -> StretchError {
    .duplicateMenuSpeed(index: index, value: value)
  }

  /// ``labelCountMismatch(speeds:labels:)`` under its former labels.
  @available(*, deprecated, renamed: "labelCountMismatch(speeds:labels:)")
  public static func labelCountMismatch(rates: Int, labels: Int) -> StretchError {
    .labelCountMismatch(speeds: rates, labels: labels)
  }

  /// ``defaultSpeedNotInMenu(_:)`` under its former name.
  @available(*, deprecated, renamed: "defaultSpeedNotInMenu(_:)")
  public static func defaultRateNotInMenu(_ speed: Double) -> StretchError {
    .defaultSpeedNotInMenu(speed)
  }
}
