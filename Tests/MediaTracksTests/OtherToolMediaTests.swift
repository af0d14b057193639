import Foundation
import Testing

@testable import MediaTracks

/// Files written by GStreamer's muxers (`Scripts/make-othertool-fixtures.sh`) whose headers
/// state less than the decoder gives.
private func otherTool(_ name: String) -> String { fixtures + "/othertools/" + name }

/// The AudioSpecificConfig's sampling-frequency index (ISO/IEC 14496-3 1.6.2.1) of the first
/// ADTS header in `bytes`: what a header reader takes for the rate.
private func adtsStatedRate(_ bytes: [UInt8]) -> Int? {
  let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]
  guard bytes.count > 2, bytes[0] == 0xFF, bytes[1] & 0xF0 == 0xF0 else { return nil }
  let index = Int(bytes[2] >> 2 & 0x0F)
  return index < rates.count ? rates[index] : nil
}

@Test func implicitSBRFixtureStatesTheCoreRate() throws {
  // The fixture is what it claims: its header states 22050 Hz, so the tests below can fail.
  let data = try #require(FileManager.default.contents(atPath: otherTool("he-aac-implicit.aac")))
  #expect(adtsStatedRate([UInt8](data)) == 22050)
}

/// HE-AAC with implicit SBR (and, in mono, implicit PS) in MP4, Matroska and ADTS: the header
/// states AAC-LC at 22050 Hz; the probe lists the rate, channels and profile the decoder gives,
/// and `AudioDecoder` agrees.
@Test(arguments: [
  ("he-aac-implicit.mp4", 2, "HE-AAC"), ("he-aac-implicit.mka", 2, "HE-AAC"),
  ("he-aac-implicit.aac", 2, "HE-AAC"), ("he-aacv2-implicit-mono.mp4", 2, "HE-AACv2"),
])
func implicitSBRIsListedAtTheDecodersRate(name: String, channels: Int, profile: String) throws {
  let path = otherTool(name)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoder = try AudioDecoder(path: path)
  #expect(decoder.sampleRate == 44100)
  #expect(track.sampleRate == decoder.sampleRate)
  #expect(track.channels == decoder.channels)
  #expect(track.channels == channels)
  #expect(track.channelLayout == "stereo")
  #expect(track.profile == profile)
}

/// AAC-LC at a low rate without SBR keeps its rate: the first frame is decoded, not guessed.
@Test func lowRateAACWithoutSBRKeepsItsRate() throws {
  let path = otherTool("aac-lc-22k.mp4")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoder = try AudioDecoder(path: path)
  #expect(track.sampleRate == 22050)
  #expect(track.sampleRate == decoder.sampleRate)
  #expect(track.channels == decoder.channels)
  #expect(track.profile == "LC")
}

/// MPEG-1 Layer II under MPEG-TS stream type 0x03 (GStreamer's mpegtsmux): the stream type
/// covers every layer and FFmpeg 5.1 takes it for MP3; the frame header says Layer II.
@Test func layerTwoInTransportStreamIsNamedByItsFrames() throws {
  let info = try MediaProbe.probe(path: otherTool("mp2-gstreamer.ts"))
  let track = try #require(info.audio.first)
  #expect(track.codec == "mp2")
  #expect(track.ffmpegCodec == "mp3")
  #expect(track.codecTag == "stream_type 0x03")
  #expect(track.decodable)
  #expect(track.sampleRate == 48000)
}

/// WAVE_FORMAT_EXTENSIBLE integer PCM with 24 valid bits in 32-bit containers: FFmpeg 5.1 takes
/// it for 24-bit float (silence, and a duration from 24-bit samples); it is listed and decoded
/// as 32-bit integers, with the `data` chunk's duration.
@Test func narrowSamplesInWideWaveContainersAreIntegers() throws {
  let path = otherTool("pcm-24in32.wav")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.ffmpegCodec == "pcm_f24le")
  #expect(track.codec == "pcm_s32le")
  #expect(track.decodable)
  #expect(track.duration == 0.1)
  #expect(info.duration == 0.1)
  var decoder = try AudioDecoder(path: path)
  var samples: [Float] = []
  var frames: [Float] = []
  while case let count = try decoder.read(into: &frames, maxFrames: 256), count > 0 {
    samples += frames[0..<count]
  }
  // The script writes frame i as ((i * 997) % 65536 - 32768) << 16.
  let expected = (0..<800).map { Float(((($0 * 997) % 65536) - 32768) << 16) / 2_147_483_648 }
  #expect(samples == expected)
}

/// AMR-NB and AMR-WB in the storage format: FFmpeg 5.1 states no length without decoding;
/// the frames are counted (20 ms each), and `AudioDecoder` gives as much audio.
@Test(arguments: ["amr-nb.amr", "amr-wb.amr"])
func amrDurationIsCountedFromItsFrames(name: String) throws {
  let path = otherTool(name)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  var decoder = try AudioDecoder(path: path)
  var frames: [Float] = []
  var decoded = 0
  while case let count = try decoder.read(into: &frames, maxFrames: 1024), count > 0 {
    decoded += count
  }
  let seconds = Double(decoded) / Double(decoder.sampleRate)
  #expect(abs(try #require(track.duration) - seconds) < 1e-9)
  #expect(abs(try #require(info.duration) - seconds) < 1e-9)
  #expect(abs(seconds - 1) < 1e-9)
}

/// A file that only starts like AMR, cut in its second frame, counts its frames up to the cut.
@Test func amrFramesAreWalkedToTheEnd() throws {
  let magic = Array("#!AMR\n".utf8)
  // Two 12.2 kb/s frames (type 7: 31 bytes after the header byte), then a cut one.
  let frame = [UInt8(7 << 3)] + [UInt8](repeating: 0x55, count: 31)
  let bytes = magic + frame + frame + [UInt8(7 << 3), 1, 2]
  #expect(AMRFrames.duration(MemoryBytes(bytes, name: "cut.amr")) == 0.06)
  #expect(AMRFrames.duration(MemoryBytes(Array("#!AMR-WB\n".utf8), name: "empty.amr")) == nil)
  #expect(AMRFrames.duration(MemoryBytes(frame, name: "bare.amr")) == nil)
}

/// The `OpusHead` FFmpeg builds from a `dOps` box, with `dOps`'s fields as given.
private func opusHead(preSkip: [UInt8], rate: [UInt8], gain: [UInt8]) -> [UInt8] {
  Array("OpusHead".utf8) + [1, 2] + preSkip + rate + gain + [0]
}

@Test func opusHeadReadFromALittleEndianDOpsIsRepaired() {
  // 312 and 48000 written little-endian, read big-endian, then stored little-endian.
  let misread = opusHead(preSkip: [0x01, 0x38], rate: [0x00, 0x00, 0xBB, 0x80], gain: [0, 0])
  #expect(OpusHeadRepair.isSwapped(misread))
  #expect(
    OpusHeadRepair.repaired(misread)
      == opusHead(preSkip: [0x38, 0x01], rate: [0x80, 0xBB, 0x00, 0x00], gain: [0, 0]))
  // A big-endian dOps read right (Media3's fragmented Opus states 16000 Hz) stays as it is.
  let right = opusHead(preSkip: [0x38, 0x01], rate: [0x80, 0x3E, 0x00, 0x00], gain: [0, 0])
  #expect(!OpusHeadRepair.isSwapped(right))
  #expect(OpusHeadRepair.repaired(right) == right)
}

/// GStreamer 1.22's MP4 Opus (`dOps` little-endian): FFmpeg 5.1 alone skips 0.3 s of the
/// start; decoded with the repaired header, the 0.5 s the file holds come out (give or take
/// the encoder's padding of the last 20 ms frame).
@Test func opusWithLittleEndianDOpsDecodesWhole() throws {
  let path = otherTool("opus-le-dops.mp4")
  let data = try #require(FileManager.default.contents(atPath: path))
  let bytes = [UInt8](data)
  let box = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("dOps".utf8)) })
  // The fixture is what it claims: pre-skip 312 and 48000 Hz, little-endian.
  #expect(Array(bytes[(box + 6)..<(box + 12)]) == [0x38, 0x01, 0x80, 0xBB, 0x00, 0x00])
  var decoder = try AudioDecoder(path: path)
  var frames: [Float] = []
  var decoded = 0
  while case let count = try decoder.read(into: &frames, maxFrames: 1024), count > 0 {
    decoded += count
  }
  #expect(decoded >= 24_000)
  #expect(decoded < 24_000 + 960)
}

/// Decodes the whole of `path`'s default audio; returns the frames and their samples.
private func decodeAll(_ path: String) throws -> (frames: Int, samples: [Float], rate: Int) {
  var decoder = try AudioDecoder(path: path)
  var buffer: [Float] = []
  var samples: [Float] = []
  var decoded = 0
  while case let count = try decoder.read(into: &buffer, maxFrames: 1024), count > 0 {
    decoded += count
    samples += buffer[0..<(count * decoder.channels)]
  }
  return (decoded, samples, decoder.sampleRate)
}

/// The `data` chunk of a RIFF/RIFX file as written: where its body starts and its stated size.
private func dataChunk(_ bytes: [UInt8], bigEndian: Bool) -> (body: Int, size: Int)? {
  var at = 12
  while at + 8 <= bytes.count {
    let field = bytes[(at + 4)..<(at + 8)]
    let size = (bigEndian ? Array(field) : field.reversed()).reduce(0) { $0 << 8 | Int($1) }
    if bytes[at..<(at + 4)].elementsEqual("data".utf8) { return (at + 8, size) }
    at += 8 + size + (size & 1)
  }
  return nil
}

