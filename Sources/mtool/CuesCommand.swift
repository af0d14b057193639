import MediaTracks
import SubtitleParser

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let cuesCommand = Command(
  name: "cues",
  summary: "Parse, inspect and convert WebVTT, SRT, SSA/ASS and TTML subtitles.",
  usage: "mtool cues FILE|- [options]",
  options: [
    OptionSpec(
      "format", value: "auto|vtt|srt|ass|ttml",
      help: "Input format (default auto: by .vtt/.srt/.ass/.ssa name, else content)."),
    OptionSpec("encoding", value: "NAME", help: "Input encoding (default: detect)."),
    OptionSpec(
      "stream", value: "N",
      help: "Read text subtitle stream N of a media file (the index mtool tracks lists)."),
    OptionSpec("json", help: "Print one JSON document."),
    OptionSpec("jsonl", help: "Print one JSON object per cue (JSON Lines)."),
    OptionSpec("tree", help: "Add each cue's cue-text tree."),
    OptionSpec("stats", help: "Parse only; print counts, size and parse time."),
    OptionSpec(
      "to", value: "vtt|srt",
      help: "Convert and write subtitles in this format (implied by -o X.vtt|X.srt)."),
    OptionSpec(
      "output", short: "o", value: "OUT",
      help: "Write to OUT instead of stdout; its extension picks the output."),
    OptionSpec("at", value: "SECONDS", help: "Only the cues active at this time."),
    OptionSpec("shift", value: "SECONDS", help: "Move every cue by this many seconds."),
    OptionSpec(
      "timeout", value: "S",
      help: "Longest wait for data from a pipe or URL, seconds (default 30; stdin: none)."),
    headerOption,
    cacertOption,
  ],
  details: """
    arguments:
      FILE   a .vtt, .srt, .ass, .ssa, .ttml, .dfxp or .xml file, an http(s) URL of one, or
             - for standard input

    The input's format: a name ending in .vtt is WebVTT (a damaged WEBVTT signature is
    exit 65, as in browsers), .srt is SRT, .ass and .ssa SSA/ASS, .ttml, .dfxp and .xml
    TTML/IMSC1 (any case); for - and other names the content decides (a WEBVTT signature,
    a first line [Script Info], a tt root element, else an SRT timing line).
    --format vtt|srt|ass|ttml overrides. SSA/ASS and TTML are read only: --to and -o write
    WebVTT or SRT (-o X.ass or X.ttml is exit 64); an SSA/ASS file with none of [Script
    Info], a styles section and [Events] (one without [Events] has no cues), or with a bad
    Format line, or a TTML file without a tt root, is exit 65. So is a format that is not
    read, named: MicroDVD, MPL2, TMPlayer, LRC, SubViewer, SAMI, SCC, EBU STL, VobSub, JSON.
    A media file's name (.mkv, .mp4, .webm, .ts, .mov, .avi, .ogg, ...) reads its default
    text subtitle track, else its first; exit 65 when it has none.
    --stream N reads the text subtitle stream with that index (as mtool tracks lists it)
    from a media file FFmpeg opens: SRT, ASS, WebVTT and mov_text streams, and WebVTT (wvtt)
    and TTML (stpp) in MP4, fragmented or not, with their cue settings and positions. A
    stream that is not a text subtitle stream, or a sample that cannot be read, is exit 65.
    A URL's name is the last part of its path (https://cdn/a.vtt?token=1 is WebVTT).
    An HLS subtitle playlist (#EXTM3U, local or remote) is read with its WebVTT segments,
    joined into one document on the first segment's timeline (X-TIMESTAMP-MAP applied, cues
    repeated across segments kept once); fragmented MP4 segments (#EXT-X-MAP: WebVTT or TTML
    in MP4, as CMAF packagers write them) are read joined to their initialization section.

    \(remoteHelp) A subtitle file may have at most 16 MiB.

    The output's format: -o X.vtt or X.srt writes those subtitles (as --to would), X.json
    the --json document, X.jsonl the --jsonl lines; another option asking for something
    else (--to srt -o X.vtt, --json -o X.srt, --stats -o X.vtt) is exit 64, so a listing
    never lands in a subtitle file. Other names (X.txt, none, -) get what the options ask
    for: the listing by default.

    SRT is read as FFmpeg and Media3 read it: missing or wrong numbers, missing or extra
    blank lines, any spacing around -->, '.' or ',' before the milliseconds, and fields of
    any width read by value (00:00:013,567 is 13.567 s; 00:00:75,000 is 75 s, as both
    readers add it; ,5 is 5 ms and ,1234 is 1.234 s). Hours may be left out, and
    milliseconds when nothing follows the end time. A field of more than 9 digits skips the cue;
    signs, an arrow other than -->, or ':' before the milliseconds make a line text. A cue
    ends where the next number and timing line starts: text after a blank line is the cue's
    (as in FFmpeg). In cue text <i> <b> <u> <font> are markup, <br> a line break, and other
    tags (<bold>, </span>) are removed. Each repair is a diagnostic; those that decide a
    time say what it was read as. WebVTT output has its cues in start-time order.

    The default output lists each cue: number, identifier, times, settings, then its text.
    --json prints {"format","header","regions","styles","cues","diagnostics","timestampMap"};
    cues use the VTTCue attribute names (startTime and endTime in seconds, line and position
    a number or "auto"). Diagnostics (repairs and skipped input) appear there; otherwise only
    their count is printed on stderr. Repeats of one repair on one line are one diagnostic
    with a count; a list keeps its first 1000 and one last entry counts the rest.
    --encoding takes UTF-8, UTF-16LE, UTF-16BE, UTF-32LE, UTF-32BE, windows-1250,
    windows-1251 (cp1251), windows-1252, windows-1253, windows-1254, ISO-8859-1 (latin1),
    ISO-8859-2 (latin2), ISO-8859-5, ISO-8859-7, ISO-8859-15 (latin9) or KOI8-R; without it
    a byte order mark or UTF-16 or UTF-32 text decides, else UTF-8 (SRT and SSA/ASS bytes that are not UTF-8 are read
    as windows-1252, the rest as UTF-8; text whose non-UTF-8 bytes come in runs, as in
    Shift-JIS, GB18030, Big5 or Cyrillic, is exit 65 unless --encoding names it; TTML in the encoding its XML declaration names, one of these, another
    being exit 65). Inputs of more than 1 GiB are refused (exit 65). The listing shows
    control characters in cue text escaped
    (\\x1B), so subtitles cannot drive the terminal.

    -o OUT is written under a new hidden name beside it and renamed when complete (a link is
    followed to its target, which is replaced, and stays a link; a replaced file keeps its
    permissions); a failure or SIGINT, SIGTERM or SIGHUP (exit 128+N) leaves no partial file.
    A named pipe or a device is written in place.

    examples:
      mtool cues movie.srt -o movie.vtt
      mtool cues talk.vtt --at 12.5 --json
      mtool cues - --stats < big.srt
    """,
  run: runCues
)

