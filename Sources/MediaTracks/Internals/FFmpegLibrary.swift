internal import CFFmpeg

/// FFmpeg's shared libraries, which this module opens at first use rather than at process start.
///
/// Every path into FFmpeg (opening an input or an output, probing bytes) calls ``load()`` first,
/// so a missing or broken FFmpeg is a typed error, not a crash; work that never reaches FFmpeg
/// (manifests, the WAVE fast path) never loads it.
enum FFmpegLibrary {
  /// Loads FFmpeg once per process; later calls return at once. Thread-safe.
  ///
  /// - Throws: `MediaError` with kind `.other` naming the library or function that could not be
  ///   loaded and why.
  static func load() throws(MediaError) {
    guard cff_load() != 0 else { return }
    throw MediaError(
      kind: .other, operation: "dlopen", detail: String(cString: cff_load_error()))
  }

  /// Whether FFmpeg is loaded or loads now.
  static var isAvailable: Bool { cff_load() == 0 }
}
