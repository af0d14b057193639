import MediaTracks
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Local HLS playlists whose facts live in their segments: each test builds a folder of
// playlists around copies of the committed fixtures.

/// A new empty folder for one test.
private func folder(_ name: String) -> String {
  let path = "/tmp/mediatracks-manifest-\(getpid())-\(name)"
  _ = system("rm -rf '\(path)'")
  mkdir(path, 0o755)
  return path
}

private func write(_ text: String, to path: String) {
  let file = fopen(path, "wb")
  _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
  fclose(file)
}

/// Copies a fixture into `folder` under `name` (subfolders made as needed).
private func copy(_ fixture: String, to folder: String, as name: String) {
  let target = folder + "/" + name
  _ = system("mkdir -p \"$(dirname '\(target)')\" && cp '\(fixtures)/\(fixture)' '\(target)'")
}

private func remove(_ path: String) { _ = system("rm -rf '\(path)'") }

private func mediaPlaylist(_ segments: [String], map: String? = nil, key: String? = nil) -> String {
  var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
  if let key { text += "#EXT-X-KEY:METHOD=\(key),URI=\"key.bin\"\n" }
  if let map { text += "#EXT-X-MAP:URI=\"\(map)\"\n" }
  for segment in segments { text += "#EXTINF:4.000,\n\(segment)\n" }
  return text + "#EXT-X-ENDLIST\n"
}

@Test func aMediaPlaylistListsItsFirstSegmentsTracks() throws {
  let dir = folder("media")
  defer { remove(dir) }
  copy("stereo-surround.ts", to: dir, as: "seg0.ts")
  write(mediaPlaylist(["seg0.ts", "seg1.ts", "seg2.ts"]), to: dir + "/index.m3u8")
  // Named like anything: recognised by its content.
  write(mediaPlaylist(["seg0.ts"]), to: dir + "/prog_index")
  for name in ["index.m3u8", "prog_index"] {
    let info = try MediaProbe.probe(path: dir + "/" + name)
    #expect(info.demuxerName == "hls")
    #expect(info.audio.map(\.codec) == ["mp2", "ac3"])
    #expect(info.audio.map(\.channels) == [2, 6])
    #expect(info.audio.map(\.sampleRate) == [48000, 48000])
    #expect(info.audio.map(\.language) == ["en", "fr"])
    // The same default as the segment's own: the surround track.
    #expect(info.defaultAudio == 1)
  }
  let info = try MediaProbe.probe(path: dir + "/index.m3u8")
  #expect(info.duration == 12)
  #expect(info.audio.map(\.duration) == [12, 12])
}

@Test func anInitializationSectionIsReadForFragmentedSegments() throws {
  let dir = folder("fmp4")
  defer { remove(dir) }
  copy("aac-movtext.mp4", to: dir, as: "v/init.mp4")
  write(mediaPlaylist(["seg1.m4s"], map: "init.mp4"), to: dir + "/v/index.m3u8")
  let info = try MediaProbe.probe(path: dir + "/v/index.m3u8")
  #expect(info.audio.map(\.codec) == ["aac"])
  #expect(info.audio.first?.sampleRate == 8000)
  #expect(info.subtitles.map(\.codec) == ["mov_text"])
}

@Test func aSubtitleMediaPlaylistListsItsCues() throws {
  let dir = folder("subs")
  defer { remove(dir) }
  copy("sample.vtt", to: dir, as: "subs/en/0.vtt")
  // A query string on the URI, and a percent-escaped name.
  copy("sample.vtt", to: dir, as: "subs/en/1 a.vtt")
  write(mediaPlaylist(["0.vtt?token=abc"]), to: dir + "/subs/en/a.m3u8")
  write(mediaPlaylist(["1%20a.vtt"]), to: dir + "/subs/en/b.m3u8")
  for name in ["a", "b"] {
    let info = try MediaProbe.probe(path: dir + "/subs/en/\(name).m3u8")
    #expect(info.subtitles.map(\.codec) == ["webvtt"])
    #expect(info.audio.isEmpty)
  }
}

