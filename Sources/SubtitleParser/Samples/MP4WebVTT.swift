/// WebVTT carried in an ISO base media file: `wvtt` sample entries (ISO/IEC 14496-30, 7).
///
/// The track carries no timing text. Each sample is a sequence of boxes: a `vttc` box for each
/// cue active during the whole sample, holding its text (`payl`), settings (`sttg`),
/// identifier (`iden`), source identifier (`vsid`) and current time (`ctim`), or one empty
/// `vtte` box when no cue is active; `vtta` boxes carry comments. The sample's start and
/// duration are the cues' times there, and a cue active over several samples is repeated in
/// each. The sample entry's `vttC` box holds the WebVTT file header (signature, `STYLE` and
/// `REGION` blocks).
public enum MP4WebVTT {
  /// One cue as a sample carries it (a `vttc` box).
  public struct SampleCue: Hashable, Sendable {
    /// The cue identifier (`iden`; empty when absent).
    public var identifier: String
    /// The WebVTT cue settings as written after a timing line (`sttg`; empty when absent).
    public var settings: String
    /// The cue text, WebVTT cue text (`payl`; empty when absent).
    public var text: String
    /// The source identifier (`vsid`), which is the same in every sample that repeats a cue
    /// (`nil` when absent).
    public var sourceID: UInt32?

    /// Creates a sample cue.
    public init(
      identifier: String = "", settings: String = "", text: String, sourceID: UInt32? = nil
    ) {
      self.identifier = identifier
      self.settings = settings
      self.text = text
      self.sourceID = sourceID
    }
  }

  /// The cues one sample carries.
  ///
  /// A `vtte` box (no cue active) adds none, and so does an empty sample; boxes of other types
  /// (`vtta` comments, and those a later edition may add) are skipped, as ISO base media files
  /// require of a reader.
  ///
  /// - Parameter bytes: The sample's bytes.
  /// - Returns: The cues, in sample order.
  /// - Throws: `SubtitleError.badSample` (sample 0) when a box's size is smaller than its header
  ///   or runs past the end of the sample or of the box it is in.
  /// - Complexity: O(*n*) in the sample's size.
  public static func cues(inSample bytes: [UInt8]) throws(SubtitleError) -> [SampleCue] {
    try cues(inSample: bytes, index: 0)
  }

  /// `cues(inSample:)`, with the sample's index for errors.
  static func cues(inSample bytes: [UInt8], index: Int) throws(SubtitleError) -> [SampleCue] {
    var cues: [SampleCue] = []
    var reader = BoxReader(bytes: bytes, range: 0..<bytes.count, sample: index)
    while let box = try reader.next() {
      guard box.type == "vttc" else { continue }
      var cue = SampleCue(text: "")
      var inner = BoxReader(bytes: bytes, range: box.body, sample: index)
      while let child = try inner.next() {
        switch child.type {
        case "payl": cue.text = text(bytes[child.body])
        case "sttg": cue.settings = text(bytes[child.body])
        case "iden": cue.identifier = text(bytes[child.body])
        case "vsid":
          guard child.body.count >= 4 else {
            throw SubtitleError.badSample(
              index: index, offset: child.body.lowerBound,
              reason: "a vsid box holds \(child.body.count) bytes, not 4")
          }
          let at = child.body.lowerBound
          cue.sourceID =
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
            | UInt32(bytes[at + 3])
        default: continue
        }
      }
      cues.append(cue)
    }
    return cues
  }

  /// The text of a box body: UTF-8 (invalid sequences become U+FFFD), CRLF and CR as LF,
  /// trailing NULs dropped.
  private static func text(_ bytes: ArraySlice<UInt8>) -> String {
    var body = bytes
    while body.last == 0 { body = body.dropLast() }
    let string = String(decoding: body, as: UTF8.self)
    guard body.contains(0x0D) else { return string }
    return string.replacing("\r\n", with: "\n").replacing("\r", with: "\n")
  }

