import Foundation
import Testing

@testable import MediaTracks

#if canImport(Glibc)
  import Glibc
#endif

/// A byte source over an array.
private func source(_ bytes: [UInt8]) -> MemoryBytes {
  MemoryBytes(bytes, name: "test")
}

/// An ISO BMFF box.
private func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
  let size = UInt32(8 + payload.count)
  return [
    UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
  ] + Array(type.utf8) + payload
}

/// A `moov` with one audio track of ID `id` whose first sample entry is `entry`.
private func movie(id: UInt8, entry: [UInt8]) -> [UInt8] {
  let tkhd = box("tkhd", [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, id])
  let hdlr = box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array("soun".utf8) + [0, 0, 0, 0])
  let stsd = box("stsd", [0, 0, 0, 0, 0, 0, 0, 1] + entry)
  let stbl = box("stbl", stsd)
  let minf = box("minf", stbl)
  let mdia = box("mdia", hdlr + minf)
  return box("ftyp", Array("isom".utf8) + [0, 0, 0, 0]) + box("moov", box("trak", tkhd + mdia))
}

/// An audio sample entry of `type` with the fixed fields and `children`.
private func audioEntry(_ type: String, _ children: [UInt8] = []) -> [UInt8] {
  box(type, [UInt8](repeating: 0, count: 28) + children)
}

@Test(arguments: [
  ("ec-3", "eac3"), ("ac-4", "ac4"), ("mhm1", "mpegh_3d_audio"), ("iamf", "iamf"),
  ("dtsx", "dts_uhd"), ("Opus", "opus"), ("fLaC", "flac"), ("dtsh", "dts"),
])
func mp4SampleEntriesAreNamed(entry: String, codec: String) {
  let table = MP4Declarations.read(source(movie(id: 7, entry: audioEntry(entry))))
  #expect(table[7]?.codec == codec)
  #expect(table[7]?.tag == entry)
  #expect(table[7]?.noDecoder == ContainerDeclarations.withoutDecoder.contains(codec))
}

@Test func encryptedMP4EntryNamesItsOriginalFormat() {
  let sinf = box(
    "sinf", box("frma", Array("ec-3".utf8)) + box("schm", [0, 0, 0, 0] + Array("cenc".utf8)))
  let table = MP4Declarations.read(source(movie(id: 1, entry: audioEntry("enca", sinf))))
  #expect(table[1]?.codec == "eac3")
  #expect(table[1]?.encrypted == true)
  #expect(table[1]?.tag == "enca")
}

@Test func mp4aObjectTypesAreNamed() {
  // esds: version/flags, ES descriptor (tag 3) holding a decoder config (tag 4, object type).
  func esds(_ objectType: UInt8) -> [UInt8] {
    box("esds", [0, 0, 0, 0, 3, 8, 0, 1, 0, 4, 3, objectType, 0x15, 0])
  }
  let aac = MP4Declarations.read(source(movie(id: 2, entry: audioEntry("mp4a", esds(0x40)))))
  #expect(aac[2]?.codec == "aac")
  // MPEG-1 audio: the layer is left to the bitstream.
  let mpeg = MP4Declarations.read(source(movie(id: 2, entry: audioEntry("mp4a", esds(0x6B)))))
  #expect(mpeg[2] != nil && mpeg[2]?.codec == nil)
}

@Test func damagedMP4GivesNoDeclarations() {
  var bytes = movie(id: 1, entry: audioEntry("ec-3"))
  bytes.removeLast(20)
  // The `moov` goes past the end: nothing read, no crash.
  _ = MP4Declarations.read(source(bytes))
  #expect(MP4Declarations.read(source([0, 0, 0, 1] + Array("moov".utf8) + [0xFF, 0xFF])).isEmpty)
  #expect(MP4Declarations.read(source([])).isEmpty)
}

