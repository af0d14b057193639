import Testing
import TimeStretch

/// Inputs the stretcher fuzz target (Fuzz/Stretch) once failed on, kept as regression tests.
/// Each pushes one block, pulls everything, finishes and pulls the rest: the frames pulled must
/// equal the exact total the stretcher reports once finished.
@Test(arguments: [
  // 819 frames of 5 channels at 22.05 kHz, speed 4.41: output was pulled past the stream's end.
  (22050, 5, 4.414_117_647_058_823_5, 819),
  (8000, 1, 9.9, 1499),
  (192_000, 8, 0.1, 7),
  (44100, 2, 5.2, 4096),
])
func pulledFramesNeverExceedTheTotal(
  sampleRate: Int, channels: Int, speed: Double, frames: Int
) throws {
  var stretcher = try TimeStretcher(sampleRate: sampleRate, channels: channels, speed: speed)
  let block = (0..<(frames * channels)).map { Float(($0 * 7919) % 256 - 128) / 128 }
  stretcher.push(block, frames: frames)
  var output = [Float](repeating: 0, count: 4096 * channels)
  var pulled = 0
  while case let n = stretcher.pull(into: &output, maxFrames: 4096), n > 0 { pulled += n }
  stretcher.finish()
  while case let n = stretcher.pull(into: &output, maxFrames: 4096), n > 0 { pulled += n }
  #expect(pulled == stretcher.totalOutputFrames)
  #expect(pulled == Int((Double(frames) / speed).rounded()))
}
