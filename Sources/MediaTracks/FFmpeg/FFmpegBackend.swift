/// The FFmpeg probing backend: libavformat opens the input (see ``FormatContext``), reads the
/// headers and, when they leave facts out, packets; the container's own declarations are
/// cross-checked (see ``ContainerDeclarations``).
enum FFmpegBackend: ProbingBackend {
  static func probe(_ input: MediaInput, timeout: Double?, lenient: Bool) throws(MediaError)
    -> ProbedMedia
  {
    switch input {
    case .path(let path):
      let context = try FormatContext(path: path, timeout: timeout)
      return try describe(context, name: path, lenient: lenient)
    case .remote(let url, let access):
      let context = try FormatContext(path: url, timeout: timeout, remote: access)
      return try describe(context, name: url, lenient: lenient)
    case .bytes(let bytes, let name):
      let context = try FormatContext(bytes: bytes, name: name, timeout: timeout)
      return try describe(context, name: name, lenient: lenient)
    }
  }

  /// The facts of an open container.
  private static func describe(_ context: borrowing FormatContext, name: String, lenient: Bool)
    throws(MediaError) -> ProbedMedia
  {
    if context.needsStreamInfo() {
      do throws(MediaError) {
        try context.findStreamInfo(path: name)
      } catch {
        // The headers' facts are still worth listing (an encrypted track's packets do not
        // decode); a timeout, or a file with no stream at all, is the error.
        if !lenient || error.isTimeout || context.streamCount == 0 { throw error }
      }
    }
    var (audio, subtitles) = context.tracks()
    // A WAVE file's one track is the file: its duration is the track's, which corrects
    // FFmpeg's for samples narrower than their container (see `correctNarrowWave`).
    var waveDuration: Double? = nil
    if context.formatName == "wav", audio.count == 1 { waveDuration = audio[0].duration }
    guard lenient else {
      return ProbedMedia(
        demuxerName: context.formatName, duration: waveDuration ?? context.containerDuration,
        bitRate: context.bitRate, audio: audio, subtitles: subtitles)
    }
    context.refineFromFirstPackets(&audio, path: name)
    let audioEnd = context.extendTransportStreamEnds(&audio, path: name)
    // Without the stream-info pass some demuxers (WAVE, Ogg, AVI) leave the container's
    // duration unset; it is then the longest stream's the headers state (video included),
    // else the longest audio track's.
    var duration = waveDuration ?? context.containerDuration
    if let stated = duration, context.isImplausible(stated) { duration = nil }
    if let audioEnd, audioEnd > duration ?? 0 { duration = audioEnd }
    // A chained Ogg file's one listed stream plays every link (a file with video beside its
    // audio is not walked).
    if context.formatName == "ogg", context.streamCount == 1, audio.count == 1,
      let source = context.byteSource,
      let chained = OggChain.duration(source)
    {
      audio[0].duration = chained
      duration = chained
    }
    duration = duration ?? context.longestStatedStream() ?? audio.compactMap(\.duration).max()
    return ProbedMedia(
      demuxerName: context.formatName, duration: duration, bitRate: context.bitRate, audio: audio,
      subtitles: subtitles)
  }
}
