// swift-tools-version:6.0
import PackageDescription

/// pkg-config's name for FFmpeg, when the build needs it. On Linux, nothing links against
/// FFmpeg (pkg-config would add `-lavformat`, which loads every FFmpeg library and their hundred
/// dependencies at start-up): the headers are on the default include path (Debian's multiarch
/// directory). Elsewhere (Homebrew, MacPorts) pkg-config finds the headers, and links the
/// libraries too.
#if os(Linux)
  let ffmpegPkgConfig: String? = nil
#else
  let ffmpegPkgConfig: String? = "libavformat"
#endif

let package = Package(
  name: "mtool",
  products: [
    .library(name: "SubtitleParser", targets: ["SubtitleParser"]),
    .library(name: "TimeStretch", targets: ["TimeStretch"]),
    .library(name: "MediaTracks", targets: ["MediaTracks"]),
    .executable(name: "mtool", targets: ["mtool"]),
  ],
  targets: [
    // FFmpeg 5.1's headers from Debian's -dev packages (the Makefile checks them with
    // pkg-config). CFFmpegLoader opens the libraries when first needed, so commands that never
    // touch FFmpeg do not pay for loading it.
    .systemLibrary(
      name: "CFFmpeg",
      path: "Sources/CFFmpeg",
      pkgConfig: ffmpegPkgConfig,
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
    // Loads FFmpeg's libraries at run time and forwards every call MediaTracks makes.
    .target(
      name: "CFFmpegLoader", dependencies: ["CFFmpeg"],
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    // SubtitleParser reads the samples of MP4 WebVTT and TTML tracks.
    .target(name: "MediaTracks", dependencies: ["CFFmpeg", "CFFmpegLoader", "SubtitleParser"]),
    .executableTarget(
      name: "mtool",
      dependencies: ["SubtitleParser", "TimeStretch", "MediaTracks"]
    ),
    .testTarget(name: "SubtitleParserTests", dependencies: ["SubtitleParser"]),
    .testTarget(name: "TimeStretchTests", dependencies: ["TimeStretch"]),
    .testTarget(name: "MediaTracksTests", dependencies: ["MediaTracks"]),
    .testTarget(
      name: "mtoolTests", dependencies: ["mtool", "MediaTracks", "SubtitleParser", "TimeStretch"]),
    .target(
      name: "PlayerKit",
      dependencies: ["SubtitleParser", "TimeStretch", "MediaTracks"],
      path: "Examples/PlayerKit"
    ),
    .executableTarget(
      name: "PlayerSession",
      dependencies: ["PlayerKit"],
      path: "Examples/PlayerSession"
    ),
    .testTarget(
      name: "IntegrationTests",
      dependencies: ["PlayerKit", "PlayerSession", "SubtitleParser", "TimeStretch", "MediaTracks"]
    ),
    .executableTarget(
      name: "SubtitleBench",
      dependencies: ["SubtitleParser", "CFFmpeg", "CFFmpegLoader"],
      path: "Benchmarks/SubtitleBench"
    ),
    .executableTarget(
      name: "TracksBench",
      dependencies: ["MediaTracks", "CFFmpeg", "CFFmpegLoader"],
      path: "Benchmarks/TracksBench"
    ),
    .executableTarget(
      name: "StretchQuality",
      dependencies: ["TimeStretch"],
      path: "Benchmarks/StretchQuality"
    ),
    .executableTarget(
      name: "ResourceBench",
      dependencies: ["SubtitleParser"],
      path: "Benchmarks/ResourceBench"
    ),
  ],
  swiftLanguageModes: [.v6]
)

// libFuzzer targets, one per file in Fuzz/<Name>/main.swift, exporting `LLVMFuzzerTestOneInput`.
// Declared only when MTOOL_FUZZ is set (see `make fuzz`): they have no `main` of their own and
// link only with `--sanitize=fuzzer`.
if Context.environment["MTOOL_FUZZ"] != nil {
  let fuzzTargets: [(String, [Target.Dependency])] = [
    ("WebVTT", ["SubtitleParser"]), ("SRT", ["SubtitleParser"]), ("CueText", ["SubtitleParser"]),
    ("Incremental", ["SubtitleParser"]), ("RoundTrip", ["SubtitleParser"]),
    ("Manifest", ["MediaTracks"]), ("Stretch", ["TimeStretch"]), ("Probe", ["MediaTracks"]),
    ("SSA", ["SubtitleParser"]),
    ("TTML", ["SubtitleParser"]), ("MP4Text", ["SubtitleParser"]),
  ]
  for (name, dependencies) in fuzzTargets {
    package.targets.append(
      .executableTarget(
        name: "Fuzz\(name)", dependencies: dependencies, path: "Fuzz/\(name)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
  }
}