/// WAVE written to a pipe by sox and by GStreamer: the `data` size is the writer's placeholder
/// just under 2 GiB, far beyond the file. The audio runs to the end of the file: it is listed
/// with that duration and decoded whole, not refused as cut short.
@Test(arguments: ["wave-streamed-sox.wav", "wave-streamed-gst.wav"])
func streamedWaveRunsToTheEndOfTheFile(name: String) throws {
  let path = otherTool(name)
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  let data = try #require(dataChunk(bytes, bigEndian: false))
  // The fixture is what it claims: a placeholder size, not the real one.
  #expect(data.size >= 0x7FFF_0000)
  #expect(data.body + data.size > bytes.count)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let frames = (bytes.count - data.body) / 2
  #expect(track.duration == Double(frames) / 8000)
  #expect(info.duration == track.duration)
  let decoded = try decodeAll(path)
  #expect(decoded.frames == frames)
}

/// Big-endian WAVE (`RIFX`) at 7999 Hz: listed as big-endian PCM (FFmpeg 5.1 names it, and
/// decodes it, as little-endian), decoded sample for sample from the big-endian bytes, and
/// stretched at its own rate.
@Test func bigEndianWaveIsDecodedInItsByteOrder() throws {
  let path = otherTool("wave-rifx-7999.wav")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  #expect(bytes.starts(with: Array("RIFX".utf8)))
  let data = try #require(dataChunk(bytes, bigEndian: true))
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "pcm_s16be")
  #expect(track.ffmpegCodec == "pcm_s16le")
  #expect(track.sampleRate == 7999)
  #expect(track.channels == 2)
  #expect(track.duration == Double(data.size / 4) / 7999)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 7999)
  #expect(decoded.samples.count == data.size / 2)
  let expected = (0..<(data.size / 2)).map { i in
    let high = UInt16(bytes[data.body + 2 * i])
    let low = UInt16(bytes[data.body + 2 * i + 1])
    return Float(Int16(bitPattern: high << 8 | low)) / 32_768
  }
  #expect(decoded.samples == expected)
}

/// AC-3 in AVI from GStreamer's avimux: the stream header counts bytes (sample size 1) and
/// FFmpeg 5.1 states no duration; the header's length over its byte rate is the track's
/// duration, which the decoded audio matches to within one 1,536-sample frame.
@Test func byteCountedAVIStreamHasItsHeadersDuration() throws {
  let path = otherTool("ac3-gstreamer.avi")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "ac3")
  let duration = try #require(track.duration)
  #expect(info.duration == duration)
  let decoded = try decodeAll(path)
  #expect(abs(Double(decoded.frames) / 48000 - duration) <= 1536 / 48000)
}

/// LOAS/LATM HE-AAC in MPEG-TS with seven frames to a PES packet, AC-3 in MPEG-PS with five,
/// and Layer II in MPEG-TS from GStreamer's mpegtsmux: FFmpeg 5.1 ends a track at its last PES
/// packet plus one frame (0.37 s of the LOAS file's 0.56); AAC in a streamable FLV, for which
/// it states no track duration. The track's duration is where its last frame ends, which is
/// what the decoder gives.
@Test(arguments: ["loas-he-aac.ts", "ac3-ffmpeg.vob", "mp2-gstreamer.ts", "aac-streamable.flv"])
func transportStreamAudioEndsWithItsLastFrame(name: String) throws {
  let path = otherTool(name)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let duration = try #require(track.duration)
  let decoded = try decodeAll(path)
  // Within FLV's timestamps, which are whole milliseconds.
  #expect(abs(Double(decoded.frames) / Double(decoded.rate) - duration) < 0.002)
  #expect(try #require(info.duration) >= duration - 0.002)
}

/// 32-bit FLAC from the reference encoder: FFmpeg 5.1's decoder opens it and gives nothing. It
/// is listed as FLAC that is not decodable, and decoding it says why.
@Test func thirtyTwoBitFLACIsListedAsNotDecodable() throws {
  let path = otherTool("flac-32bit.flac")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: STREAMINFO states 32 bits per sample (5 bits, minus one).
  #expect(bytes.starts(with: Array("fLaC".utf8)))
  #expect(((bytes[20] & 1) << 4 | bytes[21] >> 4) + 1 == 32)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "flac")
  #expect(track.sampleRate == 8000)
  #expect(!track.decodable)
  #expect(track.duration == 0.1)
  do {
    _ = try AudioDecoder(path: path)
    Issue.record("32-bit FLAC decoded")
  } catch {
    #expect(error.kind == .malformed)
    #expect(error.description.contains("32-bit"))
  }
}

/// A chained Ogg file (two oggenc files one after the other: 0.5 s at 44100 Hz, 0.3 s at
/// 22050 Hz): FFmpeg 5.1 reads the last link's end at the first link's rate (0.15 s); each link
/// counts its own length at its own rate.
@Test func chainedOggCountsEveryLink() throws {
  let path = otherTool("vorbis-chained.ogg")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "vorbis")
  #expect(abs(try #require(track.duration) - 0.8) < 1e-9)
  #expect(abs(try #require(info.duration) - 0.8) < 1e-9)
  // One link alone is left to FFmpeg, which reads it right; a broken page gives nothing.
  let single = try #require(try FileBytes(path: fixtures + "/vorbis.ogg"))
  #expect(OggChain.duration(single) == nil)
  #expect(OggChain.duration(MemoryBytes(Array("OggS".utf8), name: "cut.ogg")) == nil)
}

/// A chained Ogg file whose second link is mono (oggenc: a 440 Hz tone at one level in both
/// links): the mono link plays at its own level on both channels of the stereo output. FFmpeg
/// 5.1's default mix put it 3 dB lower.
@Test func monoLinkOfAChainKeepsItsLevel() throws {
  var decoder = try AudioDecoder(path: otherTool("vorbis-chained-mono.ogg"))
  #expect(decoder.channels == 2)
  var samples: [Float] = []
  var all: [Float] = []
  while case let count = try decoder.read(into: &samples, maxFrames: 4096), count > 0 {
    all += samples.prefix(count * 2)
  }
  #expect(all.count / 2 > 26_000)
  /// The level (RMS) of channel `channel` over the frames `range`.
  func level(_ range: Range<Int>, channel: Int) -> Double {
    let sum = range.reduce(0.0) { $0 + Double(all[2 * $1 + channel] * all[2 * $1 + channel]) }
    return (sum / Double(range.count)).squareRoot()
  }
  let stereo = level(2_000..<11_000, channel: 0)
  #expect(stereo > 0.3)
  for channel in 0..<2 {
    let mono = level(15_500..<24_500, channel: channel)
    // Within 0.3 dB.
    #expect(abs(20 * log10(mono / stereo)) < 0.3)
  }
}

/// Big-endian WAVE_FORMAT_EXTENSIBLE with 24-bit samples (sox): FFmpeg 5.1 refuses to open it.
/// It is listed from its header and decoded sample for sample from the big-endian bytes.
@Test func bigEndianTwentyFourBitWaveIsListedAndDecoded() throws {
  let path = otherTool("wave-rifx-24bit.wav")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  #expect(bytes.starts(with: Array("RIFX".utf8)))
  let data = try #require(dataChunk(bytes, bigEndian: true))
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "pcm_s24be")
  #expect(track.sampleRate == 8000)
  #expect(track.channels == 2)
  #expect(track.duration == 0.1)
  #expect(track.decodable)
  let decoded = try decodeAll(path)
  #expect(decoded.samples.count == data.size / 3)
  let expected = (0..<(data.size / 3)).map { i in
    let at = data.body + 3 * i
    let word = UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
    return Float(Int32(bitPattern: word)) / 2_147_483_648
  }
  #expect(decoded.samples == expected)
}

/// WebVTT in Matroska from mkvmerge: FFmpeg 5.1 has no name for its CodecID `S_TEXT/WEBVTT`
/// and keeps a subtitle stream of no codec. The declaration names it, and its blocks (the cue
/// text alone) are read as WebVTT cue text, with the identifier and settings each block's
/// `BlockAdditional` holds (they were lost: the first cue lost `id1` and `align:start`).
@Test func webVTTInMatroskaFromMkvmergeIsRead() throws {
  let path = otherTool("webvtt-mkvmerge.mks")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.subtitles.first)
  #expect(track.codec == "webvtt")
  #expect(track.codecTag == "S_TEXT/WEBVTT")
  #expect(track.language == "es")
  let reader = SubtitleStreamReader(path: path, streamIndex: track.index)
  let (markup, cues) = try reader.readWithMarkup()
  #expect(markup == .webVTT)
  #expect(cues.map(\.text) == ["A <b>bold</b>\nline", "&amp; two"])
  let times = cues.map { [$0.startTime, $0.endTime] }
  let expected: [[Double]] = [[0.1, 1.0], [1.2, 1.9]]
  #expect(zip(times.joined(), expected.joined()).allSatisfy { abs($0 - $1) < 1e-9 })
  #expect(times.count == expected.count)
  let document = try reader.document()
  #expect(document.cues.map { document.text(of: $0) } == ["A <b>bold</b>\nline", "&amp; two"])
  #expect(document.cues.map { document.id(of: $0) } == ["id1", ""])
  #expect(document.cues.map(\.settings.align) == [.start, .center])
  let cueTimes = document.cues.map { [$0.startTime, $0.endTime] }
  #expect(zip(cueTimes.joined(), expected.joined()).allSatisfy { abs($0 - $1) < 1e-9 })
}

