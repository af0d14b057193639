import Testing

@testable import MediaTracks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Inputs that made FFmpeg wait, spin or open other files: each ends, quickly, with a typed
/// error or with what it declares.

private func scratch(_ name: String) -> String {
  "/tmp/mediatracks-bounded-\(getpid())-\(name)"
}

private func write(_ text: String, to path: String) throws {
  try write(Array(text.utf8), to: path)
}

private func write(_ bytes: [UInt8], to path: String) throws {
  let file = try #require(fopen(path, "wb"))
  #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
  fclose(file)
}

private func fileBytes(_ path: String) throws -> [UInt8] {
  let file = try #require(fopen(path, "rb"))
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65_536)
  while case let count = fread(&chunk, 1, chunk.count, file), count > 0 {
    bytes += chunk[0..<count]
  }
  return bytes
}

/// A named pipe, removed after `body`.
@discardableResult private func withFIFO<T>(_ name: String, _ body: (String) throws -> T) throws
  -> T
{
  let path = scratch(name)
  unlink(path)
  #expect(mkfifo(path, 0o600) == 0)
  defer { unlink(path) }
  return try body(path)
}

/// Seconds on the monotonic clock.
private func now() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

@Test func pipeWithoutWriterTimesOut() throws {
  try withFIFO("no-writer") { path in
    let start = now()
    #expect {
      _ = try MediaProbe.probe(path: path, timeout: 0.3)
    } throws: { ($0 as? MediaError)?.isTimeout == true }
    #expect {
      _ = try AudioDecoder(path: path, timeout: 0.3)
    } throws: { ($0 as? MediaError)?.isTimeout == true }
    #expect {
      _ = try SubtitleStreamReader(path: path, streamIndex: 0, timeout: 0.3).read()
    } throws: { ($0 as? MediaError)?.isTimeout == true }
    // Named like a manifest: read as one, within the timeout too.
    #expect(now() - start < 10)
  }
  try withFIFO("no-writer.m3u8") { path in
    #expect {
      _ = try MediaProbe.probe(path: path, timeout: 0.3)
    } throws: { ($0 as? MediaError)?.isTimeout == true }
  }
}

@Test func pipeThatStallsMidStreamTimesOut() throws {
  // A writer that sent the start of a WAVE file (a streaming header: its audio runs to the end
  // of the stream) and then nothing: the first read after those bytes waits for data that
  // never comes.
  var clip = try fileBytes(fixtures + "/clip.wav")
  let data = try #require(
    (12..<(clip.count - 4)).first { clip[$0..<($0 + 4)].elementsEqual("data".utf8) })
  clip.replaceSubrange((data + 4)..<(data + 8), with: [0xFF, 0xFF, 0xFF, 0xFF])
  clip.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
  try withFIFO("stall") { path in
    let writer = open(path, O_RDWR | O_NONBLOCK)
    #expect(writer >= 0)
    defer { close(writer) }
    let head = Array(clip.prefix(8192))
    #expect(head.withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count) } == head.count)
    #expect {
      var decoder = try AudioDecoder(path: path, timeout: 0.3)
      var buffer: [Float] = []
      while try decoder.read(into: &buffer, maxFrames: 4096) > 0 {}
    } throws: {
      let error = $0 as? MediaError
      return error?.isTimeout == true && error?.description.contains("timed out") == true
    }
  }
}

/// Writes `bytes` into the pipe at `path` from a thread of its own, then closes it.
private final class PipeWriter: Sendable {
  let path: String
  let bytes: [UInt8]

  init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
  }

  func run() {
    // Without blocking: if no reader comes within five seconds, give up (the test fails then
    // rather than hang).
    var descriptor: Int32 = -1
    for _ in 0..<500 {
      descriptor = open(path, O_WRONLY | O_NONBLOCK)
      if descriptor >= 0 || errno != ENXIO { break }
      usleep(10_000)
    }
    guard descriptor >= 0 else { return }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress, $0.count)
      }
      if written <= 0 { break }
      offset += written
    }
    close(descriptor)
  }

  /// Starts the thread; join it with `pthread_join`.
  func start() -> pthread_t? {
    var thread = pthread_t()
    let box = Unmanaged.passRetained(self).toOpaque()
    let code = pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        Unmanaged<PipeWriter>.fromOpaque(raw).takeRetainedValue().run()
        return nil
      }, box)
    if code != 0 {
      Unmanaged<PipeWriter>.fromOpaque(box).release()
      return nil
    }
    return thread
  }
}

