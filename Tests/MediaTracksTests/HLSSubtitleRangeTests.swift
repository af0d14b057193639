import MediaTracks
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// HLS subtitle playlists whose segments are byte ranges of one file (#EXT-X-BYTERANGE) or
// follow a discontinuity: what the playlist says of each segment, and the bytes read for it.
// Each test writes its small files into a folder of its own.

/// A new empty folder for one test.
private func folder(_ name: String) -> String {
  let path = "/tmp/mediatracks-hls-ranges-\(getpid())-\(name)"
  _ = system("rm -rf '\(path)'")
  mkdir(path, 0o755)
  return path
}

private func write(_ text: String, to path: String) {
  let file = fopen(path, "wb")
  _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
  fclose(file)
}

private func remove(_ path: String) { _ = system("rm -rf '\(path)'") }

/// Two WebVTT documents back to back, as one file of byte ranges holds them.
private let first =
  "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n"
  + "00:00:01.000 --> 00:00:02.000\nA\n\n"
private let second =
  "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:1440000,LOCAL:00:00:00.000\n\n"
  + "00:00:01.000 --> 00:00:02.000\nB\n"

@Test func byteRangesAndDiscontinuitiesAreParsed() throws {
  let playlist = try HLSPlaylist(
    bytes: Array(
      """
      #EXTM3U
      #EXT-X-TARGETDURATION:6
      #EXT-X-DISCONTINUITY-SEQUENCE:4
      #EXTINF:6.0,
      #EXT-X-BYTERANGE:90@0
      all.vtt
      #EXT-X-BYTERANGE:106
      #EXTINF:6.0,
      all.vtt
      #EXT-X-DISCONTINUITY
      #EXTINF:6.0,
      #EXT-X-BYTERANGE:1x2
      b.vtt
      #EXTINF:6.0,
      c.vtt

      """.utf8))
  #expect(playlist.segments.map(\.byteRange?.length) == [90, 106, nil, nil])
  #expect(playlist.segments.map(\.byteRange?.offset) == [0, nil, nil, nil])
  #expect(playlist.segments.map(\.byteRange?.text) == ["90@0", "106", "1x2", nil])
  #expect(playlist.segments.map(\.discontinuitySequence) == [4, 4, 5, 5])
}

@Test func aSegmentOfAByteRangeIsThatSubRange() throws {
  let dir = folder("ranges")
  defer { remove(dir) }
  write(first + second, to: dir + "/all.vtt")
  let firstLength = first.utf8.count
  let secondLength = second.utf8.count
  // The second range stated with its offset, and without it (right after the first).
  for secondRange in ["\(secondLength)@\(firstLength)", "\(secondLength)"] {
    let playlist =
      "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:\(firstLength)@0\n"
      + "all.vtt\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:\(secondRange)\nall.vtt\n#EXT-X-ENDLIST\n"
    let segments = try HLSSubtitleSegments.segments(
      playlist: Array(playlist.utf8), at: dir + "/index.m3u8")
    #expect(segments.map(\.bytes) == [Array(first.utf8), Array(second.utf8)])
    #expect(segments.map(\.start) == [0, 6])
    // `read` gives the same bytes.
    #expect(
      try HLSSubtitleSegments.read(playlist: Array(playlist.utf8), at: dir + "/index.m3u8")
        == [Array(first.utf8), Array(second.utf8)])
  }
}

@Test(arguments: [
  ("#EXT-X-BYTERANGE:106@100\nall.vtt\n", "ends at byte 206, past the end of the file (180 bytes)"),
  ("#EXT-X-BYTERANGE:90\nall.vtt\n", "has no offset"),
  ("#EXT-X-BYTERANGE:-5@0\nall.vtt\n", "is not a length and an optional offset"),
  // Without an offset after a range of another file.
  (
    "#EXT-X-BYTERANGE:90@0\nall.vtt\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:10\nother.vtt\n",
    "has no offset"
  ),
  // A duration no segment has, which would put the next segments' cues past any timeline.
  ("all.vtt\n#EXTINF:1e308,\nother.vtt\n", "#EXTINF of 1e+308 s is longer than a segment"),
])
func aBadByteRangeIsRefusedNamingItsSegment(segments: String, reason: String) throws {
  let dir = folder("bad-range")
  defer { remove(dir) }
  write(first + second, to: dir + "/all.vtt")
  write(first, to: dir + "/other.vtt")
  let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n" + segments + "#EXT-X-ENDLIST\n"
  #expect {
    _ = try HLSSubtitleSegments.segments(playlist: Array(playlist.utf8), at: dir + "/index.m3u8")
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .malformed && error.detail.contains("'\(dir)/index.m3u8' segment ")
      && error.detail.contains(reason) && !error.detail.contains("\n")
  }
}

@Test func segmentsKnowTheirStartAndDiscontinuitySequence() throws {
  let dir = folder("discontinuity")
  defer { remove(dir) }
  write(first, to: dir + "/a.vtt")
  write(second, to: dir + "/b.vtt")
  let playlist =
    "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\na.vtt\n#EXTINF:4.5,\nb.vtt\n"
    + "#EXT-X-DISCONTINUITY\n#EXTINF:6.0,\na.vtt\n#EXT-X-ENDLIST\n"
  let segments = try HLSSubtitleSegments.segments(
    playlist: Array(playlist.utf8), at: dir + "/index.m3u8")
  #expect(segments.map(\.start) == [0, 6, 10.5])
  #expect(segments.map(\.discontinuitySequence) == [0, 0, 1])
  #expect(segments.map(\.bytes) == [Array(first.utf8), Array(second.utf8), Array(first.utf8)])
}

/// A segment the playlist may name (beside it, with a subtitle extension) that is not there is
/// missing input (66), as any missing file is, not a file it may not open (65).
@Test func aMissingSegmentIsMissingInput() throws {
  let dir = folder("missing-segment")
  defer { remove(dir) }
  write(first, to: dir + "/a.vtt")
  let playlist =
    "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\na.vtt\n#EXTINF:6.0,\nb.vtt\n#EXT-X-ENDLIST\n"
  #expect {
    _ = try HLSSubtitleSegments.read(playlist: Array(playlist.utf8), at: dir + "/index.m3u8")
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .notFound && error.detail.contains("'b.vtt' that is missing")
  }
}
