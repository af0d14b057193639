#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte-level kernels used by the WebVTT parser: line search and the input normalisation
/// (UTF-8 decode with U+FFFD replacement, NUL → U+FFFD, CRLF/CR → LF).
enum VTTScan {
  static let lf: UInt8 = 0x0A
  static let cr: UInt8 = 0x0D

  /// Index of the first LF in `buffer[from..<end]`, or `end`.
  @inline(__always)
  static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
    guard from < end, let base = buffer.baseAddress else { return end }
    guard let hit = memchr(base + from, 0x0A, end - from) else { return end }
    return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
  }

  /// Whether `buffer[start..<end]` contains the substring `-->`.
  @inline(__always)
  static func containsArrow(_ buffer: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Bool {
    guard end - start >= 3, let base = buffer.baseAddress else { return false }
    var from = start + 2
    while from < end {
      guard let hit = memchr(base + from, 0x3E, end - from) else { return false }
      let index = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
      if buffer[index - 1] == 0x2D && buffer[index - 2] == 0x2D { return true }
      from = index + 1
    }
    return false
  }

  // MARK: - UTF-8 decoding

  /// The result of decoding one non-ASCII sequence at some position.
  enum Sequence {
    /// A valid scalar of `length` bytes: copy it.
    case valid(length: Int)
    /// An invalid or truncated sequence: emit U+FFFD and skip `length` bytes.
    case invalid(length: Int)
    /// The input ends inside a sequence that could still become valid.
    case needMore
  }

  /// Classifies the UTF-8 sequence starting at `index` (whose byte is >= 0x80) per the
  /// WHATWG UTF-8 decoder (one U+FFFD per maximal invalid subpart).
  @inline(__always)
  static func classify(
    _ buffer: UnsafeBufferPointer<UInt8>, at index: Int, end: Int, final: Bool
  ) -> Sequence {
    let lead = buffer[index]
    var needed = 0
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: needed = 1
    case 0xE0:
      needed = 2
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: needed = 2
    case 0xED:
      needed = 2
      upper = 0x9F
    case 0xF0:
      needed = 3
      lower = 0x90
    case 0xF1...0xF3: needed = 3
    case 0xF4:
      needed = 3
      upper = 0x8F
    default: return .invalid(length: 1)
    }
    var seen = 0
    var position = index + 1
    while seen < needed {
      if position >= end { return final ? .invalid(length: position - index) : .needMore }
      let byte = buffer[position]
      if byte < lower || byte > upper { return .invalid(length: position - index) }
      lower = 0x80
      upper = 0xBF
      seen += 1
      position += 1
    }
    return .valid(length: needed + 1)
  }

  static let replacement: (UInt8, UInt8, UInt8) = (0xEF, 0xBF, 0xBD)

  /// The length of the longest prefix of `buffer[from...]` that normalisation leaves
  /// unchanged: valid UTF-8 without NUL or CR.
  static func unchangedPrefixEnd(_ buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
    cleanRunEnd(buffer, from: from, end: buffer.count, final: true)
  }

  /// Scalar reference for `cleanRunEnd`: one scalar at a time, through `classify` only.
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
      guard case .valid(let length) = classify(buffer, at: index, end: end, final: final) else {
        return index
      }
      index += length
    }
    return end
  }

  /// The end of the run starting at `from` that normalisation copies unchanged: the index of
  /// the first CR, NUL, invalid UTF-8 sequence or (unless `final`) unfinished sequence at
  /// the end, or `end`. Skips clean ASCII eight bytes per step with 64-bit arithmetic;
  /// agrees with `cleanRunEndScalar`.
  static func cleanRunEnd(
    _ buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int, final: Bool
  ) -> Int {
    guard let base = buffer.baseAddress else { return end }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let crs: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
    var index = from
    while index < end {
      let byte = buffer[index]
      if byte < 0x80 {
        if byte == 0 || byte == cr { return index }
        index += 1
        // After an ASCII byte, skip clean ASCII eight bytes at a time.
        while index + 8 <= end {
          let word = UInt64(
            littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
          let xorCR = word ^ crs
          let zero = (word &- ones) & ~word
          let isCR = (xorCR &- ones) & ~xorCR
          if (word | zero | isCR) & highs != 0 { break }
          index += 8
        }
        continue
      }
      // Two- and three-byte sequences inline; four-byte ones via `classify`.
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
      guard case .valid(let length) = classify(buffer, at: index, end: end, final: final) else {
        return index
      }
      index += length
    }
    return end
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
      // Output goes through a 64 KiB scratch buffer so that short runs (one line between two
      // CRs, one multi-byte character) cost a memcpy, not an array append each.
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 16) { scratch in
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
            switch VTTScan.classify(input, at: index, end: end, final: final) {
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