/// The same WebVTT track with mkvmerge's zlib compression: FFmpeg inflates the blocks but
/// passes each `BlockAdditional` on compressed, so the identifier and settings are inflated
/// here (as the track's `ContentEncoding` declares), and the document is the uncompressed
/// file's.
@Test func zlibCompressedWebVTTInMatroskaKeepsItsCueSettings() throws {
  let path = otherTool("webvtt-zlib-mkvmerge.mks")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.subtitles.first)
  #expect(track.codec == "webvtt")
  let document = try SubtitleStreamReader(path: path, streamIndex: track.index).document()
  let plain = try SubtitleStreamReader(path: otherTool("webvtt-mkvmerge.mks"), streamIndex: 0)
    .document()
  #expect(document.cues.map { document.id(of: $0) } == ["id1", ""])
  #expect(document.cues.map(\.settings.align) == [.start, .center])
  #expect(document.cues.map { document.text(of: $0) } == plain.cues.map { plain.text(of: $0) })
  #expect(document.cues.map(\.settings) == plain.cues.map(\.settings))
  #expect(document.cues.map(\.startTime) == plain.cues.map(\.startTime))
  #expect(document.cues.map(\.endTime) == plain.cues.map(\.endTime))
}

/// zlib streams of each deflate block type (fixed Huffman, dynamic Huffman, stored) and
/// damaged ones, inflated by the reader of compressed `BlockAdditional`s. The compressed
/// bytes are Python's `zlib.compress(text, 9)` of the texts given.
@Test func inflateReadsZlibStreams() throws {
  // "align:start\nid1\n": a fixed-Huffman block.
  let fixed: [UInt8] = [
    0x78, 0xDA, 0x4B, 0xCC, 0xC9, 0x4C, 0xCF, 0xB3, 0x2A, 0x2E, 0x49, 0x2C, 0x2A, 0xE1, 0xCA,
    0x4C, 0x31, 0xE4, 0x02, 0x00, 0x33, 0xF1, 0x05, 0x86,
  ]
  #expect(Inflate.zlib(fixed[...]) == Array("align:start\nid1\n".utf8))
  // Three settings lines, "zzzzyyyyxxxx" eight times and a pangram line: a dynamic block
  // with back references.
  let line = "align:start line:10% position:20% size:50% region:fred vertical:rl\n"
  let text =
    String(repeating: line, count: 3) + String(repeating: "zzzzyyyyxxxx", count: 8)
    + "the quick brown fox jumps over the lazy dog again and again\n"
  let dynamic: [UInt8] = [
    0x78, 0xDA, 0xCD, 0x8E, 0x41, 0x0E, 0xC2, 0x30, 0x0C, 0x04, 0xEF, 0x7D, 0xC5, 0x5E, 0xB8,
    0x03, 0x12, 0x97, 0xFC, 0xC6, 0xB4, 0x6E, 0x6A, 0x08, 0x71, 0x71, 0x52, 0x68, 0xF3, 0x7A,
    0x5C, 0xF1, 0x06, 0x24, 0xE6, 0x34, 0xDE, 0x95, 0x56, 0xA6, 0x24, 0x31, 0x87, 0x52, 0xC9,
    0x2A, 0x92, 0x64, 0x0E, 0xA7, 0xE3, 0x01, 0xB3, 0x16, 0xA9, 0xA2, 0x39, 0x9C, 0xFD, 0x28,
    0xD2, 0x38, 0x5C, 0x5C, 0x8C, 0xE3, 0x9E, 0x8D, 0xC6, 0x03, 0x5E, 0x6C, 0x55, 0x7A, 0x4A,
    0xC1, 0x52, 0x47, 0x7F, 0x31, 0xD1, 0x9C, 0xCD, 0x59, 0x9D, 0x5F, 0x78, 0x9D, 0x18, 0xCF,
    0x45, 0xFA, 0x3B, 0xAE, 0xA6, 0xEF, 0x8C, 0x51, 0x57, 0xDC, 0x96, 0xC7, 0x5C, 0xA0, 0xFE,
    0x06, 0xF6, 0x3A, 0x51, 0xDB, 0x30, 0x68, 0x04, 0x45, 0x92, 0x0C, 0xCA, 0xC3, 0xD7, 0xBA,
    0x0F, 0x5C, 0xAA, 0x88, 0x18,
  ]
  #expect(Inflate.zlib(dynamic[...]) == Array(text.utf8))
  // "abc" in a stored block: BFINAL 1 and type 0, LEN 3, NLEN, the bytes, Adler-32.
  let stored: [UInt8] = [
    0x78, 0x01, 0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62, 0x63, 0x02, 0x4D, 0x01, 0x27,
  ]
  #expect(Inflate.zlib(stored[...]) == Array("abc".utf8))
  // Cut short, over the output limit, and not zlib at all: nil, never a crash.
  #expect(Inflate.zlib(fixed.prefix(10)) == nil)
  #expect(Inflate.zlib(dynamic.prefix(60)) == nil)
  #expect(Inflate.zlib(dynamic[...], limit: 100) == nil)
  #expect(Inflate.zlib(Array("align:start".utf8)[...]) == nil)
}

/// 32-bit FLAC in Matroska (mkvmerge): FFmpeg 5.1's Matroska demuxer does not pass the bits
/// per sample on, so the track was listed as decodable and `stretch` said only "no decodable
/// audio". The CodecPrivate's STREAMINFO states 32 bits: not decodable, and decoding says why.
@Test func thirtyTwoBitFLACInMatroskaIsListedAsNotDecodable() throws {
  let path = otherTool("flac-32bit-mkvmerge.mka")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "flac")
  #expect(track.codecTag == "A_FLAC")
  #expect(!track.decodable)
  do {
    _ = try AudioDecoder(path: path)
    Issue.record("32-bit FLAC in Matroska decoded")
  } catch {
    #expect(error.kind == .malformed)
    #expect(error.description.contains("32-bit"))
  }
}

/// AVI from GStreamer's avimux, which writes no index for audio and states one AAC frame less
/// than it writes (15 of 16): each track lasts what its chunks hold, as they decode (the AAC
/// track said 0.32 s, FFmpeg's figure, for 0.341 s of audio), and the file as its longest.
@Test func aviWithoutAnIndexLastsWhatItsChunksHold() throws {
  let path = otherTool("aac-mp3-gstreamer.avi")
  let info = try MediaProbe.probe(path: path)
  #expect(info.audio.map(\.codec) == ["aac", "mp3"])
  let aac = try #require(info.audio.first?.duration)
  #expect(abs(aac - 16 * 1024 / 48000.0) < 1e-9)
  let mp3 = try #require(info.audio.last?.duration)
  #expect(abs(mp3 - 22 * 576 / 16000.0) < 1e-9)
  #expect(info.duration == max(aac, mp3))
  let decoded = try decodeAll(path)
  #expect(abs(Double(decoded.frames) / Double(decoded.rate) - aac) < 1e-9)
  let source = try #require(try FileBytes(path: path))
  #expect(AVIChunks.count(stream: 0, in: source) == 16)
  #expect(AVIChunks.count(stream: 1, in: source) == 22)
}

/// Matroska written for streaming (GStreamer's `matroskamux streamable=true`, as live
/// recorders write Matroska and WebM): no Duration, no Cues, and six clusters of unknown size.
/// The file and its only track end with the last block (0.5 s of Opus, its last 20 ms frame
/// included), as a player finds when it reaches the end; FFmpeg 5.1 states no duration.
@Test func streamableMatroskaEndsWithItsLastBlock() throws {
  let path = otherTool("opus-streamable.mka")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let duration = try #require(track.duration)
  #expect(abs(duration - 0.5) < 0.01)
  #expect(info.duration == track.duration)
  let decoded = try decodeAll(path)
  #expect(abs(Double(decoded.frames) / Double(decoded.rate) - duration) < 0.01)
}

/// The CRC of an Ogg page (RFC 3533: polynomial 0x04C11DB7, no reflection, the CRC field
/// counted as zeros).
private func oggCRC(_ page: ArraySlice<UInt8>) -> UInt32 {
  var crc: UInt32 = 0
  for (offset, byte) in page.enumerated() {
    crc ^= UInt32(offset >= 22 && offset < 26 ? 0 : byte) << 24
    for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
  }
  return crc
}

/// A Vorbis identification header whose nominal bit rate is -2 ("not set", a signed field, as
/// oggenc writes it at 96 kHz): FFmpeg 5.1 reads it unsigned and states 4,294,967,294 bit/s.
/// The bit rate is unknown (`nil`), and a stated one is kept.
@Test func vorbisNominalRateNotSetIsNoBitRate() throws {
  var bytes = [UInt8](try #require(FileManager.default.contents(atPath: fixtures + "/vorbis.ogg")))
  #expect(try MediaProbe.probe(bytes: bytes, name: "vorbis.ogg").audio.first?.bitRate == 24000)
  let marker: [UInt8] = [1] + Array("vorbis".utf8)
  let header = try #require(
    (0..<(bytes.count - marker.count)).first {
      bytes[$0..<($0 + marker.count)].elementsEqual(marker)
    })
  // Version (4 bytes), channels (1), rate (4), maximum (4), then the nominal rate.
  let nominal = header + marker.count + 13
  for (offset, byte) in [UInt8]([0xFE, 0xFF, 0xFF, 0xFF]).enumerated() {
    bytes[nominal + offset] = byte
  }
  // The first page holds only this header: its length from its segment table.
  let segments = Int(bytes[26])
  let length = 27 + segments + bytes[27..<(27 + segments)].reduce(0) { $0 + Int($1) }
  let crc = oggCRC(bytes[0..<length])
  for offset in 0..<4 { bytes[22 + offset] = UInt8(truncatingIfNeeded: crc >> (8 * offset)) }
  let info = try MediaProbe.probe(bytes: bytes, name: "nominal-unset.ogg")
  let track = try #require(info.audio.first)
  #expect(track.codec == "vorbis")
  #expect(track.sampleRate == 22050)
  #expect(track.bitRate == nil)
}

