import Testing
@testable import TimeStretch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// C4, E4 and G4 (equal temperament), 0.2 each: their sum beats and repeats only about every
/// 15 ms, longer than one tone's period.
private let notes = [261.63, 329.63, 392.0]

private func chord(sampleRate: Int, frames: Int) -> [Float] {
  (0..<frames).map { i in
    let t = Double(i) / Double(sampleRate)
    return Float(notes.reduce(0.0) { $0 + 0.2 * sin(2 * Double.pi * $1 * t) })
  }
}

/// The share of `x`'s power (Hann-weighted) at `frequencies`, each within ±1 % (a splicing
/// stretcher moves each tone of a chord by a few cents, as FFmpeg's atempo does): the largest
/// DFT amplitude found there, in steps of a quarter of the DFT's resolution.
private func powerShare(_ x: ArraySlice<Float>, at frequencies: [Double], sampleRate: Int) -> Double
{
  let samples = Array(x)
  let n = samples.count
  let window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n - 1)) }
  let weights = window.reduce(0, +)
  var total = 0.0
  for k in 0..<n { total += Double(samples[k]) * Double(samples[k]) * window[k] }
  let step = 0.25 * Double(sampleRate) / Double(n)
  var atNotes = 0.0
  for frequency in frequencies {
    var best = 0.0
    let steps = Int(0.01 * frequency / step)
    for offset in -steps...steps {
      let f = frequency + Double(offset) * step
      var re = 0.0
      var im = 0.0
      for k in 0..<n {
        let s = Double(samples[k]) * window[k]
        let phase = 2 * Double.pi * f * Double(k) / Double(sampleRate)
        re += s * cos(phase)
        im -= s * sin(phase)
      }
      best = max(best, 2 * (re * re + im * im).squareRoot() / weights)
    }
    atNotes += best * best / 2
  }
  return atNotes / (total / weights)
}

@Test(arguments: [0.5, 1.25, 1.5, 2.0])
func aChordKeepsItsNotes(speed: Double) throws {
  // Two faults once garbled chords, leaving 8-16 % of the power at the notes: the beats of the
  // tones, whose short-time energy returns from near zero every few milliseconds, were taken
  // for onsets (played without the similarity search), and the drift budget kept the search
  // within 2 ms, shorter than the chord's period.
  let rate = 16_000
  let input = chord(sampleRate: rate, frames: 3 * rate)
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: speed)
  let out = s.process(input: input)
  let middle = out[(out.count / 2 - rate / 2)..<(out.count / 2 + rate / 2)]
  let share = powerShare(middle, at: notes, sampleRate: rate)
  #expect(share > 0.95, "\(share * 100) % of the power at the notes")
}

@Test(arguments: [0.5, 1.5, 2.0])
func channelsInOppositePolarityKeepTheirPitch(speed: Double) throws {
  // Left = −right: the channels' sum, which the similarity search followed, is silence, so
  // segments were joined anywhere (a 440 Hz tone came out near 460 Hz among noise).
  let rate = 16_000
  let mono = sine(frequency: 440, sampleRate: rate, frames: 2 * rate)
  var input = [Float](repeating: 0, count: 2 * mono.count)
  for i in mono.indices {
    input[2 * i] = mono[i]
    input[2 * i + 1] = -mono[i]
  }
  var s = try TimeStretcher(sampleRate: rate, channels: 2, speed: speed)
  let out = s.process(input: input)
  let left = stride(from: 0, to: out.count, by: 2).map { out[$0] }
  let frequency = zeroCrossingFrequency(left, sampleRate: rate, from: 800, to: left.count - 800)
  #expect(abs(frequency - 440) < 0.5, "estimated \(frequency) Hz")
  let middle = left[(left.count / 2 - rate / 4)..<(left.count / 2 + rate / 4)]
  let share = powerShare(middle, at: [440], sampleRate: rate)
  #expect(share > 0.99, "\(share * 100) % of the power at 440 Hz")
}

