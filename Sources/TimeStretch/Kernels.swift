// Vector kernels of the stretcher. Each has a scalar reference below it, and the tests check
// that both agree. Pointers never leave this module. Multiplies and adds stay separate:
// `addProduct` becomes one `fmaf` call per lane on the x86-64 baseline, many times slower.
//
// The kernels open alike (raw views of their pointers, the stride, a vector loop over `i`) and
// each keeps its own copy of those lines on purpose: the loops differ in width, accumulators and
// the order of their additions, which the scalar references and the stretcher's bit-exact
// output depend on, and each kernel reads as one piece with its reference below it.

/// Returns `Σ a[i]·b[i]` and `Σ b[i]²` over `count` elements (SIMD8 multiply-adds, two
/// accumulators each: eight vector registers, which fit the x86-64 baseline without spills).
@inline(__always)
func dotAndEnergy(
  _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int
) -> (dot: Float, energy: Float) {
  var dot0 = SIMD8<Float>(repeating: 0)
  var dot1 = SIMD8<Float>(repeating: 0)
  var en0 = SIMD8<Float>(repeating: 0)
  var en1 = SIMD8<Float>(repeating: 0)
  let ra = UnsafeRawPointer(a)
  let rb = UnsafeRawPointer(b)
  let stride = MemoryLayout<Float>.stride
  var i = 0
  while i + 16 <= count {
    let a0 = ra.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
    let b0 = rb.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
    let a1 = ra.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
    let b1 = rb.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
    dot0 += a0 * b0
    en0 += b0 * b0
    dot1 += a1 * b1
    en1 += b1 * b1
    i += 16
  }
  if i + 8 <= count {
    let a0 = ra.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
    let b0 = rb.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
    dot0 += a0 * b0
    en0 += b0 * b0
    i += 8
  }
  var dot = (dot0 + dot1).sum()
  var energy = (en0 + en1).sum()
  while i < count {
    dot += a[i] * b[i]
    energy += b[i] * b[i]
    i += 1
  }
  return (dot, energy)
}

/// Scalar reference of ``dotAndEnergy(_:_:count:)``.
func dotAndEnergyReference(
  _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int
) -> (dot: Float, energy: Float) {
  var dot: Double = 0
  var energy: Double = 0
  for i in 0..<count {
    dot += Double(a[i]) * Double(b[i])
    energy += Double(b[i]) * Double(b[i])
  }
  return (Float(dot), Float(energy))
}

/// `acc[i] += w[i] · (h.0·x[i−s] + h.1·x[i] + h.2·x[i+s] + h.3·x[i+2s])` over `count` elements:
/// a windowed read at a fractional position with a four-point interpolator, where `s` is the
/// distance between neighbouring frames (the channel count for interleaved audio). `acc` may be
/// `nil`-windowed by passing `w == nil`, in which case the interpolated value is stored.
@inline(__always)
func addInterpolated(
  _ acc: UnsafeMutablePointer<Float>, _ w: UnsafePointer<Float>?, _ x: UnsafePointer<Float>,
  frameStride s: Int, coefficients h: SIMD4<Float>, count: Int
) {
  let racc = UnsafeMutableRawPointer(acc)
  let rx = UnsafeRawPointer(x)
  let stride = MemoryLayout<Float>.stride
  let h0 = SIMD8<Float>(repeating: h[0])
  let h1 = SIMD8<Float>(repeating: h[1])
  let h2 = SIMD8<Float>(repeating: h[2])
  let h3 = SIMD8<Float>(repeating: h[3])
  var i = 0
  while i + 8 <= count {
    let o = i * stride
    let xm = rx.loadUnaligned(fromByteOffset: o - s * stride, as: SIMD8<Float>.self)
    let x0 = rx.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
    let x1 = rx.loadUnaligned(fromByteOffset: o + s * stride, as: SIMD8<Float>.self)
    let x2 = rx.loadUnaligned(fromByteOffset: o + 2 * s * stride, as: SIMD8<Float>.self)
    var v: SIMD8<Float> = h0 * xm
    v += h1 * x0
    v += h2 * x1
    v += h3 * x2
    if let w {
      var a = racc.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
      let wv = UnsafeRawPointer(w).loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
      a += wv * v
      racc.storeBytes(of: a, toByteOffset: o, as: SIMD8<Float>.self)
    } else {
      racc.storeBytes(of: v, toByteOffset: o, as: SIMD8<Float>.self)
    }
    i += 8
  }
  while i < count {
    var v = h[0] * x[i - s]
    v += h[1] * x[i]
    v += h[2] * x[i + s]
    v += h[3] * x[i + 2 * s]
    if let w {
      acc[i] += w[i] * v
    } else {
      acc[i] = v
    }
    i += 1
  }
}