@Test func pipeWithWholeFileDecodes() throws {
  // What a pipe from another program gives: the whole file, then the end.
  let clip = try fileBytes(fixtures + "/clip.wav")
  try withFIFO("whole") { path in
    let thread = try #require(PipeWriter(path: path, bytes: clip).start())
    defer { pthread_join(thread, nil) }
    var decoder = try AudioDecoder(path: path, timeout: 10)
    var buffer: [Float] = []
    var frames = 0
    while case let got = try decoder.read(into: &buffer, maxFrames: 4096), got > 0 {
      frames += got
    }
    #expect(frames > 0)
  }
}

@Test(arguments: ["/dev/zero", "/dev/urandom", "/dev/null"])
func devicesAreRefused(path: String) {
  #expect {
    _ = try MediaProbe.probe(path: path)
  } throws: { ($0 as? MediaError)?.kind == .malformed }
  #expect {
    _ = try AudioDecoder(path: path)
  } throws: { ($0 as? MediaError)?.kind == .malformed }
}

@Test(arguments: [0, -1, Double.nan, -Double.infinity])
func timeoutsMustBePositive(timeout: Double) {
  #expect {
    _ = try MediaProbe.probe(path: fixtures + "/tone.flac", timeout: timeout)
  } throws: { ($0 as? MediaError)?.kind == .invalidArgument }
  #expect {
    _ = try AudioDecoder(path: fixtures + "/clip.wav", timeout: timeout)
  } throws: { ($0 as? MediaError)?.kind == .invalidArgument }
}

@Test func generousAndUnlimitedTimeoutsProbeNormally() throws {
  let plain = try MediaProbe.probe(path: fixtures + "/multitrack.mkv")
  #expect(try MediaProbe.probe(path: fixtures + "/multitrack.mkv", timeout: .infinity) == plain)
  #expect(try MediaProbe.probe(path: fixtures + "/multitrack.mkv", timeout: 1e9) == plain)
  let batch = MediaProbe.probe(
    paths: [fixtures + "/multitrack.mkv", fixtures + "/tone.mp3"], jobs: 2, timeout: 5)
  #expect((try? batch[0].get()) == plain)
  #expect((try? batch[1].get()) != nil)
}

/// Local inputs that name other files: none of them is opened.
@Test func referencesToOtherFilesAreNotFollowed() throws {
  let secret = scratch("secret.srt")
  try write("1\n00:00:01,000 --> 00:00:02,000\nsecret\n", to: secret)
  defer { unlink(secret) }
  let lists = [
    ("concat.mkv", "ffconcat version 1.0\nfile '\(secret)'\n"),
    ("concat-url.bin", "ffconcat version 1.0\nfile 'file:\(secret)'\nfile 'concat:\(secret)'\n"),
    (
      "media-playlist.ts",
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n\(secret)\n#EXTINF:4,\nhttp://127.0.0.1:9/a.ts\n"
    ),
  ]
  for (name, text) in lists {
    let path = scratch(name)
    try write(text, to: path)
    defer { unlink(path) }
    #expect(throws: MediaError.self, "\(name)") { _ = try MediaProbe.probe(path: path) }
    #expect(throws: MediaError.self, "\(name)") { _ = try AudioDecoder(path: path) }
    #expect(throws: MediaError.self, "\(name)") {
      _ = try SubtitleStreamReader(path: path, streamIndex: 0).read()
    }
    #expect(throws: MediaError.self, "\(name) in memory") {
      _ = try MediaProbe.probe(bytes: Array(text.utf8), name: name)
    }
  }
  // A master playlist named like media lists its renditions (parsed in Swift); decoding it
  // refuses rather than fetching its media.
  let master = try fileBytes(fixtures + "/master.m3u8")
  let path = scratch("master.mp4")
  try write(master, to: path)
  defer { unlink(path) }
  #expect(try MediaProbe.probe(path: path).demuxerName == "hls")
  #expect {
    _ = try AudioDecoder(path: path)
  } throws: { ($0 as? MediaError)?.kind == .malformed }
  #expect {
    _ = try MediaProbe.probe(bytes: master, name: "master")
  } throws: { ($0 as? MediaError)?.kind == .malformed }
}

