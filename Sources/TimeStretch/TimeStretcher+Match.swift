// The similarity search's matching: the lag whose waveform best continues the previous segment,
// in two passes. The coarse pass correlates every 4th lag on the 4:1 decimation and keeps the
// three best; the fine pass correlates, at full resolution, the lags around those three and
// around the ideal position, and takes the peak nearest the ideal position among the near-equal
// ones.
extension TimeStretcher {
  /// The lag in `lo...hi` (at least one whole frame) whose waveform best continues the previous
  /// segment, with its normalised correlation: the reference (``StretchBuffers/ref``,
  /// ``StretchBuffers/refDec``) against the channel sum, coarse on the 4:1 decimation, then at
  /// full resolution around the three best coarse lags, each scored with the distance penalty.
  mutating func bestMatch(lo: Double, hi: Double, ideal: Double, refEnergy: Float) -> (
    j: Int, ncc: Float
  ) {
    let jLo = Int(lo.rounded(.up))
    let jHi = Int(hi.rounded(.down))
    assert(jLo <= jHi, "the search range must hold a whole frame")
    let coarse = coarsePass(jLo: jLo, jHi: jHi, ideal: ideal)
    // Fine: full resolution around the three coarse winners and around the ideal position. The
    // lag taken is the peak nearest the ideal position among the peaks correlating about as well
    // as the best one (see ``nearEqual``): many lags match noise-like sound about equally, and
    // the nearest keeps the timeline. Without a peak, the best score (correlation less the
    // distance penalty) counts. The fine correlations are eight per window (unevaluated lags at
    // -infinity).
    buffers.fineNCC.fill(-.infinity, length: 32)
    let windows = FineWindows(coarse, jLo: jLo, jHi: jHi, ideal: ideal)
    let blocks = FineBlocks(covering: windows)
    correlateFineBlocks(blocks, refEnergy: refEnergy)
    let scored = scoreFineWindows(windows, blocks, jLo: jLo, ideal: ideal)
    var bestJ = scored.j
    var bestNCC = scored.ncc
    if let nearest = nearestPeak(windows, jLo: jLo, jHi: jHi, ideal: ideal) {
      bestJ = nearest.j
      bestNCC = nearest.ncc
    }
    if scored.score == -Float.infinity {
      bestJ = max(jLo, min(jHi, Int(ideal.rounded())))
      bestNCC = normalizedCorrelation(at: bestJ, refEnergy: refEnergy)
    }
    return (bestJ, bestNCC)
  }

  /// The distance penalty of lag `j`: ``distancePenalty`` times the square of its distance from
  /// `ideal` times `scale` (one over ``innerRadius``).
  @inline(__always)
  func penalty(_ j: Int, ideal: Double, scale: Float) -> Float {
    let d = Float(Double(j) - ideal) * scale
    return Self.distancePenalty * d * d
  }

