/// An invalid parameter given to the stretcher or the speed menu.
public enum StretchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A speed that is not finite or outside the supported range.
  case speedOutOfRange(Double, supported: ClosedRange<Double>)
  /// A sample rate outside the supported range (Hz).
  case sampleRateOutOfRange(Int, supported: ClosedRange<Int>)
  /// A channel count outside the supported range.
  case channelCountOutOfRange(Int, supported: ClosedRange<Int>)
  /// A speed menu with no rates.
  case emptyMenu
  /// A menu rate (at `index`, zero-based) that is not finite, not positive or outside the
  /// supported range.
  case invalidMenuRate(index: Int, value: Double, supported: ClosedRange<Double>)
  /// A menu rate (at `index`, zero-based) equal to an earlier one.
  case duplicateMenuRate(index: Int, value: Double)
  /// A label list whose length differs from the rate list's.
  case labelCountMismatch(rates: Int, labels: Int)
  /// A default rate that is not one of the menu's rates.
  case defaultRateNotInMenu(Double)
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
      "a speed menu needs at least one rate"
    case .invalidMenuRate(let i, let v, let r):
      "menu rate #\(i) (\(v)) is outside the supported range \(r.lowerBound)...\(r.upperBound)"
    case .duplicateMenuRate(let i, let v):
      "menu rate #\(i) (\(v)) repeats an earlier rate"
    case .labelCountMismatch(let r, let l):
      "a speed menu with \(r) rates needs \(r) labels, not \(l)"
    case .defaultRateNotInMenu(let v):
      "default rate \(v) is not one of the menu's rates"
    case .inputFrameInPast(let f, let earliest):
      "input frame \(f) is already planned; the earliest frame for a speed change is \(earliest)"
    case .tooManyScheduledChanges(let capacity):
      "at most \(capacity) scheduled speed changes can wait at a time"
    case .invalidMediaTime(let t):
      "media time \(t) s is not a finite time at or after the start"
    }
  }
}
