/// Line-end normalisation (CRLF and CR to LF) of WebVTT input, in one pass with its UTF-8
/// check, and the normaliser state a stream carries between chunks.
extension VTTScan {
  /// `source[from...]` with each CRLF and each lone CR replaced by LF, and the number of `>`
  /// bytes in it, when `source[from...]` is valid UTF-8 without NUL; nil otherwise (the input
  /// then needs the full normalisation). One pass: each 64-byte block is checked and counted
  /// from the same loads, and the text between its CRs copied as `ByteScanner.replacingLineEnds`
  /// copies it (one segment copy per CR). A block of ASCII without NUL after three ASCII bytes
  /// passes with one signed compare per 16 bytes; any other block gets the check of
  /// `utf8Lanes` (and of `blockFlagsExact` when that leaves it undecided). Agrees with
  /// `validLineEndsReplacedScalar`.
  static func validLineEndsReplaced(
    _ source: UnsafeBufferPointer<UInt8>, from: Int
  ) -> (text: [UInt8], arrows: Int)? {
    let n = source.count
    guard from < n, let s = source.baseAddress else { return ([], 0) }
    var total = 0
    var valid = true
    let text = [UInt8](unsafeUninitializedCapacity: n - from + 64) { destination, written in
      written = 0
      guard let d = destination.baseAddress else { return }
      let sourceRaw = UnsafeRawPointer(s)
      let destinationRaw = UnsafeMutableRawPointer(d)
      HugePages.advise(destinationRaw, count: destination.count)
      // The set-up of `ByteScanner.replacingLineEnds` (destination, CR positions, block
      // writer), repeated on purpose: that loop only rewrites, this one also validates each
      // block between two loads, and one shared loop would carry the check's branch in both.
      let positions = UnsafeMutablePointer<Int>.allocate(
        capacity: LineEndBlockWriter.positionCapacity)
      defer { positions.deallocate() }
      var block = LineEndBlockWriter(
        source: sourceRaw, destination: destinationRaw, from: from, counting: 0x3E,
        positions: positions)
      let one: SIMD16<Int8> = SIMD16(repeating: 1)
      let zero: SIMD16<Int8> = .zero
      var i = from
      var sawCR = false
      // The first block is checked one scalar at a time (the vector check loads three bytes
      // before its block); its `>` are counted with the other blocks'.
      if n - from >= 128 {
        var uncounted = 0
        let first = scalarRunEnd(
          source, from: from, limit: from + 64, end: n, final: true, stopAtCR: false,
          sawCR: &sawCR, arrows: &uncounted)
        if first.stopped && first.index < n {
          valid = false
          return
        }
      }
      // The output never runs ahead of the input, so the stores past it stay within the
      // capacity; the loads stay below `i + 128 <= n`. The counts are summed every 63 blocks.
      if i + 128 <= n {
        // The first block was checked above.
        let (a, b, c, e) = ByteScanner.load64(sourceRaw, i)
        block.write(a, b, c, e, readAt: i)
        block.sumCounts()
        i &+= 64
      }
      while i + 128 <= n {
        let last = min(n - 128, i + 62 * 64)
        // A block that `utf8Lanes` does not find clean (invalid, or with a lead byte it does
        // not judge) is left to the exact check below the loop, which keeps that call (and the
        // spills around it) out of the loop.
        var unclear = false
        while i <= last {
          // The block is written first and checked after: the check loads it again (the
          // stores between keep the two apart), so no vector lives across both.
          let (a, b, c, e) = ByteScanner.load64(sourceRaw, i)
          block.write(a, b, c, e, readAt: i)
          let (ca, cb, cc, ce) = ByteScanner.load64(sourceRaw, i)
          let sa = unsafeBitCast(ca, to: SIMD16<Int8>.self)
          let sb = unsafeBitCast(cb, to: SIMD16<Int8>.self)
          let sc = unsafeBitCast(cc, to: SIMD16<Int8>.self)
          let se = unsafeBitCast(ce, to: SIMD16<Int8>.self)
          // Signed bytes below 1 are NUL or not ASCII; the three bytes before the block must
          // not start a sequence that runs into it.
          let p3: SIMD16<Int8> = sourceRaw.loadUnaligned(
            fromByteOffset: i &- 3, as: SIMD16<Int8>.self)
          let odd =
            (sa .< one) .| (sb .< one) .| (sc .< one) .| (se .< one) .| (p3 .< zero)
          i &+= 64
          if any(odd) && !blockLanesClean(sourceRaw, i &- 64, sa, sb, sc, se) {
            unclear = true
            break
          }
        }
        if unclear
          && (blockFlagsExact(sourceRaw, i - 64, stopAtCR: false)
            || blockFlagsExact(sourceRaw, i - 32, stopAtCR: false))
        {
          valid = false
          return
        }
        block.sumCounts()
      }
      total += block.finish()
      // The tail, from the start of a character that may straddle `i`: checked and counted
      // scalar (the bytes before `i` it revisits are parts of characters, never `>`).
      let tail = scalarRunEnd(
        source, from: characterStart(s, i, floor: from), limit: n, end: n, final: true,
        stopAtCR: false, sawCR: &sawCR, arrows: &total)
      if tail.index < n {
        valid = false
        return
      }
      // The tail's `>` were counted by the check above.
      written = block.writeTail(from: i, end: n)
    }
    return valid ? (text, total) : nil
  }

