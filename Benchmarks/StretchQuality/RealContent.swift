import Foundation

// Real-content signals and their measures: a music mix, speech-like material, white, pink and
// applause-like noise, and stereo sources with distinct levels.
//
// Every signal with an ideal is rendered from a score of sinusoidal partials whose amplitude and
// frequency trajectories are functions of media time: the ideal stretch at speed s plays the same
// score with every trajectory s times faster (onsets, note lengths, decays, the vibrato and the
// pitch contour) and every frequency unchanged. That is what a perfect stretcher would output;
// no stretcher reaches it exactly (a splicing one keeps each drum hit's own decay, say), so the
// figures compare tools with one another rather than with zero. Noise has no ideal waveform:
// it is judged by what a listener hears of it, its level, its spectrum and whether it repeats.

/// A small deterministic generator (the 64-bit LCG of Knuth's MMIX, top 53 bits).
struct Random {
  var state: UInt64

  /// Uniform in 0..<1.
  mutating func next() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(UInt64(1) << 53)
  }

  /// Standard normal (Box–Muller).
  mutating func gaussian() -> Double {
    let u = max(next(), 1e-300)
    let v = next()
    return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
  }
}

/// One sinusoidal partial of a score: media-time envelope (linear attack, hold, exponential
/// decay), constant frequency.
struct Partial {
  var hz: Double
  var amplitude: Double
  var phase: Double
  /// Onset, media seconds.
  var start: Double
  var attack: Double
  var hold: Double
  /// Decay time constant after the hold, media seconds.
  var decay: Double
}

/// Adds `partials` to `out` (mono) as played at `scale` times the media rate (1 = the input).
func render(_ partials: [Partial], scale: Double, into out: inout [Double]) {
  let sr = Double(rate)
  let frames = out.count
  out.withUnsafeMutableBufferPointer { o in
    for p in partials {
      let first = max(0, Int((p.start / scale * sr).rounded(.up)))
      let length = p.hold + 6.9 * p.decay  // to -60 dB
      let last = min(frames, Int(((p.start + length) / scale * sr).rounded(.down)))
      guard first < last else { continue }
      let w = 2 * Double.pi * p.hz / sr
      let step = scale / sr
      let decayStep = exp(-step / p.decay)
      var decayEnv = -1.0
      var i = first
      while i < last {
        // Blocks of 1024 frames from an exact phasor, so rounding does not build up.
        let end = min(last, i + 1024)
        var c = cos(w * Double(i) + p.phase)
        var s = sin(w * Double(i) + p.phase)
        let cw = cos(w)
        let sw = sin(w)
        var tau = Double(i) * step - p.start
        while i < end {
          var e = tau < p.attack ? max(0, tau) / p.attack : 1
          if tau >= p.hold {
            if decayEnv < 0 { decayEnv = exp(-(tau - p.hold) / p.decay) }
            e *= decayEnv
            decayEnv *= decayStep
          }
          o[i] += p.amplitude * e * s
          let c2 = c * cw - s * sw
          s = s * cw + c * sw
          c = c2
          tau += step
          i += 1
        }
      }
    }
  }
}

/// Equal-tempered pitch (Hz) of a MIDI note.
func midi(_ n: Int) -> Double { 440 * pow(2, Double(n - 69) / 12) }

