/// The FFmpeg probing backend: libavformat opens the input (see ``FormatContext``), reads the
/// headers and, when they leave facts out, packets; the container's own declarations are
/// cross-checked (see ``ContainerDeclarations``).
enum FFmpegBackend: ProbingBackend {
  static func probe(_ input: MediaInput, timeout: Double?, lenient: Bool) throws(MediaError)
    -> ProbedMedia
  {
    switch input {
    case .path(let path):
      let context: FormatContext
      do {
        context = try FormatContext(path: path, timeout: timeout)
      } catch {
        if let wave = bigEndianWave(path: path) { return wave }
        if let free = freeFormatMPEGAudio(path: path) { return free }
        throw error
      }
      return try describe(context, name: path, lenient: lenient)
    case .remote(let url, let access):
      let context = try FormatContext(path: url, timeout: timeout, remote: access)
      return try describe(context, name: url, lenient: lenient)
    case .bytes(let bytes, let name):
      let context = try FormatContext(bytes: bytes, name: name, timeout: timeout)
      return try describe(context, name: name, lenient: lenient)
    }
  }

  /// The facts of a free-format MPEG audio file (see `ElementaryFrames.freeFormatHeader`) that
  /// FFmpeg 5.1 cannot open (its demuxer fails on a short one: "Failed to read frame size"):
  /// listed from its first frame's header and LAME tag, as one it opens is, and not decodable;
  /// `nil` for anything else.
  private static func freeFormatMPEGAudio(path: String) -> ProbedMedia? {
    guard let source = try? FileBytes(path: path),
      let free = ElementaryFrames.freeFormatHeader(source)
    else { return nil }
    let duration = MPEGAudioGapless.seconds(source)
    var track = AudioTrack(
      index: 0, codec: "mp3", profile: "free format", sampleRate: free.sampleRate,
      channels: free.channels, channelLayout: ChannelLayout.defaultName(channels: free.channels),
      bitRate: nil, duration: duration, decodable: false)
    track.ffmpegCodec = "mp3"
    return ProbedMedia(
      demuxerName: "mp3", duration: duration, bitRate: nil, audio: [track], subtitles: [])
  }

