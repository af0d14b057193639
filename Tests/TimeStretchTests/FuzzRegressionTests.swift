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

/// Replays an input of the stretcher fuzz target in its speed-map mode (see Fuzz/Stretch): the
/// frames pulled must be the map's length within one output frame.
private func replaySpeedMap(_ bytes: [UInt8]) throws -> (pulled: Int, ideal: Double) {
  let rates = [8000, 11025, 22050, 44100, 48000, 96000, 192_000]
  let channels = Int(bytes[1] % 8) + 1
  let speed = 0.1 + Double(bytes[2]) / 255 * 9.9
  var stretcher = try TimeStretcher(
    sampleRate: rates[Int(bytes[0]) % rates.count], channels: channels, speed: speed)
  var output = [Float](repeating: 0, count: 4096 * channels)
  var pulled = 0
  var pushed = 0
  var nextChange = 0
  var accepted: [Int: Double] = [:]
  var index = 3
  while index < bytes.count {
    let control = bytes[index]
    index += 1
    if control & 0xE0 == 0xE0 { continue }
    if control & 0xE0 == 0xC0 {
      nextChange += Int(control & 0x1F)
      let changeSpeed = 0.1 + Double(index < bytes.count ? bytes[index] : 0) / 255 * 9.9
      index += 1
      do {
        try stretcher.setSpeed(changeSpeed, atInputFrame: nextChange)
        accepted[nextChange] = changeSpeed
      } catch {
        guard case .inputFrameInPast(_, let earliest) = error else { throw error }
        nextChange = earliest
      }
      continue
    }
    let frames = (Int(control) * 7) % 1500
    guard frames > 0 else { continue }
    let block = (0..<(frames * channels)).map {
      Float(Int(bytes[(index + $0) % bytes.count]) - 128) / 128
    }
    stretcher.push(block, frames: frames)
    pushed += frames
    while case let n = stretcher.pull(into: &output, maxFrames: 4096), n > 0 { pulled += n }
  }
  stretcher.finish()
  while case let n = stretcher.pull(into: &output, maxFrames: 4096), n > 0 { pulled += n }
  #expect(pulled == stretcher.totalOutputFrames)
  var ideal = 0.0
  var previous = (frame: 0, speed: speed)
  for frame in accepted.keys.sorted() where frame < pushed {
    ideal += Double(frame - previous.frame) / previous.speed
    previous = (frame, accepted[frame] ?? speed)
  }
  ideal += Double(pushed - previous.frame) / previous.speed
  return (pulled, ideal)
}

@Test(arguments: [
  // Four changes within 15 frames at 48 kHz, the last two within one output frame of the
  // breakpoint before: the last one took that breakpoint over and lost its line (3 frames).
  [0x04, 0x81, 0x30, 0xC8, 0x10, 0xC4, 0xF0, 0x40, 0xC1, 0xC1, 0xC2, 0x33, 0x70] as [UInt8]
])
func fuzzedSpeedMapsKeepTheirLength(bytes: [UInt8]) throws {
  let (pulled, ideal) = try replaySpeedMap(bytes)
  #expect(abs(Double(pulled) - ideal) <= 1, "\(pulled) vs \(ideal)")
}
