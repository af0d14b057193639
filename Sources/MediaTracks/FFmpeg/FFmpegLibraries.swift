internal import CFFmpeg
internal import CFFmpegLoader

/// FFmpeg's libraries, opened on first use rather than at program start (see CFFmpegLoader), so
/// that work which never needs FFmpeg (WAVE files, subtitles) does not pay for loading it.
enum FFmpegLibraries {
  /// Opens the libraries (once; later calls return at once) and silences FFmpeg's own logging:
  /// failures are reported as typed errors instead. Every path into FFmpeg starts here.
  ///
  /// Throws `.other` naming the library or function that could not be loaded.
  static func require() throws(MediaError) {
    guard cff_load() != 0 else {
      throw MediaError(
        kind: .other, operation: "dlopen", detail: String(cString: cff_load_failure()))
    }
    cff_quiet_logging()
  }
}