/// The music mix's score (3 s at 120 bpm): chords (C, Am, F, released at 2.4 s), a plucked bass
/// on every beat, hi-hats on eighths and a diffuse reverberant cloud under each chord that rings
/// out alone after the release (the reverb tail). Kicks are rendered separately (their pitch
/// glides). Peak about 0.9. Another mix of the same kind (``musicVariant``) plays other chords
/// over other bass notes, with another draw of the cloud, the hi-hats and the phases.
let musicScore: [Partial] = {
  var rng = Random(state: 0xC0FF_EE01 &+ UInt64(musicVariant) &* 0x9E37_79B9)
  var parts: [Partial] = []
  // The progression and its bass roots: the benchmark's own (C, Am, F over C, C, A, A, F), or
  // for a variant, the same shape a whole tone up per variant (0 to 11 semitones, wrapping
  // within the octave) with the second and third chords swapped.
  let own: [([Int], Double, Double)] = [
    ([60, 64, 67], 0, 1), ([57, 60, 64], 1, 1), ([53, 57, 60, 65], 2, 0.4),
  ]
  let shift = (2 * musicVariant) % 12
  let chords: [([Int], Double, Double)] =
    musicVariant == 0
    ? own
    : [
      (own[0].0.map { $0 + shift }, 0, 1), (own[2].0.map { $0 + shift }, 1, 1),
      (own[1].0.map { $0 + shift }, 2, 0.4),
    ]
  for (notes, start, length) in chords {
    for n in notes {
      for h in 1...5 {
        parts.append(
          Partial(
            hz: midi(n) * Double(h), amplitude: 0.05 / Double(h), phase: rng.next() * 6.28,
            start: start, attack: 0.02, hold: length, decay: 0.08))
      }
    }
    // The cloud: 200 partials from 150 Hz to 4 kHz, falling 3 dB an octave, slow attack.
    for _ in 0..<200 {
      let f = 150 * pow(4000.0 / 150, rng.next())
      parts.append(
        Partial(
          hz: f, amplitude: 0.006 * (150 / f).squareRoot(), phase: rng.next() * 6.28,
          start: start, attack: 0.05, hold: 0.05, decay: 0.5))
    }
  }
  let roots =
    musicVariant == 0
    ? [36, 36, 33, 33, 29] : [36, 36, 29, 29, 33].map { $0 + shift - (shift > 6 ? 12 : 0) }
  for (b, root) in roots.enumerated() {
    for h in 1...4 {
      parts.append(
        Partial(
          hz: midi(root) * Double(h), amplitude: 0.12 / Double(h), phase: 0,
          start: 0.5 * Double(b), attack: 0.004, hold: 0, decay: 0.25))
    }
  }
  let hatFrequencies = (0..<80).map { _ in 6000 + 6000 * rng.next() }
  for e in 0..<10 {
    let level = e % 2 == 0 ? 0.018 : 0.01
    for f in hatFrequencies {
      parts.append(
        Partial(
          hz: f, amplitude: level, phase: rng.next() * 6.28, start: 0.25 * Double(e),
          attack: 0.001, hold: 0, decay: 0.03))
    }
  }
  return parts
}()

/// The music mix at `scale` times the media rate, `frames` long.
func musicMix(frames: Int, scale: Double) -> [Double] {
  var out = [Double](repeating: 0, count: frames)
  render(musicScore, scale: scale, into: &out)
  // Kicks on every beat: a sine gliding from 140 Hz to 50 Hz, decaying in 120 ms.
  let sr = Double(rate)
  for b in 0..<5 {
    let start = 0.5 * Double(b)
    let first = Int((start / scale * sr).rounded(.up))
    var phase = 0.0
    for i in first..<min(frames, first + Int(0.8 / scale * sr)) {
      let tau = Double(i) / sr * scale - start
      let f = 50 + 90 * exp(-tau / 0.02)
      out[i] += 0.45 * min(1, tau / 0.001) * exp(-tau / 0.12) * sin(phase)
      phase += 2 * Double.pi * f / sr
    }
  }
  return out
}

