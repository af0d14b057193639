#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The similarity search: where within its bounds a segment is read so that its waveform best
// continues the previous segment's. The drift budget and when the search may leave it (bass,
// periodic sound), the scattering of noise-like repeats, and the sub-frame refinement; the
// matching itself is in TimeStretcher+Match.swift.
extension TimeStretcher {
  /// The position in `lo...hi` whose waveform best continues the previous segment (normalised
  /// cross-correlation of the channel sum over the overlap, coarse on the 4:1 decimation, fine
  /// around the three best coarse lags, refined by a parabola through the peak).
  mutating func search(lo wideLo: Double, hi wideHi: Double, ideal: Double) -> Double {
    var lo = wideLo
    var hi = wideHi
    guard Int(lo.rounded(.up)) <= Int(hi.rounded(.down)) else { return max(min(ideal, hi), lo) }
    let refEnergy = readReference()
    lowFrequencyBefore = lowFrequencyKnown ?? true
    lowFrequencyKnown = nil
    guard refEnergy > 1e-12 else { return max(min(ideal, hi), lo) }
    decimateReference()
    var match = budgetedMatch(lo: &lo, hi: &hi, ideal: ideal, refEnergy: refEnergy)
    let tightLo = max(wideLo, ideal - Double(budget))
    let tightHi = min(wideHi, ideal + Double(budget))
    let scattered = scatter(
      &match, lo: &lo, hi: &hi, tightLo: tightLo, tightHi: tightHi, ideal: ideal,
      refEnergy: refEnergy)
    // Only a match that correlates well is refined to a fraction of a frame: for a poor one
    // (noise) a fraction of a frame makes no better join, and reading at a fraction
    // interpolates, which takes up to 5 dB off the top octave (white noise lost 0.7 dB).
    var p = Double(match.j)
    if match.ncc < 1 - 1e-6 && match.ncc >= Self.refineAbove && !scattered,
      let delta = subFrameOffset(at: match.j)
    {
      p += delta
    }
    let chosen = max(min(p, hi), lo)
    offsetMean += Self.offsetMemory * (chosen - ideal - offsetMean)
    return chosen
  }

  /// Reads the similarity reference: the natural continuation of the previous segment, from
  /// `searchHistory` frames before the overlap to as many after it (centred on the overlap), from
  /// the channel sum, into ``StretchBuffers/ref``; candidate j is compared from j − searchHistory
  /// on. It lies within the sub-frame refinement's longer stretch
  /// (``StretchBuffers/refineReference``), read at the same fraction of a frame, so that stretch
  /// is read once and the reference copied from it.
  /// - Returns: the reference's energy.
  func readReference() -> Float {
    // Checked here rather than in the initializer, which computes these lengths (see the note on
    // assertions in StretchBuffers.swift).
    assert(
      searchHistory <= refineHistory
        && refineHistory - searchHistory + searchLength <= refineLength,
      "the search's reference must lie within the refinement's")
    let length = searchLength
    let r = previous + Double(hop) - Double(refineHistory)
    let r0 = Int(r.rounded(.down))
    let rf = r - Double(r0)
    let refineReference = buffers.refineReference.pointer(at: 0, length: refineLength)
    if rf == 0 {
      refineReference.update(from: mixPointer(from: r0, length: refineLength), count: refineLength)
    } else {
      // The interpolator reads a frame before the stretch and two after it.
      addInterpolated(
        refineReference, nil, mixPointer(from: r0, length: refineLength + 2, before: 1),
        frameStride: 1, coefficients: lagrangeCoefficients(rf), count: refineLength)
    }
    buffers.ref.copy(
      from: buffers.refineReference, at: refineHistory - searchHistory, to: 0, length: length)
    let ref = buffers.ref.pointer(at: 0, length: length)
    return dotAndEnergy(ref, ref, count: length).energy
  }

  /// Decimates the similarity reference 4:1 into ``StretchBuffers/refDec`` (whole SIMD8 blocks).
  func decimateReference() {
    let ref = buffers.ref
    let refDec = buffers.refDec
    for m in 0..<coarseLength {
      let i = 4 * m
      refDec[m] = (ref[i] + ref[i + 1]) + (ref[i + 2] + ref[i + 3])
    }
  }

