import Foundation
import Testing

/// The shared collection of real-world media (`../shared/realworld` beside the repository),
/// found from this file's path; `nil` when absent.
private let realWorld: String? = {
  var path = #filePath
  while let slash = path.lastIndex(of: "/"), !path.hasSuffix("/Tests") {
    path = String(path[..<slash])
  }
  // <repo>/Tests → <repo>/.. /shared/realworld
  let repository = URL(fileURLWithPath: path).deletingLastPathComponent()
  let folder = repository.deletingLastPathComponent().appendingPathComponent("shared/realworld")
  var isFolder: ObjCBool = false
  guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
    isFolder.boolValue
  else { return nil }
  return folder.path
}()

private let absent = "../shared/realworld is absent: the real-world media tests are skipped"

/// A real-world file's path.
private func real(_ name: String) -> String { (realWorld ?? "") + "/" + name }

/// A fresh scratch folder.
private func scratch() throws -> String {
  let path = NSTemporaryDirectory() + "mtool-realworld-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Parses a JSON object.
private func object(_ text: String) throws -> [String: Any] {
  let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
  return try #require(value as? [String: Any], "not a JSON object: \(text)")
}

/// `mtool tracks --json FILE`: the file's object.
private func tracksJSON(_ path: String) throws -> (RunResult, [String: Any]) {
  let result = try runMtool(["tracks", "--json", path])
  let document = try object(result.stdout)
  let files = try #require(document["files"] as? [[String: Any]])
  return (result, try #require(files.first))
}

private func audioTracks(_ file: [String: Any]) -> [[String: Any]] {
  file["audio"] as? [[String: Any]] ?? []
}

private func subtitleTracks(_ file: [String: Any]) -> [[String: Any]] {
  file["subtitles"] as? [[String: Any]] ?? []
}

/// `mtool stretch IN OUT --speed 1.5 --json` into a scratch folder (with `--track N` when a
/// track is given). The scratch folder is removed after the run unless `keep` (the caller
/// removes it then).
private func stretch(_ path: String, track: Int? = nil, keep: Bool = false) throws -> (
  RunResult, String
) {
  let folder = try scratch()
  let out = folder + "/o.wav"
  let chosen = track.map { ["--track", "\($0)"] } ?? []
  let result = try runMtool(["stretch", path, out, "--speed", "1.5", "--json"] + chosen)
  if !keep { try? FileManager.default.removeItem(atPath: folder) }
  return (result, out)
}

/// Removes the folder holding `file`.
private func removeFolder(of file: String) {
  let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
  try? FileManager.default.removeItem(atPath: folder)
}

// MARK: - The shared real-world files, one test each, as their README expects.

@Suite(.enabled(if: realWorld != nil, Comment(rawValue: absent)))
struct RealWorldMediaTests {
  @Test func fragmentedMP4WithAnImpossibleDurationStretches() throws {
    let (result, _) = try stretch(real("mp4_sample_fragmented.mp4"))
    #expect(result.status == 0, "\(result.stderr)")
    let summary = try object(result.stdout)
    let output = try #require(summary["outputDuration"] as? Double)
    #expect(abs(output - 0.712) < 0.005)
    // The impossible stated duration is not reported: the track's comes from its fragments
    // (ffprobe decodes 1.068 s), and the file's is its longest audio track's.
    let (_, file) = try tracksJSON(real("mp4_sample_fragmented.mp4"))
    let track = try #require(audioTracks(file).first)
    let duration = try #require(track["duration"] as? Double)
    #expect(abs(duration - 1.068) < 0.03)
    #expect(abs((file["duration"] as? Double ?? 0) - duration) < 0.001)
    // Its bit rate is its fragments' 18,257 bytes over their span (FFmpeg's, from the
    // impossible duration, was not one).
    let bitRate = try #require(track["bitRate"] as? Int)
    #expect(abs(bitRate - 136_750) < 200, "\(bitRate)")
  }

  @Test func eac3WithWrongSamplesPerFrameStretches() throws {
    let (result, out) = try stretch(real("mp4_sample_eac3.mp4"), keep: true)
    defer { removeFolder(of: out) }
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: out))
    let summary = try object(result.stdout)
    #expect(summary["channels"] as? Int == 6)
    #expect(summary["sampleRate"] as? Int == 48000)
    let input = try #require(summary["inputDuration"] as? Double)
    let output = try #require(summary["outputDuration"] as? Double)
    #expect(input > 0.25 && abs(output - input / 1.5) < 0.01)
    // The track lists the duration the decoder gives (54 sync frames of one block each), not
    // the 1,536 samples per frame its sample table states.
    let (listed, file) = try tracksJSON(real("mp4_sample_eac3.mp4"))
    #expect(listed.status == 0)
    let track = try #require((file["audio"] as? [[String: Any]])?.first)
    let duration = try #require(track["duration"] as? Double)
    #expect(abs(duration - input) < 0.001, "track \(duration) s, decoded \(input) s")
  }

  @Test func mpeghInTransportStreamIsNamedAndRefused() throws {
    let path = real("ts_sample_mpegh_lcbl_configchange_single.ts")
    let (result, out) = try stretch(path)
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("MPEG-H 3D Audio"), "\(result.stderr)")
    #expect(result.stderr.contains("no decoder"))
    #expect(!FileManager.default.fileExists(atPath: out))
    let (listing, file) = try tracksJSON(path)
    #expect(listing.status == 0)
    let track = try #require(audioTracks(file).first)
    #expect(track["codec"] as? String == "mpegh_3d_audio")
    #expect(track["ffmpegCodec"] as? String == "mp3")
    #expect(track["codecTag"] as? String == "stream_type 0x2d")
    #expect(track["decodable"] as? Bool == false)
    // FFmpeg's 44100 Hz mono is its misreading: unknown, not 0 and not a guess.
    #expect(track["sampleRate"] is NSNull)
    #expect(track["channels"] is NSNull)
    let table = try runMtool(["tracks", path])
    #expect(table.stdout.contains("mpegh_3d_audio"))
    #expect(!table.stdout.contains("0 Hz"))
  }

  @Test func mp2InMP4IsNamedByItsBitstream() throws {
    let (result, file) = try tracksJSON(real("mp4_sample_mp2_audio.mp4"))
    #expect(result.status == 0)
    let track = try #require(audioTracks(file).first)
    #expect(track["codec"] as? String == "mp2")
    #expect(track["codecTag"] as? String == "mp4a")
    #expect(track["sampleRate"] as? Int == 44100)
    #expect(track["channels"] as? Int == 1)
    #expect(track["decodable"] as? Bool == true)
    let (stretched, _) = try stretch(real("mp4_sample_mp2_audio.mp4"))
    #expect(stretched.status == 0, "\(stretched.stderr)")
  }

  @Test func dtsHDInTransportStreamIsNamedAsDeclared() throws {
    let path = real("ts_sample_dts_hd_across_pes.ts")
    let (result, file) = try tracksJSON(path)
    #expect(result.status == 0)
    let track = try #require(audioTracks(file).first)
    #expect(track["codec"] as? String == "dts")
    #expect(track["profile"] as? String == "DTS-HD")
    #expect(track["codecTag"] as? String == "stream_type 0x82")
    #expect(track["language"] as? String == "en")
    #expect(track["decodable"] as? Bool == false)
    #expect(track["sampleRate"] is NSNull)
    let (stretched, _) = try stretch(path)
    #expect(stretched.status == 65)
    #expect(stretched.stderr.contains("DTS"), "\(stretched.stderr)")
  }

  @Test func webVTTInMatroskaIsNamed() throws {
    let (result, file) = try tracksJSON(real("mkv_sample_with_vtt_subtitles.mkv"))
    #expect(result.status == 0)
    let track = try #require(subtitleTracks(file).first)
    #expect(track["codec"] as? String == "webvtt")
    #expect((track["codecTag"] as? String)?.contains("WEBVTT") == true)
    #expect(audioTracks(file).first?["codec"] as? String == "ac3")
  }

  @Test func fragmentedOpusIsWrittenAtTheDecodersRate() throws {
    let path = real("mp4_sample_opus_fragmented.mp4")
    let (result, out) = try stretch(path, keep: true)
    defer { removeFolder(of: out) }
    #expect(result.status == 0, "\(result.stderr)")
    let summary = try object(result.stdout)
    #expect(summary["sampleRate"] as? Int == 48000)
    let written = try runMtool(["tracks", "--json", out])
    let document = try object(written.stdout)
    let file = try #require((document["files"] as? [[String: Any]])?.first)
    #expect(audioTracks(file).first?["sampleRate"] as? Int == 48000)
    let (_, listed) = try tracksJSON(path)
    #expect(audioTracks(listed).first?["sampleRate"] as? Int == 48000)
  }
}

