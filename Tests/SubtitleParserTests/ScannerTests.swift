import Testing

@_spi(Benchmarks) @testable import SubtitleParser

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random bytes drawn mostly from a small alphabet so that needles occur at all distances.
func randomBytes(_ count: Int, _ rng: inout SplitMix, alphabet: [UInt8]) -> [UInt8] {
  (0..<count).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
}

@Test(arguments: [1, 2, 3, 4, 5])
func vectorAndMemchrFindMatchScalar(seed: Int) {
  var rng = SplitMix(seed: UInt64(seed))
  for _ in 0..<200 {
    let count = Int(rng.next() % 300)
    let alphabet: [UInt8] =
      rng.next() % 2 == 0 ? [0x41, 0x42, 0x0A, 0x0D, 0xFF] : Array(0x20...0x7E) + [0x0A, 0x80]
    let bytes = randomBytes(count, &rng, alphabet: alphabet)
    let from = count == 0 ? 0 : Int(rng.next() % UInt64(count + 1))
    let to = from + Int(rng.next() % UInt64(count - from + 1))
    for needle: UInt8 in [0x0A, 0x0D, 0xFF, 0x00] {
      let expected = ByteScanner.firstIndex(
        of: needle, in: bytes, range: from..<to, kernel: .scalar)
      for kernel in [ByteScanner.Kernel.vector, .memchr] {
        #expect(
          ByteScanner.firstIndex(of: needle, in: bytes, range: from..<to, kernel: kernel)
            == expected)
      }
    }
    let either = ByteScanner.firstIndex(
      ofEither: 0x0A, 0x0D, in: bytes, range: from..<to, kernel: .scalar)
    for kernel in [ByteScanner.Kernel.vector, .memchr] {
      #expect(
        ByteScanner.firstIndex(ofEither: 0x0A, 0x0D, in: bytes, range: from..<to, kernel: kernel)
          == either)
    }
    let counted = ByteScanner.count(of: 0x0A, in: bytes, kernel: .scalar)
    #expect(ByteScanner.count(of: 0x0A, in: bytes, kernel: .vector) == counted)
    #expect(ByteScanner.count(of: 0x0A, in: bytes, kernel: .memchr) == counted)
    let starts = ByteScanner.lineStarts(in: bytes, kernel: .scalar)
    #expect(ByteScanner.lineStarts(in: bytes, kernel: .vector) == starts)
    #expect(ByteScanner.lineStarts(in: bytes, kernel: .memchr) == starts)
  }
}

@Test func firstNonASCIIVectorMatchesScalar() {
  var rng = SplitMix(seed: 99)
  for _ in 0..<300 {
    let count = Int(rng.next() % 200)
    var bytes = randomBytes(count, &rng, alphabet: Array(0x00...0x7F))
    if count > 0, rng.next() % 3 != 0 {
      bytes[Int(rng.next() % UInt64(count))] = UInt8(0x80 + rng.next() % 0x80)
    }
    bytes.withUnsafeBufferPointer { b in
      guard let p = b.baseAddress else { return }
      #expect(
        ByteScanner.firstNonASCIIVector(p, 0, b.count)
          == ByteScanner.firstNonASCIIScalar(p, 0, b.count))
    }
  }
}

@Test func lineStartsOfKnownInput() {
  #expect(ByteScanner.lineStarts(in: Array("a\nbc\n\nd".utf8)) == [0, 2, 5, 6])
  #expect(ByteScanner.lineStarts(in: Array("a\n".utf8)) == [0])
  #expect(ByteScanner.lineStarts(in: []) == [])
  #expect(ByteScanner.firstIndex(of: 0x0A, in: Array("abc".utf8)) == 3)
}

@Test func vectorCountHandlesLongRunsOfMatches() {
  // More than 255 blocks of matches in a row: the per-lane counters are summed in time.
  for count in [0, 31, 32, 255 * 32, 255 * 32 + 1, 300 * 32 + 7] {
    let bytes = [UInt8](repeating: 0x0A, count: count)
    #expect(ByteScanner.count(of: 0x0A, in: bytes, kernel: .vector) == count)
    #expect(ByteScanner.count(of: 0x0B, in: bytes, kernel: .vector) == 0)
  }
}