  /// The best match in `lo...hi` within the drift budget, or beyond it where the signal allows;
  /// narrows `lo...hi` to the budget when the match is taken within it.
  ///
  /// The drift budget: the offset stays within ±`budget` of the ideal position whenever a good
  /// match exists there. Above about 250 Hz a single tone's whole period fits in that range, so
  /// it always finds its continuation in it; noise-like signals have no periodic continuation
  /// to keep, so they stay there too, instead of drifting with their one natural continuation.
  /// When nothing in the budget matches well, the whole range is searched, and its best match
  /// is taken when low frequencies dominate the signal (the reference crosses zero no more
  /// often than a 250 Hz tone would), or when it is a periodic continuation the budget missed
  /// (at least ``periodicMatch``, and ``periodicGain`` better): a chord's common period is
  /// longer than a single tone's, or when the sound is tonal though not periodic (see
  /// ``tonalMatch``). The distance penalty then takes the match nearest the ideal
  /// position among near-equal ones (for periodic and tonal sound, less the running mean
  /// offset: see ``offsetMemory``), so the offset stays within about half a period and does
  /// not persist.
  mutating func budgetedMatch(
    lo: inout Double, hi: inout Double, ideal: Double, refEnergy: Float
  ) -> (j: Int, ncc: Float) {
    var match: (j: Int, ncc: Float)
    // Where the whole-range search centres its choice (see ``offsetMemory``).
    let centre = ideal - offsetMean
    let tightLo = max(lo, ideal - Double(budget))
    let tightHi = min(hi, ideal + Double(budget))
    if Int(tightLo.rounded(.up)) <= Int(tightHi.rounded(.down)) {
      // The lag preferred among near-equal ones (and by the distance penalty): the ideal
      // position less a share of the previous segment's offset (see ``offsetCarry``).
      let carry = Self.offsetCarry * (previous - previousIdeal)
      let target = max(tightLo, min(tightHi, ideal - carry))
      match = bestMatch(lo: tightLo, hi: tightHi, ideal: target, refEnergy: refEnergy)
      // A peak at the budget's edge may be the slope of a better one just outside it.
      let inside =
        Double(match.j) > tightLo + 1 && Double(match.j) < tightHi - 1
        || (tightLo == lo && tightHi == hi)
      if match.ncc < Self.goodMatch || !inside {
        if isLowFrequency() && lowFrequencyBefore {
          let wide = bestMatch(lo: lo, hi: hi, ideal: ideal, refEnergy: refEnergy)
          if wide.ncc > match.ncc { match = wide }
        } else if periodicMode(
          lo: lo, hi: hi, ideal: ideal, refEnergy: refEnergy, beating: match.ncc)
        {
          let wide = bestMatch(lo: lo, hi: hi, ideal: centre, refEnergy: refEnergy)
          if wide.ncc > match.ncc { match = wide }
        } else if segment <= tonalUntil {
          // Tonal (see ``tonalMatch`` and ``tonalHoldSeconds``): the whole range, as for bass.
          let wide = bestMatch(lo: lo, hi: hi, ideal: centre, refEnergy: refEnergy)
          if wide.ncc > match.ncc { match = wide }
        } else {
          lo = tightLo
          hi = tightHi
          keepNearTarget(
            &match, lo: &lo, hi: &hi, target: target, ideal: ideal, refEnergy: refEnergy)
        }
      } else {
        lo = tightLo
        hi = tightHi
      }
    } else {
      match = bestMatch(lo: lo, hi: hi, ideal: ideal, refEnergy: refEnergy)
    }
    return match
  }

  /// Speeding up, a poor match (noise-like sound, whose lags all join about as well) that lies
  /// more than ``nearTargetShare`` of the drift budget from `target` is replaced by the best
  /// match within that distance of it, and `lo...hi` narrowed to it: taken wherever they
  /// correlated best within the budget, runs of noise segments sat on one side of the ideal
  /// position for tens of milliseconds, and the timeline, averaged over 10 ms, was 3.6 ms off at
  /// 3x (2.1 ms so, with ``offsetCarry``). Slowing down,
  /// ``scatter(_:lo:hi:tightLo:tightHi:ideal:refEnergy:)`` places such segments instead.
  mutating func keepNearTarget(
    _ match: inout (j: Int, ncc: Float), lo: inout Double, hi: inout Double, target: Double,
    ideal: Double, refEnergy: Float
  ) {
    let reach = Double(budget) * Self.nearTargetShare
    let nLo = max(lo, target - reach)
    let nHi = min(hi, target + reach)
    guard match.ncc < Self.scatterBelow,
      ideal - previousIdeal >= Double(hop) * Self.scatterStride,
      Double(match.j) < nLo || Double(match.j) > nHi,
      Int(nLo.rounded(.up)) <= Int(nHi.rounded(.down))
    else { return }
    match = bestMatch(lo: nLo, hi: nHi, ideal: target, refEnergy: refEnergy)
    lo = nLo
    hi = nHi
  }