  /// Scalar reference for `validLineEndsReplaced`: validation through `UTF8Sequence.classify`, then one
  /// byte at a time.
  static func validLineEndsReplacedScalar(
    _ source: UnsafeBufferPointer<UInt8>, from: Int
  ) -> (text: [UInt8], arrows: Int)? {
    let n = source.count
    var index = from
    var arrows = 0
    while index < n {
      let byte = source[index]
      if byte == 0 { return nil }
      if byte < 0x80 {
        if byte == 0x3E { arrows += 1 }
        index += 1
        continue
      }
      guard case .valid(let length) = UTF8Sequence.classify(source, at: index, end: n, final: true)
      else {
        return nil
      }
      index += length
    }
    var text: [UInt8] = []
    index = from
    while index < n {
      let byte = source[index]
      index += 1
      if byte == cr {
        text.append(lf)
        if index < n && source[index] == lf { index += 1 }
      } else {
        text.append(byte)
      }
    }
    return (text, arrows)
  }
  /// Normaliser state carried between chunks of a stream.
  struct Normalizer {
    /// The previous byte written was a CR turned into LF: an LF that follows is dropped.
    var afterCR = false

    /// Appends the normalised form of `input[from..<end]` to `output`; returns how many
    /// bytes were consumed (less than `end - from` only when `final` is false and the input
    /// ends inside a UTF-8 sequence).
    mutating func append(
      _ input: UnsafeBufferPointer<UInt8>, from: Int, end: Int, final: Bool,
      to output: inout [UInt8]
    ) -> Int {
      // Output goes through a scratch buffer of up to 64 KiB so that short runs (one line
      // between two CRs, one multi-byte character) cost a memcpy, not an array append each. It
      // is sized to the chunk (at most 3 bytes out per byte in), so a stream fed in small
      // chunks does not allocate 64 KiB per chunk.
      let capacity = min(1 << 16, 3 * max(0, end - from) + 16)
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
        var writer = Writer(scratch: scratch)
        defer { writer.flush(to: &output) }
        var index = from
        while index < end {
          if afterCR && input[index] == VTTScan.lf {
            index += 1
            afterCR = false
            continue
          }
          afterCR = false
          let stop = VTTScan.cleanRunEnd(input, from: index, end: end, final: final)
          if stop > index {
            writer.write(input, index..<stop, to: &output)
            index = stop
            if index == end { break }
          }
          let byte = input[index]
          if byte == VTTScan.cr {
            writer.write(VTTScan.lf, to: &output)
            afterCR = true
            index += 1
          } else if byte == 0 {
            writer.writeReplacement(to: &output)
            index += 1
          } else {
            switch UTF8Sequence.classify(input, at: index, end: end, final: final) {
            case .valid(let length):
              writer.write(input, index..<index + length, to: &output)
              index += length
            case .invalid(let length):
              writer.writeReplacement(to: &output)
              index += length
            case .needMore:
              return index - from
            }
          }
        }
        return index - from
      }
    }

    /// Buffers output bytes and appends them to the array in large blocks.
    struct Writer {
      let scratch: UnsafeMutableBufferPointer<UInt8>
      var fill = 0

      @inline(__always)
      mutating func flush(to output: inout [UInt8]) {
        if fill > 0 {
          output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<fill]))
          fill = 0
        }
      }

      @inline(__always)
      mutating func write(
        _ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8]
      ) {
        let count = range.count
        if fill + count > scratch.count {
          flush(to: &output)
          if count > scratch.count {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[range]))
            return
          }
        }
        if let target = scratch.baseAddress, let source = input.baseAddress {
          (target + fill).update(from: source + range.lowerBound, count: count)
        }
        fill += count
      }

      @inline(__always)
      mutating func write(_ byte: UInt8, to output: inout [UInt8]) {
        if fill == scratch.count { flush(to: &output) }
        scratch[fill] = byte
        fill += 1
      }

      @inline(__always)
      mutating func writeReplacement(to output: inout [UInt8]) {
        write(VTTScan.replacement.0, to: &output)
        write(VTTScan.replacement.1, to: &output)
        write(VTTScan.replacement.2, to: &output)
      }
    }
  }
}
