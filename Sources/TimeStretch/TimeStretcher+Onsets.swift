// Onsets: clicks and drum hits found in the similarity signal ahead of the segments, so that
// each is played once, in one segment, at its scaled time (see `choosePosition`).
extension TimeStretcher {
  /// Finds onsets (a block's energy ten times its recent mean and four times its recent peak,
  /// at least ``onsetSpacingSeconds`` of output after the last onset found) in the channel sum
  /// up to `limit`.
  mutating func scanOnsets(upTo limit: Int) {
    let floor = Float(block) * 1e-7
    let history = buffers.history
    let pending = buffers.pending
    while scanned + block <= limit {
      let s = buffers.mix.view(at: scanned - base, length: block)
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
        && scanned - lastOnsetBlock > max(2 * block, Int(speed * onsetSpacingFrames))
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
      let c = buffers.pending[pendingHead]
      guard Double(c) < p + Double(window) else { break }
      if Double(c) >= p {
        lastEmitted = max(lastEmitted, c)
      }
      pendingHead = (pendingHead + 1) % Self.pendingCapacity
      pendingCount -= 1
    }
  }
}
