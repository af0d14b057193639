internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the audio and subtitle tracks of media files (and of HLS and DASH manifests), labels
/// them and makes the default choice.
public enum MediaProbe {
  /// Probes one file.
  ///
  /// Media files are opened in process with libavformat. Only the headers are read when they
  /// state every audio and subtitle stream's codec (and, for audio, sample rate and channels),
  /// as Matroska, WebM, MP4, Ogg and WAVE headers do; otherwise (MPEG-TS, raw AAC, …) packets
  /// are read until the facts are known. Paths ending in `.m3u8` are parsed as HLS master
  /// playlists and `.mpd` as DASH manifests, in Swift (see ``ManifestParser``).
  ///
  /// - Parameters:
  ///   - path: A file path (or any URL FFmpeg can open).
  ///   - preferences: The viewer's languages and options for the default choice.
  ///   - locale: The words labels are made of.
  /// - Returns: The tracks with kinds, labels and the default choice filled in.
  /// - Throws: `MediaError` with kind `.notFound` for a missing or unreadable file and
  ///   `.malformed` for data that is not media (or not a manifest).
  public static func probe(
    path: String, preferences: TrackPreferences = TrackPreferences(),
    locale: LabelLocale = .english
  ) throws(MediaError) -> MediaInfo {
    if let manifest = try ManifestParser.parseIfManifest(path: path) {
      var info = manifest
      info.finish(preferences: preferences, locale: locale, classifyKinds: false)
      return info
    }
    let context = try FormatContext(path: path)
    return try describe(context, path: path, preferences: preferences, locale: locale)
  }

  /// Probes media held in memory (a download in progress, a file inside an archive), read
  /// through a custom reader: no temporary file. Manifests are not recognised here.
  ///
  /// - Parameters:
  ///   - bytes: The whole file; the caller keeps ownership (nothing is kept after the call).
  ///   - name: The name reported in ``MediaInfo/path`` and in errors.
  ///   - preferences: The viewer's languages and options for the default choice.
  ///   - locale: The words labels are made of.
  /// - Throws: `MediaError` with kind `.malformed` for bytes that are not media.
  public static func probe(
    bytes: [UInt8], name: String = "memory", preferences: TrackPreferences = TrackPreferences(),
    locale: LabelLocale = .english
  ) throws(MediaError) -> MediaInfo {
    let context = try FormatContext(bytes: bytes, name: name)
    return try describe(context, path: name, preferences: preferences, locale: locale)
  }

  /// The tracks of an open container, labelled, with the default choice.
  private static func describe(
    _ context: borrowing FormatContext, path: String, preferences: TrackPreferences,
    locale: LabelLocale
  ) throws(MediaError) -> MediaInfo {
    if context.needsStreamInfo() { try context.findStreamInfo(path: path) }
    let (audio, subtitles) = context.tracks()
    // Without the stream-info pass some demuxers (WAVE, Ogg) leave the container's duration
    // unset; it is then the longest audio track's.
    let duration = context.containerDuration ?? audio.compactMap(\.duration).max()
    var info = MediaInfo(
      path: path, format: context.formatName, duration: duration,
      bitRate: context.bitRate, audio: audio, subtitles: subtitles)
    info.finish(preferences: preferences, locale: locale)
    return info
  }

  /// Probes many files with at most `jobs` files open at once, one FFmpeg context per file on
  /// the worker that opened it.
  ///
  /// - Parameters:
  ///   - paths: The files, in the order results are wanted.
  ///   - jobs: The most files probed at once (at least 1).
  ///   - preferences: The viewer's languages and options for the default choice.
  ///   - locale: The words labels are made of.
  ///   - onResult: Called as each file completes (in completion order, one call at a time, from
  ///     a worker thread) with its position in `paths` and its result.
  /// - Returns: One result per path, in input order: the file's tracks or its error.
  public static func probe(
    paths: [String], jobs: Int, preferences: TrackPreferences = TrackPreferences(),
    locale: LabelLocale = .english,
    onResult: (@Sendable (Int, Result<MediaInfo, MediaError>) -> Void)? = nil
  ) -> [Result<MediaInfo, MediaError>] {
    probe(
      paths: paths, jobs: jobs, preferences: preferences, locale: locale,
      transform: { _, result in result }, onOutput: onResult)
  }

  /// Probes many files like ``probe(paths:jobs:preferences:locale:onResult:)`` and turns each
  /// file's result into an output on the worker that probed it, so work done per file (for
  /// example rendering it as text) runs concurrently too.
  ///
  /// - Parameters:
  ///   - paths: The files, in the order outputs are wanted.
  ///   - jobs: The most files probed at once (at least 1).
  ///   - preferences: The viewer's languages and options for the default choice.
  ///   - locale: The words labels are made of.
  ///   - transform: Called once per file, on a worker thread, possibly several at a time, with
  ///     the file's position in `paths` and its result; returns what is kept for it.
  ///   - onOutput: Called as each file completes (in completion order, one call at a time, from
  ///     a worker thread) with its position in `paths` and its output.
  /// - Returns: One output per path, in input order.
  public static func probe<Output: Sendable>(
    paths: [String], jobs: Int, preferences: TrackPreferences = TrackPreferences(),
    locale: LabelLocale = .english,
    transform: @escaping @Sendable (Int, Result<MediaInfo, MediaError>) -> Output,
    onOutput: (@Sendable (Int, Output) -> Void)? = nil
  ) -> [Output] {
    let work = ProbeBatch(
      paths: paths, preferences: preferences, locale: locale, transform: transform,
      onOutput: onOutput)
    let workers = max(1, min(jobs, paths.count))
    if workers == 1 {
      work.run()
    } else {
      WorkerThreads.run(count: workers) { work.run() }
    }
    return work.outputs()
  }
}
