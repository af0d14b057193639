import Foundation
import Testing

@testable import MediaTracks

/// An HLS subtitle rendition whose format no variant's CODECS states is listed as its first
/// segment says: a packager's TTML in fragmented MP4 (`stpp`, Shaka Packager's
/// `format=ttml+mp4` with a master that states no CODECS) was listed as WebVTT, the guess.
@Test(arguments: [
  ("mp4-text/stpp-fragmented.mp4", "ttml"), ("mp4-text/wvtt-fragmented.mp4", "webvtt"),
])
func hlsSubtitleCodecComesFromItsSegments(file: String, codec: String) throws {
  let folder = NSTemporaryDirectory() + "/mediatracks-hls-subtitle-codec-\(getpid())-\(codec)"
  let manager = FileManager.default
  try? manager.removeItem(atPath: folder)
  try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? manager.removeItem(atPath: folder) }
  try manager.copyItem(atPath: fixtures + "/" + file, toPath: folder + "/text.mp4")
  try manager.copyItem(
    atPath: fixtures + "/othertools/aac-ffmpeg.m4a", toPath: folder + "/audio.m4a")
  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
  }
  try write(
    "master.m3u8",
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",URI="a.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",URI="s.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=100000,AUDIO="a",SUBTITLES="s"
    a.m3u8

    """)
  try write(
    "a.m3u8",
    """
    #EXTM3U
    #EXT-X-TARGETDURATION:1
    #EXTINF:0.5,
    audio.m4a
    #EXT-X-ENDLIST

    """)
  try write(
    "s.m3u8",
    """
    #EXTM3U
    #EXT-X-TARGETDURATION:4
    #EXT-X-MAP:URI="text.mp4"
    #EXTINF:4,
    text.mp4
    #EXT-X-ENDLIST

    """)
  let info = try MediaProbe.probe(path: folder + "/master.m3u8")
  #expect(info.subtitles.map(\.codec) == [codec])
}
