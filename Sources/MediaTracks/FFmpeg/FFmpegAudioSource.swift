internal import CFFmpeg

/// The FFmpeg side of ``AudioDecoder``: demuxer, decoder and sample conversion for any format
/// FFmpeg reads.
final class FFmpegAudioSource {
  /// Samples per second (Hz) of the decoded output: the rate the decoder gives (set from the
  /// first decoded frame, which `init` decodes, when the header states another).
  private(set) var sampleRate: Int
  /// Channels per frame of the decoded output: the count the decoder gives (from the first
  /// decoded frame, as ``sampleRate``).
  private(set) var channels: Int
  /// The container stream index of the decoded track.
  let streamIndex: Int
  /// The track's own duration in seconds, or `nil` when unknown.
  let duration: Double?
  /// The clean name of the channel layout: `mono`, `stereo`, `5.1`, … (the decoder's, once the
  /// first frame is decoded, which `init` does).
  private(set) var channelLayoutName: String
  /// The speakers as a WAVE/FFmpeg channel mask, or nil when the layout is not one.
  private(set) var channelMask: UInt64?

  private let path: String
  private var format: FormatContext
  private var codec: CodecContext
  private var packet: Packet
  private var frame: Frame
  private var outputLayout: ChannelLayout
  private var resampler = Resampler()
  /// Converted samples not yet handed out, interleaved.
  private var pending: [Float] = []
  private var pendingStart = 0
  private var pendingEnd = 0
  private var inputEnded = false
  private var finished = false
  private var framesDecoded = 0
  private var decodeErrors = 0
  /// The pre-skip of a chained Ogg Opus link whose headers came as packets of the stream, in
  /// 48 kHz samples, still to be dropped from its first audio packet (see `skipOpusHeader`).
  private var pendingPreSkip = 0
  /// The stream index packets are read from: `streamIndex`, or in a later link of a chained
  /// Ogg stream read through a context of its own (see `readNextOggLink`), that link's.
  private var readIndex: Int
  /// Where the context in use starts in the file: past 0 once a chained Ogg stream's link in
  /// another codec is read through a context of its own.
  private var linkStart: Int64 = 0
  /// The length of such a link that its container states, in output frames (what
  /// `statedLength` is for the first), and the frames of it converted so far.
  private var linkLength: Int64? = nil
  private var linkFrames: Int64 = 0
  /// The chained link in another codec to go on with once the decoder is drained: its byte
  /// offset, and the error when it cannot be read.
  private var nextLink: (start: Int64, error: MediaError)? = nil
  /// The track's duration as its headers state it (seconds), for the truncation check.
  private let statedDuration: Double?
  /// The error of decoding the first frame in `init`, thrown by the first `read`.
  private var deferredError: MediaError?
  /// The codec's name for messages (the container's declaration, cross-checked).
  private let codecName: String
  /// Whether packets are split into E-AC-3 access units before decoding: an MP4 sample may
  /// hold several sync frames (six of one block each, say), and FFmpeg's decoder reads only
  /// the first of a packet.
  private let splitsFrames: Bool
  /// The bytes skipped at the start of each packet before decoding (see
  /// ``DeclaredStream/packetHeaderBytes``).
  private let packetHeaderBytes: Int
  /// Frames split out of a packet, not yet sent to the decoder.
  private var parsedFrames: [[UInt8]] = []
  private var parsedStart = 0
  /// A packet without its own buffer, pointing at a parsed frame while it is sent.
  private var framePacket: Packet
  /// The track's packets read, and the media time their durations add up to (seconds).
  private var packetsRead = 0
  private var packetSeconds = 0.0
  /// The media time of the packets read since the decoder last gave a frame (seconds).
  private var secondsSinceFrame = 0.0
  /// The timestamp of the track's last packet that had one (the stream's time base).
  private var previousTimestamp: Int64? = nil
  /// Whether the container times every block exactly (Matroska, WebM): a packet without a
  /// duration then lasts until the next one's timestamp.
  private lazy var timesBlocks = format.formatName.hasPrefix("matroska")
  private var timeBase: Double
  /// Whether the track is Opus, whose packets state their own length.
  private var isOpus: Bool
  /// The length the container states for the track's audio, where the decoder's last frame
  /// carries padding past it that nothing else trims (see ``FormatContext/statedAudioLength(
  /// ofStream:declared:)``): the output ends there. `nil`: the output is what the decoder
  /// gives.
  private let statedLength: MediaLength?
  /// Whether FFmpeg's own end trimming (the packets' skip-samples side data) is taken off, as
  /// ``statedLength`` trims in its place.
  private var replacesEndTrim: Bool
  /// The track's stated duration (seconds) where its blocks may be timed before 0: a Matroska
  /// track whose codec states no delay of its own (FFmpeg's muxer, timestamps left negative,
  /// places AAC's 1,024 samples of encoder delay before 0, and states the track's length
  /// from 0: its input's, the padding after it left out). `nil` for other containers, tracks
  /// whose length is unknown, and codecs whose decoder drops a stated delay (Opus).
  private let lengthFromZero: Double?
  /// The length the output ends at once a packet timed before 0 was seen (see
  /// ``lengthFromZero``): the samples before 0 are dropped, and the output is the track's
  /// stated duration from there.
  private var trimmedLength: MediaLength?
  /// The start (seconds) and frame count of a Matroska track's last block where its stated
  /// duration is known (``lengthFromZero``), until the first decoded frame gives the frame
  /// length and so ``paddedLength``.
  private var lastBlock: (start: Double, frames: Int)?
  /// Where the output ends when the track's stated duration falls inside its last frame
  /// (see ``FormatContext/matroskaPaddedEnd(stated:lastBlock:frameSeconds:tick:rate:)``): the rest
  /// is padding.
  private var paddedLength: MediaLength?
  /// The frames converted so far (handed out or pending), for ``statedLength``.
  private var framesConverted: Int64 = 0