/// Speech-like material: 14 syllables in 3 s (a pause after the seventh), each a vowel voiced at
/// a gliding pitch (harmonics of 95–145 Hz shaped by the vowel's three formants), every other one
/// after a fricative (partials from 3.5 to 8 kHz). `scale` as for ``musicMix(frames:scale:)``.
func speech(frames: Int, scale: Double) -> [Double] {
  let vowels: [(Double, Double, Double)] = [
    (730, 1090, 2440), (270, 2290, 3010), (300, 870, 2240), (530, 1840, 2480), (570, 840, 2410),
  ]
  var syllables: [(start: Double, vowel: Int)] = []
  var t = 0.05
  for k in 0..<14 {
    syllables.append((t, (k * 3) % vowels.count))
    t += k == 6 ? 0.45 : 0.19
  }
  var rng = Random(state: 0x5EEC_4001)
  var fricatives: [Partial] = []
  let fricativeFrequencies = (0..<60).map { _ in 3500 + 4500 * rng.next() }
  for (k, s) in syllables.enumerated() where k % 2 == 1 {
    for f in fricativeFrequencies {
      fricatives.append(
        Partial(
          hz: f, amplitude: 0.007, phase: rng.next() * 6.28, start: s.start - 0.05,
          attack: 0.01, hold: 0.035, decay: 0.008))
    }
  }
  var out = [Double](repeating: 0, count: frames)
  render(fricatives, scale: scale, into: &out)
  let sr = Double(rate)
  var phase = 0.0
  var amplitudes = [Double](repeating: 0, count: 48)
  for i in 0..<frames {
    let t = Double(i) / sr * scale
    let f0 = 120 + 25 * sin(2 * Double.pi * 0.7 * t)
    phase += 2 * Double.pi * f0 / sr
    if phase > 2 * Double.pi * 1000 { phase -= 2 * Double.pi * 1000 }
    // The syllable sounding: voiced for 120 ms after its start (20 ms attack, 30 ms release).
    var envelope = 0.0
    var vowel = 0
    for s in syllables where t >= s.start && t < s.start + 0.15 {
      let tau = t - s.start
      envelope = min(1, tau / 0.02) * (tau < 0.12 ? 1 : max(0, 1 - (tau - 0.12) / 0.03))
      vowel = s.vowel
    }
    guard envelope > 0 else { continue }
    if i % 32 == 0 || amplitudes[0] == 0 {
      let (f1, f2, f3) = vowels[vowel]
      for h in 1..<amplitudes.count {
        let f = Double(h) * f0
        if f > 5000 {
          amplitudes[h] = 0
          continue
        }
        func peak(_ centre: Double, _ width: Double) -> Double {
          1 / (1 + ((f - centre) / width) * ((f - centre) / width))
        }
        amplitudes[h] = 0.09 * (peak(f1, 90) + 0.6 * peak(f2, 110) + 0.3 * peak(f3, 160) + 0.02)
      }
      amplitudes[0] = 1
    }
    var v = 0.0
    for h in 1..<amplitudes.count where amplitudes[h] > 0 {
      v += amplitudes[h] * sin(Double(h) * phase)
    }
    out[i] += envelope * v
  }
  return out
}

/// White Gaussian noise, RMS 0.2.
func whiteNoise(frames: Int) -> [Double] {
  var rng = Random(state: 0x3141_5926)
  return (0..<frames).map { _ in 0.2 * rng.gaussian() }
}

/// Pink noise (−3 dB an octave from 20 Hz up; Kellet's filter of white noise), RMS about 0.2.
func pinkNoise(frames: Int) -> [Double] {
  var rng = Random(state: 0x2718_2818)
  var b = [Double](repeating: 0, count: 7)
  return (0..<frames).map { _ in
    let w = rng.gaussian()
    b[0] = 0.99886 * b[0] + w * 0.0555179
    b[1] = 0.99332 * b[1] + w * 0.0750759
    b[2] = 0.96900 * b[2] + w * 0.1538520
    b[3] = 0.86650 * b[3] + w * 0.3104856
    b[4] = 0.55000 * b[4] + w * 0.5329522
    b[5] = -0.7616 * b[5] - w * 0.0168980
    let v = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + w * 0.5362
    b[6] = w * 0.115926
    return 0.2 * v / 3.3
  }
}

/// Applause-like noise: about 60 claps a second at random times and levels, each a burst of
/// high-passed noise decaying in 6–12 ms.
func applause(frames: Int) -> [Double] {
  var rng = Random(state: 0xA991_A05E)
  var out = [Double](repeating: 0, count: frames)
  let sr = Double(rate)
  var t = 0.0
  while true {
    t += -log(max(rng.next(), 1e-12)) / 60
    let first = Int(t * sr)
    guard first < frames else { break }
    let level = 0.15 + 0.35 * rng.next()
    let decay = 0.006 + 0.006 * rng.next()
    var previous = 0.0
    for i in first..<min(frames, first + Int(8 * decay * sr)) {
      let w = rng.gaussian()
      out[i] += level * exp(-Double(i - first) / (decay * sr)) * (w - 0.7 * previous)
      previous = w
    }
  }
  return out
}