/// A live DASH manifest given to stretch (no extension) is refused as a list of other inputs
/// (exit 65), before FFmpeg's DASH demuxer could spin on it until the timeout.
@Test(.enabled(if: realWorld != nil, Comment(rawValue: absent)))
func manifestAsStretchInputIsRefused() throws {
  for name in ["mpd_sample_mpd_live", "m3u8_live_low_latency_multivariant_with_audio_renditions"] {
    let (result, _) = try stretch(real(name))
    #expect(result.status == 65, "\(name): \(result.stderr)")
    #expect(result.stderr.contains("playlist"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}

// MARK: - Truncation is still reported where the bytes end early.

@Test(arguments: ["truncated.mp4", "truncated-48k.m4a"])
func truncatedMP4IsStillRefused(name: String) throws {
  let (result, _) = try stretch(fixtures + "/" + name)
  #expect(result.status == 65)
  #expect(result.stderr.contains("truncated"), "\(result.stderr)")
}

@Test func truncatedWaveHeaderIsStillRefused() throws {
  let (result, _) = try stretch(fixtures + "/truncated-header.wav")
  #expect(result.status == 65)
}

// MARK: - Encrypted MP4 (Common Encryption), made with the ffmpeg CLI's CENC muxer.

@Test func encryptedMP4IsListedNotRefused() throws {
  let folder = try scratch()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let path = folder + "/cenc.mp4"
  let made = try runTool(
    "ffmpeg",
    [
      "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac",
      "-encryption_scheme", "cenc-aes-ctr", "-encryption_key",
      "76a6c65c5ea762046bd749a2e632ccbb", "-encryption_kid", "a7e61c373e219033c21091fa607bf3b8",
      path,
    ])
  guard made else {
    print("ffmpeg cannot write CENC MP4 here: skipped")
    return
  }
  let (result, file) = try tracksJSON(path)
  #expect(result.status == 0)
  let track = try #require(audioTracks(file).first)
  #expect(track["encrypted"] as? Bool == true)
  #expect(track["decodable"] as? Bool == false)
  #expect(track["codec"] as? String == "aac")
  #expect(track["codecTag"] as? String == "enca")
  let (stretched, _) = try stretch(path)
  #expect(stretched.status == 65)
  #expect(stretched.stderr.contains("encrypted"), "\(stretched.stderr)")
}

/// A QuickTime chapter track (a `text` handler FFmpeg keeps as data) is not a subtitle track.
@Test func mp4ChapterTrackIsNotListed() throws {
  let folder = try scratch()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let chapters = folder + "/chapters.txt"
  try Data(
    ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=500\ntitle=One\n".utf8
  ).write(to: URL(fileURLWithPath: chapters))
  let path = folder + "/chapters.m4a"
  guard
    try runTool(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-i", chapters, "-map_metadata",
        "1", "-map_chapters", "1", "-c:a", "aac", path,
      ])
  else {
    print("the ffmpeg CLI is not installed: skipped")
    return
  }
  let (result, file) = try tracksJSON(path)
  #expect(result.status == 0)
  #expect(subtitleTracks(file).isEmpty)
  #expect(audioTracks(file).count == 1)
}

// MARK: - Codecs this FFmpeg has no decoder for, declared by an MP4 sample entry.

/// An AAC MP4 made by the ffmpeg CLI whose sample entry is renamed `entry` (the same size, so
/// the file stays valid): FFmpeg 5.1 knows none of these codes' decoders.
@Test(arguments: [
  ("ac-4", "ac4", "AC-4"), ("iamf", "iamf", "IAMF"), ("dtsx", "dts_uhd", "DTS-UHD"),
  ("mhm1", "mpegh_3d_audio", "MPEG-H"),
])
func undecodableSampleEntriesAreListedAndNamed(entry: String, codec: String, name: String) throws {
  let folder = try scratch()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let path = folder + "/aac.mp4"
  guard
    try runTool(
      "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", path])
  else {
    print("the ffmpeg CLI is not installed: skipped")
    return
  }
  var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  let stsd = Array("stsd".utf8)
  let at = try #require(
    (0..<(bytes.count - 24)).first { bytes[$0..<$0 + 4].elementsEqual(stsd) })
  // stsd: type, version and flags, count, then the entry's size and type.
  bytes.replaceSubrange((at + 16)..<(at + 20), with: Array(entry.utf8))
  let patched = folder + "/" + entry + ".mp4"
  try Data(bytes).write(to: URL(fileURLWithPath: patched))
  let (result, file) = try tracksJSON(patched)
  #expect(result.status == 0, "\(result.stderr)")
  let track = try #require(audioTracks(file).first)
  #expect(track["codec"] as? String == codec)
  #expect(track["codecTag"] as? String == entry)
  #expect(track["decodable"] as? Bool == false)
  let (stretched, _) = try stretch(patched)
  #expect(stretched.status == 65)
  #expect(stretched.stderr.contains(name), "\(stretched.stderr)")
  #expect(stretched.stderr.contains("no decoder"), "\(stretched.stderr)")
}

