import Testing
import TimeStretch

@Test(arguments: Array(1...8) as [UInt64], TimeStretcher.Quality.allCases)
func randomSpeedsBlocksAndMaterialStayConsistent(
  seed: UInt64, quality: TimeStretcher.Quality
) throws {
  var rng = SeededGenerator(seed: seed)
  let rate = 8000
  let channels = Int(rng.next() % 3) + 1
  let frames = 16_000
  // Silence, loud noise, clicks and tones in turn.
  var input = [Float](repeating: 0, count: frames * channels)
  for i in 0..<frames {
    let part = (i / 2000) % 4
    for c in 0..<channels {
      let noise = Float(Int64(bitPattern: rng.next()) >> 40) / Float(1 << 23)
      let v: Float
      switch part {
      case 0: v = 0
      case 1: v = noise
      case 2: v = i % 700 == 0 ? 1 : 0.001 * noise
      default: v = Float(i % 37) / 37 - 0.5
      }
      input[i * channels + c] = v
    }
  }
  var s = try TimeStretcher(sampleRate: rate, channels: channels, speed: 1, quality: quality)
  // No blow-up: the standard output stays within twice the input's peak. The fine quality's
  // vocoder, whose low band is out of phase with the spliced one's where the speed jumps
  // between 0.1x and 10x every few hundred frames over full-scale noise, peaked at 2.10.
  let bound: Float = quality == .standard ? 2 : 3
  var buffer = [Float](repeating: 0, count: 4000 * channels)
  var pulled = 0
  var pos = 0
  while pos < frames {
    let n = min(frames - pos, Int(rng.next() % 900) + 1)
    s.push(input[(pos * channels)..<((pos + n) * channels)])
    pos += n
    if rng.next() % 3 == 0 {
      try s.setSpeed(0.1 + Double(rng.next() % 990) / 100)
    }
    let got = s.pull(into: &buffer, maxFrames: Int(rng.next() % 4000))
    #expect(
      buffer[0..<(got * channels)].allSatisfy { $0.isFinite && abs($0) <= bound },
      "\(peak(buffer, got * channels))")
    pulled += got
  }
  s.finish()
  while true {
    let got = s.pull(into: &buffer, maxFrames: 4000)
    if got == 0 { break }
    #expect(
      buffer[0..<(got * channels)].allSatisfy { $0.isFinite && abs($0) <= bound },
      "\(peak(buffer, got * channels))")
    pulled += got
  }
  let points = s.breakpoints
  let last = points[points.count - 1]
  let end = Double(last.outputFrame) + (Double(frames) - last.inputFrame) / last.speed
  #expect(pulled == Int(end.rounded()))
  #expect(s.totalOutputFrames == pulled)
  for i in 1..<points.count {
    #expect(points[i].outputFrame > points[i - 1].outputFrame)
    #expect(points[i].inputFrame >= points[i - 1].inputFrame)
  }
}

private func peak(_ b: [Float], _ n: Int) -> Float { b[0..<n].map { abs($0) }.max() ?? 0 }