@Test func transportStreamTypesAndDescriptors() {
  #expect(TSDeclarations.declaration(type: 0x2D, descriptors: [])?.codec == "mpegh_3d_audio")
  #expect(TSDeclarations.declaration(type: 0x81, descriptors: [])?.codec == "ac3")
  #expect(TSDeclarations.declaration(type: 0x87, descriptors: [])?.codec == "eac3")
  #expect(TSDeclarations.declaration(type: 0x0F, descriptors: [])?.codec == "aac")
  #expect(TSDeclarations.declaration(type: 0x1B, descriptors: []) == nil)
  // Apple's sample-encrypted audio (HLS SAMPLE-AES, as Shaka Packager writes it): a stream type
  // of its own with a private data indicator and an `apad` registration; FFmpeg reads it as
  // plain AAC and decodes noise.
  let aacd: [UInt8] = [0x0F, 4] + Array("aacd".utf8) + [0x05, 8] + Array("apadzaac".utf8)
  let encrypted = TSDeclarations.declaration(type: 0xCF, descriptors: aacd)
  #expect(encrypted?.codec == "aac" && encrypted?.encrypted == true)
  #expect(encrypted?.tag == "stream_type 0xcf")
  let ec3d: [UInt8] = [0x0F, 4] + Array("ec3d".utf8)
  #expect(TSDeclarations.declaration(type: 0xC2, descriptors: ec3d)?.codec == "eac3")
  #expect(TSDeclarations.declaration(type: 0xC2, descriptors: ec3d)?.encrypted == true)
  // Without the marks the type is a user private one: not taken for audio.
  #expect(TSDeclarations.declaration(type: 0xCF, descriptors: []) == nil)
  #expect(TSDeclarations.declaration(type: 0x0F, descriptors: [])?.encrypted == false)
  // SCTE-35 splice information (0x86 outside Blu-ray) is not audio; with an HDMV
  // registration (or in M2TS) 0x86 is DTS-HD.
  #expect(TSDeclarations.declaration(type: 0x86, descriptors: []) == nil)
  #expect(TSDeclarations.declaration(type: 0x86, descriptors: [], blueRay: true)?.codec == "dts")
  let hdmv: [UInt8] = [0x05, 4] + Array("HDMV".utf8)
  #expect(TSDeclarations.declaration(type: 0x83, descriptors: hdmv)?.codec == "truehd")
  #expect(TSDeclarations.declaration(type: 0x82, descriptors: [])?.codec == "dts")
  // Private PES: by descriptor (AC-4 and DTS-UHD in the DVB extension descriptor), or by
  // registration.
  #expect(TSDeclarations.declaration(type: 0x06, descriptors: [0x7F, 1, 0x15])?.codec == "ac4")
  #expect(TSDeclarations.declaration(type: 0x06, descriptors: [0x7F, 1, 0x21])?.codec == "dts_uhd")
  #expect(TSDeclarations.declaration(type: 0x06, descriptors: [0x7A, 0])?.codec == "eac3")
  let registration: [UInt8] = [0x05, 4] + Array("AC-4".utf8)
  #expect(TSDeclarations.declaration(type: 0x06, descriptors: registration)?.codec == "ac4")
  #expect(TSDeclarations.declaration(type: 0x06, descriptors: [0x59, 0])?.codec == "dvb_subtitle")
  // Truncated descriptors are ignored.
  #expect(TSDeclarations.declaration(type: 0x06, descriptors: [0x05, 9, 0x41]) == nil)
}

@Test func bitstreamVariants() {
  #expect(ContainerDeclarations.mpegAudioLayer([0xFF, 0xFD, 0x90, 0]) == "mp2")
  #expect(ContainerDeclarations.mpegAudioLayer([0xFF, 0xFB, 0x90, 0]) == "mp3")
  #expect(ContainerDeclarations.mpegAudioLayer([0, 1, 2]) == nil)
  #expect(
    ContainerDeclarations.dtsVariant([0x7F, 0xFE, 0x80, 0x01, 0x64, 0x58, 0x20, 0x25]) == "DTS-HD")
  #expect(ContainerDeclarations.dtsVariant([0x40, 0x41, 0x1B, 0xF2]) == "dts_uhd")
  #expect(ContainerDeclarations.dtsVariant([0x7F, 0xFE, 0x80, 0x01]) == nil)
}

/// An E-AC-3 sync frame of `words` 16-bit words (independent, substream 0, or dependent).
private func eac3Frame(words: Int, dependent: Bool = false) -> [UInt8] {
  let size = words - 1
  var frame = [UInt8](repeating: 0, count: words * 2)
  frame[0] = 0x0B
  frame[1] = 0x77
  frame[2] = (dependent ? 0x40 : 0) | UInt8(size >> 8 & 7)
  frame[3] = UInt8(size & 0xFF)
  frame[5] = 16 << 3
  return frame
}

