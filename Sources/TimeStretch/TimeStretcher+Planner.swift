#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Segment planning: where each output segment is read from, and the buffers behind it.
//
// Positions are internal input frames: the stream's frame f is internal frame f + preroll, and the
// first `preroll` internal frames are silence, so the first real segment has a predecessor and the
// output starts at full level. Output segment k covers internal output frames k·hop ..< k·hop +
// window; the stream's output frame o is internal output frame o + hop.
extension TimeStretcher {
  /// The speed-map piece that segment `segment` and later will use (the pending speed applied).
  func nextPiece() -> SpeedBreakpoint {
    let last = map.last
    guard speed != last.speed, finished || !speedChangeWaits() else { return last }
    let out = max((max(segment, 1) - 1) * hop, last.outputFrame)
    if out == last.outputFrame {
      return SpeedBreakpoint(outputFrame: out, inputFrame: last.inputFrame, speed: speed)
    }
    let input = map.inputFrame(forOutputFrame: Double(out))
    return SpeedBreakpoint(outputFrame: out, inputFrame: input, speed: speed)
  }

  /// The input needed beyond a segment's ideal position before it is made: the search and the
  /// window, and at least the media its finished output hop plays (up to its centre, `hop`
  /// frames on), so output pulled before ``finish()`` never runs past the stream's end. The same
  /// on every piece, as the segment's centre sits on the map.
  func lookahead(_: SpeedBreakpoint) -> Int {
    max(reach, hop + 1)
  }

  /// The ideal internal input position of segment `k` on `piece`. A segment plays its input at
  /// the input's own rate, not at the speed, so only one point of it can sit on the speed map:
  /// its centre, where its window peaks and the two crossfades around it balance (with its
  /// start there, its centre would play `hop · (1 − speed)` frames of media off the map).
  @inline(__always)
  func idealPosition(_ k: Int, _ piece: SpeedBreakpoint) -> Double {
    if k == 0 { return Double(preroll - hop) }
    let onMap = mapPoint(k) - Double(piece.outputFrame)
    return Double(preroll - hop) + (piece.inputFrame + onMap * piece.speed)
  }

  /// The output frame (stream) whose media segment `k` is placed at: its centre's.
  @inline(__always)
  func mapPoint(_ k: Int) -> Double {
    Double(k * hop)
  }

  /// The ideal internal input position of segment `k` on the map as it stands.
  func idealPosition(_ k: Int) -> Double {
    idealPosition(k, map.piece(containing: mapPoint(k)))
  }

  /// The first input frame a speed change can still be scheduled at: the changes due before the
  /// next segment were applied when the previous one was planned (see ``applyScheduled(_:)``).
  func earliestSchedulableFrame() -> Int {
    guard segment > 0 else { return 0 }
    let x = map.inputFrame(forOutputFrame: Double(segment * hop))
    return Int(x.rounded(.up))
  }

  /// Applies the scheduled changes that segment `k` and its neighbours' planning can see: those
  /// played before the end of the segment's second hop.
  mutating func applyScheduled(upTo k: Int) {
    while let frame = scheduled.firstFrame {
      let o = map.outputFrameOnLastPiece(forInputFrame: Double(frame))
      guard o < Double((k + 1) * hop), let next = scheduled.removeFirst() else { return }
      applyScheduled(next)
    }
  }

  /// Puts a scheduled change (taken from ``scheduled``) in the map, at the output frame nearest
  /// to where its input frame plays (never before output already planned), and makes its speed
  /// the current one.
  mutating func applyScheduled(_ next: ScheduledSpeed) {
    let o = map.outputFrameOnLastPiece(forInputFrame: Double(next.frame))
    let planned = max(0, (segment - 1) * hop)
    let last = map.last.outputFrame
    // Placed where its input frame plays, the new piece's line passes through that input frame
    // at the exact (fractional) output frame `o`, so rounding the breakpoint to a whole frame
    // moves no later output.
    var at = Int(o.rounded())
    if at <= last && o != Double(last) {
      // It plays within an output frame of the last breakpoint, but not on it (changes closer
      // together than an output frame): its own breakpoint a frame after that one, still on
      // its line, so the change before it keeps its short piece and the length stays exact.
      // (Taking over the last breakpoint dropped that piece: up to 4 output frames lost a
      // change.)
      at = last + 1
    }
    // Placed later (output already planned), it continues the last piece.
    let onLine = at >= planned
    at = max(at, planned, last)
    let exact = Double(next.frame) + (Double(at) - o) * next.speed
    map.change(
      speed: next.speed, atOutputFrame: at, exactInput: onLine ? exact : nil,
      scheduledFrame: next.frame)
    speed = next.speed
  }

  /// Whether a pending speed change waits a segment: an onset already placed (at its time on
  /// the current piece) plays after the next segment's start, so a breakpoint there would move
  /// its media time. It waits at most two segments.
  func speedChangeWaits() -> Bool {
    guard lastEmitted != Int.min, segment >= 1 else { return false }
    let onsetOutput = map.outputFrame(forInputFrame: Double(lastEmitted - preroll))
    return onsetOutput >= Double((segment - 1) * hop)
  }

