/// The subtitle formats this module reads and writes.
///
/// Throughout this module "format" means a subtitle syntax and nothing else (not a container,
/// not a demuxer). Cue times are `startTime` and `endTime`, in seconds; `start` and `end` name
/// byte offsets.
public enum SubtitleFormat: String, Hashable, Sendable, Codable, CaseIterable {
  /// W3C WebVTT.
  case webVTT = "vtt"
  /// SubRip (SRT), as found in the wild.
  case srt
  /// SubStation Alpha and Advanced SubStation Alpha (`.ssa`, `.ass`): read only.
  ///
  /// `allCases` lists it, as every format a document can come from; the formats a document
  /// can be converted to and written in are those whose `isWritable` is true.
  case ass
  /// TTML and IMSC 1 (text profile), from `.ttml`, `.dfxp` and `.xml` files: read only (see
  /// ``TTML``).
  case ttml

  /// Whether documents can be converted to and written in this format (`converted(to:)`,
  /// `srt()`, `webVTT()`): WebVTT and SRT; ASS and TTML are read only.
  public var isWritable: Bool { writer != nil }
}

/// A parsed subtitle file: header, regions, style sheets, cues and diagnostics.
///
/// The document owns `text`, the file's content as UTF-8 bytes (after decoding the source
/// encoding and, for WebVTT, after replacing NUL and invalid sequences with U+FFFD). Cues refer
/// to their identifier and payload by byte ranges into `text`; `String`s are made only when
/// asked for (`id(of:)`, `text(of:)`).
public struct SubtitleDocument: Hashable, Sendable {
  /// The format the document was parsed from (or is meant to be written as).
  public var format: SubtitleFormat
  /// The file content as UTF-8 bytes; cue ranges index into it.
  public var text: [UInt8]
  /// WebVTT: the text after `WEBVTT` on the signature line, then each header line (up to the
  /// first blank line) after a line feed: `"- title\nKind: captions"`, and
  /// `"\nX-TIMESTAMP-MAP=…"` when the signature line holds nothing else. Empty for SRT.
  public var header: String
  /// WebVTT `REGION` definitions in file order. Cues refer to them by index.
  public var regions: [Region]
  /// WebVTT `STYLE` blocks, each kept as its CSS text.
  public var styles: [String]
  /// The cues in file order.
  public var cues: [Cue]
  /// Everything that was repaired, skipped or ignored while parsing, in file order: at most
  /// `Diagnostic.listLimit` entries plus one that stands for the rest, repeats of a repair on
  /// one line folded into one entry (see `Diagnostic`).
  public var diagnostics: [Diagnostic]
  /// The HLS `X-TIMESTAMP-MAP` header, when the WebVTT header had one.
  public var timestampMap: TimestampMap?

  /// Creates a document from its parts.
  public init(
    format: SubtitleFormat, text: [UInt8], header: String = "", regions: [Region] = [],
    styles: [String] = [], cues: [Cue] = [], diagnostics: [Diagnostic] = [],
    timestampMap: TimestampMap? = nil
  ) {
    self.format = format
    self.text = text
    self.header = header
    self.regions = regions
    self.styles = styles
    self.cues = cues
    self.diagnostics = diagnostics
    self.timestampMap = timestampMap
  }

  /// The identifier of `cue` as a `String` (empty when the cue has none).
  public func id(of cue: Cue) -> String {
    String(decoding: text[cue.idRange], as: UTF8.self)
  }

  /// The raw cue payload of `cue` as a `String`: lines joined by `\n`, markup not interpreted.
  public func text(of cue: Cue) -> String {
    String(decoding: text[cue.textRange], as: UTF8.self)
  }

  /// The region `cue` refers to, or `nil`.
  public func region(of cue: Cue) -> Region? {
    guard let index = cue.settings.region, regions.indices.contains(index) else { return nil }
    return regions[index]
  }
}