/// Media playlists whose first segment is not read: each fails as malformed (exit 65 from the
/// command line), never an empty success.
@Test(arguments: [
  ("remote", mediaPlaylist(["https://example.com/seg0.ts"]), "not a file it may open"),
  ("absolute", mediaPlaylist(["/etc/passwd"]), "not a file it may open"),
  ("file-url", mediaPlaylist(["file:///etc/passwd"]), "not a file it may open"),
  ("outside", mediaPlaylist(["../../../../../../etc/passwd"]), "not a file it may open"),
  ("encrypted", mediaPlaylist(["seg0.ts"], key: "AES-128"), "encrypted"),
  ("empty", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-ENDLIST\n", "lists no segment"),
  ("itself", mediaPlaylist(["list.m3u8"]), "first segment"),
  ("not-media", mediaPlaylist(["notes.txt"]), "first segment"),
])
func unreadableSegmentsAreMalformed(name: String, playlist: String, message: String) throws {
  let dir = folder("bad-\(name)")
  defer { remove(dir) }
  copy("stereo-surround.ts", to: dir, as: "seg0.ts")
  write("just some notes\n", to: dir + "/notes.txt")
  write(playlist, to: dir + "/list.m3u8")
  #expect {
    _ = try MediaProbe.probe(path: dir + "/list.m3u8")
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .malformed && error.description.contains(message)
  }
}

/// A media playlist whose first segment, a relative path in its folder, names no file (copied
/// without its segments) fails as missing (exit 66 from the command line), not as malformed; a
/// path out of the folder stays refused whether it exists or not.
@Test func aMissingSegmentIsNotFound() throws {
  let dir = folder("missing-segment")
  defer { remove(dir) }
  write(mediaPlaylist(["nothing.ts"]), to: dir + "/list.m3u8")
  #expect {
    _ = try MediaProbe.probe(path: dir + "/list.m3u8")
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .notFound && error.description.contains("'nothing.ts' is missing")
  }
  // Out of the folder, a media file's name is missing too; another is refused.
  write(mediaPlaylist(["../nothing-here.ts"]), to: dir + "/up.m3u8")
  #expect {
    _ = try MediaProbe.probe(path: dir + "/up.m3u8")
  } throws: { error in
    (error as? MediaError)?.kind == .notFound
  }
  write(mediaPlaylist(["../nothing-here.key"]), to: dir + "/key.m3u8")
  #expect {
    _ = try MediaProbe.probe(path: dir + "/key.m3u8")
  } throws: { error in
    (error as? MediaError)?.kind == .malformed
  }
}

/// `Tests/Fixtures/manifest-layouts/packager` (`Scripts/make-manifest-layout-fixtures.sh`): a
/// media playlist in `video/` whose segments are `../segments/seg1.ts` and on, as packagers
/// lay them out; the reference resolves against the playlist's folder as RFC 3986 resolves
/// it, as players and ffprobe read it.
@Test func aSegmentInASiblingFolderIsRead() throws {
  let info = try MediaProbe.probe(path: fixtures + "/manifest-layouts/packager/video/index.m3u8")
  #expect(info.demuxerName == "hls")
  #expect(info.audio.map(\.codec) == ["mp2", "ac3"])
  #expect(info.audio.map(\.channels) == [2, 6])
}