  /// The coarse pass over `jLo...jHi`: every 4th lag (from the first multiple of 4), correlated
  /// on the 4:1 decimation; the three best by score are kept.
  func coarsePass(jLo: Int, jHi: Int, ideal: Double) -> CoarseTop {
    let refDec = buffers.refDec.pointer(at: 0, length: coarseLength)
    let refDecEnergy = dotAndEnergy(refDec, refDec, count: coarseLength).energy
    let scale = Float(1) / Float(innerRadius)
    var coarse = CoarseTop(jLo)
    let jStart = (jLo + 3) / 4 * 4
    let lagCount = jHi >= jStart ? (jHi - jStart) / 4 + 1 : 0
    // The decimated candidates, eight more than needed: lags are correlated eight at a time.
    let firstBlock = buffers.dec.view(
      at: (jStart - searchHistory - base) / 4, length: lagCount + 8 + coarseLength)
    // A near-silent candidate (energy below a millionth of the reference's) is scored against
    // that floor instead.
    slideCoarseEnergies(
      firstBlock, coarseLength: coarseLength, count: lagCount + 8, floor: refDecEnergy * 1e-6)
    let coarseEnergy = buffers.coarseEnergy
    let laneOffsets = SIMD8<Float>(0, 4, 8, 12, 16, 20, 24, 28)
    /// Lags `from..<to`, eight at a time (one SIMD8 lane each), into `top`. (The state is passed
    /// in, not captured: captured variables a nested function mutates are checked for exclusive
    /// access at run time, a library call per access.)
    @inline(__always) func consider(from: Int, to: Int, _ top: inout CoarseTop) {
      /// The group of lags `l..<min(l + 8, to)`, whose correlations are `d8`.
      @inline(__always) func group(_ l: Int, _ d8: SIMD8<Float>, _ top: inout CoarseTop) {
        let e8 = coarseEnergy.load(SIMD8<Float>.self, at: l)
        let product = e8 * refDecEnergy
        // Eight lanes at once (see ``inverseSquareRoot(_:)``); a silent reference, whose
        // energies may be zero, the slow way.
        let ncc8 =
          all(product .> .leastNormalMagnitude)
          ? d8 * inverseSquareRoot(product) : d8 / product.squareRoot()
        if to - l >= 8 {
          let offset8 =
            (SIMD8<Float>(repeating: Float(Double(jStart + 4 * l) - ideal)) + laneOffsets)
            * scale
          let s8 = ncc8 - Self.distancePenalty * offset8 * offset8
          // Most groups hold nothing better than the current third best.
          if any(s8 .> top.s3) || any(ncc8 .> top.bestNCC) {
            for lane in 0..<8 {
              let j = jStart + 4 * (l + lane)
              top.insert(
                l + lane, j, ncc8[lane], ncc8[lane] - penalty(j, ideal: ideal, scale: scale))
            }
          }
        } else {
          for lane in 0..<(to - l) {
            let j = jStart + 4 * (l + lane)
            top.insert(l + lane, j, ncc8[lane], ncc8[lane] - penalty(j, ideal: ideal, scale: scale))
          }
        }
      }
      // Three groups per pass where more than two remain, two where two remain (one broadcast
      // serves all of them). The kernels read `count + 22`, `count + 14` and `count + 6` values
      // past their start.
      var l = from
      while l < to {
        if to - l > 16 {
          let block = firstBlock.pointer(at: l, length: coarseLength + 23)
          let (d0, d1, d2) = dots8Triple(refDec, block, block + 8, block + 16, count: coarseLength)
          group(l, d0, &top)
          group(l + 8, d1, &top)
          group(l + 16, d2, &top)
          l += 24
        } else if to - l > 8 {
          let (d0, d1) = dots16(
            refDec, firstBlock.pointer(at: l, length: coarseLength + 15), count: coarseLength)
          group(l, d0, &top)
          group(l + 8, d1, &top)
          l += 16
        } else {
          let d = dots8(
            refDec, firstBlock.pointer(at: l, length: coarseLength + 7), count: coarseLength)
          group(l, d, &top)
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
    return coarse
  }

  /// Writes the energies of `count` coarse candidates (candidate `l`: the `coarseLength`
  /// decimated values from `block[l]` on) to ``StretchBuffers/coarseEnergy``, each at least
  /// `floor` (which is not negative). The energy slides along the decimated signal, accumulated
  /// in Double: four lags a pass, the squares' differences four at a time, the running sum still
  /// one lag at a time in order (so the same values as a lag-by-lag slide), and the floor as one
  /// comparison (a running sum at or below zero is below `floor`).
  func slideCoarseEnergies(
    _ block: BufferView<Float>, coarseLength: Int, count slideCount: Int, floor threshold: Float
  ) {
    var running: Double = 0
    for m in 0..<coarseLength {
      running += Double(block[m]) * Double(block[m])
    }
    let coarseEnergy = buffers.coarseEnergy
    @inline(__always) func floored(_ running: Double) -> Float {
      let e = Float(running)
      return e > threshold ? e : threshold
    }
    var l = 0
    while l &+ 4 <= slideCount {
      let enter = SIMD4<Double>(block.load(SIMD4<Float>.self, at: l &+ coarseLength))
      let leave = SIMD4<Double>(block.load(SIMD4<Float>.self, at: l))
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
      let enter = Double(block[l &+ coarseLength])
      let leave = Double(block[l])
      running += enter * enter - leave * leave
      l = l &+ 1
    }
  }

  /// Writes the normalised correlations of the lags of `blocks` (eight a block) to the second
  /// half of ``StretchBuffers/fineNCC``, block `b` from `32 + 8·b` on.
  func correlateFineBlocks(_ blocks: FineBlocks, refEnergy: Float) {
    let length = searchLength
    let ref = buffers.ref.pointer(at: 0, length: length)
    let blockNCC = buffers.fineNCC.view(at: 32, length: 32)
    /// Writes the correlations of the `lanes` lags from `u` on (their dot products `d0`, then
    /// `d1`) to `out`.
    @inline(__always) func normalize(
      _ u: Int, _ d0: SIMD8<Float>, _ d1: SIMD8<Float>, _ lanes: Int, _ out: BufferView<Float>
    ) {
      let start = buffers.mix.view(at: u - searchHistory - base, length: length + lanes)
      let s = start.pointer(at: 0, length: length)
      var energy = Double(dotAndEnergy(s, s, count: length).energy)
      for lane in 0..<lanes {
        let e = Float(energy)
        let d = lane < 8 ? d0[lane] : d1[lane - 8]
        out[lane] = e > refEnergy * 1e-6 ? d / (e * refEnergy).squareRoot() : 0
        let enter = Double(start[lane + length])
        let leave = Double(start[lane])
        energy = max(0, energy + enter * enter - leave * leave)
      }
    }
    // The blocks' dot products: three blocks in one pass wherever three or more are due (one
    // broadcast serves all three), two adjacent blocks in one pass, and a single block alone.
    // Each lane comes out the same whichever kernel made it. The kernels read `count + 14` and
    // `count + 6` values past their start.
    @inline(__always) func candidates(_ b: Int, _ extra: Int) -> UnsafeMutablePointer<Float> {
      mixPointer(from: blocks.start(b) - searchHistory, length: length + extra)
    }
    typealias Dots = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
    @inline(__always) func blockDots() -> Dots {
      let none = SIMD8<Float>.zero
      switch blocks.count {
      case 3, 4:
        let (d0, d1, d2) = dots8Triple(
          ref, candidates(0, 7), candidates(1, 7), candidates(2, 7), count: length)
        let d3 = blocks.count == 4 ? dots8(ref, candidates(3, 7), count: length) : none
        return (d0, d1, d2, d3)
      case 2 where blocks.start(1) == blocks.start(0) + 8:
        let (d0, d1) = dots16(ref, candidates(0, 15), count: length)
        return (d0, d1, none, none)
      case 2:
        return (
          dots8(ref, candidates(0, 7), count: length), dots8(ref, candidates(1, 7), count: length),
          none, none
        )
      case 1:
        return (dots8(ref, candidates(0, 7), count: length), none, none, none)
      default:
        return (none, none, none, none)
      }
    }
    let dots = blockDots()
    @inline(__always) func dot(_ b: Int) -> SIMD8<Float> {
      b == 0 ? dots.0 : b == 1 ? dots.1 : b == 2 ? dots.2 : dots.3
    }
    // Normalised: adjacent blocks together, their candidates' energies sliding over both.
    var b = 0
    while b < blocks.count {
      let u = blocks.start(b)
      if b + 1 < blocks.count && blocks.start(b + 1) == u + 8 {
        normalize(u, dot(b), dot(b + 1), 16, blockNCC.view(at: 8 * b, length: 16))
        b += 2
      } else {
        normalize(u, dot(b), .zero, 8, blockNCC.view(at: 8 * b, length: 8))
        b += 1
      }
    }
  }

  /// Copies each window's correlations from its block (see
  /// ``correlateFineBlocks(_:refEnergy:)``) to the first half of ``StretchBuffers/fineNCC``,
  /// window `n` from `8·n` on, and returns the best score (correlation less the distance
  /// penalty) with its lag and correlation: −infinity, `jLo` and 0 when every window is empty.
  func scoreFineWindows(
    _ windows: FineWindows, _ blocks: FineBlocks, jLo: Int, ideal: Double
  ) -> (score: Float, j: Int, ncc: Float) {
    let nccs = buffers.fineNCC
    let scale = Float(1) / Float(innerRadius)
    var best = -Float.infinity
    var bestJ = jLo
    var bestNCC: Float = 0
    for rank in 0..<4 {
      let (fStart, fEnd) = windows.window(rank)
      guard fStart <= fEnd else { continue }
      // The block holding each lag: the last one starting at or before it (blocks ascend, and
      // the window's lags too, so the search goes on from the previous lag's block).
      var fb = 0
      var fbStart = blocks.starts.0
      var fbNext = blocks.count > 1 ? blocks.starts.1 : Int.max
      for lane in 0...(fEnd - fStart) {
        let f = fStart + lane
        while fb < blocks.count - 1 && f - fbStart >= 8 {
          fb += 1
          fbStart = fbNext
          fbNext = fb + 1 < blocks.count ? blocks.start(fb + 1) : Int.max
        }
        let ncc = nccs[32 + 8 * fb + (f - fbStart)]
        nccs[rank * 8 + lane] = ncc
        let s = ncc - penalty(f, ideal: ideal, scale: scale)
        if s > best {
          best = s
          bestJ = f
          bestNCC = ncc
        }
      }
    }
    return (best, bestJ, bestNCC)
  }

  /// The peak of the fine correlations nearest the ideal position among those within
  /// ``nearEqual`` (widened by ``nearEqualSpread`` for poor matches) of the best peak, with its
  /// correlation; nil when the correlations have no peak.
  func nearestPeak(
    _ windows: FineWindows, jLo: Int, jHi: Int, ideal: Double
  ) -> (j: Int, ncc: Float)? {
    let nccs = buffers.fineNCC
    /// Whether fine lag `i` is a peak: at least as good as both neighbours, which must have been
    /// evaluated too unless it is at the end of the range.
    @inline(__always) func isPeak(_ i: Int) -> Bool {
      let lane = i & 7
      let f = windows.lag(i)
      let left = lane > 0 ? nccs[i - 1] : -.infinity
      let right = lane < 7 ? nccs[i + 1] : -.infinity
      return (left > -.infinity ? nccs[i] >= left : f == jLo)
        && (right > -.infinity ? nccs[i] >= right : f == jHi)
    }
    var top: Float = -.infinity
    for i in 0..<32 where nccs[i] > top && isPeak(i) {
      top = nccs[i]
    }
    guard top > -.infinity else { return nil }
    let floor = top - Self.nearEqual - Self.nearEqualSpread * (1 - top * top)
    var nearest = Double.infinity
    var found: (j: Int, ncc: Float)?
    for i in 0..<32 where nccs[i] >= floor && isPeak(i) {
      let f = windows.lag(i)
      let d = abs(Double(f) - ideal)
      if d < nearest {
        nearest = d
        found = (f, nccs[i])
      }
    }
    return found
  }

  /// The normalised correlation of the reference with the candidate at lag `j`.
  @inline(__always)
  func normalizedCorrelation(at j: Int, refEnergy: Float) -> Float {
    let r = dotAndEnergy(
      buffers.ref.pointer(at: 0, length: searchLength),
      mixPointer(from: j - searchHistory, length: searchLength), count: searchLength)
    return r.energy > refEnergy * 1e-6 ? r.dot / (r.energy * refEnergy).squareRoot() : 0
  }
}

/// The fine pass's windows: the (at most seven) lags around each of the three best coarse lags
/// and around the ideal position. A window is empty (end before start) when its candidate is
/// missing.
struct FineWindows {
  /// The windows' first lags, by rank (the three coarse winners, then the ideal position).
  var starts: (Int, Int, Int, Int)
  /// The windows' last lags.
  var ends: (Int, Int, Int, Int)

  /// The windows around `coarse`'s winners and `ideal`, within `jLo...jHi`.
  init(_ coarse: CoarseTop, jLo: Int, jHi: Int, ideal: Double) {
    starts = (jLo, jLo, jLo, jLo)
    ends = (jLo - 1, jLo - 1, jLo - 1, jLo - 1)
    let nearIdeal = max(jLo, min(jHi, Int(ideal.rounded())))
    for rank in 0..<4 {
      let candidate =
        rank == 0 ? coarse.j1 : (rank == 1 ? coarse.j2 : (rank == 2 ? coarse.j3 : nearIdeal))
      let score = rank == 0 ? coarse.s1 : (rank == 1 ? coarse.s2 : (rank == 2 ? coarse.s3 : 0))
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
  }

  /// The first and last lag of candidate `rank`'s window.
  @inline(__always)
  func window(_ rank: Int) -> (Int, Int) {
    switch rank {
    case 0: (starts.0, ends.0)
    case 1: (starts.1, ends.1)
    case 2: (starts.2, ends.2)
    default: (starts.3, ends.3)
    }
  }

  /// The lag of fine correlation `i` (window `i / 8`, lane `i % 8`).
  @inline(__always)
  func lag(_ i: Int) -> Int {
    let w = i >> 3
    return (w == 0 ? starts.0 : w == 1 ? starts.1 : w == 2 ? starts.2 : starts.3) + (i & 7)
  }
}

/// The blocks of eight lags in which the fine windows' lags are correlated. Neighbouring
/// candidates' windows overlap (the coarse winners are often adjacent coarse lags), so the
/// windows' union is correlated once, in as few blocks (one SIMD8 pass each, energies sliding)
/// as cover it: each block starts at the lowest lag still uncovered. Every lag's value is the
/// same whichever block holds it.
struct FineBlocks {
  /// The blocks' first lags, ascending (the first `count` of them).
  var starts = (0, 0, 0, 0)
  /// The number of blocks (at most four).
  var count = 0

  /// The blocks covering `windows`.
  init(covering windows: FineWindows) {
    var next = Int.min
    while true {
      var u = Int.max
      for rank in 0..<4 {
        let (a, b) = windows.window(rank)
        let first = max(a, next)
        if first <= b { u = min(u, first) }
      }
      guard u != Int.max else { break }
      switch count {
      case 0: starts.0 = u
      case 1: starts.1 = u
      case 2: starts.2 = u
      default: starts.3 = u
      }
      count += 1
      next = u + 8
    }
  }

  /// The first lag of block `b`.
  @inline(__always)
  func start(_ b: Int) -> Int {
    b == 0 ? starts.0 : b == 1 ? starts.1 : b == 2 ? starts.2 : starts.3
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
