/// A diagnostic list being built, kept to a bounded size as `Diagnostic` describes: repeats of
/// a repair on one line fold into one entry, and entries past `Diagnostic.listLimit` fold into
/// a final one.
struct DiagnosticLog: Sendable {
  /// What an entry may fold with: a later diagnostic of the same kind on the same line.
  enum Fold: Hashable, Sendable {
    /// Never folds (each is an entry of its own, up to the limit).
    case none
    /// An invalid UTF-8 sequence, or a byte a code page leaves unassigned, replaced with U+FFFD.
    case invalidUTF8
    /// A NUL byte replaced with U+FFFD.
    case nul
    /// An unpaired UTF-16 half replaced with U+FFFD.
    case unpairedSurrogate
  }

  /// The listed entries, at most `Diagnostic.listLimit`.
  private(set) var entries: [Diagnostic] = []
  /// For each kind that folds (by raw value), the index of its latest entry, or -1: a
  /// repair folds into it while on its line, whatever other entries came between.
  private var latest: (Int, Int, Int, Int) = (-1, -1, -1, -1)
  /// The repairs and skips past the limit, and where the first of them is.
  private(set) var omitted = 0
  private(set) var omittedLine = 0
  private(set) var omittedOffset = 0

  /// An empty log.
  init() {}

  /// A log holding `list` (a list built by the library or by hand; past the limit, folded).
  init(_ list: [Diagnostic]) {
    append(contentsOf: list)
  }

  var isEmpty: Bool { entries.isEmpty && omitted == 0 }

  /// The list: the entries, then one for the omitted ones.
  var list: [Diagnostic] {
    guard omitted > 0 else { return entries }
    return entries + [
      Diagnostic(
        line: omittedLine, offset: omittedOffset, reason: Diagnostic.omittedReason,
        count: omitted)
    ]
  }

  /// Records a diagnostic. `reason` is evaluated only when the diagnostic becomes an entry.
  ///
  /// - Complexity: O(1) (amortised).
  @inline(__always)
  mutating func add(
    line: Int, offset: Int, fold: Fold = .none, count: Int = 1,
    _ reason: @autoclosure () -> String
  ) {
    if fold != .none && omitted == 0 {
      let index = latestEntry(fold)
      if index >= 0 && entries[index].line == line {
        entries[index].count &+= count
        return
      }
    }
    if omitted > 0 || entries.count >= Diagnostic.listLimit {
      omit(count: count, line: line, offset: offset)
      return
    }
    if fold != .none { setLatestEntry(fold, entries.count) }
    entries.append(Diagnostic(line: line, offset: offset, reason: reason(), count: count))
  }

  @inline(__always)
  private func latestEntry(_ fold: Fold) -> Int {
    switch fold {
    case .none: latest.0
    case .invalidUTF8: latest.1
    case .nul: latest.2
    case .unpairedSurrogate: latest.3
    }
  }

  @inline(__always)
  private mutating func setLatestEntry(_ fold: Fold, _ index: Int) {
    switch fold {
    case .none: latest.0 = index
    case .invalidUTF8: latest.1 = index
    case .nul: latest.2 = index
    case .unpairedSurrogate: latest.3 = index
    }
  }

  /// Records `diagnostic` as it is (never folded into the entry before it).
  mutating func append(_ diagnostic: Diagnostic) {
    add(
      line: diagnostic.line, offset: diagnostic.offset, count: diagnostic.count,
      diagnostic.reason)
  }

  /// Records every diagnostic of `list`, in order.
  mutating func append(contentsOf list: [Diagnostic]) {
    for diagnostic in list { append(diagnostic) }
  }

  /// Records the entries of `other` after these, then what it omitted.
  mutating func append(contentsOf other: DiagnosticLog) {
    append(contentsOf: other.entries)
    if other.omitted > 0 {
      omit(count: other.omitted, line: other.omittedLine, offset: other.omittedOffset)
    }
  }

  /// Counts `count` diagnostics from `line`/`offset` on as omitted.
  private mutating func omit(count: Int, line: Int, offset: Int) {
    if omitted == 0 {
      omittedLine = line
      omittedOffset = offset
    }
    omitted &+= count
  }

  /// The diagnostics of `a` and `b` in file order (by line, then offset; on a tie, `a`'s
  /// first and each log's own order kept), bounded again. What either log omitted stays
  /// omitted, together with the other's entries from that position on.
  ///
  /// - Complexity: O(*k* log *k*) for *k* = `Diagnostic.listLimit`.
  static func merged(_ a: DiagnosticLog, _ b: DiagnosticLog) -> DiagnosticLog {
    func key(_ d: Diagnostic) -> (Int, Int) { (d.line, d.offset) }
    func sorted(_ list: [Diagnostic]) -> [Diagnostic] {
      list.enumerated().sorted { x, y in
        (x.element.line, x.element.offset, x.offset) < (y.element.line, y.element.offset, y.offset)
      }.map(\.element)
    }
    // The earliest position either log stopped listing at.
    var cut: (Int, Int)? = nil
    for log in [a, b] where log.omitted > 0 {
      let here = (log.omittedLine, log.omittedOffset)
      if let current = cut, current <= here { continue }
      cut = here
    }
    let x = sorted(a.entries)
    let y = sorted(b.entries)
    var out = DiagnosticLog()
    var i = 0
    var j = 0
    while i < x.count || j < y.count {
      let next: Diagnostic
      if j >= y.count || (i < x.count && key(x[i]) <= key(y[j])) {
        next = x[i]
        i += 1
      } else {
        next = y[j]
        j += 1
      }
      if let cut, key(next) >= cut {
        out.omit(count: next.count, line: next.line, offset: next.offset)
      } else {
        out.append(next)
      }
    }
    for log in [a, b] where log.omitted > 0 {
      out.omit(count: log.omitted, line: log.omittedLine, offset: log.omittedOffset)
    }
    if let cut, out.omitted > 0, (out.omittedLine, out.omittedOffset) > cut {
      (out.omittedLine, out.omittedOffset) = cut
    }
    return out
  }
}