  /// Slowing down, each stretch of input plays in two or more segments. Where the best match is
  /// poor (noise-like sound: applause, rain, breath, cymbals), taking the match nearest the
  /// ideal position repeated each stretch at nearly the same distance, a comb heard as a
  /// metallic, phasey texture (white noise at 0.5x correlated 0.19 with itself 2.5 ms later).
  /// There the segment is read at the best match near a random point within ``scatterSpread``
  /// of the drift budget (`tightLo...tightHi`) instead, so the repeats fall at distances spread over a few
  /// milliseconds and no comb forms. The points fall on alternate sides of the ideal position,
  /// so that two neighbouring segments' offsets cancel on average and the timeline stays within
  /// the budget's half. The crossfade keeps such unrelated segments at their level (see
  /// ``keepCrossfadeLevel()``). Bass is not scattered: under a music mix's hi-hats and reverb
  /// its match is poor too, but its period is long and a random step out of phase with it is
  /// heard as a thump. Nor is tonal sound: while a periodic match holds the whole range
  /// searched (see ``periodicMode(lo:hi:ideal:refEnergy:beating:)``), or a tonal check's answer
  /// holds (``tonalUntil``), a poor match is a chord under a reverberant cloud of
  /// partials, not noise, and a random step splices its notes out of phase. (Scattered there,
  /// with the tonal check's answer held for its own segment alone, a music mix at 0.5x had a
  /// spectral convergence of 0.433, against 0.423 not scattered; 0.375 against 0.358 at 0.75x,
  /// and 0.445 against 0.401 for the same mix without its kick drum. Noise turns on neither
  /// mode, and is scattered as before.)
  /// - Returns: whether the segment is scattered (`match` and `lo...hi` then replaced).
  mutating func scatter(
    _ match: inout (j: Int, ncc: Float), lo: inout Double, hi: inout Double,
    tightLo: Double, tightHi: Double, ideal: Double, refEnergy: Float
  ) -> Bool {
    guard
      match.ncc < Self.scatterBelow && ideal - previousIdeal < Double(hop) * Self.scatterStride
        && periodicLeft <= 0 && segment > tonalUntil && !isLowFrequency()
    else { return false }
    scatterSide = -scatterSide
    let target = ideal + scatterSide * Double(budget) * Self.scatterSpread * nextScatter()
    let sLo = max(lo, tightLo, target - Double(scatterReach))
    let sHi = min(hi, tightHi, target + Double(scatterReach))
    guard Int(sLo.rounded(.up)) <= Int(sHi.rounded(.down)) else { return false }
    match = bestMatch(lo: sLo, hi: sHi, ideal: target, refEnergy: refEnergy)
    lo = sLo
    hi = sHi
    return true
  }

  /// The sub-frame refinement of the match at lag `j`, on the tapered correlation of a longer
  /// stretch (three hops centred on the overlap; the taper keeps the edges from biasing the
  /// peak): a cosine through the three values around the peak, exact for a sinusoid, or a
  /// parabola when the values do not fit a cosine.
  /// - Returns: the fraction of a frame to add to `j`, or nil when there is none to add.
  func subFrameOffset(at j: Int) -> Double? {
    // The kernel reads a frame before the stretch and one after it.
    let dots = threeDotsWindowed(
      buffers.refineReference.pointer(at: 0, length: refineLength),
      buffers.refineWindow.pointer(at: 0, length: refineLength),
      mixPointer(from: j - refineHistory, length: refineLength + 1, before: 1),
      count: refineLength)
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
    return abs(delta) >= 1e-4 && abs(delta) <= 1 ? delta : nil
  }

  /// The next number of the segments' random sequence, uniform in 0..<1 (a 64-bit linear
  /// congruential generator, reset with the stream, so the output does not depend on block
  /// sizes).
  mutating func nextScatter() -> Double {
    scatterState = scatterState &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(scatterState >> 11) * 0x1p-53
  }

  /// ``lowFrequency()`` for the current similarity reference, measured at most once a search
  /// (slowing down, both the drift budget's rule and scattering ask it).
  mutating func isLowFrequency() -> Bool {
    if let known = lowFrequencyKnown { return known }
    let low = lowFrequency()
    lowFrequencyKnown = low
    return low
  }

