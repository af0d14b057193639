#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The low-band stage: below about 950 Hz, where the low band is tonal, the splicing
/// stretcher's output is replaced by a phase-locked phase vocoder's stretch of the input.
///
/// Both run decimated (to about 5.5 kHz) through the same linear-phase low-pass `h` (a
/// Blackman-windowed sinc, flat to about 0.9 kHz and down by 74 dB from about 1.8 kHz). With
/// `y` the splicing output, `Y = D(y)` its decimated low band and `Z` the vocoder's stretch of
/// `D(x)` (each frame weighted, see below), the output is `y + U(Z − Y)`, where `U`
/// interpolates back through `h`: the splicing output less its low band plus the vocoder's, a
/// split that adds up to `y` itself where the two agree (no band is lost or counted twice,
/// whatever the crossover's shape). Every filter is zero-phase (centred), so the bands line up
/// to the frame.
///
/// The vocoder: Hann windows of about 46 ms (256 frames at the decimated rate), a synthesis hop
/// of an eighth of that; each synthesis frame `j` is centred at output frame `j·hop·M` and reads
/// the input where the media-time map puts that frame, so speed changes and the time map hold
/// as in the splicing stretcher. Phases follow the channels' sum: each bin takes the phase
/// advance of the spectral peak whose region it is in (identity phase locking), and every
/// channel's bin is turned by the same angle, so level and phase differences between channels
/// are kept exactly. Each frame adds `w·(turned spectrum − Y's spectrum in the same window)`,
/// with `w` the low band's running tonal share mapped to 0...1 (see ``markTonalBins()``): 1 on
/// chords and bass lines, 0 on noise, whose level and timing the splicing stage keeps; bins in
/// the region of a peak above 950 Hz, where the crossover is not flat, add nothing (see
/// ``flatBin``). Around
/// an onset that stands out of quiet in the low band the difference is faded out (see
/// ``addOnset(input:frame:)``).
struct BandSplit {
  /// Seconds before an onset over which the low band is the splicing stage's (the vocoder's
  /// window reaches 23 ms ahead), and after it.
  static let holdBefore = 0.02
  static let holdAfter = 0.002
  /// Seconds over which the vocoder's low band fades back in.
  static let fade = 0.006
  /// A peak counts as tonal above this many times the mean power of the two bins two and three
  /// away from it, on the quieter side.
  static let peakOverFlank: Float = 30
  /// The tonal share of the energy mapped to 0 and to 1.
  static let noiseShare: Float = 0.15
  static let toneShare: Float = 0.3
  /// The time constant of the tonal share's running mean (seconds).
  static let tonalSeconds = 0.3
  /// How many times the energy before it an onset's low band must have to be held.
  static let contrast: Float = 100
  let channels: Int
  let rate: Int
  /// The decimation factor.
  let factor: Int
  /// The vocoder's frame size (decimated frames).
  let size: Int
  /// The vocoder's synthesis hop (decimated frames).
  let synthesisHop: Int
  /// The filter's length (odd) and half length (its delay, in full-rate frames).
  let taps: Int
  let delay: Int
  /// Output frames of splicing output needed past an output frame before it is final.
  let outputAhead: Int
  /// Input frames needed past where the map puts `outputAhead` frames later.
  let inputAhead: Int

  /// The filter's taps (symmetric), for the inner loops (owned by `filterStorage`, never freed
  /// before the stage: see ``FilterStorage``).
  private let filterStorage: FilterStorage
  private var filterPointer: UnsafePointer<Float> { UnsafePointer(filterStorage.taps) }
  /// The interpolator's polyphase rows: row `r` holds `h[taps − 1 − r − i·factor]` for `i` in
  /// `0..<phaseLength` (0 past the filter's start), the taps that meet consecutive decimated
  /// values for an output frame `r` frames past the newest tap's phase.
  private let phaseStorage: FilterStorage
  private let phaseLength: Int
  private let window: [Float]
  private let omega: [Float]
  private var fft: RealFFT

  // The input: raw (planar, from `rawBase`), and its decimated low band (planar, from
  // `lowBase`, computed up to `lowNext`).
  private var raw: [[Float]]
  private var rawBase = 0
  private(set) var inputEnd = 0
  private var inputDone = false
  private var low: [[Float]]
  private var lowBase = 0
  private var lowNext = 0