  /// Opens `path` and prepares to decode one audio track.
  ///
  /// - Parameters:
  ///   - path: A file path (or any URL FFmpeg can open).
  ///   - streamIndex: The container stream index of the audio track, or `nil` for the default
  ///     audio track (``TrackSelection/defaultAudio(in:preferences:)`` with no language
  ///     preference).
  ///   - timeout: The longest one reading call may take, in seconds (`nil`: the default).
  ///   - remote: How an http(s) URL is requested.
  /// - Throws: `MediaError` with kind `.notFound` when the file is missing or unreadable,
  ///   `.malformed` when it is not decodable media, `.noSuchStream` when it has no audio track
  ///   (or `streamIndex` is not an audio track).
  init(
    path: String, streamIndex: Int?, timeout: Double? = nil, remote: RemoteAccess = RemoteAccess()
  ) throws(MediaError) {
    let format = try Self.open(path: path, timeout: timeout, remote: remote)
    // Stream facts first: the default track is chosen from them (MPEG-TS states no channel
    // counts in its headers, and the choice then differed from the probe's).
    // The durations the headers state, read before the stream-info pass, which fills in
    // durations of its own from the last timestamps (MPEG-TS): a stream with a timestamp jump
    // then states far more than it holds.
    let stated = (0..<format.streamCount).map { format.headerDuration(ofStream: $0) }
    // The rates and channel counts the headers state, which the pass may replace with the
    // decoder's (see `AACConfigRepair`).
    let entries = (0..<format.streamCount).map { index -> (rate: Int, channels: Int) in
      guard let parameters = format.stream(at: index).pointee.codecpar else { return (0, 0) }
      return (Int(parameters.pointee.sample_rate), Int(parameters.pointee.ch_layout.nb_channels))
    }
    if format.needsStreamInfo(forDecoding: true) {
      try format.findStreamInfo(path: path)
    }
    let count = format.streamCount
    let index: Int
    if let streamIndex {
      // A stream FFmpeg keeps as data that the container declares as audio (AC-4 in MPEG-TS)
      // is listed as an audio track: asked for, it is refused as one this FFmpeg cannot decode.
      var listed: AudioTrack? = nil
      if streamIndex >= 0, streamIndex < count,
        format.stream(at: streamIndex).pointee.codecpar.pointee.codec_type != AVMEDIA_TYPE_AUDIO
      {
        listed = format.tracks().audio.first(where: { $0.index == streamIndex })
        if let listed, !listed.decodable { throw Self.undecodable(listed, path: path) }
      }
      guard streamIndex >= 0, streamIndex < count,
        listed != nil
          || format.stream(at: streamIndex).pointee.codecpar.pointee.codec_type
            == AVMEDIA_TYPE_AUDIO
      else {
        throw MediaError(
          kind: .noSuchStream, operation: "AudioDecoder",
          detail: "'\(path)' has no audio track with stream index \(streamIndex)")
      }
      index = streamIndex
    } else {
      index = try format.defaultAudioStream(path: path)
    }
    let stream = format.stream(at: index)
    let declared = format.declarations()[index]
    let track = format.audioTrack(at: index, declared: declared)
    if !track.decodable { throw Self.undecodable(track, path: path) }
    format.adoptDeclaredCodec(ofStream: index, track: track, declared: declared)
    packetHeaderBytes = declared?.decodesAsDeclared == true ? declared?.packetHeaderBytes ?? 0 : 0
    guard let parameters = stream.pointee.codecpar, parameters.pointee.sample_rate > 0,
      parameters.pointee.ch_layout.nb_channels > 0
    else {
      throw MediaError(
        kind: .malformed, operation: "AudioDecoder",
        detail: "'\(path)' does not state the sample rate or channels of its audio")
    }
    if format.formatName.hasPrefix("mov") {
      OpusHeadRepair.repair(stream.pointee.codecpar)
      if index < entries.count {
        AACConfigRepair.repair(
          stream.pointee.codecpar, sampleRate: entries[index].rate,
          channels: entries[index].channels)
      }
    }
    if format.formatName == "flv", parameters.pointee.codec_id == AV_CODEC_ID_SPEEX,
      !format.isRemote, let source = format.byteSource, let speex = FLVTags.speexAudio(source)
    {
      SpeexHeaderRepair.repair(stream.pointee.codecpar, framesPerPacket: speex.framesPerPacket)
    }
    // Opus in MPEG-TS: FFmpeg 5.1 builds its header with a pre-skip of 0 and strips the first
    // access unit's start trim, which is the pre-skip (see ``TSOpusTrims``); the decoder drops
    // what the header states.
    if let trims = format.opusTrims(ofStream: index), trims.start > 0,
      let extradata = parameters.pointee.extradata, parameters.pointee.extradata_size >= 19,
      extradata[10] == 0, extradata[11] == 0
    {
      extradata[10] = UInt8(trims.start & 0xFF)
      extradata[11] = UInt8(trims.start >> 8)
    }
    // Opus decodes at 48 kHz whatever rate its header states (RFC 7845 5.1: the input's rate,
    // for information); FFmpeg 5.1's Matroska demuxer converts a block's DiscardPadding to
    // samples at the stated rate (at 24 kHz half of it was trimmed: 0.3 s of input decoded to
    // 14,724 samples for 14,400).
    if parameters.pointee.codec_id == AV_CODEC_ID_OPUS { parameters.pointee.sample_rate = 48000 }
    let codec = try CodecContext(decoderFor: stream, path: path)
    let packet = try Packet()
    framePacket = try Packet()
    codecName = track.codec.isEmpty ? "unknown" : track.codec
    timeBase = av_q2d(stream.pointee.time_base)
    isOpus = parameters.pointee.codec_id == AV_CODEC_ID_OPUS
    splitsFrames =
      parameters.pointee.codec_id == AV_CODEC_ID_EAC3 && !format.formatName.hasPrefix("matroska")
    let frame = try Frame()
    let layout = withUnsafePointer(to: parameters.pointee.ch_layout) {
      ChannelLayout(copying: $0)
    }
    let channelCount = Int(parameters.pointee.ch_layout.nb_channels)
    // Discard the packets of every other stream in the demuxer.
    for other in 0..<count where other != index {
      format.stream(at: other).pointee.discard = AVDISCARD_ALL
    }
    // The stream's facts are known now. Some demuxers (WAVE's, for a possible DTS or AC-3
    // stream in PCM clothing) still probe the first packets with every format prober until
    // `probesize` bytes (5 MB by default) have been read; 16 KiB (several DTS frames) finds such a
    // stream and spares decoding most of that work.
    format.raw.pointee.probesize = 1 << 14
    self.path = path
    self.streamIndex = index
    readIndex = index
    sampleRate = Int(parameters.pointee.sample_rate)
    channels = channelCount
    channelLayoutName = ChannelLayoutName.clean(layout.described, channels: channelCount)
    channelMask = layout.mask
    duration = format.trackDuration(ofStream: index, declared: declared)
    let container = format.statedAudioLength(ofStream: index, declared: declared)
    statedLength = container?.length
    replacesEndTrim = container?.replacesEndTrim ?? false
    // A first link of Vorbis on one page before a chained link in another codec: its length
    // as stated (see `OggChain.singlePageVorbisLength`), as when it is the whole file.
    if container == nil, let samples = Self.vorbisLinkLength(format, parameters) {
      linkLength = samples
      replacesEndTrim = true
    }
    // An MP3 of one frame, read with a cut frame after it that decodes to more: that frame's.
    if let samples = format.loneFrameSamples { linkLength = Int64(samples) }
    lengthFromZero =
      format.formatName.hasPrefix("matroska") && container == nil && !isOpus
        && parameters.pointee.initial_padding <= 0 ? duration : nil
    lastBlock =
      lengthFromZero == nil ? nil : format.matroskaLastBlock(ofStream: index, declared: declared)
    statedDuration = index < stated.count ? stated[index] : nil
    self.format = format
    self.codec = codec
    self.packet = packet
    self.frame = frame
    outputLayout = layout
    // The first frame tells the layout the decoder really gives, which containers that do not
    // store one (FLAC or Vorbis in Matroska) leave to a default for the count: 3.0 and quad
    // read as 2.1 and 4.0, and converting to those mixed a channel away. A failure here is
    // the first read's, as it would have been without this.
    do throws(MediaError) {
      try decodeMore()
    } catch {
      deferredError = error
    }
  }

