#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the audio and subtitle tracks of media files (and of HLS and DASH manifests), labels
/// them and makes the default choice.
public enum MediaProbe {
  /// The timeout, in seconds, that applies when none is given (`timeout: nil`): the longest
  /// one reading call may take, that is opening an input (with FFmpeg's format probe), its
  /// stream-information pass, or reading one packet. Generous: a local file needs a fraction of
  /// a second for any of them; a pipe or a server that gives nothing for this long is taken
  /// to be stuck.
  public static let defaultTimeout: Double = 30

  /// Probes one file.
  ///
  /// Media files are opened in process with libavformat. Only the headers are read when they
  /// state every audio and subtitle stream's codec (and, for audio, sample rate and channels),
  /// as Matroska, WebM, MP4, Ogg and WAVE headers do; otherwise (MPEG-TS, raw AAC, …) packets
  /// are read until the facts are known (at most 5 MB and 5 s of media, FFmpeg's bounds).
  ///
  /// HLS master playlists and DASH manifests are parsed in Swift (see ``ManifestParser``),
  /// recognised by their content (`#EXTM3U`, an `MPD` element) whatever the file's name, and by
  /// the extensions `.m3u8` and `.mpd`: nothing they refer to is fetched, and a live manifest
  /// lists what it declares.
  ///
  /// A local file is read by FFmpeg through this module's reader and may make FFmpeg open
  /// nothing else: no other file and no network, whatever it holds (a playlist, an `ffconcat`
  /// list). Named pipes are read as they come, within the timeout; devices (`/dev/zero`) are
  /// refused. A path that is a URL (`https://…`) is opened by FFmpeg's own protocols; an
  /// `http:` or `https:` URL with `remote`'s headers, only `http`, `https`, `tls` and `tcp`
  /// allowed, and, when it is an HLS or DASH manifest, read as a local one is, what it names
  /// resolved against its URL (see ``RemoteAccess``).
  ///
  /// - Parameters:
  ///   - path: A file path (or any URL FFmpeg can open).
  ///   - preferences: The viewer's languages and options for the default choice.
  ///   - locale: The words labels are made of.
  ///   - timeout: The longest one reading call may take, in seconds (see ``defaultTimeout``,
  ///     which `nil` means; `.infinity` sets no limit).
  ///   - remote: How an http(s) input is requested (extra headers, user agent).
  /// - Returns: The tracks with kinds, labels and the default choice filled in.
  /// - Throws: `MediaError` with kind `.notFound` for a missing or unreadable file (for a URL:
  ///   a 4xx answer or a server that cannot be reached),
  ///   `.malformed` for data that is not media (or not a manifest) and for a device,
  ///   `.invalidArgument` for a timeout that is not a positive number, and kind `.other` with
  ///   ``MediaError/isTimeout`` when a call took longer than the timeout.
  public static func probe(
    path: String, preferences: TrackPreferences = TrackPreferences(),
    locale: LabelLocale = .english, timeout: Double? = nil, remote: RemoteAccess = RemoteAccess()
  ) throws(MediaError) -> MediaInfo {
    // A remote input ends within the timeout in all: its manifest, playlists and segments, or
    // its media's opening and stream-information pass.
    let whole = RemoteURL.isRemote(path) ? timeout ?? defaultTimeout : .infinity
    return try Deadline.within(seconds: whole) { () throws(MediaError) -> MediaInfo in
      if let manifest = try ManifestParser.parseIfManifest(
        path: path, timeout: timeout, remote: remote)
      {
        var info = manifest
        info.finish(preferences: preferences, locale: locale, classifyKinds: false)
        return info
      }
      let input: MediaInput =
        RemoteURL.isRemote(path) ? .remote(path, access: remote) : .path(path)
      return try describe(input, preferences: preferences, locale: locale, timeout: timeout)
    }
  }

  /// ``probe(path:preferences:locale:timeout:remote:)`` as an async call that honours task
  /// cancellation: the work runs on a thread of its own (never blocking a thread of Swift's
  /// cooperative pool), and cancelling the task ends it at its next read or transfer (FFmpeg
  /// checks within milliseconds) with an error whose ``MediaError/isCancelled`` is true.
  ///
  /// - Throws: As the blocking call, and the cancellation error.
  public static func probe(
    path: String, preferences: TrackPreferences = TrackPreferences(),
    locale: LabelLocale = .english, timeout: Double? = nil, remote: RemoteAccess = RemoteAccess()
  ) async throws(MediaError) -> MediaInfo {
    try await BlockingWork.run("probe") { () throws(MediaError) -> MediaInfo in
      try probe(
        path: path, preferences: preferences, locale: locale, timeout: timeout, remote: remote)
    }
  }

