import Testing

@testable import TimeStretch

private func randomSignal(_ n: Int, seed: UInt64) -> [Float] {
  var rng = SeededGenerator(seed: seed)
  return (0..<n).map { _ in Float(Int64(bitPattern: rng.next()) >> 40) / Float(1 << 23) }
}

@Test(arguments: [0, 1, 7, 8, 15, 16, 31, 32, 33, 100, 441, 1024])
func dotAndEnergyMatchesTheScalarReference(count: Int) {
  let a = randomSignal(count + 3, seed: 1)
  let b = randomSignal(count + 3, seed: 2)
  a.withUnsafeBufferPointer { pa in
    b.withUnsafeBufferPointer { pb in
      guard let x = pa.baseAddress, let y = pb.baseAddress else { return }
      for offset in 0..<3 {
        let v = dotAndEnergy(x + offset, y + offset, count: count)
        let r = dotAndEnergyReference(x + offset, y + offset, count: count)
        let tolerance = Float(1e-5) * Float(max(count, 1))
        #expect(abs(v.dot - r.dot) <= tolerance)
        #expect(abs(v.energy - r.energy) <= tolerance)
      }
    }
  }
}

@Test(arguments: [1, 2, 6])
func addInterpolatedMatchesTheScalarReference(stride: Int) {
  let count = 203 * stride
  let w = randomSignal(count, seed: 6)
  let x = randomSignal(count + 4 * stride, seed: 7)
  for f in [0.0, 0.25, 0.5, 0.9] {
    let h = lagrangeCoefficients(f)
    for windowed in [true, false] {
      var fast = randomSignal(count, seed: 8)
      var slow = fast
      w.withUnsafeBufferPointer { pw in
        x.withUnsafeBufferPointer { px in
          fast.withUnsafeMutableBufferPointer { pf in
            slow.withUnsafeMutableBufferPointer { ps in
              guard let wp = pw.baseAddress, let xp = px.baseAddress, let fp = pf.baseAddress,
                let sp = ps.baseAddress
              else { return }
              let weights: UnsafePointer<Float>? = windowed ? wp : nil
              addInterpolated(
                fp, weights, xp + stride, frameStride: stride, coefficients: h, count: count)
              addInterpolatedReference(
                sp, weights, xp + stride, frameStride: stride, coefficients: h, count: count)
            }
          }
        }
      }
      var worst: Float = 0
      for i in 0..<count { worst = max(worst, abs(fast[i] - slow[i])) }
      #expect(worst <= 1e-6)
    }
  }
}

@Test(arguments: [1, 2, 6])
func readSegmentMatchesTheScalarReference(stride: Int) {
  let half = 101 * stride
  let w = randomSignal(2 * half, seed: 21)
  let x = randomSignal(2 * half + 4 * stride, seed: 22)
  let first = randomSignal(half, seed: 23)
  for h in [nil, lagrangeCoefficients(0.25), lagrangeCoefficients(0.9)] {
    var out: [[Float]] = []
    for reference in [false, true] {
      var raw = [Float](repeating: 7, count: 2 * half)
      var acc = first
      var next = [Float](repeating: 7, count: half)
      w.withUnsafeBufferPointer { pw in
        x.withUnsafeBufferPointer { px in
          raw.withUnsafeMutableBufferPointer { pr in
            acc.withUnsafeMutableBufferPointer { pa in
              next.withUnsafeMutableBufferPointer { pn in
                guard let wp = pw.baseAddress, let xp = px.baseAddress, let r = pr.baseAddress,
                  let a = pa.baseAddress, let n = pn.baseAddress
                else { return }
                if reference {
                  readSegmentReference(
                    raw: r, first: a, second: n, window: wp, xp + stride, frameStride: stride,
                    coefficients: h, half: half)
                } else {
                  readSegment(
                    raw: r, first: a, second: n, window: wp, xp + stride, frameStride: stride,
                    coefficients: h, half: half)
                }
              }
            }
          }
        }
      }
      out.append(raw + acc + next)
    }
    var worst: Float = 0
    for i in 0..<out[0].count { worst = max(worst, abs(out[0][i] - out[1][i])) }
    #expect(worst <= 1e-6)
  }
}

@Test func lagrangeCoefficientsInterpolateCubicsExactly() {
  for f in [0.0, 0.1, 0.5, 0.77] {
    let h = lagrangeCoefficients(f)
    #expect(abs(h.sum() - 1) < 1e-6)
    // x³ sampled at -1, 0, 1, 2.
    let v = -h[0] + h[2] + 8 * h[3]
    #expect(abs(Double(v) - f * f * f) < 1e-5)
  }
  #expect(lagrangeCoefficients(0) == SIMD4<Float>(0, 1, 0, 0))
}

