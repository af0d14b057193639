// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "mtool",
  products: [
    .library(name: "SubtitleParser", targets: ["SubtitleParser"]),
    .library(name: "TimeStretch", targets: ["TimeStretch"]),
    .library(name: "MediaTracks", targets: ["MediaTracks"]),
    .executable(name: "mtool", targets: ["mtool"]),
  ],
  targets: [
    // FFmpeg 5.1 from Debian's -dev packages, found through pkg-config.
    .systemLibrary(
      name: "CFFmpeg",
      path: "Sources/CFFmpeg",
      pkgConfig: "libavformat",
      providers: [
        .apt([
          "libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev", "pkg-config",
        ])
      ]
    ),
    // Pure Swift: standard library and the platform C library only.
    .target(name: "SubtitleParser"),
    // Pure Swift: standard library and the platform C math library only.
    .target(name: "TimeStretch"),
    // The only module that talks to FFmpeg.
    .target(name: "MediaTracks", dependencies: ["CFFmpeg"]),
    .executableTarget(
      name: "mtool",
      dependencies: ["SubtitleParser", "TimeStretch", "MediaTracks"]
    ),
    .testTarget(name: "SubtitleParserTests", dependencies: ["SubtitleParser"]),
    .testTarget(name: "TimeStretchTests", dependencies: ["TimeStretch"]),
    .testTarget(name: "MediaTracksTests", dependencies: ["MediaTracks"]),
    .testTarget(name: "mtoolTests", dependencies: ["mtool"]),
    .executableTarget(
      name: "SubtitleBench",
      dependencies: ["SubtitleParser", "MediaTracks"],
      path: "Benchmarks/SubtitleBench"
    ),
    .executableTarget(
      name: "TracksBench",
      dependencies: ["MediaTracks", "CFFmpeg"],
      path: "Benchmarks/TracksBench"
    ),
    .executableTarget(
      name: "StretchQuality",
      dependencies: ["TimeStretch"],
      path: "Benchmarks/StretchQuality"
    ),
  ],
  swiftLanguageModes: [.v6]
)
