/// Clean channel-layout names for menus: `mono`, `stereo`, `2.1`, `5.1`, `7.1`, …
enum ChannelLayoutName {
  /// Turns FFmpeg's layout description into the name a menu shows.
  ///
  /// FFmpeg's variants that differ only in where the surround speakers sit collapse onto the
  /// plain name (`5.1(side)` → `5.1`, `7.1(wide)` → `7.1`). A layout FFmpeg cannot name
  /// (`"6 channels"`, an empty description) is named from `channels`: `mono`, `stereo`, or
  /// `"N channels"`.
  ///
  /// - Parameters:
  ///   - described: The text of `av_channel_layout_describe`.
  ///   - channels: The channel count.
  static func clean(_ described: String, channels: Int) -> String {
    var name = Substring(described)
    if let open = name.firstIndex(of: "("), open != name.startIndex, name.hasSuffix(")") {
      name = name[..<open]
    }
    if name.isEmpty || name.hasSuffix(" channels") || name.hasPrefix("ambisonic") {
      switch channels {
      case ..<1: return "unknown"
      case 1: return "mono"
      case 2: return "stereo"
      default: return "\(channels) channels"
      }
    }
    return String(name)
  }
}