  // The splicing output (planar, from `yBase` to `yEnd`), the index of its next decimated
  // value, and the accumulated difference Z − Y (planar, from `zBase`; weighted for onsets
  // below `weightedNext`, see ``applyWeights(through:)``).
  private var y: [[Float]]
  private var yBase = 0
  private(set) var yEnd = 0
  private(set) var outputDone = false
  private var yNext = 0
  private var z: [[Float]]
  private var zBase = 0
  private var weightedNext = 0
  private var yd: [[Float]]
  private var ydBase = 0
  /// The next vocoder frame.
  private var frame = 0
  /// The output frames already given out.
  private(set) var emitted = 0
  /// The output frames of the onsets the splicing stage played, oldest first: around each, the
  /// low band is the splicing stage's own (the vocoder would smear the attack over its
  /// window).
  private var onsets: [Int] = []
  /// Output frames around an onset where the low band is the splicing stage's alone, and over
  /// which the vocoder's fades back in.
  let onsetHold: Int
  let onsetFade: Int
  let onsetAfter: Int

  // The vocoder's state: the previous frame's analysis position and the channel sum's phases
  // (analysis and synthesis).
  private var hasPrevious = false
  private var previousAt = 0
  private var previousPhase: [Float]
  private var previousSynth: [Float]
  // Scratch.
  private var frameIn: [Float]
  private var frameOut: [Float]
  private var specRe: [[Float]]
  private var specIm: [[Float]]
  private var sumRe: [Float]
  private var sumIm: [Float]
  private var magnitude: [Float]
  private var phase: [Float]
  private var synth: [Float]
  private var rotation: [Float]
  private var rotationCos: [Float]
  private var rotationSin: [Float]
  /// Each bin's weight of the vocoder (see ``markTonalBins()``).
  private var binWeight: [Float]
  /// The spectral peak whose region each bin is in (identity phase locking); the bin itself
  /// where there is none.
  private var owner: [Int]
  /// The highest bin at which a peak's region takes the vocoder: where the low-pass, applied
  /// twice (decimating, interpolating back), still passes 99.7 % of the power (950 Hz). Between
  /// there and the stop band the output would be `(1 − g²)·y + g²·z` for a partial that the two
  /// stages give at different phases, which cancel: a steady 1.3 kHz tone lost 11 dB at 1.5x.
  private let flatBin: Int
  /// The running tonal share, the frames it has seen, and its weight for a new frame.
  private var tonalPeaks: Float = 0
  private var tonalTotal: Float = 0
  private let tonalRate: Float
  /// The highest bin of the low band (1.8 kHz).
  private let topBin: Int