/// AIFF written to a pipe by sox and by GStreamer's `aiffmux`: the `SSND` size is the writer's
/// placeholder just under 2 GiB and the `COMM` frame count what it would hold (hours), far
/// beyond the file. FFmpeg 5.1 states those hours, and the track was refused as cut short. The
/// audio runs to the end of the file: it is listed with that duration and decoded whole.
@Test(arguments: ["aiff-streamed-sox.aiff", "aiff-streamed-gst.aiff"])
func streamedAIFFRunsToTheEndOfTheFile(name: String) throws {
  let path = otherTool(name)
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  let ssnd = try #require(
    (12..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("SSND".utf8) })
  let size = bytes[(ssnd + 4)..<(ssnd + 8)].reduce(0) { $0 << 8 | Int($1) }
  // The fixture is what it claims: a placeholder size, not the real one.
  #expect(size >= 0x7F00_0000)
  // The body: a 4-byte offset (0 here) and a 4-byte block size, then 16-bit mono frames.
  let frames = (bytes.count - (ssnd + 16)) / 2
  #expect(frames == 2000)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "pcm_s16be")
  #expect(track.duration == Double(frames) / 8000)
  #expect(info.duration == track.duration)
  let decoded = try decodeAll(path)
  #expect(decoded.frames == frames)
}

/// A chained Ogg Opus stream (0.5 s of stereo, then 0.7 s of 8 channels) whose second link
/// FFmpeg 5.1's decoder fails on, packet after packet: the decode fails at the end, naming the
/// codec, instead of giving the first link alone as the whole track.
@Test func aDecoderThatStopsBeforeTheEndIsAnError() throws {
  let path = otherTool("opus-chained-2to8.ogg")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "opus")
  #expect(abs(try #require(track.duration) - 1.2) < 0.05)
  do {
    _ = try decodeAll(path)
    Issue.record("the first link alone was given as the track")
  } catch let error as MediaError {
    #expect(error.kind == .malformed)
    #expect(error.description.contains("opus decoder could not decode the last"))
  }
}

/// The same two links and a third, 0.4 s of stereo again, which FFmpeg 5.1 decodes: the
/// failure is in the middle. The decode fails, naming the codec and how much could not be
/// decoded, instead of giving the first and last links (0.9 s of 1.6) joined.
@Test func aDecoderThatFailsForHalfASecondInTheMiddleIsAnError() throws {
  let path = otherTool("opus-chained-2to8to2.ogg")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "opus")
  #expect(abs(try #require(track.duration) - 1.6) < 0.05)
  do {
    let decoded = try decodeAll(path)
    Issue.record("\(decoded.frames) frames were given for 1.6 s with 0.7 s missing")
  } catch let error as MediaError {
    #expect(error.kind == .malformed)
    #expect(error.description.contains("opus decoder could not decode 0.7"))
  }
}

/// Raw variable-bit-rate streams that state no length (an MP3 without its Xing header, ADTS
/// AAC), quiet and then loud, for which FFmpeg 5.1 estimates a length from the first frames'
/// bit rate (2.81 s and 5.08 s): the length is the frames', what decoding gives, and the bit
/// rate their average.
@Test(arguments: ["mp3-vbr-no-xing.mp3", "aac-vbr.aac"])
func aRawVariableBitRateStreamLastsWhatItsFramesHold(name: String) throws {
  let path = otherTool(name)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoded = try decodeAll(path)
  // The decoder's rate is the frames' (no SBR here).
  #expect(decoded.rate == track.sampleRate)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(abs(try #require(track.duration) - seconds) < 1e-6)
  #expect(abs(try #require(info.duration) - seconds) < 1e-6)
  let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
  let average = Double(size * 8) / seconds
  // Within a few per cent of the whole file over its length (the ADTS and frame headers are
  // in both; the Xing-less MP3 has no tag).
  #expect(abs(Double(try #require(track.bitRate)) - average) < 0.03 * average)
}

/// An ID3v2 tag before the frames, bytes that are no frame among them and an ID3v1 tag after
/// them are skipped: the length is the same as the bare stream's.
@Test func framesAreWalkedPastTagsAndDamage() throws {
  let bare = try [UInt8](Data(contentsOf: URL(fileURLWithPath: otherTool("mp3-vbr-no-xing.mp3"))))
  let expected = try #require(try MediaProbe.probe(path: otherTool("mp3-vbr-no-xing.mp3")).duration)
  // ID3v2.4: a TIT2 frame of 6 bytes (size syncsafe).
  let frame: [UInt8] = Array("TIT2".utf8) + [0, 0, 0, 6, 0, 0, 3] + Array("hey".utf8) + [0, 0]
  let id3v2: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame
  let id3v1: [UInt8] = Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125)
  // 300 bytes that are not a frame (no 0xFF) after the first tenth of the frames' bytes: the
  // frame they land in is lost, the rest is found again.
  let cut = bare.count / 10
  let damaged = id3v2 + bare[..<cut] + [UInt8](repeating: 0x55, count: 300) + bare[cut...] + id3v1
  let path = FileManager.default.temporaryDirectory.path + "/mtool-tagged-\(UUID().uuidString).mp3"
  defer { try? FileManager.default.removeItem(atPath: path) }
  try Data(damaged).write(to: URL(fileURLWithPath: path))
  let duration = try #require(try MediaProbe.probe(path: path).duration)
  // At most the one frame the damage fell in (576 samples at 22050 Hz) is missing.
  #expect(duration <= expected + 1e-9)
  #expect(duration >= expected - 576.0 / 22050 - 1e-9)
}

/// FLAC whose STREAMINFO states no total (the encoder read a pipe): FFmpeg 5.1 states no
/// length; the last frame's number gives it, exactly what decoding gives (0.7 s, 5,600
/// samples in blocks of 1,152, the last one short).
@Test func flacWithoutATotalLastsWhatItsLastFrameSays() throws {
  let path = otherTool("flac-no-total.flac")
  let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  // The fixture is what it claims: STREAMINFO's 36-bit total is 0.
  #expect(bytes[21] & 0x0F == 0 && bytes[22...25].allSatisfy { $0 == 0 })
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoded = try decodeAll(path)
  #expect(decoded.frames == 5600)
  #expect(track.duration == 0.7)
  #expect(info.duration == 0.7)
}

/// The offset of the first occurrence of `text` in `bytes`.
private func find(_ text: String, in bytes: [UInt8]) -> Int? {
  let pattern = Array(text.utf8)
  return bytes.indices.first { bytes[$0...].starts(with: pattern) }
}