/// What `mtool cues` was asked to print.
private enum CuesMode {
  case listing
  case json
  case jsonLines
  case stats
  case convert(SubtitleFormat)
}

@Sendable
func runCues(_ arguments: ParsedArguments) throws(CLIError) -> ExitCode {
  let name = "cues"
  guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
    throw CLIError.usage(
      name,
      arguments.positionals.isEmpty
        ? "no input file; see 'mtool help cues'" : "expects exactly one input file")
  }
  let options = try CuesOptions(arguments, input: path, command: name)
  // An output that is the input is refused first: of all usage errors the one that matters most.
  if let output = arguments.value("output"), output != "-" {
    try refuseOverwritingInput(output, input: path, command: name)
  }
  let mode = try selectMode(arguments, command: name)
  if case .stats = mode, options.at != nil || options.shift != nil {
    throw CLIError.usage(name, "--stats only parses; --at and --shift do not go with it")
  }

  // The output is created first, so that a command that cannot write fails before reading.
  var sink = try OutputSink(path: arguments.value("output"), command: name)
  let timeout = try parseTimeout(arguments, command: name)
  if let stream = arguments.value("stream") {
    return try runStreamCues(
      path, stream: stream, timeout: timeout, mode, options, arguments, &sink)
  }
  // A media file's name (movie.mkv) reads its default text subtitle track, else its first.
  if arguments.value("format") == nil, arguments.value("encoding") == nil, path != "-",
    !RemoteFile.isRemote(path), isMediaFileName(path)
  {
    let info: MediaInfo
    do throws(MediaError) {
      info = try MediaProbe.probe(path: path, timeout: timeout)
    } catch {
      throw mediaFailure(error, command: name, input: path)
    }
    let text = info.subtitles.filter { SubtitleStreamReader.textCodecs.contains($0.codec) }
    guard let track = text.first(where: { $0.index == info.defaultSubtitle }) ?? text.first
    else {
      throw CLIError.data(
        name,
        "'\(path)' has no text subtitle track"
          + (info.subtitles.isEmpty ? "" : " (only bitmap or caption tracks; see mtool tracks)"))
    }
    return try runStreamCues(
      path, stream: String(track.index), timeout: timeout, mode, options, arguments, &sink)
  }
  let bytes =
    RemoteFile.isRemote(path)
    ? try readRemoteInput(
      path, command: name, timeout: timeout,
      access: try parseRemoteAccess(arguments, command: name))
    : try readInput(path, command: name, timeout: timeout)
  let clock = ContinuousClock()
  let started = clock.now
  var document: SubtitleDocument
  if options.format == nil, HLSSubtitleSegments.isPlaylist(bytes) {
    document = try joinedSegments(
      playlist: bytes, at: path, timeout: timeout, arguments, command: name)
  } else if options.format == nil, let files = DASHManifest.textFiles(ifManifest: bytes) {
    throw CLIError.data(
      name,
      "'\(path)' is a DASH manifest; give one of its subtitle files"
        + (files.isEmpty ? "" : " (\(files.prefix(4).joined(separator: ", ")))"))
  } else {
    do throws(SubtitleError) {
      document = try SubtitleFile.parse(bytes, format: options.format, encoding: options.encoding)
    } catch {
      // A `.vtt` name that holds SRT (a renamed file) says how to read it anyway.
      if case .badSignature = error, options.format == .webVTT, arguments.value("format") == nil,
        SubRip.looksLikeSRT(bytes)
      {
        throw CLIError.data(name, error.description + "; it reads as SRT with --format srt")
      }
      if case .undetectedEncoding = error {
        throw CLIError.data(
          name,
          error.description + " (a single-byte code page: --encoding windows-1251, for example;"
            + " Shift-JIS, GB18030, Big5 or EUC-KR: convert it first, iconv -f GB18030 -t UTF-8)")
      }
      if case .unsupportedEncoding = error {
        throw CLIError.data(name, error.description + " (--encoding NAME reads it as another)")
      }
      throw CLIError.data(name, error.description)
    }
  }
  return try finishCues(
    document, parse: (bytes: bytes.count, elapsed: clock.now - started), mode, options,
    arguments, &sink)
}