  /// Opens `path` for decoding; a free-format MPEG audio file too short for FFmpeg 5.1's
  /// demuxer is refused for what it is, as one it opens is (see
  /// `ElementaryFrames.freeFormatHeader`).
  private static func open(path: String, timeout: Double?, remote: RemoteAccess)
    throws(MediaError) -> FormatContext
  {
    do {
      return try FormatContext(path: path, timeout: timeout, remote: remote)
    } catch {
      if !RemoteURL.isRemote(path), let source = try? FileBytes(path: path),
        let free = ElementaryFrames.freeFormatHeader(source)
      {
        var track = AudioTrack(
          index: 0, codec: "mp3", profile: "free format", sampleRate: free.sampleRate,
          channels: free.channels, channelLayout: "", duration: nil, decodable: false)
        track.ffmpegCodec = "mp3"
        throw undecodable(track, path: path)
      }
      throw error
    }
  }

  /// The error for a track this FFmpeg cannot decode, naming its codec and why.
  static func undecodable(_ track: AudioTrack, path: String) -> MediaError {
    let name = ContainerDeclarations.displayName(track.codec.isEmpty ? "unknown" : track.codec)
    let declared = track.codecTag.map { " (declared as \($0))" } ?? ""
    let reason: String
    if track.encrypted {
      reason = "is encrypted, and cannot be decoded without its key"
    } else if let ffmpeg = track.ffmpegCodec, ffmpeg != track.codec,
      !ContainerDeclarations.withoutDecoder.contains(track.codec)
    {
      reason = "is read by FFmpeg as \(ffmpeg), so no decoder here reads it correctly"
    } else if track.profile == "free format" {
      reason =
        "is free-format MPEG audio (its frame headers state no bit rate), which this FFmpeg's "
        + "decoder does not read"
    } else if track.codec == "flac" {
      reason = "has 32-bit samples, which this FFmpeg's FLAC decoder (before 6.0) does not read"
    } else if track.codec == "wavpack" {
      reason =
        "holds only the correction data of a hybrid encoding (a .wvc file), which decodes only"
        + " with the .wv file it goes with"
    } else if track.sampleRate <= 0 || track.channels <= 0, !track.codec.isEmpty,
      !ContainerDeclarations.withoutDecoder.contains(track.codec)
    {
      reason =
        "states no sample rate or channel count FFmpeg could read, so it cannot be decoded"
        + (track.codec == "aac" ? " (raw AAC needs ADTS headers or a decoder configuration)" : "")
    } else if track.codec == "aac" {
      reason =
        "its decoder configuration (\(track.profile.map { "profile \($0)" } ?? "its profile")) is "
        + "one this FFmpeg's AAC decoder does not implement"
    } else {
      reason = "this FFmpeg has no decoder for it"
    }
    return MediaError(
      kind: .malformed, operation: "avcodec_find_decoder",
      detail: "audio track #\(track.index) of '\(path)' is \(name)\(declared) and \(reason)")
  }