@Test func eac3PacketsAreSplitIntoAccessUnits() {
  let six = (0..<6).flatMap { _ in eac3Frame(words: 50) }
  #expect(EAC3Frames.accessUnits(six).count == 6)
  // A dependent frame stays with its independent frame.
  let pair = eac3Frame(words: 50) + eac3Frame(words: 20, dependent: true) + eac3Frame(words: 50)
  #expect(EAC3Frames.accessUnits(pair) == [0..<140, 140..<240])
  // One frame, garbage, or a cut frame: the packet as it is.
  #expect(EAC3Frames.accessUnits(eac3Frame(words: 50)) == [0..<100])
  #expect(EAC3Frames.accessUnits([1, 2, 3, 4, 5, 6]) == [0..<6])
  #expect(EAC3Frames.accessUnits(Array(six.dropLast(3))) == [0..<597])
}

@Test func eac3SamplesCountTheIndependentFramesBlocks() {
  var one = eac3Frame(words: 50)
  one[4] = 0x00  // fscod 0, numblkscod 0: one block
  var six = eac3Frame(words: 50)
  six[4] = 0x30  // numblkscod 3: six blocks
  var reduced = eac3Frame(words: 50)
  reduced[4] = 0xC0  // fscod 3 (half rates): always six blocks
  #expect(EAC3Frames.samples(one) == 256)
  #expect(EAC3Frames.samples(six) == 1536)
  #expect(EAC3Frames.samples(reduced) == 1536)
  #expect(EAC3Frames.samples(one + one + one) == 768)
  // A dependent frame adds no samples of its own.
  #expect(EAC3Frames.samples(one + eac3Frame(words: 20, dependent: true)) == 256)
  #expect(EAC3Frames.samples([1, 2, 3, 4, 5, 6]) == nil)
  #expect(EAC3Frames.samples(Array(one.dropLast(2))) == nil)
}

@Test func matroskaCodecIDs() {
  #expect(MatroskaDeclarations.codec("D_WEBVTT/SUBTITLES") == "webvtt")
  #expect(MatroskaDeclarations.codec("A_AAC/MPEG4/LC") == "aac")
  #expect(MatroskaDeclarations.codec("A_MPEG/L2") == "mp2")
  #expect(MatroskaDeclarations.codec("S_TEXT/UTF8") == "subrip")
  #expect(MatroskaDeclarations.codec("X_UNKNOWN") == nil)
  // An element whose size runs past the bytes, and a size of all ones: no crash.
  #expect(MatroskaDeclarations.read(source([0x18, 0x53, 0x80, 0x67, 0x88, 0, 0])).isEmpty)
  #expect(MatroskaDeclarations.read(source([0x18, 0x53, 0x80, 0x67, 0xFF, 0x16, 0x54])).isEmpty)
}

/// Random bytes and cut headers never crash the readers, and cost one bounded pass.
@Test func declarationReadersSurviveNoise() {
  var generator = SystemRandomNumberGenerator()
  let movie = movie(id: 3, entry: audioEntry("ec-3"))
  for length in [0, 1, 7, 8, 9, 15, 16, 100, 4096] {
    let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for format in ["mov,mp4,m4a,3gp,3g2,mj2", "mpegts", "matroska,webm"] {
      _ = ContainerDeclarations.read(format: format, from: source(noise))
      // TS sync bytes with random payloads, and Matroska-looking starts.
      var ts = noise
      for at in stride(from: 0, to: ts.count, by: 188) { ts[at] = 0x47 }
      _ = ContainerDeclarations.read(format: format, from: source(ts))
      _ = ContainerDeclarations.read(
        format: format,
        from: source([0x1A, 0x45, 0xDF, 0xA3, 0x80, 0x18, 0x53, 0x80, 0x67] + noise))
    }
    // A valid movie cut anywhere.
    for cut in stride(from: 0, to: movie.count, by: 3) {
      _ = MP4Declarations.read(source(Array(movie.prefix(cut))))
    }
    // Each byte of a valid movie replaced by noise.
    for at in movie.indices {
      var damaged = movie
      damaged[at] = UInt8.random(in: 0...255, using: &generator)
      _ = MP4Declarations.read(source(damaged))
    }
  }
}