// MARK: - MPEG-TS private streams that FFmpeg keeps as data, declared as audio.

/// AC-4 and DTS-UHD declared by DVB extension descriptors (`Scripts/make-declared-ts.py`):
/// listed as audio tracks with their codec, not decodable, and refused by stretch.
/// Writes the transport streams of `Scripts/make-declared-ts.py` into `folder`; false (and a
/// note) when python3 is missing.
private func makeDeclaredTransportStreams(in folder: String) throws -> Bool {
  let script = String(fixtures.dropLast("/Tests/Fixtures".count)) + "/Scripts/make-declared-ts.py"
  guard try runTool("python3", [script, folder]) else {
    print("python3 is not installed: skipped")
    return false
  }
  return true
}

@Test(arguments: [("ac4-private.ts", "ac4", "AC-4"), ("dtsuhd-private.ts", "dts_uhd", "DTS-UHD")])
func privateTransportStreamAudioIsListed(name: String, codec: String, shown: String) throws {
  let folder = try scratch()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  guard try makeDeclaredTransportStreams(in: folder) else { return }
  let path = folder + "/" + name
  let (result, file) = try tracksJSON(path)
  #expect(result.status == 0)
  let track = try #require(audioTracks(file).first)
  #expect(track["codec"] as? String == codec)
  #expect(track["codecTag"] as? String == "stream_type 0x06")
  #expect(track["decodable"] as? Bool == false)
  #expect(track["sampleRate"] is NSNull)
  for chosen in [nil, track["index"] as? Int] {
    let (stretched, _) = try stretch(path, track: chosen)
    #expect(stretched.status == 65)
    #expect(stretched.stderr.contains(shown), "\(stretched.stderr)")
  }
}

