/// A player's playback-speed menu: validated speeds with their labels and a default.
///
/// A speed is what ``TimeStretcher/speed`` is: input seconds played per output second. (Earlier
/// versions called it a rate; the `rate` names remain, deprecated, for one release, and menus
/// encoded with them still decode.)
///
/// ```swift
/// let menu = try SpeedMenu(speeds: [0.5, 1, 2], labels: ["Slow", "Normal", "Fast"])
/// menu.stepUp(from: 1)     // 2
/// menu.nearest(to: 1.3)    // 1
/// ```
///
/// Entries are kept in ascending speed order whatever order they were given in.
public struct SpeedMenu: Sendable, Hashable, Codable {
  /// One menu entry.
  public struct Entry: Sendable, Hashable, Codable {
    /// The speed (input seconds per output second).
    public var speed: Double
    /// The text shown for it.
    public var label: String

    /// The speed under its former name.
    @available(*, deprecated, renamed: "speed")
    public var rate: Double {
      get { speed }
      set { speed = newValue }
    }

    init(speed: Double, label: String) {
      self.speed = speed
      self.label = label
    }

    private enum CodingKeys: String, CodingKey {
      case speed
      case label
      /// The former key of ``speed``, still decoded.
      case rate
    }

    /// Decodes an entry, its speed under the key `speed` or, as written before, `rate`.
    /// - Throws: `DecodingError` when the label or both speed keys are missing.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      speed = try container.decode(.speed, formerly: .rate)
      label = try container.decode(String.self, forKey: .label)
    }

