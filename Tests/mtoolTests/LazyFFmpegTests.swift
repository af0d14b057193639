import Foundation
import Testing

/// FFmpeg is loaded at first use: commands that do not need it run without it, and commands
/// that need it fail with one line and exit code 1 when it cannot be loaded.

#if os(Linux)
  /// A folder holding an empty file under each FFmpeg library name on this system, so that
  /// `dlopen` of any of them through `LD_LIBRARY_PATH` fails.
  private func brokenFFmpegFolder() throws -> String {
    let folder = NSTemporaryDirectory() + "mtool-no-ffmpeg-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let places = [
      "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu",
      "/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib",
    ]
    let pattern = /lib(avutil|avcodec|avformat|swresample)\.so\.[0-9]+/
    for place in places {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []
      for name in names where name.wholeMatch(of: pattern) != nil {
        _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())
      }
    }
    return folder
  }

  /// Runs `mtool` with FFmpeg unloadable.
  private func runWithoutFFmpeg(_ arguments: [String], folder: String) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: mtoolBinary)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["LD_LIBRARY_PATH"] = folder
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  @Test func commandsThatDoNotNeedFFmpegRunWithoutIt() throws {
    let folder = try brokenFFmpegFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(try runWithoutFFmpeg(["--version"], folder: folder).status == 0)
    let cues = try runWithoutFFmpeg(["cues", fixtures + "/sample.srt"], folder: folder)
    #expect(cues.status == 0)
    let output = folder + "/out.wav"
    let stretch = try runWithoutFFmpeg(
      ["stretch", fixtures + "/clip.wav", output, "--speed", "1.5"], folder: folder)
    #expect(stretch.status == 0, "\(stretch.stderr)")
    #expect(FileManager.default.fileExists(atPath: output))
    let manifest = try runWithoutFFmpeg(["tracks", fixtures + "/master.m3u8"], folder: folder)
    #expect(manifest.status == 0, "\(manifest.stderr)")
  }

  @Test func commandsThatNeedFFmpegFailWithOneLine() throws {
    let folder = try brokenFFmpegFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let output = folder + "/out.m4a"
    let stretch = try runWithoutFFmpeg(
      ["stretch", fixtures + "/tone.flac", output, "--speed", "1.5"], folder: folder)
    #expect(stretch.status == 1)
    #expect(stretch.stderr.hasPrefix("mtool: stretch: cannot load FFmpeg: "))
    #expect(stretch.stderr.contains("libavutil.so."))
    #expect(stretch.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: output))
    let wave = try runWithoutFFmpeg(
      ["stretch", fixtures + "/clip.wav", output, "--speed", "1.5"], folder: folder)
    #expect(wave.status == 1)
    #expect(wave.stderr.hasPrefix("mtool: stretch: "))
    #expect(wave.stderr.contains("cannot load FFmpeg: "))
    #expect(wave.stderr.split(separator: "\n").count == 1)
    let tracks = try runWithoutFFmpeg(["tracks", fixtures + "/tone.mp3"], folder: folder)
    #expect(tracks.status == 65)
    #expect(tracks.stderr.contains("cannot load FFmpeg"))
    #expect(tracks.stderr.split(separator: "\n").count == 1)
  }
#endif