/// Stream type 0x86 outside Blu-ray is SCTE-35 splice information: no audio track.
@Test func scte35IsNotAudio() throws {
  let folder = try scratch()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  guard try makeDeclaredTransportStreams(in: folder) else { return }
  let (result, file) = try tracksJSON(folder + "/scte35.ts")
  #expect(result.status == 0, "\(result.stderr)")
  #expect(audioTracks(file).isEmpty)
}

/// An MPEG-TS stream whose packets are scrambled is listed as encrypted, and not decoded.
@Test func scrambledTransportStreamIsListedAsEncrypted() throws {
  let folder = try scratch()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  guard try makeDeclaredTransportStreams(in: folder) else { return }
  let path = folder + "/scrambled-ac3.ts"
  let (result, file) = try tracksJSON(path)
  #expect(result.status == 0)
  let track = try #require(audioTracks(file).first)
  #expect(track["codec"] as? String == "ac3")
  #expect(track["encrypted"] as? Bool == true)
  #expect(track["decodable"] as? Bool == false)
  // What FFmpeg read from scrambled bytes is not reported.
  #expect(track["sampleRate"] is NSNull)
  let (stretched, _) = try stretch(path)
  #expect(stretched.status == 65)
  #expect(stretched.stderr.contains("encrypted"), "\(stretched.stderr)")
}

