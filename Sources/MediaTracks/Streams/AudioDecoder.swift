/// Decodes one audio track of a media file to interleaved 32-bit float samples, pulled in chunks.
///
/// The decoder owns its demuxer, codec and sample-conversion contexts and frees them when it goes
/// away. Samples come out at the track's native sample rate and channel count (see
/// ``sampleRate`` and ``channels``), interleaved in FFmpeg's channel order for the layout, in the
/// range -1...1 (decoders may overshoot slightly). The rate and channel count are the decoder's
/// (from the first frame, decoded when the decoder opens), where a header states others (an
/// MP4 Opus entry stating its input's 16 kHz gives 48 kHz).
///
/// Recoverable decoding errors (a damaged packet) are skipped as FFmpeg's own tools skip them;
/// a file that yields nothing decodable, or whose demuxer fails mid-stream, throws `MediaError`
/// with kind `.malformed`; so does:
/// - a track this FFmpeg cannot decode (``AudioTrack/decodable`` is false: no decoder for the
///   codec the container declares, such as MPEG-H, AC-4, IAMF or DTS-UHD; a stream FFmpeg
///   takes for another codec than the container declares; an encrypted track), refused when
///   the decoder opens, with a message naming the codec;
/// - a decoder that gives less than half of the audio the track's packets hold (it does not
///   really read the stream), or that fails on every packet of the last half second or more
///   (a chained Ogg link it cannot read), at the end of the track, naming the codec;
/// - a truncated file: an MP4 whose index names samples the file does not hold (the stated
///   duration is not used: fragmented files state impossible ones), in other containers a
///   track that ends before half of the duration the headers state for it and more than a
///   second short of it, and a local file whose bytes end before its container says they do,
///   by any amount: a WAVE `data` chunk, an AIFF `FORM` or chunk, a Matroska or WebM `Segment`
///   of known size, an Ogg page, FLAC metadata or fewer samples than STREAMINFO's count, a raw
///   MPEG audio or ADTS frame cut off. A file that states no size (written to a pipe: Matroska's
///   unknown size, AIFF's placeholder, FLAC's count of 0) and MPEG-TS or MPEG-PS, cut, decode
///   up to the cut, as FFmpeg's own tools do.
///
/// E-AC-3 sync frames packed several to an MP4 sample are decoded one access unit at a time
/// (FFmpeg's decoder reads only the first of a packet).
///
/// Plain PCM WAVE files (16, 24 and 32-bit integer or 32-bit float samples) are decoded in Swift,
/// without loading FFmpeg, with the same results; every other file is decoded by FFmpeg, which
/// is loaded at the first such file.
///
/// ```swift
/// var decoder = try AudioDecoder(path: "movie.mkv")
/// var buffer: [Float] = []
/// while case let frames = try decoder.read(into: &buffer, maxFrames: 4096), frames > 0 {
///   consume(buffer[0..<frames * decoder.channels])
/// }
/// ```
public struct AudioDecoder: ~Copyable {
  /// Samples per second (Hz) of the decoded output: the rate the decoder gives.
  public let sampleRate: Int
  /// Channels per frame of the decoded output: the count the decoder gives.
  public let channels: Int
  /// The container stream index of the decoded track.
  public let streamIndex: Int
  /// The track's own duration in seconds (a fragmented MP4's from its fragments; the
  /// container's only when the track is its only stream), or `nil` when unknown.
  public let duration: Double?
  /// The clean name of the channel layout: `mono`, `stereo`, `5.1`, …
  public let channelLayoutName: String
  /// The speaker of each channel as a channel mask (the WAVE `dwChannelMask` bits, which FFmpeg
  /// shares: 0x1 front left, 0x2 front right, 0x4 front centre, 0x8 LFE, 0x10/0x20 back left
  /// and right, 0x200/0x400 side left and right, …; channels in bit order), or `nil` when the
  /// track states none (the default layout for ``channels`` then applies). 0 for a WAVE file
  /// of more than two channels whose header assigns them no speakers: a WAVE output then says
  /// so too, and other formats take the default layout. Pass it to ``AudioEncoder`` to keep the
  /// layout.
  public let channelMask: UInt64?

  private let source: Source

  /// What decodes the file.
  private enum Source {
    case wave(WaveReader)
    case ffmpeg(FFmpegAudioSource)
  }

