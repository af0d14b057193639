import SubtitleParser

/// One timed piece of subtitle text read from a media file.
///
/// Its times are named as a ``SubtitleParser`` cue's are (`startTime`, `endTime`); encoded, they
/// keep the keys `start` and `end` they always had, so stored values still load.
public struct TimedText: Hashable, Sendable, Codable {
  /// When the text appears, in seconds on the file's timeline.
  public var startTime: Double
  /// When the text disappears, in seconds on the file's timeline (not before `startTime`).
  public var endTime: Double
  /// The text as UTF-8, lines separated by `\n`. From ``SubtitleStreamReader/read()``: SubRip
  /// and WebVTT markup (`<i>`, `<c.x>`) is kept as the stream writes it, SRT override blocks
  /// (`{\an8}`) are removed, and ASS and SSA events and `mov_text` samples are plain text
  /// (their override blocks, styles and `styl` boxes left out).
  public var text: String

  /// Creates a timed text.
  /// - Parameters:
  ///   - startTime: When the text appears, in seconds.
  ///   - endTime: When the text disappears, in seconds.
  ///   - text: The text, lines separated by `\n`.
  public init(startTime: Double, endTime: Double, text: String) {
    self.startTime = startTime
    self.endTime = endTime
    self.text = text
  }

  /// Creates a timed text; `start` and `end` are in seconds.
  @available(*, deprecated, renamed: "init(startTime:endTime:text:)")
  public init(start: Double, end: Double, text: String) {
    self.init(startTime: start, endTime: end, text: text)
  }

  /// When the text appears, in seconds on the file's timeline.
  @available(*, deprecated, renamed: "startTime")
  public var start: Double {
    get { startTime }
    set { startTime = newValue }
  }

  /// When the text disappears, in seconds on the file's timeline.
  @available(*, deprecated, renamed: "endTime")
  public var end: Double {
    get { endTime }
    set { endTime = newValue }
  }

  private enum CodingKeys: String, CodingKey {
    case startTime = "start"
    case endTime = "end"
    case text
  }
}

/// Reads the cues of a text subtitle stream inside a media file (Matroska SRT, ASS or WebVTT,
/// `D_WEBVTT` as WebM writes it or mkvmerge's `S_TEXT/WEBVTT`, MP4 `mov_text`, WebM WebVTT, and WebVTT (`wvtt`) and TTML (`stpp`) in MP4, fragmented or
/// not, ISO/IEC 14496-30).
///
/// The reader is a plain value: ``read()`` opens the file, reads every packet of the stream and
/// closes the file again before returning, so nothing stays open between calls.
///
/// ```swift
/// let cues = try SubtitleStreamReader(path: "movie.mkv", streamIndex: 3).read()
/// ```
public struct SubtitleStreamReader: Hashable, Sendable {
  /// The codecs whose packets carry text: FFmpeg's codec names.
  public static let textCodecs: Set<String> = [
    "subrip", "webvtt", "mov_text", "ass", "ssa", "text", "ttml",
  ]

  /// The media file (or any URL FFmpeg can open).
  public var path: String
  /// The container stream index of the subtitle track (``SubtitleTrack/index``).
  public var streamIndex: Int
  /// The longest one reading call may take, in seconds: opening the file or reading one
  /// packet (`nil`: ``MediaProbe/defaultTimeout``; `.infinity`: no limit).
  public var timeout: Double?

  /// Creates a reader; nothing is opened until ``read()``.
  /// - Parameters:
  ///   - path: the media file.
  ///   - streamIndex: the container stream index of a subtitle track.
  ///   - timeout: the longest one reading call may take, in seconds (`nil`: the default).
  public init(path: String, streamIndex: Int, timeout: Double? = nil) {
    self.path = path
    self.streamIndex = streamIndex
    self.timeout = timeout
  }

  /// Reads all cues of the stream, sorted by start time (stable): the cues of ``document()``,
  /// at its times, each with its text as ``TimedText/text`` describes it.
  ///
  /// A packet without a duration ends where the next one starts (or at its own start when it is
  /// the last). Packets with no text (MP4 uses them for gaps), and cues whose text is empty
  /// once its markup is left out (an ASS event of override blocks alone), are left out.
  /// WebVTT cue identifiers and settings, positions (`{\an8}` in SRT, `\an` and `\pos` in
  /// ASS) and `mov_text` styles are not kept (``readWithMarkup()`` keeps the markup written in
  /// the text, ``document()`` all of it).
  ///
  /// - Returns: the cues, in seconds on the file's timeline.
  /// - Throws: `MediaError` with kind `.notFound` for a missing file, `.malformed` for data that
  ///   cannot be demuxed, `.noSuchStream` when `streamIndex` is not a subtitle stream or is a
  ///   bitmap subtitle stream (PGS, DVD, DVB): those have no text to read; `.invalidArgument`
  ///   for a timeout that is not a positive number, and kind `.other` with
  ///   ``MediaError/isTimeout`` when a call took longer than the timeout.
  /// - Complexity: O(*n*) in the size of the file (the demuxer reads all of it).
  public func read() throws(MediaError) -> [TimedText] {
    let (facts, packets) = try packets()
    let document = try Self.document(facts, packets, path: path)
    // ASS override blocks and styles, and `mov_text` styles, are not markup of the stream's
    // text as SubRip and WebVTT tags are: the text without them.
    let plain = ["ass", "ssa", "mov_text"].contains(facts.codec)
    return Self.timedTexts(of: document) {
      plain ? document.plainText(of: $0) : document.text(of: $0)
    }
  }