/// VLC's Ogg muxer ends a stream with an end-of-stream page holding one empty packet, which
/// FFmpeg 5.1's Ogg Opus reader rejects as invalid data after the last audio: the stream is
/// decoded whole (0.5 s less the encoder's delay), not refused.
@Test func emptyLastOggPacketEndsTheStream() throws {
  let path = otherTool("vlc-opus.ogg")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: its last page is the end of the stream (header flag 4), and
  // holds one lacing value of 0 and nothing after it.
  let last = try #require(bytes.indices.last { bytes[$0...].starts(with: Array("OggS".utf8)) })
  #expect(bytes[last + 5] & 4 == 4)
  #expect(Array(bytes[(last + 26)...]) == [1, 0])
  let decoded = try decodeAll(path)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(seconds > 0.4 && seconds <= 0.5)
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(abs(try #require(track.duration) - seconds) < 0.02)
}

/// VLC's AVI muxer states an MP2 stream counted in bytes (sample size 1) with the count of its
/// chunks as its length: the track's duration comes from the index's bytes at the format's
/// byte rate, and is what the decoder gives.
@Test func aviStreamLengthComesFromItsIndex() throws {
  let path = otherTool("vlc-mp2.avi")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: the stream header's sample size is 1, and its length (at
  // offset 32 of the header's body) a handful of chunks, not thousands of bytes.
  let header = try #require(find("strh", in: bytes)) + 8
  let word = { (at: Int) in bytes[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | Int($1) } }
  #expect(word(header + 44) == 1)
  #expect(word(header + 32) < 100)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoded = try decodeAll(path)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(abs(seconds - 0.396) < 1e-9)
  #expect(abs(try #require(track.duration) - seconds) < 1e-9)
  #expect(abs(try #require(info.duration) - seconds) < 1e-9)
}

/// VLC's ASF muxer leaves the 2 s preroll out of the play duration, which FFmpeg 5.1 takes
/// off: 2.5 s of AAC were stated as 0.5 s, and 0.5 s of PCM as less than nothing (no length,
/// and 4,096-byte packets counted as audio). The tracks are read to their last packet.
@Test(arguments: [("vlc-aac.asf", 2.496), ("vlc-pcm.asf", 0.45)])
func asfDurationCountsFromThePreroll(name: String, expected: Double) throws {
  let path = otherTool(name)
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: the File Properties Object (A1 DC AB 8C ...) states a play
  // duration (100 ns units) within a frame of the audio, and a preroll of 2,000 ms.
  let guid: [UInt8] = [0xA1, 0xDC, 0xAB, 0x8C, 0x47, 0xA9, 0xCF, 0x11]
  let object = try #require(bytes.indices.first { bytes[$0...].starts(with: guid) })
  let field = { (at: Int) in
    bytes[(object + at)..<(object + at + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
  }
  #expect(abs(Double(field(64)) / 1e7 - expected) < 0.1)
  #expect(field(80) == 2000)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoded = try decodeAll(path)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(abs(seconds - expected) < 1e-9)
  // Within one AAC frame (64 ms at 16000 Hz): the last packet's timestamp and its length.
  #expect(abs(try #require(track.duration) - seconds) < 0.065)
  #expect(abs(try #require(info.duration) - seconds) < 0.065)
}

/// An edit list whose one span is split into two edits, the second going on where the first
/// ends, is the same span: 0.5 s listed and decoded (the last AAC frame's padding, 12 ms, was
/// decoded too when only a single edit was read).
@Test func editsThatFollowEachOtherAreOneSpan() throws {
  let path = otherTool("aac-two-edits.m4a")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: an edit list of two edits.
  let elst = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("elst".utf8)) })
  #expect(bytes[elst + 8..<elst + 12].elementsEqual([0, 0, 0, 2]))
  let decoded = try decodedAudio(path)
  #expect(decoded.frames == 24_000)
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(abs(try #require(track.duration) - 0.5) < 1e-9)
}

/// Opus in MPEG-TS states its pre-skip and last frame's padding as the first and last access
/// units' trims, which FFmpeg 5.1's parser strips: 0.52 s of 0.5 s was decoded, from
/// GStreamer's muxer and FFmpeg's, and GStreamer's listed 0.5135 s. Both now list and decode
/// 0.5 s, the tone where the input had it.
@Test(arguments: ["opus-gstreamer.ts", "opus-ffmpeg.ts"])
func opusInTransportStreamTakesItsTrims(name: String) throws {
  let path = otherTool(name)
  let source = try #require(try FileBytes(path: path))
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "opus")
  let pid = try #require(opusPID(source))
  let trims = try #require(TSOpusTrims.read(source, pid: pid))
  #expect(trims.start == 312)
  #expect(trims.end > 0)
  #expect(trims.presented == 24_000)
  #expect(abs(try #require(track.duration) - 0.5) < 1e-9)
  let decoded = try decodedAudio(path)
  #expect(decoded.frames == 24_000)
}

/// The PID of the first stream whose PES packets start with an Opus control header.
private func opusPID(_ source: FileBytes) -> Int? {
  let bytes = source.bytes(at: 0, count: 1 << 16)
  guard let (size, first) = TSDeclarations.packetLayout(bytes) else { return nil }
  var at = first
  while at + 188 <= bytes.count {
    defer { at += size }
    let pid = (Int(bytes[at + 1]) & 0x1F) << 8 | Int(bytes[at + 2])
    if let pes = TSOpusTrims.pesPackets(bytes, packetSize: size, from: first, pid: pid).first,
      TSOpusTrims.accessUnits(pes.payload).first != nil
    {
      return pid
    }
  }
  return nil
}

/// PCM in FLV has no frame size: its last tag lasts the samples it holds. GStreamer's flvmux
/// puts a whole buffer in a tag, and three tags of 0.2 s were listed as 0.4 s.
@Test func pcmInFLVLastsItsLastTag() throws {
  let path = otherTool("pcm-gstreamer.flv")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "pcm_s16le")
  #expect(abs(try #require(track.duration) - 0.6) < 1e-9)
  #expect(try decodedFrames(path) == 6615)
}

/// GStreamer's asfmux states a part-filled packet's length without the padding that fills it
/// up, which FFmpeg 5.1 refuses ("invalid padsize") and so drops the last packet: 0.929 s of
/// 1.021 s were decoded. The padding is read as 0 and the packet is kept.
@Test func asfPacketPaddedPastItsStatedLengthIsRead() throws {
  let path = otherTool("wma-asfmux-gstreamer.wma")
  let bytes = try #require(try FileBytes(path: path))
  // The fixture is what it claims: its last packet's stated length and padding add up to the
  // packet size, with the length short of it; no other packet needs the repair.
  let layout = try #require(ASFHeader.read(bytes))
  let repairs = layout.paddingRepairs(bytes)
  #expect(repairs.count == 1)
  let repair = try #require(repairs.first)
  #expect(repair.offset > layout.firstPacket)
  #expect(repair.offset < bytes.size)
  #expect(repair.bytes.allSatisfy { $0 == 0 })
  let decoded = try decodedAudio(path)
  #expect(decoded.rate == 22050)
  // GStreamer's demuxer and decoder give 22,528 samples; FFmpeg's WMA decoder keeps back its
  // first frame (1,024 samples here), as it does for FFmpeg's own WMA files.
  #expect(decoded.frames >= 22_528 - 1024)
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(abs(try #require(track.duration) - Double(decoded.frames) / 22050) < 0.05)
}

/// VLC's MP4 muxer writes AC-3's `dac3` box wrong (it reads as `acmod` 0: two channels); the
/// sample entry and the frames say 5.1. The track lists what the decoder gives.
@Test func ac3ChannelsInMP4ComeFromTheFrames() throws {
  let path = otherTool("vlc-ac3-5.1.mp4")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: dac3's acmod (bits 10-12 of its 24) is 0, and the sample
  // entry's channel count (16 bytes after its type) is 6.
  let dac3 = try #require(find("dac3", in: bytes)) + 4
  let fields = Int(bytes[dac3]) << 16 | Int(bytes[dac3 + 1]) << 8 | Int(bytes[dac3 + 2])
  #expect(fields >> 11 & 7 == 0)
  let entry = try #require(find("ac-3", in: bytes)) + 4
  #expect(Int(bytes[entry + 16]) << 8 | Int(bytes[entry + 17]) == 6)
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  let decoder = try AudioDecoder(path: path)
  #expect(decoder.channels == 6)
  #expect(track.channels == 6)
  #expect(track.channelLayout == "5.1")
  #expect(track.sampleRate == 48000)
}

/// PCM in libsndfile's Ensoniq PARIS and IRCAM files: their headers state no length, and
/// FFmpeg 5.1 leaves the bit rate unset until it reads packets. The bit rate is the samples'
/// bits times rate and channels, and the duration the bytes after the header at that rate.
@Test(arguments: ["sndfile-pcm.paf", "sndfile-pcm.ircam"])
func pcmWithoutAStatedBitRateHasItsLength(name: String) throws {
  let path = otherTool(name)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.bitRate == 128_000)
  let decoded = try decodeAll(path)
  #expect(decoded.frames == 800)
  #expect(track.duration == 0.1)
  #expect(info.duration == 0.1)
}

/// VLC's MPEG-PS muxer writes DVD LPCM as private stream 1, substream 0xA0, and names it AC-3
/// (stream type 0x81) in its program stream map, so FFmpeg 5.1 lists AC-3 with no rate and its
/// AC-3 decoder reads nothing. The substream id declares LPCM and its header the facts: the
/// track is listed as LPCM and decoded as such, the sine the file holds.
@Test func dvdLPCMInProgramStreamIsNamedByItsSubstream() throws {
  let path = otherTool("vlc-lpcm.ps")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: the program stream map's one entry (12 bytes into it) is
  // stream type 0x81 for stream 0xA0, and the first private-stream-1 payload is substream
  // 0xA0 whose LPCM header (its fifth byte) states 16 bits, 32 kHz, one channel.
  let map = try #require(bytes.indices.first { bytes[$0...].starts(with: [0, 0, 1, 0xBC]) })
  #expect(bytes[map + 12] == 0x81 && bytes[map + 13] == 0xA0)
  let pes = try #require(bytes.indices.first { bytes[$0...].starts(with: [0, 0, 1, 0xBD]) })
  let payload = pes + 9 + Int(bytes[pes + 8])
  #expect(bytes[payload] == 0xA0 && bytes[payload + 5] == 0x30)
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.ffmpegCodec == "ac3")
  #expect(track.codec == "pcm_dvd")
  #expect(track.codecTag == "substream 0xa0")
  #expect(track.decodable)
  #expect(track.sampleRate == 32000 && track.channels == 1)
  #expect(track.bitRate == 512_000)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 32000)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(abs(try #require(track.duration) - seconds) < 0.01)
  // A 440 Hz sine at half scale: its peak, and two zero crossings per period.
  let peak = decoded.samples.map(abs).max() ?? 0
  #expect(peak > 0.45 && peak < 0.55)
  let crossings = zip(decoded.samples, decoded.samples.dropFirst()).filter {
    ($0 < 0) != ($1 < 0)
  }.count
  #expect(abs(Double(crossings) - 880 * seconds) < 3)
}

/// Variable-bit-rate MP3 from lame in WAVE (format tag 0x0055) whose header states a byte rate
/// of 0, as some Windows tools write it: FFmpeg 5.1 states no length. The `data` chunk's
/// frames give it, the Info frame included (the decoder gives its samples in WAVE), and the
/// bit rate is their average, not the header's. The `data` chunk is found wherever it stands:
/// in `mp3-in-wave-list.wav` a 70,000-byte `LIST` chunk puts it past the first 64 KiB.
@Test(arguments: [("mp3-in-wave.wav", 50), ("mp3-in-wave-list.wav", 70_070)])
func mp3InWaveLastsWhatItsFramesHold(name: String, dataTag: Int) throws {
  let path = otherTool(name)
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: format tag 0x0055, byte rate 0, and its `data` chunk where
  // the script puts it.
  #expect(bytes[20] == 0x55 && bytes[21] == 0)
  #expect(bytes[28..<32].allSatisfy { $0 == 0 })
  #expect(bytes[dataTag..<(dataTag + 4)].elementsEqual("data".utf8))
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "mp3")
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 22050)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(abs(try #require(track.duration) - seconds) < 1e-6)
  #expect(abs(try #require(info.duration) - seconds) < 1e-6)
  let bitRate = Double(try #require(track.bitRate))
  let average = Double((bytes.count - dataTag - 8) * 8) / seconds
  #expect(abs(bitRate - average) < 0.03 * average)
}

/// Opus in Ogg from opusenc (0.37 s, mono): its OpusHead states a pre-skip of 312 samples,
/// which the last granule position counts and the decoder drops (RFC 7845 section 4.2). The
/// track lasts the last granule less the pre-skip: exactly what decoding gives, not 0.3765 s.
@Test func oggOpusLastsItsLastGranuleLessThePreSkip() throws {
  let path = otherTool("opus-preskip.opus")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: the first page's one packet is an OpusHead with a
  // pre-skip of 312.
  let head = 27 + Int(bytes[26])
  #expect(bytes[head..<(head + 8)].elementsEqual("OpusHead".utf8))
  #expect(Int(bytes[head + 10]) | Int(bytes[head + 11]) << 8 == 312)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 48000)
  #expect(decoded.frames == 17760)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(abs(try #require(track.duration) - seconds) < 1e-9)
  #expect(abs(try #require(info.duration) - seconds) < 1e-9)
}

/// The decoded frames and rate of audio stream `index` of `path`.
private func decodeAll(_ path: String, streamIndex index: Int) throws -> (frames: Int, rate: Int) {
  var decoder = try AudioDecoder(path: path, streamIndex: index)
  var buffer: [Float] = []
  var decoded = 0
  while case let count = try decoder.read(into: &buffer, maxFrames: 1024), count > 0 {
    decoded += count
  }
  return (decoded, decoder.sampleRate)
}

/// VLC's two-stream Vorbis Ogg file, whose streams start past 0 while its Skeleton bone states
/// 0: each track lasts from its start (its first audio page's granule less the samples its
/// packets decode to, Vorbis I A.2) to its last granule, exactly what decoding gives. The first
/// stream starts at 127 (11,007 less 10,880) and the second at 2,332 (11,164 less 8,832); the
/// second was stated from 0 (0.506 s for 0.401 s), then from FFmpeg's first timestamp, 2,076,
/// which counts 256 samples for the first packet, which decodes to none.
@Test func oggStreamStartingLateLastsFromItsFirstPacket() throws {
  let path = otherTool("vlc-vorbis-two.ogg")
  let info = try MediaProbe.probe(path: path)
  #expect(info.audio.map(\.codec) == ["vorbis", "vorbis"])
  for track in info.audio {
    let decoded = try decodeAll(path, streamIndex: track.index)
    #expect(decoded.rate == 22050)
    let seconds = Double(decoded.frames) / Double(decoded.rate)
    #expect(abs(try #require(track.duration) - seconds) < 1e-9, "\(track.index)")
  }
  let first = try #require(info.audio.first)
  #expect(abs(try #require(first.duration) - (11007.0 - 127) / 22050) < 1e-9)
  let late = try #require(info.audio.last)
  #expect(abs(try #require(late.startTime) - 2332.0 / 22050) < 1e-9)
  #expect(abs(try #require(late.duration) - (11164.0 - 2332) / 22050) < 1e-9)
}

/// A page at the end of the file damaged on the way (here its granule position made 2^62, so
/// its checksum no longer matches) is not believed: the late stream keeps the length its intact
/// pages give (it was listed as 209,146,758,205,323 s).
@Test func oggDamagedLastPageIsNotBelieved() throws {
  var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: otherTool("vlc-vorbis-two.ogg"))))
  let sync = Array("OggS".utf8)
  let last = try #require(
    bytes.indices.reversed().first { bytes[$0...].starts(with: sync) })
  for i in 0..<8 { bytes[last + 6 + i] = i == 7 ? 0x40 : 0 }
  let path = FileManager.default.temporaryDirectory.path + "/mtool-ogg-\(UUID().uuidString).ogg"
  try Data(bytes).write(to: URL(fileURLWithPath: path))
  defer { try? FileManager.default.removeItem(atPath: path) }
  let info = try MediaProbe.probe(path: path)
  #expect(info.audio.count == 2)
  for track in info.audio {
    let duration = try #require(track.duration)
    #expect(duration > 0.3 && duration < 0.6, "\(track.index): \(duration)")
  }
}

