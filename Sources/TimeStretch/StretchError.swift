/// An invalid parameter given to the stretcher or the speed menu.
public enum StretchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A speed that is not finite or outside the supported range.
  case speedOutOfRange(Double, supported: ClosedRange<Double>)
  /// A sample rate outside the supported range (Hz).
  case sampleRateOutOfRange(Int, supported: ClosedRange<Int>)
  /// A channel count outside the supported range.
  case channelCountOutOfRange(Int, supported: ClosedRange<Int>)

  /// A one-line description naming the bad value and the supported range.
  public var description: String {
    switch self {
    case .speedOutOfRange(let s, let r):
      "speed \(s) is outside the supported range \(r.lowerBound)...\(r.upperBound)"
    case .sampleRateOutOfRange(let s, let r):
      "sample rate \(s) Hz is outside the supported range \(r.lowerBound)...\(r.upperBound) Hz"
    case .channelCountOutOfRange(let c, let r):
      "channel count \(c) is outside the supported range \(r.lowerBound)...\(r.upperBound)"
    }
  }
}
