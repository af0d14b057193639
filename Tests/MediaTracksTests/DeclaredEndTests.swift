import Testing

@testable import MediaTracks

// The declarations a cut is judged by come from the file itself: absurd ones must give an
// answer (cut or not), never a trap or a long walk.

private func source(_ bytes: [UInt8]) -> MemoryBytes { MemoryBytes(bytes, name: "test") }

@Test func matroskaSizesOfAnyLengthAreJudgedWithoutOverflow() {
  let ebml: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x80]  // an empty EBML header
  let segment: [UInt8] = [0x18, 0x53, 0x80, 0x67]
  // A Segment stating 2^55 bytes (8-byte size, not the unknown size): cut.
  let huge = ebml + segment + [0x01, 0x80, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 64)
  #expect(DeclaredEnd.shortfall(source(huge))?.contains("Segment") == true)
  // The unknown size (all value bits set) states nothing.
  let unknown = ebml + segment + [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [0, 0]
  #expect(DeclaredEnd.shortfall(source(unknown)) == nil)
  // A Segment that fits is whole.
  let whole = ebml + segment + [0x84, 1, 2, 3, 4]
  #expect(DeclaredEnd.shortfall(source(whole)) == nil)
  // An EBML header stating more than any file holds is no Matroska file to judge.
  let absurd: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x01, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
  #expect(DeclaredEnd.shortfall(source(absurd)) == nil)
}

@Test func flacMetadataWalksAreBounded() {
  // Millions of empty metadata blocks, none marked last: the walk stops after 1,024.
  var bytes = Array("fLaC".utf8)
  for _ in 0..<5_000 { bytes += [0x01, 0, 0, 0] }
  #expect(DeclaredEnd.shortfall(source(bytes)) == nil)
  // A block stating more bytes than remain is a cut.
  let cut = Array("fLaC".utf8) + [0x80, 0, 0, 34] + [UInt8](repeating: 0, count: 10)
  #expect(DeclaredEnd.shortfall(source(cut)) != nil)
}

@Test func oggPagesCutOrWhole() {
  // One page with an empty body (no segments), then the same page cut after 20 bytes.
  var page = Array("OggS".utf8) + [0, 0x02] + [UInt8](repeating: 0, count: 20) + [0]
  // Its checksum (RFC 3533's CRC-32 over the page with the field zeroed).
  var crc: UInt32 = 0
  for byte in page {
    crc = crc << 8 ^ OggChain.crcTable[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ byte)]
  }
  for i in 0..<4 { page[22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
  #expect(DeclaredEnd.shortfall(source(page + page)) == nil)
  #expect(DeclaredEnd.shortfall(source(page + page.prefix(20))) != nil)
  // Bytes after the last page that start no page (a tag): no cut.
  #expect(DeclaredEnd.shortfall(source(page + Array("TAG".utf8) + [1, 2, 3])) == nil)
  // Garbage after the last page that starts with the sync pattern but is no page of the
  // file's: a version other than 0, flags past the three defined, another stream's serial.
  var garbage = page
  garbage[4] = 0x5A
  #expect(DeclaredEnd.shortfall(source(page + garbage.prefix(24))) == nil)
  garbage = page
  garbage[5] = 0xC1
  #expect(DeclaredEnd.shortfall(source(page + garbage.prefix(24))) == nil)
  garbage = page
  garbage[15] = 0x77
  #expect(DeclaredEnd.shortfall(source(page + garbage.prefix(24))) == nil)
  // The file's own stream cut at the same place is a cut.
  #expect(DeclaredEnd.shortfall(source(page + page.prefix(24))) != nil)
}