  /// Decodes up to `maxFrames` frames into the start of `buffer` as interleaved floats.
  ///
  /// `buffer` is grown to `maxFrames * channels` samples when it is smaller; it is never shrunk,
  /// and samples past the returned count are left as they were. Reusing one buffer makes the
  /// steady-state loop allocation-free.
  ///
  /// - Parameters:
  ///   - buffer: Receives `returned * channels` samples, interleaved, at its start.
  ///   - maxFrames: The most frames (samples per channel) to write; must be positive.
  /// - Returns: The frames written; `0` only at the end of the track.
  /// - Throws: `MediaError` with kind `.malformed` when the data cannot be demuxed or nothing in
  ///   the track decodes.
  func read(into buffer: inout [Float], maxFrames: Int) throws(MediaError) -> Int {
    if let error = deferredError {
      deferredError = nil
      throw error
    }
    let wanted = maxFrames * channels
    if buffer.count < wanted {
      buffer.append(contentsOf: repeatElement(0, count: wanted - buffer.count))
    }
    var written = 0
    while written < wanted {
      if pendingStart == pendingEnd {
        if finished { break }
        try decodeMore()
        continue
      }
      let take = min(wanted - written, pendingEnd - pendingStart)
      buffer.withUnsafeMutableBufferPointer { destination in
        pending.withUnsafeBufferPointer { source in
          guard let to = destination.baseAddress, let from = source.baseAddress else { return }
          (to + written).update(from: from + pendingStart, count: take)
        }
      }
      written += take
      pendingStart += take
    }
    return written / channels
  }