/// Noise limited to `lo`...`hi` Hz (through one FFT of the whole signal), RMS 1.
func bandNoise(frames: Int, lo: Double, hi: Double, seed: UInt64) -> [Double] {
  var n = 1
  while n < frames { n *= 2 }
  var rng = Random(state: seed)
  var re = (0..<n).map { _ in rng.gaussian() }
  var im = [Double](repeating: 0, count: n)
  let fft = fftOfSize(n)
  fft.transform(&re, &im)
  for k in 0..<n {
    let f = Double(min(k, n - k)) * Double(rate) / Double(n)
    if f < lo || f > hi {
      re[k] = 0
      im[k] = 0
    }
  }
  // Inverse through the forward transform: conjugate in, conjugate out.
  for k in 0..<n { im[k] = -im[k] }
  fft.transform(&re, &im)
  var out = Array(re[0..<frames])
  let rms = (out.reduce(0) { $0 + $1 * $1 } / Double(frames)).squareRoot()
  for i in out.indices { out[i] /= max(rms, 1e-30) }
  return out
}

/// The stereo mix with distinct levels: three sources in separate bands, each with its own
/// level difference between the channels (see ``stereoSources``).
struct StereoSource {
  var name: String
  var lo: Double
  var hi: Double
  var left: Double
  var right: Double
}

let stereoSources = [
  StereoSource(name: "tones 200-1000 Hz", lo: 200, hi: 1000, left: 0.2, right: 0.1),
  StereoSource(name: "noise 2-6 kHz", lo: 2000, hi: 6000, left: 0.04, right: 0.1),
  StereoSource(name: "noise 60-150 Hz", lo: 60, hi: 150, left: 0.15, right: 0.106),
]

let stereoLevelsInput: Audio = {
  let frames = inputFrames
  // Tonal source: five tones with slow tremolo; the two noise sources band-limited.
  let sr = Double(rate)
  let tones = (0..<frames).map { i -> Double in
    let t = Double(i) / sr
    var v = 0.0
    for (k, f) in [220.0, 330, 440, 587, 784].enumerated() {
      v +=
        sin(2 * Double.pi * f * t + Double(k)) * (1 + 0.3 * sin(2 * Double.pi * 3 * t + Double(k)))
    }
    return v / 2.5
  }
  let high = bandNoise(frames: frames, lo: 2000, hi: 6000, seed: 11)
  let low = bandNoise(frames: frames, lo: 60, hi: 150, seed: 12)
  let signals = [tones, high, low]
  var s = [Float](repeating: 0, count: frames * 2)
  for i in 0..<frames {
    var l = 0.0
    var r = 0.0
    for (source, x) in zip(stereoSources, signals) {
      l += source.left * x[i]
      r += source.right * x[i]
    }
    s[2 * i] = Float(l)
    s[2 * i + 1] = Float(r)
  }
  return Audio(samples: s, channels: 2, sampleRate: rate)
}()

// MARK: Measures

nonisolated(unsafe) var fftCache: [Int: FFT] = [:]
/// An FFT of size `n` (a power of two), made once.
func fftOfSize(_ n: Int) -> FFT {
  if let f = fftCache[n] { return f }
  let f = FFT(size: n)
  fftCache[n] = f
  return f
}

/// Mean log-spectral distance (dB) between Hann power spectrograms (2048 / 512) of `output`,
/// shifted left by `shift`, and `ideal`, over the ideal's length: per frame, the RMS over bins of
/// the difference of the levels, each floored at 80 dB below the ideal's loudest bin.
func logSpectralDistance(
  _ output: [Double], _ ideal: [Double], shift: Int, fft: FFT, window: [Double]
) -> Double {
  var frames: [([Double], [Double])] = []
  var loudest = 0.0
  var from = 0
  while from + fft.size <= ideal.count {
    let a = fft.power(output, from: from + shift, window: window)
    let b = fft.power(ideal, from: from, window: window)
    loudest = max(loudest, b.max() ?? 0)
    frames.append((a, b))
    from += 512
  }
  let floor = max(loudest * 1e-8, 1e-30)
  var total = 0.0
  for (a, b) in frames {
    var sum = 0.0
    for i in 0..<a.count {
      let d = 10 * log10(max(a[i], floor) / max(b[i], floor))
      sum += d * d
    }
    total += (sum / Double(a.count)).squareRoot()
  }
  return total / Double(max(1, frames.count))
}