@Test(arguments: [0, 7, 16, 33, 1102])
func threeDotsWindowedMatchTheScalarReference(count: Int) {
  let a = randomSignal(count, seed: 11)
  let w = randomSignal(count, seed: 15)
  let b = randomSignal(count + 2, seed: 12)
  a.withUnsafeBufferPointer { pa in
    w.withUnsafeBufferPointer { pw in
      b.withUnsafeBufferPointer { pb in
        guard let x = pa.baseAddress, let h = pw.baseAddress, let y = pb.baseAddress else {
          return
        }
        let v = threeDotsWindowed(x, h, y + 1, count: count)
        let r = threeDotsWindowedReference(x, h, y + 1, count: count)
        for k in 0..<3 {
          #expect(abs(v[k] - r[k]) <= 1e-5 * Double(max(count, 1)))
        }
        #expect(v[3] == 0 && r[3] == 0)
      }
    }
  }
}

@Test(arguments: [0, 1, 2, 3, 7, 13, 104, 110])
func dots8MatchesTheScalarReference(count: Int) {
  let a = randomSignal(count, seed: 13)
  let b = randomSignal(count + 8, seed: 14)
  a.withUnsafeBufferPointer { pa in
    b.withUnsafeBufferPointer { pb in
      guard let x = pa.baseAddress, let y = pb.baseAddress else { return }
      let v = dots8(x, y, count: count)
      let r = dots8Reference(x, y, count: count)
      for l in 0..<8 {
        #expect(abs(v[l] - r[l]) <= Float(1e-5) * Float(max(count, 1)))
      }
    }
  }
}

@Test(arguments: [0, 1, 2, 3, 7, 13, 104, 110, 440])
func dots16MatchesTheScalarReferenceAndDots8(count: Int) {
  let a = randomSignal(count, seed: 17)
  let b = randomSignal(count + 16, seed: 18)
  a.withUnsafeBufferPointer { pa in
    b.withUnsafeBufferPointer { pb in
      guard let x = pa.baseAddress, let y = pb.baseAddress else { return }
      let (v0, v1) = dots16(x, y, count: count)
      let r0 = dots8Reference(x, y, count: count)
      let r1 = dots8Reference(x, y + 8, count: count)
      for l in 0..<8 {
        #expect(abs(v0[l] - r0[l]) <= Float(1e-5) * Float(max(count, 1)))
        #expect(abs(v1[l] - r1[l]) <= Float(1e-5) * Float(max(count, 1)))
      }
      // The same sums as dots8, bit for bit: the search may take either for a lag.
      #expect(v0 == dots8(x, y, count: count))
      #expect(v1 == dots8(x, y + 8, count: count))
    }
  }
}

@Test(arguments: [0, 1, 2, 3, 7, 13, 104, 110, 440])
func dots8TripleMatchesDots8BitForBit(count: Int) {
  let a = randomSignal(count, seed: 19)
  let b = randomSignal(count + 64, seed: 20)
  a.withUnsafeBufferPointer { pa in
    b.withUnsafeBufferPointer { pb in
      guard let x = pa.baseAddress, let y = pb.baseAddress else { return }
      // Blocks apart, adjacent and overlapping: the search may take any kernel for a lag.
      let (v0, v1, v2) = dots8Triple(x, y + 3, y + 11, y + 40, count: count)
      #expect(v0 == dots8(x, y + 3, count: count))
      #expect(v1 == dots8(x, y + 11, count: count))
      #expect(v2 == dots8(x, y + 40, count: count))
      #expect(v1 == dots16(x, y + 3, count: count).1)
    }
  }
}

/// The vector inverse square root is within 2·10⁻⁷ of 1/√x (in Double) over the whole range of
/// normal Floats the crossfade and the coarse search give it, powers of ten from 10⁻³⁷ to 10³⁷
/// and values between them.
@Test func inverseSquareRootIsWithinTwoTenMillionths() {
  var worst = 0.0
  var x: Float = 1.2e-37
  while x < 1e37 {
    let lanes = SIMD8<Float>(x, x * 1.1, x * 1.37, x * 1.5, x * 2, x * 2.9, x * 3.3, x * 7.7)
    let y = inverseSquareRoot(lanes)
    for lane in 0..<8 {
      let exact = 1 / Double(lanes[lane]).squareRoot()
      worst = max(worst, abs(Double(y[lane]) / exact - 1))
    }
    x *= 10
  }
  #expect(worst < 2e-7, "worst relative error \(worst)")
}
