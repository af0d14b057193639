import MediaTracks
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Files cut short (an interrupted download or copy) in containers whose demuxers stop quietly
// at the end of the bytes: the decoder must say the file is truncated, not deliver the audio up
// to the cut as a whole file. The cuts are made here from whole fixtures, at points inside the
// header, in the middle and just before the end.

/// The bytes of `path`.
private func contents(_ path: String) -> [UInt8] {
  guard let file = fopen(path, "rb") else { return [] }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65_536)
  while case let got = fread(&chunk, 1, chunk.count, file), got > 0 {
    bytes += chunk[0..<got]
  }
  return bytes
}

/// Writes `bytes` to a new temporary file named for `name`; returns its path.
private func write(_ bytes: [UInt8], _ name: String) -> String {
  let path = "/tmp/mediatracks-cut-\(getpid())-\(name)"
  if let file = fopen(path, "wb") {
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
  }
  return path
}

/// A 16-bit mono AIFF file of `frames` frames of a ramp at 8 kHz (with its `FORM` size).
private func aiff(frames: Int) -> [UInt8] {
  func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
  // COMM: channels, frames, bits, then 8,000 as an 80-bit extended float.
  let comm: [UInt8] =
    Array("COMM".utf8) + be32(18) + [0, 1] + be32(frames) + [0, 16]
    + [0x40, 0x0B, 0xFA, 0, 0, 0, 0, 0, 0, 0]
  var samples: [UInt8] = []
  for i in 0..<frames { samples += [UInt8(truncatingIfNeeded: i >> 4), 0] }
  let ssnd = Array("SSND".utf8) + be32(8 + samples.count) + be32(0) + be32(0) + samples
  let body = Array("AIFF".utf8) + comm + ssnd
  return Array("FORM".utf8) + be32(body.count) + body
}

@Test(arguments: [
  "multitrack.mkv", "othertools/opus-mkvmerge.mka", "vorbis.ogg", "othertools/opus-preskip.opus",
  "tone.flac", "othertools/mp3-vbr-no-xing.mp3", "othertools/aac-vbr.aac", "aiff",
])
func cutFilesAreTruncated(name: String) throws {
  let whole = name == "aiff" ? aiff(frames: 8_000) : contents(fixtures + "/" + name)
  try #require(whole.count > 1_000)
  let ext = name == "aiff" ? "aiff" : String(name.split(separator: ".").last ?? "")
  // The whole file decodes.
  let intact = write(whole, "whole.\(ext)")
  defer { unlink(intact) }
  #expect(try decodedFrames(intact) > 0)
  for share in [0.02, 0.5, 0.97] {
    let cut = write(Array(whole.prefix(Int(Double(whole.count) * share))), "cut.\(ext)")
    defer { unlink(cut) }
    #expect("\(name) cut at \(share)") {
      _ = try decodedFrames(cut)
    } throws: { error in
      guard let error = error as? MediaError else { return false }
      // Cut inside its first frame, a raw MPEG audio or ADTS stream is no stream at all.
      let raw = ext == "mp3" || ext == "aac"
      return error.kind == .malformed
        && ("\(error)".contains("truncated") || (raw && share < 0.1))
    }
  }
}

@Test(arguments: [
  "othertools/opus-streamable.mka", "othertools/aiff-streamed-sox.aiff",
  "othertools/flac-no-total.flac",
])
func cutFilesThatStateNoSizeDecodeToTheCut(name: String) throws {
  // A file written to a pipe states no size (Matroska's unknown size, AIFF's placeholder,
  // FLAC's count of 0): cut after its header, it holds a shorter whole stream, as a stream
  // recorded for less time would, and decodes to the cut.
  let whole = contents(fixtures + "/" + name)
  let ext = String(name.split(separator: ".").last ?? "")
  let cut = write(Array(whole.prefix(whole.count * 8 / 10)), "unsized.\(ext)")
  defer { unlink(cut) }
  #expect(try decodedFrames(cut) > 0)
}

@Test(arguments: ["mp3", "flac"])
func cutFilesAreListedWithTheAudioTheyHold(ext: String) throws {
  // An MP3 file's Xing header and a FLAC file's STREAMINFO state the whole file's length; cut
  // short, the file is listed with the length its frames give, which is what decodes.
  let path = write([], "listed.\(ext)")
  defer { unlink(path) }
  var encoder = try AudioEncoder(path: path, sampleRate: 44_100, channels: 1)
  let frames = 88_200
  let tone = (0..<frames).map { Float(0.3 * sin(Double($0) * 0.05)) }
  try encoder.write(tone, frames: frames)
  try encoder.finish()
  let whole = contents(path)
  let wholeInfo = try MediaProbe.probe(path: path)
  #expect(abs((wholeInfo.audio.first?.duration ?? 0) - 2) < 0.05)
  let cut = write(Array(whole.prefix(whole.count * 6 / 10)), "listed-cut.\(ext)")
  defer { unlink(cut) }
  let listed = try #require(try MediaProbe.probe(path: cut).audio.first?.duration)
  // What the frames there hold: the decoder stops at the cut and says so.
  var decoder = try AudioDecoder(path: cut)
  var buffer: [Float] = []
  var decoded = 0
  do {
    while case let got = try decoder.read(into: &buffer, maxFrames: 4096), got > 0 {
      decoded += got
    }
  } catch {}
  let held = Double(decoded) / 44_100
  #expect(listed < 1.5, "\(ext): listed \(listed) s")
  #expect(abs(listed - held) < 0.1, "\(ext): listed \(listed) s, decoded \(held) s")
}
