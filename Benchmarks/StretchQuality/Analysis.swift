import Foundation

/// An in-place iterative radix-2 complex FFT of a fixed size.
struct FFT {
  let size: Int
  private let cosTable: [Double]
  private let sinTable: [Double]
  private let bitReverse: [Int]

  init(size: Int) {
    self.size = size
    cosTable = (0..<(size / 2)).map { cos(-2 * Double.pi * Double($0) / Double(size)) }
    sinTable = (0..<(size / 2)).map { sin(-2 * Double.pi * Double($0) / Double(size)) }
    var rev = [Int](repeating: 0, count: size)
    var bits = 0
    while 1 << bits < size { bits += 1 }
    for i in 0..<size {
      var r = 0
      for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
      rev[i] = r
    }
    bitReverse = rev
  }

  func transform(_ re: inout [Double], _ im: inout [Double]) {
    for i in 0..<size where bitReverse[i] > i {
      re.swapAt(i, bitReverse[i])
      im.swapAt(i, bitReverse[i])
    }
    var len = 2
    while len <= size {
      let half = len / 2
      let step = size / len
      var start = 0
      while start < size {
        for k in 0..<half {
          let c = cosTable[k * step]
          let s = sinTable[k * step]
          let a = start + k
          let b = a + half
          let tr = re[b] * c - im[b] * s
          let ti = re[b] * s + im[b] * c
          re[b] = re[a] - tr
          im[b] = im[a] - ti
          re[a] += tr
          im[a] += ti
        }
        start += len
      }
      len *= 2
    }
  }

  /// The power spectrum (bins 0...size/2) of `x[from..<from+size]` under `window`.
  func power(_ x: [Double], from: Int, window: [Double]) -> [Double] {
    var re = [Double](repeating: 0, count: size)
    var im = [Double](repeating: 0, count: size)
    for i in 0..<size where from + i >= 0 && from + i < x.count {
      re[i] = x[from + i] * window[i]
    }
    transform(&re, &im)
    return (0...(size / 2)).map { re[$0] * re[$0] + im[$0] * im[$0] }
  }
}