  /// Reads a `wvtt` track's samples into one WebVTT document.
  ///
  /// Each sample's cues last from its start to its end (its start plus its duration, else the
  /// next sample's start); a cue repeated in consecutive samples (same `vsid` when it has one,
  /// else same identifier, settings and text) is one cue over all of them. The document's
  /// header, style sheets and regions are the configuration's, and its cues are read as a
  /// WebVTT file's would be (settings, regions by name), with the samples' exact times.
  ///
  /// - Parameters:
  ///   - samples: The track's samples, in decoding order.
  ///   - configuration: The `vttC` box's body, the WebVTT header (`WEBVTT` alone when empty
  ///     or not a WebVTT header).
  /// - Returns: A document of format ``SubtitleFormat/webVTT``, cues sorted by start time.
  /// - Throws: `SubtitleError.badSample` for a sample whose boxes do not fit.
  /// - Complexity: O(*n*) in the total size of the samples.
  public static func document(samples: [SubtitleSample], configuration: [UInt8] = [])
    throws(SubtitleError) -> SubtitleDocument
  {
    let ends = SubtitleSample.ends(of: samples)
    var joiner = SampleCueJoiner<JoinKey>()
    // A cue with a source identifier is known by it, and keeps the content it first had.
    var firstContent: [UInt32: SampleCue] = [:]
    for (index, sample) in samples.enumerated() {
      joiner.beginSample()
      for cue in try cues(inSample: sample.bytes, index: index) {
        var key = JoinKey.content(cue)
        if let id = cue.sourceID {
          key = .source(id)
          if firstContent[id] == nil { firstContent[id] = cue }
        }
        joiner.add(key, start: sample.startTime, end: ends[index])
      }
    }
    var joined: [(start: Double, end: Double, cue: SampleCue)] = []
    joined.reserveCapacity(joiner.cues.count)
    for (key, start, end) in joiner.cues {
      switch key {
      case .content(let cue): joined.append((start, end, cue))
      case .source(let id): joined.append((start, end, firstContent[id] ?? SampleCue(text: "")))
      }
    }
    let order = joined.indices.sorted { (joined[$0].start, $0) < (joined[$1].start, $1) }
    return try webVTTDocument(order.map { joined[$0] }, configuration: configuration)
  }

  /// Reads WebVTT cues whose identifier, settings and text a container stores apart (as
  /// Matroska does: the text in a block, the identifier and settings beside it) into one
  /// WebVTT document, as a WebVTT file of those cues under `header` would read, with the
  /// given times kept exactly.
  ///
  /// - Parameters:
  ///   - cues: Each cue's start and end in seconds and its parts, in any order (sorted by
  ///     start here, stably).
  ///   - header: The WebVTT header (`WEBVTT` and its style and region blocks), `WEBVTT`
  ///     alone when empty or not a WebVTT header.
  /// - Returns: A document of format ``SubtitleFormat/webVTT``, cues sorted by start time.
  /// - Throws: `SubtitleError` only when the cues written out cannot be read back.
  /// - Complexity: O(*n* log *n*) in the number of cues, plus their size.
  public static func document(
    cues: [(start: Double, end: Double, cue: SampleCue)], header: [UInt8]
  ) throws(SubtitleError) -> SubtitleDocument {
    let order = cues.indices.sorted { (cues[$0].start, $0) < (cues[$1].start, $1) }
    return try webVTTDocument(order.map { cues[$0] }, configuration: header)
  }

  /// What identifies a cue across samples.
  enum JoinKey: Hashable {
    /// A cue without a source identifier: by identifier, settings and text.
    case content(SampleCue)
    /// A cue with a source identifier (`vsid`).
    case source(UInt32)
  }