/// Writes the cues of `document` (shifted and filtered as `options` say) to `sink`, commits
/// it and counts the diagnostics on standard error; `parse` is the input's size and the time
/// its reading took, for `--stats`.
private func finishCues(
  _ document: SubtitleDocument, parse: (bytes: Int, elapsed: Duration), _ mode: CuesMode,
  _ options: CuesOptions, _ arguments: ParsedArguments, _ sink: inout OutputSink
) throws(CLIError) -> ExitCode {
  var document = document
  if let shift = options.shift { document = document.shifted(by: shift) }
  var cueIndices = Array(document.cues.indices)
  if let at = options.at { cueIndices = CueTimeline(cues: document.cues).active(at: at) }
  let diagnosticCount = writeCues(
    document, cueIndices, mode: mode, options: options, tree: arguments.has("tree"),
    parse: parse, to: &sink)
  try sink.commit(command: "cues")
  if diagnosticCount > 0 {
    var stderr = StandardError()
    let plural = diagnosticCount == 1 ? "diagnostic" : "diagnostics"
    stderr.write("mtool: cues: \(diagnosticCount) \(plural) (see --json)\n")
  }
  return .ok
}

/// Whether the local file `path` names a media container (by its extension) rather than a
/// subtitle file: `movie.mkv` as well as `dir/movie.mkv` (the name's last part counts, `?` and
/// `#` included, as a file's name may hold them).
func isMediaFileName(_ path: String) -> Bool {
  let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
  guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
  let ext = name[name.index(after: dot)...].lowercased()
  return [
    "mkv", "mka", "mks", "webm", "mp4", "m4v", "m4a", "mov", "3gp", "ts", "m2ts", "mts", "avi",
    "ogg", "ogv", "ogm", "flv", "mpg", "mpeg", "vob", "wmv", "asf", "mp3", "aac", "flac",
    "wav", "opus", "wma",
  ].contains(ext)
}

