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
  /// The text as UTF-8, lines separated by `\n`. Subrip and WebVTT markup (`<i>`, `<c.x>`) is
  /// kept as the file has it; ASS override blocks (`{\i1}`) are removed.
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

  /// Reads all cues of the stream, sorted by start time (stable).
  ///
  /// A packet without a duration ends where the next one starts (or at its own start when it is
  /// the last). Packets with no text (MP4 uses them for gaps) are left out. WebVTT cue
  /// identifiers and settings (packet side data) and `mov_text` styles are not kept
  /// (``readWithMarkup()`` and ``document()`` keep the styles' bold, italic, underline and
  /// colour).
  ///
  /// - Returns: the cues, in seconds on the file's timeline.
  /// - Throws: `MediaError` with kind `.notFound` for a missing file, `.malformed` for data that
  ///   cannot be demuxed, `.noSuchStream` when `streamIndex` is not a subtitle stream or is a
  ///   bitmap subtitle stream (PGS, DVD, DVB): those have no text to read; `.invalidArgument`
  ///   for a timeout that is not a positive number, and kind `.other` with
  ///   ``MediaError/isTimeout`` when a call took longer than the timeout.
  /// - Complexity: O(*n*) in the size of the file (the demuxer reads all of it).
  public func read() throws(MediaError) -> [TimedText] {
    try read(keepingMarkup: false).cues
  }

  /// The syntax the texts of ``readWithMarkup()`` are written in: the raw value of
  /// SubtitleParser's `SubtitleFormat` that reads them (`SubtitleDocument(format:timedTexts:)`
  /// takes it: `SubtitleFormat(rawValue: markup)`).
  public enum Markup: String, Hashable, Sendable {
    /// SubRip markup (`<i>`, `<b>`, `<u>`, `<font>`): SRT streams, `mov_text` (its text, its
    /// `styl` boxes' bold, italic, underline and colour runs as `<b>`, `<i>`, `<u>`,
    /// `<font color>`) and plain text.
    case subRip = "srt"
    /// WebVTT cue text: WebVTT streams.
    case webVTT = "vtt"
    /// SSA/ASS dialogue text with its override blocks (`{\i1}`, `{\an8}`) and `\N`: ASS and SSA
    /// streams (the style table in the codec's private data is not applied here; ``document()``
    /// applies it).
    case ass
  }

  /// Reads all cues of the stream as ``read()`` does, but keeps each text's markup as the
  /// stream writes it (an ASS event's override blocks included) and says which syntax that
  /// is, so a subtitle parser can read it as it reads a file of that syntax:
  ///
  /// ```swift
  /// let (markup, cues) = try SubtitleStreamReader(path: "movie.mkv", streamIndex: 3)
  ///   .readWithMarkup()
  /// let document = SubtitleDocument(
  ///   format: SubtitleFormat(rawValue: markup.rawValue) ?? .srt,
  ///   timedTexts: cues.map { ($0.startTime, $0.endTime, $0.text) })
  /// ```
  ///
  /// - Throws: As ``read()``.
  public func readWithMarkup() throws(MediaError) -> (markup: Markup, cues: [TimedText]) {
    try read(keepingMarkup: true)
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
  /// - The others: `SubtitleDocument(format:timedTexts:)` of ``readWithMarkup()``'s texts;
  ///   for `mov_text`, what reading its `styl` boxes repaired or skipped (a box that does not
  ///   fit, a run past the text) is in `diagnostics`.
  ///
  /// - Returns: The document, times in seconds on the file's timeline.
  /// - Throws: As ``read()``; `.malformed` also for an MP4 sample that cannot be read (its
  ///   boxes do not fit, or it is not a TTML document), naming the sample.
  /// - Complexity: O(*n*) in the size of the file.
  public func document() throws(MediaError) -> SubtitleDocument {
    let (facts, packets) = try packets()
    if let document = try Self.sampleDocument(facts, packets, path: path) { return document }
    if facts.codec == "ass" || facts.codec == "ssa" {
      return SubStationAlpha.document(
        blocks: Self.blocks(packets, codec: facts.codec), header: facts.configuration)
    }
    let texts = Self.cues(
      packets, codec: facts.codec, keepingMarkup: true, configuration: facts.configuration
    ).map {
      (startTime: $0.startTime, endTime: $0.endTime, text: $0.text)
    }
    if facts.codec == "subrip" {
      // Each block is an SRT cue's text: read as a file's (`{\an8}`, override blocks).
      return SubRip.document(timedTexts: texts)
    }
    var document = SubtitleDocument(
      format: facts.codec == "webvtt" ? .webVTT : .srt, timedTexts: texts)
    if facts.codec == "mov_text" {
      document.diagnostics = Self.movTextDiagnostics(packets, configuration: facts.configuration)
    }
    return document
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
    if facts.sampleEntry == nil, facts.codec == "webvtt",
      packets.contains(where: { !$0.identifier.isEmpty || !$0.settings.isEmpty })
    {
      return try blockDocument(facts, packets, path: path)
    }
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
  /// block's text with the identifier and settings stored beside it, under the track's header,
  /// each cue ending as ``cues(_:codec:keepingMarkup:)`` ends it.
  private static func blockDocument(
    _ facts: SubtitleStreamFacts, _ packets: [SubtitlePacket], path: String
  ) throws(MediaError) -> SubtitleDocument {
    let order = packets.indices.sorted { (packets[$0].start, $0) < (packets[$1].start, $1) }
    var cues: [(start: Double, end: Double, cue: MP4WebVTT.SampleCue)] = []
    cues.reserveCapacity(order.count)
    for (position, i) in order.enumerated() {
      let packet = packets[i]
      let text = Self.text(of: packet.payload, codec: facts.codec, keepingMarkup: true)
      guard !text.isEmpty else { continue }
      var end = packet.start
      if let duration = packet.duration {
        end = packet.start + duration
      } else if position + 1 < order.count {
        end = max(packet.start, packets[order[position + 1]].start)
      }
      let cue = MP4WebVTT.SampleCue(
        identifier: packet.identifier, settings: packet.settings, text: text)
      cues.append((packet.start, end, cue))
    }
    do {
      return try MP4WebVTT.document(cues: cues, header: facts.configuration)
    } catch {
      throw MediaError(
        kind: .malformed, operation: "SubtitleStreamReader",
        detail: "cannot read the webvtt subtitles of '\(path)': \(error.description)")
    }
  }

  private func read(keepingMarkup: Bool) throws(MediaError) -> (
    markup: Markup, cues: [TimedText]
  ) {
    let (facts, packets) = try packets()
    if let document = try Self.sampleDocument(facts, packets, path: path) {
      // WebVTT cue text (TTML's cues are kept as such), times as the samples give them.
      let cues = document.cues.map {
        TimedText(startTime: $0.startTime, endTime: $0.endTime, text: document.text(of: $0))
      }
      return (keepingMarkup ? .webVTT : .subRip, cues.filter { !$0.text.isEmpty })
    }
    let codec = facts.codec
    let markup: Markup =
      codec == "webvtt" ? .webVTT : codec == "ass" || codec == "ssa" ? .ass : .subRip
    return (
      keepingMarkup ? markup : .subRip,
      Self.cues(
        packets, codec: codec, keepingMarkup: keepingMarkup, configuration: facts.configuration)
    )
  }

  /// The packets of an ASS or SSA stream as whole blocks, sorted by start (stable), each
  /// ending as ``cues(_:codec:keepingMarkup:)`` ends it; blocks whose text is empty left out.
  private static func blocks(_ packets: [SubtitlePacket], codec: String) -> [(
    startTime: Double, endTime: Double, bytes: ArraySlice<UInt8>
  )] {
    var blocks: [(startTime: Double, endTime: Double, bytes: ArraySlice<UInt8>)] = []
    blocks.reserveCapacity(packets.count)
    let order = packets.indices.sorted { (packets[$0].start, $0) < (packets[$1].start, $1) }
    for (position, i) in order.enumerated() {
      let packet = packets[i]
      guard !Self.text(of: packet.payload, codec: codec, keepingMarkup: true).isEmpty else {
        continue
      }
      var end = packet.start
      if let duration = packet.duration {
        end = packet.start + duration
      } else if position + 1 < order.count {
        end = max(packet.start, packets[order[position + 1]].start)
      }
      blocks.append((packet.start, end, packet.payload[...]))
    }
    return blocks
  }

  /// The packets' texts as cues, sorted by start (stable); empty texts left out.
  /// `configuration` is the stream's private data (a `mov_text` track's default colour).
  private static func cues(
    _ packets: [SubtitlePacket], codec: String, keepingMarkup: Bool, configuration: [UInt8] = []
  ) -> [TimedText] {
    let colour = codec == "mov_text" ? MovTextSample.defaultColour(configuration) : nil
    var cues: [TimedText] = []
    cues.reserveCapacity(packets.count)
    let order = packets.indices.sorted { (packets[$0].start, $0) < (packets[$1].start, $1) }
    for (position, i) in order.enumerated() {
      let packet = packets[i]
      let text = Self.text(
        of: packet.payload, codec: codec, keepingMarkup: keepingMarkup, movTextColour: colour)
      guard !text.isEmpty else { continue }
      var end = packet.start
      if let duration = packet.duration {
        end = packet.start + duration
      } else if position + 1 < order.count {
        end = max(packet.start, packets[order[position + 1]].start)
      }
      cues.append(TimedText(startTime: packet.start, endTime: end, text: text))
    }
    return cues
  }

  /// The text of one packet payload for `codec`; an ASS event's text with its override blocks
  /// when `keepingMarkup`, else without them (`\N` and `\n` as line breaks); a `mov_text`
  /// sample's text with its `styl` runs as SubRip markup when `keepingMarkup`, colours
  /// compared with `movTextColour` (the track's default, RGBA; `nil`: opaque white).
  static func text(
    of payload: [UInt8], codec: String, keepingMarkup: Bool = false, movTextColour: UInt32? = nil
  ) -> String {
    var bytes = payload[...]
    switch codec {
    case "mov_text":
      // A 16-bit big-endian text length, the text, then style boxes: with the markup, the
      // `styl` runs become `<b>`, `<i>`, `<u>` and `<font color>`.
      if keepingMarkup {
        var notes: [String] = []
        let text = MovTextSample.markedUpText(
          bytes, defaultColour: movTextColour ?? 0xFFFF_FFFF, notes: &notes)
        return String(decoding: text, as: UTF8.self).replacing("\r\n", with: "\n")
      }
      guard bytes.count >= 2 else { return "" }
      let length = Int(bytes[bytes.startIndex]) << 8 | Int(bytes[bytes.startIndex + 1])
      let start = bytes.startIndex + 2
      bytes = bytes[start..<min(bytes.endIndex, start + length)]
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
      if !keepingMarkup { return Self.plainASS(bytes) }
    default:
      break
    }
    while let last = bytes.last, last == 0 || last == 0x0A || last == 0x0D || last == 0x20 {
      bytes = bytes.dropLast()
    }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.replacing("\r\n", with: "\n")
  }

  /// ASS dialogue text without override blocks, with `\N` and `\n` as line breaks.
  private static func plainASS(_ bytes: ArraySlice<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var inBlock = false
    var j = bytes.startIndex
    while j < bytes.endIndex {
      let b = bytes[j]
      if inBlock {
        if b == UInt8(ascii: "}") { inBlock = false }
      } else if b == UInt8(ascii: "{") {
        inBlock = true
      } else if b == UInt8(ascii: "\\"), j + 1 < bytes.endIndex,
        bytes[j + 1] == UInt8(ascii: "N") || bytes[j + 1] == UInt8(ascii: "n")
      {
        out.append(0x0A)
        j += 1
      } else {
        out.append(b)
      }
      j += 1
    }
    while let last = out.last, last == 0 || last == 0x0A || last == 0x0D || last == 0x20 {
      out.removeLast()
    }
    return String(decoding: out, as: UTF8.self)
  }
}