@Test func manifestsAreRecognisedByContent() throws {
  // A live manifest, without its extension, with segments on a server that is not there.
  let live = """
    \u{FEFF}  <?xml version="1.0"?>
    <!-- generated -->
    <mpd:MPD xmlns:mpd="urn:mpeg:dash:schema:mpd:2011" type="dynamic" minimumUpdatePeriod="PT2S">
    <mpd:Period><mpd:AdaptationSet mimeType="audio/mp4" lang="de"><mpd:Representation
    id="a" bandwidth="96000" codecs="mp4a.40.2"><mpd:SegmentTemplate
    media="http://127.0.0.1:9/$Number$.m4s"/></mpd:Representation></mpd:AdaptationSet>
    </mpd:Period></mpd:MPD>
    """
  let dash = scratch("live-manifest")
  try write(live, to: dash)
  defer { unlink(dash) }
  let info = try MediaProbe.probe(path: dash)
  #expect(info.demuxerName == "dash")
  #expect(info.audio.map(\.language) == ["de"])

  let hls = scratch("playlist.txt")
  try write(
    "\u{FEFF}#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"Main\",LANGUAGE=\"en\"\n",
    to: hls)
  defer { unlink(hls) }
  // The author's NAME is the label (the language goes in `language`).
  let audio = try MediaProbe.probe(path: hls).audio
  #expect(audio.map(\.label) == ["Main"])
  #expect(audio.map(\.language) == ["en"])

  // Named as a manifest but not one: refused as before, whatever it holds.
  for name in ["tone.mp3", "sample.srt"] {
    let path = scratch("fake-\(name).m3u8")
    try write(try fileBytes(fixtures + "/" + name), to: path)
    defer { unlink(path) }
    #expect {
      _ = try MediaProbe.probe(path: path)
    } throws: { ($0 as? MediaError)?.kind == .malformed }
  }
  #expect(ManifestParser.sniff(Array("<html><body>MPD</body></html>".utf8)[...]) == nil)
  #expect(ManifestParser.sniff(Array("<MPDX/>".utf8)[...]) == nil)
  #expect(ManifestParser.sniff(Array("<MPD/>".utf8)[...]) == .dash)
  #expect(ManifestParser.sniff(Array("#EXTM3U".utf8)[...]) == .hls)
  #expect(ManifestParser.sniff([0x1A, 0x45, 0xDF, 0xA3, 0x3C, 0x4D, 0x50, 0x44, 0x20][...]) == nil)
}

@Test func largeGarbageProbesWithinFFmpegsBounds() throws {
  // 12 MB of noise: FFmpeg's format probe reads at most 1 MiB of it.
  var state: UInt32 = 1
  let noise = (0..<(12 << 20)).map { _ -> UInt8 in
    state = state &* 1_664_525 &+ 1_013_904_223
    return UInt8(truncatingIfNeeded: state >> 24)
  }
  let path = scratch("noise.bin")
  try write(noise, to: path)
  defer { unlink(path) }
  #expect(throws: MediaError.self) { _ = try MediaProbe.probe(path: path) }
}

@Test func urlsAndFileURLsAreTold() {
  #expect(InputPath.url("https://example.com/a.mp4") == "https://example.com/a.mp4")
  #expect(InputPath.url("/tmp/a:b.mkv") == nil)
  #expect(InputPath.url("file:///tmp/a.mkv") == nil)
  #expect(InputPath.localPath("file:///tmp/a.mkv") == "/tmp/a.mkv")
  #expect(InputPath.localPath("file:a.mkv") == "a.mkv")
  #expect(InputPath.localPath("/tmp/a.mkv") == "/tmp/a.mkv")
}

/// A 1.7 KB MP4 (found by the Probe fuzz target) whose tables state so many entries that
/// FFmpeg asked for a 1.7 GB block while opening it. No single FFmpeg allocation may exceed
/// 512 MiB (CFFmpegLoader sets it), so it is refused as invalid data. The file also seeds the
/// Probe fuzz target, whose 512 MiB allocation limit fails the run if the cap is lost.
@Test func aHeaderStatingAHugeTableIsInvalidData() throws {
  let file = try #require(try FileBytes(path: fixtures + "/huge-table.mp4"))
  let bytes = try file.contents()
  #expect(bytes.count < 4096)
  do throws(MediaError) {
    _ = try MediaProbe.probe(bytes: bytes, name: "huge-table.mp4")
    Issue.record("probed")
  } catch {
    #expect(error.kind == .malformed)
  }
}