/// `mtool cues FILE --stream N`: the cues of a media file's text subtitle stream.
/// - Throws: 64 for a stream index that is not a number, standard input, or `--format` or
///   `--encoding` beside it; the media exit codes for the file and the stream.
private func runStreamCues(
  _ path: String, stream: String, timeout: Double?, _ mode: CuesMode, _ options: CuesOptions,
  _ arguments: ParsedArguments, _ sink: inout OutputSink
) throws(CLIError) -> ExitCode {
  let name = "cues"
  guard let index = Int(stream), index >= 0 else {
    throw CLIError.usage(name, "--stream expects a stream index (0, 1, ...), got '\(stream)'")
  }
  guard path != "-" else {
    throw CLIError.usage(name, "--stream reads a media file, not standard input")
  }
  if arguments.value("format") != nil || arguments.value("encoding") != nil {
    throw CLIError.usage(name, "--stream reads the stream's own format: no --format or --encoding")
  }
  let clock = ContinuousClock()
  let started = clock.now
  let document: SubtitleDocument
  do throws(MediaError) {
    document = try SubtitleStreamReader(path: path, streamIndex: index, timeout: timeout)
      .document()
  } catch {
    throw mediaFailure(error, command: name, input: path)
  }
  return try finishCues(
    document, parse: (bytes: document.text.count, elapsed: clock.now - started), mode, options,
    arguments, &sink)
}

/// The WebVTT segments of the HLS subtitle playlist `playlist` (read from `path`), joined into
/// one document on the first segment's timeline (segments after a discontinuity lined up with
/// the playlist's durations; byte-range segments read as their sub-ranges).
/// - Throws: 65 for a playlist that is not a subtitle media playlist or a segment that is not
///   WebVTT, and the media exit codes for segments that cannot be read.
private func joinedSegments(
  playlist: [UInt8], at path: String, timeout: Double?, _ arguments: ParsedArguments,
  command: String
) throws(CLIError) -> SubtitleDocument {
  let access = try parseRemoteAccess(arguments, command: command)
  let base = path == "-" ? "." : path
  let joined: [UInt8]?
  do throws(MediaError) {
    joined = try HLSSubtitleSegments.readFragmented(
      playlist: playlist, at: base, timeout: timeout, remote: access)
  } catch {
    throw mediaFailure(error, command: command)
  }
  if let joined {
    return try fragmentedDocument(joined, of: path, timeout: timeout, command: command)
  }
  let segments: [HLSSubtitleSegments.Segment]
  do throws(MediaError) {
    segments = try HLSSubtitleSegments.segments(
      playlist: playlist, at: base, timeout: timeout, remote: access)
  } catch {
    throw mediaFailure(error, command: command)
  }
  var documents: [SubtitleDocument] = []
  documents.reserveCapacity(segments.count)
  for (number, segment) in segments.enumerated() {
    do throws(SubtitleError) {
      documents.append(try SubtitleFile.parse(segment.bytes, format: .webVTT))
    } catch {
      throw CLIError.data(command, "segment \(number + 1) of '\(path)': \(error.description)")
    }
  }
  return SubtitleDocument(
    joiningSegments: documents,
    timing: segments.map {
      SubtitleDocument.SegmentTiming(
        start: $0.start, discontinuitySequence: $0.discontinuitySequence)
    })
}

/// The subtitle track of `bytes`, an HLS subtitle playlist's fragmented MP4 segments joined to
/// their initialization section (see `HLSSubtitleSegments.readFragmented`): written to a
/// temporary file of its own (FFmpeg's MP4 reader takes a file), read as a media file's text
/// track, and removed.
/// - Throws: 65 when the segments hold no text track or cannot be read, 1 when no temporary
///   file can be written.
private func fragmentedDocument(
  _ bytes: [UInt8], of path: String, timeout: Double?, command: String
) throws(CLIError) -> SubtitleDocument {
  let folder =
    getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
  var template = Array((folder + "/mtool-segments-XXXXXX.mp4").utf8CString)
  let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
    guard let start = buffer.baseAddress else { return -1 }
    return mkstemps(start, 4)
  }
  guard descriptor >= 0 else {
    throw CLIError.failure(
      command, "cannot write a temporary file in '\(folder)': \(String(cString: strerror(errno)))")
  }
  let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  defer { unlink(temporary) }
  let written = bytes.withUnsafeBytes { raw -> Bool in
    var offset = 0
    while offset < raw.count, let start = raw.baseAddress {
      let count = write(descriptor, start + offset, raw.count - offset)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      offset += count
    }
    return true
  }
  close(descriptor)
  guard written else {
    throw CLIError.failure(command, "cannot write a temporary file in '\(folder)'")
  }
  func failure(_ error: MediaError) -> CLIError {
    CLIError.data(
      command,
      "the fragmented MP4 segments of '\(path)': "
        + error.description.replacing(temporary, with: "the joined segments"))
  }
  let info: MediaInfo
  do throws(MediaError) {
    info = try MediaProbe.probe(path: temporary, timeout: timeout)
  } catch {
    throw failure(error)
  }
  guard
    let track = info.subtitles.first(where: { SubtitleStreamReader.textCodecs.contains($0.codec) })
  else {
    throw CLIError.data(
      command, "the fragmented MP4 segments of '\(path)' hold no text subtitle track")
  }
  do throws(MediaError) {
    return try SubtitleStreamReader(path: temporary, streamIndex: track.index, timeout: timeout)
      .document()
  } catch {
    throw failure(error)
  }
}

