import Testing

@testable import TimeStretch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Drum-machine-like material: kicks, snares and hats over a bass line, dense in onsets.
private func drumLoop(sampleRate: Int, frames: Int) -> [Float] {
  var rng = SeededGenerator(seed: 42)
  var out = [Float](repeating: 0, count: frames)
  let beat = sampleRate / 8
  for i in 0..<frames {
    let t = Double(i) / Double(sampleRate)
    let inBeat = i % beat
    let beatIndex = i / beat
    let tb = Double(inBeat) / Double(sampleRate)
    var v = 0.15 * sin(2 * Double.pi * (beatIndex % 4 < 2 ? 55 : 73.4) * t)
    let noise = Double(Int64(bitPattern: rng.next()) >> 11) / Double(1 << 52)
    switch beatIndex % 4 {
    case 0: v += 0.6 * exp(-tb * 30) * sin(2 * Double.pi * 60 * tb)
    case 2: v += 0.4 * exp(-tb * 40) * noise
    default: v += 0.2 * exp(-tb * 200) * noise
    }
    out[i] = Float(v)
  }
  return out
}

@Test(arguments: [0.5, 0.8, 1.5, 2.0])
func segmentsStayNearTheIdealTimeline(speed: Double) throws {
  let rate = 16_000
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: speed)
  s.push(drumLoop(sampleRate: rate, frames: 2 * rate))
  s.finish()
  var worst = 0.0
  var worstNearOnset = 0.0
  while s.delivered < s.total {
    let k = s.segment
    let ideal = s.idealPosition(k, s.map.last)
    s.readyCount = 0
    guard s.produceSegment() else { break }
    if k >= 1 {
      s.delivered += s.hop
    }
    let error = abs(s.previous - ideal)
    worstNearOnset = max(worstNearOnset, error)
    if s.lastEmitted == Int.min || abs(Double(s.lastEmitted) - s.previous) > Double(3 * s.window) {
      worst = max(worst, error)
    }
  }
  #expect(worst <= Double(s.radius) + 1e-9)
  #expect(worstNearOnset <= Double(s.behind) + 1e-9)
}