// MARK: - Files made by other muxers than FFmpeg's, compared field by field with ffprobe.

/// Runs a program found on `PATH`; whether it exited with 0 (`false` when it is missing).
private func runTool(_ name: String, _ arguments: [String]) throws -> Bool {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [name] + arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus == 0
}

/// The other muxers' files, made once per test run by `Scripts/make-othermuxer-media.sh`.
private let otherMuxers: String = {
  let folder = NSTemporaryDirectory() + "mtool-othermuxers-\(getpid())"
  var script = #filePath
  while let slash = script.lastIndex(of: "/"), !script.hasSuffix("/Tests") {
    script = String(script[..<slash])
  }
  script = String(script.dropLast("/Tests".count)) + "/Scripts/make-othermuxer-media.sh"
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/bash")
  process.arguments = [script, folder]
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try? process.run()
  process.waitUntilExit()
  return folder
}()

/// ffprobe's streams of `path`, or `nil` when ffprobe is missing.
private func ffprobeStreams(_ path: String) throws -> [[String: Any]]? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [
    "ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json", path,
  ]
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  let value = try JSONSerialization.jsonObject(with: data) as? [String: Any]
  return value?["streams"] as? [[String: Any]]
}

/// `HH:MM:SS.fraction` as seconds.
private func clock(_ text: String) -> Double? {
  let parts = text.split(separator: ":").compactMap { Double($0) }
  return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : nil
}

/// What the container declares for each generated file's tracks, beyond what ffprobe says:
/// (file, subtitle codecs in order, audio codec tags in order).
private let declaredFacts: [String: (subtitles: [String], tags: [String?])] = [
  "mkvmerge.mkv": (["subrip", "webvtt"], ["A_MPEG/L3", "A_OPUS"]),
  "gst-opus.mka": ([], ["A_OPUS"]),
  "gst-fragmented-opus.mp4": ([], ["Opus"]),
  "gst-mp3.mp4": ([], ["mp4a"]),
]

@Test(arguments: [
  "sox.wav", "lame.mp3", "flac.flac", "opusenc.opus", "mkvmerge.mkv", "gst-vorbis.ogg",
  "gst-opus.mka", "gst.flac", "gst.wav", "gst-fragmented-opus.mp4", "gst-mp3.mp4",
])
func otherMuxersMatchFFprobeAndTheDeclarations(name: String) throws {
  let path = otherMuxers + "/" + name
  guard FileManager.default.fileExists(atPath: path) else {
    print("\(name): its generator tool is not installed here: skipped")
    return
  }
  guard let file = try matchesFFprobe(path, name: name) else { return }
  let audio = audioTracks(file)
  if let declared = declaredFacts[name] {
    #expect(subtitleTracks(file).map { $0["codec"] as? String } == declared.subtitles)
    #expect(audio.map { $0["codecTag"] as? String } == declared.tags)
  }
  if name == "mkvmerge.mkv" {
    #expect(audio.map { $0["language"] as? String } == ["fr", "en"])
    #expect(subtitleTracks(file).map { $0["language"] as? String } == ["de", "en"])
    // mkvmerge's WebVTT CodecID, which FFmpeg 5.1 does not name.
    #expect(subtitleTracks(file).last?["codecTag"] as? String == "S_TEXT/WEBVTT")
    #expect(subtitleTracks(file).last?["ffmpegCodec"] is NSNull)
  }
}