/// The committed fixtures' headers, damaged byte by byte, never crash the readers.
@Test(arguments: [
  ("stereo-surround.ts", "mpegts"), ("mp2-aac.ts", "mpegts"),
  ("multitrack.mkv", "matroska,webm"), ("aac-movtext.mp4", "mov,mp4,m4a,3gp,3g2,mj2"),
])
func damagedFixtureHeadersAreSurvived(name: String, format: String) throws {
  var path = #filePath
  while let slash = path.lastIndex(of: "/"), !path.hasSuffix("/Tests") {
    path = String(path[..<slash])
  }
  guard let file = fopen(path + "/Fixtures/" + name, "rb") else { return }
  defer { fclose(file) }
  var bytes = [UInt8](repeating: 0, count: 8192)
  bytes.removeLast(8192 - fread(&bytes, 1, 8192, file))
  #expect(!ContainerDeclarations.read(format: format, from: source(bytes)).isEmpty)
  var generator = SystemRandomNumberGenerator()
  for _ in 0..<400 {
    var damaged = bytes
    for _ in 0..<4 {
      let at = Int.random(in: 0..<damaged.count, using: &generator)
      damaged[at] = UInt8.random(in: 0...255, using: &generator)
    }
    _ = ContainerDeclarations.read(format: format, from: source(damaged))
    _ = ContainerDeclarations.read(
      format: format,
      from: source(Array(damaged.prefix(Int.random(in: 0...damaged.count, using: &generator)))))
  }
}

/// An EBML element: a one-to-four-byte ID as given, a one-byte size (payloads under 127 bytes).
private func element(_ id: [UInt8], _ payload: [UInt8]) -> [UInt8] {
  id + [0x80 | UInt8(payload.count)] + payload
}

@Test func matroskaTracksAreRead() {
  func entry(_ number: UInt8, _ type: UInt8, _ codec: String, encrypted: Bool = false) -> [UInt8] {
    var fields = element([0xD7], [number]) + element([0x83], [type])
    fields += element([0x86], Array(codec.utf8))
    if encrypted {
      // ContentEncodings > ContentEncoding > ContentEncodingType 1 (encryption).
      fields += element([0x6D, 0x80], element([0x62, 0x40], element([0x50, 0x33], [1])))
    }
    return element([0xAE], fields)
  }
  let tracks = element(
    [0x16, 0x54, 0xAE, 0x6B],
    entry(1, 2, "A_AC3", encrypted: true) + entry(2, 0x11, "D_WEBVTT/CAPTIONS")
      + entry(3, 0x11, "S_TEXT/WEBVTT"))
  let file = element([0x1A, 0x45, 0xDF, 0xA3], []) + element([0x18, 0x53, 0x80, 0x67], tracks)
  let table = MatroskaDeclarations.read(source(file))
  #expect(table[1]?.codec == "ac3")
  #expect(table[1]?.encrypted == true)
  #expect(table[2]?.codec == "webvtt")
  #expect(table[2]?.subtitleKind == .captions)
  #expect(table[3]?.codec == "webvtt")
  #expect(table[3]?.subtitleKind == nil)
  #expect(table.values.map(\.position).sorted() == [0, 1, 2])
}

/// A DASH manifest in memory is refused (it only names other inputs), never handed to
/// FFmpeg's DASH demuxer.
@Test func manifestBytesAreRefused() {
  let manifest = Array(
    "<?xml version=\"1.0\"?><MPD type=\"dynamic\"><Period><AdaptationSet><Representation/></AdaptationSet></Period></MPD>"
      .utf8)
  #expect(throws: MediaError.self) { try MediaProbe.probe(bytes: manifest, name: "live") }
  do {
    _ = try MediaProbe.probe(bytes: manifest, name: "live")
  } catch {
    #expect(error.kind == .malformed)
  }
}

/// An audio track encoded before `decodable` and `encrypted` existed still decodes.
@Test func audioTrackDecodesWithoutTheNewFields() throws {
  let old = """
    {"index":1,"codec":"aac","sampleRate":48000,"channels":2,"channelLayout":"stereo",
    "dispositions":["default"],"kind":"main","label":"English"}
    """
  let track = try JSONDecoder().decode(AudioTrack.self, from: Data(old.utf8))
  #expect(track.decodable && !track.encrypted && track.ffmpegCodec == nil)
  var new = track
  new.encrypted = true
  new.decodable = false
  let again = try JSONDecoder().decode(AudioTrack.self, from: JSONEncoder().encode(new))
  #expect(again == new)
}

