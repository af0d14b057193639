// Segments: where each output segment is read from (the onset rules, then the similarity
// search), how it is read, and how it is overlap-added into the output.
extension TimeStretcher {
  /// Plans, reads and overlap-adds the next segment; returns false when it needs more input.
  mutating func produceSegment() -> Bool {
    let k = segment
    if !finished {
      applyPendingSpeed()
      applyScheduled(upTo: k)
    }
    let piece = map.piece(containing: mapPoint(k))
    let ideal = idealPosition(k, piece)
    let ahead = k == 0 ? reach : max(lookahead(piece), lookahead(map.last))
    let limit = Double(base + frames - ahead)
    if !(ideal < limit) {
      guard finished else { return false }
      let needed = Int(ideal.rounded(.down)) + ahead + 1 - (base + frames)
      appendFrames(nil, max(needed, hop))
    }
    scanOnsets(upTo: Int(ideal.rounded(.down)) + radius + window)
    let p = k < 2 ? Double(preroll - hop + k * hop) : choosePosition(k, ideal)
    let emittedBefore = lastEmitted
    markEmitted(p)
    if lastEmitted != emittedBefore {
      // The onset's output frame: the segment starts at output frame (k − 1)·hop.
      bands?.addOnset(
        input: lastEmitted - preroll,
        frame: (k - 1) * hop + Int((Double(lastEmitted) - p).rounded()))
    }
    addSegment(at: p)
    if k >= 1 {
      keepCrossfadeLevel()
      readyStart = 0
      readyCount = hop
    }
    // The finished hop becomes `ready` (the first segment's is dropped: nothing is waiting to
    // be pulled then either).
    buffers.advanceAccumulator()
    previous = p
    previousIdeal = ideal
    segment += 1
    periodicLeft -= 1
    return true
  }

  /// Adds the windowed segment read at internal position `p` (fractional) to the accumulator
  /// (its first half to the first hop, its second half as the second hop, which held nothing),
  /// after keeping the previous segment as read (whose second half is
  /// ``StretchBuffers/previousTail``) and reading this one's unwindowed into
  /// ``StretchBuffers/segmentRaw``, all in one pass.
  mutating func addSegment(at p: Double) {
    let j = Int(p.rounded(.down))
    let f = p - Double(j)
    let n = window * channels
    let hopSamples = hop * channels
    buffers.startSegment()
    // The interpolator reads a frame before the segment and two after it.
    let interpolated = f != 0
    let x =
      interpolated
      ? inputPointer(from: j, length: window + 2, before: 1) : inputPointer(from: j, length: window)
    // The accumulator's two hops are separate buffers: a hop each.
    readSegment(
      raw: buffers.segmentRaw.pointer(at: 0, length: n),
      first: buffers.acc.pointer(at: 0, length: hopSamples),
      second: buffers.accNext.pointer(at: 0, length: hopSamples),
      window: buffers.windowInterleaved.pointer(at: 0, length: n), x, frameStride: channels,
      coefficients: interpolated ? lagrangeCoefficients(f) : nil, half: hopSamples)
  }