/// VLC's Opus stream starts at granule 20 (its first page's granule, 21,140, less 22 packets of
/// 960 samples), and FFmpeg 5.1 states it up to its last granule from 0: the track lasts its
/// last granule less its start and its pre-skip (312), exactly what decoding gives.
@Test func oggOpusStartingPastZeroLastsWhatItDecodes() throws {
  let path = otherTool("vlc-opus.ogg")
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  let decoded = try decodeAll(path, streamIndex: track.index)
  #expect(decoded.frames == 21140 - 20 - 312)
  #expect(abs(try #require(track.duration) - Double(decoded.frames) / 48000) < 1e-9)
}

/// AAC access units with neither ADTS headers nor a decoder configuration (voaacenc's raw
/// output written to a file): FFmpeg 5.1 probes the `.aac` file as ADTS and reads no rate. The
/// track is listed as not decodable, and decoding it fails naming the codec, as it cannot be
/// decoded.
@Test func rawAACWithoutHeadersIsNotDecodable() throws {
  let path = otherTool("aac-raw-frames.aac")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: it does not start with an ADTS sync word or an ADIF header.
  #expect(!(bytes[0] == 0xFF && bytes[1] & 0xF6 == 0xF0))
  #expect(!bytes.starts(with: Array("ADIF".utf8)))
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "aac")
  #expect(!track.decodable)
  // FFmpeg's channels and bit rate for it are a misreading of the same bytes: unknown.
  #expect(track.sampleRate == 0 && track.channels == 0 && track.bitRate == nil)
  do {
    let decoded = try decodeAll(path)
    Issue.record("\(decoded.frames) frames were decoded")
  } catch let error as MediaError {
    #expect(error.kind == .malformed)
    #expect(error.description.contains("is AAC"))
    #expect(error.description.contains("no sample rate or channel count"))
  }
}

/// A WavPack correction file (`.wvc`) alone: its blocks hold only the correction to lossless,
/// which FFmpeg 5.1's decoder fails on block after block. It is listed as not decodable and
/// refused naming it; the `.wv` file it goes with decodes.
@Test func wavPackCorrectionFileAloneIsNotDecodable() throws {
  let correction = otherTool("wavpack-hybrid.wvc")
  let track = try #require(try MediaProbe.probe(path: correction).audio.first)
  #expect(track.codec == "wavpack")
  #expect(!track.decodable)
  do {
    let decoded = try decodeAll(correction)
    Issue.record("\(decoded.frames) frames were decoded")
  } catch let error as MediaError {
    #expect(error.kind == .malformed)
    #expect(error.description.contains("WavPack"))
    #expect(error.description.contains(".wvc"))
  }
  let lossy = otherTool("wavpack-hybrid.wv")
  #expect(try MediaProbe.probe(path: lossy).audio.first?.decodable == true)
  #expect(try decodeAll(lossy).frames == 2000)
}

/// HE-AAC (implicit SBR) in MP4 whose `esds` holds no AudioSpecificConfig: the sample entry
/// alone states 22050 Hz stereo. FFmpeg 5.1's decoder, opened without a configuration at the
/// 44100 Hz its stream-information pass found, failed on every frame; opened with AAC-LC at
/// the sample entry's rate, it decodes the file as it does with the configuration.
@Test func mp4AACWithoutAConfigDecodesAsWithIt() throws {
  let path = otherTool("he-aac-no-config.mp4")
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: its esds's DecoderConfigDescriptor (tag 4) is its 13
  // bytes of fields alone, with no DecoderSpecificInfo after them.
  let esds = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("esds".utf8)) })
  let descriptor = esds + 8
  #expect(bytes[descriptor] == 3)
  #expect(bytes[descriptor + 5] == 4)
  #expect(bytes[descriptor + 6] == 13)
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "aac")
  #expect(track.sampleRate == 44100)
  #expect(track.decodable)
  let decoded = try decodeAll(path)
  let reference = try decodeAll(otherTool("he-aac-implicit.mp4"))
  #expect(decoded.rate == 44100)
  #expect(decoded.frames == reference.frames)
  #expect(decoded.samples == reference.samples)
}

/// VLC's LPCM in MPEG-TS: stream type 0x83 (TrueHD only on Blu-ray) in private stream 1, each
/// PES payload DVD LPCM's without the substream id. FFmpeg 5.1 names no codec and no media
/// type for it, so no track was listed. It is listed as DVD LPCM with the LPCM header's facts,
/// and decoded by FFmpeg's DVD LPCM decoder once the frame count and first access unit
/// pointer (3 bytes) are skipped in each packet: the 440 Hz sine at half scale VLC was given.
@Test(arguments: [("vlc-lpcm.ts", 32000), ("vlc-lpcm-44k.ts", 44100)])
func vlcLPCMInTransportStreamIsListedAndDecoded(name: String, rate: Int) throws {
  let path = otherTool(name)
  let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
  // The fixture is what it claims: a PES packet of private stream 1 whose payload starts with
  // a frame count, a pointer and an LPCM header stating 16 bits, the rate (32 kHz: code 3,
  // 44.1 kHz: code 2), one channel, and a program map stating stream type 0x83.
  let pes = try #require(bytes.indices.first { bytes[$0...].starts(with: [0, 0, 1, 0xBD]) })
  let payload = pes + 9 + Int(bytes[pes + 8])
  #expect(bytes[payload] >= 1 && bytes[payload + 4] == (rate == 32000 ? 0x30 : 0x20))
  let packet = pes / 188 * 188
  let pid = Int(bytes[packet + 1] & 0x1F) << 8 | Int(bytes[packet + 2])
  #expect(
    bytes.indices.contains {
      bytes[$0...].starts(with: [0x83, 0xE0 | UInt8(pid >> 8), UInt8(pid & 0xFF)])
    })
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  // FFmpeg names no codec, or probing the payloads guesses MP3.
  #expect(track.ffmpegCodec == (rate == 32000 ? "mp3" : nil))
  #expect(track.codec == "pcm_dvd")
  #expect(track.codecTag == "stream_type 0x83")
  #expect(track.decodable)
  #expect(track.sampleRate == rate && track.channels == 1)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == rate)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(seconds > 0.19 && seconds < 0.31)
  #expect(abs(try #require(track.duration) - seconds) < 0.01)
  // Asked for by its index, as by default.
  #expect(try decodeAll(path, streamIndex: track.index).frames == decoded.frames)
  // Every sample is the sine's (sox's 16-bit rendering of it is within 0.003): no header
  // byte is read as a sample.
  let worst = decoded.samples.enumerated().map { n, sample in
    abs(Double(sample) - 0.5 * sin(2 * Double.pi * 440 * Double(n) / Double(rate)))
  }.max()
  #expect(try #require(worst) < 0.005)
}

