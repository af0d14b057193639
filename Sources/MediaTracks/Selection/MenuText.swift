/// Text fit for one line of a menu.
enum MenuText {
  /// `text` with each run of whitespace and control characters (line breaks, tabs, escape
  /// sequences' introducers) made one space, and none at either end: a title or label written
  /// over several lines, or holding terminal control codes, reads as one line.
  static func collapsingWhitespace(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
        pendingSpace = !scalars.isEmpty
        continue
      }
      if pendingSpace {
        scalars.append(" ")
        pendingSpace = false
      }
      scalars.append(scalar)
    }
    return String(scalars)
  }
}
