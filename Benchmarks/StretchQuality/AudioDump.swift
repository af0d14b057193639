// The audio behind the benchmark report's spectrograms (Scripts/bench-report.py): with
// `--audio-out DIR`, the input, the ideal stretch and every tool's output for three signals at
// one speed each, as 32-bit float WAV files in DIR:
//
//   SIGNAL-SPEEDx-input.wav, SIGNAL-SPEEDx-ideal.wav, SIGNAL-SPEEDx-TOOL.wav
//
// SIGNAL is `clicks`, `music` or `white`; TOOL is the tool's name with every character other
// than a letter or a digit replaced by '-' (`mtool--ours-`, `Rubber-Band-R3`). A tool that
// fails on a signal has no file for it. The outputs are the same stretches the tables measure,
// made again for the files.
import Foundation

/// The folder given with `--audio-out`, or nil when the audio is not kept.
let audioOutPath: String? = CommandLine.arguments.firstIndex(of: "--audio-out").flatMap {
  $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
}

/// The file-name form of a tool's name: letters and digits kept, anything else '-'.
func audioFileName(_ name: String) -> String {
  String(name.map { $0.isLetter || $0.isNumber ? $0 : "-" })
}

/// Writes the input, the ideal and each tool's output of the click train at 0.5x, the music
/// mix at 1.5x and white noise at 0.5x into `directory` (created when missing). Prints one line
/// per file that cannot be written and goes on.
@MainActor func dumpAudio(to directory: String, tools: [Tool]) {
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let white = mono(whiteNoise(frames: inputFrames))
  let cases: [(signal: String, speed: Double, input: Audio, ideal: (Int) -> Audio)] = [
    (
      "clicks", 0.5, clickInput,
      { n in
        clicks(frames: n, at: clickPositions.map { Int((Double($0) / 0.5).rounded()) })
      }
    ),
    ("music", 0.5, musicInput, { n in mono(musicMix(frames: n, scale: 0.5)) }),
    ("music", 1.5, musicInput, { n in mono(musicMix(frames: n, scale: 1.5)) }),
    ("music", 2.0, musicInput, { n in mono(musicMix(frames: n, scale: 2.0)) }),
    ("music", 3.0, musicInput, { n in mono(musicMix(frames: n, scale: 3.0)) }),
    // Noise has no single ideal: the same generator, as long as the stretched output should be.
    ("white", 0.5, white, { n in mono(whiteNoise(frames: n)) }),
  ]
  var written = 0
  for (signal, speed, input, ideal) in cases {
    let prefix = "\(directory)/\(signal)-\(speed)x-"
    var files: [(String, Audio)] = [("input", input), ("ideal", ideal(outputLength(speed)))]
    for tool in tools {
      if let output = stretch(tool, signal, input, speed: speed) {
        files.append((audioFileName(tool.name), output))
      }
    }
    for (who, audio) in files {
      do {
        try writeWave(audio, to: prefix + who + ".wav")
        written += 1
      } catch {
        print("(cannot write \(prefix + who).wav: \(error))")
      }
    }
  }
  print("\n\(written) WAV files for the report's spectrograms in \(directory)")
}
