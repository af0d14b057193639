import MediaTracks

/// The text and JSON forms of `mtool tracks` results.
enum TracksOutput {
  /// The stderr line for a file that failed.
  static func errorLine(path: String, _ error: MediaError) -> String {
    CLIError(code: .dataError, command: "tracks", message: "\(path): \(reason(error))").line + "\n"
  }

  /// A short reason for a failed file.
  static func reason(_ error: MediaError) -> String {
    switch error.kind {
    case .notFound where error.operation == "list": return error.detail
    case .notFound where error.operation == "http": return error.description
    // A file the input names (an HLS segment) is missing, not the input itself.
    case .notFound where error.operation == "HLSPlaylist": return error.detail
    case .notFound: return "no such file or not readable"
    case .malformed: return "not readable media (\(error.description))"
    default: return error.description
    }
  }

  /// One file as a JSON object: `path, format, duration, audio, subtitles, defaultAudio,
  /// defaultSubtitle, error`.
  static func json(path: String, _ result: Result<MediaInfo, MediaError>) -> JSONValue {
    switch result {
    case .success(let info):
      return .object([
        ("path", .string(jsonName(path))), ("format", .string(info.demuxerName)),
        ("duration", number(info.duration)), ("audio", .array(info.audio.map(json(audio:)))),
        ("subtitles", .array(info.subtitles.map(json(subtitle:)))),
        ("defaultAudio", int(info.defaultAudio)), ("defaultSubtitle", int(info.defaultSubtitle)),
        ("error", .null),
      ])
    case .failure(let error):
      return .object([
        ("path", .string(jsonName(path))), ("format", .null), ("duration", .null),
        ("audio", .array([])),
        ("subtitles", .array([])), ("defaultAudio", .null), ("defaultSubtitle", .null),
        ("error", .string(reason(error))),
      ])
    }
  }

  /// One audio track: every field always present, `null` when unknown (never `0` or `""`).
  static func json(audio track: AudioTrack) -> JSONValue {
    .object([
      ("index", .int(track.index)), ("codec", string(nonEmpty(track.codec))),
      ("ffmpegCodec", string(track.ffmpegCodec)), ("codecTag", string(track.codecTag)),
      ("decodable", .bool(track.decodable)), ("encrypted", .bool(track.encrypted)),
      ("profile", string(track.profile)), ("language", string(track.language)),
      ("languageTag", string(track.languageTag)), ("title", string(track.title)),
      ("channels", int(positive(track.channels))),
      ("channelLayout", string(nonEmpty(track.channelLayout))),
      ("sampleRate", int(positive(track.sampleRate))),
      ("bitRate", int(statedBitRate(track.bitRate))),
      ("duration", number(track.duration)),
      ("dispositions", .array(track.dispositions.map { .string($0) })),
      ("kind", .string(track.kind.rawValue)), ("label", .string(track.label)),
      ("alternatives", .array(track.alternatives.map(json(encoding:)))),
    ])
  }

  /// One other encoding of an audio track (see `AudioTrack.alternatives`), `null` when unknown.
  static func json(encoding: AudioEncoding) -> JSONValue {
    .object([
      ("codec", string(nonEmpty(encoding.codec))), ("profile", string(encoding.profile)),
      ("channels", int(positive(encoding.channels))),
      ("channelLayout", string(nonEmpty(encoding.channelLayout))),
      ("groups", .array(encoding.groups.map { .string($0) })),
    ])
  }

  /// One subtitle track: every field always present, `null` when unknown.
  static func json(subtitle track: SubtitleTrack) -> JSONValue {
    .object([
      ("index", .int(track.index)), ("codec", string(nonEmpty(track.codec))),
      ("ffmpegCodec", string(track.ffmpegCodec)), ("codecTag", string(track.codecTag)),
      ("language", string(track.language)), ("languageTag", string(track.languageTag)),
      ("title", string(track.title)),
      ("dispositions", .array(track.dispositions.map { .string($0) })),
      ("kind", .string(track.kind.rawValue)), ("label", .string(track.label)),
    ])
  }

  private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

  private static func positive(_ value: Int) -> Int? { value > 0 ? value : nil }