  /// Whether low frequencies dominate the similarity reference (``StretchBuffers/ref``): it crosses zero no
  /// more often than a ``bassHz`` tone would, or at least ``bassShare`` of its energy passes two
  /// one-pole low-pass filters at ``bassHz`` (run on its 4:1 decimation, which
  /// ``decimateReference()`` has made). Asked only when the drift budget holds no good
  /// match, and before scattering a slow segment. (Counting zero crossings alone, as this did,
  /// missed the bass under any hi-hat or reverb: a music mix's kick, a glide from 140 to 50 Hz
  /// whose period is several times the budget, was then spliced within the budget out of phase,
  /// which left a thump below 40 Hz at each beat.)
  func lowFrequency() -> Bool {
    let ref = buffers.ref
    // The zero crossings first: when they answer, the filters (a serial chain of dependent
    // operations, five times as slow) are not run.
    var crossings = 0
    var wasNegative = ref[0] < 0
    var i = 0
    while i < searchLength {
      let negative = ref[i] < 0
      if negative != wasNegative { crossings = crossings &+ 1 }
      wasNegative = negative
      i = i &+ 1
    }
    if crossings <= bassCrossings { return true }
    // The filters run on the 4:1 decimation (``StretchBuffers/refDec``, sums of four frames),
    // a quarter of the serial steps: a bass tone's sum is four times its value, so its energy
    // there, over a quarter of the frames, is four times what it is at the full rate. The
    // energy they are compared with is the full-rate reference's.
    let refDec = buffers.refDec
    let k = bassCoefficient
    var y1: Float = 0
    var y2: Float = 0
    var low: Float = 0
    var all: Float = 0
    i = 0
    while i < 4 * coarseLength {
      all += ref[i] * ref[i]
      i = i &+ 1
    }
    var m = 0
    while m < coarseLength {
      y1 += k * (refDec[m] - y1)
      y2 += k * (y1 - y2)
      low += y2 * y2
      m = m &+ 1
    }
    return low >= 4 * Self.bassShare * all
  }

  /// Whether the signal counts as periodic with a period longer than the drift budget (a
  /// chord), so that the whole range is searched: after
  /// ``bestAwayFromContinuation(lo:hi:ideal:refEnergy:)`` reaches ``periodicMatch`` and is
  /// ``periodicGain`` better than `beating` (the best within the budget), for
  /// ``periodicHoldSegments`` segments without asking, and while one is found
  /// again at least every ``periodicGraceSegments`` segments after that (asked at most every
  /// ``periodicCheckInterval`` segments while the answer is no). (A chord's period is
  /// out of range now and then; dropping to the budget for those segments alone garbled it.)
  /// A check that finds the sound tonal without being periodic (see ``tonalMatch``) starts the
  /// tonal hold (``tonalUntil``, ``tonalHoldSeconds``) and is made again for the next segment,
  /// as is a check that comes near it (``nearlyTonal``).
  mutating func periodicMode(
    lo: Double, hi: Double, ideal: Double, refEnergy: Float, beating: Float
  ) -> Bool {
    if periodicLeft > 0 { return true }
    // After a check that found nothing, the next few segments are not checked: on noise every
    // segment would otherwise pay for two more searches.
    if periodicCheckWait > 0 {
      periodicCheckWait -= 1
    } else {
      let away = bestAwayFromContinuation(lo: lo, hi: hi, ideal: ideal, refEnergy: refEnergy)
      if away >= Self.periodicMatch && away > beating + Self.periodicGain {
        periodicLeft = periodicHoldSegments
        return true
      }
      if away >= Self.tonalMatch && away >= beating + Self.tonalGain {
        tonalUntil = segment + tonalHoldSegments
      } else if away >= Self.nearlyTonal {
        // Checked again for the next segment (see ``nearlyTonal``).
      } else {
        periodicCheckWait = Self.periodicCheckInterval - 1
      }
    }
    return periodicLeft > -periodicGraceSegments
  }

  /// How well the reference repeats away from the natural continuation of the previous
  /// segment: the best correlation there. A signal above the bass that is periodic with a period
  /// longer than the drift budget (a chord) reaches nearly 1; tonal sound that is not periodic
  /// (a chord over a reverberant cloud of partials) 0.5 to 0.9; noise, by chance, up to about
  /// 0.5. The natural continuation and the budget's width around it are left out: every
  /// signal, noise included, matches itself there perfectly, and following it would let the
  /// offset drift.
  mutating func bestAwayFromContinuation(
    lo: Double, hi: Double, ideal: Double, refEnergy: Float
  ) -> Float {
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
    return best
  }
}