/// Scalar reference for `ByteScanner.replacingLineEnds`: CRLF and lone CR become LF.
func replacingLineEndsScalar(_ bytes: [UInt8], from: Int) -> [UInt8] {
  var out: [UInt8] = []
  var i = from
  while i < bytes.count {
    if bytes[i] == 0x0D {
      out.append(0x0A)
      if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
    } else {
      out.append(bytes[i])
    }
    i += 1
  }
  return out
}

@Test func replacingLineEndsMatchesScalar() {
  var rng = SplitMix(seed: 5)
  for round in 0..<600 {
    // Short inputs, and long ones for the 64-byte block path, with CRs dense or sparse.
    let count = Int(rng.next() % (round % 2 == 0 ? 500 : 3000))
    let alphabet: [UInt8] =
      round % 3 == 0
      ? [0x41, 0x42, 0x43, 0x44, 0x45, 0x3E, 0x0D, 0x0A, 0x0D, 0x20]
      : [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x3E, 0x3E, 0x3E, 0x0D, 0x0A]
    var bytes = randomBytes(count, &rng, alphabet: alphabet)
    // CRLF pairs split across 64-byte block boundaries, and CRs as the last bytes.
    for boundary in stride(from: 63, to: count - 1, by: 64) where rng.next() % 2 == 0 {
      bytes[boundary] = 0x0D
      bytes[boundary + 1] = rng.next() % 3 == 0 ? 0x0D : 0x0A
    }
    if count > 0 && rng.next() % 4 == 0 { bytes[count - 1] = 0x0D }
    for from in [0, min(3, count), min(65, count)] {
      let vector = bytes.withUnsafeBufferPointer {
        ByteScanner.replacingLineEnds($0, from: from)
      }
      #expect(vector == replacingLineEndsScalar(bytes, from: from))
      var count = -1
      let counting = bytes.withUnsafeBufferPointer {
        ByteScanner.replacingLineEnds($0, from: from, counting: 0x3E, count: &count)
      }
      #expect(counting == vector)
      #expect(count == bytes[from...].filter { $0 == 0x3E }.count)
    }
  }
}

/// Lines of every length from 0 to 200 bytes between the CRs: the rewrite copies a segment 48
/// bytes at once and longer ones 16 bytes at a time, so segments of 47, 48, 49, 64 and 65
/// bytes, and CR-free runs over several 64-byte blocks, each take another path.
@Test func replacingLineEndsHandlesLongSegments() {
  var rng = SplitMix(seed: 17)
  for round in 0..<300 {
    var bytes: [UInt8] = []
    let target = Int(rng.next() % 4000)
    while bytes.count < target {
      let length = round % 2 == 0 ? Int(rng.next() % 201) : 40 + Int(rng.next() % 30)
      bytes += randomBytes(length, &rng, alphabet: [0x41, 0x42, 0x3E, 0x20])
      switch rng.next() % 8 {
      case 0: bytes.append(0x0D)
      case 1: bytes.append(0x0A)
      default: bytes += [0x0D, 0x0A]
      }
    }
    for from in [0, min(1, bytes.count), min(70, bytes.count)] {
      expectRewritersMatchScalar(bytes, from: from)
    }
  }
}

/// Both line-end rewriters (SRT's and WebVTT's, which also validates) against the scalar
/// reference: the same text, and the same count of `>`.
func expectRewritersMatchScalar(
  _ bytes: [UInt8], from: Int, sourceLocation: SourceLocation = #_sourceLocation
) {
  var count = -1
  let vector = bytes.withUnsafeBufferPointer {
    ByteScanner.replacingLineEnds($0, from: from, counting: 0x3E, count: &count)
  }
  #expect(vector == replacingLineEndsScalar(bytes, from: from), sourceLocation: sourceLocation)
  #expect(count == bytes[from...].filter { $0 == 0x3E }.count, sourceLocation: sourceLocation)
  bytes.withUnsafeBufferPointer { p in
    let rewritten = VTTScan.validLineEndsReplaced(p, from: from)
    #expect(rewritten?.text == vector, sourceLocation: sourceLocation)
    #expect(rewritten?.arrows == count, sourceLocation: sourceLocation)
  }
}

