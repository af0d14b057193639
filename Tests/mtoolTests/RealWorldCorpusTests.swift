import Foundation
import Testing

// Media nobody on this project wrote, and media from muxers other than FFmpeg's, read by
// `mtool` and compared field by field with ffprobe (and, for the files mkvmerge made, with
// what its command line declared). The committed part is Tests/Fixtures/realworld-debian; the
// rest is made by Scripts/make-realworld-corpus.sh into .build/realworld-corpus, and its tests
// are skipped with a message when it was not made.
//
// A difference that is a known fault of mtool is recorded as a known issue, scoped to the one
// field of the one kind of file (`knownIssues` below): the test then passes while the fault
// stays, and fails ("known issue was not recorded") once it is fixed, so the entry is removed.

/// One file of the corpus.
struct CorpusFile: Sendable, CustomTestStringConvertible {
  /// The absolute path.
  var path: String
  /// The path below the corpus folder: `<package or tool>/<file name>`.
  var name: String

  var testDescription: String { name }
  /// The lower-cased extension.
  var pathExtension: String { (name as NSString).pathExtension.lowercased() }
}

/// The folder that holds the repository.
private let repositoryRoot = String(fixtures.dropLast("/Tests/Fixtures".count))
/// The corpus made by Scripts/make-realworld-corpus.sh (not committed).
private let madeCorpus = repositoryRoot + "/.build/realworld-corpus"
/// The small committed part.
private let committedCorpus = fixtures + "/realworld-debian"

/// Why the made corpus's tests are skipped.
private let notMade = Comment(
  rawValue: "the real-world corpus was not made: run Scripts/make-realworld-corpus.sh (as root, "
    + "it installs its tools) to test .build/realworld-corpus too")

/// Whether Scripts/make-realworld-corpus.sh completed.
private let corpusWasMade = FileManager.default.fileExists(atPath: madeCorpus + "/.complete")

/// The media files two levels below `folder` (`<package>/<file>`), without licences and notes.
private func media(in folder: String) -> [CorpusFile] {
  let manager = FileManager.default
  guard let groups = try? manager.contentsOfDirectory(atPath: folder) else { return [] }
  var found: [CorpusFile] = []
  for group in groups.sorted() where !group.hasPrefix(".") {
    guard let names = try? manager.contentsOfDirectory(atPath: folder + "/" + group) else {
      continue
    }
    for name in names.sorted()
    where !name.hasPrefix(".") && name != "copyright" && !name.hasSuffix(".json")
      && !name.hasSuffix(".md")
    {
      found.append(CorpusFile(path: folder + "/" + group + "/" + name, name: group + "/" + name))
    }
  }
  return found
}

/// Every corpus file: the committed ones, then those the script made.
private let corpus: [CorpusFile] =
  media(in: committedCorpus) + media(in: madeCorpus + "/debian")
  + media(in: madeCorpus + "/muxers")

/// The files mkvmerge made, each with the declaration beside it.
private let mkvmergeFiles: [CorpusFile] = media(in: madeCorpus + "/muxers").filter {
  $0.name.hasPrefix("mkvmerge/")
}

/// The path of a program on `PATH`, or `nil`.
private func program(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/\(name)" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}

private let ffprobe = program("ffprobe")
private let ffmpeg = program("ffmpeg")

/// Runs a program to its end; returns its exit status and standard output.
private func run(_ executable: String, _ arguments: [String]) throws -> (Int32, Data) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let out = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, data)
}

/// ffprobe's streams and format of a file, or `nil` when ffprobe cannot read it.
private func ffprobeReport(_ path: String) throws -> [String: Any]? {
  guard let ffprobe else { return nil }
  let (status, data) = try run(
    ffprobe, ["-v", "error", "-of", "json", "-show_streams", "-show_format", path])
  guard status == 0 else { return nil }
  return try JSONSerialization.jsonObject(with: data) as? [String: Any]
}

