#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The input buffer: the input pushed, the similarity signal (the channels' sum, see
// `mixPolarity`) and its 4:1 decimation, kept from the first frame a later segment may still
// read, and grown only when more input is pushed than pulled.
extension TimeStretcher {
  /// The similarity signal from internal frame `frame` on, of which `length` values are read
  /// (and `before` values before it).
  @inline(__always)
  func mixPointer(from frame: Int, length: Int, before: Int = 0) -> UnsafeMutablePointer<Float> {
    buffers.mix.pointer(at: frame - base, length: length, before: before)
  }

  /// The interleaved input from internal frame `frame` on, of which `length` frames are read
  /// (and `before` frames before it).
  @inline(__always)
  func inputPointer(from frame: Int, length: Int, before: Int = 0) -> UnsafeMutablePointer<Float> {
    buffers.input.pointer(
      at: (frame - base) * channels, length: length * channels, before: before * channels)
  }

  /// Appends `n` frames from `src`, or silence when `src` is nil. Non-finite samples become 0.
  mutating func appendFrames(_ src: UnsafePointer<Float>?, _ n: Int) {
    makeRoom(n)
    let dst = buffers.input.view(at: frames * channels, length: n * channels)
    if let src {
      for i in 0..<(n * channels) {
        let v = src[i]
        dst[i] = v.isFinite ? v : 0
      }
    } else {
      dst.fill(0, length: n * channels)
    }
    let m = buffers.mix.view(at: frames, length: n)
    if channels == 1 {
      m.copy(from: dst, at: 0, to: 0, length: n)
    } else {
      // The first channel plus or minus the sum of the others: minus while they have been
      // mostly in opposite polarity (see ``polarityTurn``), whose plain sum cancels.
      mixPolarity(dst, m, n)
    }
    frames += n
    // The 4:1 decimation, four values a pass where four are due (each the same sum,
    // `(mix[j] + mix[j + 1]) + (mix[j + 2] + mix[j + 3])`, as one at a time).
    let mix = buffers.mix
    let dec = buffers.dec
    var d = decDone
    while (d &+ 4) &* 4 <= frames {
      let v = mix.load(SIMD16<Float>.self, at: d &* 4)
      let pairs = v.evenHalf + v.oddHalf
      dec.store(pairs.evenHalf + pairs.oddHalf, at: d)
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
    _ source: BufferView<Float>, _ destination: BufferView<Float>, _ n: Int
  ) {
    assert(Self.polarityBlock % 4 == 0, "the polarity block must be a multiple of 4 frames")
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
        // Four frames a step, two steps a pass (wrapping arithmetic: `i` stays below `n`).
        @inline(__always) func four(_ i: Int) {
          let v = source.load(SIMD8<Float>.self, at: i &* 2)
          let first = v.evenHalf
          let rest = v.oddHalf
          cross += first * rest
          first2 += first * first
          rest2 += rest * rest
          destination.store(first + sign * rest, at: i)
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

  /// Makes room for `n` more frames: drops the frames before ``retentionPoint()``, and grows the
  /// buffers when that is not enough.
  mutating func makeRoom(_ n: Int) {
    guard frames + n > buffers.capacity else { return }
    let keep = retentionPoint()
    let shift = keep - base
    if shift > 0 {
      let kept = frames - shift
      let decShift = shift / 4
      buffers.discard(shift, keeping: kept, decimated: decDone - decShift, channels: channels)
      base = keep
      frames = kept
      decDone -= decShift
    }
    guard frames + n > buffers.capacity else { return }
    let newCapacity = max(buffers.capacity * 2, frames + n + 1024)
    buffers.grow(to: newCapacity, keeping: frames, decimated: decDone, channels: channels)
  }
}