/// The Welch power spectrum (Hann, 2048, hop 1024) of `x`: mean power per bin.
func welch(_ x: [Double], fft: FFT, window: [Double]) -> [Double] {
  var sum = [Double](repeating: 0, count: fft.size / 2 + 1)
  var count = 0
  var from = 0
  while from + fft.size <= x.count {
    let p = fft.power(x, from: from, window: window)
    for i in sum.indices { sum[i] += p[i] }
    count += 1
    from += fft.size / 2
  }
  return sum.map { $0 / Double(max(1, count)) }
}

/// The strongest repetition in `output`: the largest |normalised autocorrelation| at lags from
/// 0.5 ms to 100 ms, after whitening by `reference`'s spectrum (a Welch spectrum from
/// ``welch(_:fft:window:)``), so that a coloured input's own short-lag correlation does not
/// count. A stretcher that repeats short stretches of input makes a comb: a peak at the lag
/// between the repeats.
func periodicity(_ output: [Double], reference: [Double]) -> Double {
  var n = 1
  while n < 2 * output.count { n *= 2 }
  let fft = fftOfSize(n)
  var re = [Double](repeating: 0, count: n)
  var im = [Double](repeating: 0, count: n)
  for i in output.indices { re[i] = output[i] }
  fft.transform(&re, &im)
  let bins = reference.count - 1
  let meanReference = reference.reduce(0, +) / Double(reference.count)
  for k in 0..<n {
    let f = Double(min(k, n - k)) / Double(n) * Double(2 * bins)
    let r = max(reference[min(bins, Int(f.rounded()))], meanReference * 1e-4)
    re[k] = (re[k] * re[k] + im[k] * im[k]) / r
    im[k] = 0
  }
  fft.transform(&re, &im)
  let zero = max(re[0], 1e-30)
  var best = 0.0
  for lag in (rate / 2000)...(rate / 10) where lag < output.count {
    best = max(best, abs(re[lag]) / zero)
  }
  return best
}

/// Octave bands from 125 Hz to 8 kHz: their power in a Welch spectrum.
func octaveBands(_ p: [Double]) -> [Double] {
  let binHz = Double(rate) / Double(2 * (p.count - 1))
  return (0..<7).map { b in
    let centre = 125 * pow(2, Double(b))
    var sum = 0.0
    for i in p.indices
    where Double(i) * binHz >= centre / 2.squareRoot()
      && Double(i) * binHz < centre * 2.squareRoot()
    {
      sum += p[i]
    }
    return sum
  }
}

/// The power of a Welch spectrum within `lo`..<`hi` Hz.
func bandPower(_ p: [Double], _ lo: Double, _ hi: Double) -> Double {
  let binHz = Double(rate) / Double(2 * (p.count - 1))
  var sum = 0.0
  for i in p.indices where Double(i) * binHz >= lo && Double(i) * binHz < hi { sum += p[i] }
  return sum
}

/// Level change (dB) of the whole output against the input, and the largest change of any
/// octave band's level from 125 Hz to 8 kHz (dB, signed: the band furthest from 0).
func levels(_ output: [Double], _ input: [Double], fft: FFT, window: [Double]) -> (
  level: Double, band: Double
) {
  func power(_ x: [Double]) -> Double { x.reduce(0) { $0 + $1 * $1 } / Double(max(1, x.count)) }
  let level = 10 * log10(power(output) / max(power(input), 1e-30))
  let a = octaveBands(welch(output, fft: fft, window: window))
  let b = octaveBands(welch(input, fft: fft, window: window))
  var worst = 0.0
  for (x, y) in zip(a, b) where y > 0 {
    let d = 10 * log10(max(x, 1e-30) / y)
    if abs(d) > abs(worst) { worst = d }
  }
  return (level, worst)
}