  /// The syntax the texts of ``readWithMarkup()`` are written in: the raw value of
  /// SubtitleParser's `SubtitleFormat` that reads them (`SubtitleDocument(format:timedTexts:)`
  /// takes it: `SubtitleFormat(rawValue: markup)`).
  public enum Markup: String, Hashable, Sendable {
    /// SubRip markup (`<i>`, `<b>`, `<u>`, `<font>`): SRT streams (override blocks such as
    /// `{\an8}` removed, as from an `.srt` file's cue text), `mov_text` (its text, its `styl`
    /// boxes' bold, italic, underline and colour runs as `<b>`, `<i>`, `<u>`,
    /// `<font color>`) and plain text.
    case subRip = "srt"
    /// WebVTT cue text: WebVTT streams, and TTML in MP4 (its cues' text as ``document()``
    /// stores it).
    case webVTT = "vtt"
    /// SSA/ASS cue text as `SubStationAlpha` stores a script event's: its override blocks
    /// (`{\i1}`, `{\an8}`) kept, `\N` as a line feed (`\n` too under `WrapStyle: 2`), and a
    /// leading block with the look of the event's style when it is not the default (the style
    /// table of the codec's private data is applied, as ``document()`` applies it).
    case ass
  }

  /// Reads all cues of the stream as ``read()`` does, but keeps the markup of each text, as
  /// ``document()`` stores it, and says which syntax that is, so a subtitle parser can read it
  /// as it reads a file of that syntax:
  ///
  /// ```swift
  /// let (markup, cues) = try SubtitleStreamReader(path: "movie.mkv", streamIndex: 3)
  ///   .readWithMarkup()
  /// let document = SubtitleDocument(
  ///   format: SubtitleFormat(rawValue: markup.rawValue) ?? .srt,
  ///   timedTexts: cues.map { ($0.startTime, $0.endTime, $0.text) })
  /// ```
  ///
  /// The texts and times are those of ``document()``'s cues (cues with no text left out);
  /// cue identifiers, settings and positions are only in ``document()``.
  ///
  /// - Throws: As ``read()``.
  public func readWithMarkup() throws(MediaError) -> (markup: Markup, cues: [TimedText]) {
    let (facts, packets) = try packets()
    let document = try Self.document(facts, packets, path: path)
    let markup: Markup =
      switch document.format {
      case .ass: .ass
      case .webVTT, .ttml: .webVTT
      case .srt: .subRip
      }
    return (markup, Self.timedTexts(of: document) { document.text(of: $0) })
  }

  /// Reads the stream onto the format-neutral model, as a parsed file of its syntax would be:
  /// `CueTimeline(cues:)`, `cueTree(of:)` and the writers take it.
  ///
  /// - WebVTT (`wvtt`) and TTML (`stpp`) in MP4: the samples are read by
  ///   `MP4WebVTT.document(samples:configuration:)` (cue identifiers, settings, the `vttC`
  ///   header's regions and styles) and `TTML.document(samples:)` (positions, styles); the
  ///   last sample, when the file states no duration for it, ends where the track ends.
  /// - ASS and SSA: `SubStationAlpha.document(blocks:header:)`: the script header the
  ///   stream's private data holds (`PlayResX`/`PlayResY`, `WrapStyle`, the styles) and each
  ///   block's `Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`, read as one script
  ///   (styles' bold, italic, colour and alignment, override blocks, `\N`, `\an`, `\pos`).
  /// - SRT (`subrip`): `SubRip.document(timedTexts:)`, each block's text read as an `.srt`
  ///   file's cue text is (`{\an8}` a position, other override blocks removed).
  /// - WebVTT in Matroska: `MP4WebVTT.document(cues:header:)` when a block has an identifier
  ///   or settings beside it, else `SubtitleDocument(format: .webVTT, timedTexts:)`.
  /// - The others (`mov_text`, plain text): `SubtitleDocument(format: .srt, timedTexts:)`;
  ///   for `mov_text` (its `styl` boxes as SubRip markup), what reading those boxes repaired
  ///   or skipped (a box that does not fit, a run past the text) is in `diagnostics`.
  ///
  /// Packets are taken in start order (stable); one without a duration ends where the next
  /// one starts (at its own start when it is the last); packets with no text are left out.
  ///
  /// - Returns: The document, times in seconds on the file's timeline.
  /// - Throws: As ``read()``; `.malformed` also for an MP4 sample that cannot be read (its
  ///   boxes do not fit, or it is not a TTML document), naming the sample.
  /// - Complexity: O(*n*) in the size of the file.
  public func document() throws(MediaError) -> SubtitleDocument {
    let (facts, packets) = try packets()
    return try Self.document(facts, packets, path: path)
  }

