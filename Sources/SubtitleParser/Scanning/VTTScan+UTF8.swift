/// UTF-8 validation for the WebVTT input normalisation: the vector run checks, built on the
/// module's one scalar classifier (`UTF8Sequence.classify`), their reference.
extension VTTScan {
  static let replacement: (UInt8, UInt8, UInt8) = (0xEF, 0xBF, 0xBD)

  /// The length of the longest prefix of `buffer[from...]` that normalisation leaves
  /// unchanged: valid UTF-8 without NUL or CR.
  static func unchangedPrefixEnd(_ buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
    cleanRunEnd(buffer, from: from, end: buffer.count, final: true)
  }

  /// Scalar reference for `cleanRunEnd`: one scalar at a time, through `UTF8Sequence.classify`
  /// only.
  static func cleanRunEndScalar(
    _ buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int, final: Bool
  ) -> Int {
    var index = from
    while index < end {
      let byte = buffer[index]
      if byte == 0 || byte == cr { return index }
      if byte < 0x80 {
        index += 1
        continue
      }
      guard
        case .valid(let length) = UTF8Sequence.classify(buffer, at: index, end: end, final: final)
      else {
        return index
      }
      index += length
    }
    return end
  }

  /// The end of the run starting at `from` that normalisation copies unchanged: the index of
  /// the first CR, NUL, invalid UTF-8 sequence or (unless `final`) unfinished sequence at
  /// the end, or `end`. Agrees with `cleanRunEndScalar`.
  static func cleanRunEnd(
    _ buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int, final: Bool
  ) -> Int {
    var sawCR = false
    return validRunEnd(buffer, from: from, end: end, final: final, stopAtCR: true, sawCR: &sawCR)
  }

  /// The end of the valid UTF-8 run without NUL starting at `from`, stopping at the first CR
  /// too when `stopAtCR` is true (otherwise `sawCR` is set when the run holds a CR). Checks 32
  /// bytes per step with `SIMD16<Int8>` compares (`utf8Lanes`, and `blockFlagsExact` for the
  /// rare block that leaves undecided) and falls back, for a block that holds anything
  /// unusual, to a scalar walk over that block.
  @inline(__always)
  static func validRunEnd(
    _ buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int, final: Bool, stopAtCR: Bool,
    sawCR: inout Bool
  ) -> Int {
    var arrows = 0
    return validRunEnd(
      buffer, from: from, end: end, final: final, stopAtCR: stopAtCR, sawCR: &sawCR,
      arrows: &arrows)
  }