/// Out of the playlist's folder only media files are opened, and no link is followed there:
/// `..` does not reach files that are not media, nor files through a link.
@Test func outOfTheFolderOnlyMediaFilesWithoutLinksAreOpened() throws {
  let dir = folder("up")
  defer { remove(dir) }
  copy("stereo-surround.ts", to: dir, as: "segments/seg1.ts")
  copy("stereo-surround.ts", to: dir, as: "segments/seg1.bin")
  copy("stereo-surround.ts", to: dir, as: "elsewhere/real.ts")
  symlink(dir + "/elsewhere/real.ts", dir + "/segments/link.ts")
  mkdir(dir + "/video", 0o755)
  let cases: [(segment: String, readable: Bool)] = [
    ("../segments/seg1.ts", true), ("./../segments/../segments/seg1.ts", true),
    ("../segments/SEG1.TS", false), ("..%2Fsegments%2Fseg1.ts", true),
    ("../segments/seg1.bin", false), ("../segments/link.ts", false),
    ("../../../../../../etc/passwd", false), ("../../../../../../etc/hostname", false),
  ]
  for (index, item) in cases.enumerated() {
    let path = dir + "/video/list\(index).m3u8"
    write(mediaPlaylist([item.segment]), to: path)
    let audio = try? MediaProbe.probe(path: path).audio.count
    #expect(audio == (item.readable ? 2 : nil), "\(item.segment)")
  }
}

/// A fragmented-MP4 media playlist copied without its `#EXT-X-MAP` file: the message names the
/// initialization section, not a "first segment" the playlist lists nowhere as one.
@Test func aMissingInitializationSectionIsNamedAsSuch() throws {
  let dir = folder("missing-map")
  defer { remove(dir) }
  write(
    "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"head.mp4\"\n#EXTINF:2.0,\n"
      + "part1.m4s\n#EXT-X-ENDLIST\n", to: dir + "/list.m3u8")
  #expect {
    _ = try MediaProbe.probe(path: dir + "/list.m3u8")
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .notFound
      && error.description.contains("initialization section (EXT-X-MAP) 'head.mp4' is missing")
  }
}

@Test func aLinkOutOfTheFolderIsNotFollowed() throws {
  let outside = folder("outside-target")
  let dir = folder("link")
  defer {
    remove(dir)
    remove(outside)
  }
  copy("stereo-surround.ts", to: outside, as: "secret.ts")
  symlink(outside + "/secret.ts", dir + "/seg0.ts")
  write(mediaPlaylist(["seg0.ts"]), to: dir + "/list.m3u8")
  #expect(throws: MediaError.self) { _ = try MediaProbe.probe(path: dir + "/list.m3u8") }
  // A link inside the folder is fine.
  copy("stereo-surround.ts", to: dir, as: "real/seg.ts")
  symlink(dir + "/real/seg.ts", dir + "/seg1.ts")
  write(mediaPlaylist(["seg1.ts"]), to: dir + "/ok.m3u8")
  #expect(try MediaProbe.probe(path: dir + "/ok.m3u8").audio.count == 2)
}