/// The rewriters note the CRs of up to 63 blocks before writing their segments: inputs where
/// every byte, or nearly every byte, is a CR fill that record to its limit (under
/// AddressSanitizer in CI, a slot past it fails the run).
@Test func replacingLineEndsHandlesCRsInEveryByte() {
  var rng = SplitMix(seed: 23)
  for count in [63 * 64, 63 * 64 + 128, 3 * 63 * 64 + 77] {
    let allCR = [UInt8](repeating: 0x0D, count: count)
    var mixed = allCR
    for k in mixed.indices where rng.next() % 5 == 0 {
      mixed[k] = rng.next() % 2 == 0 ? 0x0A : 0x3E
    }
    for bytes in [allCR, mixed] {
      for from in [0, 1] {
        expectRewritersMatchScalar(bytes, from: from)
      }
    }
  }
}

@Test func countAndSeekMatchesScalar() {
  var rng = SplitMix(seed: 9)
  for round in 0..<400 {
    let count = Int(rng.next() % (round % 2 == 0 ? 200 : 20_000))
    // Sometimes no CR at all, sometimes many `>`; more than 255 blocks in the long ones.
    let alphabet: [UInt8] =
      round % 3 == 0 ? [0x41, 0x3E, 0x0A, 0x20] : [0x41, 0x42, 0x3E, 0x0A, 0x0D, 0x20, 0x3E]
    let bytes = randomBytes(count, &rng, alphabet: alphabet)
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      for from in [0, min(5, count)] {
        let vector = ByteScanner.countAndSeekVector(0x3E, 0x0D, base, from, count)
        let scalar = ByteScanner.countAndSeekScalar(0x3E, 0x0D, base, from, count)
        #expect(vector.count == scalar.count)
        #expect(vector.seen == scalar.seen)
      }
    }
  }
}

/// Inputs for the one-pass WebVTT line end rewrite: mostly ASCII with CRLF, lone CR and LF,
/// sometimes multi-byte characters, invalid sequences or NUL; CRs at the ends of 64-byte
/// blocks with LF (or another CR) after them, and a CR as the last byte.
func crlfTestInput(_ rng: inout SplitMix, round: Int) -> [UInt8] {
  let pieces: [[UInt8]] = [
    [0x61], [0x62], [0x20], [0x3E], [0x2D, 0x2D, 0x3E], [0x0D, 0x0A], [0x0D, 0x0A], [0x0A],
    [0x0D], [0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x98, 0x80], [0xE2, 0x80, 0x94],
    [0x00], [0x80], [0xC3], [0xE6, 0x97], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF],
  ]
  // Every third round ASCII only, every third with valid multi-byte characters, the rest with
  // everything.
  let limit = round % 3 == 0 ? 9 : (round % 3 == 1 ? 13 : pieces.count)
  let target = Int(rng.next() % (round % 2 == 0 ? 400 : 5000))
  var bytes: [UInt8] = []
  while bytes.count < target {
    let piece = pieces[Int(rng.next() % UInt64(limit))]
    // Rare pieces rarely, so that long inputs are often valid.
    if piece.count >= 1 && (piece == [0x00] || piece[0] == 0x80 || piece[0] == 0xFF)
      && rng.next() % 64 != 0
    {
      continue
    }
    bytes += piece
  }
  for boundary in stride(from: 63, to: bytes.count - 1, by: 64) where rng.next() % 3 == 0 {
    bytes[boundary] = 0x0D
    bytes[boundary + 1] = rng.next() % 3 == 0 ? 0x0D : 0x0A
  }
  if !bytes.isEmpty && rng.next() % 4 == 0 { bytes[bytes.count - 1] = 0x0D }
  return bytes
}