  /// Probes media held in memory (a download in progress, a file inside an archive), read
  /// through a custom reader: no temporary file. Manifests are not recognised here, and the
  /// bytes cannot make FFmpeg open any file or the network.
  ///
  /// - Parameters:
  ///   - bytes: The whole file; the caller keeps ownership (nothing is kept after the call).
  ///   - name: The name reported in ``MediaInfo/path`` and in errors.
  ///   - preferences: The viewer's languages and options for the default choice.
  ///   - locale: The words labels are made of.
  ///   - timeout: The longest one FFmpeg call may take, in seconds (see ``defaultTimeout``,
  ///     which `nil` means; `.infinity` sets no limit).
  /// - Throws: `MediaError` with kind `.malformed` for bytes that are not media,
  ///   `.invalidArgument` for a timeout that is not a positive number, and kind `.other` with
  ///   ``MediaError/isTimeout`` when a call took longer than the timeout.
  public static func probe(
    bytes: [UInt8], name: String = "memory", preferences: TrackPreferences = TrackPreferences(),
    locale: LabelLocale = .english, timeout: Double? = nil
  ) throws(MediaError) -> MediaInfo {
    return try describe(
      .bytes(bytes, name: name), preferences: preferences, locale: locale, timeout: timeout)
  }

  /// The backend that reads media files (manifests are parsed here, whatever the backend).
  typealias Backend = FFmpegBackend

  /// The tracks of `input`, labelled, with the default choice.
  private static func describe(
    _ input: MediaInput, preferences: TrackPreferences, locale: LabelLocale, timeout: Double?
  ) throws(MediaError) -> MediaInfo {
    let probed = try Backend.probe(input, timeout: timeout, lenient: true)
    var info = MediaInfo(
      path: input.name, demuxerName: probed.demuxerName, duration: probed.duration,
      bitRate: probed.bitRate, audio: probed.audio, subtitles: probed.subtitles)
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
  ///   - timeout: The longest one reading call may take, per file, in seconds (see
  ///     ``defaultTimeout``, which `nil` means).
  ///   - onResult: Called as each file completes (in completion order, one call at a time, from
  ///     a worker thread) with its position in `paths` and its result.
  /// - Returns: One result per path, in input order: the file's tracks or its error.
  public static func probe(
    paths: [String], jobs: Int, preferences: TrackPreferences = TrackPreferences(),
    locale: LabelLocale = .english, timeout: Double? = nil,
    onResult: (@Sendable (Int, Result<MediaInfo, MediaError>) -> Void)? = nil
  ) -> [Result<MediaInfo, MediaError>] {
    probe(
      paths: paths, jobs: jobs, preferences: preferences, locale: locale, timeout: timeout,
      transform: { _, result in result }, onOutput: onResult)
  }

  /// Probes many files like ``probe(paths:jobs:preferences:locale:timeout:onResult:)`` and turns each
  /// file's result into an output on the worker that probed it, so work done per file (for
  /// example rendering it as text) runs concurrently too.
  ///
  /// - Parameters:
  ///   - paths: The files, in the order outputs are wanted.
  ///   - jobs: The most files probed at once (at least 1).
  ///   - preferences: The viewer's languages and options for the default choice.
  ///   - locale: The words labels are made of.
  ///   - timeout: The longest one reading call may take, per file, in seconds (see
  ///     ``defaultTimeout``, which `nil` means).
  ///   - remote: How http(s) inputs are requested.
  ///   - transform: Called once per file, on a worker thread, possibly several at a time, with
  ///     the file's position in `paths` and its result; returns what is kept for it.
  ///   - onOutput: Called as each file completes (in completion order, one call at a time, from
  ///     a worker thread) with its position in `paths` and its output.
  /// - Returns: One output per path, in input order.
  public static func probe<Output: Sendable>(
    paths: [String], jobs: Int, preferences: TrackPreferences = TrackPreferences(),
    locale: LabelLocale = .english, timeout: Double? = nil, remote: RemoteAccess = RemoteAccess(),
    transform: @escaping @Sendable (Int, Result<MediaInfo, MediaError>) -> Output,
    onOutput: (@Sendable (Int, Output) -> Void)? = nil
  ) -> [Output] {
    let work = ProbeBatch(
      paths: paths, preferences: preferences, locale: locale, timeout: timeout, remote: remote,
      transform: transform, onOutput: onOutput)
    let workers = max(1, min(jobs, paths.count))
    if workers == 1 {
      work.run()
    } else {
      WorkerThreads.run(count: workers) { work.run() }
    }
    return work.outputs()
  }
}