  /// The cues written as a WebVTT file under the configuration's header, parsed, and given
  /// their exact times back (a WebVTT timestamp has milliseconds).
  static func webVTTDocument(
    _ cues: [(start: Double, end: Double, cue: SampleCue)], configuration: [UInt8]
  ) throws(SubtitleError) -> SubtitleDocument {
    var header = configuration
    while let last = header.last, last == 0 || last == 0x0A || last == 0x0D || last == 0x20 {
      header.removeLast()
    }
    // A header that is not a WebVTT file's (no signature) is replaced by the signature alone.
    var headerCues = 0
    if let parsed = try? WebVTT.parse(header) {
      headerCues = parsed.cues.count
    } else {
      header = Array("WEBVTT".utf8)
    }
    var file = header
    for (start, end, cue) in cues {
      file.append(contentsOf: [0x0A, 0x0A])
      let identifier = cue.identifier.replacing("\n", with: " ")
      if !identifier.isEmpty, !identifier.contains("-->") {
        file.append(contentsOf: identifier.utf8)
        file.append(0x0A)
      }
      file.append(contentsOf: timestamp(start).utf8)
      file.append(contentsOf: " --> ".utf8)
      file.append(contentsOf: timestamp(max(start, end)).utf8)
      let settings = cue.settings.replacing("\n", with: " ")
      if !settings.isEmpty {
        file.append(0x20)
        file.append(contentsOf: settings.utf8)
      }
      // Cue text ends at a blank line or at a line holding "-->": neither may stay.
      for line in cue.text.split(separator: "\n", omittingEmptySubsequences: true) {
        file.append(0x0A)
        file.append(contentsOf: line.replacing("-->", with: "--&gt;").utf8)
      }
    }
    file.append(0x0A)
    var document = try WebVTT.parse(file)
    if document.cues.count == headerCues + cues.count {
      document.cues.removeFirst(headerCues)
      for i in cues.indices {
        document.cues[i].startTime = cues[i].start
        document.cues[i].endTime = max(cues[i].start, cues[i].end)
      }
    }
    return document
  }

  /// `hh:mm:ss.mmm` for `seconds` (0 for a negative or non-finite time).
  static func timestamp(_ seconds: Double) -> String {
    let total = seconds.isFinite && seconds > 0 ? Int((seconds * 1000).rounded()) : 0
    let ms = total % 1000
    let s = total / 1000 % 60
    let m = total / 60_000 % 60
    let h = total / 3_600_000
    func pad(_ v: Int, _ width: Int) -> String {
      let digits = String(v)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(ms, 3))"
  }
}

/// Reads the boxes in a byte range one after the other: a 32-bit big-endian size (1: a 64-bit
/// size follows the type; 0: to the end of the range) and a four-character type.
struct BoxReader {
  /// A box: its type and the range of its body in the bytes.
  struct Box {
    var type: String
    var body: Range<Int>
  }

  let bytes: [UInt8]
  let range: Range<Int>
  /// The sample's index, for errors.
  let sample: Int
  /// Where the next box starts.
  private var at: Int

  init(bytes: [UInt8], range: Range<Int>, sample: Int) {
    self.bytes = bytes
    self.range = range
    self.sample = sample
    self.at = range.lowerBound
  }

  /// The next box, or `nil` at the end of the range.
  mutating func next() throws(SubtitleError) -> Box? {
    guard at < range.upperBound else { return nil }
    let left = range.upperBound - at
    guard left >= 8 else {
      throw SubtitleError.badSample(
        index: sample, offset: at, reason: "\(left) bytes left, too few for a box header")
    }
    var size = 0
    for k in 0..<4 { size = size << 8 | Int(bytes[at + k]) }
    let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
    var header = 8
    if size == 1 {
      guard left >= 16 else {
        throw SubtitleError.badSample(
          index: sample, offset: at, reason: "the '\(type)' box's 64-bit size is cut off")
      }
      var large: UInt64 = 0
      for k in 8..<16 { large = large << 8 | UInt64(bytes[at + k]) }
      header = 16
      size = large > UInt64(left) ? left + 1 : Int(large)
    } else if size == 0 {
      size = left
    }
    guard size >= header else {
      throw SubtitleError.badSample(
        index: sample, offset: at,
        reason: "the '\(type)' box states \(size) bytes, less than its header")
    }
    guard size <= left else {
      throw SubtitleError.badSample(
        index: sample, offset: at,
        reason: "the '\(type)' box states more bytes than the \(left) left")
    }
    let box = Box(type: type, body: (at + header)..<(at + size))
    at += size
    return box
  }
}