  /// Starts the requested speed's piece at the next segment (or a little later, see
  /// ``speedChangeWaits()``; at once when `force` is set).
  mutating func applyPendingSpeed(force: Bool = false) {
    guard speed != map.last.speed, force || !speedChangeWaits() else { return }
    let at = max((max(segment, 1) - 1) * hop, map.last.outputFrame)
    map.change(speed: speed, atOutputFrame: at)
  }

  // MARK: Input buffer

  /// Appends `n` frames from `src`, or silence when `src` is nil. Non-finite samples become 0.
  mutating func appendFrames(_ src: UnsafePointer<Float>?, _ n: Int) {
    makeRoom(n)
    let dst = input + frames * channels
    if let src {
      for i in 0..<(n * channels) {
        let v = src[i]
        dst[i] = v.isFinite ? v : 0
      }
    } else {
      dst.update(repeating: 0, count: n * channels)
    }
    let m = mix + frames
    if channels == 1 {
      m.update(from: dst, count: n)
    } else {
      // The first channel plus or minus the sum of the others: minus while they have been
      // mostly in opposite polarity (see ``polarityTurn``), whose plain sum cancels.
      mixPolarity(dst, m, n)
    }
    frames += n
    // The 4:1 decimation, four values a pass where four are due (each the same sum,
    // `(mix[j] + mix[j + 1]) + (mix[j + 2] + mix[j + 3])`, as one at a time).
    let mix = mix
    let dec = dec
    let rawMix = UnsafeRawPointer(mix)
    var d = decDone
    while (d &+ 4) &* 4 <= frames {
      let v = rawMix.loadUnaligned(
        fromByteOffset: d &* 4 &* MemoryLayout<Float>.stride, as: SIMD16<Float>.self)
      let pairs = v.evenHalf + v.oddHalf
      UnsafeMutableRawPointer(dec + d).storeBytes(
        of: pairs.evenHalf + pairs.oddHalf, as: SIMD4<Float>.self)
      d = d &+ 4
    }
    while (d &+ 1) &* 4 <= frames {
      let j = d &* 4
      dec[d] = (mix[j] + mix[j &+ 1]) + (mix[j &+ 2] + mix[j &+ 3])
      d = d &+ 1
    }
    decDone = d
  }

  /// Writes the similarity signal of `n` frames, `source` (interleaved) to `destination`
  /// (one value per frame), and updates the running polarity once per ``polarityBlock``
  /// frames.
  mutating func mixPolarity(
    _ source: UnsafeMutablePointer<Float>, _ destination: UnsafeMutablePointer<Float>, _ n: Int
  ) {
    let channels = channels
    var sign = mixSign
    var fill = polarityFill
    var cross = polarityBlockCross
    var first2 = polarityBlockFirst
    var rest2 = polarityBlockRest
    var i = 0
    while i < n {
      let end = i + min(n - i, Self.polarityBlock - fill)
      // One frame at a time up to a multiple of 4 within the block, then (stereo) four at a
      // time, then the rest one at a time; lane `fill & 3` takes each single frame.
      @inline(__always) func single(_ k: Int) {
        let first = source[k * channels]
        var rest: Float = 0
        for c in 1..<channels { rest += source[k * channels + c] }
        let lane = fill & 3
        cross[lane] += first * rest
        first2[lane] += first * first
        rest2[lane] += rest * rest
        destination[k] = first + sign * rest
        fill += 1
      }
      while i < end && fill & 3 != 0 {
        single(i)
        i += 1
      }
      if channels == 2 {
        let raw = UnsafeRawPointer(source)
        let out = UnsafeMutableRawPointer(destination)
        // Four frames a step, two steps a pass (wrapping arithmetic: `i` stays below `n`).
        @inline(__always) func four(_ i: Int) {
          let v = raw.loadUnaligned(fromByteOffset: i &* 8, as: SIMD8<Float>.self)
          let first = v.evenHalf
          let rest = v.oddHalf
          cross += first * rest
          first2 += first * first
          rest2 += rest * rest
          out.storeBytes(of: first + sign * rest, toByteOffset: i &* 4, as: SIMD4<Float>.self)
        }
        while end &- i >= 8 {
          four(i)
          four(i &+ 4)
          fill = fill &+ 8
          i = i &+ 8
        }
        if end &- i >= 4 {
          four(i)
          fill = fill &+ 4
          i = i &+ 4
        }
      }
      while i < end {
        single(i)
        i += 1
      }
      if fill == Self.polarityBlock {
        let keep = polarityKeep
        let take = (1 - keep) / Float(Self.polarityBlock)
        @inline(__always) func total(_ v: SIMD4<Float>) -> Float { (v[0] + v[1]) + (v[2] + v[3]) }
        polarityCross = keep * polarityCross + take * total(cross)
        polarityFirst = keep * polarityFirst + take * total(first2)
        polarityRest = keep * polarityRest + take * total(rest2)
        if polarityCross * sign < 0
          && polarityCross * polarityCross
            > Self.polarityTurn * Self.polarityTurn * polarityFirst * polarityRest
        {
          sign = -sign
        }
        cross = .zero
        first2 = .zero
        rest2 = .zero
        fill = 0
      }
    }
    mixSign = sign
    polarityFill = fill
    polarityBlockCross = cross
    polarityBlockFirst = first2
    polarityBlockRest = rest2
  }

