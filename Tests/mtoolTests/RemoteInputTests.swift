import Foundation
import MediaTracks
import Testing

// http(s) inputs, served on 127.0.0.1 by Scripts/http-fixture-server.py (with its fault modes):
// every remote answer equals the local answer for the same files, and every fault ends within
// its deadline with the documented exit code.

/// The fixture server: a child process serving one folder, stopped when its owner is
/// deinitialised or the test process ends.
private final class FixtureServer: @unchecked Sendable {
  let process = Process()
  let port: Int
  let root: String
  let requestLog: String

  init(root: String, tls: (certificate: String, key: String)? = nil, latency: Int = 0) throws {
    self.root = root
    requestLog = root + "/.requests"
    let script = fixtures + "/../../Scripts/http-fixture-server.py"
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["python3", script, root, "--count-file", requestLog]
      + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
      + ["--latency-ms", String(latency), "--exit-on-eof"]
    let out = Pipe()
    process.standardOutput = out
    // Held open by this process: the server exits when it reaches its end, so a server whose
    // owner is never deinitialised (the suite's shared one) does not outlive the test run.
    process.standardInput = Pipe()
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
      byte != Data([0x0A])
    {
      line.append(byte)
    }
    guard let port = Int(String(decoding: line, as: UTF8.self)) else {
      process.terminate()
      throw CocoaError(.fileReadUnknown)
    }
    self.port = port
  }

  deinit { process.terminate() }

  /// The URL of `path` under the fault `mode` (`ok`, `slow`, `missing`…).
  func url(_ mode: String, _ path: String) -> String { "http://127.0.0.1:\(port)/\(mode)/\(path)" }