  /// The document of a stream whose facts and packets are read (see ``document()``).
  private static func document(
    _ facts: SubtitleStreamFacts, _ packets: [SubtitlePacket], path: String
  ) throws(MediaError) -> SubtitleDocument {
    if let document = try sampleDocument(facts, packets, path: path) { return document }
    let cues = timedPackets(packets, codec: facts.codec, configuration: facts.configuration)
    let texts = cues.map { (startTime: $0.startTime, endTime: $0.endTime, text: $0.text) }
    switch facts.codec {
    case "ass", "ssa":
      return SubStationAlpha.document(
        blocks: cues.map { ($0.startTime, $0.endTime, packets[$0.packet].payload[...]) },
        header: facts.configuration)
    case "subrip":
      // Each block is an SRT cue's text: read as a file's (`{\an8}`, override blocks).
      return SubRip.document(timedTexts: texts)
    case "webvtt":
      if packets.contains(where: { !$0.identifier.isEmpty || !$0.settings.isEmpty }) {
        return try blockDocument(cues, packets, header: facts.configuration, path: path)
      }
      return SubtitleDocument(format: .webVTT, timedTexts: texts)
    case "mov_text":
      var document = SubtitleDocument(format: .srt, timedTexts: texts)
      document.diagnostics = movTextDiagnostics(packets, configuration: facts.configuration)
      return document
    default:
      return SubtitleDocument(format: .srt, timedTexts: texts)
    }
  }

  /// `document`'s cues as timed texts, each cue's text given by `text`; cues whose text is
  /// empty left out.
  private static func timedTexts(
    of document: SubtitleDocument, text: (Cue) -> String
  ) -> [TimedText] {
    var cues: [TimedText] = []
    cues.reserveCapacity(document.cues.count)
    for cue in document.cues {
      let text = text(cue)
      guard !text.isEmpty else { continue }
      cues.append(TimedText(startTime: cue.startTime, endTime: cue.endTime, text: text))
    }
    return cues
  }

  /// What reading the `styl` boxes of a `mov_text` stream's samples repaired or skipped, one
  /// diagnostic per repair naming its sample's start time (line 0: no source line).
  private static func movTextDiagnostics(
    _ packets: [SubtitlePacket], configuration: [UInt8]
  ) -> [Diagnostic] {
    let colour = MovTextSample.defaultColour(configuration) ?? 0xFFFF_FFFF
    var diagnostics: [Diagnostic] = []
    for packet in packets {
      var notes: [String] = []
      _ = MovTextSample.markedUpText(packet.payload[...], defaultColour: colour, notes: &notes)
      for note in notes {
        diagnostics.append(
          Diagnostic(line: 0, offset: 0, reason: "mov_text sample at \(packet.start) s: \(note)"))
      }
    }
    return diagnostics
  }

  /// The stream's facts and packets, once its codec is known to carry text.
  private func packets() throws(MediaError) -> (SubtitleStreamFacts, [SubtitlePacket]) {
    let path = path
    let index = streamIndex
    return try SubtitlePackets.read(path: path, streamIndex: index, timeout: timeout) {
      (codec) throws(MediaError) in
      guard Self.textCodecs.contains(codec) else {
        throw MediaError(
          kind: .noSuchStream, operation: "SubtitleStreamReader",
          detail:
            "subtitle stream \(index) of '\(path)' is '\(codec)', a bitmap or unknown codec: "
            + "only text subtitles can be read")
      }
    }
  }

