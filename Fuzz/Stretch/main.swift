import TimeStretch

// Drives the stretcher with fuzzed parameters, speed changes, block sizes and samples, and
// checks the contract: no crash, finite output, and the exact total length once finished.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStretch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard bytes.count >= 4 else { return 0 }
  let rates = [8000, 11025, 22050, 44100, 48000, 96000, 192_000]
  let sampleRate = rates[Int(bytes[0]) % rates.count]
  let channels = Int(bytes[1] % 8) + 1
  let speed = 0.1 + Double(bytes[2]) / 255 * 9.9
  guard var stretcher = try? TimeStretcher(sampleRate: sampleRate, channels: channels, speed: speed)
  else { preconditionFailure("a valid configuration was rejected") }
  var output = [Float](repeating: 0, count: 4096 * channels)
  var pulled = 0
  var index = 3
  while index < bytes.count {
    let control = bytes[index]
    index += 1
    if control & 0xE0 == 0xE0 {
      try? stretcher.setSpeed(0.1 + Double(control & 0x1F) / 31 * 9.9)
      continue
    }
    let frames = (Int(control) * 7) % 1500
    var block = [Float](repeating: 0, count: frames * channels)
    for i in block.indices {
      let byte = bytes[(index + i) % bytes.count]
      block[i] = Float(Int(byte) - 128) / 128
    }
    stretcher.push(block, frames: frames)
    while case let n = stretcher.pull(into: &output, maxFrames: 4096), n > 0 {
      for sample in output[0..<(n * channels)] { precondition(sample.isFinite, "non-finite") }
      pulled += n
    }
  }
  stretcher.finish()
  while case let n = stretcher.pull(into: &output, maxFrames: 4096), n > 0 { pulled += n }
  precondition(pulled == stretcher.totalOutputFrames, "pulled frames differ from the total")
  return 0
}
