#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real-input FFT of a power-of-two size, through a complex FFT of half the size (radix 2,
/// in place) and the split of its result into the real signal's spectrum.
///
/// Spectra hold bins 0 through `size / 2` as separate real and imaginary arrays. The forward
/// transform is unscaled; the inverse divides by `size`, so the two are inverses.
struct RealFFT {
  /// The transform size (frames), a power of two, at least 4.
  let size: Int
  let half: Int
  /// Twiddles of the half-size complex FFT: cos and −sin of 2πk/half, k < half/2.
  private var cosTable: [Float]
  private var sinTable: [Float]
  /// Twiddles of the split: cos and sin of 2πk/size, k ≤ half.
  private var splitCos: [Float]
  private var splitSin: [Float]
  /// The bit-reversed index of each position of the half-size transform.
  private var reversed: [Int]
  /// The complex work buffer of the half-size transform.
  private var re: [Float]
  private var im: [Float]

  init(size: Int) {
    precondition(size >= 4 && size & (size - 1) == 0, "RealFFT size must be a power of two")
    self.size = size
    half = size / 2
    cosTable = (0..<max(1, half / 2)).map {
      Float(cos(2 * Double.pi * Double($0) / Double(size / 2)))
    }
    sinTable = (0..<max(1, half / 2)).map {
      Float(-sin(2 * Double.pi * Double($0) / Double(size / 2)))
    }
    splitCos = (0...(size / 2)).map { Float(cos(2 * Double.pi * Double($0) / Double(size))) }
    splitSin = (0...(size / 2)).map { Float(sin(2 * Double.pi * Double($0) / Double(size))) }
    var bits = 0
    while 1 << bits < size / 2 { bits += 1 }
    reversed = (0..<(size / 2)).map { i in
      var r = 0
      for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
      return r
    }
    re = [Float](repeating: 0, count: size / 2)
    im = [Float](repeating: 0, count: size / 2)
  }

  /// The in-place complex FFT of `re`/`im` (forward: e^(−2πi·jk/n); inverse: the conjugate
  /// twiddles, unscaled).
  private mutating func complexTransform(inverse: Bool) {
    let n = half
    let sign: Float = inverse ? -1 : 1
    re.withUnsafeMutableBufferPointer { r in
      im.withUnsafeMutableBufferPointer { m in
        reversed.withUnsafeBufferPointer { rev in
          for i in 0..<n {
            let j = rev[i]
            if j > i {
              r.swapAt(i, j)
              m.swapAt(i, j)
            }
          }
        }
        cosTable.withUnsafeBufferPointer { ct in
          sinTable.withUnsafeBufferPointer { st in
            var length = 2
            while length <= n {
              let halfLength = length / 2
              let stride = n / length
              var start = 0
              while start < n {
                for k in 0..<halfLength {
                  let wr = ct[k * stride]
                  let wi = sign * st[k * stride]
                  let a = start + k
                  let b = a + halfLength
                  let tr = r[b] * wr - m[b] * wi
                  let ti = r[b] * wi + m[b] * wr
                  r[b] = r[a] - tr
                  m[b] = m[a] - ti
                  r[a] += tr
                  m[a] += ti
                }
                start += length
              }
              length *= 2
            }
          }
        }
      }
    }
  }

  /// The spectrum (bins 0...size/2) of the `size` real values at `input`.
  mutating func forward(
    _ input: UnsafePointer<Float>, real outRe: UnsafeMutablePointer<Float>,
    imaginary outIm: UnsafeMutablePointer<Float>
  ) {
    let n = half
    for i in 0..<n {
      re[i] = input[2 * i]
      im[i] = input[2 * i + 1]
    }
    complexTransform(inverse: false)
    // X[k] = E[k] + e^(−2πik/N)·O[k], with E[k] = (Z[k] + Z*[n−k])/2, O[k] = (Z[k] − Z*[n−k])/2i.
    outRe[0] = re[0] + im[0]
    outIm[0] = 0
    outRe[n] = re[0] - im[0]
    outIm[n] = 0
    for k in 1..<n {
      let ar = re[k]
      let ai = im[k]
      let br = re[n - k]
      let bi = -im[n - k]
      let er = 0.5 * (ar + br)
      let ei = 0.5 * (ai + bi)
      // (a − b)/2i = (ai − bi)/2 − i(ar − br)/2
      let or = 0.5 * (ai - bi)
      let oi = -0.5 * (ar - br)
      let c = splitCos[k]
      let s = -splitSin[k]
      outRe[k] = er + or * c - oi * s
      outIm[k] = ei + or * s + oi * c
    }
  }

  /// The `size` real values (scaled by 1/size) whose spectrum is bins 0...size/2 given.
  mutating func inverse(
    real inRe: UnsafePointer<Float>, imaginary inIm: UnsafePointer<Float>,
    into output: UnsafeMutablePointer<Float>
  ) {
    let n = half
    for k in 0..<n {
      let ar = inRe[k]
      let ai = inIm[k]
      let br = inRe[n - k]
      let bi = -inIm[n - k]
      let er = 0.5 * (ar + br)
      let ei = 0.5 * (ai + bi)
      let dr = 0.5 * (ar - br)
      let di = 0.5 * (ai - bi)
      let c = splitCos[k]
      let s = splitSin[k]
      // O[k] = D[k]·e^(2πik/N); Z[k] = E[k] + i·O[k].
      let or = dr * c - di * s
      let oi = dr * s + di * c
      re[k] = er - oi
      im[k] = ei + or
    }
    complexTransform(inverse: true)
    let scale = 1 / Float(size)
    for i in 0..<n {
      output[2 * i] = re[i] * 2 * scale
      output[2 * i + 1] = im[i] * 2 * scale
    }
  }
}