  /// `validRunEnd`, also adding to `arrows` the number of `>` bytes in the run (exact when
  /// the run reaches `end`): the WebVTT parser sizes its cue array by it without a pass of
  /// its own.
  @inline(__always)
  static func validRunEnd(
    _ buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int, final: Bool, stopAtCR: Bool,
    sawCR: inout Bool, arrows: inout Int
  ) -> Int {
    guard let base = buffer.baseAddress else { return end }
    let raw = UnsafeRawPointer(base)
    let greater: SIMD16<Int8> = SIMD16(repeating: 0x3E)
    let returns: SIMD16<Int8> = SIMD16(repeating: 0x0D)
    let zero: SIMD16<Int8> = .zero
    // The first three bytes scalar: the vector phase then sees, before each block, only bytes
    // already checked (so no sequence from before `from` is taken as valid).
    let first = scalarRunEnd(
      buffer, from: from, limit: min(from + 3, end), end: end, final: final, stopAtCR: stopAtCR,
      sawCR: &sawCR, arrows: &arrows)
    if first.stopped { return first.index }
    var index = first.index
    while true {
      // Vector phase: a block is clean when every byte is ASCII (not NUL, nor CR when
      // `stopAtCR`), a valid lead byte, or a continuation byte that a lead byte one to three
      // places before asks for. Loads at offsets -1, -2 and -3 line each byte up with its
      // predecessors.
      //
      // Whether a block is plain ASCII is a branch that mispredicts on text that mixes ASCII
      // and other scripts, so after a block that is not, the next 16 blocks get the full check
      // without asking; long ASCII stretches still take the cheap test only.
      var fullChecks = 0
      var bad = false
      // The CR lanes of the clean blocks (when they do not stop the run), tested once.
      var returnLanes: SIMDMask<SIMD16<Int8>> = SIMDMask(repeating: false)
      while index + 32 <= end && !bad {
        // Per-lane counts of `>` in the clean blocks (at most two a block), summed every 127
        // blocks, before any lane can wrap. The scalar walks count their own bytes; the bytes
        // they revisit before `index` are parts of multi-byte characters, never `>`.
        var counters: SIMD16<Int8> = .zero
        let last = min(end - 32, index + 126 * 32)
        while index <= last {
          let b0: SIMD16<Int8> = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<Int8>.self)
          let b1: SIMD16<Int8> = raw.loadUnaligned(
            fromByteOffset: index &+ 16, as: SIMD16<Int8>.self)
          let isCR = (b0 .== returns) .| (b1 .== returns)
          var plain = false
          if fullChecks == 0 {
            // ASCII without NUL after three ASCII bytes: no sequence runs into the block.
            let p3: SIMD16<Int8> = raw.loadUnaligned(
              fromByteOffset: index &- 3, as: SIMD16<Int8>.self)
            var odd = (b0 .< zero) .| (b1 .< zero) .| (p3 .< zero) .| (b0 .== zero) .| (b1 .== zero)
            if stopAtCR { odd .|= isCR }
            plain = !any(odd)
            if !plain { fullChecks = 16 }
          }
          if !plain {
            fullChecks &-= 1
            let lanesLow = utf8Lanes(raw, index, b0)
            let lanesHigh = utf8Lanes(raw, index &+ 16, b1)
            var badLanes = lanesLow.bad .| lanesHigh.bad
            if stopAtCR { badLanes .|= isCR }
            if any(lanesLow.special .| lanesHigh.special) {
              bad = blockFlagsExact(raw, index, stopAtCR: stopAtCR)
            } else {
              bad = any(badLanes)
            }
            if bad { break }
          }
          counters =
            counters &- unsafeBitCast(b0 .== greater, to: SIMD16<Int8>.self)
            &- unsafeBitCast(b1 .== greater, to: SIMD16<Int8>.self)
          if !stopAtCR { returnLanes .|= isCR }
          index &+= 32
        }
        arrows += ByteScanner.laneSum(unsafeBitCast(counters, to: SIMD16<UInt8>.self))
      }
      if any(returnLanes) { sawCR = true }
      // A block with something unusual, or the tail: walk it scalar from the start of the
      // character that may straddle `index`, then return to the vector phase.
      let resume = characterStart(base, index, floor: from)
      let limit = index + 32 > end ? end : index + 32
      let scalar = scalarRunEnd(
        buffer, from: resume, limit: limit, end: end, final: final, stopAtCR: stopAtCR,
        sawCR: &sawCR, arrows: &arrows)
      if scalar.stopped { return scalar.index }
      index = scalar.index
    }
  }

  /// The lanes of `b` that are NUL (or CR, when `stopAtCR`), which clean text never holds, and
  /// whether `b` holds a CR that does not stop the run.
  @inline(__always)
  static func nulAndCR(_ b: SIMD32<Int8>, stopAtCR: Bool) -> (
    special: SIMDMask<SIMD32<Int8>>, cr: Bool
  ) {
    let isCR = b .== SIMD32<Int8>(repeating: 0x0D)
    var special = b .== SIMD32<Int8>.zero
    if stopAtCR { special .|= isCR }
    return (special, !stopAtCR && any(isCR))
  }

  /// Whether the common UTF-8 check of `utf8Lanes` finds the 64 bytes `a b c e` at `raw + at`
  /// clean: no lane bad nor special. Otherwise `blockFlagsExact` must decide for both halves.
  @inline(__always)
  static func blockLanesClean(
    _ raw: UnsafeRawPointer, _ at: Int, _ a: SIMD16<Int8>, _ b: SIMD16<Int8>, _ c: SIMD16<Int8>,
    _ e: SIMD16<Int8>
  ) -> Bool {
    let la = utf8Lanes(raw, at, a)
    let lb = utf8Lanes(raw, at &+ 16, b)
    let lc = utf8Lanes(raw, at &+ 32, c)
    let le = utf8Lanes(raw, at &+ 48, e)
    return !any(
      (la.bad .| la.special) .| (lb.bad .| lb.special) .| (lc.bad .| lc.special)
        .| (le.bad .| le.special))
  }

  /// The common UTF-8 check of the 16 bytes `b` at `raw + at`, given the three bytes before
  /// them (loaded at offsets -1, -2 and -3): the lanes that are NUL or whose being a
  /// continuation byte (80...BF) disagrees with a lead byte one to three places before
  /// (`bad`), and the lanes after a lead byte this check does not judge (`special`: C0, C1,
  /// E0, ED, F0...FF; the first two and F5...FF are invalid, the others allow their second
  /// byte a narrower range). When no lane is special, the bytes are clean exactly when no
  /// lane is bad, counting on each byte being checked as the byte before the next one as well
  /// (by the next block, or by the scalar walk of the tail, which starts at that character):
  /// an invalid lead byte shows as special there. Otherwise `blockFlagsExact` decides.
  ///
  /// The bytes before are compared less 0x80 (as Int8: 00...7F are -128...-1, 80...BF are
  /// 0...63, C0...FF are 64...127), where "at least C0, E0 or F0" is one signed compare.
  @inline(__always)
  static func utf8Lanes(_ raw: UnsafeRawPointer, _ at: Int, _ b: SIMD16<Int8>) -> (
    bad: SIMDMask<SIMD16<Int8>>, special: SIMDMask<SIMD16<Int8>>
  ) {
    let p1: SIMD16<Int8> = raw.loadUnaligned(fromByteOffset: at &- 1, as: SIMD16<Int8>.self)
    let p2: SIMD16<Int8> = raw.loadUnaligned(fromByteOffset: at &- 2, as: SIMD16<Int8>.self)
    let p3: SIMD16<Int8> = raw.loadUnaligned(fromByteOffset: at &- 3, as: SIMD16<Int8>.self)
    let bias: SIMD16<Int8> = SIMD16(repeating: -128)
    let q1 = p1 &+ bias
    let q2 = p2 &+ bias
    let q3 = p3 &+ bias
    // Leads C0...FF, E0...FF and F0...FF one, two and three places before.
    let lead1 = SIMD16<Int8>(repeating: 63) .< q1
    let lead3 = SIMD16<Int8>(repeating: 111) .< q3
    let required = lead1 .| (SIMD16<Int8>(repeating: 95) .< q2) .| lead3
    // Continuation bytes 80...BF are -128...-65 as Int8.
    let isCont = b .< SIMD16<Int8>(repeating: -64)
    let bad = (b .== SIMD16<Int8>.zero) .| (isCont .^ required)
    // C0 and C1 are 64 and 65, E0 96, ED 109, F0...FF 112...127.
    let special =
      (SIMD16<Int8>(repeating: 111) .< q1) .| (q1 .== SIMD16<Int8>(repeating: 96))
      .| (q1 .== SIMD16<Int8>(repeating: 109)) .| (lead1 .& (q1 .< SIMD16<Int8>(repeating: 66)))
    return (bad, special)
  }

  /// Whether the 32 bytes at `raw + at` hold anything but clean text, with every condition
  /// checked: also the invalid lead bytes one place before them, so that this decides for
  /// `utf8Lanes` whatever it leaves undecided.
  ///
  /// The bytes are compared as `Int8`, where one signed compare (`pcmpgtb`) sorts them:
  /// ASCII is 0...127, continuation bytes 80...BF are -128...-65, lead bytes C0...FF are
  /// -64...-1. Unsigned byte compares would cost two instructions each on SSE2.
  @inline(never)
  static func blockFlagsExact(_ raw: UnsafeRawPointer, _ at: Int, stopAtCR: Bool) -> Bool {
    let b: SIMD32<Int8> = raw.loadUnaligned(fromByteOffset: at, as: SIMD32<Int8>.self)
    let p3: SIMD32<Int8> = raw.loadUnaligned(fromByteOffset: at - 3, as: SIMD32<Int8>.self)
    let zero: SIMD32<Int8> = .zero
    let (special, _) = nulAndCR(b, stopAtCR: stopAtCR)
    let p1: SIMD32<Int8> = raw.loadUnaligned(fromByteOffset: at - 1, as: SIMD32<Int8>.self)
    let p2: SIMD32<Int8> = raw.loadUnaligned(fromByteOffset: at - 2, as: SIMD32<Int8>.self)
    // Byte values as Int8: 0x80 = -128, 0x8F = -113, 0x90 = -112, 0x9F = -97, 0xA0 = -96,
    // 0xBF = -65, 0xC0 = -64, 0xC2 = -62, 0xDF = -33, 0xE0 = -32, 0xED = -19, 0xEF = -17, 0xF0 = -16,
    // 0xF4 = -12. Only strict compares: `<=` would add an instruction. (One splat per bound
    // the checks compare with: these lines differ only in their values.)
    let x8F: SIMD32<Int8> = SIMD32(repeating: -113)
    let x90: SIMD32<Int8> = SIMD32(repeating: -112)
    let x9F: SIMD32<Int8> = SIMD32(repeating: -97)
    let xA0: SIMD32<Int8> = SIMD32(repeating: -96)
    let xBF: SIMD32<Int8> = SIMD32(repeating: -65)
    let xC0: SIMD32<Int8> = SIMD32(repeating: -64)
    let xC2: SIMD32<Int8> = SIMD32(repeating: -62)
    let xDF: SIMD32<Int8> = SIMD32(repeating: -33)
    let xE0: SIMD32<Int8> = SIMD32(repeating: -32)
    let xED: SIMD32<Int8> = SIMD32(repeating: -19)
    let xEF: SIMD32<Int8> = SIMD32(repeating: -17)
    let xF0: SIMD32<Int8> = SIMD32(repeating: -16)
    let xF4: SIMD32<Int8> = SIMD32(repeating: -12)
    // Continuation bytes 80...BF; invalid bytes C0, C1 and F5...FF, here and one place before.
    let isCont = b .< xC0
    let invalid =
      ((xBF .< b) .& (b .< xC2)) .| ((xF4 .< b) .& (b .< zero))
      .| ((xBF .< p1) .& (p1 .< xC2)) .| ((xF4 .< p1) .& (p1 .< zero))
    // Continuation bytes asked for by the lead bytes one (C0...FF), two (E0...FF) or three
    // (F0...FF) places before; the invalid leads among those are caught above.
    let required =
      ((xBF .< p1) .& (p1 .< zero)) .| ((xDF .< p2) .& (p2 .< zero))
      .| ((xEF .< p3) .& (p3 .< zero))
    // Second bytes outside the lead's narrower range: E0 80...9F, ED A0...BF, F0 80...8F,
    // F4 90...BF.
    let narrow =
      ((p1 .== xE0) .& (b .< xA0)) .| ((p1 .== xED) .& (x9F .< b))
      .| ((p1 .== xF0) .& (b .< x90)) .| ((p1 .== xF4) .& (x8F .< b))
    return any(special .| invalid .| (isCont .^ required) .| narrow)
  }

  /// Whether any lane of `mask` is set, with 64-bit word arithmetic (no lane loop).
  @inline(__always)
  static func any(_ mask: SIMDMask<SIMD32<Int8>>) -> Bool {
    let words = unsafeBitCast(mask, to: (UInt64, UInt64, UInt64, UInt64).self)
    return words.0 | words.1 | words.2 | words.3 != 0
  }

  /// Whether any lane of `mask` is set, with 64-bit word arithmetic (no lane loop).
  @inline(__always)
  static func any(_ mask: SIMDMask<SIMD16<Int8>>) -> Bool {
    let words = unsafeBitCast(mask, to: (UInt64, UInt64).self)
    return words.0 | words.1 != 0
  }

  /// The start of the character that holds the byte before `index` when that character
  /// may continue at `index` (`index` itself otherwise), never below `floor`.
  @inline(__always)
  static func characterStart(_ base: UnsafePointer<UInt8>, _ index: Int, floor: Int) -> Int {
    var k = index
    while k > floor && k > index - 3 && base[k - 1] & 0xC0 == 0x80 { k -= 1 }
    if k > floor && base[k - 1] >= 0xC0 { k -= 1 }
    return k
  }

  /// One scalar at a time from `from` until the first byte at or past `limit` that starts a
  /// character, or until something normalisation changes (`stopped`).
  @inline(__always)
  static func scalarRunEnd(
    _ buffer: UnsafeBufferPointer<UInt8>, from: Int, limit: Int, end: Int, final: Bool,
    stopAtCR: Bool, sawCR: inout Bool, arrows: inout Int
  ) -> (index: Int, stopped: Bool) {
    var index = from
    while index < limit {
      let byte = buffer[index]
      if byte < 0x80 {
        if byte == 0x3E { arrows += 1 }
        if byte == 0 { return (index, true) }
        if byte == cr {
          if stopAtCR { return (index, true) }
          sawCR = true
        }
        index += 1
        continue
      }
      // Two- and three-byte sequences inline; four-byte ones via `UTF8Sequence.classify`.
      if byte >= 0xC2 && byte <= 0xDF {
        if index + 1 < end && buffer[index + 1] & 0xC0 == 0x80 {
          index += 2
          continue
        }
      } else if byte >= 0xE0 && byte <= 0xEF && index + 2 < end {
        let second = buffer[index + 1]
        let lower: UInt8 = byte == 0xE0 ? 0xA0 : 0x80
        let upper: UInt8 = byte == 0xED ? 0x9F : 0xBF
        if second >= lower && second <= upper && buffer[index + 2] & 0xC0 == 0x80 {
          index += 3
          continue
        }
      }
      guard
        case .valid(let length) = UTF8Sequence.classify(buffer, at: index, end: end, final: final)
      else {
        return (index, true)
      }
      index += length
    }
    return (index, index >= end)
  }
}