    /// Encodes the speed (key `speed`) and the label.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(speed, forKey: .speed)
      try container.encode(label, forKey: .label)
    }
  }

  /// The entries, slowest first.
  public let entries: [Entry]
  /// The speed selected when playback starts; one of the entries' speeds.
  public let defaultSpeed: Double

  /// The default speed under its former name.
  @available(*, deprecated, renamed: "defaultSpeed")
  public var defaultRate: Double { defaultSpeed }

  /// Creates a menu.
  /// - Parameters:
  ///   - speeds: the speeds, each finite and inside ``TimeStretcher/supportedSpeeds``, no two
  ///     equal.
  ///   - labels: one label per speed, in the same order; `nil` gives ``defaultLabel(for:)``.
  ///   - defaultSpeed: one of `speeds`; `nil` picks 1 if present, else the speed nearest to 1.
  /// - Throws: ``StretchError`` naming the first bad entry (zero-based index and value).
  public init(speeds: [Double], labels: [String]? = nil, defaultSpeed: Double? = nil)
    throws(StretchError)
  {
    guard !speeds.isEmpty else { throw .emptyMenu }
    let supported = TimeStretcher.supportedSpeeds
    for (i, r) in speeds.enumerated() {
      guard r.isFinite, supported.contains(r) else {
        throw .invalidMenuSpeed(index: i, value: r, supported: supported)
      }
      if speeds[..<i].contains(r) {
        throw .duplicateMenuSpeed(index: i, value: r)
      }
    }
    if let labels, labels.count != speeds.count {
      throw .labelCountMismatch(speeds: speeds.count, labels: labels.count)
    }
    var entries: [Entry] = []
    entries.reserveCapacity(speeds.count)
    for (i, r) in speeds.enumerated() {
      entries.append(Entry(speed: r, label: labels?[i] ?? Self.defaultLabel(for: r)))
    }
    entries.sort { $0.speed < $1.speed }
    let chosen: Double
    if let defaultSpeed {
      guard speeds.contains(defaultSpeed) else { throw .defaultSpeedNotInMenu(defaultSpeed) }
      chosen = defaultSpeed
    } else {
      chosen = Self.nearest(to: 1, in: entries)
    }
    self.entries = entries
    self.defaultSpeed = chosen
  }

  /// Creates a menu: ``init(speeds:labels:defaultSpeed:)`` under its former argument names.
  /// - Throws: what ``init(speeds:labels:defaultSpeed:)`` throws.
  @available(*, deprecated, renamed: "init(speeds:labels:defaultSpeed:)")
  public init(rates: [Double], labels: [String]? = nil, defaultRate: Double? = nil)
    throws(StretchError)
  {
    try self.init(speeds: rates, labels: labels, defaultSpeed: defaultRate)
  }

  /// The common menu: 0.5×, 0.75×, 1×, 1.25×, 1.5×, 1.75×, 2×, defaulting to 1×.
  public static let standard: SpeedMenu = {
    do {
      return try SpeedMenu(speeds: [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2])
    } catch {
      // The speeds above are valid constants; this branch cannot run.
      return SpeedMenu(validated: [Entry(speed: 1, label: "1×")], defaultSpeed: 1)
    }
  }()

  private init(validated entries: [Entry], defaultSpeed: Double) {
    self.entries = entries
    self.defaultSpeed = defaultSpeed
  }

  /// The speeds, slowest first.
  public var speeds: [Double] { entries.map(\.speed) }

  /// The speeds under their former name.
  @available(*, deprecated, renamed: "speeds")
  public var rates: [Double] { speeds }

  /// The label shown for `speed` when none is given: the shortest decimal form followed by "×"
  /// (`1.5×`, `1×`, `0.75×`).
  public static func defaultLabel(for speed: Double) -> String {
    var text = "\(speed)"
    if text.hasSuffix(".0") {
      text.removeLast(2)
    }
    return text + "×"
  }

  /// The label of `speed`, or `nil` when it is not in the menu.
  public func label(for speed: Double) -> String? {
    entries.first { $0.speed == speed }?.label
  }

  /// The next faster speed after `current`, or the fastest speed when there is none.
  public func stepUp(from current: Double) -> Double {
    guard current.isFinite else { return defaultSpeed }
    return entries.first { $0.speed > current }?.speed ?? entries[entries.count - 1].speed
  }

  /// The next slower speed before `current`, or the slowest speed when there is none.
  public func stepDown(from current: Double) -> Double {
    guard current.isFinite else { return defaultSpeed }
    return entries.last { $0.speed < current }?.speed ?? entries[0].speed
  }

  /// The menu speed closest to `speed` (the slower one on a tie); the default for a non-finite
  /// speed.
  public func nearest(to speed: Double) -> Double {
    guard speed.isFinite else { return defaultSpeed }
    return Self.nearest(to: speed, in: entries)
  }

  private static func nearest(to speed: Double, in entries: [Entry]) -> Double {
    var best = entries[0].speed
    for e in entries where abs(e.speed - speed) < abs(best - speed) {
      best = e.speed
    }
    return best
  }

  // The menu's coding has the shape of its entries' (keys with a former name, then decoding and
  // encoding by hand): each type reads its own renamed key.
  private enum CodingKeys: String, CodingKey {
    case entries
    case defaultSpeed
    /// The former key of ``defaultSpeed``, still decoded.
    case defaultRate
  }

  /// Decodes a menu and validates it like ``init(speeds:labels:defaultSpeed:)``. The default
  /// speed is read from the key `defaultSpeed` or, as written before, `defaultRate`.
  /// - Throws: `DecodingError.dataCorrupted` describing the ``StretchError``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let entries = try container.decode([Entry].self, forKey: .entries)
    let defaultSpeed = try container.decode(.defaultSpeed, formerly: .defaultRate)
    do {
      self = try SpeedMenu(
        speeds: entries.map(\.speed), labels: entries.map(\.label), defaultSpeed: defaultSpeed)
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the entries and the default speed (keys `entries` and `defaultSpeed`).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entries, forKey: .entries)
    try container.encode(defaultSpeed, forKey: .defaultSpeed)
  }
}

extension KeyedDecodingContainer {
  /// The number under `key`, or under `former`, its name before a rename, when `key` is missing.
  /// - Throws: `DecodingError` when neither key holds a number.
  fileprivate func decode(_ key: Key, formerly former: Key) throws -> Double {
    try decodeIfPresent(Double.self, forKey: key) ?? decode(Double.self, forKey: former)
  }
}