/// `mtool tracks --json` on one file: the exit status and the file's object.
private func mtoolTracks(_ path: String) throws -> (Int32, [String: Any]) {
  let result = try runMtool(["tracks", "--json", path])
  let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  let files = (document as? [String: Any])?["files"] as? [[String: Any]]
  return (result.status, try #require(files?.first, "no JSON for \(path): \(result.stderr)"))
}

// MARK: - Known faults, scoped to a field and a kind of file

/// A known difference: files whose corpus name matches, the field, the tracks, and why.
private struct KnownIssue {
  /// Matches the corpus name (`<package>/<file>`).
  var matches: @Sendable (String) -> Bool
  /// The field, as the checks name it (`exitCode`, `duration`, `track.duration`, …).
  var field: String
  /// The tracks (stream indexes) it concerns, or `nil` for a field of the file.
  var tracks: Set<Int>? = nil
  var reason: String
}

private func named(_ names: String...) -> @Sendable (String) -> Bool {
  { name in names.contains(name) }
}

private func suffixed(_ suffixes: String...) -> @Sendable (String) -> Bool {
  { name in suffixes.contains { name.hasSuffix($0) } }
}

private let knownIssues: [KnownIssue] = []

/// Checks `condition`; when a known issue covers the field (of that track) for this file, a
/// failure is recorded as that known issue instead.
private func check(
  _ condition: Bool, _ file: CorpusFile, field: String, track: Int? = nil,
  _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let known = knownIssues.first {
    $0.field == field && $0.matches(file.name)
      && $0.tracks.map { track.map($0.contains) ?? false } ?? (track == nil)
  }
  if let known {
    withKnownIssue(Comment(rawValue: known.reason), sourceLocation: sourceLocation) {
      #expect(condition, "\(file.name): \(field): \(message())", sourceLocation: sourceLocation)
    }
  } else {
    #expect(condition, "\(file.name): \(field): \(message())", sourceLocation: sourceLocation)
  }
}

// MARK: - Field comparisons

/// A tag by its name in any case (Ogg comments are upper-case, Matroska tags lower-case).
private func tag(_ stream: [String: Any], _ key: String) -> String? {
  let tags = stream["tags"] as? [String: Any] ?? [:]
  return tags.first { $0.key.lowercased() == key }?.value as? String
}

/// A JSON value as a message shows it (`null` for none).
private func show(_ value: Any?) -> String {
  switch value {
  case .none, is NSNull: return "null"
  case let value?: return "\(value)"
  }
}

private func number(_ value: Any?) -> Double? {
  if let value = value as? Double { return value }
  if let value = value as? Int { return Double(value) }
  if let value = value as? String { return Double(value) }
  return nil
}

/// Durations agree within 50 ms or 1 %. For MP3 (`gapless`), mtool's may also be up to
/// 120 ms shorter than ffprobe's: a LAME tag states the encoder delay and padding that the
/// decoder drops, which ffprobe counts (up to two frames and the decoder's delay).
private func close(_ a: Double?, _ b: Double?, gapless: Bool = false) -> Bool {
  guard let a, let b else { return a == nil && b == nil }
  if gapless && a < b && b - a <= 0.12 { return true }
  return abs(a - b) <= max(0.05, 0.01 * b)
}

/// The disposition names ffprobe sets.
private func dispositions(_ stream: [String: Any]) -> Set<String> {
  let flags = stream["disposition"] as? [String: Any] ?? [:]
  return Set(flags.compactMap { (number($0.value) ?? 0) == 1 ? $0.key : nil })
}

@Suite("Real-world corpus")
struct RealWorldCorpusTests {
  @Test(
    "The corpus made by Scripts/make-realworld-corpus.sh is present",
    .enabled(
      if: corpusWasMade,
      notMade))
  func corpusIsPresent() {
    #expect(corpus.count > 60)
    #expect(mkvmergeFiles.count >= 4)
  }

  @Test(
    "mtool tracks --json agrees with ffprobe, field by field",
    .enabled(if: ffprobe != nil, "ffprobe is not installed"), arguments: corpus)
  func tracksAgreeWithFFprobe(_ file: CorpusFile) throws {
    let (status, listed) = try mtoolTracks(file.path)
    guard let probe = try ffprobeReport(file.path) else {
      if let seconds = Self.bigEndianWaveSeconds(file.path) {
        // Big-endian WAVE that FFmpeg 5.1 refuses (24 and 32-bit RIFX): listed from its
        // header, as big-endian PCM with the `data` chunk's length.
        check(status == 0, file, field: "exitCode", "exit \(status) on RIFX WAVE")
        let track = (listed["audio"] as? [[String: Any]])?.first ?? [:]
        let codec = track["codec"] as? String ?? ""
        check(codec.hasSuffix("be"), file, field: "codec", "\(codec) for RIFX WAVE")
        let duration = track["duration"] as? Double ?? 0
        check(abs(duration - seconds) < 1e-9, file, field: "duration", "\(duration) s")
        return
      }
      // Not media to FFmpeg either: a clear refusal, never a listing.
      check(status == 65, file, field: "exitCode", "exit \(status), expected 65")
      #expect(listed["error"] is String, "\(file.name): no error in the JSON")
      return
    }
    check(status == 0, file, field: "exitCode", "exit \(status) on a file ffprobe reads")
    guard status == 0 else { return }
    let format = probe["format"] as? [String: Any] ?? [:]
    let streams = probe["streams"] as? [[String: Any]] ?? []
    check(
      listed["format"] as? String == format["format_name"] as? String, file, field: "format",
      "\(show(listed["format"])) vs \(show(format["format_name"]))")
    let fileDuration = number(listed["duration"])
    let probedDuration = number(format["duration"])
    check(
      close(fileDuration, probedDuration, gapless: format["format_name"] as? String == "mp3"),
      file, field: "duration",
      "\(show(fileDuration)) vs ffprobe \(show(probedDuration))"
    )

    let audio = listed["audio"] as? [[String: Any]] ?? []
    let subtitles = listed["subtitles"] as? [[String: Any]] ?? []
    let probedAudio = streams.filter { $0["codec_type"] as? String == "audio" }
    let probedText = streams.filter { $0["codec_type"] as? String == "subtitle" }
    check(
      audio.map { $0["index"] as? Int } == probedAudio.map { $0["index"] as? Int }, file,
      field: "audio.index", "audio streams differ")
    check(
      subtitles.map { $0["index"] as? Int } == probedText.map { $0["index"] as? Int }, file,
      field: "subtitles.index", "subtitle streams differ")

    // The default choice is one of the listed tracks.
    if let chosen = listed["defaultAudio"] as? Int {
      #expect(audio.contains { $0["index"] as? Int == chosen }, "\(file.name): defaultAudio")
    } else {
      #expect(audio.isEmpty, "\(file.name): audio but no defaultAudio")
    }

    for track in audio + subtitles {
      guard let index = track["index"] as? Int,
        let stream = streams.first(where: { $0["index"] as? Int == index })
      else { continue }
      compare(
        track, with: stream, file: file, isAudio: track["sampleRate"] != nil,
        fileDuration: probedDuration, streamCount: streams.count)
    }
  }

  /// One track against ffprobe's stream.
  private func compare(
    _ track: [String: Any], with stream: [String: Any], file: CorpusFile, isAudio: Bool,
    fileDuration: Double?, streamCount: Int
  ) {
    let index = track["index"] as? Int ?? -1
    // ffprobe names what FFmpeg takes the stream for: mtool's `ffmpegCodec` (its `codec` is
    // the container's declaration where FFmpeg guessed). Unknown is null, "" or "unknown".
    func known(_ name: String?) -> String? { name == "" || name == "unknown" ? nil : name }
    let probedCodec = known(stream["codec_name"] as? String)
    let listedCodec = known(
      track.keys.contains("ffmpegCodec")
        ? track["ffmpegCodec"] as? String : track["codec"] as? String)
    check(
      listedCodec == probedCodec, file, field: "track.codec", track: index,
      "#\(index) \(show(listedCodec)) vs \(show(probedCodec))")
    let languageTag = tag(stream, "language")
    check(
      track["languageTag"] as? String == languageTag, file, field: "track.languageTag",
      track: index,
      "#\(index) \(show(track["languageTag"])) vs \(show(languageTag))")
    if languageTag == nil || languageTag == "und" {
      check(
        track["language"] is NSNull, file, field: "track.language", track: index,
        "#\(index) \(show(track["language"])) for an undetermined language")
    }
    let title = tag(stream, "title")
    check(
      track["title"] as? String == title, file, field: "track.title", track: index,
      "#\(index) \(show(track["title"])) vs \(show(title))")
    let listedDispositions = Set(track["dispositions"] as? [String] ?? [])
    check(
      listedDispositions == dispositions(stream), file, field: "track.dispositions", track: index,
      "#\(index) \(listedDispositions.sorted()) vs \(dispositions(stream).sorted())")
    guard isAudio else { return }
    // Unknown numbers: ffprobe states 0 or nothing; mtool 0 or null (null once fixed).
    let rate = Int(stream["sample_rate"] as? String ?? "") ?? 0
    check(
      (track["sampleRate"] as? Int ?? 0) == rate, file, field: "track.sampleRate", track: index,
      "#\(index) \(show(track["sampleRate"])) vs \(rate)")
    let channels = stream["channels"] as? Int ?? 0
    check(
      (track["channels"] as? Int ?? 0) == channels, file, field: "track.channels", track: index,
      "#\(index) \(show(track["channels"])) vs \(channels)")
    if let probed = number(stream["duration"]) {
      let listed = number(track["duration"])
      // Where a container states no per-stream length, FFmpeg gives every stream the file's;
      // mtool says null (unknown) rather than repeat it.
      let fallback =
        listed == nil && streamCount > 1 && fileDuration.map { abs($0 - probed) < 0.001 } == true
      check(
        fallback || close(listed, probed, gapless: stream["codec_name"] as? String == "mp3"),
        file, field: "track.duration", track: index,
        "#\(index) \(show(listed)) vs ffprobe \(probed)")
    }
  }

  @Test(
    "mkvmerge's declarations (order, codec IDs, languages, names, flags) come through",
    .enabled(if: corpusWasMade, notMade),
    arguments: mkvmergeFiles)
  func mkvmergeDeclarationsHold(_ file: CorpusFile) throws {
    let declaration = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: file.path + ".declared.json")))
    let declared = try #require((declaration as? [String: Any])?["tracks"] as? [[String: Any]])
    let (status, listed) = try mtoolTracks(file.path)
    #expect(status == 0, "\(file.name): exit \(status)")
    let audio = listed["audio"] as? [[String: Any]] ?? []
    let subtitles = listed["subtitles"] as? [[String: Any]] ?? []
    // mkvmerge writes the tracks in command-line order, numbered from 0.
    let tracks = (audio + subtitles).sorted {
      ($0["index"] as? Int ?? 0) < ($1["index"] as? Int ?? 0)
    }
    #expect(tracks.map { $0["index"] as? Int } == Array(0..<declared.count).map { Optional($0) })
    for (position, expected) in declared.enumerated() where position < tracks.count {
      let track = tracks[position]
      let isAudio = expected["type"] as? String == "audio"
      #expect((track["sampleRate"] != nil) == isAudio, "\(file.name) #\(position): type")
      let codecID = expected["codecID"] as? String ?? ""
      let codec = Self.ffmpegCodec(forMatroskaID: codecID, track: track)
      check(
        track["codec"] as? String == codec, file, field: "declared.codec", track: position,
        "#\(position) \(show(track["codec"])) for \(codecID), expected \(codec)")
      let language = expected["language"] as? String
      let listedLanguage = track["language"] as? String
      check(
        listedLanguage == (language == "und" ? nil : language), file, field: "declared.language",
        track: position,
        "#\(position) \(show(listedLanguage)), declared \(show(language))")
      check(
        track["title"] as? String == expected["name"] as? String, file, field: "declared.name",
        track: position,
        "#\(position) \(show(track["title"])), declared \(show(expected["name"]))")
      let flags = Set(track["dispositions"] as? [String] ?? [])
      let isDefault = expected["default"] as? Bool ?? false
      check(
        flags.contains("default") == isDefault, file, field: "declared.default", track: position,
        "#\(position) dispositions \(flags.sorted()), declared default \(isDefault)")
      for flag in expected["flags"] as? [String] ?? [] {
        check(
          flags.contains(flag), file, field: "declared.flags", track: position,
          "#\(position) dispositions \(flags.sorted()) lack \(flag)")
      }
      guard isAudio else { continue }
      check(
        track["sampleRate"] as? Int == expected["sampleRate"] as? Int, file,
        field: "declared.sampleRate", track: position, "#\(position) \(show(track["sampleRate"]))")
      check(
        track["channels"] as? Int == expected["channels"] as? Int, file, field: "declared.channels",
        track: position, "#\(position) \(show(track["channels"]))")
      let duration = number(track["duration"])
      let declaredDuration = number(expected["duration"])
      // MP3 frames carry the encoder's delay and padding (LAME: 576 samples, then up to two
      // frames to fill the last one), which only the LAME tag states, and mkvmerge drops that
      // tag: the track holds up to three frames (3 x 1152 samples) more than its source.
      let mp3Excess =
        codecID == "A_MPEG/L3"
        ? 3 * 1152 / Double(expected["sampleRate"] as? Int ?? 48000) : 0
      let fits =
        close(duration, declaredDuration)
        || (mp3Excess > 0
          && duration.flatMap { listed in
            declaredDuration.map { listed >= $0 && listed <= $0 + mp3Excess }
          } == true)
      check(
        fits, file, field: "declared.track.duration", track: position,
        "#\(position) \(show(duration)), made \(show(declaredDuration)) s long")
    }
    // The declared default audio track is the one a player starts with.
    if let position = declared.firstIndex(where: {
      $0["type"] as? String == "audio" && $0["default"] as? Bool == true
    }) {
      #expect(listed["defaultAudio"] as? Int == position, "\(file.name): defaultAudio")
    }
  }

  /// FFmpeg's codec name for a Matroska codec ID (Matroska's codec specifications).
  private static func ffmpegCodec(forMatroskaID id: String, track: [String: Any]) -> String {
    switch id {
    case "A_OPUS": return "opus"
    case "A_VORBIS": return "vorbis"
    case "A_FLAC": return "flac"
    case "A_MPEG/L3": return "mp3"
    case "A_MPEG/L2": return "mp2"
    case "A_AC3": return "ac3"
    case "A_EAC3": return "eac3"
    case "A_DTS": return "dts"
    case "S_TEXT/UTF8": return "subrip"
    case "S_TEXT/WEBVTT": return "webvtt"
    case "S_TEXT/ASS": return "ass"
    case "A_PCM/INT/LIT":
      // The bit depth is the track's; these tracks are 16 or 24-bit.
      return track["channels"] as? Int == 6 ? "pcm_s24le" : "pcm_s16le"
    default: return id.hasPrefix("A_AAC") ? "aac" : id
    }
  }

  @Test(
    "mtool stretch --speed 1.5 gives input/1.5 of audio, or refuses what FFmpeg cannot decode",
    .enabled(if: ffprobe != nil && ffmpeg != nil, "ffmpeg and ffprobe are not installed"),
    arguments: corpus)
  func stretchKeepsTheDuration(_ file: CorpusFile) throws {
    let (status, listed) = try mtoolTracks(file.path)
    guard status == 0, let chosen = listed["defaultAudio"] as? Int, let ffmpeg, let ffprobe
    else { return }
    // The input's length, as FFmpeg decodes the same track (mono 32-bit float WAVE at the
    // decoder's own rate: frames over rate).
    let (_, decoded) = try run(
      ffmpeg,
      [
        "-nostdin", "-v", "error", "-i", file.path, "-map", "0:\(chosen)", "-ac", "1", "-c:a",
        "pcm_f32le", "-f", "wav", "-",
      ])
    var input = Self.waveSeconds(decoded) ?? 0
    // Big-endian WAVE that FFmpeg 5.1 refuses is read by mtool's WAVE reader: the header's
    // length is the input's.
    if input == 0, let seconds = Self.bigEndianWaveSeconds(file.path) { input = seconds }
    // FFmpeg 5.1 reads a little-endian `dOps` box (GStreamer 1.22's MP4 Opus) big-endian and
    // drops the misread pre-skip; mtool decodes with the pre-skip the box states.
    if input > 0, let skips = Self.littleEndianOpusPreSkip(file.path) {
      input += Double(skips.misread - skips.stated) / 48000
    }
    let output =
      FileManager.default.temporaryDirectory.path + "/realworld-\(UUID().uuidString).wav"
    defer { try? FileManager.default.removeItem(atPath: output) }
    let result = try runMtool(["stretch", file.path, output, "--speed", "1.5"])
    if input == 0 {
      // FFmpeg decodes nothing: a refusal naming the problem, never a short success.
      check(
        result.status == 65, file, field: "stretch.exitCode",
        "exit \(result.status) where FFmpeg decodes \(input) s (\(result.stderr))")
      return
    }
    let audio = listed["audio"] as? [[String: Any]] ?? []
    let rate = audio.first { $0["index"] as? Int == chosen }?["sampleRate"] as? Int ?? 0
    if rate > 0 && !(4000...192_000).contains(rate) {
      // Outside the stretcher's documented range: refused with one line saying so.
      #expect(result.status == 65, "\(file.name): \(rate) Hz, exit \(result.status)")
      #expect(result.stderr.contains("sample rate"), "\(file.name): \(result.stderr)")
      return
    }
    if Self.waveEndsEarly(file.path) {
      // A WAVE shorter than its header's size is refused (the documented rule).
      #expect(result.status == 65, "\(file.name): truncated WAVE, exit \(result.status)")
      return
    }
    check(
      result.status == 0, file, field: "stretch.exitCode",
      "exit \(result.status): \(result.stderr)")
    guard result.status == 0 else { return }
    let (_, data) = try run(
      ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", output])
    let written =
      Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
      ?? 0
    let expected = input / 1.5
    check(
      abs(written - expected) <= max(0.03, 0.02 * expected), file, field: "stretch.duration",
      "\(written) s written, \(expected) s expected from \(input) s decoded")
  }

  /// The pre-skip of an MP4 file's `dOps` box as stated (little-endian) and as FFmpeg 5.1
  /// misreads it (big-endian), when the box was written little-endian: its input sample rate
  /// read big-endian is beyond any audio rate and read little-endian is 48000 or 44100.
  private static func littleEndianOpusPreSkip(_ path: String) -> (stated: Int, misread: Int)? {
    guard path.hasSuffix(".mp4"), let data = FileManager.default.contents(atPath: path) else {
      return nil
    }
    let bytes = [UInt8](data)
    guard
      let box = bytes.indices.first(where: { bytes[$0...].starts(with: Array("dOps".utf8)) }),
      box + 12 <= bytes.count
    else { return nil }
    let field = Array(bytes[(box + 6)..<(box + 12)])
    let rate = Int(field[2]) | Int(field[3]) << 8 | Int(field[4]) << 16 | Int(field[5]) << 24
    guard [48000, 44100].contains(rate), field[2] != 0 else { return nil }
    return (Int(field[0]) | Int(field[1]) << 8, Int(field[0]) << 8 | Int(field[1]))
  }

  /// The duration of a mono 32-bit WAVE written to a pipe (sizes unknown): the bytes after
  /// the `data` chunk's header over 4 times the rate, or `nil` when it is not such a file.
  private static func waveSeconds(_ bytes: Data) -> Double? {
    let bytes = [UInt8](bytes)
    guard bytes.count >= 12, bytes[0..<4] == Array("RIFF".utf8)[...] else { return nil }
    func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    var offset = 12
    var rate = 0
    while offset + 8 <= bytes.count {
      let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      if id == "data" {
        guard rate > 0 else { return nil }
        return Double(bytes.count - offset - 8) / 4 / Double(rate)
      }
      let size = word(offset + 4)
      if id == "fmt ", offset + 16 <= bytes.count { rate = word(offset + 12) }
      offset += 8 + size + (size & 1)
    }
    return nil
  }

  /// The length in seconds a big-endian WAVE (`RIFX`) file's header states (`data` bytes over
  /// the block size, over the rate), or `nil` for any other file.
  private static func bigEndianWaveSeconds(_ path: String) -> Double? {
    guard let bytes = FileManager.default.contents(atPath: path), bytes.count >= 12,
      bytes.prefix(4) == Data("RIFX".utf8), bytes[8..<12] == Data("WAVE".utf8)
    else { return nil }
    func number(_ at: Int, _ count: Int) -> Int {
      (0..<count).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
    }
    var offset = 12
    var rate = 0
    var block = 0
    while offset + 8 <= bytes.count {
      let id = bytes[offset..<offset + 4]
      let size = number(offset + 4, 4)
      if id == Data("fmt ".utf8), offset + 22 <= bytes.count {
        rate = number(offset + 12, 4)
        block = number(offset + 20, 2)
      }
      if id == Data("data".utf8), rate > 0, block > 0 {
        return Double(size / block) / Double(rate)
      }
      offset += 8 + size + (size & 1)
    }
    return nil
  }

  /// Whether a RIFF WAVE file's `data` chunk states more bytes than the file has.
  private static func waveEndsEarly(_ path: String) -> Bool {
    guard let bytes = FileManager.default.contents(atPath: path), bytes.count >= 12,
      bytes.prefix(4) == Data("RIFF".utf8), bytes[8..<12] == Data("WAVE".utf8)
    else { return false }
    var offset = 12
    while offset + 8 <= bytes.count {
      let id = bytes[offset..<offset + 4]
      let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
      // A size a streaming writer left unset (0, 0xFFFFFFFF, a placeholder just under 2 GiB)
      // means the data runs to the end of the file.
      let unset = size == 0 || size >= 0xFFFF_FF00 || (0x7FFF_0000...0x7FFF_FFFF).contains(size)
      if id == Data("data".utf8) { return !unset && offset + 8 + size > bytes.count }
      offset += 8 + size + (size & 1)
    }
    return false
  }
}