  init(sampleRate: Int, channels: Int) {
    self.channels = channels
    self.rate = sampleRate
    let rate = Double(sampleRate)
    factor = max(1, Int((rate / 5500).rounded()))
    let decimated = rate / Double(factor)
    var n = 16
    while Double(n) * 1.5 < decimated * 0.0464 { n *= 2 }
    size = n
    synthesisHop = n / 8
    // Blackman: transition about 5.5·rate/taps wide, around the cutoff.
    let half = Int((2.75 * rate / 900).rounded(.up))
    taps = 2 * half + 1
    delay = half
    let cutoff = 1350 / rate
    var h = [Float](repeating: 0, count: taps)
    var sum = 0.0
    var hd = [Double](repeating: 0, count: taps)
    for i in 0..<taps {
      let m = Double(i - half)
      let sinc = m == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * m) / (Double.pi * m)
      let phase = 2 * Double.pi * Double(i) / Double(taps - 1)
      let w = 0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase)
      hd[i] = sinc * w
      sum += hd[i]
    }
    // Symmetric to the last bit, so that the taps read forwards are the filter reversed.
    for i in 0..<taps { h[i] = Float((hd[i] + hd[taps - 1 - i]) / (2 * sum)) }
    filterStorage = FilterStorage(h)
    phaseLength = (taps - 1) / factor + 1
    var rows = [Float](repeating: 0, count: factor * phaseLength)
    for r in 0..<factor {
      for i in 0..<phaseLength where taps - 1 - r - i * factor >= 0 {
        rows[r * phaseLength + i] = h[taps - 1 - r - i * factor]
      }
    }
    phaseStorage = FilterStorage(rows)
    window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
    omega = (0...(n / 2)).map { Float(2 * Double.pi * Double($0) / Double(n)) }
    fft = RealFFT(size: n)
    topBin = min(n / 2, Int(1800 / decimated * Double(n)))
    flatBin = min(n / 2, Int(950 / decimated * Double(n)))
    tonalRate = Float(Double(n / 8) / (decimated * Self.tonalSeconds))
    onsetHold = Int(rate * Self.holdBefore)
    onsetAfter = Int(rate * Self.holdAfter)
    onsetFade = Int(rate * Self.fade)
    outputAhead = max(
      2 * delay + (n + 2) * factor + 1, max(onsetHold, onsetAfter) + onsetFade + Int(rate * 0.012))
    inputAhead = (n / 2 + 2) * factor + delay + 1
    low = Array(repeating: [], count: channels)
    raw = Array(repeating: [], count: channels)
    y = Array(repeating: [], count: channels)
    z = Array(repeating: [], count: channels)
    yd = Array(repeating: [], count: channels)
    previousPhase = [Float](repeating: 0, count: n / 2 + 1)
    previousSynth = previousPhase
    frameIn = [Float](repeating: 0, count: n)
    frameOut = frameIn
    specRe = Array(repeating: previousPhase, count: channels)
    specIm = specRe
    sumRe = previousPhase
    sumIm = previousPhase
    magnitude = previousPhase
    phase = previousPhase
    synth = previousPhase
    rotation = previousPhase
    binWeight = previousPhase
    owner = Array(0...(n / 2))
    rotationCos = previousPhase
    rotationSin = previousPhase
    reset()
  }

  mutating func reset() {
    rawBase = 0
    inputEnd = 0
    inputDone = false
    yBase = 0
    yEnd = 0
    outputDone = false
    emitted = 0
    onsets.removeAll(keepingCapacity: true)
    tonalPeaks = 0
    tonalTotal = 0
    hasPrevious = false
    // The first decimated output value any output frame reads, and the first vocoder frame
    // that reaches it.
    let first = -((delay + factor - 1) / factor)
    yNext = first
    frame = Int((Double(first - size / 2) / Double(synthesisHop)).rounded(.down))
    zBase = frame * synthesisHop - size / 2
    yNext = zBase
    ydBase = zBase
    weightedNext = zBase
    lowBase = 0
    lowNext = 0
    for c in 0..<channels {
      raw[c].removeAll(keepingCapacity: true)
      y[c].removeAll(keepingCapacity: true)
      low[c].removeAll(keepingCapacity: true)
      z[c].removeAll(keepingCapacity: true)
      yd[c].removeAll(keepingCapacity: true)
    }
  }

  /// Appends input frames (interleaved, already cleaned of non-finite values by the caller or
  /// not: non-finite values become 0).
  mutating func pushInput(_ src: UnsafePointer<Float>, _ n: Int) {
    for c in 0..<channels {
      let old = raw[c].count
      raw[c].append(contentsOf: repeatElement(0, count: n))
      raw[c].withUnsafeMutableBufferPointer { d in
        for i in 0..<n {
          let v = src[i * channels + c]
          d[old + i] = v.isFinite ? v : 0
        }
      }
    }
    inputEnd += n
  }

  mutating func finishInput() { inputDone = true }

  /// Appends splicing output frames.
  mutating func pushOutput(_ src: UnsafePointer<Float>, _ n: Int) {
    for c in 0..<channels {
      let old = y[c].count
      y[c].append(contentsOf: repeatElement(0, count: n))
      y[c].withUnsafeMutableBufferPointer { d in
        for i in 0..<n { d[old + i] = src[i * channels + c] }
      }
    }
    yEnd += n
  }

  /// Records an onset at input frame `input`, played at output frame `frame`, when its low
  /// band stands out of what came before it (`onsetContrast` times the mean energy of the 25 ms
  /// before it in its first 10 ms): where the vocoder's window would be heard echoing it
  /// early, over quiet. Under sustained low sound (a kick over a bass line) the vocoder's low
  /// band is kept: there its echo is masked, and switching between the two stages' low bands,
  /// whose phases differ, would dip the sustained sound.
  mutating func addOnset(input: Int, frame: Int) {
    // Both measured clear of the filter's reach (`delay`) around the onset.
    let before = lowEnergy(
      from: input - delay - Int(0.025 * Double(rate)), to: input - delay - 2 * factor)
    let after = lowEnergy(from: input - delay, to: input + Int(0.01 * Double(rate)))
    guard after > Self.contrast * before else { return }
    onsets.append(frame)
  }

  /// The mean energy of the channels' low band, summed, between input frames `from` and `to`.
  private mutating func lowEnergy(from: Int, to: Int) -> Float {
    let last = Int((Double(to) / Double(factor)).rounded(.down))
    if lowNext <= last { advanceLow(through: last) }
    var first = Int((Double(from) / Double(factor)).rounded(.up))
    first = max(first, lowBase)
    let end = min(last + 1, lowNext)
    guard end > first else { return 0 }
    var e: Float = 0
    for i in first..<end {
      var v: Float = 0
      for c in 0..<channels { v += low[c][i - lowBase] }
      e += v * v
    }
    return e / Float(end - first)
  }

  /// The weight of the vocoder's low band at decimated output index `k`: 0 within
  /// ``onsetHold`` of an onset, rising to 1 over ``onsetFade`` after that.
  @inline(__always)
  private func weight(_ k: Int) -> Float {
    let t = k * factor
    var w: Float = 1
    for o in onsets {
      // Before the onset (where the vocoder's window would echo it early) the hold is
      // `onsetHold`; after it, `onsetAfter`.
      let d = t < o ? o - t - onsetHold : t - o - onsetAfter
      if d <= 0 { return 0 }
      if d < onsetFade {
        w = min(w, Float(0.5 - 0.5 * cos(Double.pi * Double(d) / Double(onsetFade))))
      }
    }
    return w
  }

  /// Marks the end of the splicing output: frames from `yEnd` on are silence.
  mutating func finishOutput() { outputDone = true }

  @inline(__always)
  private func yValue(_ t: Int, _ c: Int) -> Float {
    guard t >= 0 && t < yEnd else { return 0 }
    return y[c][t - yBase]
  }

  /// The filter at the frames of one channel's `data` ending at frame `last` (its newest),
  /// where `data` starts at frame `first` and holds frames up to `end` (exclusive); frames
  /// outside count as silence.
  /// `filter` holds the `taps` taps.
  @inline(__always)
  private static func lowPass(
    _ data: UnsafeBufferPointer<Float>, first: Int, end: Int, last: Int,
    filter h: UnsafePointer<Float>, taps: Int
  ) -> Float {
    let oldest = last - taps + 1
    guard let base = data.baseAddress else { return 0 }
    if oldest >= first && oldest >= 0 && last < end && last - first < data.count {
      return dot(h, base + (oldest - first), count: taps)
    }
    let from = max(oldest, max(first, 0))
    let to = min(last, min(end, first + data.count) - 1)
    guard from <= to else { return 0 }
    var s: Float = 0
    for i in from...to { s += h[i - oldest] * base[i - first] }
    return s
  }

  /// Decimated low band of the input, as far as the input allows.
  private mutating func advanceLow(through needed: Int) {
    Self.decimate(
      raw, first: rawBase, end: inputEnd, done: inputDone, through: needed, next: &lowNext,
      into: &low, filter: filterPointer, taps: taps, factor: factor)
  }

  /// Decimated low band of the splicing output (in `yd`, from `ydBase`), as far as the
  /// splicing output allows.
  private mutating func advanceOutputLow(through needed: Int) {
    Self.decimate(
      y, first: yBase, end: yEnd, done: outputDone, through: needed, next: &yNext, into: &yd,
      filter: filterPointer, taps: taps, factor: factor)
  }

  /// Appends to `into` (one array per channel) the decimated low band of `source` (planar,
  /// from frame `first`, holding frames up to `end`; `done` when no more will come) from
  /// decimated index `next` through `needed`, as far as `source` allows; advances `next`.
  private static func decimate(
    _ source: [[Float]], first: Int, end: Int, done: Bool, through needed: Int,
    next: inout Int, into: inout [[Float]], filter: UnsafePointer<Float>, taps: Int, factor: Int
  ) {
    while next <= needed {
      let last = next * factor + taps / 2
      guard last < end || done else { break }
      for c in source.indices {
        let s = source[c].withUnsafeBufferPointer {
          lowPass($0, first: first, end: end, last: last, filter: filter, taps: taps)
        }
        into[c].append(s)
      }
      next += 1
    }
  }

  private mutating func ensureZ(_ count: Int) {
    if z[0].count < count {
      for c in 0..<channels {
        z[c].append(contentsOf: repeatElement(0, count: count - z[c].count))
      }
    }
  }

  /// Runs the vocoder frames whose map position is known (before `yEnd`, or any after the end
  /// of the splicing output) and whose input is there, up to frames centred at `limit`.
  private mutating func advanceFrames(map: borrowing MediaTimeMap, upTo limit: Int) {
    while true {
      let centre = frame * synthesisHop
      let at = centre * factor
      guard at <= limit else { break }
      guard at < yEnd || outputDone else { break }
      let yLast = centre + size / 2 - 1
      if yNext <= yLast { advanceOutputLow(through: yLast) }
      guard yNext > yLast else { break }
      let position = map.inputFrame(forOutputFrame: Double(at)) / Double(factor)
      let a = Int(position.rounded())
      let end = a + size / 2
      if lowNext < end { advanceLow(through: end) }
      guard lowNext >= end else { break }
      runFrame(centre: centre, analysis: a)
      frame += 1
    }
  }

  private mutating func runFrame(centre: Int, analysis a: Int) {
    let n = size
    let bins = n / 2 + 1
    for i in 0..<bins {
      sumRe[i] = 0
      sumIm[i] = 0
    }
    for c in 0..<channels {
      low[c].withUnsafeBufferPointer { src in
        for i in 0..<n {
          let idx = a - n / 2 + i
          let v: Float = idx >= lowBase && idx < lowNext ? src[idx - lowBase] : 0
          frameIn[i] = v * window[i]
        }
      }
      frameIn.withUnsafeBufferPointer { src in
        specRe[c].withUnsafeMutableBufferPointer { r in
          specIm[c].withUnsafeMutableBufferPointer { m in
            fft.forward(src.baseAddress!, real: r.baseAddress!, imaginary: m.baseAddress!)
            sumRe.withUnsafeMutableBufferPointer { sr in
              sumIm.withUnsafeMutableBufferPointer { si in
                for i in 0..<bins {
                  sr[i] += r[i]
                  si[i] += m[i]
                }
              }
            }
          }
        }
      }
    }
    for i in 0..<bins {
      magnitude[i] = sumRe[i] * sumRe[i] + sumIm[i] * sumIm[i]
      phase[i] = fastAtan2(sumIm[i], sumRe[i])
    }
    if !hasPrevious {
      for i in 0..<bins {
        rotation[i] = 0
        rotationCos[i] = 1
        rotationSin[i] = 0
        synth[i] = phase[i]
        owner[i] = i
      }
      hasPrevious = true
    } else {
      let step = Float(a - previousAt)
      let hop = Float(synthesisHop)
      // The synthesis phase advance of every bin, from its measured frequency.
      for i in 0..<bins {
        let advance: Float
        if step > 0 {
          var deviation = phase[i] - previousPhase[i] - omega[i] * step
          deviation -= 2 * Float.pi * nearestInteger(deviation / (2 * Float.pi))
          advance = omega[i] + deviation / step
        } else {
          advance = omega[i]
        }
        // Kept within a turn: a phase that ran on for an hour would have lost its precision.
        let next = previousSynth[i] + advance * hop
        synth[i] = next - 2 * Float.pi * nearestInteger(next / (2 * Float.pi))
      }
      // Identity phase locking: each peak's region turns by the peak's angle.
      var start = 0
      var peak = -1
      var peaks = 0
      var i = 1
      while i <= bins {
        let isPeak =
          i < bins - 1 && magnitude[i] > magnitude[i - 1] && magnitude[i] >= magnitude[i + 1]
        if isPeak || i == bins {
          let boundary: Int
          if i == bins {
            boundary = bins
          } else if peak < 0 {
            boundary = 0
          } else {
            boundary = (peak + i) / 2 + 1
          }
          if peak >= 0 {
            var r = synth[peak] - phase[peak]
            r -= 2 * Float.pi * nearestInteger(r / (2 * Float.pi))
            let cr = cosf(r)
            let sr = sinf(r)
            for b in start..<boundary {
              rotation[b] = r
              rotationCos[b] = cr
              rotationSin[b] = sr
              owner[b] = peak
            }
          } else {
            for b in start..<boundary {
              rotation[b] = 0
              rotationCos[b] = 1
              rotationSin[b] = 0
              owner[b] = b
            }
          }
          start = boundary
          peak = i
          if isPeak { peaks += 1 }
        }
        i += 1
      }
      if peaks == 0 {
        for b in 0..<bins {
          rotation[b] = synth[b] - phase[b]
          rotationCos[b] = cosf(rotation[b])
          rotationSin[b] = sinf(rotation[b])
          owner[b] = b
        }
      }
      for b in 0..<bins { synth[b] = phase[b] + rotation[b] }
    }
    previousAt = a
    for b in 0..<bins {
      previousPhase[b] = phase[b]
      previousSynth[b] = synth[b]
    }
    // Each bin's weight: 1 within two bins of a tonal peak, 0 elsewhere (see
    // ``markTonalBins()``).
    markTonalBins()
    // Every channel turned by the same angles; the difference from the splicing output's
    // spectrum in the same window, weighted, overlap-added (Hann², hop n/8: gain 3).
    let first = centre - n / 2 - zBase
    ensureZ(first + n)
    // A frame the vocoder stands aside for adds nothing.
    guard binWeight.contains(where: { $0 > 0 }) else { return }
    let gain: Float = 1.0 / 3
    for c in 0..<channels {
      yd[c].withUnsafeBufferPointer { src in
        let from = centre - n / 2 - ydBase
        for i in 0..<n {
          let idx = from + i
          frameIn[i] = (idx >= 0 ? src[idx] : 0) * window[i]
        }
      }
      frameIn.withUnsafeBufferPointer { src in
        sumRe.withUnsafeMutableBufferPointer { r in
          sumIm.withUnsafeMutableBufferPointer { m in
            fft.forward(src.baseAddress!, real: r.baseAddress!, imaginary: m.baseAddress!)
          }
        }
      }
      specRe[c].withUnsafeMutableBufferPointer { sr in
        specIm[c].withUnsafeMutableBufferPointer { si in
          for b in 0..<bins {
            let w = binWeight[b]
            let cr = rotationCos[b]
            let sn = rotationSin[b]
            let re = sr[b]
            let im = si[b]
            sr[b] = w * (re * cr - im * sn - sumRe[b])
            si[b] = w * (re * sn + im * cr - sumIm[b])
          }
          frameOut.withUnsafeMutableBufferPointer { o in
            fft.inverse(
              real: sr.baseAddress!, imaginary: si.baseAddress!, into: o.baseAddress!)
          }
        }
      }
      z[c].withUnsafeMutableBufferPointer { zc in
        for i in 0..<n {
          zc[first + i] += frameOut[i] * window[i] * gain
        }
      }
    }
  }

  /// Sets ``binWeight``, the vocoder's share of the low band, from how tonal the channel sum's
  /// low band has been lately: the share of its energy in spectral peaks standing
  /// ``peakOverFlank`` times above their quieter flank (and their neighbours), averaged over
  /// about ``tonalSeconds``, mapped from ``noiseShare`` (0) to ``toneShare`` (1). Measured
  /// shares: about 0.65 on a C4-E4-G4 chord, 0.06 on white and 0.10 on pink noise. (Against the
  /// mean of the seven bins around a peak, as before, the chord measured 0.02: its notes stand
  /// three bins apart, so each peak's neighbourhood held the next one, and the vocoder stood
  /// aside on exactly the low chords it is for.) Sustained partials (chords, a bass line) follow the vocoder; noise
  /// (rain, applause, a breathy wash) follows the splicing stage, which keeps its level and
  /// its timing: the vocoder's frames add up out of phase there, losing about 2 dB on pink
  /// noise, and leave no waveform that maps back to the input. The share is averaged, and the
  /// same for every bin, because the two stages' low bands differ in phase: mixed bin by bin or
  /// frame by frame they partly cancel (spectral convergence on the music mix 0.42–0.49
  /// against 0.33–0.38 with the vocoder alone).
  private mutating func markTonalBins() {
    let bins = size / 2 + 1
    let top = topBin
    var total: Float = 0
    var peaks: Float = 0
    for b in 1..<top { total += magnitude[b] }
    if total > 0 {
      var b = 2
      while b < top {
        if magnitude[b] > magnitude[b - 1] && magnitude[b] >= magnitude[b + 1] {
          // The flanks just past a Hann window's main lobe (two bins either side); the quieter
          // one, because the other may hold the next note of a chord (a major third at C4 is
          // three bins away).
          let left = b >= 3 ? 0.5 * (magnitude[b - 3] + magnitude[b - 2]) : 0
          let right = b + 3 < bins ? 0.5 * (magnitude[b + 2] + magnitude[b + 3]) : 0
          if magnitude[b] > Self.peakOverFlank * min(left, right) {
            peaks += magnitude[b - 1] + magnitude[b] + magnitude[b + 1]
          }
        }
        b += 1
      }
      // Weighted by energy, so that quiet frames (the start of a sound) count little.
      tonalPeaks += tonalRate * (peaks - tonalPeaks)
      tonalTotal += tonalRate * (total - tonalTotal)
    }
    let share = tonalTotal > 0 ? tonalPeaks / tonalTotal : 0
    var w = (share - Self.noiseShare) / (Self.toneShare - Self.noiseShare)
    w = min(1, max(0, w))
    // A peak's region takes the vocoder only where the crossover passes the peak whole (see
    // ``flatBin``): a partial in the transition band stays the splicing stage's.
    for b in 0..<bins { binWeight[b] = owner[b] <= flatBin ? w : 0 }
  }

  /// Whether output frame `t` can be final, given the map and the input pushed: the splicing
  /// output reaches `outputAhead` frames past it and the input `inputAhead` frames past where
  /// the map puts that frame.
  func ready(_ t: Int, map: borrowing MediaTimeMap, total: Int?) -> Bool {
    if let total { return t < total }
    guard t + outputAhead < yEnd else { return false }
    let needed = map.inputFrame(forOutputFrame: Double(t + outputAhead)) + Double(inputAhead)
    return needed <= Double(inputEnd)
  }

  /// How many output frames from `emitted` on, up to `count`, are final (see
  /// ``ready(_:map:total:)``, which holds for a frame only if it holds for every frame before).
  private func readyRun(_ count: Int, map: borrowing MediaTimeMap, total: Int?) -> Int {
    if let total { return max(0, min(count, total - emitted)) }
    guard count > 0, ready(emitted, map: map, total: nil) else { return 0 }
    if ready(emitted + count - 1, map: map, total: nil) { return count }
    var below = 1
    var above = count
    while above - below > 1 {
      let middle = (below + above) / 2
      if ready(emitted + middle - 1, map: map, total: nil) {
        below = middle
      } else {
        above = middle
      }
    }
    return below
  }

  /// Weighs the differences up to decimated index `k` (final by then: every vocoder frame that
  /// reaches them has run, and every onset whose hold reaches them is known) by ``weight(_:)``,
  /// once each.
  private mutating func applyWeights(through k: Int) {
    guard weightedNext <= k else { return }
    if !onsets.isEmpty {
      for j in max(weightedNext, zBase)...k {
        let w = weight(j)
        if w != 1 {
          for c in 0..<channels where j - zBase < z[c].count { z[c][j - zBase] *= w }
        }
      }
    }
    weightedNext = k + 1
  }

  /// Writes output frames from `emitted` on, up to `count`, while they are final; returns how
  /// many.
  mutating func emit(
    into out: UnsafeMutablePointer<Float>, count: Int, map: borrowing MediaTimeMap, total: Int?
  ) -> Int {
    var run = readyRun(count, map: map, total: total)
    guard run > 0 else { return 0 }
    // The vocoder frames and decimated values the run's last frame reads (the frames before it
    // read fewer).
    var lastK = floorDivide(emitted + run - 1 + delay, factor)
    var lastCentre = (lastK + size / 2) * factor
    advanceFrames(map: map, upTo: lastCentre)
    while frame * synthesisHop * factor <= lastCentre {
      // Not every frame could run yet (it cannot happen for a frame that is ready; kept safe):
      // the run ends before the first output frame that reads one.
      run -= 1
      guard run > 0 else { return 0 }
      lastK = floorDivide(emitted + run - 1 + delay, factor)
      lastCentre = (lastK + size / 2) * factor
    }
    applyWeights(through: lastK)
    let start = emitted
    let scale = Float(factor)
    let yb = yBase
    let ye = yEnd
    let zb = zBase
    let rows = UnsafePointer(phaseStorage.taps)
    for c in 0..<channels {
      z[c].withUnsafeBufferPointer { zc in
        y[c].withUnsafeBufferPointer { yc in
          guard let zp = zc.baseAddress else { return }
          // The oldest decimated value the frame reads, and the tap it meets (the newest tap
          // is `taps − 1 − r`; row `r` of the polyphase table holds the rest), kept from frame
          // to frame without dividing.
          var firstK = -floorDivide(delay - start, factor)
          var newest = start + delay - firstK * factor
          for j in 0..<run {
            let t = start + j
            if newest >= taps {
              firstK += 1
              newest -= factor
            }
            let row = rows + (taps - 1 - newest) * phaseLength
            let at = firstK - zb
            var s: Float
            if at >= 0 && at + phaseLength <= zc.count {
              s = dot(row, zp + at, count: phaseLength)
            } else {
              s = 0
              for i in 0...(newest / factor) where at + i >= 0 && at + i < zc.count {
                s += row[i] * zp[at + i]
              }
            }
            newest += 1
            let yi = t - yb
            let yv: Float = t >= 0 && t < ye && yi >= 0 && yi < yc.count ? yc[yi] : 0
            out[j * channels + c] = yv + scale * s
          }
        }
      }
    }
    emitted += run
    trim()
    return run
  }

  /// Drops what no later frame reads.
  private mutating func trim() {
    let yKeep = min(emitted, yNext * factor - delay - taps) - 1
    if yKeep - yBase > 4096 {
      let k = min(yKeep, yEnd) - yBase
      if k > 0 {
        for c in 0..<channels { y[c].removeFirst(k) }
        yBase += k
      }
    }
    let onsetKeep = emitted - max(onsetHold, onsetAfter) - onsetFade - delay - factor
    if let first = onsets.first, first < onsetKeep {
      onsets.removeAll { $0 < onsetKeep }
    }
    let ydKeep = frame * synthesisHop - size / 2 - 1
    if ydKeep - ydBase > 1024 {
      let k = min(ydKeep, yNext) - ydBase
      for c in 0..<channels { yd[c].removeFirst(k) }
      ydBase += k
    }
    let zKeep = Int((Double(emitted - delay) / Double(factor)).rounded(.down)) - 1
    let zDrop = min(zKeep, frame * synthesisHop - size / 2) - zBase
    if zDrop > 1024 {
      for c in 0..<channels { z[c].removeFirst(min(zDrop, z[c].count)) }
      zBase += zDrop
    }
    // The input: the next frame reads from where the map puts it, less half a window.
    let lowKeep = previousAt - size / 2 - 1
    if hasPrevious && lowKeep - lowBase > 1024 {
      let k = min(lowKeep, lowNext) - lowBase
      for c in 0..<channels { low[c].removeFirst(k) }
      lowBase += k
    }
    let rawKeep = lowNext * factor + delay - taps - 1
    if rawKeep - rawBase > 8192 {
      let k = min(rawKeep, inputEnd) - rawBase
      if k > 0 {
        for c in 0..<channels { raw[c].removeFirst(k) }
        rawBase += k
      }
    }
  }
}