/// Scalar reference of ``addInterpolated(_:_:_:frameStride:coefficients:count:)``.
func addInterpolatedReference(
  _ acc: UnsafeMutablePointer<Float>, _ w: UnsafePointer<Float>?, _ x: UnsafePointer<Float>,
  frameStride s: Int, coefficients h: SIMD4<Float>, count: Int
) {
  for i in 0..<count {
    let v = h[0] * x[i - s] + h[1] * x[i] + h[2] * x[i + s] + h[3] * x[i + 2 * s]
    if let w {
      acc[i] += w[i] * v
    } else {
      acc[i] = v
    }
  }
}

/// Reads a segment of `2·half` elements and overlap-adds it, windowed, in one pass:
/// `raw[i] = v(i)`, `first[i] += w[i]·v(i)` for `i < half` and `second[i − half] = w[i]·v(i)`
/// from there (the accumulator's second hop holds nothing before it), where `v(i)` is `x[i]`
/// when `h` is nil and otherwise ``addInterpolated(_:_:_:frameStride:coefficients:count:)``'s
/// interpolated value (its additions in the same order, so the same value). Each element comes
/// out as reading, windowing and adding in three passes would make it, with one pass over the
/// segment instead of three. Reads `x[−s]` through `x[2·half + 2s − 1]` when interpolating.
@inline(__always)
func readSegment(
  raw: UnsafeMutablePointer<Float>, first: UnsafeMutablePointer<Float>,
  second: UnsafeMutablePointer<Float>, window w: UnsafePointer<Float>, _ x: UnsafePointer<Float>,
  frameStride s: Int, coefficients h: SIMD4<Float>?, half: Int
) {
  let rx = UnsafeRawPointer(x)
  let stride = MemoryLayout<Float>.stride
  guard let h else {
    overlapAddSegment(raw: raw, first: first, second: second, window: w, half: half) { o in
      rx.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
    } value: { i in
      x[i]
    }
    return
  }
  let h0 = SIMD8<Float>(repeating: h[0])
  let h1 = SIMD8<Float>(repeating: h[1])
  let h2 = SIMD8<Float>(repeating: h[2])
  let h3 = SIMD8<Float>(repeating: h[3])
  let back = s &* stride
  overlapAddSegment(raw: raw, first: first, second: second, window: w, half: half) { o in
    let xm = rx.loadUnaligned(fromByteOffset: o &- back, as: SIMD8<Float>.self)
    let x0 = rx.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
    let x1 = rx.loadUnaligned(fromByteOffset: o &+ back, as: SIMD8<Float>.self)
    let x2 = rx.loadUnaligned(fromByteOffset: o &+ 2 &* back, as: SIMD8<Float>.self)
    var v: SIMD8<Float> = h0 * xm
    v += h1 * x0
    v += h2 * x1
    v += h3 * x2
    return v
  } value: { i in
    var v = h[0] * x[i &- s]
    v += h[1] * x[i]
    v += h[2] * x[i &+ s]
    v += h[3] * x[i &+ 2 &* s]
    return v
  }
}

/// The loops of ``readSegment(raw:first:second:window:_:frameStride:coefficients:half:)``, for
/// the segment's values eight at a time (`value8`, from a byte offset) and one at a time.
@inline(__always)
private func overlapAddSegment(
  raw: UnsafeMutablePointer<Float>, first: UnsafeMutablePointer<Float>,
  second: UnsafeMutablePointer<Float>, window w: UnsafePointer<Float>, half: Int,
  value8: (Int) -> SIMD8<Float>, value: (Int) -> Float
) {
  let rraw = UnsafeMutableRawPointer(raw)
  let rw = UnsafeRawPointer(w)
  let rfirst = UnsafeMutableRawPointer(first)
  let stride = MemoryLayout<Float>.stride
  var i = 0
  while i &+ 8 <= half {
    let o = i &* stride
    let v = value8(o)
    rraw.storeBytes(of: v, toByteOffset: o, as: SIMD8<Float>.self)
    var a = rfirst.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
    a += rw.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self) * v
    rfirst.storeBytes(of: a, toByteOffset: o, as: SIMD8<Float>.self)
    i &+= 8
  }
  while i < half {
    let v = value(i)
    raw[i] = v
    first[i] += w[i] * v
    i &+= 1
  }
  // The second half, from `half` on (`second` indexed from 0).
  let rsecond = UnsafeMutableRawPointer(second)
  let halfBytes = half &* stride
  i = 0
  while i &+ 8 <= half {
    let o = i &* stride
    let v = value8(o &+ halfBytes)
    rraw.storeBytes(of: v, toByteOffset: o &+ halfBytes, as: SIMD8<Float>.self)
    let wv = rw.loadUnaligned(fromByteOffset: o &+ halfBytes, as: SIMD8<Float>.self)
    rsecond.storeBytes(of: wv * v, toByteOffset: o, as: SIMD8<Float>.self)
    i &+= 8
  }
  while i < half {
    let v = value(i &+ half)
    raw[i &+ half] = v
    second[i] = w[i &+ half] * v
    i &+= 1
  }
}

