import TimeStretch

/// The most input samples (frames times channels) one fuzz input pushes: 4,096 frames of 8
/// channels, 32,768 of mono (4 s at 8 kHz). At the slowest speed (0.1x, ten output frames per
/// input frame) that takes about 1 s in the instrumented build on a loaded CI machine, a tenth
/// of the fuzz run's per-input timeout, so only a real slowdown trips it. (Unbounded, a
/// 200-byte input pushed 2^18 frames of 8 channels at 0.1x and ran for 106 s.)
let maxInputSamples = 1 << 15

// Drives the stretcher with fuzzed parameters, speed changes, block sizes and samples, and
// checks the contract: no crash, finite output, and the exact total length once finished.
//
// Byte 0 picks the sample rate, byte 1 the channel count (low 3 bits), the quality (bit 6: fine,
// which does four to seven times the work, so it gets a quarter of the samples) and the mode (bit 7),
// byte 2 the starting speed; then each control byte is a live speed change (0xE0...0xFF), a
// scheduled change (0xC0...0xDF: a frame 0 to 31 frames after the previous one, at the speed
// the next byte gives; a dense speed map), or a block of samples to push.
//
// In speed-map mode (bit 7 of byte 1) live changes are skipped, so the output length is known:
// the sum over the accepted scheduled changes' intervals of input frames divided by speed,
// which the stretcher must meet within one output frame.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStretch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard bytes.count >= 4 else { return 0 }
  let rates = [8000, 11025, 22050, 44100, 48000, 96000, 192_000]
  let sampleRate = rates[Int(bytes[0]) % rates.count]
  let channels = Int(bytes[1] % 8) + 1
  let speedMap = bytes[1] & 0x80 != 0
  let quality: TimeStretcher.Quality = bytes[1] & 0x40 != 0 ? .fine : .standard
  let limit = quality == .fine ? maxInputSamples / 4 : maxInputSamples
  let speed = 0.1 + Double(bytes[2]) / 255 * 9.9
  guard
    var stretcher = try? TimeStretcher(
      sampleRate: sampleRate, channels: channels, speed: speed, quality: quality)
  else { preconditionFailure("a valid configuration was rejected") }
  var output = [Float](repeating: 0, count: 4096 * channels)
  var pulled = 0
  var pushed = 0
  var nextChange = 0
  /// The scheduled changes the stretcher accepted, by frame (a later one at a frame replaces).
  var accepted: [Int: Double] = [:]
  var index = 3
  while index < bytes.count {
    let control = bytes[index]
    index += 1
    if control & 0xE0 == 0xE0 {
      if !speedMap { try? stretcher.setSpeed(0.1 + Double(control & 0x1F) / 31 * 9.9) }
      continue
    }
    if control & 0xE0 == 0xC0 {
      nextChange += Int(control & 0x1F)
      let byte = index < bytes.count ? bytes[index] : 0
      index += 1
      let changeSpeed = 0.1 + Double(byte) / 255 * 9.9
      do {
        try stretcher.setSpeed(changeSpeed, atInputFrame: nextChange)
        accepted[nextChange] = changeSpeed
      } catch {
        // Only a frame already planned is refused.
        guard case .inputFrameInPast(_, let earliest) = error else {
          preconditionFailure("unexpected \(error)")
        }
        precondition(nextChange < earliest, "a schedulable frame was refused")
        nextChange = earliest
      }
      continue
    }
    let frames = min((Int(control) * 7) % 1500, limit / channels - pushed)
    guard frames > 0 else { continue }
    var block = [Float](repeating: 0, count: frames * channels)
    for i in block.indices {
      let byte = bytes[(index + i) % bytes.count]
      block[i] = Float(Int(byte) - 128) / 128
    }
    stretcher.push(block, frames: frames)
    pushed += frames
    while case let n = stretcher.pull(into: &output, maxFrames: 4096), n > 0 {
      for sample in output[0..<(n * channels)] { precondition(sample.isFinite, "non-finite") }
      pulled += n
    }
  }
  stretcher.finish()
  while case let n = stretcher.pull(into: &output, maxFrames: 4096), n > 0 { pulled += n }
  precondition(pulled == stretcher.totalOutputFrames, "pulled frames differ from the total")
  if speedMap {
    var ideal = 0.0
    var previous = (frame: 0, speed: speed)
    for frame in accepted.keys.sorted() where frame < pushed {
      ideal += Double(frame - previous.frame) / previous.speed
      previous = (frame, accepted[frame] ?? speed)
    }
    ideal += Double(pushed - previous.frame) / previous.speed
    precondition(abs(Double(pulled) - ideal) <= 1, "length \(pulled), the map says \(ideal)")
  }
  return 0
}