  /// The document of an MP4 `wvtt` or `stpp` track (or of any TTML stream), or `nil` for a
  /// stream whose packets are texts.
  private static func sampleDocument(
    _ facts: SubtitleStreamFacts, _ packets: [SubtitlePacket], path: String
  ) throws(MediaError) -> SubtitleDocument? {
    guard facts.sampleEntry != nil || facts.codec == "ttml" else { return nil }
    let order = packets.indices.sorted { (packets[$0].start, $0) < (packets[$1].start, $1) }
    var samples = order.map {
      SubtitleSample(
        startTime: packets[$0].start, duration: packets[$0].duration, bytes: packets[$0].payload)
    }
    if let last = samples.indices.last, samples[last].duration == nil, let end = facts.end,
      end > samples[last].startTime
    {
      samples[last].duration = end - samples[last].startTime
    }
    do {
      return facts.codec == "webvtt"
        ? try MP4WebVTT.document(samples: samples, configuration: facts.configuration)
        : try TTML.document(samples: samples)
    } catch {
      throw MediaError(
        kind: .malformed, operation: "SubtitleStreamReader",
        detail: "cannot read the \(facts.codec) subtitles of '\(path)': \(error.description)")
    }
  }

  /// The document of a Matroska WebVTT track whose cues have identifiers or settings: each
  /// cue's text with the identifier and settings its packet stores beside it, under the
  /// track's `header`.
  private static func blockDocument(
    _ timed: [TimedPacket], _ packets: [SubtitlePacket], header: [UInt8], path: String
  ) throws(MediaError) -> SubtitleDocument {
    let cues = timed.map {
      let packet = packets[$0.packet]
      return (
        start: $0.startTime, end: $0.endTime,
        cue: MP4WebVTT.SampleCue(
          identifier: packet.identifier, settings: packet.settings, text: $0.text)
      )
    }
    do {
      return try MP4WebVTT.document(cues: cues, header: header)
    } catch {
      throw MediaError(
        kind: .malformed, operation: "SubtitleStreamReader",
        detail: "cannot read the webvtt subtitles of '\(path)': \(error.description)")
    }
  }

  /// One packet that carries text, with the times of its cue.
  private struct TimedPacket {
    /// The packet's index in the stream's packets.
    var packet: Int
    /// When the cue starts, in seconds.
    var startTime: Double
    /// When the cue ends, in seconds (not before `startTime`).
    var endTime: Double
    /// The packet's text (``text(of:codec:movTextColour:)``), never empty.
    var text: String
  }

  /// The packets whose text is not empty, sorted by start (stable), each with its times: a
  /// packet ends at its start plus its duration, or, when the container states none, where the
  /// next packet starts (at its own start when it is the last, or when the next starts no
  /// later). `configuration` is the stream's private data (a `mov_text` track's default
  /// colour).
  private static func timedPackets(
    _ packets: [SubtitlePacket], codec: String, configuration: [UInt8]
  ) -> [TimedPacket] {
    let colour = codec == "mov_text" ? MovTextSample.defaultColour(configuration) : nil
    var timed: [TimedPacket] = []
    timed.reserveCapacity(packets.count)
    let order = packets.indices.sorted { (packets[$0].start, $0) < (packets[$1].start, $1) }
    for (position, i) in order.enumerated() {
      let packet = packets[i]
      let text = Self.text(of: packet.payload, codec: codec, movTextColour: colour)
      guard !text.isEmpty else { continue }
      var end = packet.start
      if let duration = packet.duration {
        end = packet.start + duration
      } else if position + 1 < order.count {
        end = max(packet.start, packets[order[position + 1]].start)
      }
      timed.append(TimedPacket(packet: i, startTime: packet.start, endTime: end, text: text))
    }
    return timed
  }

  /// The text of one packet payload for `codec`, markup as the stream writes it: an ASS
  /// event's `Text` field (override blocks and `\N` as stored), a `mov_text` sample's text
  /// with its `styl` runs as SubRip markup, colours compared with `movTextColour` (the track's
  /// default, RGBA; `nil`: opaque white); trailing NUL, line feed, carriage return and space
  /// bytes left out, CRLF as LF.
  static func text(of payload: [UInt8], codec: String, movTextColour: UInt32? = nil) -> String {
    var bytes = payload[...]
    switch codec {
    case "mov_text":
      // A 16-bit big-endian text length, the text, then style boxes: the `styl` runs become
      // `<b>`, `<i>`, `<u>` and `<font color>`.
      var notes: [String] = []
      let text = MovTextSample.markedUpText(
        bytes, defaultColour: movTextColour ?? 0xFFFF_FFFF, notes: &notes)
      return String(decoding: text, as: UTF8.self).replacing("\r\n", with: "\n")
    case "ass", "ssa":
      // Matroska: ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text.
      var commas = 0
      var cut = bytes.startIndex
      for j in bytes.indices where bytes[j] == UInt8(ascii: ",") {
        commas += 1
        if commas == 8 {
          cut = j + 1
          break
        }
      }
      if commas == 8 { bytes = bytes[cut...] }
    default:
      break
    }
    while let last = bytes.last, last == 0 || last == 0x0A || last == 0x0D || last == 0x20 {
      bytes = bytes.dropLast()
    }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.replacing("\r\n", with: "\n")
  }
}