/// The last block of each Matroska track is found in the clusters at the end of the file:
/// simple blocks, block groups with a `BlockDuration`, laced blocks, a cluster of unknown size,
/// and bytes before the first cluster that merely look like a cluster's ID.
@Test func matroskaLastBlocksAreRead() {
  func simpleBlock(track: UInt8, offset: Int16, lacedFrames: Int = 1) -> [UInt8] {
    let time = UInt16(bitPattern: offset)
    var payload: [UInt8] = [0x80 | track, UInt8(time >> 8), UInt8(time & 0xFF)]
    payload += lacedFrames > 1 ? [0x82, UInt8(lacedFrames - 1)] : [0x80]
    return element([0xA3], payload + [1, 2, 3, 4])
  }
  func group(track: UInt8, offset: Int16, duration: UInt8, padding: [UInt8] = []) -> [UInt8] {
    let time = UInt16(bitPattern: offset)
    let block = element([0xA1], [0x80 | track, UInt8(time >> 8), UInt8(time & 0xFF), 0, 9])
    let discard = padding.isEmpty ? [] : element([0x75, 0xA2], padding)
    return element([0xA0], block + element([0x9B], [duration]) + discard)
  }
  let cluster = [0x1F, 0x43, 0xB6, 0x75] as [UInt8]
  // Noise: a cluster's ID followed by no Timestamp.
  var file: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x80] + cluster + [0x84, 1, 2, 3, 4]
  file += element(
    cluster,
    element([0xE7], [0x03, 0xE8]) + simpleBlock(track: 1, offset: 0)
      + simpleBlock(track: 2, offset: 10) + group(track: 2, offset: 40, duration: 30))
  // Unknown size (all ones): it runs to the next cluster.
  file += cluster + [0xFF] + element([0xE7], [0x07, 0xD0]) + simpleBlock(track: 1, offset: 20)
  file += element(
    cluster, element([0xE7], [0x0B, 0xB8]) + simpleBlock(track: 1, offset: -5, lacedFrames: 3))
  // A cluster that starts with a CRC-32 (FFmpeg's Matroska muxer), holding a group with a
  // DiscardPadding of 13.5 ms (and one of -1 ns for the sign).
  file += element(
    cluster,
    element([0xBF], [0, 0, 0, 0]) + element([0xE7], [0x0C, 0x1C])
      + group(track: 3, offset: 0, duration: 20, padding: [0x00, 0xCD, 0xFE, 0x60])
      + group(track: 4, offset: 0, duration: 20, padding: [0xFF]))
  let blocks = MatroskaBlocks.lastBlocks(source(file))
  // The first frame of the laced block (Xiph lacing, sizes 1 and 2) starts with 3; its second
  // frame runs past the block, so its frames' bytes are not read. Track 1's block before it
  // (at 2020) starts with 1.
  #expect(
    blocks[1]
      == MatroskaBlocks.LastBlock(
        ticks: 2995, frames: 3, duration: nil, frameHead: [3, 4], precedingFrameByte: 1))
  #expect(
    blocks[2]
      == MatroskaBlocks.LastBlock(
        ticks: 1040, frames: 1, duration: 30, frameHead: [9], frameBytes: [9],
        precedingFrameByte: 1))
  #expect(
    blocks[3]
      == MatroskaBlocks.LastBlock(
        ticks: 3100, frames: 1, duration: 20, discardPadding: 13_500_000, frameHead: [9],
        frameBytes: [9]))
  #expect(blocks[4]?.discardPadding == -1)
  #expect(blocks[5] == nil)
  let first = MatroskaBlocks.firstBlocks(source(file))
  #expect(first[1]?.ticks == 1000)
  #expect(first[1]?.nextTicks == 2020)
  #expect(first[2]?.ticks == 1010)
  #expect(first[2]?.nextTicks == 1040)
  #expect(first[3]?.nextTicks == nil)
  // The noise alone holds no cluster.
  #expect(MatroskaBlocks.lastBlocks(source(Array(file.prefix(14)))).isEmpty)
}