  /// Opens `path` and prepares to decode one audio track.
  ///
  /// - Parameters:
  ///   - path: A file path (or any URL FFmpeg can open).
  ///   - streamIndex: The container stream index of the audio track, or `nil` for the default
  ///     audio track (``TrackSelection/defaultAudio(in:preferences:)`` with no language
  ///     preference).
  ///   - timeout: The longest one reading call may take, in seconds: opening the file, its
  ///     stream-information pass, or reading one packet, here and in every later
  ///     ``read(into:maxFrames:)`` (see ``MediaProbe/defaultTimeout``, which `nil` means;
  ///     `.infinity` sets no limit). It bounds a pipe whose writer stalls, not the whole decode.
  ///   - remote: How an http(s) URL is requested (see ``RemoteAccess``); its byte ranges are
  ///     read as the decoder goes.
  /// - Throws: `MediaError` with kind `.notFound` when the file is missing or unreadable,
  ///   `.malformed` when it is not decodable media (or is a device, or its track cannot be
  ///   decoded here, as the type's notes say), `.noSuchStream` when it
  ///   has no audio track (or `streamIndex` is not an audio track), `.invalidArgument` for a
  ///   timeout that is not a positive number, `.other` when FFmpeg is needed but cannot be
  ///   loaded, and kind `.other` with ``MediaError/isTimeout`` when a call took longer than
  ///   the timeout.
  public init(
    path: String, streamIndex: Int? = nil, timeout: Double? = nil,
    remote: RemoteAccess = RemoteAccess()
  ) throws(MediaError) {
    try self.init(
      path: path, streamIndex: streamIndex, waveFastPath: true, timeout: timeout, remote: remote)
  }

  /// Opens `path`; with `waveFastPath` false, FFmpeg decodes every file (for comparisons).
  init(
    path: String, streamIndex: Int?, waveFastPath: Bool, timeout: Double? = nil,
    remote: RemoteAccess = RemoteAccess()
  ) throws(MediaError) {
    _ = try Deadline(timeout: timeout)
    if waveFastPath, !RemoteURL.isRemote(path), streamIndex == nil || streamIndex == 0,
      let wave = try WaveReader(path: path)
    {
      sampleRate = wave.sampleRate
      channels = wave.channels
      self.streamIndex = 0
      duration = wave.duration
      channelLayoutName = wave.channelLayoutName
      channelMask = wave.channelMask
      source = .wave(wave)
    } else {
      let decoder = try FFmpegAudioSource(
        path: path, streamIndex: streamIndex, timeout: timeout, remote: remote)
      sampleRate = decoder.sampleRate
      channels = decoder.channels
      self.streamIndex = decoder.streamIndex
      duration = decoder.duration
      channelLayoutName = decoder.channelLayoutName
      channelMask = decoder.channelMask
      source = .ffmpeg(decoder)
    }
  }

  /// Decodes up to `maxFrames` frames into the start of `buffer` as interleaved floats.
  ///
  /// `buffer` is grown to `maxFrames * channels` samples when it is smaller; it is never shrunk,
  /// and samples past the returned count are left as they were. Reusing one buffer makes the
  /// steady-state loop allocation-free.
  ///
  /// - Parameters:
  ///   - buffer: Receives `returned * channels` samples, interleaved, at its start.
  ///   - maxFrames: The most frames (samples per channel) to write; must be positive. At most
  ///     ``maxFramesPerRead`` are written per call, whatever larger value is asked for.
  /// - Returns: The frames written; `0` only at the end of the track.
  /// - Throws: `MediaError` with kind `.malformed` when the data cannot be demuxed or nothing in
  ///   the track decodes, `.invalidArgument` when `maxFrames` is not positive, and kind
  ///   `.other` with ``MediaError/isTimeout`` when reading a packet took longer than the
  ///   timeout.
  public mutating func read(into buffer: inout [Float], maxFrames: Int) throws(MediaError) -> Int {
    guard maxFrames > 0 else {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioDecoder.read",
        detail: "maxFrames must be positive, got \(maxFrames)")
    }
    let frames = min(maxFrames, Self.maxFramesPerRead)
    switch source {
    case .wave(let reader): return try reader.read(into: &buffer, maxFrames: frames)
    case .ffmpeg(let decoder): return try decoder.read(into: &buffer, maxFrames: frames)
    }
  }

  /// The most frames one ``read(into:maxFrames:)`` writes (2^20, about 22 s at 48 kHz): the
  /// buffer is grown to the frames asked for, so a larger request is cut to this.
  public static let maxFramesPerRead = 1 << 20
}