/// Real media that Debian packages ship (the freedesktop sound theme: Ogg Vorbis made by
/// other tools than FFmpeg), compared field by field with ffprobe, and stretched.
@Test func debianSoundThemeMatchesFFprobe() throws {
  let folder = "/usr/share/sounds/freedesktop/stereo"
  guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), !names.isEmpty
  else {
    print("sound-theme-freedesktop is not installed: skipped")
    return
  }
  for name in names.sorted() where name.hasSuffix(".oga") {
    _ = try matchesFFprobe(folder + "/" + name, name: name)
  }
}

/// Compares `mtool tracks --json` with ffprobe field by field for every audio track, and
/// stretches each; returns the file's object (`nil` when ffprobe is missing).
private func matchesFFprobe(_ path: String, name: String) throws -> [String: Any]? {
  guard let streams = try ffprobeStreams(path) else {
    print("ffprobe is not installed: \(name) skipped")
    return nil
  }
  let (result, file) = try tracksJSON(path)
  #expect(result.status == 0, "\(result.stderr)")
  let probedAudio = streams.filter { $0["codec_type"] as? String == "audio" }
  let audio = audioTracks(file)
  #expect(audio.count == probedAudio.count)
  for (track, probed) in zip(audio, probedAudio) {
    let ffmpegName = probed["codec_name"] as? String
    #expect(track["codec"] as? String == ffmpegName, "\(name)")
    #expect(track["ffmpegCodec"] as? String == ffmpegName)
    #expect(track["decodable"] as? Bool == true)
    #expect(track["encrypted"] as? Bool == false)
    let rate = Int(probed["sample_rate"] as? String ?? "")
    #expect(track["sampleRate"] as? Int == rate, "\(name)")
    #expect(track["channels"] as? Int == probed["channels"] as? Int, "\(name)")
    // The track's own duration: the stream's, or its DURATION tag (never the container's for
    // a file with several tracks).
    let tags = probed["tags"] as? [String: String] ?? [:]
    let stated = Double(probed["duration"] as? String ?? "") ?? tags["DURATION"].flatMap(clock)
    if let stated, let duration = track["duration"] as? Double {
      // An MP3 file's LAME tag states the encoder delay and padding the decoder drops, which
      // ffprobe counts: up to two frames and the decoder's delay shorter.
      let below = ffmpegName == "mp3" ? 0.12 : 0.06
      #expect(
        duration - stated < 0.06 && stated - duration < below, "\(name): \(duration) vs \(stated)")
    }
    if streams.count > 1 && stated == nil { #expect(track["duration"] is NSNull) }
    for key in ["codec", "codecTag", "channelLayout", "profile", "language", "title"] {
      // Unknown text is null, never "".
      #expect(track[key] as? String != "", "\(name): \(key)")
    }
    // Stretching gives the listed rate and channels.
    let (stretched, _) = try stretch(path, track: track["index"] as? Int)
    #expect(stretched.status == 0, "\(name): \(stretched.stderr)")
    if let summary = try? object(stretched.stdout) {
      #expect(summary["sampleRate"] as? Int == track["sampleRate"] as? Int, "\(name)")
      #expect(summary["channels"] as? Int == track["channels"] as? Int, "\(name)")
    }
  }
  return file
}

/// Opus decodes at 48 kHz whatever its header states (opusenc keeps the input's 22050 Hz).
@Test func opusencFileIsListedAndWrittenAt48kHz() throws {
  let path = otherMuxers + "/opusenc.opus"
  guard FileManager.default.fileExists(atPath: path) else {
    print("opusenc is not installed here: skipped")
    return
  }
  let (_, file) = try tracksJSON(path)
  #expect(audioTracks(file).first?["sampleRate"] as? Int == 48000)
  let (result, _) = try stretch(path)
  #expect(result.status == 0)
  #expect(try object(result.stdout)["sampleRate"] as? Int == 48000)
}
