#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a path names: a local file (possibly written as a `file:` URL) or a URL of another
/// protocol, which only a backend's own protocols open.
enum InputPath {
  /// The URL a backend should open for `path` when it names no local file and starts with a
  /// protocol other than `file:` (`https://…`); `nil` for a local path.
  static func url(_ path: String) -> String? {
    guard let colon = path.firstIndex(of: ":") else { return nil }
    let scheme = path[..<colon]
    guard scheme.count >= 2, scheme.lowercased() != "file",
      scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
    else { return nil }
    var info = stat()
    return stat(path, &info) == 0 ? nil : path
  }

  /// `path` without a `file:` prefix (`file:///a.mkv`, `file:a.mkv`), when it names no local
  /// file as written.
  static func localPath(_ path: String) -> String {
    guard path.lowercased().hasPrefix("file:") else { return path }
    var info = stat()
    if stat(path, &info) == 0 { return path }
    let rest = path.dropFirst(5)
    return String(rest.hasPrefix("//") ? rest.dropFirst(2) : rest)
  }
}