  /// The first internal frame that must be kept (a multiple of 4).
  func retentionPoint() -> Int {
    let nextIdeal = min(idealPosition(segment, nextPiece()), idealPosition(segment))
    var keep = min(
      Int(previous.rounded(.down)) - refineHistory - 8,
      Int(nextIdeal.rounded(.down)) - behind - refineHistory - 8)
    keep = min(keep, scanned)
    keep = max(keep, base)
    keep = min(keep, base + frames)
    return keep - (keep - base) % 4
  }

  mutating func makeRoom(_ n: Int) {
    guard frames + n > capacity else { return }
    let keep = retentionPoint()
    let shift = keep - base
    if shift > 0 {
      let kept = frames - shift
      memmove(input, input + shift * channels, kept * channels * MemoryLayout<Float>.stride)
      memmove(mix, mix + shift, kept * MemoryLayout<Float>.stride)
      let decShift = shift / 4
      memmove(dec, dec + decShift, (decDone - decShift) * MemoryLayout<Float>.stride)
      base = keep
      frames = kept
      decDone -= decShift
    }
    guard frames + n > capacity else { return }
    let newCapacity = max(capacity * 2, frames + n + 1024)
    let newInput = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity * channels)
    let newMix = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity + 8)
    let newDec = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity / 4 + 8)
    newInput.update(from: input, count: frames * channels)
    newMix.update(from: mix, count: frames)
    newDec.update(from: dec, count: decDone)
    input.deallocate()
    mix.deallocate()
    dec.deallocate()
    input = newInput
    mix = newMix
    dec = newDec
    capacity = newCapacity
  }

  // MARK: Segments

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
    markEmitted(p)
    addSegment(at: p)
    let hopSamples = hop * channels
    if k >= 1 {
      keepCrossfadeLevel()
      ready.update(from: acc, count: hopSamples)
      readyStart = 0
      readyCount = hop
    }
    acc.update(from: acc + hopSamples, count: (window - hop) * channels)
    (acc + (window - hop) * channels).update(repeating: 0, count: hopSamples)
    previous = p
    previousIdeal = ideal
    segment += 1
    periodicLeft -= 1
    return true
  }

  /// Adds the windowed segment read at internal position `p` (fractional) to the accumulator,
  /// after keeping the previous segment's unwindowed second half (``previousTail``) and reading
  /// this one's unwindowed into ``segmentRaw``.
  mutating func addSegment(at p: Double) {
    let j = Int(p.rounded(.down))
    let f = p - Double(j)
    let src = input + (j - base) * channels
    let n = window * channels
    let hopSamples = hop * channels
    previousTail.update(from: segmentRaw + hopSamples, count: hopSamples)
    if f == 0 {
      segmentRaw.update(from: src, count: n)
    } else {
      addInterpolated(
        segmentRaw, nil, src, frameStride: channels, coefficients: lagrangeCoefficients(f),
        count: n)
    }
    addWindowed(acc, windowInterleaved, segmentRaw, count: n)
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
    let w = windowInterleaved
    let tail = previousTail
    let head = segmentRaw
    var p1 = 0.0
    var p2 = 0.0
    var p12 = 0.0
    var i = channels
    while i < n {
      let u = Double(w[i] * w[i &+ n])
      let x1 = Double(tail[i])
      let x2 = Double(head[i])
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
    let a1 = p1.squareRoot()
    let a2 = p2.squareRoot()
    let channels = channels
    for f in 0..<hop {
      let a = Double(windowMono[f &+ hop])
      let b = Double(windowMono[f])
      let target = a * a1 + b * a2
      let actual = a * a * p1 + b * b * p2 + 2 * a * b * r * root
      guard actual > 1e-30 else { continue }
      let g = Float(target / actual.squareRoot())
      let frame = acc + f &* channels
      for c in 0..<channels { frame[c] *= g }
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
      let c = Double(pending[pendingHead])
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

  /// The position in `lo...hi` whose waveform best continues the previous segment (normalised
  /// cross-correlation of the channel sum over the overlap, coarse on the 4:1 decimation, fine
  /// around the three best coarse lags, refined by a parabola through the peak).
  mutating func search(lo wideLo: Double, hi wideHi: Double, ideal: Double) -> Double {
    var lo = wideLo
    var hi = wideHi
    guard Int(lo.rounded(.up)) <= Int(hi.rounded(.down)) else { return max(min(ideal, hi), lo) }
    let length = searchLength
    // The natural continuation of the previous segment, from `searchHistory` frames before the
    // overlap to as many after it (centred on the overlap), from the channel sum; candidate j is
    // compared from j − searchHistory on.
    // It lies within the sub-frame refinement's longer stretch (see ``refineReference``), read
    // at the same fraction of a frame, so that stretch is read once and the reference copied
    // from it.
    let r = previous + Double(hop) - Double(refineHistory)
    let r0 = Int(r.rounded(.down))
    let rf = r - Double(r0)
    if rf == 0 {
      refineReference.update(from: mix + (r0 - base), count: refineLength)
    } else {
      addInterpolated(
        refineReference, nil, mix + (r0 - base), frameStride: 1,
        coefficients: lagrangeCoefficients(rf), count: refineLength)
    }
    ref.update(from: refineReference + (refineHistory - searchHistory), count: length)
    let refEnergy = dotAndEnergy(ref, ref, count: length).energy
    guard refEnergy > 1e-12 else { return max(min(ideal, hi), lo) }
    let coarseLength = max(8, length / 32 * 8)  // whole SIMD8 blocks
    for m in 0..<coarseLength {
      let i = 4 * m
      refDec[m] = (ref[i] + ref[i + 1]) + (ref[i + 2] + ref[i + 3])
    }
    // The drift budget: the offset stays within ±`budget` of the ideal position whenever a good
    // match exists there. Above about 250 Hz a single tone's whole period fits in that range, so
    // it always finds its continuation in it; noise-like signals have no periodic continuation
    // to keep, so they stay there too, instead of drifting with their one natural continuation.
    // When nothing in the budget matches well, the whole range is searched, and its best match
    // is taken when low frequencies dominate the signal (the reference crosses zero no more
    // often than a 250 Hz tone would), or when it is a periodic continuation the budget missed
    // (at least ``periodicMatch``, and ``periodicGain`` better): a chord's common period is
    // longer than a single tone's. The distance penalty then takes the match nearest the ideal
    // position among near-equal ones, so the offset stays within about half a period and does
    // not persist.
    var match: (j: Int, ncc: Float)
    let tightLo = max(lo, ideal - Double(budget))
    let tightHi = min(hi, ideal + Double(budget))
    if Int(tightLo.rounded(.up)) <= Int(tightHi.rounded(.down)) {
      match = bestMatch(lo: tightLo, hi: tightHi, ideal: ideal, refEnergy: refEnergy)
      // A peak at the budget's edge may be the slope of a better one just outside it.
      let inside =
        Double(match.j) > tightLo + 1 && Double(match.j) < tightHi - 1
        || (tightLo == lo && tightHi == hi)
      if match.ncc < Self.goodMatch || !inside {
        if lowFrequency() {
          let wide = bestMatch(lo: lo, hi: hi, ideal: ideal, refEnergy: refEnergy)
          if wide.ncc > match.ncc { match = wide }
        } else if periodicMode(
          lo: lo, hi: hi, ideal: ideal, refEnergy: refEnergy, beating: match.ncc)
        {
          let wide = bestMatch(lo: lo, hi: hi, ideal: ideal, refEnergy: refEnergy)
          if wide.ncc > match.ncc { match = wide }
        } else {
          lo = tightLo
          hi = tightHi
        }
      } else {
        lo = tightLo
        hi = tightHi
      }
    } else {
      match = bestMatch(lo: lo, hi: hi, ideal: ideal, refEnergy: refEnergy)
    }
    // Slowing down, each stretch of input plays in two or more segments. Where the best match is
    // poor (noise-like sound: applause, rain, breath, cymbals), taking the match nearest the
    // ideal position repeated each stretch at nearly the same distance, a comb heard as a
    // metallic, phasey texture (white noise at 0.5x correlated 0.19 with itself 2.5 ms later).
    // There the segment is read at the best match near a random point within ``scatterSpread``
    // of the drift budget instead, so the repeats fall at distances spread over a few
    // milliseconds and no comb forms. The points fall on alternate sides of the ideal position, so that two neighbouring segments'
    // offsets cancel on average and the timeline stays within the budget's half. The crossfade
    // keeps such unrelated segments at their level (see ``keepCrossfadeLevel()``). Bass is
    // not scattered: under a music mix's hi-hats and reverb its match is poor too, but its
    // period is long and a random step out of phase with it is heard as a thump.
    var scattered = false
    if match.ncc < Self.scatterBelow && ideal - previousIdeal < Double(hop) * Self.scatterStride
      && !lowFrequency()
    {
      scatterSide = -scatterSide
      let target = ideal + scatterSide * Double(budget) * Self.scatterSpread * nextScatter()
      let sLo = max(lo, tightLo, target - Double(scatterReach))
      let sHi = min(hi, tightHi, target + Double(scatterReach))
      if Int(sLo.rounded(.up)) <= Int(sHi.rounded(.down)) {
        match = bestMatch(lo: sLo, hi: sHi, ideal: target, refEnergy: refEnergy)
        lo = sLo
        hi = sHi
        scattered = true
      }
    }
    let bestJ = match.j
    let bestNCC = match.ncc
    // Sub-frame refinement on the tapered correlation of a longer stretch (three hops centred on
    // the overlap; the taper keeps the edges from biasing the peak): a cosine through the three
    // values around the peak, exact for a sinusoid, or a parabola when the values do not fit a
    // cosine.
    // Only a match that correlates well is refined: for a poor one (noise) a fraction of a frame
    // makes no better join, and reading at a fraction interpolates, which takes up to 5 dB off
    // the top octave (white noise lost 0.7 dB).
    var p = Double(bestJ)
    if bestNCC < 1 - 1e-6 && bestNCC >= Self.refineAbove && !scattered {
      let start = mix + (bestJ - refineHistory - base)
      let dots = threeDotsWindowed(refineReference, refineWindow, start, count: refineLength)
      let left = dots[0]
      let mid = dots[1]
      let right = dots[2]
      var delta = 0.0
      let c = (left + right) / (2 * mid)
      if mid > 0 && c > 0 && c < 0.999 {
        let w = acos(c)
        delta = atan((right - left) / (2 * mid * sin(w))) / w
      } else {
        let curvature = left - 2 * mid + right
        if curvature < 0 {
          delta = 0.5 * (left - right) / curvature
        }
      }
      if abs(delta) >= 1e-4 && abs(delta) <= 1 {
        p += delta
      }
    }
    return max(min(p, hi), lo)
  }

  /// The next number of the segments' random sequence, uniform in 0..<1 (a 64-bit linear
  /// congruential generator, reset with the stream, so the output does not depend on block
  /// sizes).
  mutating func nextScatter() -> Double {
    scatterState = scatterState &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(scatterState >> 11) * 0x1p-53
  }

  /// Whether low frequencies dominate the similarity reference (``ref``): it crosses zero no
  /// more often than a ``bassHz`` tone would, or at least ``bassShare`` of its energy passes two
  /// one-pole low-pass filters at ``bassHz``. Asked only when the drift budget holds no good
  /// match, and before scattering a slow segment. (Counting zero crossings alone, as this did,
  /// missed the bass under any hi-hat or reverb: a music mix's kick, a glide from 140 to 50 Hz
  /// whose period is several times the budget, was then spliced within the budget out of phase,
  /// which left a thump below 40 Hz at each beat.)
  func lowFrequency() -> Bool {
    let ref = ref
    var crossings = 0
    var wasNegative = ref[0] < 0
    let k = bassCoefficient
    var y1: Float = 0
    var y2: Float = 0
    var low: Float = 0
    var all: Float = 0
    var i = 0
    while i < searchLength {
      let x = ref[i]
      let negative = x < 0
      if negative != wasNegative { crossings = crossings &+ 1 }
      wasNegative = negative
      y1 += k * (x - y1)
      y2 += k * (y1 - y2)
      low += y2 * y2
      all += x * x
      i = i &+ 1
    }
    return crossings <= bassCrossings || low >= Self.bassShare * all
  }

  /// Whether the signal counts as periodic with a period longer than the drift budget (a
  /// chord), so that the whole range is searched: after
  /// ``repeatsAwayFromContinuation(lo:hi:ideal:refEnergy:beating:)`` holds, for ``periodicHoldSegments`` segments without asking, and while one is found
  /// again at least every ``periodicGraceSegments`` segments after that (asked at most every
  /// ``periodicCheckInterval`` segments while the answer is no). (A chord's period is
  /// out of range now and then; dropping to the budget for those segments alone garbled it.)
  mutating func periodicMode(
    lo: Double, hi: Double, ideal: Double, refEnergy: Float, beating: Float
  ) -> Bool {
    if periodicLeft > 0 { return true }
    // After a check that found nothing, the next few segments are not checked: on noise every
    // segment would otherwise pay for two more searches.
    if periodicCheckWait > 0 {
      periodicCheckWait -= 1
    } else if repeatsAwayFromContinuation(
      lo: lo, hi: hi, ideal: ideal, refEnergy: refEnergy, beating: beating)
    {
      periodicLeft = periodicHoldSegments
      return true
    } else {
      periodicCheckWait = Self.periodicCheckInterval - 1
    }
    return periodicLeft > -periodicGraceSegments
  }

  /// Whether the reference repeats away from the natural continuation of the previous segment:
  /// a signal above the bass that is periodic with a period longer than the drift budget (a
  /// chord). The natural continuation and the budget's width around it are left out: every
  /// signal, noise included, matches itself there perfectly, and following it would let the
  /// offset drift. A match a period away from it counts when it reaches ``periodicMatch`` and
  /// is ``periodicGain`` better than `beating` (the best within the budget).
  mutating func repeatsAwayFromContinuation(
    lo: Double, hi: Double, ideal: Double, refEnergy: Float, beating: Float
  ) -> Bool {
    let natural = previous + Double(hop)
    let gap = Double(budget)
    // Looking for a repetition, not a position to play: earlier lags than the search may take
    // count (as far back as the buffer holds, up to two radii), so a period is found while the
    // natural continuation is still near the ideal position.
    let floor = max(ideal - Double(behind), Double(base + refineHistory + 2))
    var best: Float = -1
    /// The best correlation in `from...to`, when that holds a whole lag.
    func consider(_ from: Double, _ to: Double) {
      guard Int(from.rounded(.up)) <= Int(to.rounded(.down)) else { return }
      best = max(
        best, bestMatch(lo: from, hi: to, ideal: (from + to) / 2, refEnergy: refEnergy).ncc)
    }
    consider(max(floor, natural - 2 * Double(radius)), min(hi, natural - gap))
    consider(max(lo, natural + gap), hi)
    return best >= Self.periodicMatch && best > beating + Self.periodicGain
  }

  /// The lag in `lo...hi` (at least one whole frame) whose waveform best continues the previous
  /// segment, with its normalised correlation: the reference (``ref``, ``refDec``) against the
  /// channel sum, coarse on the 4:1 decimation, then at full resolution around the three best
  /// coarse lags, each scored with the distance penalty.
  mutating func bestMatch(lo: Double, hi: Double, ideal: Double, refEnergy: Float) -> (
    j: Int, ncc: Float
  ) {
    let jLo = Int(lo.rounded(.up))
    let jHi = Int(hi.rounded(.down))
    let length = searchLength
    let coarseLength = max(8, length / 32 * 8)  // whole SIMD8 blocks
    let refDecEnergy = dotAndEnergy(refDec, refDec, count: coarseLength).energy
    let scale = Float(1) / Float(innerRadius)
    @inline(__always) func penalty(_ j: Int) -> Float {
      let d = Float(Double(j) - ideal) * scale
      return Self.distancePenalty * d * d
    }
    // Coarse: every 4th lag, three best kept.
    var coarse = CoarseTop(jLo)
    // Candidate energies slide along the decimated signal (accumulated in Double).
    let jStart = (jLo + 3) / 4 * 4
    let lagCount = jHi >= jStart ? (jHi - jStart) / 4 + 1 : 0
    let firstBlock = dec + (jStart - searchHistory - base) / 4
    var running: Double = 0
    for m in 0..<coarseLength {
      running += Double(firstBlock[m]) * Double(firstBlock[m])
    }
    // Eight more than needed: lags are correlated eight at a time. A near-silent candidate
    // (energy below a millionth of the reference's) is scored against that floor instead.
    let threshold = refDecEnergy * 1e-6
    let coarseEnergy = coarseEnergy
    // Four lags a pass: the squares' differences four at a time, the running sum still one lag
    // at a time in order (so the same values as a lag-by-lag slide), and the floor as one
    // comparison (a running sum at or below zero is below `threshold`, which is not negative).
    @inline(__always) func floored(_ running: Double) -> Float {
      let e = Float(running)
      return e > threshold ? e : threshold
    }
    let slideCount = lagCount + 8
    let rawBlock = UnsafeRawPointer(firstBlock)
    let stride = MemoryLayout<Float>.stride
    var l = 0
    while l &+ 4 <= slideCount {
      let enter = SIMD4<Double>(
        rawBlock.loadUnaligned(
          fromByteOffset: (l &+ coarseLength) &* stride, as: SIMD4<Float>.self))
      let leave = SIMD4<Double>(
        rawBlock.loadUnaligned(fromByteOffset: l &* stride, as: SIMD4<Float>.self))
      let change = enter * enter - leave * leave
      coarseEnergy[l] = floored(running)
      running += change[0]
      coarseEnergy[l &+ 1] = floored(running)
      running += change[1]
      coarseEnergy[l &+ 2] = floored(running)
      running += change[2]
      coarseEnergy[l &+ 3] = floored(running)
      running += change[3]
      l = l &+ 4
    }
    while l < slideCount {
      coarseEnergy[l] = floored(running)
      let enter = Double(firstBlock[l &+ coarseLength])
      let leave = Double(firstBlock[l])
      running += enter * enter - leave * leave
      l = l &+ 1
    }
    let refDec = refDec
    let laneOffsets = SIMD8<Float>(0, 4, 8, 12, 16, 20, 24, 28)
    /// Lags `from..<to`, eight at a time (one SIMD8 lane each), into `top`. (The state is passed
    /// in, not captured: captured variables a nested function mutates are checked for exclusive
    /// access at run time, a library call per access.)
    @inline(__always) func consider(from: Int, to: Int, _ top: inout CoarseTop) {
      /// The group of lags `l..<min(l + 8, to)`, whose correlations are `d8`.
      @inline(__always) func group(_ l: Int, _ d8: SIMD8<Float>, _ top: inout CoarseTop) {
        let e8 = UnsafeRawPointer(coarseEnergy + l).loadUnaligned(as: SIMD8<Float>.self)
        let ncc8 = d8 / (e8 * refDecEnergy).squareRoot()
        if to - l >= 8 {
          let offset8 =
            (SIMD8<Float>(repeating: Float(Double(jStart + 4 * l) - ideal)) + laneOffsets)
            * scale
          let s8 = ncc8 - Self.distancePenalty * offset8 * offset8
          // Most groups hold nothing better than the current third best.
          if any(s8 .> top.s3) || any(ncc8 .> top.bestNCC) {
            for lane in 0..<8 {
              let j = jStart + 4 * (l + lane)
              top.insert(l + lane, j, ncc8[lane], ncc8[lane] - penalty(j))
            }
          }
        } else {
          for lane in 0..<(to - l) {
            let j = jStart + 4 * (l + lane)
            top.insert(l + lane, j, ncc8[lane], ncc8[lane] - penalty(j))
          }
        }
      }
      // Two groups per pass where two remain (one broadcast serves both).
      var l = from
      while l < to {
        if to - l > 8 {
          let (d0, d1) = dots16(refDec, firstBlock + l, count: coarseLength)
          group(l, d0, &top)
          group(l + 8, d1, &top)
          l += 16
        } else {
          group(l, dots8(refDec, firstBlock + l, count: coarseLength), &top)
          l += 8
        }
      }
    }
    // The inner range first; the whole range when nothing there matches well and the best match
    // sits at the inner range's edge (the correlation still rising outwards: a period longer than
    // the inner range, as with low bass).
    let innerLo = min(max(0, Int(((ideal - Double(innerRadius)) - Double(jStart)) / 4)), lagCount)
    let innerHi = min(
      max(innerLo, Int(((ideal + Double(innerRadius)) - Double(jStart)) / 4) + 1), lagCount)
    consider(from: innerLo, to: innerHi, &coarse)
    let atEdge = coarse.bestLag <= innerLo + 1 || coarse.bestLag >= innerHi - 2
    if (coarse.bestNCC < Self.extendBelow && atEdge) || innerLo == innerHi {
      consider(from: 0, to: innerLo, &coarse)
      consider(from: innerHi, to: lagCount, &coarse)
    }
    let s1 = coarse.s1
    let s2 = coarse.s2
    let s3 = coarse.s3
    let j1 = coarse.j1
    let j2 = coarse.j2
    let j3 = coarse.j3
    // Fine: full resolution around the three coarse winners and around the ideal position. The
    // lag taken is the peak nearest the ideal position among the peaks correlating about as well
    // as the best one (see ``nearEqual``): many lags match noise-like sound about equally, and
    // the nearest keeps the timeline. Without a peak, the best score (correlation less the
    // distance penalty) counts.
    var best = -Float.infinity
    var bestJ = jLo
    var bestNCC: Float = 0
    // The fine correlations, eight per window (unevaluated lags at -infinity), through a local.
    let nccs = fineNCC
    nccs.update(repeating: -.infinity, count: 32)
    var starts = (jLo, jLo, jLo, jLo)
    var ends = (jLo - 1, jLo - 1, jLo - 1, jLo - 1)
    let nearIdeal = max(jLo, min(jHi, Int(ideal.rounded())))
    // The (at most seven) lags around each candidate; a window is empty (end before start) when
    // its candidate is missing.
    for rank in 0..<4 {
      let candidate = rank == 0 ? j1 : (rank == 1 ? j2 : (rank == 2 ? j3 : nearIdeal))
      let score = rank == 0 ? s1 : (rank == 1 ? s2 : (rank == 2 ? s3 : 0))
      guard score > -Float.infinity else { continue }
      let fStart = max(jLo, candidate - 3)
      let fEnd = min(jHi, candidate + 3)
      switch rank {
      case 0: (starts.0, ends.0) = (fStart, fEnd)
      case 1: (starts.1, ends.1) = (fStart, fEnd)
      case 2: (starts.2, ends.2) = (fStart, fEnd)
      default: (starts.3, ends.3) = (fStart, fEnd)
      }
    }
    // Neighbouring candidates' windows overlap (the coarse winners are often adjacent coarse
    // lags), so the windows' union is correlated once, in as few blocks of eight lags (one SIMD8
    // pass each, energies sliding) as cover it: each block starts at the lowest lag still
    // uncovered. Every lag's value is the same whichever block holds it.
    let windows = (starts, ends)
    /// The first and last lag of candidate `rank`'s window.
    @inline(__always) func window(_ rank: Int) -> (Int, Int) {
      switch rank {
      case 0: (windows.0.0, windows.1.0)
      case 1: (windows.0.1, windows.1.1)
      case 2: (windows.0.2, windows.1.2)
      default: (windows.0.3, windows.1.3)
      }
    }
    let blockNCC = nccs + 32
    var blockStarts = (0, 0, 0, 0)
    var blockCount = 0
    var next = Int.min
    while true {
      var u = Int.max
      for rank in 0..<4 {
        let (a, b) = window(rank)
        let first = max(a, next)
        if first <= b { u = min(u, first) }
      }
      guard u != Int.max else { break }
      switch blockCount {
      case 0: blockStarts.0 = u
      case 1: blockStarts.1 = u
      case 2: blockStarts.2 = u
      default: blockStarts.3 = u
      }
      blockCount += 1
      next = u + 8
    }
    @inline(__always) func blockStart(_ b: Int) -> Int {
      b == 0 ? blockStarts.0 : b == 1 ? blockStarts.1 : b == 2 ? blockStarts.2 : blockStarts.3
    }
    /// Writes the correlations of the `lanes` lags from `u` on (their dot products `d0`, then
    /// `d1`) to `out`.
    @inline(__always) func normalize(
      _ u: Int, _ d0: SIMD8<Float>, _ d1: SIMD8<Float>, _ lanes: Int,
      _ out: UnsafeMutablePointer<Float>
    ) {
      let start = mix + (u - searchHistory - base)
      var energy = Double(dotAndEnergy(start, start, count: length).energy)
      for lane in 0..<lanes {
        let e = Float(energy)
        let d = lane < 8 ? d0[lane] : d1[lane - 8]
        out[lane] = e > refEnergy * 1e-6 ? d / (e * refEnergy).squareRoot() : 0
        let enter = Double(start[lane + length])
        let leave = Double(start[lane])
        energy = max(0, energy + enter * enter - leave * leave)
      }
    }
    // Adjacent blocks in one pass (one broadcast serves both).
    var b = 0
    while b < blockCount {
      let u = blockStart(b)
      let start = mix + (u - searchHistory - base)
      if b + 1 < blockCount && blockStart(b + 1) == u + 8 {
        let (d0, d1) = dots16(ref, start, count: length)
        normalize(u, d0, d1, 16, blockNCC + 8 * b)
        b += 2
      } else {
        normalize(u, dots8(ref, start, count: length), .zero, 8, blockNCC + 8 * b)
        b += 1
      }
    }
    for rank in 0..<4 {
      let (fStart, fEnd) = window(rank)
      guard fStart <= fEnd else { continue }
      // The block holding each lag: the last one starting at or before it (blocks ascend, and
      // the window's lags too, so the search goes on from the previous lag's block).
      var fb = 0
      var fbStart = blockStarts.0
      var fbNext = blockCount > 1 ? blockStarts.1 : Int.max
      for lane in 0...(fEnd - fStart) {
        let f = fStart + lane
        while fb < blockCount - 1 && f - fbStart >= 8 {
          fb += 1
          fbStart = fbNext
          fbNext = fb + 1 < blockCount ? blockStart(fb + 1) : Int.max
        }
        let ncc = blockNCC[8 * fb + (f - fbStart)]
        nccs[rank * 8 + lane] = ncc
        let s = ncc - penalty(f)
        if s > best {
          best = s
          bestJ = f
          bestNCC = ncc
        }
      }
    }
    /// Whether fine lag `i` is a peak: at least as good as both neighbours, which must have been
    /// evaluated too unless it is at the end of the range.
    @inline(__always) func lag(_ i: Int) -> Int {
      let w = i >> 3
      return (w == 0 ? starts.0 : w == 1 ? starts.1 : w == 2 ? starts.2 : starts.3) + (i & 7)
    }
    @inline(__always) func isPeak(_ i: Int) -> Bool {
      let lane = i & 7
      let f = lag(i)
      let left = lane > 0 ? nccs[i - 1] : -.infinity
      let right = lane < 7 ? nccs[i + 1] : -.infinity
      return (left > -.infinity ? nccs[i] >= left : f == jLo)
        && (right > -.infinity ? nccs[i] >= right : f == jHi)
    }
    var top: Float = -.infinity
    for i in 0..<32 where nccs[i] > top && isPeak(i) {
      top = nccs[i]
    }
    if top > -.infinity {
      let floor = top - Self.nearEqual - Self.nearEqualSpread * (1 - top * top)
      var nearest = Double.infinity
      for i in 0..<32 where nccs[i] >= floor && isPeak(i) {
        let f = lag(i)
        let d = abs(Double(f) - ideal)
        if d < nearest {
          nearest = d
          bestJ = f
          bestNCC = nccs[i]
        }
      }
    }
    if best == -Float.infinity {
      bestJ = max(jLo, min(jHi, Int(ideal.rounded())))
      bestNCC = normalizedCorrelation(at: bestJ, refEnergy: refEnergy)
    }
    return (bestJ, bestNCC)
  }

  @inline(__always)
  func normalizedCorrelation(at j: Int, refEnergy: Float) -> Float {
    let r = dotAndEnergy(ref, mix + (j - searchHistory - base), count: searchLength)
    return r.energy > refEnergy * 1e-6 ? r.dot / (r.energy * refEnergy).squareRoot() : 0
  }

  // MARK: Onsets

  /// Finds onsets (a block's energy ten times its recent mean and four times its recent peak)
  /// in the channel sum up to `limit`.
  mutating func scanOnsets(upTo limit: Int) {
    let floor = Float(block) * 1e-7
    while scanned + block <= limit {
      let s = mix + (scanned - base)
      var energy: Float = 0
      for i in 0..<block {
        energy += s[i] * s[i]
      }
      var mean: Float = 0
      for i in 0..<Self.historyLength {
        mean += history[i]
      }
      mean /= Float(Self.historyLength)
      let peakBefore = recentPeak
      recentPeak = max(energy, recentPeak * peakDecay)
      if energy > Self.onsetRatio * mean + floor && energy > Self.onsetOverPeak * peakBefore
        && scanned - lastOnsetBlock > 2 * block
      {
        // The block's peak, needed only here.
        var peak: Float = 0
        for i in 0..<block {
          peak = max(peak, abs(s[i]))
        }
        var i = 0
        while i < block - 1 && abs(s[i]) < 0.5 * peak {
          i += 1
        }
        if pendingCount < Self.pendingCapacity {
          pending[(pendingHead + pendingCount) % Self.pendingCapacity] = scanned + i
          pendingCount += 1
        }
        lastOnsetBlock = scanned
      }
      history[historyPos] = energy
      historyPos = (historyPos + 1) % Self.historyLength
      scanned += block
    }
  }

  /// Retires the onsets that segment at `p` covers; those inside it count as played.
  mutating func markEmitted(_ p: Double) {
    while pendingCount > 0 {
      let c = pending[pendingHead]
      guard Double(c) < p + Double(window) else { break }
      if Double(c) >= p {
        lastEmitted = max(lastEmitted, c)
      }
      pendingHead = (pendingHead + 1) % Self.pendingCapacity
      pendingCount -= 1
    }
  }
}

/// The coarse search's three best lags by score (correlation less the distance penalty), and the
/// best correlation with its lag index.
struct CoarseTop {
  var s1 = -Float.infinity
  var s2 = -Float.infinity
  var s3 = -Float.infinity
  var j1: Int
  var j2: Int
  var j3: Int
  var bestNCC: Float = -1
  var bestLag = 0

  init(_ j: Int) {
    j1 = j
    j2 = j
    j3 = j
  }

  /// Inserts lag index `l` (lag `j`, normalised correlation `ncc`, score `s`).
  @inline(__always)
  mutating func insert(_ l: Int, _ j: Int, _ ncc: Float, _ s: Float) {
    if ncc > bestNCC {
      bestNCC = ncc
      bestLag = l
    }
    if s > s1 {
      s3 = s2
      j3 = j2
      s2 = s1
      j2 = j1
      s1 = s
      j1 = j
    } else if s > s2 {
      s3 = s2
      j3 = j2
      s2 = s
      j2 = j
    } else if s > s3 {
      s3 = s
      j3 = j
    }
  }
}