/// Each frame of a laced block is found (Xiph, EBML and fixed-size lacing), and a block cut by
/// the end of the file is not counted: the demuxer does not give it.
@Test func matroskaLacedFramesAndCutBlocks() {
  /// An element with a two-byte size (payloads under 16 KiB).
  func sized(_ id: [UInt8], _ payload: [UInt8]) -> [UInt8] {
    id + [0x40 | UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
  }
  func simpleBlock(track: UInt8, offset: UInt8, lacing: UInt8, lace: [UInt8]) -> [UInt8] {
    sized([0xA3], [0x80 | track, 0, offset, 0x80 | lacing << 1] + lace)
  }
  let cluster = [0x1F, 0x43, 0xB6, 0x75] as [UInt8]
  // Xiph: three frames of 2, 256 and 1 bytes (sizes 2, then 255 + 1).
  let xiph = [2, 2, 255, 1] + [10, 0] + [11] + [UInt8](repeating: 0, count: 255) + [12]
  // EBML: three frames of 3, 1 and 2 bytes (3; then -2, stored as 0x3F - 2 = 0x3D).
  let ebml: [UInt8] = [2, 0x83, 0xBD] + [20, 0, 0] + [21] + [22, 0]
  // Fixed-size: two frames of 2 bytes.
  let fixed: [UInt8] = [1, 30, 0, 31, 0]
  var file = sized(
    cluster,
    element([0xE7], [0x00]) + simpleBlock(track: 1, offset: 0, lacing: 1, lace: xiph)
      + simpleBlock(track: 2, offset: 0, lacing: 3, lace: ebml)
      + simpleBlock(track: 3, offset: 0, lacing: 2, lace: fixed)
      + simpleBlock(track: 1, offset: 9, lacing: 0, lace: [13, 0]))
  let blocks = MatroskaBlocks.lastBlocks(source(file))
  #expect(blocks[1]?.frameBytes == [13])
  #expect(blocks[1]?.precedingFrameByte == 12)
  #expect(blocks[2]?.frameBytes == [20, 21, 22])
  #expect(blocks[3]?.frameBytes == [30, 31])
  // A further cluster whose block of track 1 is cut by the end of the file.
  let cut = sized(
    cluster, element([0xE7], [0x10]) + simpleBlock(track: 1, offset: 0, lacing: 0, lace: [14, 0]))
  file += cut.dropLast(1)
  #expect(MatroskaBlocks.lastBlocks(source(file))[1]?.ticks == 9)
}

/// MPEG audio frames in a row, each a header and zero bytes to its length: the bit rates are
/// read frame by frame, so a VBR stream in MPEG-TS (whose rate FFmpeg states from one frame)
/// is told from a CBR one.
@Test func mpegAudioFramesGiveTheirBitRates() {
  /// A frame: MPEG-1 layer III at 44100 Hz (`0xFB`, rate index << 4), or MPEG-2 layer II at
  /// 24000 Hz (`0xF5`, sample-rate index 1).
  func frame(_ second: UInt8, _ third: UInt8, length: Int) -> [UInt8] {
    [0xFF, second, third, 0x44] + [UInt8](repeating: 0, count: length - 4)
  }
  // 128 kbit/s (index 9) at 44100 Hz: 144 * 128000 / 44100 = 417 bytes; with padding 418.
  let cbr =
    frame(0xFB, 0x90, length: 417) + frame(0xFB, 0x92, length: 418) + frame(0xFB, 0x90, length: 417)
  #expect(ContainerDeclarations.mpegAudioBitRates(cbr) == [128000, 128000, 128000])
  // 320 kbit/s (index 14): 1044 bytes, then 64 kbit/s (index 5): 208 bytes.
  let vbr = [0, 0] + frame(0xFB, 0xE0, length: 1044) + frame(0xFB, 0x50, length: 208) + [0xFF]
  #expect(ContainerDeclarations.mpegAudioBitRates(vbr) == [320000, 64000])
  // MPEG-2 layer II, 64 kbit/s (index 8) at 24000 Hz: 144 * 64000 / 24000 = 384 bytes.
  let mpeg2 = frame(0xF5, 0x84, length: 384) + frame(0xF5, 0x84, length: 384)
  #expect(ContainerDeclarations.mpegAudioBitRates(mpeg2) == [64000, 64000])
  // A frame of another sample rate ends the run; free format and garbage give nothing.
  #expect(
    ContainerDeclarations.mpegAudioBitRates(frame(0xFB, 0x90, length: 417) + [0xFF, 0xFB, 0x94, 0])
      == [128000])
  #expect(ContainerDeclarations.mpegAudioBitRates(frame(0xFB, 0x00, length: 417)).isEmpty)
  #expect(ContainerDeclarations.mpegAudioBitRates([1, 2, 3, 4, 5]).isEmpty)
}
