import Testing
import TimeStretch

@Test(arguments: [0.7, 1.4])
func lowBassKeepsItsLevelAndPitch(speed: Double) throws {
  let rate = 8000
  let hz = 41.0  // a 24 ms period, longer than the default search range
  let input = sine(frequency: hz, sampleRate: rate, frames: 3 * rate)
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: speed)
  let out = s.process(input: input)
  let f = zeroCrossingFrequency(out, sampleRate: rate, from: 400, to: out.count - 400)
  #expect(abs(f - hz) < 0.1, "estimated \(f) Hz")
  var worst: Float = 0
  for start in stride(from: 400, to: out.count - 800, by: 200) {
    var peak: Float = 0
    for i in start..<(start + 200) { peak = max(peak, abs(out[i])) }
    worst = max(worst, abs(peak - 0.5))
  }
  #expect(worst < 0.01, "level off by \(worst)")
}
