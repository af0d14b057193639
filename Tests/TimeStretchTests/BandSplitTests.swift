import Testing

@testable import TimeStretch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real FFT against a direct DFT, and its inverse back to the input.
@Test func realFFTMatchesDirectDFT() {
  for size in [4, 16, 256] {
    var fft = RealFFT(size: size)
    var state: UInt64 = 12_345
    let x: [Float] = (0..<size).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Float(Int64(bitPattern: state >> 11) % 2000) / 1000 - 1
    }
    var re = [Float](repeating: 0, count: size / 2 + 1)
    var im = re
    x.withUnsafeBufferPointer { p in
      re.withUnsafeMutableBufferPointer { r in
        im.withUnsafeMutableBufferPointer { m in
          fft.forward(p.baseAddress!, real: r.baseAddress!, imaginary: m.baseAddress!)
        }
      }
    }
    var worst = 0.0
    for k in 0...(size / 2) {
      var sr = 0.0
      var si = 0.0
      for n in 0..<size {
        let a = -2 * Double.pi * Double(k * n) / Double(size)
        sr += Double(x[n]) * cos(a)
        si += Double(x[n]) * sin(a)
      }
      worst = max(worst, abs(sr - Double(re[k])), abs(si - Double(im[k])))
    }
    #expect(worst < 1e-4 * Double(size))
    var back = [Float](repeating: 0, count: size)
    re.withUnsafeBufferPointer { r in
      im.withUnsafeBufferPointer { m in
        back.withUnsafeMutableBufferPointer { o in
          fft.inverse(real: r.baseAddress!, imaginary: m.baseAddress!, into: o.baseAddress!)
        }
      }
    }
    let error = zip(x, back).map { abs($0 - $1) }.max() ?? 1
    #expect(error < 1e-5)
  }
}

/// A 440 Hz tone stretched in blocks comes out at the exact length, at its level.
@Test(arguments: [0.5, 1.5, 3.0])
func bandSplitKeepsLengthAndLevel(speed: Double) throws {
  let rate = 44_100
  let frames = rate
  let input = (0..<frames).flatMap { i -> [Float] in
    let v = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / Double(rate)))
    return [v, 0.5 * v]
  }
  var s = try TimeStretcher(sampleRate: rate, channels: 2, speed: speed)
  let out = s.process(input: input)
  let expected = Int((Double(frames) / speed).rounded())
  #expect(out.count / 2 == expected)
  let n = out.count / 2
  var e0 = 0.0
  var e1 = 0.0
  for i in (n / 4)..<(3 * n / 4) {
    e0 += Double(out[2 * i] * out[2 * i])
    e1 += Double(out[2 * i + 1] * out[2 * i + 1])
  }
  let rms = (e0 / Double(n / 2)).squareRoot()
  #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.01)
  #expect(abs(10 * log10(e0 / e1) - 20 * log10(2.0)) < 0.01)
}