/// One timed cue. Times are in seconds; text is referenced by byte ranges into the owning
/// `SubtitleDocument.text`.
public struct Cue: Hashable, Sendable {
  /// Byte range of the cue identifier in the document's `text` (empty when there is none).
  public var idRange: Range<Int>
  /// Byte range of the cue payload in the document's `text`. Lines are separated by a single
  /// `\n` in the stored bytes (line terminators are normalised when the document is built).
  public var textRange: Range<Int>
  /// Start time in seconds.
  public var startTime: Double
  /// End time in seconds.
  public var endTime: Double
  /// The 1-based line number in the source where the cue's timing line is.
  public var line: Int
  /// Positioning and alignment settings (WebVTT cue settings; for SRT, those derived from
  /// ASS override tags such as `{\an8}`).
  public var settings: CueSettings

  /// Creates a cue.
  public init(
    idRange: Range<Int> = 0..<0, textRange: Range<Int>, startTime: Double, endTime: Double,
    settings: CueSettings = CueSettings(), line: Int = 0
  ) {
    self.idRange = idRange
    self.textRange = textRange
    self.startTime = startTime
    self.endTime = endTime
    self.settings = settings
    self.line = line
  }
}

/// WebVTT cue settings with the VTTCue IDL's defaults and value conventions.
public struct CueSettings: Hashable, Sendable {
  /// Writing direction: horizontal (`""`), vertical growing left (`"rl"`) or right (`"lr"`).
  public enum Vertical: String, Hashable, Sendable, Codable {
    /// Horizontal text (no `vertical` setting).
    case horizontal = ""
    /// Vertical text whose lines grow to the left (`vertical:rl`).
    case rightToLeft = "rl"
    /// Vertical text whose lines grow to the right (`vertical:lr`).
    case leftToRight = "lr"
  }
  /// `line` alignment (`lineAlign` in the IDL).
  public enum LineAlign: String, Hashable, Sendable, Codable {
    /// The cue box's start edge is at the line position.
    case start
    /// The cue box's centre is at the line position.
    case center
    /// The cue box's end edge is at the line position.
    case end
  }
  /// `position` alignment (`positionAlign` in the IDL).
  public enum PositionAlign: String, Hashable, Sendable, Codable {
    /// The cue box's line-left edge is at the position.
    case lineLeft = "line-left"
    /// The cue box's centre is at the position.
    case center
    /// The cue box's line-right edge is at the position.
    case lineRight = "line-right"
    /// Follows the text alignment (the default).
    case auto
  }
  /// Text alignment (`align` in the IDL).
  public enum Align: String, Hashable, Sendable, Codable {
    /// Aligned to the start of the line (by the text's direction).
    case start
    /// Centred (the default).
    case center
    /// Aligned to the end of the line (by the text's direction).
    case end
    /// Aligned to the left, whatever the direction.
    case left
    /// Aligned to the right, whatever the direction.
    case right
  }

  // Stored in an order that packs them (the optional numbers as a value plus a flag among the
  // one-byte fields): 40 bytes rather than 72, which makes `Cue` 96 bytes rather than 128.
  // A cleared optional number stores 0, so the synthesized `==` and hash see one value per
  // setting.
  /// The size of the cue box as a percentage. Default: 100.
  public var size: Double = 100
  private var lineValue: Double = 0
  private var positionValue: Double = 0
  /// Index into the document's `regions`, or `nil`.
  public var region: Int? = nil
  /// Writing direction. Default: horizontal.
  public var vertical: Vertical = .horizontal
  /// Whether `line` is a line number (true) or a percentage (false). Default: true.
  public var snapToLines: Bool = true
  /// Alignment of the cue box on the line axis. Default: start.
  public var lineAlign: LineAlign = .start
  /// Alignment of the cue box at `position`. Default: auto.
  public var positionAlign: PositionAlign = .auto
  /// Text alignment within the cue box. Default: center.
  public var align: Align = .center
  private var hasLine = false
  private var hasPosition = false

  /// The line position: a line number when `snapToLines` is true, a percentage otherwise;
  /// `nil` means `"auto"`.
  public var line: Double? {
    get { hasLine ? lineValue : nil }
    set {
      hasLine = newValue != nil
      lineValue = newValue ?? 0
    }
  }
  /// The position as a percentage of the video width; `nil` means `"auto"`.
  public var position: Double? {
    get { hasPosition ? positionValue : nil }
    set {
      hasPosition = newValue != nil
      positionValue = newValue ?? 0
    }
  }