@Test(arguments: [1, 2, 3])
func validLineEndsReplacedMatchesScalar(seed: Int) {
  var rng = SplitMix(seed: UInt64(seed) &* 77)
  for round in 0..<400 {
    let bytes = crlfTestInput(&rng, round: round)
    bytes.withUnsafeBufferPointer { p in
      for from in [0, min(1, bytes.count), min(3, bytes.count), min(67, bytes.count)] {
        let vector = VTTScan.validLineEndsReplaced(p, from: from)
        let scalar = VTTScan.validLineEndsReplacedScalar(p, from: from)
        #expect(vector?.text == scalar?.text)
        #expect(vector?.arrows == scalar?.arrows)
        #expect((vector == nil) == (scalar == nil))
        if let scalar {
          #expect(scalar.text == replacingLineEndsScalar(bytes, from: from))
          #expect(scalar.arrows == bytes[from...].filter { $0 == 0x3E }.count)
        }
      }
    }
  }
}

/// `WebVTT.normalize`, which takes the one-pass rewrite for a file with a CR near its start,
/// agrees with the general normaliser on valid and invalid input alike.
@Test func normalizeWithCRMatchesGeneralNormalizer() {
  var rng = SplitMix(seed: 31)
  for round in 0..<400 {
    var bytes = crlfTestInput(&rng, round: round)
    if round % 5 == 0 { bytes = [0xEF, 0xBB, 0xBF] + bytes }
    if round % 2 == 0 { bytes = [0x0D, 0x0A] + bytes }
    var expected: [UInt8] = []
    bytes.withUnsafeBufferPointer { p in
      let start = WebVTT.hasByteOrderMark(p) ? 3 : 0
      var normalizer = VTTScan.Normalizer()
      _ = normalizer.append(p, from: start, end: p.count, final: true, to: &expected)
    }
    let (text, arrows) = WebVTT.normalizeCounting(bytes)
    #expect(text == expected)
    if let arrows { #expect(arrows == expected.filter { $0 == 0x3E }.count) }
  }
}

/// The huge page hint changes no contents, for buffers too small for it and large ones alike.
@Test func hugePageAdviceKeepsContents() {
  for count in [0, 1, 4096, (4 << 20) - 1, 5 << 20] {
    var bytes = [UInt8](repeating: 0x41, count: count)
    bytes.withUnsafeMutableBufferPointer { HugePages.advise($0) }
    #expect(bytes.count == count)
    #expect(bytes.allSatisfy { $0 == 0x41 })
  }
}

/// Lead bytes that the common vector check of UTF-8 leaves to the exact one (C0, C1, E0, ED,
/// F0...FF), valid and invalid, NUL and lone CRs, placed at every offset around the 32- and
/// 64-byte block boundaries of mixed text: every validation and rewrite kernel agrees with its
/// scalar reference.
@Test func utf8KernelsMatchScalarAtBlockBoundaries() {
  let sequences: [[UInt8]] = [
    [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
    [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
    [0xF4, 0x90, 0x80, 0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC0, 0x41], [0xF5, 0x80, 0x80, 0x80],
    [0xFF, 0x41], [0xF8], [0x00], [0x0D], [0x0D, 0x0D, 0x0A], [0xC3], [0xE6, 0x97], [0x80],
    [0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x98, 0x80],
  ]
  // Mostly ASCII lines with accents and CJK, CRLF line ends: most blocks take the full check.
  var text: [UInt8] = []
  let line: [UInt8] = Array("Caf\u{E9} \u{65E5}\u{672C} --> na\u{EF}ve \u{201C}q\u{201D}".utf8)
  while text.count < 400 { text += line + [0x0D, 0x0A] }
  var rounds = 0
  for sequence in sequences {
    for boundary in [32, 64, 96, 128, 192, 256] {
      for shift in -5...4 {
        var bytes = text
        let at = boundary + shift
        bytes.replaceSubrange(at..<at + sequence.count, with: sequence)
        rounds += 1
        bytes.withUnsafeBufferPointer { p in
          for from in [0, 1, 3] {
            for final in [true, false] {
              #expect(
                VTTScan.cleanRunEnd(p, from: from, end: p.count, final: final)
                  == VTTScan.cleanRunEndScalar(p, from: from, end: p.count, final: final))
            }
            let vector = VTTScan.validLineEndsReplaced(p, from: from)
            let scalar = VTTScan.validLineEndsReplacedScalar(p, from: from)
            #expect(vector?.text == scalar?.text)
            #expect(vector?.arrows == scalar?.arrows)
            #expect((vector == nil) == (scalar == nil))
          }
        }
        // With CRLF (the one-pass rewrite) and with LF only (validation, then no rewrite).
        for input in [bytes, bytes.filter { $0 != 0x0D }] {
          var expected: [UInt8] = []
          input.withUnsafeBufferPointer { p in
            var normalizer = VTTScan.Normalizer()
            _ = normalizer.append(p, from: 0, end: p.count, final: true, to: &expected)
          }
          let (normalized, arrows) = WebVTT.normalizeCounting(input)
          #expect(normalized == expected)
          if let arrows { #expect(arrows == normalized.filter { $0 == 0x3E }.count) }
        }
        // The same bytes end to end, so that the sequence is also the last thing read.
        let cut = Array(bytes[..<(at + sequence.count)])
        cut.withUnsafeBufferPointer { p in
          #expect(
            VTTScan.cleanRunEnd(p, from: 0, end: p.count, final: true)
              == VTTScan.cleanRunEndScalar(p, from: 0, end: p.count, final: true))
          let vector = VTTScan.validLineEndsReplaced(p, from: 0)
          let scalar = VTTScan.validLineEndsReplacedScalar(p, from: 0)
          #expect(vector?.text == scalar?.text)
          #expect((vector == nil) == (scalar == nil))
        }
      }
    }
  }
  #expect(rounds == sequences.count * 60)
}

@Test func utf8ClassifierAgreesWithTheStandardLibrary() {
  // Every lead byte from 0x80 with every second byte, then continuation bytes or not: a valid
  // sequence decodes to one scalar of its length, an invalid one (its maximal subpart) to one
  // U+FFFD, and a truncated one asks for more unless the input ends.
  for lead in UInt8(0x80)...0xFF {
    for second in UInt8(0)...0xFF {
      for rest: UInt8 in [0x80, 0xBF, 0x41] {
        let bytes: [UInt8] = [lead, second, rest, rest]
        bytes.withUnsafeBufferPointer { buffer in
          switch UTF8Sequence.classify(buffer, at: 0, end: 4, final: true) {
          case .valid(let length):
            let scalars = String(decoding: bytes[0..<length], as: UTF8.self).unicodeScalars
            #expect(scalars.count == 1 && scalars.first != "\u{FFFD}", "\(bytes)")
          case .invalid(let length):
            #expect(String(decoding: bytes[0..<length], as: UTF8.self) == "\u{FFFD}", "\(bytes)")
          case .needMore:
            Issue.record("needMore with final input: \(bytes)")
          }
          if case .needMore = UTF8Sequence.classify(buffer, at: 0, end: 1, final: false) {
            #expect((0xC2...0xF4).contains(lead))
          }
        }
        var length = 0
        bytes.withUnsafeBufferPointer {
          length = TextEncoding.utf8SequenceLength($0.baseAddress!, 0, 4)
        }
        #expect(
          (length != 0) == (String(validating: bytes[0..<max(1, length)], as: UTF8.self) != nil))
      }
    }
  }
}

@Test(arguments: [1, 2, 3])
func timestampWordMatchesScalar(seed: Int) {
  var rng = SplitMix(seed: UInt64(seed))
  let canonical = Array("01:23:45,678x".utf8)
  let alphabet = Array("0123456789:,.5 ".utf8) + [0x2F, 0x3A, 0x3B, 0x60, 0xB0]
  for _ in 0..<20_000 {
    // Mostly canonical timestamps with one to three bytes changed, so that both answers occur.
    var bytes = canonical
    for _ in 0..<Int(rng.next() % 4) {
      bytes[Int(rng.next() % 12)] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
    }
    bytes.withUnsafeBufferPointer { buffer in
      for separator: UInt8 in [0x2C, 0x2E] {
        let fast = TimestampWord.read(buffer.baseAddress!, at: 0, separator: separator)
        let reference = TimestampWord.readScalar(buffer.baseAddress!, at: 0, separator: separator)
        #expect(fast == reference, "\(bytes)")
      }
    }
  }
  canonical.withUnsafeBufferPointer {
    #expect(TimestampWord.read($0.baseAddress!, at: 0, separator: 0x2C) == 5_025_678)
  }
}