/// Opus in Matroska from mkvmerge (with a Duration) and GStreamer's streamable matroskamux
/// (none: the last block ends it): the blocks are timed from the first packet's start, and
/// the decoder drops the CodecDelay (the pre-skip, 6.5 ms), so the track lasts that much less
/// than the blocks span: what decoding gives, within the blocks' millisecond timestamps.
@Test(arguments: ["opus-mkvmerge.mka", "opus-streamable.mka"])
func matroskaOpusLastsItsBlocksLessTheCodecDelay(name: String) throws {
  let path = otherTool(name)
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "opus")
  let decoded = try decodeAll(path)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(abs(try #require(track.duration) - seconds) < 0.001)
}

/// Encoder padding that only the container trims (`Scripts/make-othertool-fixtures.sh`): each
/// file holds `frames` samples of input (`nil`: what its sample table holds), and decoding
/// gives exactly those, which the track and the file are listed as lasting.
/// - MP4 from FFmpeg: the edit list's start (the encoder delay) was applied and its end was
///   not: 24,648 samples of Opus and 22,528 of AAC were decoded for 0.5 s.
/// - MP4 from GStreamer: Opus whose `stts` states the trimmed length (24,648 decoded), and AAC
///   whose edit is the media's length rounded to 1/1800 s (listed 23,547 samples of 23,552).
/// - Fragmented MP4 from FFmpeg without an edit list: its fragments' span less the pre-skip,
///   which its first sample counts (24,312 samples listed and 24,648 decoded before).
/// - Matroska Opus from FFmpeg, GStreamer, mkvmerge: the CodecDelay and the last block's
///   DiscardPadding come off the blocks' span (listed 0.5015 s, 0.4935 s, 0.369996 s; the
///   files 0.508 s, 0.5 s, 0.376496 s).
/// - Matroska Opus whose header states its input's rate (22,050 or 24,000 Hz): FFmpeg 5.1's
///   demuxer converted the DiscardPadding at that rate (half of it trimmed) and timed the
///   packets at it, so decoding failed as giving less than half of the packets' time; FFmpeg's
///   WebM muxer writes the CodecDelay at it too (3.25 ms for a pre-skip of 6.5: listed
///   0.30325 s), while the decoder drops the `OpusHead`'s pre-skip.
/// - Vorbis from oggenc all on one page: its granule position, which oggdec gives (FFmpeg
///   5.1 gave 21,922 and 9,792 samples).
@Test(
  arguments: [
    ("opus-ffmpeg.mp4", 24000), ("aac-ffmpeg.m4a", 22050), ("opus-le-dops.mp4", 24000),
    ("aac-gstreamer.mp4", nil), ("opus-ffmpeg-fragmented.mp4", 24000), ("opus-ffmpeg.mka", 24000),
    ("opus-gstreamer.mka", 24000),
    ("opus-mkvmerge.mka", 17760), ("opus-streamable.mka", 24000),
    ("opus-22k-ffmpeg.webm", 14400), ("opus-22k-mkvmerge.mka", 14400),
    ("vorbis-one-page.ogg", 22050), ("vorbis-one-page-short.ogg", 8820),
  ] as [(String, Int?)])
func decodingGivesTheLengthTheContainerStates(name: String, frames: Int?) throws {
  let path = otherTool(name)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoded = try decodeAll(path)
  if let frames { #expect(decoded.frames == frames) }
  let rate = Double(decoded.rate)
  #expect(abs(try #require(track.duration) * rate - Double(decoded.frames)) < 0.01)
  #expect(abs(try #require(info.duration) * rate - Double(decoded.frames)) < 0.01)
}

/// The audio is trimmed at its end, not shifted: the first samples of FFmpeg's MP4 Opus (its
/// 0.5 s sine from 0) are those the Matroska copy of the same encoding gives, whose start
/// FFmpeg trims by its CodecDelay.
@Test func mp4EndTrimKeepsTheStart() throws {
  let mp4 = try decodeAll(otherTool("opus-ffmpeg.mp4"))
  let mka = try decodeAll(otherTool("opus-ffmpeg.mka"))
  #expect(mp4.frames == mka.frames)
  let difference = zip(mp4.samples, mka.samples).map { abs($0 - $1) }.max() ?? 1
  #expect(difference < 1e-6)
}

/// An MP4 edit list: its one edit of media gives the presented length (ISO/IEC 14496-12
/// 8.6.6), unless it is the media's end rounded to the movie's timescale.
@Test func mp4PresentedLengthFollowsTheEditList() {
  func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let size = UInt32(body.count + 8)
    return [
      UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
    ]
      + Array(type.utf8) + body
  }
  func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }
  func trak(edits: [(duration: Int, mediaTime: Int)]?) -> [UInt8] {
    // mdhd version 0: timescale 48000; stts: 25 samples of 960, one of 312 (24,312).
    let mdhd = box(
      "mdhd", [0, 0, 0, 0] + be32(0) + be32(0) + be32(48000) + be32(24312) + [0, 0, 0, 0])
    let stts = box("stts", [0, 0, 0, 0] + be32(2) + be32(25) + be32(960) + be32(1) + be32(312))
    let mdia = box("mdia", mdhd + box("minf", box("stbl", stts)))
    guard let edits else { return box("trak", mdia) }
    var list = [0, 0, 0, 0] + be32(edits.count)
    for edit in edits { list += be32(edit.duration) + be32(edit.mediaTime) + [0, 1, 0, 0] }
    return box("trak", box("edts", box("elst", list)) + mdia)
  }
  func length(_ bytes: [UInt8], movieTimescale: Int) -> Int64? {
    let payload = 8..<bytes.count
    return MP4Declarations.presentedLength(bytes, trak: payload, movieTimescale: movieTimescale)?
      .units
  }
  // FFmpeg's: 500 ms from sample 312.
  #expect(length(trak(edits: [(500, 312)]), movieTimescale: 1000) == 24000)
  // An edit that trims more than a tick: 400 ms.
  #expect(length(trak(edits: [(400, 312)]), movieTimescale: 1000) == 19200)
  // Within a tick of the end (1/1800 s ticks: 26.7 samples): the whole media.
  #expect(length(trak(edits: [(1_350, 312)]), movieTimescale: 1800) == 24000)
  // An empty edit first (a delay) is passed over.
  #expect(length(trak(edits: [(100, -1), (500, 312)]), movieTimescale: 1000) == 24000)
  // No edit list: the media (not an Opus entry, so no pre-skip). Two edits of media: not
  // stated.
  #expect(length(trak(edits: nil), movieTimescale: 1000) == 24312)
  #expect(length(trak(edits: [(200, 0), (300, 10000)]), movieTimescale: 1000) == nil)
}

/// The samples an Opus packet decodes to, from its table of contents (RFC 6716 3.1).
@Test func opusPacketSamplesFollowTheTableOfContents() {
  // Config 31 (CELT 20 ms), code 0: one frame; config 16 (CELT 2.5 ms), code 1: two frames;
  // config 3 (SILK 60 ms), code 3 with 2 frames; config 13 (hybrid 20 ms), code 2.
  #expect(FormatContext.opusPacketSamples([31 << 3]) == 960)
  #expect(FormatContext.opusPacketSamples([16 << 3 | 1]) == 240)
  #expect(FormatContext.opusPacketSamples([3 << 3 | 3, 2]) == 5760)
  #expect(FormatContext.opusPacketSamples([13 << 3 | 2]) == 1920)
  #expect(FormatContext.opusPacketSamples([3 << 3 | 3]) == nil)
  #expect(FormatContext.opusPacketSamples([]) == nil)
}

/// sox's IMA and Microsoft ADPCM: the `fact` chunk states the samples (2,400), the last block
/// is padded. Listed and decoded at the `fact` count; FFmpeg 5.1 lists it but decoded whole
/// blocks (2,525 and 2,500 samples).
@Test(arguments: ["adpcm-ima-sox.wav", "adpcm-ms-sox.wav"])
func compressedWaveEndsAtItsFactCount(name: String) throws {
  let path = otherTool(name)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.duration == 0.3)
  let decoded = try decodeAll(path)
  #expect(decoded.frames == 2400)
}

/// lame's VBR MP3 (0.5 s at 22050 Hz, its Xing and LAME tag in the first frame) after bytes
/// that are not frames: 40,000 pseudo-random bytes, or an ID3v2 tag and 2,000 zero bytes.
/// FFmpeg 5.1 looks for the LAME tag only where the ID3v2 tag ends: it listed 0.575 s, and the
/// decode gave 0.601 s (the Xing frame, the encoder delay and padding as audio). Read from its
/// first frame, the file is listed at and decodes to the 11,025 samples encoded.
@Test(arguments: ["mp3-lame-garbage-prefix.mp3", "mp3-lame-zeros-after-id3.mp3"])
func anMP3AfterBytesThatAreNotFramesIsReadFromItsFirstFrame(name: String) throws {
  let path = otherTool(name)
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "mp3")
  #expect(track.sampleRate == 22050)
  #expect(track.channels == 1)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 22050)
  #expect(decoded.frames == 11025)
  #expect(abs(try #require(track.duration) * 22050 - Double(decoded.frames)) < 1)
}

