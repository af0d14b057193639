import Testing

@testable import MediaTracks

@Test func memoryBytesReadsRangesAndStopsAtTheEnd() throws {
  let source = MemoryBytes(Array(0..<100), name: "bytes")
  #expect(source.size == 100)
  #expect(source.bytes(at: 10, count: 3) == [10, 11, 12])
  #expect(source.bytes(at: 98, count: 10) == [98, 99])
  #expect(source.bytes(at: 100, count: 4).isEmpty)
  #expect(source.bytes(at: -1, count: 4).isEmpty)
  #expect(source.head(4) == [0, 1, 2, 3])
  #expect(try source.contents() == Array(0..<100))
}

@Test func fileBytesReadsWhatMemoryBytesReads() throws {
  let path = fixtures + "/multitrack.mkv"
  let file = try #require(try FileBytes(path: path))
  let memory = MemoryBytes(try file.contents(), name: path)
  #expect(file.size == memory.size)
  #expect(file.name == path)
  for (offset, count) in [(0, 16), (1000, 4096), (file.size - 7, 100)] {
    #expect(file.bytes(at: offset, count: count) == memory.bytes(at: offset, count: count))
  }
  #expect(file.signatureHead() == memory.signatureHead())
}

@Test func fileBytesOpensRegularFilesOnly() throws {
  #expect(try FileBytes(path: fixtures) == nil)
  #expect(try FileBytes(path: fixtures + "/missing.mkv") == nil)
}

@Test(arguments: [
  ("multitrack.mkv", "matroska"), ("opus-vtt.webm", "matroska"), ("aac-movtext.mp4", "mov"),
  ("truncated-48k.m4a", "mov"), ("vorbis.ogg", "ogg"), ("tone.flac", "flac"),
  ("clip.wav", nil), ("tone.aac", nil), ("tone.mp3", nil), ("mp2-aac.ts", nil),
])
func mediaIsRecognisedByContent(file: String, demuxer: String?) throws {
  let source = try #require(try FileBytes(path: fixtures + "/" + file))
  #expect(InputSignature.demuxer(source.signatureHead()) == demuxer)
}

@Test func namesBreakTiesOnly() {
  #expect(InputSignature.demuxer(named: "a/b.WAV") == "wav")
  #expect(InputSignature.demuxer(named: "a.mkv/b") == nil)
  #expect(InputSignature.manifest(named: "list.M3U8") == .hls)
  #expect(InputSignature.manifest(named: "list.mpd") == .dash)
  // An EBML header of another DocType is not Matroska's to claim.
  let ebml: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x84, 0x42, 0x82, 0x81, 0x78]
  #expect(InputSignature.demuxer(ebml[...]) == nil)
}