/// The largest error (dB, signed) of any source's level difference between the channels
/// (left over right, in the source's band) against the input's.
func ildError(_ output: Audio, _ input: Audio, fft: FFT, window: [Double]) -> Double {
  let ol = welch(output.channel(0), fft: fft, window: window)
  let or = welch(output.channel(1), fft: fft, window: window)
  let il = welch(input.channel(0), fft: fft, window: window)
  let ir = welch(input.channel(1), fft: fft, window: window)
  var worst = 0.0
  for s in stereoSources {
    let lo = s.lo * 1.1
    let hi = s.hi / 1.1
    let out = 10 * log10(bandPower(ol, lo, hi) / max(bandPower(or, lo, hi), 1e-30))
    let inp = 10 * log10(bandPower(il, lo, hi) / max(bandPower(ir, lo, hi), 1e-30))
    if abs(out - inp) > abs(worst) { worst = out - inp }
  }
  return worst
}

/// Envelope correlation, an intelligibility measure in the manner of STOI (Taal et al., 2011),
/// for fast speech against its ideal: the amplitude envelopes of 15 third-octave bands (150 Hz
/// to 4.3 kHz; Hann 1024 / 256, about 6 ms a frame) of the output (shifted left by `shift`) and
/// the ideal are correlated over every stretch of 24 frames (about 140 ms, a syllable or two at
/// 3x) in which the ideal is not silent, and the correlations averaged: 1 when the output's
/// band envelopes rise and fall as the ideal's do, 0 when they are unrelated. Syllable timing,
/// transitions between vowels and consonants, and gaps count; a level or a steady colouring does
/// not.
func envelopeCorrelation(_ output: [Double], _ ideal: [Double], shift: Int) -> Double {
  let fft = fftOfSize(1024)
  let window = hann(1024)
  let binHz = Double(rate) / 1024
  let bands = (0..<15).map { 150 * pow(2, Double($0) / 3) }
  func envelopes(_ x: [Double], _ offset: Int) -> [[Double]] {
    var result: [[Double]] = []
    var from = 0
    while from + 1024 <= ideal.count {
      let p = fft.power(x, from: from + offset, window: window)
      result.append(
        bands.map { c in
          var s = 0.0
          for i in p.indices
          where Double(i) * binHz >= c * pow(2, -1.0 / 6) && Double(i) * binHz < c * pow(2, 1.0 / 6)
          {
            s += p[i]
          }
          return s.squareRoot()
        })
      from += 256
    }
    return result
  }
  let a = envelopes(output, shift)
  let b = envelopes(ideal, 0)
  let loudest = b.map { $0.reduce(0) { $0 + $1 * $1 } }.max() ?? 0
  let length = 24
  var total = 0.0
  var count = 0
  guard b.count >= length else { return .nan }
  for start in 0...(b.count - length) {
    let energy = b[start..<(start + length)].map { $0.reduce(0) { $0 + $1 * $1 } }.max() ?? 0
    guard energy > loudest * 1e-4 else { continue }
    // Bands more than 40 dB below the stretch's loudest band are left out (leakage only).
    let means = bands.indices.map { band in
      (start..<(start + length)).reduce(0.0) { $0 + b[$1][band] } / Double(length)
    }
    let loudestBand = means.max() ?? 0
    for band in bands.indices where means[band] > 0.01 * loudestBand {
      var mx = 0.0
      for f in start..<(start + length) { mx += a[f][band] }
      mx /= Double(length)
      let my = means[band]
      var sxy = 0.0
      var sxx = 0.0
      var syy = 0.0
      for f in start..<(start + length) {
        let x = a[f][band] - mx
        let y = b[f][band] - my
        sxy += x * y
        sxx += x * x
        syy += y * y
      }
      total += sxy / max((sxx * syy).squareRoot(), 1e-30)
      count += 1
    }
  }
  return total / Double(max(1, count))
}
