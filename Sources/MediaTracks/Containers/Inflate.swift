/// Decompresses zlib streams (RFC 1950 framing around RFC 1951 deflate data), for the small
/// pieces of a file FFmpeg does not decompress itself: a Matroska block's `BlockAdditional`
/// in a track whose `ContentEncoding` is zlib compression.
enum Inflate {
  /// The bytes `zlib` (a 2-byte header, deflate blocks, a 4-byte Adler-32 that is not
  /// checked) decompress to, or `nil` when they are not a whole zlib stream or would exceed
  /// `limit` bytes.
  /// - Complexity: O(*n*) in the size of the output.
  static func zlib(_ zlib: ArraySlice<UInt8>, limit: Int = 1 << 20) -> [UInt8]? {
    guard zlib.count >= 2 else { return nil }
    let cmf = Int(zlib[zlib.startIndex])
    let flg = Int(zlib[zlib.startIndex + 1])
    // Method 8 (deflate), a window of at most 32 KiB, the check bits, no preset dictionary.
    guard cmf & 0x0F == 8, cmf >> 4 <= 7, (cmf << 8 | flg) % 31 == 0, flg & 0x20 == 0 else {
      return nil
    }
    var reader = BitReader(bytes: Array(zlib.dropFirst(2)))
    var out: [UInt8] = []
    while true {
      guard let final = reader.bits(1), let type = reader.bits(2) else { return nil }
      switch type {
      case 0:
        reader.alignToByte()
        guard let length = reader.bits(16), let complement = reader.bits(16),
          length == ~complement & 0xFFFF, out.count + length <= limit,
          let stored = reader.bytes(length)
        else { return nil }
        out.append(contentsOf: stored)
      case 1:
        guard decode(&reader, Huffman.fixedLiterals, Huffman.fixedDistances, &out, limit) else {
          return nil
        }
      case 2:
        guard let (literals, distances) = dynamicTables(&reader),
          decode(&reader, literals, distances, &out, limit)
        else { return nil }
      default:
        return nil
      }
      if final == 1 { return out }
    }
  }

  /// Reads bits least significant first, as deflate packs them.
  struct BitReader {
    let bytes: [UInt8]
    var position = 0
    var bit = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func bits(_ count: Int) -> Int? {
      var value = 0
      for shift in 0..<count {
        guard position < bytes.count else { return nil }
        value |= Int(bytes[position] >> UInt8(bit) & 1) << shift
        bit += 1
        if bit == 8 {
          bit = 0
          position += 1
        }
      }
      return value
    }

    mutating func alignToByte() {
      if bit > 0 {
        bit = 0
        position += 1
      }
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
      guard position + count <= bytes.count else { return nil }
      defer { position += count }
      return bytes[position..<position + count]
    }
  }

  /// A canonical Huffman code built from its code lengths as RFC 1951 section 3.2.2 assigns
  /// them: the codes of one length are consecutive numbers in the order of their symbols, and
  /// the first code of each length follows from how many codes each shorter length has.
  struct Huffman {
    /// How many symbols have a code of each length (1 to 15; 0 means no code).
    var counts = [Int](repeating: 0, count: 16)
    /// The first code of each length (the RFC's `next_code` before any is assigned).
    var firstCode = [Int](repeating: 0, count: 16)
    /// Where the symbols of each length start in ``symbols``.
    var firstIndex = [Int](repeating: 0, count: 16)
    /// The symbols that have a code, by code length, then by symbol.
    var symbols: [Int] = []

    /// `nil` when the lengths over-subscribe the code (more codes than the lengths allow).
    init?(lengths: [Int]) {
      for length in lengths where length > 0 { counts[length] += 1 }
      var room = 1
      for length in 1..<16 {
        room = room * 2 - counts[length]
        if room < 0 { return nil }
      }
      var code = 0
      var index = 0
      for length in 1..<16 {
        code = (code + counts[length - 1]) * 2
        firstCode[length] = code
        firstIndex[length] = index
        index += counts[length]
      }
      var next = firstIndex
      symbols = [Int](repeating: 0, count: index)
      for (symbol, length) in lengths.enumerated() where length > 0 {
        symbols[next[length]] = symbol
        next[length] += 1
      }
    }

    /// The next symbol: its code's bits are read one at a time, most significant first, until
    /// they are a code of this length; `nil` at the end of the input or on a code not assigned.
    func symbol(_ reader: inout BitReader) -> Int? {
      var code = 0
      for length in 1..<16 {
        guard let bit = reader.bits(1) else { return nil }
        code = code * 2 + bit
        let offset = code - firstCode[length]
        if offset >= 0 && offset < counts[length] { return symbols[firstIndex[length] + offset] }
      }
      return nil
    }

    static let fixedLiterals = Huffman(
      lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
        + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8))!
    static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))!
  }

  private static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  private static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  private static func decode(
    _ reader: inout BitReader, _ literals: Huffman, _ distances: Huffman, _ out: inout [UInt8],
    _ limit: Int
  ) -> Bool {
    while true {
      guard let symbol = literals.symbol(&reader) else { return false }
      if symbol < 256 {
        guard out.count < limit else { return false }
        out.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return true }
      let lengthIndex = symbol - 257
      guard lengthIndex < lengthBase.count, let extra = reader.bits(lengthExtra[lengthIndex]),
        let distanceSymbol = distances.symbol(&reader), distanceSymbol < distanceBase.count,
        let distanceBits = reader.bits(distanceExtra[distanceSymbol])
      else { return false }
      let length = lengthBase[lengthIndex] + extra
      let distance = distanceBase[distanceSymbol] + distanceBits
      guard distance <= out.count, out.count + length <= limit else { return false }
      for _ in 0..<length { out.append(out[out.count - distance]) }
    }
  }

  private static func dynamicTables(_ reader: inout BitReader) -> (Huffman, Huffman)? {
    guard let literalCount = reader.bits(5).map({ $0 + 257 }),
      let distanceCount = reader.bits(5).map({ $0 + 1 }),
      let codeCount = reader.bits(4).map({ $0 + 4 }), literalCount <= 286, distanceCount <= 30
    else { return nil }
    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    var codeLengths = [Int](repeating: 0, count: 19)
    for i in 0..<codeCount {
      guard let length = reader.bits(3) else { return nil }
      codeLengths[order[i]] = length
    }
    guard let lengthCode = Huffman(lengths: codeLengths) else { return nil }
    var lengths: [Int] = []
    while lengths.count < literalCount + distanceCount {
      guard let symbol = lengthCode.symbol(&reader) else { return nil }
      switch symbol {
      case 0..<16:
        lengths.append(symbol)
      case 16:
        guard let previous = lengths.last, let repeats = reader.bits(2) else { return nil }
        lengths += [Int](repeating: previous, count: 3 + repeats)
      case 17:
        guard let repeats = reader.bits(3) else { return nil }
        lengths += [Int](repeating: 0, count: 3 + repeats)
      default:
        guard let repeats = reader.bits(7) else { return nil }
        lengths += [Int](repeating: 0, count: 11 + repeats)
      }
    }
    guard lengths.count == literalCount + distanceCount, lengths[256] != 0,
      let literals = Huffman(lengths: Array(lengths[0..<literalCount])),
      let distances = Huffman(lengths: Array(lengths[literalCount...]))
    else { return nil }
    return (literals, distances)
  }
}
