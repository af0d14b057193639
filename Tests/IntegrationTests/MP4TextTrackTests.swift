import Foundation
import PlayerKit
import SubtitleParser
import Testing

@testable import MediaTracks

extension IntegrationTests {
  /// WebVTT (`wvtt`) and TTML (`stpp`) in MP4, muxed by Shaka Packager and FFmpeg from
  /// `mp4-text/cues.vtt` (Scripts/make-mp4-text-fixtures.sh): read back, they are that file's cues.
  @Suite("WebVTT and TTML in MP4: listed, read onto the neutral model")
  struct MP4TextTrackTests {
    let folder = fixtures + "/mp4-text/"

    /// The source's cues: times, identifiers, settings and plain text.
    func source() throws -> SubtitleDocument {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "cues.vtt")))
      return try WebVTT.parse(bytes)
    }

    @Test(
      "tracks lists them with their codec and sample entry",
      arguments: [
        ("wvtt-fragmented.mp4", "webvtt", "wvtt"), ("stpp-fragmented.mp4", "ttml", "stpp"),
        ("stpp-ffmpeg.mp4", "ttml", "stpp"),
      ])
    func listed(file: String, codec: String, tag: String) throws {
      let info = try MediaProbe.probe(path: folder + file)
      #expect(info.subtitles.count == 1)
      #expect(info.subtitles.first?.codec == codec)
      #expect(info.subtitles.first?.codecTag == tag)
      #expect(info.subtitles.first?.ffmpegCodec == nil)
    }

    @Test func fragmentedWebVTTIsTheSourcesCues() throws {
      let expected = try source()
      let document = try SubtitleStreamReader(path: folder + "wvtt-fragmented.mp4", streamIndex: 0)
        .document()
      #expect(document.format == .webVTT)
      #expect(document.cues.count == expected.cues.count)
      for (cue, want) in zip(document.cues, expected.cues) {
        #expect(abs(cue.startTime - want.startTime) < 1e-9)
        #expect(abs(cue.endTime - want.endTime) < 1e-9)
        #expect(cue.settings == want.settings)
        #expect(document.id(of: cue) == expected.id(of: want))
        #expect(document.text(of: cue) == expected.text(of: want))
      }
      // A player's timeline over them: two cues overlap at 1.5 s, none in the gap at 5 s.
      let timeline = CueTimeline(cues: document.cues)
      #expect(timeline.active(at: 1.5) == [0, 1])
      #expect(timeline.active(at: 5).isEmpty)
      #expect(timeline.active(at: 12.9) == [3])
      let plain = try SubtitleStreamReader(path: folder + "wvtt-fragmented.mp4", streamIndex: 0)
        .readWithMarkup()
      #expect(plain.markup == .webVTT)
      #expect(plain.cues.map(\.text) == expected.cues.map { expected.text(of: $0) })
      #expect(
        try SubtitlesPlugin.document(path: folder + "wvtt-fragmented.mp4", streamIndex: 0)
          == document)
    }

    @Test(
      "TTML in MP4 gives the source's times and text",
      arguments: ["stpp-fragmented.mp4", "stpp-ffmpeg.mp4"])
    func ttmlIsTheSourcesCues(file: String) throws {
      let expected = try source()
      let document = try SubtitleStreamReader(path: folder + file, streamIndex: 0).document()
      #expect(document.format == .ttml)
      #expect(document.cues.count == expected.cues.count)
      for (index, (cue, want)) in zip(document.cues, expected.cues).enumerated() {
        #expect(abs(cue.startTime - want.startTime) < 1e-9)
        #expect(abs(cue.endTime - want.endTime) < 1e-9)
        // FFmpeg's encoder drops the WebVTT markup; Shaka Packager keeps it as literal text.
        if file == "stpp-ffmpeg.mp4" || [1, 3].contains(index) {
          #expect(document.plainText(of: cue) == expected.plainText(of: want))
        }
      }
      #expect(CueTimeline(cues: document.cues).active(at: 10) == [3])
    }

    @Test func otherStreamsAndBadIndexesAreRefused() {
      #expect(throws: MediaError.self) {
        try SubtitleStreamReader(path: folder + "wvtt-fragmented.mp4", streamIndex: 1).document()
      }
      #expect(throws: MediaError.self) {
        try SubtitleStreamReader(path: fixtures + "/clip.wav", streamIndex: 0).document()
      }
    }
  }
}