/// Two opusenc files joined that share one serial number (0.3 s then 0.2 s of stereo):
/// FFmpeg 5.1 hands the second link's OpusHead and OpusTags on as packets of the stream,
/// which read as 0.96 s of Opus each and do not decode, and the decode failed (1.94 s "could
/// not be decoded"). They are headers: the whole 0.5 s decodes, the second link's pre-skip
/// dropped, as listed.
@Test func aChainedOggOpusStreamKeepingItsSerialNumberDecodesWhole() throws {
  let path = otherTool("opus-chained-same-serial.opus")
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "opus")
  #expect(abs(try #require(track.duration) - 0.5) < 0.001)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 48000)
  #expect(decoded.frames == 24000)
}

/// An opusenc file (0.3 s of stereo) whose OpusHead and OpusTags pages come twice, as some
/// muxers wrote them: FFmpeg 5.1 hands the copies on as packets, and the decode failed (exit
/// 65, 1.94 s "could not be decoded"). The copies are headers: the 14,400 samples listed.
@Test func anOggOpusStreamWithItsHeadersTwiceDecodesWhole() throws {
  let path = otherTool("opus-duplicate-header.opus")
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(abs(try #require(track.duration) - 0.3) < 0.001)
  let decoded = try decodeAll(path)
  #expect(decoded.frames == 14400)
}

/// 3 s of Vorbis from oggenc with its second page of audio left out: FFmpeg 5.1 decodes on
/// after the gap, so 1.978 s came out, everything after the gap early, with success. The page
/// sequence numbers show the gap: the decode fails as damaged, naming where. The whole file
/// (and one whose pages merely restart at a new link) is not touched by the check.
@Test func anOggStreamWithAPageMissingFailsAsDamaged() throws {
  let path = otherTool("vorbis-missing-page.ogg")
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(abs(try #require(track.duration) - 3) < 0.001)
  #expect {
    _ = try decodeAll(path)
  } throws: { error in
    guard let error = error as? MediaError, error.kind == .malformed else { return false }
    return "\(error)".contains("an Ogg page is missing before byte 7585")
  }
  let bytes = try #require(try? FileBytes(path: path))
  #expect(OggChain.missingPages(bytes)?.pages == 1)
  for whole in ["opus-chained-same-serial.opus", "ogg-chained-opus-vorbis-opus.ogg"] {
    let chained = try #require(try? FileBytes(path: otherTool(whole)))
    #expect(OggChain.missingPages(chained) == nil)
  }
}

/// ADTS AAC from GStreamer's voaacenc (15 frames, 0.96 s mono at 16 kHz) after 40,000
/// pseudo-random bytes: FFmpeg 5.1 parses the prefix as frames and loses its way, and 0.512 s
/// was decoded, with success, for 0.96 s listed. Read from its first frame, all of it decodes.
@Test func anADTSStreamAfterBytesThatAreNotFramesIsReadFromItsFirstFrame() throws {
  let path = otherTool("aac-adts-garbage-prefix.aac")
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "aac")
  #expect(track.sampleRate == 16000)
  #expect(abs(try #require(track.duration) - 0.96) < 0.001)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 16000)
  #expect(decoded.frames == 15 * 1024)
}

/// A chained Ogg stream whose links change codec (opusenc's 0.3 s, oggenc's 0.2 s, opusenc's
/// 0.2 s, stereo at 48 kHz): FFmpeg 5.1's demuxer refuses the Vorbis link (EINVAL) and the
/// decode failed with "Invalid argument". Each link in another codec is read through a demuxer
/// and decoder of its own: the 33,600 samples listed, in the order of the links.
@Test func aChainedOggStreamChangingCodecDecodesEveryLink() throws {
  let path = otherTool("ogg-chained-opus-vorbis-opus.ogg")
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(abs(try #require(track.duration) - 0.7) < 0.001)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 48000)
  #expect(decoded.frames == 33600)
  // Every link holds its tone (no link given as silence): the RMS level of each 0.1 s.
  for tenth in 0..<7 {
    let window = decoded.samples[(tenth * 9600)..<((tenth + 1) * 9600)]
    let rms = (window.reduce(0) { $0 + Double($1 * $1) } / Double(window.count)).squareRoot()
    #expect(rms > 0.1, "0.\(tenth) s: RMS \(rms)")
  }
}

/// One frame cut from lame's CBR MP3 (418 bytes, 1,152 samples of stereo at 44.1 kHz):
/// FFmpeg 5.1's demuxer checks a first frame by the next one's header and refused the file
/// ("Invalid argument"), with the ID3v1 tag some tools add after it too. It is listed and
/// decodes at that frame's samples.
@Test(arguments: [false, true])
func anMP3OfOneFrameIsThatFrame(withTag: Bool) throws {
  var path = otherTool("mp3-lame-one-frame.mp3")
  if withTag {
    let tagged = FileManager.default.temporaryDirectory.path + "/mtool-one-\(UUID().uuidString).mp3"
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    bytes += Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125)
    try Data(bytes).write(to: URL(fileURLWithPath: tagged))
    path = tagged
  }
  defer { if withTag { try? FileManager.default.removeItem(atPath: path) } }
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "mp3")
  #expect(track.sampleRate == 44100)
  #expect(track.channels == 2)
  #expect(abs(try #require(track.duration) * 44100 - 1152) < 0.5)
  let decoded = try decodeAll(path)
  #expect(decoded.frames == 1152)
}

/// AC-3 as IEC 61937 (S/PDIF) bursts in a 16-bit stereo PCM WAVE file (sox writing FFmpeg's
/// spdif output): listed as AC-3, as FFmpeg finds it, with no bit rate (the header's 1,536 kb/s
/// is the carrier's). It was decoded as PCM by the Swift WAVE reader, full-scale noise with
/// exit 0; it now decodes through FFmpeg's AC-3 decoder: the 440 Hz tone of the left channel
/// (about 880 zero crossings a second; the noise had thousands) at its level.
@Test func aWaveCarryingAC3BurstsDecodesTheAC3() throws {
  let path = otherTool("ac3-spdif-sox.wav")
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "ac3")
  #expect(track.bitRate == nil)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 48000)
  #expect(decoded.frames == 7 * 1536)
  let left = stride(from: 0, to: decoded.samples.count, by: 2).map { decoded.samples[$0] }
  // The tone, away from the encoder's start.
  let steady = left[2048..<9600]
  var crossings = 0
  for (a, b) in zip(steady, steady.dropFirst()) where (a < 0) != (b < 0) { crossings += 1 }
  let perSecond = Double(crossings) * 48000 / Double(steady.count)
  #expect(abs(perSecond - 880) < 40)
  let peak = steady.map { abs($0) }.max() ?? 0
  #expect(peak > 0.4 && peak < 0.6)
  #expect(WaveReader.holdsIEC61937(Array(repeating: 0, count: 64)[...], from: 0) == false)
}

/// Free-format MP3 (bit-rate index 0, lame --freeformat): FFmpeg 5.1 decodes none of it, and
/// fails to open a short file (this one) or lists a long one at a rate its frames do not state
/// (32 kHz, 384 kb/s for 44.1 kHz at 400 kb/s). Listed from the first frame's header and the
/// LAME tag, not decodable, and refused by the decoder naming free format.
@Test func freeFormatMP3IsListedFromItsHeaderAndNotDecodable() throws {
  let path = otherTool("mp3-lame-freeformat.mp3")
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "mp3")
  #expect(track.profile == "free format")
  #expect(track.sampleRate == 44100)
  #expect(track.channels == 2)
  #expect(track.bitRate == nil)
  #expect(track.decodable == false)
  #expect(abs(try #require(track.duration) - 0.2) < 1e-9)
  #expect {
    _ = try AudioDecoder(path: path)
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .malformed && error.detail.contains("free-format")
  }
  // Frames that state their bit rate are not free format.
  let lame = try #require(try FileBytes(path: otherTool("mp3-lame-one-frame.mp3")))
  #expect(ElementaryFrames.freeFormatHeader(lame) == nil)
}

/// AAC in MP4 without an edit list but with iTunes' gapless tag (iTunSMPB: priming 1,024,
/// padding 576, 24,000 samples), as iTunes writes its files: listed and decoded at the tag's
/// 24,000 samples, as Apple's players and Media3 play it. FFmpeg 5.1 skips the priming but
/// decoded the padding (25,024 samples listed, 24,000 + 1,024 decoded).
@Test func iTunesGaplessTagStatesTheLength() throws {
  let path = otherTool("aac-itunes-gapless.m4a")
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "aac")
  #expect(abs(try #require(track.duration) - 0.5) < 1e-9)
  let decoded = try decodeAll(path)
  #expect(decoded.rate == 48000)
  #expect(decoded.frames == 24000)
}

/// AAC in Matroska whose blocks state no duration (FFmpeg's and mkvmerge's), damaged so that
/// the decoder gives about a sixth of it: refused as not decoding, as the same packets in
/// MPEG-TS, ADTS or MP4 are. Each block's time was not counted without a duration, and the
/// 0.34 s decoded of 2 s passed as complete (exit 0).
@Test func aDamagedMatroskaTrackThatBarelyDecodesIsRefused() throws {
  let path = otherTool("aac-damaged-ffmpeg.mka")
  #expect {
    _ = try decodeAll(path)
  } throws: { error in
    guard let error = error as? MediaError else { return false }
    return error.kind == .malformed && error.detail.contains("aac decoder")
  }
}

/// A fragmented MP4 track's bit rate is its fragments' bytes over their span: FFmpeg 5.1 states
/// 7.8 kb/s for this 32 kb/s AAC in 0.25 s fragments with a global `sidx` (the fragments it
/// read while opening, over the whole length).
@Test func aFragmentedTrackHasTheBitRateOfAllItsFragments() throws {
  let track = try #require(
    try MediaProbe.probe(path: otherTool("aac-fragmented-sidx-ffmpeg.m4a")).audio.first)
  let rate = try #require(track.bitRate)
  #expect((28_000...36_000).contains(rate), "\(rate)")
  #expect(abs(try #require(track.duration) - 1.0213333) < 1e-6)
}