  /// The readable table of one file; `*` marks the default choice.
  static func table(_ info: MediaInfo, path: String) -> String {
    var text = displayText(path) + ": " + printable(info.demuxerName)
    if let duration = info.duration { text += ", " + seconds(duration) }
    text += "\n"
    // One label column for the file, as wide as its longest label (at least 42 characters).
    let labels = info.audio.map(\.label) + info.subtitles.map(\.label)
    // (A longer label is not padded to: the column stops at 80, so the table stays linear in
    // the labels' length however long one of them is.)
    let width = min(80, max(42, labels.map(\.count).max() ?? 0)) + 2
    if info.audio.isEmpty {
      text += "  audio: none\n"
    } else {
      text += "  audio:\n"
      for track in info.audio {
        var details = [track.codec.isEmpty ? "unknown codec" : track.codec]
        if track.encrypted { details.append("encrypted") }
        // An encrypted track is not decodable for that reason alone: "encrypted" says it.
        if !track.decodable && !track.encrypted {
          details.append(
            // FFmpeg named the codec itself: this stream is what cannot be decoded (raw AAC
            // with no rate, 32-bit FLAC, a WavPack correction file; `stretch` says why).
            track.ffmpegCodec.map {
              $0 == track.codec ? "not decodable" : "FFmpeg reads it as \($0)"
            }
              ?? "no decoder")
        }
        if !track.channelLayout.isEmpty { details.append(track.channelLayout) }
        if track.sampleRate > 0 { details.append("\(track.sampleRate) Hz") }
        if let bitRate = statedBitRate(track.bitRate) { details.append("\(bitRate / 1000) kb/s") }
        if !track.dispositions.isEmpty { details.append(track.dispositions.joined(separator: ",")) }
        for other in track.alternatives {
          let facts = [other.codec.isEmpty ? "unknown codec" : other.codec, other.channelLayout]
          details.append("(also " + facts.filter { !$0.isEmpty }.joined(separator: " ") + ")")
        }
        text += row(
          marked: track.index == info.defaultAudio, index: track.index, label: track.label,
          width: width, details: details)
      }
    }
    if info.subtitles.isEmpty {
      text += "  subtitles: none\n"
    } else {
      text += "  subtitles:" + (info.defaultSubtitle == nil ? " (off by default)\n" : "\n")
      for track in info.subtitles {
        var details = [track.codec.isEmpty ? "unknown codec" : track.codec]
        if !track.dispositions.isEmpty { details.append(track.dispositions.joined(separator: ",")) }
        text += row(
          marked: track.index == info.defaultSubtitle, index: track.index, label: track.label,
          width: width, details: details)
      }
    }
    return text
  }

  private static func row(
    marked: Bool, index: Int, label: String, width: Int, details: [String]
  ) -> String {
    let head = "  " + (marked ? "* " : "  ") + "#\(index)"
    let paddedHead = head + String(repeating: " ", count: max(1, 8 - head.count))
    let paddedLabel = label + String(repeating: " ", count: max(2, width - label.count))
    let shown = details.filter { !$0.isEmpty }.map(printable)
    return paddedHead + printable(paddedLabel) + shown.joined(separator: "  ") + "\n"
  }

  /// `text` with each control character (a line break, an escape sequence's introducer) and
  /// bidirectional override shown escaped (see ``displayText(_:)``), so a file name or tag
  /// cannot break the table, disguise itself or drive the terminal.
  static func printable(_ text: String) -> String { displayText(text) }

  private static func seconds(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) s"
  }

  private static func string(_ value: String?) -> JSONValue {
    value.map { .string($0) } ?? .null
  }

  private static func int(_ value: Int?) -> JSONValue {
    value.map { .int($0) } ?? .null
  }

  private static func number(_ value: Double?) -> JSONValue {
    value.map { .number($0) } ?? .null
  }
}

/// A bit rate as the output states it: `nil` (unknown) below 1000 bit/s, which no audio track
/// has (a manifest's placeholder `bandwidth="1"`).
func statedBitRate(_ bitRate: Int?) -> Int? {
  bitRate.flatMap { $0 >= 1000 ? $0 : nil }
}