/// Scalar reference of ``readSegment(raw:first:second:window:_:frameStride:coefficients:half:)``.
func readSegmentReference(
  raw: UnsafeMutablePointer<Float>, first: UnsafeMutablePointer<Float>,
  second: UnsafeMutablePointer<Float>, window w: UnsafePointer<Float>, _ x: UnsafePointer<Float>,
  frameStride s: Int, coefficients h: SIMD4<Float>?, half: Int
) {
  for i in 0..<(2 * half) {
    var v = x[i]
    if let h {
      v = h[0] * x[i - s] + h[1] * x[i] + h[2] * x[i + s] + h[3] * x[i + 2 * s]
    }
    raw[i] = v
    if i < half {
      first[i] += w[i] * v
    } else {
      second[i - half] = w[i] * v
    }
  }
}

/// Four-point Lagrange interpolation weights for the points −1, 0, 1, 2 at fraction `f` (0..<1).
@inline(__always)
func lagrangeCoefficients(_ f: Double) -> SIMD4<Float> {
  assert(f >= 0 && f < 1, "the interpolation fraction must lie in 0..<1")
  let a = -f * (f - 1) * (f - 2) / 6
  let b = (f + 1) * (f - 1) * (f - 2) / 2
  let c = -(f + 1) * f * (f - 2) / 2
  let d = (f + 1) * f * (f - 1) / 6
  return SIMD4<Float>(Float(a), Float(b), Float(c), Float(d))
}