/// The angle of `(x, y)` in radians, −π...π, within 2·10⁻⁶ of `atan2f` (an odd polynomial
/// fitted to `atan` on 0...1, least maximum error, and the octant's symmetries); 0 at the
/// origin. About five times faster than the C library's, for the vocoder's phases.
@inline(__always)
func fastAtan2(_ y: Float, _ x: Float) -> Float {
  let ax = abs(x)
  let ay = abs(y)
  let high = max(ax, ay)
  guard high > 0 else { return 0 }
  let a = min(ax, ay) / high
  let a2 = a * a
  var p: Float = -0.011_719_078_3
  p = p * a2 + 0.052_647_224_5
  p = p * a2 - 0.116_426_393
  p = p * a2 + 0.193_540_359
  p = p * a2 - 0.332_622_83
  p = p * a2 + 0.999_977_22
  var r = p * a
  if ay > ax { r = Float.pi / 2 - r }
  if x < 0 { r = Float.pi - r }
  return y < 0 ? -r : r
}

/// `x` rounded to the nearest integer (ties to even) without a library call (the x86-64
/// baseline has no rounding instruction); `x` itself from 2²² on, where every float is one.
@inline(__always)
func nearestInteger(_ x: Float) -> Float {
  guard abs(x) < 0x1p22 else { return x }
  return (x + 0x1.8p23) - 0x1.8p23
}

/// `a / b` rounded down, for `b > 0`.
@inline(__always)
func floorDivide(_ a: Int, _ b: Int) -> Int {
  let q = a / b
  return a % b < 0 ? q - 1 : q
}

/// The low-pass filter's taps in memory of their own, freed with the last stage that uses them.
final class FilterStorage: @unchecked Sendable {
  // @unchecked: written once in init, only read after.
  let taps: UnsafeMutablePointer<Float>
  init(_ values: [Float]) {
    taps = .allocate(capacity: values.count)
    taps.initialize(from: values, count: values.count)
  }
  deinit { taps.deallocate() }
}
