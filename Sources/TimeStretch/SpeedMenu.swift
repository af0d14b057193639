/// A player's playback-speed menu: validated rates with their labels and a default.
///
/// ```swift
/// let menu = try SpeedMenu(rates: [0.5, 1, 2], labels: ["Slow", "Normal", "Fast"])
/// menu.stepUp(from: 1)     // 2
/// menu.nearest(to: 1.3)    // 1
/// ```
///
/// Entries are kept in ascending rate order whatever order they were given in.
public struct SpeedMenu: Sendable, Hashable, Codable {
  /// One menu entry.
  public struct Entry: Sendable, Hashable, Codable {
    /// The speed (input seconds per output second).
    public var rate: Double
    /// The text shown for it.
    public var label: String
  }

  /// The entries, slowest first.
  public let entries: [Entry]
  /// The rate selected when playback starts; one of the entries' rates.
  public let defaultRate: Double

  /// Creates a menu.
  /// - Parameters:
  ///   - rates: the speeds, each finite and inside ``TimeStretcher/supportedSpeeds``, no two equal.
  ///   - labels: one label per rate, in the same order; `nil` gives ``defaultLabel(for:)``.
  ///   - defaultRate: one of `rates`; `nil` picks 1 if present, else the rate nearest to 1.
  /// - Throws: ``StretchError`` naming the first bad entry (zero-based index and value).
  public init(rates: [Double], labels: [String]? = nil, defaultRate: Double? = nil)
    throws(StretchError)
  {
    guard !rates.isEmpty else { throw .emptyMenu }
    let supported = TimeStretcher.supportedSpeeds
    for (i, r) in rates.enumerated() {
      guard r.isFinite, supported.contains(r) else {
        throw .invalidMenuRate(index: i, value: r, supported: supported)
      }
      if rates[..<i].contains(r) {
        throw .duplicateMenuRate(index: i, value: r)
      }
    }
    if let labels, labels.count != rates.count {
      throw .labelCountMismatch(rates: rates.count, labels: labels.count)
    }
    var entries: [Entry] = []
    entries.reserveCapacity(rates.count)
    for (i, r) in rates.enumerated() {
      entries.append(Entry(rate: r, label: labels?[i] ?? Self.defaultLabel(for: r)))
    }
    entries.sort { $0.rate < $1.rate }
    let chosen: Double
    if let defaultRate {
      guard rates.contains(defaultRate) else { throw .defaultRateNotInMenu(defaultRate) }
      chosen = defaultRate
    } else {
      chosen = Self.nearest(to: 1, in: entries)
    }
    self.entries = entries
    self.defaultRate = chosen
  }

  /// The common menu: 0.5×, 0.75×, 1×, 1.25×, 1.5×, 1.75×, 2×, defaulting to 1×.
  public static let standard: SpeedMenu = {
    do {
      return try SpeedMenu(rates: [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2])
    } catch {
      // The rates above are valid constants; this branch cannot run.
      return SpeedMenu(validated: [Entry(rate: 1, label: "1×")], defaultRate: 1)
    }
  }()

  private init(validated entries: [Entry], defaultRate: Double) {
    self.entries = entries
    self.defaultRate = defaultRate
  }

  /// The rates, slowest first.
  public var rates: [Double] { entries.map(\.rate) }

  /// The label shown for `rate` when none is given: the shortest decimal form followed by "×"
  /// (`1.5×`, `1×`, `0.75×`).
  public static func defaultLabel(for rate: Double) -> String {
    var text = "\(rate)"
    if text.hasSuffix(".0") {
      text.removeLast(2)
    }
    return text + "×"
  }

  /// The label of `rate`, or `nil` when it is not in the menu.
  public func label(for rate: Double) -> String? {
    entries.first { $0.rate == rate }?.label
  }

  /// The next faster rate after `current`, or the fastest rate when there is none.
  public func stepUp(from current: Double) -> Double {
    guard current.isFinite else { return defaultRate }
    return entries.first { $0.rate > current }?.rate ?? entries[entries.count - 1].rate
  }

  /// The next slower rate before `current`, or the slowest rate when there is none.
  public func stepDown(from current: Double) -> Double {
    guard current.isFinite else { return defaultRate }
    return entries.last { $0.rate < current }?.rate ?? entries[0].rate
  }

  /// The menu rate closest to `rate` (the slower one on a tie); the default for a non-finite rate.
  public func nearest(to rate: Double) -> Double {
    guard rate.isFinite else { return defaultRate }
    return Self.nearest(to: rate, in: entries)
  }

  private static func nearest(to rate: Double, in entries: [Entry]) -> Double {
    var best = entries[0].rate
    for e in entries where abs(e.rate - rate) < abs(best - rate) {
      best = e.rate
    }
    return best
  }

  private enum CodingKeys: String, CodingKey {
    case entries
    case defaultRate
  }

  /// Decodes a menu and validates it like ``init(rates:labels:defaultRate:)``.
  /// - Throws: `DecodingError.dataCorrupted` describing the ``StretchError``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let entries = try container.decode([Entry].self, forKey: .entries)
    let defaultRate = try container.decode(Double.self, forKey: .defaultRate)
    do {
      self = try SpeedMenu(
        rates: entries.map(\.rate), labels: entries.map(\.label), defaultRate: defaultRate)
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the entries and the default rate.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entries, forKey: .entries)
    try container.encode(defaultRate, forKey: .defaultRate)
  }
}
