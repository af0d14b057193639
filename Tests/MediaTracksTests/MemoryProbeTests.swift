import Foundation
import MediaTracks
import Testing

@Test(arguments: ["multitrack.mkv", "aac-movtext.mp4", "vorbis.ogg", "mp2-aac.ts", "tone.flac"])
func probingBytesEqualsProbingTheFile(_ name: String) throws {
  let path = fixtures + "/" + name
  let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  var fromMemory = try MediaProbe.probe(bytes: bytes, name: path)
  let fromFile = try MediaProbe.probe(path: path)
  // Raw MPEG-TS and FLAC durations come from the file size either way.
  fromMemory.path = fromFile.path
  #expect(fromMemory == fromFile)
}

@Test func garbageBytesAreMalformed() {
  let bytes = (0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
  #expect {
    _ = try MediaProbe.probe(bytes: bytes, name: "garbage")
  } throws: { error in
    (error as? MediaError)?.kind == .malformed
  }
}

@Test func emptyBytesAreMalformed() {
  #expect(throws: MediaError.self) { _ = try MediaProbe.probe(bytes: [], name: "empty") }
}