/// The input options of `mtool cues`: how to read the input and which times to keep.
private struct CuesOptions {
  /// The input's format: as forced; else as its name's extension says (as
  /// `SubtitleFile.parse(_:pathExtension:)` takes it); else, for standard input and other
  /// names, nil (the content decides).
  var format: SubtitleFormat?
  /// The forced encoding, or nil (detected).
  var encoding: TextEncoding?
  /// `--at`: only the cues active at this time, in seconds.
  var at: Double?
  /// `--shift`: seconds to move every cue by.
  var shift: Double?

  /// Reads the options from `arguments`.
  ///
  /// - Throws: `CLIError.usage` for a value out of range or of the wrong kind.
  init(_ arguments: ParsedArguments, input path: String, command name: String) throws(CLIError) {
    if RemoteFile.isRemote(path) {
      format = RemoteFile.pathExtension(path).flatMap { SubtitleFile.format(forPath: "x.\($0)") }
    } else {
      format = path == "-" ? nil : SubtitleFile.format(forPath: path)
    }
    if let value = arguments.value("format"), value != "auto" {
      // The documented names only (a file's `.xml` or `.dfxp` names TTML, `--format` does not).
      let names: [String: SubtitleFormat] = [
        "vtt": .webVTT, "srt": .srt, "ass": .ass, "ssa": .ass, "ttml": .ttml,
      ]
      guard let parsed = names[value] else {
        throw CLIError.usage(name, "--format expects auto, vtt, srt, ass or ttml, got '\(value)'")
      }
      format = parsed
    }
    if let value = arguments.value("encoding") {
      do throws(SubtitleError) {
        encoding = try TextEncoding(name: value)
      } catch {
        throw CLIError.usage(name, "--encoding: \(error.description)")
      }
    }
    at = try arguments.double("at", command: name)
    shift = try arguments.double("shift", command: name)
    // Cue times are exact to the millisecond up to 2^53 ms (about 9e12 s, 285,000 years): a
    // time or shift past that could only give silently wrong times.
    let timeLimit = 9e12
    for (option, value) in [("at", at), ("shift", shift)] {
      if let value, !(value.isFinite && abs(value) <= timeLimit) {
        throw CLIError.usage(
          name,
          "--\(option) expects seconds between -9e12 and 9e12, got '\(arguments.value(option) ?? "")'"
        )
      }
    }
  }
}

/// Writes what `mode` asks for of `document` (the cues at `cueIndices`) to `sink`.
///
/// - Parameter parse: The input's size in bytes and how long parsing it took (for `--stats`).
/// - Returns: The number of diagnostics to report on standard error (0 when the output
///   carries them, as JSON does).
private func writeCues(
  _ document: SubtitleDocument, _ cueIndices: [Int], mode: CuesMode, options: CuesOptions,
  tree: Bool, parse: (bytes: Int, elapsed: Duration), to sink: inout OutputSink
) -> Int {
  var diagnosticCount = document.diagnosticCount
  switch mode {
  case .stats:
    let elapsed = parse.elapsed
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    sink.write("format: \(document.format.rawValue)\n")
    sink.write("cues: \(document.cues.count)\n")
    sink.write("diagnostics: \(document.diagnosticCount)\n")
    sink.write("bytes: \(parse.bytes)\n")
    sink.write("parse time: \(formatFixed(seconds * 1000, decimals: 3)) ms\n")
    if seconds > 0 {
      sink.write(
        "throughput: \(formatFixed(Double(parse.bytes) / seconds / 1e6, decimals: 1)) MB/s\n")
    }
  case .convert(let target):
    var converted = document.converted(to: target)
    if options.at != nil { converted.cues = cueIndices.map { converted.cues[$0] } }
    diagnosticCount = converted.diagnosticCount
    sink.write(bytes: target == .srt ? converted.srt() : converted.webVTT())
  case .json:
    CueJSON.writeDocument(document, cues: cueIndices, tree: tree, to: &sink)
    diagnosticCount = 0
  case .jsonLines:
    for index in cueIndices {
      var line = ""
      CueJSON.appendCue(document, document.cues[index], tree: tree, to: &line)
      line += "\n"
      sink.write(line)
    }
  case .listing:
    for index in cueIndices {
      sink.write(CueListing.entry(document, index: index, tree: tree))
    }
  }
  return diagnosticCount
}

