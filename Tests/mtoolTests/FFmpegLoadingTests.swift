import Foundation
import Testing

/// FFmpeg's libraries are opened when a command first needs them: subtitles and WAVE-only
/// stretching never load them, and a command that needs them but cannot load them fails with
/// one line naming the library. The tests put unloadable files named like FFmpeg's libraries
/// first on the loader's search path.
@Suite("FFmpeg is loaded only when needed")
struct FFmpegLoadingTests {
  /// A folder of empty files named `libavutil.so.N` (every plausible major version), and the
  /// environment that makes the dynamic loader look there first.
  private static func brokenLibraries() throws -> (folder: String, environment: [String: String]) {
    let folder = NSTemporaryDirectory() + "mtool-broken-ffmpeg-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for major in 50...80 {
      for name in ["libavutil.so.\(major)", "libavutil.\(major).dylib"] {
        #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()))
      }
    }
    return (folder, ["LD_LIBRARY_PATH": folder, "DYLD_LIBRARY_PATH": folder])
  }

  @Test("WAVE-to-WAVE stretching and subtitle commands work without FFmpeg")
  func withoutFFmpeg() throws {
    let (folder, environment) = try Self.brokenLibraries()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let out = folder + "/out.wav"
    let stretch = try runMtool(
      ["stretch", fixtures + "/clip.wav", out, "--speed", "2"], environment: environment)
    #expect(stretch.status == 0, "\(stretch.stderr)")
    let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? 0
    #expect(size > 44)
    let cues = try runMtool(
      ["cues", fixtures + "/sample.srt", "--to", "vtt"], environment: environment)
    #expect(cues.status == 0, "\(cues.stderr)")
    #expect(cues.stdout.hasPrefix("WEBVTT"))
  }

  @Test("A command that needs FFmpeg and cannot load it fails with one line")
  func cannotLoad() throws {
    let (folder, environment) = try Self.brokenLibraries()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let tracks = try runMtool(
      ["tracks", fixtures + "/multitrack.mkv"], environment: environment)
    #expect(tracks.status == 1)
    #expect(tracks.stderr.split(separator: "\n").count == 1)
    #expect(tracks.stderr.contains("cannot load FFmpeg's libavutil"), "\(tracks.stderr)")

    let out = folder + "/out.flac"
    let stretch = try runMtool(
      ["stretch", fixtures + "/clip.wav", out, "--speed", "2"], environment: environment)
    #expect(stretch.status == 1)
    #expect(stretch.stderr.split(separator: "\n").count == 1)
    #expect(stretch.stderr.contains("cannot load FFmpeg's libavutil"), "\(stretch.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))

    let decode = try runMtool(
      ["stretch", fixtures + "/tone.flac", folder + "/tone.wav", "--speed", "2"],
      environment: environment)
    #expect(decode.status == 1)
    #expect(decode.stderr.contains("cannot load FFmpeg's libavutil"), "\(decode.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/tone.wav"))
  }

  @Test("Without the broken files, the same commands load FFmpeg and succeed")
  func withFFmpeg() throws {
    let tracks = try runMtool(["tracks", fixtures + "/multitrack.mkv"])
    #expect(tracks.status == 0, "\(tracks.stderr)")
  }
}
