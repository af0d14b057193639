import Foundation
import Testing

// mtool cues FILE --stream N: an in-media text subtitle stream, WebVTT and TTML in MP4 included.

@Suite struct CuesStreamTests {
  let folder = fixtures + "/mp4-text/"

  @Test func webVTTInFragmentedMP4ConvertsToItsSource() throws {
    let vtt = try runMtool(["cues", folder + "wvtt-fragmented.mp4", "--stream", "0", "--to", "vtt"])
    #expect(vtt.status == 0)
    let source = try String(contentsOfFile: folder + "cues.vtt", encoding: .utf8)
    // The same cues, identifiers and settings as the file it was muxed from.
    #expect(vtt.stdout == source)
  }

  /// An HLS subtitle playlist of fragmented MP4 segments (CMAF text, as Shaka Packager writes
  /// it): the initialization section and the segments, joined, read as the file they were cut
  /// from; and the same segments as byte ranges of that one file.
  @Test func anHLSPlaylistOfFragmentedMP4TextIsRead() throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "stpp-fragmented.mp4")))
    // Top-level boxes: everything before the first moof is the initialization section, and
    // each moof with the boxes after it up to the next is a segment.
    var starts: [Int] = []
    var at = 0
    var firstFragment: Int? = nil
    while at + 8 <= bytes.count {
      let size = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
      if bytes[(at + 4)..<(at + 8)].elementsEqual("moof".utf8) {
        if firstFragment == nil { firstFragment = at }
        starts.append(at)
      }
      guard size >= 8 else { break }
      at += size
    }
    let initEnd = try #require(firstFragment)
    let dir = NSTemporaryDirectory() + "mtool-cmaf-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Data(bytes[0..<initEnd]).write(to: URL(fileURLWithPath: dir + "/init.mp4"))
    var playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MAP:URI=\"init.mp4\"\n"
    for (number, start) in starts.enumerated() {
      let end = number + 1 < starts.count ? starts[number + 1] : bytes.count
      try Data(bytes[start..<end]).write(to: URL(fileURLWithPath: dir + "/\(number).m4s"))
      playlist += "#EXTINF:2,\n\(number).m4s\n"
    }
    try (playlist + "#EXT-X-ENDLIST\n").write(
      toFile: dir + "/text.m3u8", atomically: true, encoding: .utf8)
    let whole = try runMtool(["cues", folder + "stpp-fragmented.mp4", "--stream", "0"])
    let joined = try runMtool(["cues", dir + "/text.m3u8"])
    #expect(joined.status == 0, "\(joined.stderr)")
    #expect(whole.status == 0)
    #expect(joined.stdout == whole.stdout)
    #expect(joined.stdout.contains("Across two segments"))
    // One file named by every segment (byte ranges): read once, whole.
    try FileManager.default.copyItem(
      atPath: folder + "stpp-fragmented.mp4", toPath: dir + "/all.mp4")
    var ranged =
      "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MAP:URI=\"all.mp4\",BYTERANGE=\"\(initEnd)@0\"\n"
    for _ in starts { ranged += "#EXTINF:2,\n#EXT-X-BYTERANGE:100\nall.mp4\n" }
    try (ranged + "#EXT-X-ENDLIST\n").write(
      toFile: dir + "/ranged.m3u8", atomically: true, encoding: .utf8)
    let byRange = try runMtool(["cues", dir + "/ranged.m3u8"])
    #expect(byRange.status == 0, "\(byRange.stderr)")
    #expect(byRange.stdout == whole.stdout)
    // Segments that hold no text: refused, naming the playlist.
    try FileManager.default.copyItem(atPath: fixtures + "/video-only.mp4", toPath: dir + "/v.mp4")
    try "#EXTM3U\n#EXT-X-MAP:URI=\"v.mp4\"\n#EXTINF:2,\nv.mp4\n#EXT-X-ENDLIST\n".write(
      toFile: dir + "/video.m3u8", atomically: true, encoding: .utf8)
    let video = try runMtool(["cues", dir + "/video.m3u8"])
    #expect(video.status == 65)
    #expect(
      video.stderr
        == "mtool: cues: the fragmented MP4 segments of '\(dir)/video.m3u8' hold no text "
        + "subtitle track\n")
  }

  @Test func ttmlInMP4ListsItsCuesAtTheirTimes() throws {
    for file in ["stpp-fragmented.mp4", "stpp-ffmpeg.mp4"] {
      let result = try runMtool(["cues", folder + file, "--stream", "0", "--at", "10"])
      #expect(result.status == 0)
      #expect(result.stdout.contains("00:00:09.000 --> 00:00:13.000"))
      #expect(result.stdout.contains("Across two segments"))
      #expect(!result.stdout.contains("Second"))
    }
  }

  @Test func webVTTInMatroskaFromMkvmergeConvertsToWebVTT() throws {
    // CodecID S_TEXT/WEBVTT, which FFmpeg 5.1 does not name: read by the declaration, the
    // identifier and settings from each block's BlockAdditional (zlib-compressed or not).
    let mks = fixtures + "/othertools/webvtt-mkvmerge.mks"
    let vtt = try runMtool(["cues", mks, "--to", "vtt"])
    #expect(vtt.status == 0)
    #expect(
      vtt.stdout
        == "WEBVTT\n\nid1\n00:00:00.100 --> 00:00:01.000 align:start\nA <b>bold</b>\nline\n\n"
        + "00:00:01.200 --> 00:00:01.900\n&amp; two\n")
    #expect(try runMtool(["cues", mks, "--stream", "0", "--to", "vtt"]).stdout == vtt.stdout)
    let zlib = fixtures + "/othertools/webvtt-zlib-mkvmerge.mks"
    #expect(try runMtool(["cues", zlib, "--to", "vtt"]).stdout == vtt.stdout)
  }

  @Test func aMediaFileNameReadsItsDefaultTextTrack() throws {
    // multitrack.mkv: English SRT (#3) and French forced SRT (#4); neither is a default, so
    // the first is read, as --stream 3 reads it.
    let mkv = fixtures + "/multitrack.mkv"
    let plain = try runMtool(["cues", mkv, "--json"])
    #expect(plain.status == 0)
    #expect(plain.stdout == (try runMtool(["cues", mkv, "--stream", "3", "--json"])).stdout)
    #expect(plain.stdout.contains("Hello"))
    // Named from its own folder (no slash in the name), as `mtool cues movie.mkv` is typed:
    // the same (it was read as a subtitle file and refused).
    let (here, _) = try runShell("\"$M\" cues multitrack.mkv --json", in: fixtures)
    #expect(here.status == 0)
    #expect(here.stdout == plain.stdout)
    // A media file without text subtitles, a missing one and one that is not media.
    let none = try runMtool(["cues", fixtures + "/video-only.mp4"])
    #expect(none.status == 65)
    #expect(none.stderr == "mtool: cues: '\(fixtures)/video-only.mp4' has no text subtitle track\n")
    #expect(try runMtool(["cues", folder + "absent.mkv"]).status == 66)
    let junk = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(getpid()).mkv")
    try Data(repeating: 0x5A, count: 4096).write(to: junk)
    defer { try? FileManager.default.removeItem(at: junk) }
    let notMedia = try runMtool(["cues", junk.path])
    #expect(notMedia.status == 65)
    #expect(notMedia.stderr.split(separator: "\n").count == 1)
  }

  @Test func badStreamArgumentsAreUsageOrDataErrors() throws {
    let path = folder + "wvtt-fragmented.mp4"
    #expect(try runMtool(["cues", path, "--stream", "x"]).status == 64)
    #expect(try runMtool(["cues", path, "--stream", "0", "--format", "vtt"]).status == 64)
    #expect(try runMtool(["cues", "-", "--stream", "0"]).status == 64)
    let missing = try runMtool(["cues", path, "--stream", "3"])
    #expect(missing.status == 65)
    #expect(missing.stderr.split(separator: "\n").count == 1)
    #expect(try runMtool(["cues", folder + "absent.mp4", "--stream", "0"]).status == 66)
  }
}