  /// Keeps the level of the finished hop (the crossfade of the previous segment's second half
  /// into this one's first half), channel by channel. The Hann crossfade's gains add up to 1,
  /// which keeps the level of two segments that agree (correlation r = 1) but loses up to 3 dB
  /// in the middle of two unrelated ones (r = 0, as on noise: 1.25 dB on average). With each
  /// segment's power over the overlap, P₁ and P₂, and their correlation r (all weighted by the
  /// product of the two windows, where the crossfade mixes them), the crossfade of gains a and b
  /// has power a²P₁ + b²P₂ + 2ab·r·√(P₁P₂); it is scaled to (a√P₁ + b√P₂)², what two segments
  /// that agree would give: equal gain for correlated overlaps, equal power for uncorrelated
  /// ones, and in between as measured. The powers and the correlation are those of all channels
  /// together, and every channel gets the same gain: the segments are read at the same position
  /// in every channel, so each source in the mix is crossfaded alike in all of them, and one
  /// gain keeps the level differences between channels exactly (a gain per channel moved a
  /// source's balance by the other sources sharing its channels). The correlation counts down
  /// to −``lowestCrossfadeCorrelation`` (a gain of at most 2, in the middle).
  mutating func keepCrossfadeLevel() {
    let n = hop * channels
    // The powers summed in Float, eight lanes and two partial sums each (a single running sum
    // was a chain of dependent additions, the largest part of this function's time): over a
    // hop, their rounding moves them by about a millionth of themselves, far below what changes
    // the gain. The first frame is skipped: both windows are zero there.
    // The products of the two windows, w[i]·w[i + n], made once (see
    // ``StretchBuffers/overlapWeights``).
    let weights = UnsafeRawPointer(buffers.overlapWeights.pointer(at: 0, length: n))
    let tail = UnsafeRawPointer(buffers.previousTail.pointer(at: 0, length: n))
    let head = UnsafeRawPointer(buffers.segmentRaw.pointer(at: 0, length: n))
    let stride = MemoryLayout<Float>.stride
    var s1 = (SIMD8<Float>.zero, SIMD8<Float>.zero)
    var s2 = (SIMD8<Float>.zero, SIMD8<Float>.zero)
    var s12 = (SIMD8<Float>.zero, SIMD8<Float>.zero)
    @inline(__always) func products(_ o: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
      let u = weights.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
      let x1 = tail.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
      let x2 = head.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
      let ux1 = u * x1
      return (ux1 * x1, u * x2 * x2, ux1 * x2)
    }
    var i = channels
    while i &+ 16 <= n {
      let (a1, a2, a12) = products(i &* stride)
      let (b1, b2, b12) = products((i &+ 8) &* stride)
      s1.0 += a1
      s2.0 += a2
      s12.0 += a12
      s1.1 += b1
      s2.1 += b2
      s12.1 += b12
      i &+= 16
    }
    var p1 = Double((s1.0 + s1.1).sum())
    var p2 = Double((s2.0 + s2.1).sum())
    var p12 = Double((s12.0 + s12.1).sum())
    while i < n {
      let u = Double(weights.load(fromByteOffset: i &* stride, as: Float.self))
      let x1 = Double(tail.load(fromByteOffset: i &* stride, as: Float.self))
      let x2 = Double(head.load(fromByteOffset: i &* stride, as: Float.self))
      p1 += u * x1 * x1
      p2 += u * x2 * x2
      p12 += u * x1 * x2
      i &+= 1
    }
    guard p1 > 1e-20 && p2 > 1e-20 else { return }
    let root = (p1 * p2).squareRoot()
    let r = max(-Self.lowestCrossfadeCorrelation, min(1, p12 / root))
    // Agreeing segments (a tone, an onset continued exactly) are left as they are.
    guard r < 1 - 1e-4 else { return }
    // The gains in Float, once per frame and eight frames at a time (with
    // ``inverseSquareRoot(_:)``: the square roots and divisions dominated the cost), from the
    // windows' squares and product made once (``StretchBuffers/crossfadeTerms``); each frame's
    // gain then scales every channel of the frame. A gain's rounding, a ten-millionth of it, is
    // far below anything heard.
    let a1 = Float(p1.squareRoot())
    let a2 = Float(p2.squareRoot())
    let power1 = Float(p1)
    let power2 = Float(p2)
    let cross = Float(2 * r * root)
    let window = UnsafeRawPointer(buffers.windowMono.pointer(at: 0, length: 2 * hop))
    // a², b² and a·b by frame, a hop each (a: the previous segment's window, b: this one's).
    let terms = UnsafeRawPointer(buffers.crossfadeTerms.pointer(at: 0, length: 3 * hop))
    let hopBytes = hop &* stride
    let gains = UnsafeMutableRawPointer(buffers.gains.pointer(at: 0, length: hop))
    let channels = channels
    let acc = UnsafeMutableRawPointer(buffers.acc.pointer(at: 0, length: n))
    // Where both windows are (nearly) zero the gain is 1.
    let floor: Float = 1e-30
    var f = 0
    while f &+ 8 <= hop {
      let o = f &* stride
      let a = window.loadUnaligned(fromByteOffset: o &+ hopBytes, as: SIMD8<Float>.self)
      let b = window.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
      let aa = terms.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
      let bb = terms.loadUnaligned(fromByteOffset: o &+ hopBytes, as: SIMD8<Float>.self)
      let ab = terms.loadUnaligned(fromByteOffset: o &+ 2 &* hopBytes, as: SIMD8<Float>.self)
      let actual = aa * power1 + bb * power2 + ab * cross
      var g = (a * a1 + b * a2) * inverseSquareRoot(actual)
      g.replace(with: 1, where: .!(actual .> floor))
      // Mono and stereo are scaled here, eight frames at a time (stereo's gains each spread
      // over a frame's two samples, four shuffles for sixteen samples); other layouts below.
      if channels == 2 {
        @inline(__always) func scale(_ g4: SIMD4<Float>, at byte: Int) {
          let spread = SIMD8<Float>(g4[0], g4[0], g4[1], g4[1], g4[2], g4[2], g4[3], g4[3])
          let v = acc.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
          acc.storeBytes(of: v * spread, toByteOffset: byte, as: SIMD8<Float>.self)
        }
        scale(g.lowHalf, at: 2 &* o)
        scale(g.highHalf, at: 2 &* o &+ 8 &* stride)
      } else if channels == 1 {
        let v = acc.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
        acc.storeBytes(of: v * g, toByteOffset: o, as: SIMD8<Float>.self)
      } else {
        gains.storeBytes(of: g, toByteOffset: o, as: SIMD8<Float>.self)
      }
      f &+= 8
    }
    let scaled = channels <= 2 ? f : 0
    while f < hop {
      let a = window.load(fromByteOffset: (f &+ hop) &* stride, as: Float.self)
      let b = window.load(fromByteOffset: f &* stride, as: Float.self)
      let actual = a * a * power1 + b * b * power2 + a * b * cross
      let g = actual > floor ? (a * a1 + b * a2) / actual.squareRoot() : 1
      gains.storeBytes(of: g, toByteOffset: f &* stride, as: Float.self)
      f &+= 1
    }
    let samples = buffers.acc.pointer(at: 0, length: n)
    let gain = buffers.gains.pointer(at: 0, length: hop)
    for f in scaled..<hop {
      let g = gain[f]
      for c in 0..<channels { samples[f &* channels &+ c] *= g }
    }
  }

