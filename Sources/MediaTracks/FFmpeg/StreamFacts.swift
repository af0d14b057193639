internal import CFFmpeg

/// Copies stream facts out of an open `AVFormatContext` into the value model.
extension FormatContext {
  /// The bits per sample a FLAC track's `STREAMINFO` states, from its extradata: the block
  /// alone (MP4's `dfLa`, FFmpeg's FLAC demuxer) or after `fLaC` and a block header
  /// (Matroska's `CodecPrivate`); `nil` when there is none. FFmpeg's Matroska and MP4 demuxers
  /// leave `bits_per_raw_sample` at 0, so a 32-bit track in them looked decodable.
  static func flacSampleBits(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> Int? {
    guard let data = parameters.pointee.extradata, parameters.pointee.extradata_size >= 34
    else { return nil }
    let bytes = UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size))
    var at = 0
    if bytes.starts(with: Array("fLaC".utf8)) {
      // The first metadata block must be STREAMINFO (type 0) of 34 bytes.
      guard bytes.count >= 42, bytes[4] & 0x7F == 0 else { return nil }
      at = 8
    }
    // STREAMINFO: 2 + 2 + 3 + 3 bytes of sizes, 20 bits of rate, 3 of channels - 1, then
    // 5 bits of bits per sample - 1.
    return (Int(bytes[at + 12] & 1) << 4 | Int(bytes[at + 13] >> 4)) + 1
  }

  /// Whether the headers alone left some audio or subtitle stream without its basic facts
  /// (or the demuxer announces streams only as packets arrive, as MPEG-TS does).
  ///
  /// With `forDecoding`, AAC at 24 kHz or below also counts: it may carry implicit SBR (HE-AAC),
  /// which doubles the output rate, and only decoding tells. Probing skips that pass, which
  /// costs about as much as the rest of a probe, and decodes such a track's first packet
  /// instead (see ``refineFromFirstPackets(_:path:)``).
  func needsStreamInfo(forDecoding: Bool = false) -> Bool {
    if streamCount == 0 { return true }
    if (raw.pointee.ctx_flags & Int32(AVFMTCTX_NOHEADER)) != 0 { return true }
    for index in 0..<streamCount {
      guard let parameters = stream(at: index).pointee.codecpar else { return true }
      switch parameters.pointee.codec_type {
      case AVMEDIA_TYPE_AUDIO:
        if parameters.pointee.codec_id == AV_CODEC_ID_NONE || parameters.pointee.sample_rate <= 0
          || parameters.pointee.ch_layout.nb_channels <= 0
        {
          return true
        }

        if forDecoding && parameters.pointee.codec_id == AV_CODEC_ID_AAC
          && parameters.pointee.sample_rate <= 24000
        {
          return true
        }
      case AVMEDIA_TYPE_SUBTITLE:
        if parameters.pointee.codec_id == AV_CODEC_ID_NONE { return true }
      default:
        continue
      }
    }
    return false
  }

  /// The container's overall bit rate, or `nil`.
  var bitRate: Int? {
    raw.pointee.bit_rate > 0 ? Int(raw.pointee.bit_rate) : nil
  }

  /// A stream's bit rate as FFmpeg states it, in bit/s, or `nil` where it cannot be one.
  /// Below 1 kb/s it is FFmpeg's division by an impossible stated duration; from 2^31 on it is
  /// a header's signed field read unsigned: a Vorbis identification header's nominal rate of
  /// -1 or -2 ("not set", as oggenc writes it at 96 kHz), which FFmpeg 5.1 gives as
  /// 4,294,967,294 bit/s. (No audio reaches 2 Gb/s: 32 channels of 64-bit samples at 768 kHz
  /// are 1.6.)
  static func plausibleBitRate(_ value: Int64) -> Int? {
    (1000..<(1 << 31)).contains(value) ? Int(value) : nil
  }

  /// The raw facts of every audio and subtitle stream, in stream order, with the codecs the
  /// container declares (see ``ContainerDeclarations``) cross-checked against FFmpeg's.
  func tracks() -> (audio: [AudioTrack], subtitles: [SubtitleTrack]) {
    let declared = declarations()
    var audio: [AudioTrack] = []
    var subtitles: [SubtitleTrack] = []
    for index in 0..<streamCount {
      guard let type = stream(at: index).pointee.codecpar?.pointee.codec_type else { continue }
      if type == AVMEDIA_TYPE_AUDIO {
        audio.append(audioTrack(at: index, declared: declared[index]))
      } else if type == AVMEDIA_TYPE_SUBTITLE {
        subtitles.append(subtitleTrack(at: index, declared: declared[index]))
      } else if type == AVMEDIA_TYPE_DATA, formatName.hasPrefix("mov"),
        let known = declared[index], known.tag == "wvtt" || known.tag == "stpp"
      {
        // WebVTT and TTML in MP4 (ISO/IEC 14496-30), which FFmpeg 5.1 keeps as data streams
        // without a codec; SubtitleStreamReader reads their samples.
        subtitles.append(subtitleTrack(at: index, declared: known))
      } else if type != AVMEDIA_TYPE_VIDEO, formatName == "mpegts", let known = declared[index],
        let codec = known.codec
      {
        // A stream FFmpeg keeps as data (AC-4 or DTS-UHD in MPEG-TS, which FFmpeg 5.1 does
        // not know) that the program map declares as audio or subtitles. (Not in MP4, where
        // FFmpeg keeps a QuickTime chapter track, text by its handler, as data.)
        if ContainerDeclarations.subtitleCodecs.contains(codec) {
          subtitles.append(subtitleTrack(at: index, declared: known))
        } else {
          // Undecodable here, unless the demuxer's packets are the declared codec's (VLC's
          // LPCM in MPEG-TS, which FFmpeg names no codec for): see `adoptDeclaredCodec`.
          var track = audioTrack(at: index, declared: known)
          if !known.decodesAsDeclared { track.decodable = false }
          audio.append(track)
        }
      }
    }
    // A track of a file with no Duration either (a streamable Matroska or WebM file, as live
    // recorders write them) ends with its last block too, whether or not it is the only one.
    if formatName.hasPrefix("matroska"), audio.contains(where: { $0.duration == nil }) {
      fillFromLastBlocks(&audio, declared: declared)
    }
    if formatName.hasPrefix("matroska"), audio.contains(where: { $0.codec == "opus" }) {
      measureOpusBlocks(&audio, declared: declared)
    }
    if formatName.hasPrefix("matroska"), audio.contains(where: { $0.codec == "vorbis" }) {
      measureVorbisBlocks(&audio, declared: declared)
    }
    if formatName == "wav", audio.count == 1 {
      correctUnassignedWaveLayout(&audio[0])
      correctNarrowWave(&audio[0])
      correctBigEndianWave(&audio[0])
      correctBurstWave(&audio[0])
    }
    return (audio, subtitles)
  }

  /// Leaves the channel layout of a WAVE track unknown when its header assigns the channels no
  /// speakers (see ``WaveHeader/assignsNoSpeakers(_:)``: an EXTENSIBLE header's channel mask
  /// of 0, a plain header of more than two channels) and the codec's own bitstream states none
  /// (PCM, ADPCM): FFmpeg 5.1 leaves the layout unspecified, and its default for the count
  /// (`5.1` for six channels) is a guess. The channel count stays.
  func correctUnassignedWaveLayout(_ track: inout AudioTrack) {
    guard track.codec.hasPrefix("pcm_") || track.codec.hasPrefix("adpcm_"),
      stream(at: track.index).pointee.codecpar.pointee.ch_layout.order
        == AV_CHANNEL_ORDER_UNSPEC,
      let source = byteSource, WaveHeader.assignsNoSpeakers(source.head())
    else { return }
    track.channelLayout = ""
  }

  /// Leaves the bit rate of a WAVE track unknown when its PCM header carries compressed audio
  /// (IEC 61937 bursts of AC-3 or DTS, which FFmpeg finds and names): the header's byte rate
  /// is the carrier's (1,536 kb/s for 48 kHz stereo), not the codec's.
  func correctBurstWave(_ track: inout AudioTrack) {
    guard !track.codec.hasPrefix("pcm_"), let source = byteSource,
      WaveReader.parse(source.head()) != nil
    else { return }
    track.bitRate = nil
  }

  /// Names a `RIFX` (big-endian) WAVE track's samples as they are stored: FFmpeg 5.1 reads the
  /// header's numbers big-endian but names (and decodes) the samples as little-endian PCM.
  /// ``WaveReader`` decodes them in their order.
  func correctBigEndianWave(_ track: inout AudioTrack) {
    guard let source = byteSource, WaveHeader.isBigEndian(source.head(12)) == true,
      track.codec.hasPrefix("pcm_"), track.codec.hasSuffix("le")
    else { return }
    track.codec = String(track.codec.dropLast(2)) + "be"
    track.decodable = WaveReader.parse(source.head()) != nil
  }

  /// Corrects a WAVE track whose EXTENSIBLE header states fewer valid bits than the container
  /// holds (24 in 32): FFmpeg 5.1 takes it for 24-bit float (`pcm_f24le`), decodes silence,
  /// and states a duration from 24-bit samples. The samples are integers at the container's
  /// size (as ``WaveReader`` decodes them), and the duration is the `data` chunk's frames.
  func correctNarrowWave(_ track: inout AudioTrack) {
    guard let source = byteSource, let format = WaveReader.parse(source.head()),
      format.validBits < format.containerBits
    else { return }
    track.codec = "pcm_s\(format.containerBits)le"
    track.decodable = true
    track.bitRate = format.sampleRate * format.blockAlign * 8
    if format.dataOffset + format.dataSize <= Int(source.size) {
      track.duration = Double(format.dataSize / format.blockAlign) / Double(format.sampleRate)
    }
  }

  /// Sets the duration of Matroska audio tracks whose headers and tags state none to the end
  /// of their last block (see ``MatroskaBlocks``): its time plus its `BlockDuration`, else its
  /// frames times the track's `DefaultDuration`, else times the codec's frame length.
  func fillFromLastBlocks(_ audio: inout [AudioTrack], declared: [Int: DeclaredStream]) {
    guard let source = byteSource else { return }
    let blocks = MatroskaBlocks.lastBlocks(source)
    guard !blocks.isEmpty else { return }
    for position in audio.indices where audio[position].duration == nil {
      let index = audio[position].index
      guard let known = declared[index], known.trackNumber > 0,
        let last = blocks[known.trackNumber]
      else { continue }
      let stream = stream(at: index)
      var seconds = Double(last.ticks + (last.duration ?? 0)) * av_q2d(stream.pointee.time_base)
      if last.duration == nil {
        let parameters = stream.pointee.codecpar.pointee
        if let frame = known.frameDuration {
          seconds += Double(last.frames) * frame
        } else if parameters.frame_size > 0, parameters.sample_rate > 0 {
          seconds +=
            Double(last.frames) * Double(parameters.frame_size)
            / Double(parameters.sample_rate)
        }
      }
      seconds -= matroskaCodecDelay(ofStream: index)
      if seconds.isFinite, seconds > 0, !isImplausible(seconds) {
        audio[position].duration = seconds
      }
    }
  }

  /// Sets the duration of Matroska Opus tracks to the samples their blocks decode to: from
  /// the first block's start to the last block's end (its packet's samples, from the Opus
  /// table of contents, RFC 6716 section 3.1), less the last block's `DiscardPadding` (the
  /// encoder's padding, which FFmpeg's decoder drops) and the `CodecDelay` (the pre-skip,
  /// dropped too). A track's Duration or tags state its blocks' span instead, padding
  /// included: FFmpeg's WebM 0.508 s for 0.5 s decoded, and GStreamer's the span without the
  /// delay (0.5 s, which less the delay made 0.4935 s).
  ///
  /// Block timestamps are in the segment's units, often milliseconds, which do not hold every
  /// packet's start (FFmpeg's muxer starts them 0.5 ms late, rounded up): where the blocks'
  /// span is within one unit of a whole number of the last packet's length (packets of one
  /// length, as Opus encoders write them), it is that number of packets. A track whose first
  /// and last blocks are not found in the first 256 KiB and last MiB of the file keeps its
  /// length.
  func measureOpusBlocks(_ audio: inout [AudioTrack], declared: [Int: DeclaredStream]) {
    guard let source = byteSource else { return }
    let last = MatroskaBlocks.lastBlocks(source)
    guard !last.isEmpty else { return }
    let first = MatroskaBlocks.firstBlocks(source)
    for position in audio.indices where audio[position].codec == "opus" {
      let index = audio[position].index
      guard let number = declared[index]?.trackNumber, number > 0, let end = last[number],
        let start = first[number], let packet = Self.opusPacketSamples(end.frameHead)
      else { continue }
      let tick = av_q2d(stream(at: index).pointee.time_base) * 48000
      let span = (Double(end.ticks) - Double(start.ticks)) * tick
      let packets = (span / Double(packet)).rounded()
      let measured =
        abs(span - packets * Double(packet)) <= tick + 1 ? packets * Double(packet) : span
      let padding = Double(end.discardPadding ?? 0) * 48000 / 1e9
      let samples =
        (measured + Double(packet * end.frames) - padding).rounded()
        - Double(opusPadding(ofStream: index))
      guard samples > 0, samples.isFinite, !isImplausible(samples / 48000) else { continue }
      audio[position].duration = samples / 48000
    }
  }

  /// Sets the duration of Matroska Vorbis tracks to the samples their blocks decode to. A
  /// Vorbis packet decodes to a quarter of its block size plus a quarter of the previous
  /// packet's (Vorbis I, section 1.3.2; the sizes come from the modes its headers define, see
  /// ``OggChain/VorbisModes``), and the first packet to nothing; Matroska has no granule
  /// position to trim the last one, so the decoder gives every packet whole. Muxers time the
  /// first packet each their own way (mkvmerge counts a quarter of its block: 2.7 ms or
  /// 10.7 ms at 48 kHz; GStreamer nothing), and their Duration is the last block's end on that
  /// timeline, or the input's length (GStreamer, FFmpeg): 3.0213 s and 3.0 s were listed for
  /// 3.02 s decoded. The audio runs from the second packet's time to the end of the last
  /// packet: the track's next block's time, less the samples of the first block's further
  /// packets (when it is laced), to the last block's time and the samples of its packets, less
  /// its `DiscardPadding`. A track whose first two and last blocks are not found in the first
  /// 256 KiB and last MiB of the file keeps its length.
  func measureVorbisBlocks(_ audio: inout [AudioTrack], declared: [Int: DeclaredStream]) {
    guard let source = byteSource else { return }
    let last = MatroskaBlocks.lastBlocks(source)
    guard !last.isEmpty else { return }
    let first = MatroskaBlocks.firstBlocks(source)
    for position in audio.indices where audio[position].codec == "vorbis" {
      let index = audio[position].index
      let stream = stream(at: index)
      guard let number = declared[index]?.trackNumber, number > 0, let end = last[number],
        let start = first[number], let next = start.nextTicks,
        let parameters = stream.pointee.codecpar, parameters.pointee.sample_rate > 0,
        let modes = Self.vorbisModes(parameters)
      else { continue }
      let rate = Double(parameters.pointee.sample_rate)
      // The samples of each packet after the first of `bytes`, `previous` being the block
      // size of the packet before them (or the first one's, when `previous` is `nil`).
      func samples(_ bytes: [UInt8], after previous: UInt8?) -> Int? {
        var total = 0
        var before = previous.flatMap { modes.blockSize(ofPacket: [$0]) }
        for byte in bytes {
          guard let size = modes.blockSize(ofPacket: [byte]) else { return nil }
          if let before { total += before / 4 + size / 4 }
          before = size
        }
        return total
      }
      guard start.frameBytes.count == start.frames, end.frameBytes.count == end.frames,
        let preceding = end.precedingFrameByte,
        let firstBlock = samples(start.frameBytes, after: nil),
        let lastBlock = samples(end.frameBytes, after: preceding)
      else { continue }
      let tick = av_q2d(stream.pointee.time_base) * rate
      let padding = Double(end.discardPadding ?? 0) * rate / 1e9
      let frames =
        (Double(end.ticks - next) * tick + Double(firstBlock + lastBlock) - padding).rounded()
      guard frames > 0, frames.isFinite, !isImplausible(frames / rate) else { continue }
      audio[position].duration = frames / rate
    }
  }

  /// The modes of a Vorbis stream from its extradata: the three headers in Xiph lacing (the
  /// packet count less one, then the first two sizes as runs of bytes up to one below 255),
  /// as Matroska's `CodecPrivate` holds them; `nil` when they cannot be read.
  static func vorbisModes(_ parameters: UnsafeMutablePointer<AVCodecParameters>)
    -> OggChain.VorbisModes?
  {
    guard let data = parameters.pointee.extradata, parameters.pointee.extradata_size > 3
    else { return nil }
    let bytes = Array(
      UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size)))
    guard bytes[0] == 2 else { return nil }
    var at = 1
    var sizes: [Int] = []
    for _ in 0..<2 {
      var size = 0
      while at < bytes.count, bytes[at] == 255 {
        size += 255
        at += 1
      }
      guard at < bytes.count else { return nil }
      sizes.append(size + Int(bytes[at]))
      at += 1
    }
    let setupStart = at + sizes[0] + sizes[1]
    guard setupStart < bytes.count else { return nil }
    return OggChain.VorbisModes(
      identification: Array(bytes[at..<(at + sizes[0])]), setup: Array(bytes[setupStart...]))
  }

  /// The samples at 48 kHz an Opus packet decodes to, from its first bytes (the table of
  /// contents, then for code 3 the frame count): `nil` when `head` is too short.
  static func opusPacketSamples(_ head: [UInt8]) -> Int? {
    guard let toc = head.first else { return nil }
    let config = Int(toc >> 3)
    // Frame sizes in 48 kHz samples: SILK 10, 20, 40, 60 ms; hybrid 10, 20 ms; CELT 2.5, 5,
    // 10, 20 ms.
    let frame: Int
    switch config {
    case 0..<12: frame = [480, 960, 1920, 2880][config & 3]
    case 12..<16: frame = [480, 960][config & 1]
    default: frame = [120, 240, 480, 960][config & 3]
    }
    switch toc & 3 {
    case 0: return frame
    case 1, 2: return 2 * frame
    default:
      guard head.count >= 2, head[1] & 0x3F > 0 else { return nil }
      return Int(head[1] & 0x3F) * frame
    }
  }

  /// What the container's headers declare for each stream, by stream index.
  func declarations() -> [Int: DeclaredStream] {
    guard let source = byteSource else { return [:] }
    let table = ContainerDeclarations.read(format: formatName, from: source)
    guard !table.isEmpty else { return [:] }
    var result: [Int: DeclaredStream] = [:]
    let ids = (0..<streamCount).map { Int(stream(at: $0).pointee.id) }
    if formatName.hasPrefix("matroska") && ids.allSatisfy({ $0 == 0 }) {
      // FFmpeg's Matroska streams carry no track number: they are the tracks of the types it
      // reads, in the order of the `Tracks` element.
      let entries = table.values.sorted { $0.position < $1.position }
        .filter { [1, 2, 0x11, 0x21].contains($0.trackType) }
      guard entries.count == streamCount else { return [:] }
      for (index, declared) in entries.enumerated() {
        let type = stream(at: index).pointee.codecpar.pointee.codec_type
        let expected: AVMediaType =
          declared.trackType == 2
          ? AVMEDIA_TYPE_AUDIO : declared.trackType == 0x11 ? AVMEDIA_TYPE_SUBTITLE : type
        guard type == expected else { return [:] }
        result[index] = declared
      }
      return result
    }
    for index in 0..<streamCount {
      if let declared = table[ids[index]] { result[index] = declared }
    }
    return result
  }

  /// The facts of audio stream `index` (kind and label not yet set), with what the container
  /// declares for it.
  func audioTrack(at index: Int, declared: DeclaredStream? = nil) -> AudioTrack {
    let stream = stream(at: index)
    let parameters = stream.pointee.codecpar!
    let channels = Int(parameters.pointee.ch_layout.nb_channels)
    var layout = withUnsafePointer(to: parameters.pointee.ch_layout) { ChannelLayout(copying: $0) }
    if parameters.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC,
      let mask = Self.codecLayout(parameters)
    {
      layout = ChannelLayout(mask: mask, channels: channels)
    }
    let raw = metadata(stream, "language")
    var start: Double? = nil
    if stream.pointee.start_time != cff_nopts_value() {
      start = Double(stream.pointee.start_time) * av_q2d(stream.pointee.time_base)
    }
    let id = parameters.pointee.codec_id
    var track = AudioTrack(
      index: index, codec: codecName(id),
      profile: profileName(parameters), sampleRate: max(0, Int(parameters.pointee.sample_rate)),
      channels: max(0, channels),
      channelLayout: channels > 0
        ? ChannelLayoutName.clean(layout.described, channels: channels) : "",
      bitRate: Self.plausibleBitRate(Self.statedBitRate(parameters)),
      duration: trackDuration(ofStream: index, declared: declared), startTime: start,
      language: LanguageTag.bcp47(raw), languageTag: raw, title: metadata(stream, "title"),
      dispositions: dispositionNames(stream.pointee.disposition))
    track.ffmpegCodec = track.codec.isEmpty ? nil : track.codec
    track.codecTag = declared?.tag ?? Self.tagText(parameters.pointee.codec_tag)
    track.decodable = id != AV_CODEC_ID_NONE && Self.hasDecoder(id)
    // FLAC's 32-bit samples are read by FFmpeg's decoder from libavcodec 60 (FFmpeg 6.0) on;
    // before, it opens and gives nothing.
    if id == AV_CODEC_ID_FLAC, LIBAVCODEC_VERSION_MAJOR < 60,
      (Self.flacSampleBits(parameters) ?? Int(parameters.pointee.bits_per_raw_sample)) > 24
    {
      track.decodable = false
    }
    // Free-format MPEG audio, which FFmpeg 5.1 neither decodes nor reads the facts of: the
    // first frame's header states the rate and channels, the LAME tag (when there is one)
    // the length (see `ElementaryFrames.freeFormatHeader`).
    if formatName == "mp3", let source = byteSource,
      let free = ElementaryFrames.freeFormatHeader(source)
    {
      track.decodable = false
      track.profile = "free format"
      track.sampleRate = free.sampleRate
      track.channels = free.channels
      track.channelLayout = ChannelLayout.defaultName(channels: free.channels)
      track.bitRate = nil
      track.duration = MPEGAudioGapless.seconds(source)
    }
    // A WavPack correction file (.wvc) alone holds no audio (see `WavPackBlocks`).
    if id == AV_CODEC_ID_WAVPACK, formatName == "wv", let source = byteSource,
      WavPackBlocks.isCorrectionOnly(source.head())
    {
      track.decodable = false
    }
    // Opus decoders give 48 kHz whatever rate the header states (RFC 7845: the header's rate
    // is the original input's, for information).
    if id == AV_CODEC_ID_OPUS { track.sampleRate = 48000 }
    if let declared { Self.apply(declared, to: &track) }
    // A fragmented MP4 track's average over all its fragments (see
    // `DeclaredStream.fragmentsBitRate`), not FFmpeg's over the first ones.
    if formatName.hasPrefix("mov"), track.bitRate != nil || declared?.variableBitRate != true,
      let rate = declared?.fragmentsBitRate
    {
      track.bitRate = rate
    }
    // AAC whose decoder configuration FFmpeg's decoder refuses to open (5.1: ER AAC LD with
    // an `epConfig` of 1, as FFmpeg's own encoder writes it; object types it does not
    // implement): the sample entry states a rate and channels, and the track looked decodable.
    // Tried only for object types other than Main, LC, LTP, SBR and PS.
    if id == AV_CODEC_ID_AAC, track.decodable, let type = Self.aacObjectType(parameters),
      ![1, 2, 4, 5, 29].contains(type), !Self.opensDecoder(stream)
    {
      track.decodable = false
    }
    // A track whose rate or channel count is still unknown (after the stream-information pass
    // where one was needed) cannot be decoded: FFmpeg's decoders are opened with both. Raw AAC
    // access units with neither ADTS headers nor a decoder configuration are such a track:
    // FFmpeg 5.1 probes a `.aac` file of them as ADTS and reads no rate from it.
    // The channel count and bit rate FFmpeg read from a stream it found no rate in are the
    // same misreading (8 or 23 channels, 1.4 Mb/s for a 1 KB file of raw AAC): unknown.
    if track.sampleRate <= 0 || track.channels <= 0 {
      track.decodable = false
      if track.sampleRate <= 0 {
        track.channels = 0
        track.channelLayout = ""
        track.bitRate = nil
      }
    }
    if let stated = declared?.language.flatMap(LanguageTag.bcp47) { track.language = stated }
    track.isEnabled = declared?.enabled ?? true
    return track
  }

  /// Corrects what a sample entry or track header states and only a track's first packet tells
  /// (reads at most 64 packets, and only for the tracks below):
  /// - in Ogg, the start of a track whose granule positions begin past 0 (see
  ///   ``correctOggStart(_:firstTimestamp:)``);
  /// - in MP4, the layer of MPEG audio, whose object type (`0x6B`, `0x69`) covers layers I to
  ///   III and which FFmpeg 5.1 lists as MP3 whatever the layer: the frame header tells;
  /// - in MP4, the duration of E-AC-3, whose sample table may state 1,536 samples (six blocks)
  ///   per MP4 sample when its sync frames carry fewer: the frames' block counts tell, and the
  ///   duration becomes what the decoder gives (the samples times the audio each really holds);
  /// - in any container, the rate and channels of AAC stated at 24 kHz or below: implicit SBR
  ///   (HE-AAC) doubles the rate and implicit PS (HE-AAC v2) makes mono stereo, and the
  ///   header says neither; the decoder's first frame tells (see ``decodedFacts(_:packet:)``);
  /// - in MP4, the channels of AC-3, which FFmpeg takes from the `dac3` box, not from the
  ///   frames: VLC 3's MP4 muxer writes that box wrong (5.1 at 48 kHz listed as stereo, as
  ///   FFmpeg reads its `acmod` 0), while the sample entry's channel count and every frame's
  ///   header say six channels; the decoder's first frame tells.
  ///
  /// MPEG-TS and raw ADTS are left out of the AAC check: their stream-information pass decodes
  /// AAC frames already, and their rates are the decoder's.
  func refineFromFirstPackets(_ audio: inout [AudioTrack], path: String) {
    let mp4 = formatName.hasPrefix("mov")
    let ogg = formatName == "ogg"
    let decodedAlready = formatName == "mpegts" || formatName == "aac"
    var waiting: [Int: Int] = [:]
    for (position, track) in audio.enumerated()
    where (ogg && track.duration != nil)
      || (mp4 && track.codec == "mp3" && track.codecTag == "mp4a")
      || (mp4 && track.codec == "eac3" && track.duration != nil && track.sampleRate > 0)
      || (mp4 && track.codec == "ac3" && track.decodable)
      || (!decodedAlready && track.codec == "aac" && track.decodable
        && (1...24000).contains(track.sampleRate))
    {
      waiting[track.index] = position
    }
    guard !waiting.isEmpty, let packet = av_packet_alloc() else { return }
    var owned: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&owned) }
    for _ in 0..<64 where !waiting.isEmpty {
      guard (try? readFrame(packet, path: path)) == 0 else { break }
      defer { av_packet_unref(packet) }
      let index = Int(packet.pointee.stream_index)
      guard let position = waiting[index], let data = packet.pointee.data, packet.pointee.size > 0
      else { continue }
      waiting[index] = nil
      if ogg {
        correctOggStart(&audio[position], firstTimestamp: packet.pointee.pts)
        continue
      }
      switch audio[position].codec {
      case "eac3":
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
        correctEAC3Duration(&audio[position], firstPacket: bytes)
      case "aac", "ac3":
        guard let facts = decodedFacts(index, packet: packet),
          facts.sampleRate != audio[position].sampleRate
            || facts.channels != audio[position].channels
        else { continue }
        audio[position].sampleRate = facts.sampleRate
        audio[position].channels = facts.channels
        audio[position].channelLayout = facts.layout
        if let profile = facts.profile { audio[position].profile = profile }
      default:
        let bytes = Array(
          UnsafeBufferPointer(start: data, count: Int(min(packet.pointee.size, 66))))
        if let layer = ContainerDeclarations.mpegAudioLayer(bytes) { audio[position].codec = layer }
      }
    }
  }

  /// Measures an Ogg track from its first packet to its last granule position: a stream whose
  /// granule positions begin past 0 (VLC 3's Ogg muxer starts a second Vorbis stream about
  /// 0.09 s in, and an Opus stream 20 samples in) lasts from its first packet's start (the
  /// first page's granule less the packets on it) to its last granule, less an Opus stream's
  /// pre-skip. FFmpeg 5.1 takes that start off its stated length only when nothing else set
  /// the stream's start (a Skeleton stream's bone, which VLC writes with a start of 0, does),
  /// and where it learns the start only after measuring the length, it states the length up to
  /// the last granule from 0 with the start beside it. A Vorbis stream's start is read from
  /// its pages (``OggChain/vorbisStart(_:serial:)``: a file cut at a page boundary, or a
  /// recording joined late, starts thousands of samples in, and FFmpeg times its first packet
  /// at or before 0). For other codecs `firstTimestamp` is the start: the first packet's, in
  /// the stream's time base (its sample rate), which for Opus FFmpeg counts less the
  /// pre-skip. The last granule is read from the last pages of the file; without it the
  /// stated length stays, as it does for a stream starting at or before 0 (whose start the
  /// decoder trims, or, for Speex, decodes as the encoder's delay).
  func correctOggStart(_ track: inout AudioTrack, firstTimestamp: Int64) {
    guard let source = byteSource else { return }
    // The stream FFmpeg numbers so, if its first packet states the track's rate.
    let streams = OggChain.firstStreams(source)
    guard track.index < streams.count, streams[track.index].rate == track.sampleRate else {
      return
    }
    let serial = streams[track.index].serial
    let preSkip = oggPreSkip(ofStream: track.index)
    let start: Int64
    if let pages = OggChain.vorbisStart(source, serial: serial) {
      // A Vorbis stream's start is read from its pages: FFmpeg 5.1 times the first packets
      // of a stream starting past 0 from sample 0 or before it (-206,720 for a stream that
      // starts at 2,432 behind a Theora stream), which left its whole last granule position
      // as its length.
      start = pages
    } else {
      guard firstTimestamp != cff_nopts_value() else { return }
      start = firstTimestamp + preSkip
    }
    guard start > 0, let end = OggChain.lastGranule(source, serial: serial),
      end - start - preSkip > 0
    else { return }
    let base = av_q2d(stream(at: track.index).pointee.time_base)
    track.duration = Double(end - start - preSkip) * base
    track.startTime = Double(start) * base
  }

  /// What the decoder of stream `index` gives for `packet` (its first): the rate in Hz, the
  /// channel count, the layout's name and the profile the decoder found (`"HE-AAC"`), or `nil`
  /// when the decoder cannot be opened or gives no frame for it.
  func decodedFacts(_ index: Int, packet: UnsafeMutablePointer<AVPacket>)
    -> (sampleRate: Int, channels: Int, layout: String, profile: String?)?
  {
    guard let codec = try? CodecContext(decoderFor: stream(at: index), path: ""),
      let frame = try? Frame(),
      avcodec_send_packet(codec.raw, packet) >= 0,
      avcodec_receive_frame(codec.raw, frame.raw) >= 0,
      frame.raw.pointee.sample_rate > 0, frame.raw.pointee.ch_layout.nb_channels > 0
    else { return nil }
    let channels = Int(frame.raw.pointee.ch_layout.nb_channels)
    let layout = withUnsafePointer(to: frame.raw.pointee.ch_layout) {
      ChannelLayout(copying: $0)
    }
    var profile: String? = nil
    if codec.raw.pointee.profile >= 0,
      let name = avcodec_profile_name(codec.raw.pointee.codec_id, codec.raw.pointee.profile)
    {
      profile = String(cString: name)
    }
    return (
      Int(frame.raw.pointee.sample_rate), channels,
      ChannelLayoutName.clean(layout.described, channels: channels), profile
    )
  }

  /// Scales an E-AC-3 track's duration by the audio its first MP4 sample really holds over the
  /// 1,536 samples its sample table states for it, when every sample is stated at 1,536.
  func correctEAC3Duration(_ track: inout AudioTrack, firstPacket: [UInt8]) {
    let stream = stream(at: track.index)
    let frames = stream.pointee.nb_frames
    guard frames > 0, stream.pointee.duration > 0, let seconds = track.duration,
      let held = EAC3Frames.samples(firstPacket), held > 0, held != 1536
    else { return }
    let stated = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
    let perSample = stated * Double(track.sampleRate) / Double(frames)
    guard abs(perSample - 1536) < 0.5, abs(stated - seconds) < 1e-6 else { return }
    track.duration = Double(frames) * Double(held) / Double(track.sampleRate)
  }

  /// Cross-checks FFmpeg's facts in `track` with the container's declaration.
  /// Where both name the same codec or family (`pcm` and `pcm_s16le`, `ac3` and `eac3`,
  /// MPEG audio layers), FFmpeg's name stays: it read the bitstream. Where they differ, the
  /// declaration wins when FFmpeg's name is a guess from probing the bytes (it falls back to
  /// MPEG audio) or FFmpeg could not read the stream's rate or channels: FFmpeg's decoder
  /// would be the wrong one, and the facts it read are those of a misreading. Otherwise
  /// FFmpeg parsed the stream as its codec, and its name stays.
  static func apply(_ declared: DeclaredStream, to track: inout AudioTrack) {
    if declared.encrypted {
      track.encrypted = true
      track.decodable = false
    }
    if declared.noDecoder { track.decodable = false }
    // FFmpeg's rate is the first frame's; the track's average is not known without reading
    // the stream through.
    if declared.variableBitRate { track.bitRate = nil }
    if declared.scrambled {
      track.sampleRate = 0
      track.channels = 0
      track.channelLayout = ""
      track.bitRate = nil
    }
    guard let codec = declared.codec else {
      if track.profile == nil { track.profile = declared.profile }
      return
    }
    let ffmpeg = track.ffmpegCodec ?? ""
    if !ffmpeg.isEmpty && ContainerDeclarations.agrees(declared: codec, ffmpeg: ffmpeg) {
      if track.profile == nil { track.profile = declared.profile }
      // A declared MPEG audio layer is the codec: MPEG-TS stream types 0x03 and 0x04 cover
      // every layer, FFmpeg 5.1 takes both for MP3, and the declaration is the layer read from
      // the stream's first frame header.
      if ContainerDeclarations.mpegAudioLayers.contains(codec) { track.codec = codec }
      return
    }
    let guessed = ffmpeg.isEmpty || ["mp1", "mp2", "mp3"].contains(ffmpeg)
    let unread = track.sampleRate <= 0 || track.channels <= 0
    // MLP in an LPCM substream (DVD-Audio) is FFmpeg's reading of the stream, not a guess.
    if ["mlp", "truehd"].contains(ffmpeg) { return }
    guard guessed || unread || declared.noDecoder || declared.decodesAsDeclared else { return }
    track.codec = codec
    track.profile = declared.profile
    if !ffmpeg.isEmpty {
      track.decodable = false
      track.sampleRate = 0
      track.channels = 0
      track.channelLayout = ""
      track.bitRate = nil
    }
    // A declaration that states the facts (a DVD LPCM header) gives them; where the demuxer's
    // packets are the declared codec's, its decoder reads them (see `adoptDeclaredCodec`).
    if let rate = declared.sampleRate, let channels = declared.channels, rate > 0, channels > 0 {
      track.sampleRate = rate
      track.channels = channels
      track.channelLayout = ChannelLayout.defaultName(channels: channels)
      track.bitRate = declared.bitsPerSample.map { rate * channels * $0 }
      track.decodable =
        declared.decodesAsDeclared && !declared.encrypted
        && declaredCodecID(codec).map(hasDecoder) == true
    }
  }

  /// FFmpeg's id for a codec a declaration names whose packets FFmpeg's demuxer gives under
  /// another name (see ``DeclaredStream/decodesAsDeclared``), or `nil`.
  static func declaredCodecID(_ codec: String) -> AVCodecID? {
    codec == "pcm_dvd" ? AV_CODEC_ID_PCM_DVD : nil
  }

  /// Makes stream `index` the declared codec of `track` where the container's declaration
  /// says FFmpeg's demuxer gives that codec's packets under another name (MPEG-PS LPCM that a
  /// program stream map names AC-3): its parameters become the declared codec's and facts, so
  /// the decoder opened for it is the right one. Nothing changes for other tracks.
  func adoptDeclaredCodec(ofStream index: Int, track: AudioTrack, declared: DeclaredStream?) {
    guard let declared, declared.decodesAsDeclared, track.decodable,
      declared.codec == track.codec, track.ffmpegCodec != track.codec,
      let id = Self.declaredCodecID(track.codec),
      let parameters = stream(at: index).pointee.codecpar
    else { return }
    parameters.pointee.codec_type = AVMEDIA_TYPE_AUDIO
    parameters.pointee.codec_id = id
    parameters.pointee.codec_tag = 0
    parameters.pointee.sample_rate = Int32(track.sampleRate)
    av_channel_layout_uninit(&parameters.pointee.ch_layout)
    av_channel_layout_default(&parameters.pointee.ch_layout, Int32(track.channels))
    if let bits = declared.bitsPerSample { parameters.pointee.bits_per_coded_sample = Int32(bits) }
  }

  /// Whether this FFmpeg has a decoder for `id`, remembered per codec for the process:
  /// `avcodec_find_decoder` walks every codec FFmpeg has, which cost about 4 % of listing many
  /// small files (one call per audio track).
  /// The audio object type an AAC decoder configuration (AudioSpecificConfig, ISO/IEC
  /// 14496-3 1.6.2.1) in `parameters`' extradata states, its escape (31) resolved; `nil`
  /// without one.
  static func aacObjectType(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> Int? {
    guard let data = parameters.pointee.extradata, parameters.pointee.extradata_size >= 2 else {
      return nil
    }
    let type = Int(data[0] >> 3)
    return type == 31 ? 32 + (Int(data[0] & 7) << 3 | Int(data[1] >> 5)) : type
  }

  /// Whether FFmpeg's decoder for `stream` opens with the stream's parameters (its decoder
  /// configuration read, nothing decoded).
  static func opensDecoder(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
    do {
      _ = try CodecContext(decoderFor: stream, path: "")
      return true
    } catch {
      return false
    }
  }

  static func hasDecoder(_ id: AVCodecID) -> Bool {
    if let known = decoderCache.withLock({ $0[id.rawValue] }) { return known }
    let found = avcodec_find_decoder(id) != nil
    decoderCache.withLock { $0[id.rawValue] = found }
    return found
  }

  /// ``hasDecoder(_:)``'s answers by codec id.
  private static let decoderCache = PthreadLocked<[UInt32: Bool]>([:])

  /// A codec tag as four printable characters (`"mp4a"`), or `nil` when it is not one.
  static func tagText(_ tag: UInt32) -> String? {
    guard tag != 0 else { return nil }
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
    guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A stream's own duration in seconds: its fragments' in a fragmented MP4 (what the file
  /// holds, whatever the headers state), else the stream's, else an AVI stream's length in
  /// its header's units, else the duration its tags state
  /// (Matroska's `DURATION`), else the container's when the stream is the container's only
  /// one; `nil` when unknown, and when the stated duration is impossible for the bytes the
  /// file holds (a fragmented MP4 stating days for a second of audio).
  func trackDuration(ofStream index: Int, declared: DeclaredStream? = nil) -> Double? {
    let stream = stream(at: index)
    let value = stream.pointee.duration
    var seconds: Double? = nil
    if formatName.hasPrefix("mov"), let presented = declared?.presentedLength {
      seconds = presented.seconds
    } else if let fragments = declared?.fragmentsDuration {
      seconds = fragments
    } else if let streamed = streamedAIFFDuration(ofStream: index) {
      seconds = streamed
    } else if value != cff_nopts_value() && value > 0 {
      seconds = Double(value - oggPreSkip(ofStream: index)) * av_q2d(stream.pointee.time_base)
      if formatName == "avi", let indexed = aviIndexedFrames(ofStream: index, stated: value) {
        seconds = indexed
      } else if formatName == "avi", let counted = aviCountedFrames(ofStream: index, stated: value)
      {
        seconds = counted
      }
      if let end = cafALACEnd(ofStream: index, stated: value) { seconds = end }
      if let held = mxfPCMDuration(ofStream: index) { seconds = held }
    } else if formatName == "avi", let indexed = aviIndexedDuration(ofStream: index) {
      seconds = indexed
    } else if formatName == "avi", stream.pointee.nb_frames > 0 {
      // An AVI stream counted in bytes (its header's sample size is not 0: PCM, and AC-3 or
      // MP3 as some muxers write them) has its length in those units, which FFmpeg keeps as
      // the frame count and does not make a duration; its time base is their rate.
      seconds = Double(stream.pointee.nb_frames) * av_q2d(stream.pointee.time_base)
    } else if let tag = metadata(stream, "DURATION") ?? metadata(stream, "duration") {
      seconds = Self.clockSeconds(tag)
    } else if streamCount == 1 {
      seconds = containerDuration ?? constantRateDuration(ofStream: index)
      if seconds == nil, let source = byteSource {
        // The storage format (`#!AMR`), and headerless frames (FFmpeg's `amrnb` and `amrwb`
        // demuxers: GStreamer's encoders written straight to a file).
        switch formatName {
        case "amr": seconds = AMRFrames.duration(source)
        case "amrnb": seconds = AMRFrames.duration(source, headerless: .narrowband)
        case "amrwb": seconds = AMRFrames.duration(source, headerless: .wideband)
        default: break
        }
      }
      if seconds == nil, formatName == "flac", let source = byteSource {
        seconds = FLACFrames.duration(source)
      }
    }
    guard let stated = seconds else { return nil }
    let audio = stated - matroskaCodecDelay(ofStream: index)
    guard audio.isFinite, audio > 0 else { return nil }
    if isImplausible(audio) { return nil }
    return audio
  }

  /// The length the container states for the audio of stream `index` where FFmpeg 5.1's
  /// decoding gives more (or, in Ogg, trims wrongly), and whether FFmpeg's own end trimming
  /// is to be replaced by it:
  /// - an MP4 track's presented length (its edit list, else its sample durations; see
  ///   ``MP4Declarations/presentedLength(_:trak:movieTimescale:)``): FFmpeg 5.1 applies an
  ///   edit's start (AAC's encoder delay, Opus's pre-skip) but not its end, so the last frame's
  ///   padding was decoded (648 samples of FFmpeg's 0.5 s Opus, 478 of its AAC at 44.1 kHz);
  /// - an Ogg Vorbis file whose audio is all on one page (see
  ///   ``OggChain/singlePageVorbisLength(_:)``): its granule position, in place of FFmpeg's
  ///   end trimming;
  /// - a raw MP3 stream whose LAME tag states its length, with bytes after the frames it
  ///   counts (see ``MPEGAudioGapless/endsAtStatedFrames(_:walk:)``): FFmpeg 5.1 drops the tag's
  ///   padding inside those frames but decodes what follows them (a partial frame of garbage
  ///   gave 227 samples more). Local files only;
  /// - a compressed WAVE stream's `fact` sample count (see
  ///   ``WaveHeader/factSampleLength(in:)``), which FFmpeg 5.1 lists but does not trim to: it
  ///   decoded the last block's padding (4.008 s of sox's IMA ADPCM for 4 s, 4.017 s of its
  ///   Microsoft ADPCM). Not for PCM, whose `fact` chunk some writers fill wrongly.
  ///
  /// A fragmented MP4's audio track counts the span of its fragments as its media. `nil` for
  /// anything else.
  func statedAudioLength(ofStream index: Int, declared: DeclaredStream?)
    -> (length: MediaLength, replacesEndTrim: Bool)?
  {
    if formatName.hasPrefix("mov"), let presented = declared?.presentedLength {
      return (presented, false)
    }
    if let trims = opusTrims(ofStream: index) {
      return (MediaLength(units: trims.presented, timescale: 48000), false)
    }
    if formatName == "ogg", streamCount == 1, let source = byteSource,
      let parameters = stream(at: index).pointee.codecpar,
      parameters.pointee.codec_id == AV_CODEC_ID_VORBIS, parameters.pointee.sample_rate > 0,
      let samples = OggChain.singlePageVorbisLength(source)
    {
      return (MediaLength(units: samples, timescale: Int(parameters.pointee.sample_rate)), true)
    }
    if formatName == "wav", streamCount == 1, let source = byteSource,
      let parameters = stream(at: index).pointee.codecpar, parameters.pointee.sample_rate > 0,
      !(0x10000..<0x11000).contains(parameters.pointee.codec_id.rawValue),
      let samples = WaveHeader.factSampleLength(in: source)
    {
      return (MediaLength(units: samples, timescale: Int(parameters.pointee.sample_rate)), false)
    }
    if formatName == "mp3", streamCount == 1, !isRemote, let source = byteSource,
      let length = MPEGAudioGapless.endsAtStatedFrames(source)
    {
      return (length, false)
    }
    return nil
  }

  /// The samples an Ogg Opus stream's header says to skip at its start (its pre-skip, which
  /// FFmpeg 5.1 keeps as the initial padding), in the stream's time base (48 kHz): FFmpeg
  /// states the stream's length in granule positions, from its first packet to its last
  /// granule, and the decoder drops the pre-skip, so the audio is that much shorter (RFC 7845
  /// section 4.2: the last sample's position is the last granule less the pre-skip). 0 for
  /// other codecs and containers: Vorbis, FLAC and Speex in Ogg skip nothing (for Matroska see
  /// ``matroskaCodecDelay(ofStream:)``).
  func oggPreSkip(ofStream index: Int) -> Int64 {
    guard formatName == "ogg" else { return 0 }
    return opusPadding(ofStream: index)
  }

  /// The seconds of a Matroska Opus track's `CodecDelay` (its pre-skip, which FFmpeg 5.1 keeps
  /// as the initial padding, in 48 kHz samples): Matroska muxers time the blocks from the
  /// first packet's start, the pre-skip included, and the decoder drops it, so the stated
  /// length (the Duration, or the last block's end) is that much longer than the audio: 6.5 ms
  /// for every muxer tried (FFmpeg's, mkvmerge's, GStreamer's). 0 for other codecs and
  /// containers.
  func matroskaCodecDelay(ofStream index: Int) -> Double {
    guard formatName.hasPrefix("matroska") else { return 0 }
    return Double(opusPadding(ofStream: index)) / 48000
  }

  /// An Opus stream's pre-skip in 48 kHz samples, or 0 for another codec: its `OpusHead`'s
  /// (the extradata), which FFmpeg's decoder drops, else FFmpeg's initial padding. (FFmpeg's
  /// Matroska muxer writes the CodecDelay at the header's rate when that is not 48 kHz: 3.25 ms
  /// for a pre-skip of 312 samples at 24 kHz, which FFmpeg reads back as 156.)
  private func opusPadding(ofStream index: Int) -> Int64 {
    guard let parameters = stream(at: index).pointee.codecpar,
      parameters.pointee.codec_id == AV_CODEC_ID_OPUS
    else { return 0 }
    if let header = parameters.pointee.extradata, parameters.pointee.extradata_size >= 19,
      UnsafeBufferPointer(start: header, count: 8).elementsEqual("OpusHead".utf8)
    {
      return Int64(header[10]) | Int64(header[11]) << 8
    }
    return Int64(max(0, parameters.pointee.initial_padding))
  }

  /// The duration in seconds of an AVI stream counted in bytes (its header's sample size is not
  /// 0: constant-rate audio), from its index: the bytes of its chunks over the format's
  /// average bytes per second (`nAvgBytesPerSec`, which FFmpeg keeps as the bit rate), else
  /// in the header's units (the sample size, FFmpeg's block alignment) at the header's rate.
  /// The stream header's length is not used when the index is there: VLC's AVI muxer writes
  /// its count of chunks there (80 for 80 frames of MP2 whose header counts bytes: 0.005 s
  /// for 2.88 s), and its rate as measured while muxing (11,773.875 bytes/s for MP3 at
  /// 12,000). `nil` without an index (a file cut before its `idx1`), and for streams counted
  /// in frames, whose length FFmpeg states as their duration.
  func aviIndexedDuration(ofStream index: Int) -> Double? {
    let stream = stream(at: index)
    let entries = Int(avformat_index_get_entries_count(stream))
    guard entries > 0, let last = avformat_index_get_entry(stream, Int32(entries - 1)),
      let parameters = stream.pointee.codecpar
    else { return nil }
    let bytes = last.pointee.timestamp + Int64(last.pointee.size)
    guard last.pointee.timestamp >= 0, bytes > 0 else { return nil }
    if parameters.pointee.bit_rate >= 8 {
      return Double(bytes) * 8 / Double(parameters.pointee.bit_rate)
    }
    let unit = Int64(max(parameters.pointee.block_align, 1))
    return Double(bytes / unit) * av_q2d(stream.pointee.time_base)
  }

  /// The duration in seconds of an AVI audio stream counted in frames, in a file without an
  /// index (`idx1`; FFmpeg's index then holds only the packets read while probing, and
  /// ``aviIndexedFrames(ofStream:stated:)`` has nothing to go by): its chunks in the `movi`
  /// lists, one frame each (``AVIChunks``). GStreamer's `avimux` writes no index for audio and
  /// states one frame less than it writes: 93 of 94 AAC frames (1.984 s where 2.005 s
  /// decode). `nil` for other streams, and when the count is not within a tenth of the
  /// stated length (a stream counted in bytes states far more than its chunks), and over
  /// http(s), where the walk would fetch the whole file.
  func aviCountedFrames(ofStream index: Int, stated: Int64) -> Double? {
    let stream = stream(at: index)
    guard let parameters = stream.pointee.codecpar,
      parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO, !isRemote, let source = byteSource,
      let chunks = AVIChunks.count(stream: index, in: source).map(Int64.init), chunks > 0,
      chunks != stated, chunks * 10 >= stated * 9, chunks * 10 <= stated * 11
    else { return nil }
    return Double(chunks) * av_q2d(stream.pointee.time_base)
  }

  /// The duration in seconds of an AVI audio stream counted in frames (its header's sample
  /// size is 0: AAC, Vorbis, VBR MP3), from its index: the span from the first chunk holding
  /// data to the end of the last, in the header's frame units. The stream header's length
  /// counts every chunk the muxer wrote, empty ones too, which FFmpeg's demuxer skips and
  /// which hold no audio: a camera file's header states 385 AAC frames (8.213 s) where its
  /// first two chunks are empty and 383 frames decode (8.171 s; GStreamer's `avidemux` gives
  /// the same 383). `nil` for audio counted in bytes, and where the index does not cover
  /// most of the stated length (a file cut before its `idx1`, whose index holds only the
  /// packets FFmpeg read while probing): the header's length stands. An index that holds a
  /// little more than the header states (at most a tenth) counts too: GStreamer's `avimux`
  /// states one frame less than it writes (93 of 94 AAC frames, 37 MP3 frames as 36), and all
  /// of them decode.
  func aviIndexedFrames(ofStream index: Int, stated: Int64) -> Double? {
    let stream = stream(at: index)
    let entries = Int(avformat_index_get_entries_count(stream))
    guard entries > 0, let parameters = stream.pointee.codecpar,
      parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO,
      let first = avformat_index_get_entry(stream, 0),
      let last = avformat_index_get_entry(stream, Int32(entries - 1))
    else { return nil }
    // Chunks of a stream counted in frames hold one frame each, or with a block alignment
    // stated (FFmpeg keeps it for MP3 and others) as many frames as blocks they span.
    let align = Int64(parameters.pointee.block_align)
    let size = Int64(last.pointee.size)
    let lastFrames = align > 4 ? max(1, (size + align - 1) / align) : 1
    let frames = last.pointee.timestamp + lastFrames - first.pointee.timestamp
    guard first.pointee.timestamp >= 0, frames > 0, frames * 10 >= stated * 9,
      frames * 10 <= stated * 11
    else { return nil }
    return Double(frames) * av_q2d(stream.pointee.time_base)
  }

  /// The duration in seconds of a CAF file's ALAC from its last packet, whose frame header
  /// states the samples it holds (see ``ALACFrames/statedSamples(_:)``): the packets before it
  /// are whole frames, and a decoder gives that count for it. `nil` for anything else, and
  /// when that end is not before the stated length (`stated`, in the stream's time base).
  /// FFmpeg's CAF muxer states every packet's full frame length (the `pakt` chunk's valid
  /// frames: 135,168 for 33 packets of 4,096 holding 132,300 samples, 3.065 s for 3 s), and
  /// FFmpeg's demuxer lists that; the ALAC decoder gives the frame's count. The packet's
  /// position is from the `pakt` table (FFmpeg's index, from the data's start).
  func cafALACEnd(ofStream index: Int, stated: Int64) -> Double? {
    let stream = stream(at: index)
    let entries = Int(avformat_index_get_entries_count(stream))
    guard formatName == "caf", entries > 0, let source = byteSource, let start = dataOffset,
      let parameters = stream.pointee.codecpar, parameters.pointee.codec_id == AV_CODEC_ID_ALAC,
      let last = avformat_index_get_entry(stream, Int32(entries - 1)),
      last.pointee.timestamp >= 0, last.pointee.pos >= 0,
      let samples = ALACFrames.statedSamples(source.bytes(at: start + last.pointee.pos, count: 7))
    else { return nil }
    let end = last.pointee.timestamp + samples
    guard end < stated else { return nil }
    return Double(end) * av_q2d(stream.pointee.time_base)
  }

  /// The duration in seconds of the PCM of an MXF file's only stream, from its sound
  /// essence's bytes (see ``MXFEssence/soundBytes(_:)``) in whole sample frames: what decodes.
  /// The header states whole edit units, rounded up. `nil` for anything else, and for files
  /// over 2 GiB (not walked).
  func mxfPCMDuration(ofStream index: Int) -> Double? {
    guard formatName == "mxf", streamCount == 1, let source = byteSource,
      source.size <= 1 << 31, let parameters = stream(at: index).pointee.codecpar,
      codecName(parameters.pointee.codec_id).hasPrefix("pcm_"), parameters.pointee.sample_rate > 0
    else { return nil }
    // (FFmpeg's MXF reader may leave the block alignment unset: it is the sample's bytes
    // times the channels.)
    var frameBytes = Int64(parameters.pointee.block_align)
    if frameBytes <= 0 {
      frameBytes =
        Int64(parameters.pointee.bits_per_coded_sample / 8)
        * Int64(parameters.pointee.ch_layout.nb_channels)
    }
    guard frameBytes > 0, let bytes = MXFEssence.soundBytes(source) else { return nil }
    let frames = bytes / frameBytes
    return Double(frames) / Double(parameters.pointee.sample_rate)
  }

  /// The duration in seconds of a streamed AIFF file's PCM (see
  /// ``AIFFChunks/streamedSoundStart(_:fileSize:)``): its bytes from the first sample frame to
  /// the end of the file, in whole frames. FFmpeg 5.1 states the placeholder's hours and
  /// decodes the second the file holds. `nil` for anything else.
  func streamedAIFFDuration(ofStream index: Int) -> Double? {
    guard formatName == "aiff", streamCount == 1, let source = byteSource,
      let start = AIFFChunks.streamedSoundStart(source.head(), fileSize: source.size),
      let parameters = stream(at: index).pointee.codecpar,
      codecName(parameters.pointee.codec_id).hasPrefix("pcm_"),
      parameters.pointee.block_align > 0, parameters.pointee.sample_rate > 0
    else { return nil }
    let frames = (source.size - Int64(start)) / Int64(parameters.pointee.block_align)
    return Double(frames) / Double(parameters.pointee.sample_rate)
  }

  /// The duration in seconds of the only stream of a file whose codec spends the same bytes on
  /// every second (PCM, GSM, ADPCM): the bytes after the header over the stated bit rate.
  /// Exact where the headers state no length (raw GSM, Wave64 without a `fact` chunk, WAVE
  /// written as a stream, whose `data` size is left 0 or 0xFFFFFFFF), unlike FFmpeg's
  /// estimate from the bit rate, which counts the header's bytes too. `nil` for other codecs,
  /// several streams, an input without a size, and WAVE that states its data's size: where
  /// FFmpeg gives no length for it, the file is cut short, and its length stays unknown (as the
  /// WAVE reader has it). `nil` too for containers that wrap their audio in packets (ASF,
  /// AVI, MPEG-PS and -TS, FLV, Matroska, Ogg, MP4, Creative Voice): their bytes after the header are not all
  /// audio (VLC's ASF pads each packet to 4,096 bytes: 1.47 s stated for 1.45 s of PCM).
  func constantRateDuration(ofStream index: Int) -> Double? {
    guard !Self.packetizingFormats.contains(formatName) else { return nil }
    var dataStart = dataOffset
    if formatName == "wav" {
      guard let head = byteSource?.head(), let streamed = WaveHeader.streamedDataOffset(head)
      else { return nil }
      dataStart = Int64(streamed)
    }
    guard streamCount == 1,
      let parameters = stream(at: index).pointee.codecpar,
      parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO, Self.statedBitRate(parameters) > 0,
      let start = dataStart, let size = byteSource?.size, size > start
    else { return nil }
    let name = codecName(parameters.pointee.codec_id)
    let constant =
      name.hasPrefix("pcm_") || name.hasPrefix("adpcm_") || name == "gsm" || name == "gsm_ms"
    guard constant, name != "pcm_dvd", name != "pcm_bluray" else { return nil }
    return Double(size - start) * 8 / Double(Self.statedBitRate(parameters))
  }

  /// A stream's bit rate as its header states it, or for PCM whose header states none (IRCAM,
  /// Ensoniq PARIS, whose demuxers leave it to the stream-information pass) its bits per
  /// sample times its rate and channels; 0 when unknown.
  static func statedBitRate(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> Int64 {
    let stated = parameters.pointee.bit_rate
    guard stated <= 0 else { return stated }
    let bits = Int64(parameters.pointee.bits_per_coded_sample)
    let rate = Int64(parameters.pointee.sample_rate)
    let channels = Int64(parameters.pointee.ch_layout.nb_channels)
    guard bits > 0, rate > 0, channels > 0,
      let name = avcodec_get_name(parameters.pointee.codec_id),
      String(cString: name).hasPrefix("pcm_")
    else { return 0 }
    return bits * rate * channels
  }

  /// Demuxers whose containers carry their audio in packets with headers of their own.
  private static let packetizingFormats: Set<String> = [
    "asf", "avi", "mpeg", "mpegts", "flv", "matroska,webm", "ogg", "mov,mp4,m4a,3gp,3g2,mj2",
    "voc",
  ]

  /// Whether `seconds` of media cannot fit in the file: less than 100 bits per second of it,
  /// for a stated duration over a minute (no audio codec gets by on so little).
  func isImplausible(_ seconds: Double) -> Bool {
    guard seconds > 60, let size = byteSource?.size, size > 0 else { return false }
    return Double(size) * 8 / seconds < 100
  }

  /// `HH:MM:SS.fraction` as seconds, or `nil`.
  static func clockSeconds(_ text: String) -> Double? {
    let parts = text.split(separator: ":")
    guard parts.count == 3, let hours = Double(parts[0]), let minutes = Double(parts[1]),
      let secondsPart = Double(parts[2])
    else { return nil }
    return hours * 3600 + minutes * 60 + secondsPart
  }

  /// The speakers a codec's own specification gives a channel count, for a container that
  /// states no layout (Matroska stores none for FLAC, Vorbis or Opus, and FFmpeg's default for
  /// the count, 2.1 for three channels and 4.0 for four, is not what those decoders give).
  /// FLAC's assignments as FFmpeg's FLAC decoder reads them (five and six channels with side
  /// surrounds); Vorbis's channel mapping, which Opus's mapping family 1 shares (back
  /// surrounds); AAC's channel configuration (3.0, 4.0, 5.0, 5.1, 7.1 wide) from its
  /// `AudioSpecificConfig`; `nil` for other codecs, counts of one or two, other Opus mapping
  /// families and AAC with a program configuration element.
  static func codecLayout(_ parameters: UnsafePointer<AVCodecParameters>) -> UInt64? {
    let channels = Int(parameters.pointee.ch_layout.nb_channels)
    guard (3...8).contains(channels) else { return nil }
    let flac: [UInt64] = [0x7, 0x33, 0x607, 0x60F, 0x70F, 0x63F]
    switch parameters.pointee.codec_id {
    case AV_CODEC_ID_AAC:
      // 5 bits of object type, 4 of sampling-frequency index, 4 of channel configuration.
      guard let config = parameters.pointee.extradata, parameters.pointee.extradata_size >= 2,
        config[0] >> 3 != 31, (config[0] & 7) << 1 | config[1] >> 7 != 15
      else { return nil }
      let masks: [Int: UInt64] = [3: 0x7, 4: 0x107, 5: 0x37, 6: 0x3F, 7: 0xFF]
      guard let mask = masks[Int(config[1] >> 3 & 0xF)], mask.nonzeroBitCount == channels
      else { return nil }
      return mask
    case AV_CODEC_ID_FLAC: return flac[channels - 3]
    case AV_CODEC_ID_VORBIS: return ChannelLayout.vorbisMask(channels: channels)
    case AV_CODEC_ID_OPUS:
      // The mapping family is byte 18 of the `OpusHead` header, which is the extradata.
      guard let header = parameters.pointee.extradata, parameters.pointee.extradata_size > 18,
        header[18] == 1
      else { return nil }
      return ChannelLayout.vorbisMask(channels: channels)
    default: return nil
    }
  }

  /// The facts of subtitle stream `index` (kind and label not yet set), with what the
  /// container declares for it.
  func subtitleTrack(at index: Int, declared: DeclaredStream? = nil) -> SubtitleTrack {
    let stream = stream(at: index)
    let raw = metadata(stream, "language")
    let ffmpeg = codecName(stream.pointee.codecpar.pointee.codec_id)
    var track = SubtitleTrack(
      index: index, codec: ffmpeg,
      language: LanguageTag.bcp47(raw), languageTag: raw, title: metadata(stream, "title"),
      dispositions: dispositionNames(stream.pointee.disposition),
      ffmpegCodec: ffmpeg.isEmpty ? nil : ffmpeg,
      codecTag: declared?.tag ?? Self.tagText(stream.pointee.codecpar.pointee.codec_tag))
    // FFmpeg's name where it has one (it read the stream), else the declaration's.
    if ffmpeg.isEmpty, let codec = declared?.codec { track.codec = codec }
    if let stated = declared?.language.flatMap(LanguageTag.bcp47) { track.language = stated }
    track.isEnabled = declared?.enabled ?? true
    // Matroska's D_WEBVTT/CAPTIONS (and DESCRIPTIONS, METADATA) state the kind, as FFmpeg's
    // disposition of that name would (the kinds are classified from dispositions).
    if let kind = declared?.subtitleKind, kind != .subtitles,
      !track.dispositions.contains(kind.rawValue)
    {
      track.dispositions.append(kind.rawValue)
    }
    return track
  }

  func metadata(_ stream: UnsafeMutablePointer<AVStream>, _ key: String) -> String? {
    guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0),
      let value = entry.pointee.value
    else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
  }

  private func codecName(_ id: AVCodecID) -> String {
    guard id != AV_CODEC_ID_NONE, let name = avcodec_get_name(id) else { return "" }
    return String(cString: name)
  }

  /// FFmpeg's profile name; for AAC without one, the object type from the AudioSpecificConfig.
  private func profileName(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> String? {
    let id = parameters.pointee.codec_id
    if parameters.pointee.profile >= 0,
      let name = avcodec_profile_name(id, parameters.pointee.profile)
    {
      return String(cString: name)
    }
    guard id == AV_CODEC_ID_AAC, parameters.pointee.extradata_size >= 2,
      let extradata = parameters.pointee.extradata
    else { return nil }
    // ISO/IEC 14496-3 AudioSpecificConfig: the first 5 bits are the audio object type.
    switch extradata[0] >> 3 {
    case 1: return "Main"
    case 2: return "LC"
    case 3: return "SSR"
    case 4: return "LTP"
    case 5: return "HE-AAC"
    case 29: return "HE-AACv2"
    case 23: return "LD"
    case 39: return "ELD"
    default: return nil
    }
  }

  /// FFmpeg's names for the set disposition bits, lowest bit first.
  private func dispositionNames(_ disposition: Int32) -> [String] {
    var names: [String] = []
    var bits = UInt32(bitPattern: disposition)
    while bits != 0 {
      let bit = bits & (~bits &+ 1)
      bits &= ~bit
      if let name = av_disposition_to_string(Int32(bitPattern: bit)) {
        names.append(String(cString: name))
      }
    }
    return names
  }
}