func hann(_ n: Int) -> [Double] {
  (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
}

func blackmanHarris(_ n: Int) -> [Double] {
  (0..<n).map {
    let x = 2 * Double.pi * Double($0) / Double(n)
    return 0.35875 - 0.48829 * cos(x) + 0.14128 * cos(2 * x) - 0.01168 * cos(3 * x)
  }
}

/// Tone quality of a mono signal's middle: SNR (dB) of the strongest peak ±8 bins against all
/// other energy, and the peak frequency (Hz) by Gaussian interpolation.
func toneAnalysis(_ x: [Double], sampleRate: Int, fft: FFT, window: [Double]) -> (
  snr: Double, frequency: Double
) {
  let start = max(0, (x.count - fft.size) / 2)
  let p = fft.power(x, from: start, window: window)
  var peak = 1
  for i in 1..<(p.count - 1) where p[i] > p[peak] { peak = i }
  var signal = 0.0
  var noise = 0.0
  for i in 0..<p.count {
    if abs(i - peak) <= 8 { signal += p[i] } else { noise += p[i] }
  }
  let a = log(max(p[peak - 1], 1e-300))
  let b = log(max(p[peak], 1e-300))
  let c = log(max(p[peak + 1], 1e-300))
  let delta = 0.5 * (a - c) / (a - 2 * b + c)
  let f = (Double(peak) + delta) * Double(sampleRate) / Double(fft.size)
  return (10 * log10(signal / max(noise, 1e-30)), f)
}

/// ‖|S_out| − |S_ideal|‖ / ‖|S_ideal|‖ over Hann magnitude spectrograms (2048 / 512), `output`
/// shifted left by `shift` frames, compared over the ideal's length.
func spectralConvergence(
  _ output: [Double], _ ideal: [Double], shift: Int, fft: FFT, window: [Double]
) -> Double {
  var num = 0.0
  var den = 0.0
  var from = 0
  while from + fft.size <= ideal.count {
    let a = fft.power(output, from: from + shift, window: window)
    let b = fft.power(ideal, from: from, window: window)
    for i in 0..<a.count {
      let d = a[i].squareRoot() - b[i].squareRoot()
      num += d * d
      den += b[i]
    }
    from += 512
  }
  return (num / max(den, 1e-30)).squareRoot()
}

/// Click detection: peaks above `threshold`, merged within `merge` frames.
func detectClicks(_ x: [Double], threshold: Double, merge: Int) -> [Int] {
  var peaks: [Int] = []
  var i = 0
  while i < x.count {
    if abs(x[i]) > threshold {
      var best = i
      var j = i
      var last = i
      while j < x.count && j - last <= merge {
        if abs(x[j]) > threshold {
          last = j
          if abs(x[j]) > abs(x[best]) { best = j }
        }
        j += 1
      }
      peaks.append(best)
      i = j
    } else {
      i += 1
    }
  }
  return peaks
}

struct ClickReport {
  var doubled = 0
  var missed = 0
  var maxError = 0.0  // frames, |detected − ideal|
  var medianOffset = 0
}

/// Matches detected clicks against ideal positions (each owns the frames within half a spacing).
func matchClicks(_ detected: [Int], ideal: [Int], spacing: Int) -> ClickReport {
  var r = ClickReport()
  var offsets: [Int] = []
  for c in ideal {
    let near = detected.filter { abs($0 - c) <= spacing / 2 }
    if near.isEmpty {
      r.missed += 1
      continue
    }
    r.doubled += near.count - 1
    let closest = near.min { abs($0 - c) < abs($1 - c) } ?? c
    offsets.append(closest - c)
    r.maxError = max(r.maxError, Double(abs(closest - c)))
  }
  offsets.sort()
  r.medianOffset = offsets.isEmpty ? 0 : offsets[offsets.count / 2]
  return r
}

/// The inter-channel delay (frames, R after L, parabolic) and the normalised correlation there.
func interChannelDelay(_ l: [Double], _ r: [Double], maxLag: Int) -> (delay: Double, corr: Double) {
  let n = min(l.count, r.count)
  let from = n / 4
  let to = n - n / 4
  func corr(_ lag: Int) -> Double {
    var s = 0.0
    var el = 0.0
    var er = 0.0
    for i in from..<to where i - lag >= 0 && i - lag < n {
      s += r[i] * l[i - lag]
      el += l[i - lag] * l[i - lag]
      er += r[i] * r[i]
    }
    return s / max((el * er).squareRoot(), 1e-30)
  }
  var best = 0
  var bestC = -2.0
  for lag in -maxLag...maxLag {
    let c = corr(lag)
    if c > bestC {
      bestC = c
      best = lag
    }
  }
  let a = corr(best - 1)
  let c = corr(best + 1)
  let den = a - 2 * bestC + c
  let delta = den < 0 ? 0.5 * (a - c) / den : 0
  return (Double(best) + delta, bestC)
}

/// The local timing of a stretched signal against the ideal timeline, in input (media) frames:
/// `offsets[i]` is how far the media that output frame `centres[i]` plays sits from where it
/// should (`centres[i] · speed`), nil where no match correlates well enough.
///
/// Method: a short Hann window of the output (`window` frames) around each centre is
/// cross-correlated, through the FFT, with the input around the ideal position (±`maxLag`
/// frames); the lag of the normalised correlation's peak (refined by a parabola) is the offset.
/// This needs a signal whose waveform has no periodic ambiguity at these lags, such as
/// band-limited noise: on a tone every period would match equally well. A peak below `minimum`
/// (a phase vocoder does not keep the waveform) leaves the point unmeasured.
func localOffsets(
  output: [Double], input: [Double], speed: Double, centres: [Int], window: Int, maxLag: Int,
  fft: FFT, minimum: Double = 0.5
) -> [Double?] {
  let n = fft.size
  precondition(n >= window + 2 * maxLag + 2)
  let w = hann(window)
  var prefix = [Double](repeating: 0, count: input.count + 1)
  for i in 0..<input.count { prefix[i + 1] = prefix[i] + input[i] * input[i] }
  var result: [Double?] = []
  result.reserveCapacity(centres.count)
  for t in centres {
    let ideal = Double(t) * speed
    let centre = Int(ideal.rounded())
    let start = centre - window / 2 - maxLag
    let yStart = t - window / 2
    guard start >= 0, start + 2 * maxLag + window <= input.count, yStart >= 0,
      yStart + window <= output.count
    else {
      result.append(nil)
      continue
    }
    var yr = [Double](repeating: 0, count: n)
    var yi = [Double](repeating: 0, count: n)
    var yEnergy = 0.0
    for i in 0..<window {
      let v = output[yStart + i] * w[i]
      yr[i] = v
      yEnergy += v * v
    }
    var xr = [Double](repeating: 0, count: n)
    var xi = [Double](repeating: 0, count: n)
    for i in 0..<min(n, input.count - start) { xr[i] = input[start + i] }
    fft.transform(&yr, &yi)
    fft.transform(&xr, &xi)
    // conj(Y)·X, inverse transformed through the forward one (conjugate in, conjugate out).
    var cr = [Double](repeating: 0, count: n)
    var ci = [Double](repeating: 0, count: n)
    for k in 0..<n {
      cr[k] = yr[k] * xr[k] + yi[k] * xi[k]
      ci[k] = -(yr[k] * xi[k] - yi[k] * xr[k])
    }
    fft.transform(&cr, &ci)
    func ncc(_ l: Int) -> Double {
      let e = prefix[start + l + window] - prefix[start + l]
      return cr[l] / Double(n) / max((e * yEnergy).squareRoot(), 1e-30)
    }
    var best = 0
    var bestValue = -2.0
    for l in 0...(2 * maxLag) {
      let v = ncc(l)
      if v > bestValue {
        bestValue = v
        best = l
      }
    }
    guard bestValue >= minimum else {
      result.append(nil)
      continue
    }
    var delta = 0.0
    if best > 0 && best < 2 * maxLag {
      let a = ncc(best - 1)
      let c = ncc(best + 1)
      let den = a - 2 * bestValue + c
      if den < 0 { delta = 0.5 * (a - c) / den }
    }
    result.append(Double(start + best) + delta + Double(window / 2) - ideal)
  }
  return result
}

/// Worst and 95th-percentile absolute timeline error (frames) after averaging the local offsets
/// over `span` points either side, and the fraction of points that could be measured.
///
/// A point more than `isolated` frames away from every measured point within two either side (at
/// least two of them) is a false match and counts as unmeasured: with 6 ms windows 1 ms apart,
/// neighbouring points share most of their output, so a real change of timing shows in a
/// neighbour too. False peaks occur because a 6 ms stretch of band-limited noise has few degrees
/// of freedom: among the thousands of lags within ±40 ms, unrelated input may correlate about as
/// well (0.6–0.7) as the true position does inside a crossfade of two segments. On a synthetic
/// overlap-add of 10 ms Hann segments sitting exactly on the timeline at 2x, one such point 37 ms
/// off made the worst 10 ms average 4.1 ms instead of 1.6 ms.
func timelineError(_ raw: [Double?], span: Int, isolated: Double) -> (
  worst: Double, p95: Double, coverage: Double
)? {
  var offsets = raw
  for i in raw.indices {
    guard let v = raw[i] else { continue }
    var near = 0
    var agreeing = 0
    for j in max(0, i - 2)...min(raw.count - 1, i + 2) where j != i {
      guard let w = raw[j] else { continue }
      near += 1
      if abs(v - w) <= isolated { agreeing += 1 }
    }
    if near >= 2 && agreeing == 0 { offsets[i] = nil }
  }
  var smoothed: [Double] = []
  for i in offsets.indices {
    var sum = 0.0
    var count = 0
    for j in max(0, i - span)...min(offsets.count - 1, i + span) {
      if let v = offsets[j] {
        sum += v
        count += 1
      }
    }
    if count > span { smoothed.append(abs(sum / Double(count))) }
  }
  guard !smoothed.isEmpty else { return nil }
  smoothed.sort()
  let measured = offsets.filter { $0 != nil }.count
  return (
    smoothed[smoothed.count - 1], smoothed[min(smoothed.count - 1, smoothed.count * 95 / 100)],
    Double(measured) / Double(max(1, offsets.count))
  )
}