  /// Chooses segment `k`'s input position: onset rules first, then the similarity search.
  mutating func choosePosition(_ k: Int, _ ideal: Double) -> Double {
    let hopD = Double(hop)
    let windowD = Double(window)
    let hardLo = max(ideal - Double(behind), Double(base + refineHistory + 2))
    var hardHi = ideal + Double(radius)
    if finished {
      // Past the end of the stream the buffer holds silence, and the search, following the
      // previous segment's continuation into it, played it early: slow speeds ended in up to
      // 6 ms of silence and a step. What of a segment lands in the output (it spans output
      // frames (k − 1)·hop to (k + 1)·hop, and the output ends at `total`) reads input at the
      // latest up to its end, unless that would replay an onset already played. At 1x on a
      // piece starting at a whole input frame the ideal position qualifies, and segments made
      // before `finish()` have `reach` frames beyond their search, so the bound never moves
      // them.
      let beyond = max(0, (k + 1) * hop - total)
      let lastStart = Double(preroll + inputFrames - window + beyond)
      let emitted = lastEmitted == Int.min ? -Double.infinity : Double(lastEmitted + 1)
      hardHi = min(hardHi, max(lastStart, hardLo, emitted))
    }
    // An onset in the second half of the previous segment: continue it exactly, so the onset is
    // played once, at full level, where it already started.
    if lastEmitted != Int.min {
      let e = Double(lastEmitted)
      let natural = previous + hopD
      if e >= natural && e < previous + windowD && natural >= hardLo && natural <= hardHi {
        return natural
      }
    }
    // Never read an onset that was already played.
    let loEmitted = lastEmitted == Int.min ? -Double.infinity : Double(lastEmitted + 1)
    var lo = max(ideal - Double(radius), loEmitted, hardLo)
    var hi = hardHi
    // The next onset is placed in one segment's second half (the next segment then continues it),
    // as close to its scaled time as the bounds allow; earlier segments keep clear of it and no
    // segment skips it.
    if pendingCount > 0 {
      let c = Double(buffers.pending[pendingHead])
      if c < hardHi + windowD {
        let floorLo = max(loEmitted, hardLo)
        let eMin = max(hopD, c - hardHi)
        let eMax = min(windowD - 1, c - floorLo)
        if eMin <= eMax {
          let first = (c - eMax).rounded(.up)
          let last = (c - eMin).rounded(.down)
          let want =
            map.outputFrame(forInputFrame: c - Double(preroll)) + hopD
            - Double(k * hop)
          if want <= eMax || first > last {
            // On time, or late whatever comes next.
            return max(first, min(last, (c - max(want, eMin)).rounded()))
          }
          // Early now: compare with the lateness of the next segment.
          let nextHi = idealPosition(k + 1) + Double(radius)
          let lateNext = hopD + max(hopD, c - nextHi) - want
          if want - eMax <= lateNext {
            return first
          }
          hi = min(hi, c - windowD)
        } else if c - hardHi < windowD {
          hi = min(hi, c - hopD)
        }
      }
    }
    if hi < lo {
      lo = max(loEmitted, hardLo)
    }
    if hi < lo {
      hi = hardHi
      lo = min(lo, hi)
    }
    return search(lo: lo, hi: hi, ideal: ideal)
  }

}