@Test func renditionFactsComeFromTheirFirstSegment() throws {
  let dir = folder("renditions")
  defer { remove(dir) }
  copy("tone.aac", to: dir, as: "audio/en/0.aac")
  write(mediaPlaylist(["0.aac"]), to: dir + "/audio/en/index.m3u8")
  copy("stereo-surround.ts", to: dir, as: "audio/fr/0.ts")
  write(mediaPlaylist(["0.ts"]), to: dir + "/audio/fr/index.m3u8")
  write(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/en/index.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Français",LANGUAGE="fr",CHANNELS="6",URI="audio/fr/index.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Remote",LANGUAGE="es",URI="https://example.com/es.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Elsewhere",LANGUAGE="it",URI="/etc/it.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="a"
    video/index.m3u8
    """, to: dir + "/master.m3u8")
  let info = try MediaProbe.probe(path: dir + "/master.m3u8")
  #expect(info.audio.map(\.label) == ["English", "Fran\u{e7}ais", "Remote", "Elsewhere"])
  // CHANNELS is missing for English: its segment says mono, 8 kHz.
  #expect(info.audio.map(\.channels) == [1, 6, 0, 0])
  #expect(info.audio.map(\.sampleRate) == [8000, 48000, 0, 0])
  #expect(info.audio.map(\.channelLayout) == ["mono", "5.1", "", ""])
  #expect(info.audio.map(\.codec) == ["aac", "aac", "aac", "aac"])
}

@Test func sampleEncryptedRenditionsAreEncrypted() throws {
  // Shaka Packager's SAMPLE-AES renditions name their key in the media playlists only (no
  // session key in the master), and their segments may not say so themselves.
  let dir = folder("sample-aes")
  defer { remove(dir) }
  copy("tone.aac", to: dir, as: "en/0.aac")
  write(mediaPlaylist(["0.aac"], key: "SAMPLE-AES"), to: dir + "/en/index.m3u8")
  copy("tone.aac", to: dir, as: "fr/0.aac")
  write(mediaPlaylist(["0.aac"]), to: dir + "/fr/index.m3u8")
  write(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",URI="en/index.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="French",LANGUAGE="fr",URI="fr/index.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="a"
    video/index.m3u8
    """, to: dir + "/master.m3u8")
  let info = try MediaProbe.probe(path: dir + "/master.m3u8")
  #expect(info.audio.map(\.encrypted) == [true, false])
  #expect(info.audio.map(\.decodable) == [false, true])
  // The default goes to the track that can be played.
  #expect(info.defaultAudio == 1)
  let media = try MediaProbe.probe(path: dir + "/en/index.m3u8")
  #expect(media.audio.map(\.encrypted) == [true])
  #expect(media.audio.map(\.decodable) == [false])
}

@Test func subtitleSegmentsInFragmentedMP4AreRefusedByName() throws {
  // Shaka Packager's default HLS text: WebVTT in fragmented MP4 behind an EXT-X-MAP. Read as
  // WebVTT text, the first segment was said to lack its signature.
  let dir = folder("wvtt-segments")
  defer { remove(dir) }
  copy("mp4-text/wvtt-fragmented.mp4", to: dir, as: "t/init.mp4")
  copy("mp4-text/wvtt-fragmented.mp4", to: dir, as: "t/1.m4s")
  let playlist = mediaPlaylist(["1.m4s"], map: "init.mp4")
  write(playlist, to: dir + "/t/index.m3u8")
  #expect {
    _ = try HLSSubtitleSegments.read(playlist: Array(playlist.utf8), at: dir + "/t/index.m3u8")
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .malformed && error.detail.contains("fragmented MP4 segments")
      && error.detail.contains("'init.mp4'")
  }
}

@Test func muxedAudioComesFromTheFirstVariantsSegment() throws {
  let dir = folder("muxed")
  defer { remove(dir) }
  copy("stereo-surround.ts", to: dir, as: "v0/0.ts")
  write(mediaPlaylist(["0.ts"]), to: dir + "/v0/index.m3u8")
  // No CODECS at all: the segment alone tells what audio there is.
  write(
    """
    #EXTM3U
    #EXT-X-STREAM-INF:BANDWIDTH=800000
    v0/index.m3u8
    """, to: dir + "/master.m3u8")
  let info = try MediaProbe.probe(path: dir + "/master.m3u8")
  #expect(info.audio.map(\.codec) == ["mp2", "ac3"])
  #expect(info.audio.map(\.language) == ["en", "fr"])
  #expect(info.audio.map(\.index) == [0, 1])
  #expect(info.audio.map(\.duration) == [nil, nil])
  // CODECS naming audio, and no local media: one track from CODECS.
  write(
    """
    #EXTM3U
    #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2"
    https://example.com/v0.m3u8
    """, to: dir + "/remote.m3u8")
  #expect(try MediaProbe.probe(path: dir + "/remote.m3u8").audio.map(\.codec) == ["aac"])
}

