import Foundation
import Testing

// mtool cues on HLS subtitle playlists of WebVTT segments: timestamps that restart after an
// #EXT-X-DISCONTINUITY, and segments that are byte ranges of one file (#EXT-X-BYTERANGE).

@Suite struct CuesHLSSegmentsTests {
  /// A new folder holding `files` (name: content), removed by `body`'s caller.
  private func folder(_ files: [String: String]) throws -> String {
    let dir = NSTemporaryDirectory() + "mtool-hls-segments-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for (name, text) in files {
      try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }
    return dir
  }

  private static func vtt(_ mpegts: Int, _ cues: String) -> String {
    "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(mpegts),LOCAL:00:00:00.000\n\n" + cues
  }

  @Test func aSegmentAfterADiscontinuityIsPlacedByThePlaylist() throws {
    let dir = try folder([
      "s0.vtt": Self.vtt(900_000, "00:00:01.000 --> 00:00:02.000\nFirst\n"),
      "s1.vtt": Self.vtt(900_000, "00:00:07.000 --> 00:00:08.000\nSecond\n"),
      // Timestamps restart after the discontinuity: 2 s, 12 s into the playlist.
      "s2.vtt": Self.vtt(180_000, "00:00:00.500 --> 00:00:01.500\nAfter\n"),
      "index.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\ns0.vtt\n#EXTINF:6.0,\n"
        + "s1.vtt\n#EXT-X-DISCONTINUITY\n#EXTINF:6.0,\ns2.vtt\n#EXT-X-ENDLIST\n",
    ])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let srt = try runMtool(["cues", dir + "/index.m3u8", "--to", "srt"])
    #expect(srt.status == 0, "\(srt.stderr)")
    #expect(
      srt.stdout == """
        1
        00:00:01,000 --> 00:00:02,000
        First

        2
        00:00:07,000 --> 00:00:08,000
        Second

        3
        00:00:12,500 --> 00:00:13,500
        After

        """)
  }

  @Test func byteRangeSegmentsAreReadAsTheirRanges() throws {
    let first = Self.vtt(900_000, "00:00:01.000 --> 00:00:02.000\nA\n\n")
    let second = Self.vtt(1_440_000, "00:00:01.000 --> 00:00:02.000\nB\n")
    let (a, b) = (first.utf8.count, second.utf8.count)
    let dir = try folder([
      "all.vtt": first + second,
      "index.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:\(a)@0\n"
        + "all.vtt\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:\(b)@\(a)\nall.vtt\n#EXT-X-ENDLIST\n",
      "next.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:\(a)@0\n"
        + "all.vtt\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:\(b)\nall.vtt\n#EXT-X-ENDLIST\n",
      "past.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:\(a)@0\n"
        + "all.vtt\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:\(b + 1)@\(a)\nall.vtt\n#EXT-X-ENDLIST\n",
      "nooffset.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:\(a)\n"
        + "all.vtt\n#EXT-X-ENDLIST\n",
    ])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let expected = """
      1
      00:00:01,000 --> 00:00:02,000
      A

      2
      00:00:07,000 --> 00:00:08,000
      B

      """
    for name in ["index.m3u8", "next.m3u8"] {
      let srt = try runMtool(["cues", dir + "/" + name, "--to", "srt"])
      #expect(srt.status == 0, "\(srt.stderr)")
      #expect(srt.stdout == expected, "\(name)")
    }
    let past = try runMtool(["cues", dir + "/past.m3u8"])
    #expect(past.status == 65)
    #expect(
      past.stderr
        == "mtool: cues: '\(dir)/past.m3u8' segment 2 ('all.vtt'): #EXT-X-BYTERANGE:"
        + "\(b + 1)@\(a) ends at byte \(a + b + 1), past the end of the file (\(a + b) bytes)\n")
    let noOffset = try runMtool(["cues", dir + "/nooffset.m3u8"])
    #expect(noOffset.status == 65)
    #expect(
      noOffset.stderr
        == "mtool: cues: '\(dir)/nooffset.m3u8' segment 1 ('all.vtt'): #EXT-X-BYTERANGE:\(a) "
        + "has no offset, and the segment before it is not a byte range of the same file\n")
  }
}