  /// Creates settings with the IDL defaults.
  public init() {}
}

/// A WebVTT region (`REGION` block), with the VTTRegion IDL's value conventions.
public struct Region: Hashable, Sendable, Codable {
  /// The region identifier.
  public var id: String = ""
  /// Width as a percentage of the viewport. Default: 100.
  public var width: Double = 100
  /// Height in lines, as the VTTRegion IDL reports it (a JavaScript number: WebVTT allows
  /// integers of any size, e.g. `lines:18446744073709551616`). Default: 3.
  public var lineCount: Double = 3
  /// Height in lines as an `Int` (`lineCount` clamped to `0...Int.max`). Default: 3.
  public var lines: Int {
    get { lineCount >= 0x1p63 ? Int.max : Int(max(0, lineCount)) }
    set { lineCount = Double(newValue) }
  }
  /// Region anchor x, percent. Default: 0.
  public var regionAnchorX: Double = 0
  /// Region anchor y, percent. Default: 100.
  public var regionAnchorY: Double = 100
  /// Viewport anchor x, percent. Default: 0.
  public var viewportAnchorX: Double = 0
  /// Viewport anchor y, percent. Default: 100.
  public var viewportAnchorY: Double = 100
  /// Scroll setting: `""` (none) or `"up"`.
  public var scroll: String = ""

  /// Creates a region with the IDL defaults.
  public init() {}
}

/// The HLS `X-TIMESTAMP-MAP=MPEGTS:<ticks>,LOCAL:<timestamp>` header of a WebVTT segment.
public struct TimestampMap: Hashable, Sendable, Codable {
  /// The MPEG-TS presentation time in 90 kHz ticks (33-bit).
  public var mpegts: Int64
  /// The cue time, in seconds, that corresponds to `mpegts`.
  public var local: Double

  /// Creates a map. (Written out, as for the other public value types: Swift synthesizes only
  /// an internal memberwise initialiser.)
  public init(mpegts: Int64, local: Double) {
    self.mpegts = mpegts
    self.local = local
  }
}

/// Something the parser repaired, skipped or ignored, with where it happened.
///
/// Diagnostics take a bounded amount of memory whatever the input:
///
/// - Repeats of one repair on one line are one diagnostic: an invalid UTF-8 sequence, a NUL
///   byte or an unpaired UTF-16 half replaced with U+FFFD. The entry has the first one's line,
///   offset and reason, and `count` says how many there were.
/// - A list the library builds (`SubtitleDocument.diagnostics`, also after conversion or a
///   shift, and `TextEncoding.Transcoded.diagnostics`) keeps its first `listLimit` entries in
///   file order. Everything after them is folded into one final entry: its line and offset
///   are those of the first one left out, its `reason` is `omittedReason`, and its `count` is
///   the number of repairs and skips it stands for.
///
/// `SubtitleDocument.diagnosticCount` adds up the counts of a list.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
  /// 1-based line number in the source.
  public var line: Int
  /// Byte offset in the document's `text`; for a diagnostic of decoding the file (invalid UTF-8,
  /// a NUL byte, an unpaired UTF-16 half, a skipped byte order mark), the offset in the file's
  /// bytes.
  public var offset: Int
  /// What was found and what was done about it.
  public var reason: String
  /// How many repairs or skips this entry stands for: 1, more for repeats on one line that
  /// were folded into it, or for the final entry of a list that reached `listLimit`.
  public var count: Int

  /// How many entries a list the library builds keeps before it folds the rest into one
  /// final entry: 1000.
  public static let listLimit = 1000

  /// The `reason` of the final entry that stands for the diagnostics past `listLimit`.
  public static let omittedReason =
    "more repairs and skips from here on, not listed (a list keeps the first \(listLimit))"

  /// Creates a diagnostic.
  ///
  /// - Parameters:
  ///   - line: 1-based line number.
  ///   - offset: Byte offset.
  ///   - reason: What was found and what was done.
  ///   - count: How many occurrences the entry stands for (default 1).
  public init(line: Int, offset: Int, reason: String, count: Int = 1) {
    self.line = line
    self.offset = offset
    self.reason = reason
    self.count = count
  }

  private enum CodingKeys: String, CodingKey {
    case line, offset, reason, count
  }

  /// Decodes a diagnostic; a missing `count` is 1.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    line = try container.decode(Int.self, forKey: .line)
    offset = try container.decode(Int.self, forKey: .offset)
    reason = try container.decode(String.self, forKey: .reason)
    count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 1
  }

  /// `line N: reason`, followed by ` (C times)` when `count` is more than 1.
  public var description: String {
    count > 1 ? "line \(line): \(reason) (\(count) times)" : "line \(line): \(reason)"
  }
}