/// The output mode from the flags and the output's name, rejecting combinations that make no
/// sense.
///
/// An output name ending in `.vtt` or `.srt` (any case) means `--to` that format, `.json`
/// means `--json` and `.jsonl` `--jsonl`; a flag that asks for something else is a usage
/// error, so a listing or JSON never goes into a subtitle file, nor subtitles into a `.json`
/// file. Other names (`.txt`, none, `-`) take what the flags ask for.
private func selectMode(_ arguments: ParsedArguments, command: String) throws(CLIError)
  -> CuesMode
{
  var chosen: [String] = []
  for flag in ["json", "jsonl", "stats", "to"] where arguments.has(flag) { chosen.append(flag) }
  if chosen.count > 1 {
    throw CLIError.usage(
      command, "--\(chosen[0]) and --\(chosen[1]) cannot be used together")
  }
  var asked: CuesMode? = nil
  if let target = arguments.value("to") {
    guard let format = SubtitleFormat(rawValue: target), format.isWritable else {
      throw CLIError.usage(command, "--to expects vtt or srt, got '\(target)'")
    }
    asked = .convert(format)
  } else if arguments.has("json") {
    asked = .json
  } else if arguments.has("jsonl") {
    asked = .jsonLines
  } else if arguments.has("stats") {
    asked = .stats
  }
  var mode = asked ?? .listing
  if let output = arguments.value("output"), output != "-",
    let named = SubtitleFile.format(forPath: output), !named.isWritable
  {
    throw CLIError.usage(
      command,
      "-o '\(output)': \(CuesMode.convert(named).name) is read only; write .vtt or .srt")
  }
  if let output = arguments.value("output"), output != "-", let implied = outputMode(output) {
    if let asked, asked != implied {
      throw CLIError.usage(
        command,
        "-o '\(output)' is \(implied.name) by its extension, but \(asked.option) writes "
          + "\(asked.name); leave one out or rename the output")
    }
    mode = implied
  }
  if arguments.has("tree") {
    switch mode {
    case .stats, .convert:
      throw CLIError.usage(command, "--tree only goes with the listing, --json or --jsonl")
    case .listing, .json, .jsonLines: break
    }
  }
  return mode
}

/// The mode an output file's extension names: `.vtt`/`.srt` subtitles, `.json` one JSON
/// document, `.jsonl` JSON Lines (any case); `nil` for any other name.
private func outputMode(_ path: String) -> CuesMode? {
  if let format = SubtitleFile.format(forPath: path) { return .convert(format) }
  let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
  guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
  switch name[name.index(after: dot)...].lowercased() {
  case "json": return .json
  case "jsonl": return .jsonLines
  default: return nil
  }
}

extension CuesMode: Equatable {
  /// What the mode writes, for messages.
  var name: String {
    switch self {
    case .listing: "a listing"
    case .json: "JSON"
    case .jsonLines: "JSON Lines"
    case .stats: "statistics"
    case .convert(.webVTT): "WebVTT"
    case .convert(.srt): "SRT"
    case .convert(.ass): "SSA/ASS"
    case .convert(.ttml): "TTML"
    }
  }

  /// The option that asks for the mode, for messages.
  var option: String {
    switch self {
    case .listing: "the listing"
    case .json: "--json"
    case .jsonLines: "--jsonl"
    case .stats: "--stats"
    case .convert(let format): "--to \(format.rawValue)"
    }
  }
}

/// `value` with exactly `decimals` digits after the point.
func formatFixed(_ value: Double, decimals: Int) -> String {
  guard value.isFinite else { return "0" }
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let scaled = Int64((abs(value) * scale).rounded())
  let whole = scaled / Int64(scale)
  var fraction = String(scaled % Int64(scale))
  fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
  let sign = value < 0 && scaled != 0 ? "-" : ""
  return decimals == 0 ? sign + String(whole) : sign + String(whole) + "." + fraction
}
