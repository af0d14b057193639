#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small deterministic generator (64-bit LCG) for test signals and block sizes.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state
  }
}

/// A sine of `frequency` Hz, `frames` long, copied to every channel (interleaved).
func sine(frequency: Double, sampleRate: Int, frames: Int, channels: Int = 1) -> [Float] {
  var out = [Float](repeating: 0, count: frames * channels)
  for i in 0..<frames {
    let v = Float(0.5 * sin(2 * Double.pi * frequency * Double(i) / Double(sampleRate)))
    for c in 0..<channels {
      out[i * channels + c] = v
    }
  }
  return out
}

/// Music-like test material: a few harmonics, some noise and clicks every `clickEvery` frames.
func mixture(sampleRate: Int, frames: Int, channels: Int, clickEvery: Int, seed: UInt64) -> [Float]
{
  var rng = SeededGenerator(seed: seed)
  var out = [Float](repeating: 0, count: frames * channels)
  for i in 0..<frames {
    let t = Double(i) / Double(sampleRate)
    var v = 0.2 * sin(2 * Double.pi * 180 * t) + 0.1 * sin(2 * Double.pi * 361 * t)
    v += 0.05 * sin(2 * Double.pi * 1210 * t)
    for c in 0..<channels {
      let noise = Double(Int64(bitPattern: rng.next() >> 11) % 1000) / 1000 * 0.02
      var s = v + noise
      if i % clickEvery == clickEvery / 2 { s += 0.6 }
      out[i * channels + c] = Float(s) * (c == 1 ? 0.7 : 1)
    }
  }
  return out
}

/// The frequency (Hz) of a mono signal from its rising zero crossings (linearly interpolated)
/// between `from` and `to`.
func zeroCrossingFrequency(_ x: [Float], sampleRate: Int, from: Int, to: Int) -> Double {
  var first = -1.0
  var last = -1.0
  var count = 0
  for i in max(from, 1)..<min(to, x.count) where x[i - 1] < 0 && x[i] >= 0 {
    let t = Double(i - 1) + Double(-x[i - 1]) / Double(x[i] - x[i - 1])
    if first < 0 { first = t } else { count += 1 }
    last = t
  }
  guard count > 0 else { return 0 }
  return Double(count) / (last - first) * Double(sampleRate)
}

/// One channel of an interleaved buffer.
func channel(_ x: [Float], _ c: Int, of channels: Int) -> [Float] {
  stride(from: c, to: x.count, by: channels).map { x[$0] }
}