extension SubtitleDocument {
  /// The number of repairs and skips `diagnostics` stands for: the sum of their `count`s
  /// (the list itself holds at most `Diagnostic.listLimit` + 1 entries).
  public var diagnosticCount: Int {
    diagnostics.reduce(0) { $0 &+ $1.count }
  }
}

/// A subtitle file that cannot be parsed at all.
public enum SubtitleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A WebVTT file whose signature is missing or wrong: the whole file is rejected.
  case badSignature(line: Int, offset: Int)
  /// The bytes are not text in the given (or detected) encoding.
  case badEncoding(name: String, offset: Int)
  /// An encoding name that is not supported.
  case unknownEncoding(String)
  /// A document whose XML declaration names an encoding this module cannot decode: the name
  /// as declared and the byte `offset` of it in the file.
  case unsupportedEncoding(name: String, offset: Int)
  /// Nothing in the input looks like subtitles of the requested or detected format.
  case notSubtitles(reason: String)
  /// SRT or SSA/ASS text, not UTF-8, that reads as none of the single-byte code pages detected
  /// (see `SubtitleFile.parse(_:format:encoding:)`) and not as windows-1252 either by the look
  /// of it (most of its non-ASCII bytes in runs, as in Shift-JIS, GB18030, Big5 or EUC-KR):
  /// `line` and byte `offset` of the first run. A forced encoding reads it.
  case undetectedEncoding(line: Int, offset: Int)
  /// Subtitles in a format this module does not read (MicroDVD, SCC, EBU STL, …), recognised
  /// by content: `name` says which, as `SubtitleFile.unsupportedFormat(_:)` names it.
  case unsupportedFormat(name: String)
  /// An SSA/ASS file with none of the sections a script has (`[Events]` is named).
  case missingSection(name: String)
  /// An SSA/ASS `Format:` line that events or styles cannot be read by: `line` and byte
  /// `offset` of the line, and what is wrong with it.
  case badFormatLine(line: Int, offset: Int, reason: String)
  /// A sample of an in-media subtitle track (MP4 `wvtt` or `stpp`) that cannot be read: its
  /// `index` in the track (0 for a single sample), the byte `offset` in it, and what is wrong.
  case badSample(index: Int, offset: Int, reason: String)

  /// A one-line description.
  public var description: String {
    switch self {
    case .badSignature(let line, _): "not a WebVTT file: bad or missing signature (line \(line))"
    case .badEncoding(let name, let offset): "invalid \(name) at byte \(offset)"
    case .unknownEncoding(let name):
      "unknown encoding '\(name)' (known: "
        + TextEncoding.allCases.map(\.rawValue).joined(separator: ", ") + ")"
    case .unsupportedEncoding(let name, let offset):
      "the XML declaration names encoding '\(name)' (byte \(offset)), which cannot be decoded"
    case .notSubtitles(let reason): "not a subtitle file: \(reason)"
    case .undetectedEncoding(let line, _):
      "text neither UTF-8 nor a single-byte code page told by its letters (line \(line): runs of"
        + " non-ASCII bytes, as in Shift-JIS, GB18030, Big5 or EUC-KR, which are not read); name"
        + " its encoding if it is a single-byte one, else convert the file to UTF-8"
    case .unsupportedFormat(let name):
      "\(name): not a format read here (WebVTT, SRT, SSA/ASS and TTML/IMSC1 are); convert it to"
        + " one of them first"
    case .missingSection(let name): "not an SSA/ASS file: no \(name) section"
    case .badFormatLine(let line, _, let reason): "bad Format line (line \(line)): \(reason)"
    case .badSample(let index, let offset, let reason):
      "subtitle sample \(index), byte \(offset): \(reason)"
    }
  }
}