@Test(arguments: [2, 3])
func polarityTurnsDoNotDependOnBlockSizes(channels: Int) throws {
  // The first channel against the others turns polarity every 0.3 s, so the similarity signal
  // turns sign several times, each at a point that must not depend on how the input was split.
  let rate = 16_000
  let frames = 2 * rate
  let tone = sine(frequency: 330, sampleRate: rate, frames: frames)
  let noise = mixture(sampleRate: rate, frames: frames, channels: 1, clickEvery: 5000, seed: 3)
  var input = [Float](repeating: 0, count: channels * frames)
  for i in 0..<frames {
    let sign: Float = (i / (rate * 3 / 10)) % 2 == 0 ? 1 : -1
    input[channels * i] = tone[i] + 0.1 * noise[i]
    for c in 1..<channels {
      input[channels * i + c] = sign * tone[i] / Float(channels - 1)
    }
  }
  var whole = try TimeStretcher(sampleRate: rate, channels: channels, speed: 1.5)
  let expected = whole.process(input: input)
  // The sign does turn: minus late in the second 0.3 s, plus again late in the third.
  var probe = try TimeStretcher(sampleRate: rate, channels: channels, speed: 1.5)
  let at55 = rate * 55 / 100
  probe.push(Array(input[0..<(channels * at55)]), frames: at55)
  #expect(probe.mixSign == -1)
  let at85 = rate * 85 / 100
  probe.push(Array(input[(channels * at55)..<(channels * at85)]), frames: at85 - at55)
  #expect(probe.mixSign == 1)
  for seed: UInt64 in [5, 11] {
    let got = try streamed(input, channels: channels, sampleRate: rate, speed: 1.5, seed: seed)
    let same = got == expected  // compared apart: a failure would print both arrays
    #expect(same, "seed \(seed): \(got.count) samples against \(expected.count)")
  }
}

/// The chord of ``notes`` over a reverberant cloud: `count` steady partials of random frequency
/// (150 Hz to 4 kHz, as many per octave) and phase, each of amplitude `level`.
private func chordOverCloud(sampleRate: Int, frames: Int, count: Int, level: Double) -> [Float] {
  var rng = SeededGenerator(seed: 0x5EED_C10D)
  func uniform() -> Double { Double(rng.next() >> 11) * 0x1p-53 }
  let cloud = (0..<count).map { _ in
    (hz: 150 * pow(4000.0 / 150, uniform()), phase: 2 * Double.pi * uniform())
  }
  var out = chord(sampleRate: sampleRate, frames: frames)
  for i in 0..<frames {
    let t = Double(i) / Double(sampleRate)
    var v = 0.0
    for p in cloud { v += level * sin(2 * Double.pi * p.hz * t + p.phase) }
    out[i] += Float(v)
  }
  return out
}

@Test(arguments: [0.5, 0.75])
func aChordUnderACloudOfPartialsKeepsItsNotes(speed: Double) throws {
  // Under a cloud of partials a chord matches itself poorly everywhere, but well enough away
  // from the drift budget to count as tonal now and then. Searched over the whole range only in
  // the segments whose check found it tonal, it was spliced out of phase in the others (and
  // scattered, slowing down): 7-11 % of the power stayed at the notes, against 72 % in the
  // input.
  let rate = 16_000
  let input = chordOverCloud(sampleRate: rate, frames: 3 * rate, count: 120, level: 0.02)
  let before = powerShare(input[rate..<(2 * rate)], at: notes, sampleRate: rate)
  var s = try TimeStretcher(sampleRate: rate, channels: 1, speed: speed)
  let out = s.process(input: input)
  let middle = out[(out.count / 2 - rate / 2)..<(out.count / 2 + rate / 2)]
  let share = powerShare(middle, at: notes, sampleRate: rate)
  #expect(
    share > 0.25 * before,
    "\(share * 100) % of the power at the notes, \(before * 100) % in the input")
}