  /// The facts of a big-endian WAVE file (`RIFX`) of 24 or 32-bit samples, which FFmpeg 5.1
  /// refuses to open ("not yet implemented") and ``WaveReader`` decodes; `nil` for anything
  /// else.
  private static func bigEndianWave(path: String) -> ProbedMedia? {
    guard let source = try? FileBytes(path: path), let format = WaveReader.parse(source.head()),
      format.bigEndian
    else { return nil }
    let codec: String
    switch format.encoding {
    case .int16: codec = "pcm_s16be"
    case .int24: codec = "pcm_s24be"
    case .int32: codec = "pcm_s32be"
    case .float32: codec = "pcm_f32be"
    }
    var duration: Double? = nil
    if format.dataOffset + format.dataSize <= Int(source.size) {
      duration = Double(format.dataSize / format.blockAlign) / Double(format.sampleRate)
    }
    let bitRate = format.sampleRate * format.blockAlign * 8
    // A header that assigns no speakers states no layout (see `correctUnassignedWaveLayout`).
    let layout = WaveHeader.assignsNoSpeakers(source.head()) ? "" : format.layoutName
    let track = AudioTrack(
      index: 0, codec: codec, sampleRate: format.sampleRate, channels: format.channels,
      channelLayout: layout, bitRate: bitRate, duration: duration, decodable: true)
    return ProbedMedia(
      demuxerName: "wav", duration: duration, bitRate: bitRate, audio: [track], subtitles: [])
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
    // FFmpeg's for samples narrower than their container (see `correctNarrowWave`). A CAF
    // file's too (see `cafALACEnd`), and an MXF file's of one stream (see `mxfPCMDuration`).
    var waveDuration: Double? = nil
    if ["wav", "caf"].contains(context.formatName)
      || context.formatName == "mxf" && context.streamCount == 1, audio.count == 1
    {
      waveDuration = audio[0].duration
    }
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
    // audio is not walked; over http(s) only a file whose last page is another stream's).
    if context.formatName == "ogg", context.streamCount == 1, audio.count == 1,
      let source = context.byteSource,
      let chained = OggChain.duration(source, wholeFile: !context.isRemote)
    {
      audio[0].duration = chained
      duration = chained
    }
    // Musepack SV8: its stream header's samples, which FFmpeg 5.1 rounds down to whole
    // packets (see `MusepackHeader`).
    if context.formatName == "mpc8", audio.count == 1, let source = context.byteSource,
      let stated = MusepackHeader.duration(source)
    {
      audio[0].duration = stated
      duration = stated
    }
    // MPEG audio in OGM: its frames, which ogmmerge's granules overstate (see `OGMAudio`).
    // Local files only: the whole file is read.
    if context.formatName == "ogg", !context.isRemote, context.streamCount == 1,
      audio.count == 1, ["mp2", "mp3"].contains(audio[0].codec), let source = context.byteSource,
      let frames = OGMAudio.mpegAudioDuration(source)
    {
      audio[0].duration = frames
      duration = frames
    }
    // A raw MPEG audio or ADTS AAC stream whose length FFmpeg only estimated from the first
    // frames' bit rate: its frames, walked (and for variable bit rates, their average rate).
    // Not over http(s), where the walk would fetch the whole file: the estimate stays.
    // So too a raw MPEG audio stream whose Xing header's frame count comes from a writer
    // other than an encoder (see ``MPEGAudioGapless/statesFramesWithoutEncoderTag(_:)``).
    let untaggedXing =
      context.formatName == "mp3" && !context.isRemote
      && context.byteSource.map { MPEGAudioGapless.statesFramesWithoutEncoderTag($0) } == true
    if context.formatName == "mp3" || context.formatName == "aac",
      context.durationFromBitRate || untaggedXing, !context.isRemote,
      context.streamCount == 1, audio.count == 1, let source = context.byteSource,
      let walk = ElementaryFrames.walk(
        source, kind: context.formatName == "aac" ? .adts : .mpegAudio)
    {
      // Bytes after the frames an MP3's LAME tag counts (FFmpeg then takes the file for two
      // joined ones and estimates): when the walk finds those frames (and no more than stray
      // ones), the audio is the tag's (see ``MPEGAudioGapless/endsAtStatedFrames(_:walk:)``).
      let seconds =
        context.formatName == "mp3"
        ? MPEGAudioGapless.endsAtStatedFrames(source, walk: walk)?.seconds : nil
      audio[0].duration = seconds ?? walk.seconds
      duration = seconds ?? walk.seconds
      if walk.variableBitRate { audio[0].bitRate = walk.averageBitRate }
    }
    // An MPEG audio file of one frame (see `FormatContext.loneFrameSamples`): that frame.
    if let samples = context.loneFrameSamples, audio.count == 1, audio[0].sampleRate > 0 {
      let seconds = Double(samples) / Double(audio[0].sampleRate)
      audio[0].duration = seconds
      duration = seconds
    }
    // A raw MPEG audio or ADTS stream, or a native FLAC file, cut short (see ``DeclaredEnd``):
    // its Xing or VBRI header, or its STREAMINFO, states the whole file's length; the frames
    // that are there give what it holds. Local files only, as above.
    if !context.isRemote, context.streamCount == 1, audio.count == 1,
      let source = context.byteSource
    {
      let raw: ElementaryFrames.Kind? =
        context.formatName == "mp3" ? .mpegAudio : context.formatName == "aac" ? .adts : nil
      if let raw, !context.durationFromBitRate, DeclaredEnd.elementary(source, kind: raw) != nil,
        let walk = ElementaryFrames.walk(source, kind: raw)
      {
        audio[0].duration = walk.seconds
        duration = walk.seconds
      } else if raw == .mpegAudio, !context.durationFromBitRate,
        let gapless = MPEGAudioGapless.seconds(source)
      {
        // A whole MP3 file whose LAME tag states its encoder delay and padding: the audio
        // the decoder gives.
        audio[0].duration = gapless
        duration = gapless
      }
      if context.formatName == "flac", let held = FLACFrames.duration(source, cutShort: true) {
        audio[0].duration = held
        duration = held
      }
    }
    // MPEG audio in WAVE (format tags 0x0050, 0x0055): FFmpeg 5.1 states no length for it, or
    // one from the header's byte rate, which writers leave 0 or state wrongly (its bit rate
    // too); the `data` chunk's frames, walked, give the samples the decoder gives (an Info
    // frame's too) and their bit rate. Local files only, as above.
    if context.formatName == "wav", !context.isRemote, context.streamCount == 1,
      audio.count == 1, ["mp1", "mp2", "mp3"].contains(audio[0].codec),
      let source = context.byteSource,
      let data = WaveHeader.dataRange(in: source),
      let walk = ElementaryFrames.walk(
        ByteWindow(source, start: data.offset, length: data.length), kind: .mpegAudio,
        countingInfoFrame: true)
    {
      audio[0].duration = walk.seconds
      duration = walk.seconds
      audio[0].bitRate = walk.constantBitRate ?? walk.averageBitRate
    }
    // AC-3 in WAVE (format tag 0x2000): FFmpeg 5.1 states no length without a `fact` chunk
    // (FFmpeg's own muxer writes none to a pipe, and leaves the `data` size unset there); the
    // `data` chunk's whole frames, each 1,536 samples, at the size the first frame's header
    // states, are what the decoder gives. The bit rate, where the header's byte rate is 0, is
    // the frame header's.
    if context.formatName == "wav", context.streamCount == 1, audio.count == 1,
      audio[0].codec == "ac3", audio[0].duration == nil, let source = context.byteSource,
      WaveHeader.formatTag(source.head()) == 0x2000,
      let data = WaveHeader.dataRange(in: source),
      let frame = AC3Frames.header(source.bytes(at: data.offset, count: 8)[...])
    {
      let frames = AC3Frames.wholeFrames(data.length, header: frame)
      if frames > 0 {
        let seconds =
          Double(frames * Int64(AC3Frames.samplesPerFrame)) / Double(frame.sampleRate)
        audio[0].duration = seconds
        duration = duration ?? seconds
      }
      if audio[0].bitRate == nil { audio[0].bitRate = frame.bitRate }
    }
    // An Ogg stream that starts past 0 (see `correctOggStart`) ends its start later than its
    // length: the file lasts to that end, as its timeline does.
    let ogg = context.formatName == "ogg"
    duration =
      duration ?? context.longestStatedStream()
      ?? audio.compactMap { track in
        track.duration.map { $0 + (ogg ? max(0, track.startTime ?? 0) : 0) }
      }.max()
    // AVI audio counted from its chunks past what the headers state (see
    // `aviCountedFrames(ofStream:stated:)`): the file lasts at least as long as that audio
    // (and as its video, which the stated streams above already count).
    if context.formatName == "avi", let longest = audio.compactMap(\.duration).max(),
      longest > duration ?? 0
    {
      duration = longest
    }
    // A Matroska or MP4 file of audio alone lasts its longest audio track, measured to the
    // sample (see `measureOpusBlocks` and `MP4Declarations.presentedLength`): the segment's
    // Duration counts the Opus codec delay and the last block's padding (FFmpeg's WebM states
    // 0.508 s for 0.5 s), and the movie header's duration is rounded to its coarser timescale
    // (GStreamer's 1,800 Hz). A stated duration more than 0.1 s away (a subtitle track ending
    // later) stays.
    if context.formatName.hasPrefix("matroska") || context.formatName.hasPrefix("mov"),
      !context.hasMovingPictures, let stated = duration, !audio.isEmpty,
      audio.allSatisfy({ $0.duration != nil }),
      let longest = audio.compactMap(\.duration).max(), abs(stated - longest) <= 0.1
    {
      duration = longest
    }
    return ProbedMedia(
      demuxerName: context.formatName, duration: duration, bitRate: context.bitRate, audio: audio,
      subtitles: subtitles)
  }
}