  /// The requests made since the log was last cleared, one line each.
  func takeRequests() -> [String] {
    let text = (try? String(contentsOfFile: requestLog, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(atPath: requestLog)
    return text.split(separator: "\n").map(String.init)
  }
}

/// A folder holding an HLS presentation whose facts live in its segments, beside the fixtures
/// served as they are.
private let site: String = {
  let dir = NSTemporaryDirectory() + "mtool-remote-\(getpid())"
  let files = FileManager.default
  try? files.removeItem(atPath: dir)
  for sub in ["audio/en", "audio/fr", "subs/en", "media", "evil"] {
    try? files.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
  }
  func write(_ text: String, _ name: String) {
    try? text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
  }
  func media(_ segments: [String]) -> String {
    "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
      + segments.map { "#EXTINF:4.0,\n\($0)\n" }.joined() + "#EXT-X-ENDLIST\n"
  }
  // The master states no codec, channels or rate: they come from the first segments.
  write(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/en/index.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Français",LANGUAGE="fr",URI="audio/fr/index.m3u8?t=1"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",URI="subs/en/index.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="a",SUBTITLES="s"
    media/video.m3u8

    """, "master.m3u8")
  write(media(["seg0.ts"]), "audio/en/index.m3u8")
  write(media(["../en/seg0.ts"]), "audio/fr/index.m3u8")
  write(media(["0.vtt"]), "subs/en/index.m3u8")
  write(media(["seg.mkv"]), "media/video.m3u8")
  for (name, target) in [
    ("audio/en/seg0.ts", "stereo-surround.ts"), ("subs/en/0.vtt", "sample.vtt"),
    ("media/seg.mkv", "multitrack.mkv"), ("clip.wav", "clip.wav"),
    ("accessibility.mkv", "accessibility.mkv"), ("sample.vtt", "sample.vtt"),
    ("sample.srt", "sample.srt"), ("manifest.mpd", "manifest.mpd"),
  ] {
    try? files.copyItem(atPath: fixtures + "/" + target, toPath: dir + "/" + name)
  }
  // A segmented WebVTT playlist: two segments, each with its X-TIMESTAMP-MAP, one cue across.
  try? files.createDirectory(atPath: dir + "/subs/two", withIntermediateDirectories: true)
  write(
    "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:01.000 --> 00:02.000\nOne\n\n"
      + "00:03.000 --> 00:05.000\nAcross\n", "subs/two/s0.vtt")
  write(
    "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:1260000,LOCAL:00:00:04.000\n\n00:03.000 --> 00:05.000\nAcross\n\n"
      + "00:05.500 --> 00:06.000\nTwo\n", "subs/two/s1.vtt")
  write(media(["s0.vtt", "s1.vtt"]), "subs/two/index.m3u8")
  write(media(["s0.vtt", "../../../../etc/passwd"]), "subs/two/escape.m3u8")
  // The same two segments as byte ranges of one file, the second range without its offset.
  let s0 = (try? String(contentsOfFile: dir + "/subs/two/s0.vtt", encoding: .utf8)) ?? ""
  let s1 = (try? String(contentsOfFile: dir + "/subs/two/s1.vtt", encoding: .utf8)) ?? ""
  write(s0 + s1, "subs/two/all.vtt")
  write(
    "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\n#EXT-X-BYTERANGE:\(s0.utf8.count)@0\n"
      + "all.vtt\n#EXTINF:4.0,\n#EXT-X-BYTERANGE:\(s1.utf8.count)\nall.vtt\n#EXT-X-ENDLIST\n",
    "subs/two/ranged.m3u8")
  // A DASH manifest that states no audio facts: the initialization segments do.
  try? files.createDirectory(atPath: dir + "/dash/media/a1", withIntermediateDirectories: true)
  try? files.copyItem(
    atPath: fixtures + "/aac-movtext.mp4", toPath: dir + "/dash/media/a1/init.mp4")
  write(
    """
    <?xml version="1.0"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S">
      <Period><BaseURL>media/</BaseURL>
        <AdaptationSet contentType="audio" lang="en">
          <Representation id="a1" bandwidth="64000">
            <SegmentTemplate initialization="$RepresentationID$/init.mp4" media="$Number$.m4s"/>
          </Representation>
        </AdaptationSet>
      </Period>
    </MPD>
    """, "dash/m.mpd")
  // Remote playlists that name local files: never read.
  write(media(["file:///etc/passwd"]), "evil/file-url.m3u8")
  write(media(["/etc/passwd"]), "evil/absolute.m3u8")
  write(media(["../../../../../../etc/passwd"]), "evil/climb.m3u8")
  write(media(["data:text/plain,hello"]), "evil/data.m3u8")
  return dir
}()

private let server = Result { try FixtureServer(root: site) }

/// The blocking probe (in an async context the async overload is chosen).
private func blockingProbe(_ path: String) throws -> MediaInfo {
  try MediaProbe.probe(path: path)
}

/// `json` with every `"path"` value (the input's name) removed, so that local and remote runs
/// compare.
private func withoutPaths(_ json: String) -> String {
  json.replacing(/"path":"[^"]*"/, with: "\"path\":\"\"")
}

@Suite("Remote inputs on a loopback server", .serialized)
struct RemoteInputTests {
  @Test(
    "tracks on a URL gives the local answer",
    arguments: [
      "master.m3u8", "audio/en/index.m3u8", "manifest.mpd", "dash/m.mpd", "accessibility.mkv",
    ])
  func tracksMatchLocal(path: String) throws {
    let server = try server.get()
    let local = try runMtool(["tracks", "--json", site + "/" + path])
    let remote = try runMtool(["tracks", "--json", server.url("ok", path)])
    #expect(local.status == 0)
    #expect(remote.status == 0, "\(remote.stderr)")
    #expect(withoutPaths(remote.stdout) == withoutPaths(local.stdout))
  }

  @Test("Facts the master omits come from the first remote segments")
  func segmentFacts() throws {
    let server = try server.get()
    let remote = try runMtool(["tracks", "--json", server.url("ok", "master.m3u8")])
    #expect(remote.stdout.contains("\"codec\":\"mp2\""))
    #expect(remote.stdout.contains("\"sampleRate\":48000"))
    #expect(remote.stdout.contains("\"codec\":\"webvtt\""))
    let dash = try runMtool(["tracks", "--json", server.url("ok", "dash/m.mpd")])
    #expect(dash.stdout.contains("\"sampleRate\":8000"), "\(dash.stdout)")
  }

  @Test("cues on a URL gives the local answer, its format from the URL's path")
  func cuesMatchLocal() throws {
    let server = try server.get()
    for name in ["sample.vtt", "sample.srt"] {
      let local = try runMtool(["cues", "--json", site + "/" + name])
      let remote = try runMtool(["cues", "--json", server.url("ok", name) + "?token=1"])
      #expect(remote.status == 0, "\(remote.stderr)")
      #expect(withoutPaths(remote.stdout) == withoutPaths(local.stdout))
    }
  }

  @Test("stretch on a URL writes what it writes from the local file")
  func stretchMatchesLocal() throws {
    let server = try server.get()
    let dir = NSTemporaryDirectory() + "mtool-remote-out-\(getpid())"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for name in ["clip.wav", "accessibility.mkv"] {
      let local = try runMtool(["stretch", site + "/" + name, dir + "/l.wav", "--speed", "1.5"])
      let remote = try runMtool([
        "stretch", server.url("ok", name), dir + "/r.wav", "--speed", "1.5",
      ])
      #expect(local.status == 0 && remote.status == 0, "\(remote.stderr)")
      let a = FileManager.default.contents(atPath: dir + "/l.wav")
      let b = FileManager.default.contents(atPath: dir + "/r.wav")
      #expect(a != nil && a == b)
    }
  }

  @Test(
    "Every fault ends within its deadline with its exit code and one stderr line",
    arguments: [
      ("missing", "master.m3u8", 66), ("gone", "sample.vtt", 66), ("error", "master.m3u8", 1),
      ("slow", "master.m3u8", 1), ("silent", "master.m3u8", 1), ("reset", "master.m3u8", 1),
      ("loop", "master.m3u8", 1), ("badlength", "master.m3u8", 1),
      ("endless", "master.m3u8", 65), ("needheader", "master.m3u8", 66),
      ("missing", "clip.wav", 66), ("slow", "clip.wav", 1), ("endless", "a.vtt", 65),
    ])
  func faults(mode: String, path: String, code: Int32) throws {
    let server = try server.get()
    let command = path.hasSuffix(".vtt") ? "cues" : "tracks"
    let started = Date()
    let result = try runMtool([command, "--timeout", "2", server.url(mode, path)])
    let seconds = Date().timeIntervalSince(started)
    #expect(result.status == code, "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(seconds < 2 + 5, "took \(seconds) s")
  }

  @Test("A retried 5xx answer, a redirect and a needed header all succeed")
  func recoverable() throws {
    let server = try server.get()
    #expect(try runMtool(["tracks", server.url("flaky", "master.m3u8")]).status == 0)
    let reset = try runMtool(["cues", "--json", server.url("flakyreset", "sample.vtt")])
    #expect(reset.status == 0, "\(reset.stderr)")
    #expect(reset.stdout.contains("\"startTime\":0.5"))
    #expect(try runMtool(["tracks", server.url("redirect", "master.m3u8")]).status == 0)
    // A compressed body is inflated, small or large.
    for name in ["audio/en/index.m3u8", "sample.vtt", "master.m3u8"] {
      let command = name.hasSuffix(".vtt") ? "cues" : "tracks"
      let plain = try runMtool([command, "--json", server.url("ok", name)])
      let gzip = try runMtool([command, "--json", server.url("gzip", name)])
      #expect(gzip.status == 0, "\(gzip.stderr)")
      #expect(withoutPaths(gzip.stdout) == withoutPaths(plain.stdout))
    }
    let token = try runMtool([
      "tracks", "--header", "X-Token: secret", server.url("needheader", "master.m3u8"),
    ])
    #expect(token.status == 0, "\(token.stderr)")
    let bad = try runMtool(["tracks", "--header", "no colon", server.url("ok", "master.m3u8")])
    #expect(bad.status == 64)
  }

  @Test(
    "A remote playlist never makes mtool read a local file",
    arguments: ["file-url", "absolute", "climb", "data"])
  func neverLocal(name: String) throws {
    let server = try server.get()
    _ = server.takeRequests()
    let result = try runMtool(["tracks", server.url("ok", "evil/\(name).m3u8")])
    #expect(result.status == 65, "\(result.stderr)")
    #expect(!result.stdout.contains("root:"))
    // An absolute path or a climb resolves on the server, which has no such file.
    let requests = server.takeRequests()
    #expect(requests.allSatisfy { $0.hasPrefix("GET /") }, "\(requests)")
  }

  @Test("The async entry points give the blocking answers")
  func asyncAnswers() async throws {
    let server = try server.get()
    let blocking = try blockingProbe(server.url("ok", "master.m3u8"))
    let awaited = try await MediaProbe.probe(path: server.url("ok", "master.m3u8"))
    #expect(awaited == blocking)
    let bytes = try await RemoteFile.fetch(server.url("ok", "sample.vtt"))
    #expect(bytes == Array(try Data(contentsOf: URL(fileURLWithPath: site + "/sample.vtt"))))
    do {
      _ = try await RemoteFile.fetch(server.url("missing", "sample.vtt"))
      Issue.record("a 404 answer gave bytes")
    } catch {
      #expect(error.kind == .notFound)
    }
  }

  @Test("Cancelling the task ends a stalled probe or transfer at once, as cancelled")
  func cancellation() async throws {
    let server = try server.get()
    for url in [server.url("silent", "master.m3u8"), server.url("slow", "clip.wav")] {
      let started = Date()
      let task = Task { () async throws(MediaError) -> MediaInfo in
        try await MediaProbe.probe(path: url, timeout: 60)
      }
      try await Task.sleep(for: .milliseconds(300))
      task.cancel()
      let result = await task.result
      let seconds = Date().timeIntervalSince(started)
      guard case .failure(let error) = result else {
        Issue.record("a stalled server gave an answer")
        continue
      }
      #expect((error as? MediaError)?.isCancelled == true, "\(error)")
      // Far inside the 60 s timeout: cancellation, not the deadline, ended it. (6 s were seen
      // under AddressSanitizer on a loaded 2-core machine, so the bound leaves room for that.)
      #expect(seconds < 20, "took \(seconds) s")
    }
    let fetch = Task { () async throws(MediaError) -> [UInt8] in
      try await RemoteFile.fetch(server.url("slow", "sample.vtt"), timeout: 60)
    }
    try await Task.sleep(for: .milliseconds(300))
    fetch.cancel()
    guard case .failure(let error) = await fetch.result else {
      Issue.record("a slow transfer completed")
      return
    }
    #expect((error as? MediaError)?.isCancelled == true, "\(error)")
  }

  @Test("An HLS subtitle playlist's WebVTT segments are one document, local or remote")
  func segmentedSubtitles() throws {
    let server = try server.get()
    let local = try runMtool(["cues", "--json", site + "/subs/two/index.m3u8"])
    let remote = try runMtool(["cues", "--json", server.url("ok", "subs/two/index.m3u8")])
    #expect(local.status == 0, "\(local.stderr)")
    #expect(withoutPaths(remote.stdout) == withoutPaths(local.stdout))
    let srt = try runMtool(["cues", site + "/subs/two/index.m3u8", "--to", "srt"])
    #expect(
      srt.stdout == """
        1
        00:00:01,000 --> 00:00:02,000
        One

        2
        00:00:03,000 --> 00:00:05,000
        Across

        3
        00:00:05,500 --> 00:00:06,000
        Two

        """)
    // A master playlist names the subtitle playlists to give; a segment out of the folder is
    // never read.
    let master = try runMtool(["cues", site + "/master.m3u8"])
    #expect(master.status == 65)
    #expect(master.stderr.contains("subs/en/index.m3u8"))
    let escape = try runMtool(["cues", site + "/subs/two/escape.m3u8"])
    #expect(escape.status == 65)
    #expect(!escape.stdout.contains("root:"))
    // Byte ranges of one file, local or remote: the same document as the two files.
    let ranged = try runMtool(["cues", site + "/subs/two/ranged.m3u8", "--to", "srt"])
    let remoteRanged = try runMtool([
      "cues", server.url("ok", "subs/two/ranged.m3u8"), "--to", "srt",
    ])
    #expect(ranged.status == 0, "\(ranged.stderr)")
    #expect(ranged.stdout == srt.stdout)
    #expect(remoteRanged.status == 0, "\(remoteRanged.stderr)")
    #expect(remoteRanged.stdout == srt.stdout)
  }

  @Test("https: a certificate the authorities do not vouch for is refused; --cacert trusts one")
  func https() throws {
    let dir = NSTemporaryDirectory() + "mtool-tls-\(getpid())"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    openssl.arguments = [
      "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir + "/key.pem",
      "-out", dir + "/cert.pem", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext",
      "subjectAltName=IP:127.0.0.1",
    ]
    openssl.standardError = FileHandle.nullDevice
    try openssl.run()
    openssl.waitUntilExit()
    try #require(openssl.terminationStatus == 0)
    let server = try FixtureServer(root: site, tls: (dir + "/cert.pem", dir + "/key.pem"))
    let url = server.url("ok", "master.m3u8").replacing("http://", with: "https://")
    let refused = try runMtool(["tracks", "--timeout", "5", url])
    #expect(refused.status != 0)
    #expect(refused.stdout.isEmpty)
    let trusted = try runMtool(["tracks", "--json", "--cacert", dir + "/cert.pem", url])
    let plain = try runMtool(["tracks", "--json", site + "/master.m3u8"])
    #expect(trusted.status == 0, "\(trusted.stderr)")
    #expect(withoutPaths(trusted.stdout) == withoutPaths(plain.stdout))
  }

  @Test("A remote item ends within the timeout in all, however many requests each keep to it")
  func wholeItemDeadline() throws {
    // Each answer takes 0.8 s, under the 1.5 s timeout; the master, its rendition playlists
    // and their segments take three round trips, 2.4 s.
    // When the time is up while facts the master omits are being read, the tracks are listed
    // with what the master declares (the rest unknown): a menu in time.
    let slow = try FixtureServer(root: site, latency: 800)
    let started = Date()
    let result = try runMtool([
      "tracks", "--json", "--timeout", "1.5", slow.url("ok", "master.m3u8"),
    ])
    let seconds = Date().timeIntervalSince(started)
    #expect(seconds < 2.3, "took \(seconds) s")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\"title\":\"Français\""))
    #expect(!result.stdout.contains("\"codec\":\"mp2\""))
    // With time enough, the facts the segments hold.
    let patient = try runMtool([
      "tracks", "--json", "--timeout", "10", slow.url("ok", "master.m3u8"),
    ])
    #expect(patient.status == 0, "\(patient.stderr)")
    #expect(patient.stdout.contains("\"codec\":\"mp2\""))
    // A master that itself takes longer than the whole timeout is a timeout.
    let late = try runMtool(["tracks", "--timeout", "0.5", slow.url("ok", "master.m3u8")])
    #expect(late.status == 1)
    #expect(late.stderr.contains("timed out"))
  }
}