@Test func manyRenditionsReadABoundedNumberOfFiles() throws {
  // Renditions all without CHANNELS, each naming a local playlist that names itself as its
  // segment: a bounded number of files is read, and the answer comes back.
  let dir = folder("many")
  defer { remove(dir) }
  var master = "#EXTM3U\n"
  for index in 0..<200 {
    master += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"A\(index)\",URI=\"loop.m3u8\"\n"
  }
  write(master, to: dir + "/master.m3u8")
  write(mediaPlaylist(["loop.m3u8"]), to: dir + "/loop.m3u8")
  let info = try MediaProbe.probe(path: dir + "/master.m3u8")
  #expect(info.audio.count == 200)
  #expect(info.audio.allSatisfy { $0.channels == 0 })
}

@Test func aRenditionWithoutURIIsReadThroughItsVariant() throws {
  // The audio rendition is muxed into the variants (no URI): its facts come from the first
  // variant of its group.
  let dir = folder("no-uri")
  defer { remove(dir) }
  copy("tone.aac", to: dir, as: "v/0.aac")
  write(mediaPlaylist(["0.aac"]), to: dir + "/v/index.m3u8")
  write(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES
    #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="mp4a.40.2",AUDIO="a"
    v/index.m3u8
    """, to: dir + "/master.m3u8")
  let info = try MediaProbe.probe(path: dir + "/master.m3u8")
  #expect(info.audio.map(\.channels) == [1])
  #expect(info.audio.map(\.sampleRate) == [8000])
  #expect(info.audio.map(\.label) == ["English"])
}

@Test func aLowLatencyPlaylistWithPartsOnlyReadsItsFirstPart() throws {
  let dir = folder("parts")
  defer { remove(dir) }
  copy("stereo-surround.ts", to: dir, as: "part0.ts")
  write(
    """
    #EXTM3U
    #EXT-X-TARGETDURATION:4
    #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0
    #EXT-X-PART-INF:PART-TARGET=0.33334
    #EXT-X-MEDIA-SEQUENCE:266
    #EXT-X-PART:DURATION=0.33334,URI="part0.ts",INDEPENDENT=YES
    #EXT-X-PRELOAD-HINT:TYPE=PART,URI="part1.ts"
    """, to: dir + "/live.m3u8")
  let info = try MediaProbe.probe(path: dir + "/live.m3u8")
  #expect(info.audio.count == 2)
  // Live: no duration.
  #expect(info.duration == nil)
}

/// A master whose CODECS name AAC over segments that hold MP3 (a hand-written master over
/// GStreamer's hlssink2 output): the segment's codec, profile and bit rate are listed, with
/// its rate, not a mix of the two.
@Test func theSegmentsCodecWinsOverAWrongDeclaration() throws {
  let dir = folder("codecs")
  defer { remove(dir) }
  copy("tone.mp3", to: dir, as: "a/seg0.mp3")
  write(mediaPlaylist(["seg0.mp3"]), to: dir + "/a/index.m3u8")
  write(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",URI="a/index.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"
    v/index.m3u8
    """, to: dir + "/master.m3u8")
  let info = try MediaProbe.probe(path: dir + "/master.m3u8")
  let track = try #require(info.audio.first)
  #expect(track.codec == "mp3")
  #expect(track.profile == nil)
  #expect(track.sampleRate == 8000)
  #expect(track.channels == 1)
  #expect(track.bitRate == 8000)
}

/// `Tests/Fixtures/manifest-layouts/empty` (`Scripts/make-manifest-layout-fixtures.sh`): a
/// media playlist that lists no segment has no tracks to list (malformed: exit 65), and the
/// message says which: a complete (VOD) playlist has no media, a live one none yet.
@Test(arguments: [
  ("vod.m3u8", "is a complete HLS media playlist (#EXT-X-ENDLIST) that lists no segment"),
  ("live.m3u8", "is a live HLS media playlist that lists no segment yet"),
])
func aPlaylistWithoutSegmentsSaysWhy(name: String, message: String) throws {
  #expect {
    _ = try MediaProbe.probe(path: fixtures + "/manifest-layouts/empty/" + name)
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .malformed && error.description.contains(message)
  }
}