  /// Decodes until some converted samples are pending or the track has ended.
  private func decodeMore() throws(MediaError) {
    pendingStart = 0
    pendingEnd = 0
    while pendingEnd == 0 && !finished {
      let received = avcodec_receive_frame(codec.raw, frame.raw)
      if received >= 0 {
        try checkRecovery()
        secondsSinceFrame = 0
        decodeErrors = 0
        framesDecoded += Int(frame.raw.pointee.nb_samples)
        if let block = lastBlock, let stated = lengthFromZero, frame.raw.pointee.sample_rate > 0 {
          let rate = Int(frame.raw.pointee.sample_rate)
          paddedLength = FormatContext.matroskaPaddedEnd(
            stated: stated, lastBlock: block,
            frameSeconds: Double(frame.raw.pointee.nb_samples) / Double(rate), tick: timeBase,
            rate: rate)
          lastBlock = nil
        }
        try convert(frame: true)
        av_frame_unref(frame.raw)
        continue
      }
      if received == cff_averror_eof() {
        // The first link's decoder is drained: on with the next link (see below).
        if let link = nextLink {
          nextLink = nil
          if try readNextOggLink(at: link.start) { continue }
          throw link.error
        }
        try convert(frame: false)
        finished = true
        if framesDecoded == 0 {
          throw MediaError(
            kind: .malformed, operation: "avcodec_receive_frame",
            detail: "no decodable audio in '\(path)'")
        }
        try checkCompleteness()
        break
      }
      if received != cff_averror_eagain() {
        try noteDecodeError(received)
        continue
      }
      // The decoder wants more input: a frame the parser split out, else the next packet.
      if parsedStart < parsedFrames.count {
        try send(parsedFrames[parsedStart])
        parsedStart += 1
        if parsedStart == parsedFrames.count {
          parsedFrames.removeAll(keepingCapacity: true)
          parsedStart = 0
        }
        continue
      }
      if inputEnded {
        finished = true
        break
      }
      // (Set again before each read: the demuxer reads the stated rate back into it, and
      // converts a DiscardPadding with the rate it finds there.)
      if isOpus { format.stream(at: readIndex).pointee.codecpar.pointee.sample_rate = 48000 }
      let read = try format.readFrame(packet.raw, path: path)
      if read < 0 {
        // FFmpeg 5.1's Ogg demuxer refuses a chained link in another codec (EINVAL), which a
        // player would go on to read: said as such, not as "Invalid argument".
        if read == cff_averror(EINVAL), format.formatName == "ogg", let source = format.byteSource,
          let change = OggChain.codecChange(source)
        {
          let decoded = Double(framesDecoded) / Double(sampleRate)
          let start = linkStart + change.offset
          let error = MediaError(
            kind: .malformed, code: read, operation: "av_read_frame",
            detail:
              "'\(path)' is a chained Ogg stream whose link at byte \(start) is in "
              + "\(change.to) after \(change.from), which is not read: the audio stops after "
              + "\(Self.seconds(decoded)) s")
          // What this link's decoder holds comes first (a frame at a time, as always), then
          // the next link is opened (when it cannot be, the error).
          nextLink = (start, error)
          _ = avcodec_send_packet(codec.raw, nil)
          continue
        }
        if read != cff_averror_eof() && !format.readAllBytes {
          try FFmpegCall.check("av_read_frame", .malformed, "cannot read the audio of '\(path)'") {
            read
          }
        }
        inputEnded = true
        _ = avcodec_send_packet(codec.raw, nil)
        continue
      }
      defer { av_packet_unref(packet.raw) }
      guard Int(packet.raw.pointee.stream_index) == readIndex else { continue }
      if isOpus, skipOpusHeader(packet.raw) { continue }
      packetsRead += 1
      // (A packet stating more than 10 s is a demuxer's guess, as Ogg's last packet's can be.)
      var packetDuration = Double(packet.raw.pointee.duration) * timeBase
      // An Opus packet states its own length (RFC 6716 3.1); FFmpeg 5.1's Matroska demuxer
      // times the packets of a track whose header states its input's rate (22,050 Hz) at that
      // rate: 40 ms for 20, and the decoder seemed to give half of what they hold.
      if isOpus, let data = packet.raw.pointee.data, packet.raw.pointee.size > 0 {
        let head = Array(
          UnsafeBufferPointer(start: data, count: min(2, Int(packet.raw.pointee.size))))
        if let samples = FormatContext.opusPacketSamples(head) {
          packetDuration = Double(samples) / 48000
        }
      }
      // A Matroska block that states no duration (AAC's, as FFmpeg and mkvmerge write them)
      // holds the time to the next one's timestamp: counted at the next, as the step from
      // this one (a step over a second is a jump in the timestamps, not audio). Without it, a
      // damaged track whose decoder gave a tenth of its audio passed as complete. (Not in Ogg,
      // whose packets between granule positions FFmpeg 5.1 times unreliably.)
      let timestamp =
        packet.raw.pointee.pts != cff_nopts_value()
        ? packet.raw.pointee.pts : packet.raw.pointee.dts
      if packet.raw.pointee.duration <= 0, !isOpus, timesBlocks, timestamp != cff_nopts_value(),
        let previous = previousTimestamp, timestamp > previous
      {
        let step = Double(timestamp - previous) * timeBase
        if step <= 1 { packetDuration = step }
      }
      if timestamp != cff_nopts_value() { previousTimestamp = timestamp }
      if packetDuration > 0 && packetDuration <= 10 {
        packetSeconds += packetDuration
        secondsSinceFrame += packetDuration
      }
      if splitsFrames, let data = packet.raw.pointee.data {
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(packet.raw.pointee.size)))
        let units = EAC3Frames.accessUnits(bytes)
        if units.count > 1 {
          parsedFrames.append(contentsOf: units.map { Array(bytes[$0]) })
          continue
        }
      }
      if replacesEndTrim { Self.keepEndPadding(packet.raw) }
      if lengthFromZero != nil { skipBeforeZero(packet.raw) }
      if packetHeaderBytes > 0 {
        guard packet.raw.pointee.size > Int32(packetHeaderBytes), packet.raw.pointee.data != nil
        else { continue }
        packet.raw.pointee.data += packetHeaderBytes
        packet.raw.pointee.size -= Int32(packetHeaderBytes)
      }
      let sent = avcodec_send_packet(codec.raw, packet.raw)
      if sent < 0 && sent != cff_averror_eagain() { try noteDecodeError(sent) }
    }
  }

  /// Goes on with a chained Ogg stream's link in another codec, which FFmpeg 5.1's demuxer
  /// refuses: the rest of the file, from the link's first page at byte `start`, is read
  /// through a demuxer and a decoder of its own, its audio converted to the output's rate and
  /// layout as every decoded frame is. The link before's decoder has been drained.
  ///
  /// - Returns: Whether the link was opened; `false` when it has no audio stream to read, or
  ///   its decoder is missing.
  private func readNextOggLink(at start: Int64) throws(MediaError) -> Bool {
    guard let next = try? FormatContext(oggLinkOf: path, at: start) else { return false }
    if next.needsStreamInfo(forDecoding: true) { try next.findStreamInfo(path: path) }
    guard
      let index = (0..<next.streamCount).first(where: {
        next.stream(at: $0).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO
      })
    else { return false }
    let stream = next.stream(at: index)
    guard let parameters = stream.pointee.codecpar else { return false }
    // A link this FFmpeg cannot decode (32-bit FLAC) fails as a whole file of it does.
    let declared = next.declarations()[index]
    let track = next.audioTrack(at: index, declared: declared)
    if !track.decodable { throw Self.undecodable(track, path: path) }
    let opus = parameters.pointee.codec_id == AV_CODEC_ID_OPUS
    if opus { parameters.pointee.sample_rate = 48000 }
    guard let decoder = try? CodecContext(decoderFor: stream, path: path) else { return false }
    for other in 0..<next.streamCount where other != index {
      next.stream(at: other).pointee.discard = AVDISCARD_ALL
    }
    next.raw.pointee.probesize = 1 << 14
    // The link's length as its container states it, as for the first link (a Vorbis link on
    // one page, whose end FFmpeg 5.1 trims wrongly).
    let container = next.statedAudioLength(ofStream: index, declared: declared)
    replacesEndTrim = container?.replacesEndTrim ?? false
    linkLength = container?.length.frames(atRate: sampleRate)
    if container == nil, let samples = Self.vorbisLinkLength(next, parameters) {
      replacesEndTrim = true
      linkLength =
        MediaLength(units: samples, timescale: Int(parameters.pointee.sample_rate))
        .frames(atRate: sampleRate)
    }
    linkFrames = 0
    format = next
    codec = decoder
    readIndex = index
    linkStart = start
    isOpus = opus
    timeBase = av_q2d(stream.pointee.time_base)
    pendingPreSkip = 0
    return true
  }

  /// The samples of an Ogg Vorbis link on one page followed by a chained link in another
  /// codec (see `OggChain.singlePageVorbisLength`), at the link's rate; `nil` otherwise.
  private static func vorbisLinkLength(
    _ format: borrowing FormatContext, _ parameters: UnsafeMutablePointer<AVCodecParameters>
  ) -> Int64? {
    guard format.formatName == "ogg", parameters.pointee.codec_id == AV_CODEC_ID_VORBIS,
      let source = format.byteSource
    else { return nil }
    return OggChain.singlePageVorbisLength(source, beforeOtherCodec: true)
  }

  /// Whether a packet is an Ogg Opus header packet (RFC 7845 5.1 and 5.2: `OpusHead`,
  /// `OpusTags`) rather than audio: the headers of the next link of a chained Ogg stream that
  /// keeps the first link's serial number, which FFmpeg 5.1's demuxer hands on as packets of
  /// the same stream. Their first bytes read as an Opus packet of 0.96 s, and the decoder
  /// rejects them: two of them were taken for 1.9 s of audio that would not decode, which
  /// failed the decode. They are not sent; the link's pre-skip (`OpusHead` bytes 10 and 11,
  /// little-endian, in 48 kHz samples) is dropped from its first audio packet.
  private func skipOpusHeader(_ packet: UnsafeMutablePointer<AVPacket>) -> Bool {
    let size = Int(packet.pointee.size)
    guard size >= 8, let data = packet.pointee.data else {
      if pendingPreSkip > 0 { addPreSkip(packet) }
      return false
    }
    let magic = Array(UnsafeBufferPointer(start: data, count: 8))
    if magic == Array("OpusHead".utf8) {
      pendingPreSkip = size >= 12 ? Int(data[10]) | Int(data[11]) << 8 : 0
      return true
    }
    if magic == Array("OpusTags".utf8) { return true }
    if pendingPreSkip > 0 { addPreSkip(packet) }
    return false
  }

  /// Marks the pending pre-skip of a chained link (see ``skipOpusHeader(_:)``) to be dropped
  /// from `packet` (skip-samples side data: samples at the start, 32 bits little-endian, then
  /// at the end and two reason bytes), unless it carries skip-samples already.
  private func addPreSkip(_ packet: UnsafeMutablePointer<AVPacket>) {
    let skip = UInt32(pendingPreSkip)
    pendingPreSkip = 0
    var size = 0
    guard av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size) == nil,
      let side = av_packet_new_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, 10)
    else { return }
    for byte in 0..<10 { side[byte] = byte < 4 ? UInt8(truncatingIfNeeded: skip >> (8 * byte)) : 0 }
  }

  /// Takes the end trimming off a packet's skip-samples side data (FFmpeg's
  /// `AV_PKT_DATA_SKIP_SAMPLES`: the samples to drop at the start and at the end of its
  /// frame, 32 bits each, little-endian), keeping the start's.
  private static func keepEndPadding(_ packet: UnsafeMutablePointer<AVPacket>) {
    var size = 0
    guard let data = av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8
    else { return }
    for byte in 4..<8 { data[byte] = 0 }
  }

  /// Marks the samples of a packet timed before 0 to be dropped by the decoder (skip-samples
  /// side data: the samples to drop at the start, 32 bits little-endian, then at the end and
  /// two reason bytes), and from the first such packet ends the output at the track's stated
  /// duration (see ``lengthFromZero``). A packet that carries skip-samples already is left
  /// as it is.
  private func skipBeforeZero(_ packet: UnsafeMutablePointer<AVPacket>) {
    let pts = packet.pointee.pts
    guard let seconds = lengthFromZero, pts != cff_nopts_value(), pts < 0, sampleRate > 0
    else { return }
    var size = 0
    guard av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size) == nil else { return }
    let before = (Double(-pts) * timeBase * Double(sampleRate)).rounded()
    guard before >= 1, before < 0x1p31,
      let data = av_packet_new_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, 10)
    else { return }
    let skip = UInt32(before)
    for byte in 0..<10 { data[byte] = byte < 4 ? UInt8(truncatingIfNeeded: skip >> (8 * byte)) : 0 }
    if trimmedLength == nil {
      let frames = (seconds * Double(sampleRate)).rounded()
      if frames >= 1, frames < 0x1p62 {
        trimmedLength = MediaLength(units: Int64(frames), timescale: sampleRate)
      }
    }
  }

  /// Sends one parsed frame to the decoder.
  private func send(_ frameBytes: [UInt8]) throws(MediaError) {
    var sent: Int32 = 0
    var bytes = frameBytes
    bytes.withUnsafeMutableBufferPointer { buffer in
      framePacket.raw.pointee.data = buffer.baseAddress
      framePacket.raw.pointee.size = Int32(buffer.count)
      // Not reference-counted: the decoder copies the bytes.
      sent = avcodec_send_packet(codec.raw, framePacket.raw)
      framePacket.raw.pointee.data = nil
      framePacket.raw.pointee.size = 0
    }
    if sent < 0 && sent != cff_averror_eagain() { try noteDecodeError(sent) }
  }

  /// At the end of the track: whether the bytes ended early (truncated), or the decoder gave
  /// far less audio than the packets hold (it does not really read this stream).
  ///
  /// The bytes ended early when an MP4's index names samples that could not be read, or, in
  /// other containers, when the audio ends before half of the duration the headers state for
  /// the track and more than a second short of it (a very short file states its encoder delay
  /// and padding in its duration). An MP4's stated duration is not used: fragmented files
  /// state impossible ones, and the index is what the file holds.
  private func checkCompleteness() throws(MediaError) {
    let decoded = Double(framesDecoded) / Double(sampleRate)
    var truncated = false
    if format.formatName.hasPrefix("mov") {
      let entries = Int(avformat_index_get_entries_count(format.stream(at: readIndex)))
      truncated = entries > packetsRead + 1
    } else if let stated = statedDuration {
      truncated = decoded < stated * 0.5 && stated - decoded > 1
    }
    if truncated || (format.formatName == "wav" && WaveHeader.isTruncated(path: path)) {
      throw MediaError(
        kind: .malformed, operation: "av_read_frame",
        detail: "'\(path)' is truncated: its audio ends long before its stated duration")
    }
    if let cut = cutShort() {
      throw MediaError(
        kind: .malformed, operation: "av_read_frame", detail: "'\(path)' is truncated: \(cut)")
    }
    // Pages lost from the middle of an Ogg stream (a damaged copy, a capture that dropped
    // some): the decoder goes on after them, and everything after would come early. Judged
    // only when audio is missing too: a tag editor that numbered its header pages wrongly
    // loses nothing.
    if format.formatName == "ogg", let stated = duration, stated - decoded > 0.05,
      let whole = try? FileBytes(path: path), let gap = OggChain.missingPages(whole)
    {
      let pages = gap.pages == 1 ? "an Ogg page is" : "\(gap.pages) Ogg pages are"
      throw MediaError(
        kind: .malformed, operation: "av_read_frame",
        detail:
          "'\(path)' is damaged: \(pages) missing before byte \(gap.offset); "
          + "\(Self.seconds(decoded)) s of its \(Self.seconds(stated)) s decode, and the audio "
          + "after the gap would come early")
    }
    // The decoder stopped giving audio before the end: it failed on every packet of the last
    // half second or more (a chained Ogg stream whose next link it cannot read). Errors between
    // frames (damaged packets here and there, packets that hold no audio) are skipped, as
    // FFmpeg's tools skip them.
    let failedTail = decodeErrors > 0 ? secondsSinceFrame : 0
    if failedTail > 0.5 {
      throw MediaError(
        kind: .malformed, operation: "avcodec_receive_frame",
        detail:
          "the \(codecName) decoder could not decode the last \(Self.seconds(failedTail)) s "
          + "of the \(Self.seconds(packetSeconds)) s of audio in '\(path)' (from "
          + "\(Self.seconds(decoded)) s of output on)")
    }
    if packetSeconds > 0.25 && decoded < packetSeconds * 0.5 {
      throw MediaError(
        kind: .malformed, operation: "avcodec_receive_frame",
        detail:
          "the \(codecName) decoder gave \(Self.seconds(decoded)) s of audio from the "
          + "\(Self.seconds(packetSeconds)) s the packets of '\(path)' hold: it does not read "
          + "this stream")
    }
  }

  /// Why a local file's bytes end before its container says they do (see ``DeclaredEnd``), or,
  /// for native FLAC, why fewer samples were decoded than `STREAMINFO` states; `nil` when
  /// neither holds or the input is not a local regular file.
  private func cutShort() -> String? {
    guard let whole = try? FileBytes(path: path) else { return nil }
    // The bytes the demuxer reads (a raw MPEG audio or ADTS stream from its first frame).
    let source: any ByteSource =
      format.mediaStart > 0
      ? ByteWindow(whole, start: format.mediaStart, length: whole.size) : whole
    if let cut = DeclaredEnd.shortfall(source) { return cut }
    if format.formatName == "mp3" || format.formatName == "aac",
      let cut = DeclaredEnd.elementary(
        source, kind: format.formatName == "aac" ? .adts : .mpegAudio)
    {
      return cut
    }
    if format.formatName == "flac", let stated = DeclaredEnd.flacSamples(source),
      stated.rate == sampleRate, Int64(framesDecoded) < stated.samples
    {
      return "its STREAMINFO states \(stated.samples) samples; \(framesDecoded) were decoded"
    }
    return nil
  }

  /// When the decoder gives a frame again after failing: whether it failed on every packet of
  /// half a second or more of the track in between (a chained Ogg stream with a link it cannot
  /// read between two it can). The output would lack that stretch of audio and put everything
  /// after it early, so the decode fails, as it does when the failures last to the end (see
  /// ``checkCompleteness()``). Errors between frames are skipped, as there.
  private func checkRecovery() throws(MediaError) {
    guard decodeErrors > 0 && secondsSinceFrame > 0.5 else { return }
    let decoded = Double(framesDecoded) / Double(sampleRate)
    throw MediaError(
      kind: .malformed, operation: "avcodec_receive_frame",
      detail:
        "the \(codecName) decoder could not decode \(Self.seconds(secondsSinceFrame)) s of the "
        + "audio in '\(path)' (from \(Self.seconds(decoded)) s of output on): the rest "
        + "would come early")
  }

  /// Seconds with three decimals.
  private static func seconds(_ value: Double) -> String {
    let millis = Int((value * 1000).rounded())
    let fraction = String(millis % 1000)
    return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  /// Skips a damaged packet or frame, as FFmpeg's tools do, unless the errors never stop.
  private func noteDecodeError(_ code: Int32) throws(MediaError) {
    decodeErrors += 1
    if decodeErrors > 64 {
      throw MediaError(
        kind: .malformed, code: code, operation: "avcodec_send_packet",
        detail: "the audio of '\(path)' does not decode with the \(codecName) decoder")
    }
  }

  /// Converts the current frame (or the resampler's tail when `frame` is false) to pending.
  private func convert(frame hasFrame: Bool) throws(MediaError) {
    if hasFrame {
      let decoded = frame.raw
      let formatValue = decoded.pointee.format
      let rate = decoded.pointee.sample_rate > 0 ? decoded.pointee.sample_rate : Int32(sampleRate)
      if !resampler.matches(
        format: formatValue, rate: rate, channels: decoded.pointee.ch_layout.nb_channels)
      {
        let inputLayout = withUnsafePointer(to: decoded.pointee.ch_layout) {
          ChannelLayout(copying: $0)
        }
        if framesDecoded == Int(decoded.pointee.nb_samples), resampler.raw == nil {
          // The first frame: its rate, channel count and layout are the track's (a header
          // may state another rate, as an MP4 Opus entry stating its input's 16 kHz does, and
          // a container may give a default layout for the count).
          sampleRate = Int(rate)
          let count = Int(inputLayout.raw.nb_channels)
          if count > 0 && (count != channels || inputLayout.mask != outputLayout.mask) {
            channels = count
            outputLayout = ChannelLayout(mask: inputLayout.mask, channels: count)
            channelMask = outputLayout.mask
            channelLayoutName = ChannelLayoutName.clean(outputLayout.described, channels: count)
          }
        }
        try withUnsafePointer(to: inputLayout.raw) { (input) throws(MediaError) in
          try withUnsafePointer(to: outputLayout.raw) { (output) throws(MediaError) in
            try resampler.configure(
              input: input, format: AVSampleFormat(rawValue: formatValue), rate: rate,
              output: output, format: AV_SAMPLE_FMT_FLT, rate: Int32(sampleRate))
          }
        }
      }
    }
    guard let swr = resampler.raw else { return }
    let inputFrames = hasFrame ? Int(frame.raw.pointee.nb_samples) : 0
    let bound = Int(swr_get_out_samples(swr, Int32(inputFrames))) + 32
    let needed = bound * channels
    if pending.count < needed {
      pending.append(contentsOf: repeatElement(0, count: needed - pending.count))
    }
    let produced = pending.withUnsafeMutableBufferPointer { samples in
      cff_swr_convert_to_interleaved(
        swr, samples.baseAddress, Int32(bound), hasFrame ? UnsafePointer(frame.raw) : nil)
    }
    if produced < 0 {
      try noteDecodeError(produced)
      return
    }
    var frames = Int64(produced)
    if let length = statedLength ?? trimmedLength ?? paddedLength {
      let end = length.frames(atRate: sampleRate)
      frames = max(0, min(frames, end - framesConverted))
      framesConverted += frames
    }
    if let length = linkLength {
      frames = max(0, min(frames, length - linkFrames))
      linkFrames += frames
    }
    pendingStart = 0
    pendingEnd = Int(frames) * channels
  }
}