/// The eight dot products `Σ a[m]·b[m + l]` for the lags l = 0..<8 at once, lane l holding lag
/// l: `a[m]` broadcast times eight consecutive `b`, so no horizontal sums are needed. Reads
/// `b[0]` through `b[count + 6]`. Two accumulators, one for even and one for odd `m`, each
/// summed in order; four steps a pass (the loop's own instructions were a fifth of the work).
@inline(__always)
func dots8(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> SIMD8<Float> {
  var acc0 = SIMD8<Float>(repeating: 0)
  var acc1 = SIMD8<Float>(repeating: 0)
  let rb = UnsafeRawPointer(b)
  let stride = MemoryLayout<Float>.stride
  // Wrapping arithmetic for the offsets: all stay below `count + 8`.
  @inline(__always) func step(_ m: Int) -> SIMD8<Float> {
    SIMD8<Float>(repeating: a[m])
      * rb.loadUnaligned(fromByteOffset: m &* stride, as: SIMD8<Float>.self)
  }
  var m = 0
  while m &+ 4 <= count {
    acc0 += step(m)
    acc1 += step(m &+ 1)
    acc0 += step(m &+ 2)
    acc1 += step(m &+ 3)
    m = m &+ 4
  }
  if m &+ 2 <= count {
    acc0 += step(m)
    acc1 += step(m &+ 1)
    m = m &+ 2
  }
  if m < count {
    acc0 += step(m)
  }
  return acc0 + acc1
}

/// ``dots8(_:_:count:)`` for the lags l = 0..<16: lanes 0..<8 of the result for lags 0..<8,
/// then lags 8..<16, each lane summed exactly as ``dots8(_:_:count:)`` sums it (so
/// `dots16(a, b).0 == dots8(a, b)` and `dots16(a, b).1 == dots8(a, b + 8)`). One broadcast of
/// `a[m]` serves sixteen lags. Reads `b[0]` through `b[count + 14]`.
@inline(__always)
func dots16(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> (
  SIMD8<Float>, SIMD8<Float>
) {
  var lo0 = SIMD8<Float>(repeating: 0)
  var lo1 = SIMD8<Float>(repeating: 0)
  var hi0 = SIMD8<Float>(repeating: 0)
  var hi1 = SIMD8<Float>(repeating: 0)
  let rb = UnsafeRawPointer(b)
  // Wrapping arithmetic for the offsets: all stay below `count + 16`, and a checked add cost
  // four instructions a step.
  let stride = MemoryLayout<Float>.stride
  @inline(__always) func load(_ m: Int) -> SIMD8<Float> {
    rb.loadUnaligned(fromByteOffset: m &* stride, as: SIMD8<Float>.self)
  }
  var m = 0
  // Four steps a pass, each accumulator summed in the same order as in ``dots8(_:_:count:)``.
  while m &+ 4 <= count {
    let x0 = SIMD8<Float>(repeating: a[m])
    let x1 = SIMD8<Float>(repeating: a[m &+ 1])
    lo0 += x0 * load(m)
    hi0 += x0 * load(m &+ 8)
    lo1 += x1 * load(m &+ 1)
    hi1 += x1 * load(m &+ 9)
    let x2 = SIMD8<Float>(repeating: a[m &+ 2])
    let x3 = SIMD8<Float>(repeating: a[m &+ 3])
    lo0 += x2 * load(m &+ 2)
    hi0 += x2 * load(m &+ 10)
    lo1 += x3 * load(m &+ 3)
    hi1 += x3 * load(m &+ 11)
    m = m &+ 4
  }
  if m &+ 2 <= count {
    let x0 = SIMD8<Float>(repeating: a[m])
    let x1 = SIMD8<Float>(repeating: a[m &+ 1])
    lo0 += x0 * load(m)
    hi0 += x0 * load(m &+ 8)
    lo1 += x1 * load(m &+ 1)
    hi1 += x1 * load(m &+ 9)
    m = m &+ 2
  }
  if m < count {
    let x0 = SIMD8<Float>(repeating: a[m])
    lo0 += x0 * load(m)
    hi0 += x0 * load(m &+ 8)
  }
  return (lo0 + lo1, hi0 + hi1)
}

/// ``dots8(_:_:count:)`` for three blocks of lags at once, at `b0`, `b1` and `b2` (anywhere):
/// one broadcast of `a[m]` serves all three, and each lane is summed exactly as
/// ``dots8(_:_:count:)`` sums it (even and odd `m` apart, each in order), so
/// `dots8Triple(a, b0, b1, b2).1 == dots8(a, b1)`. Two steps a pass: six accumulators, twelve
/// of the baseline's sixteen vector registers. Reads `bk[0]` through `bk[count + 6]`.
@inline(__always)
func dots8Triple(
  _ a: UnsafePointer<Float>, _ b0: UnsafePointer<Float>, _ b1: UnsafePointer<Float>,
  _ b2: UnsafePointer<Float>, count: Int
) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
  var p0 = SIMD8<Float>(repeating: 0)
  var p1 = SIMD8<Float>(repeating: 0)
  var q0 = SIMD8<Float>(repeating: 0)
  var q1 = SIMD8<Float>(repeating: 0)
  var r0 = SIMD8<Float>(repeating: 0)
  var r1 = SIMD8<Float>(repeating: 0)
  let rb0 = UnsafeRawPointer(b0)
  let rb1 = UnsafeRawPointer(b1)
  let rb2 = UnsafeRawPointer(b2)
  let stride = MemoryLayout<Float>.stride
  // Wrapping arithmetic for the offsets: all stay below `count + 8`.
  @inline(__always) func load(_ r: UnsafeRawPointer, _ m: Int) -> SIMD8<Float> {
    r.loadUnaligned(fromByteOffset: m &* stride, as: SIMD8<Float>.self)
  }
  var m = 0
  while m &+ 2 <= count {
    let x0 = SIMD8<Float>(repeating: a[m])
    p0 += x0 * load(rb0, m)
    q0 += x0 * load(rb1, m)
    r0 += x0 * load(rb2, m)
    let x1 = SIMD8<Float>(repeating: a[m &+ 1])
    p1 += x1 * load(rb0, m &+ 1)
    q1 += x1 * load(rb1, m &+ 1)
    r1 += x1 * load(rb2, m &+ 1)
    m = m &+ 2
  }
  if m < count {
    let x0 = SIMD8<Float>(repeating: a[m])
    p0 += x0 * load(rb0, m)
    q0 += x0 * load(rb1, m)
    r0 += x0 * load(rb2, m)
  }
  return (p0 + p1, q0 + q1, r0 + r1)
}

/// Scalar reference of ``dots8(_:_:count:)``.
func dots8Reference(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> SIMD8<
  Float
> {
  var out = SIMD8<Float>(repeating: 0)
  for l in 0..<8 {
    var s: Double = 0
    for m in 0..<count {
      s += Double(a[m]) * Double(b[m + l])
    }
    out[l] = Float(s)
  }
  return out
}

/// `Σ a[i]w[i]·b[i−1]`, `Σ a[i]w[i]·b[i]` and `Σ a[i]w[i]·b[i+1]` (the three values of the
/// sub-frame refinement, `a` windowed by `w` on the fly, each product `a[i]·w[i]` rounded to
/// Float first) in one pass, SIMD8, summed in Double at the end.
/// Reads `b[−1]` through `b[count]`.
@inline(__always)
func threeDotsWindowed(
  _ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int
) -> SIMD4<Double> {
  var l0 = SIMD8<Float>(repeating: 0)
  var m0 = SIMD8<Float>(repeating: 0)
  var r0 = SIMD8<Float>(repeating: 0)
  let ra = UnsafeRawPointer(a)
  let rw = UnsafeRawPointer(w)
  let rb = UnsafeRawPointer(b)
  let stride = MemoryLayout<Float>.stride
  var i = 0
  while i + 8 <= count {
    let o = i * stride
    let a0 =
      ra.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
      * rw.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
    l0 += a0 * rb.loadUnaligned(fromByteOffset: o - stride, as: SIMD8<Float>.self)
    m0 += a0 * rb.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
    r0 += a0 * rb.loadUnaligned(fromByteOffset: o + stride, as: SIMD8<Float>.self)
    i += 8
  }
  var left = Double(l0.sum())
  var mid = Double(m0.sum())
  var right = Double(r0.sum())
  while i < count {
    let x = Double(a[i] * w[i])
    left += x * Double(b[i - 1])
    mid += x * Double(b[i])
    right += x * Double(b[i + 1])
    i += 1
  }
  return SIMD4<Double>(left, mid, right, 0)
}

/// Scalar reference of ``threeDotsWindowed(_:_:_:count:)``, accumulated in Double.
func threeDotsWindowedReference(
  _ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int
) -> SIMD4<Double> {
  var acc = SIMD4<Double>(repeating: 0)
  for i in 0..<count {
    let x = Double(a[i] * w[i])
    acc += SIMD4<Double>(x * Double(b[i - 1]), x * Double(b[i]), x * Double(b[i + 1]), 0)
  }
  return acc
}

/// `1/√x` for every lane of `x` (positive, normal), to within 2·10⁻⁷ of it: an estimate from the
/// floating-point format's exponent and mantissa bits (halving the logarithm) refined by three
/// Newton steps, all multiplies and adds. `SIMD8<Float>.squareRoot()` calls the C library's
/// `sqrtf` lane by lane on Linux (for `errno`), which cannot be vectorised and cost more than
/// the rest of the stretcher's crossfade; this is eight lanes at once everywhere. Zero, negative
/// and non-finite lanes give meaningless values: callers mask them.
@inline(__always)
func inverseSquareRoot(_ x: SIMD8<Float>) -> SIMD8<Float> {
  let bits = unsafeBitCast(x, to: SIMD8<UInt32>.self)
  var y = unsafeBitCast(
    SIMD8<UInt32>(repeating: 0x5F37_5A86) &- (bits &>> 1), to: SIMD8<Float>.self)
  let half = x * 0.5
  y = y * (1.5 - half * y * y)
  y = y * (1.5 - half * y * y)
  y = y * (1.5 - half * y * y)
  return y
}

/// Returns `Σ a[i]·b[i]` over `count` elements (SIMD8 multiply-adds, two accumulators): the
/// band split's filters (see ``BandSplit``).
@inline(__always)
func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
  var s0 = SIMD8<Float>(repeating: 0)
  var s1 = SIMD8<Float>(repeating: 0)
  let ra = UnsafeRawPointer(a)
  let rb = UnsafeRawPointer(b)
  let stride = MemoryLayout<Float>.stride
  var i = 0
  while i + 16 <= count {
    s0 +=
      ra.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
      * rb.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
    s1 +=
      ra.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
      * rb.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
    i += 16
  }
  if i + 8 <= count {
    s0 +=
      ra.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
      * rb.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
    i += 8
  }
  var s = (s0 + s1).sum()
  while i < count {
    s += a[i] * b[i]
    i += 1
  }
  return s
}

/// Scalar reference of ``dot(_:_:count:)``.
func dotReference(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
  var s: Double = 0
  for i in 0..<count { s += Double(a[i]) * Double(b[i]) }
  return Float(s)
}
