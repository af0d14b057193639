import Foundation
import Testing

@testable import MediaTracks

/// Tracks whose stated length is not what their packets decode to
/// (`Scripts/make-othertool-fixtures.sh`).

/// Matroska and WebM: Vorbis, whose last packet nothing trims and whose first decodes to
/// nothing, and a live recording cut inside a block.
@Test(arguments: [
  // mkvmerge's Duration counts a quarter of the first (long) block: 0.2667 s listed before.
  "vorbis-native-mkvmerge.webm",
  // GStreamer's Duration is the input's length: 0.25 s listed before, 0.268 s decoded.
  "vorbis-gstreamer.webm",
  // The cut block was counted: 0.4535 s listed before, 0.4335 s decoded.
  "opus-streamable-cut.webm",
])
func aMatroskaTrackLastsWhatItsBlocksDecodeTo(name: String) throws {
  let path = fixtures + "/othertools/" + name
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  let decoded = try decodedAudio(path)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  // Block times are in milliseconds (GStreamer) or 22.7 µs (mkvmerge): within one.
  #expect(abs(try #require(track.duration) - seconds) < 0.001, "\(track.duration ?? 0) \(seconds)")
  #expect(abs(try #require(info.duration) - seconds) < 0.001)
}

/// Speex in FLV, whose frame length FFmpeg 5.1 leaves unset: FFmpeg's `libspeex` file (one
/// 20 ms frame a tag) was listed at its last tag's time, 0.48 s; GStreamer's at 0.471 s, its
/// Speex header and comment packets written as audio tags and its audio timed 9 ms early. Each
/// lasts its packets' frames, 0.5 s; the decoder gives GStreamer's comment packet as one frame
/// of noise besides (0.52 s).
@Test(arguments: [("speex-ffmpeg.flv", 0.5), ("speex-gstreamer.flv", 0.52)])
func speexInFLVLastsItsPacketsFrames(name: String, decodedSeconds: Double) throws {
  let path = fixtures + "/othertools/" + name
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "speex")
  let decoded = try decodedAudio(path)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(abs(seconds - decodedSeconds) < 1e-9)
  #expect(abs(try #require(track.duration) - 0.5) < 1e-9)
  #expect(abs(try #require(info.duration) - 0.5) < 1e-9)
  // Within one frame of what is decoded.
  #expect(abs(try #require(track.duration) - seconds) <= 0.02 + 1e-9)
}

/// GStreamer's speexenc with two frames a packet: FFmpeg 5.1's Speex decoder, given no header,
/// decoded the first frame of each packet and dropped the second (0.28 s of 0.5 s, exit 0). The
/// decoder is given a header stating two frames a packet, and decodes them all: 13 packets of
/// two 20 ms frames.
@Test func speexInFLVWithTwoFramesAPacketDecodesThemAll() throws {
  let path = fixtures + "/othertools/speex-2frames-gstreamer.flv"
  let decoded = try decodedAudio(path)
  #expect(decoded.rate == 16000)
  let seconds = Double(decoded.frames) / Double(decoded.rate)
  #expect(seconds >= 0.5)
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(abs(try #require(track.duration) - 0.52) < 1e-9)
  #expect(abs(try #require(track.duration) - seconds) <= 0.02 + 1e-9)
  #expect(SpeexHeaderRepair.header(sampleRate: 16000, channels: 1, framesPerPacket: 2)?.count == 80)
  #expect(SpeexHeaderRepair.header(sampleRate: 16000, channels: 3, framesPerPacket: 2) == nil)
}

/// The tags are walked from the start: a Speex header packet gives the frames a packet holds,
/// and it and the comment packet after it are not audio.
@Test func speexTagsAreCounted() {
  func tag(_ timestamp: Int, _ payload: [UInt8]) -> [UInt8] {
    let size = payload.count + 1
    let header: [UInt8] = [
      8, UInt8(size >> 16), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
      UInt8(timestamp >> 16 & 0xFF), UInt8(timestamp >> 8 & 0xFF), UInt8(timestamp & 0xFF), 0,
      0, 0, 0,
    ]
    let whole = header + [0xB2] + payload
    let total = whole.count
    return whole + [
      UInt8(total >> 24), UInt8(total >> 16 & 0xFF), UInt8(total >> 8 & 0xFF), UInt8(total & 0xFF),
    ]
  }
  let start = Array("FLV".utf8) + [1, 4, 0, 0, 0, 9, 0, 0, 0, 0]
  var speexHeader = Array("Speex   ".utf8) + [UInt8](repeating: 0, count: 72)
  speexHeader[64] = 2
  let frames =
    start + tag(0, speexHeader) + tag(0, [1, 2, 3]) + tag(0, [9, 9]) + tag(40, [9, 9])
    + tag(80, [9, 9])
  #expect(
    FLVTags.speexAudio(MemoryBytes(frames, name: "two.flv"))
      == FLVTags.SpeexAudio(packets: 3, framesPerPacket: 2, firstTimestamp: 0))
  // Without a header, the packets' spacing tells: 40 ms apart, two frames each; a tag cut by
  // the end of the file is not counted.
  let spaced =
    start + tag(100, [9]) + tag(140, [9]) + tag(180, [9]) + Array(tag(220, [9]).prefix(8))
  #expect(
    FLVTags.speexAudio(MemoryBytes(spaced, name: "spaced.flv"))
      == FLVTags.SpeexAudio(packets: 3, framesPerPacket: 2, firstTimestamp: 100))
  #expect(FLVTags.speexAudio(MemoryBytes(start, name: "empty.flv")) == nil)
}

/// AC-3 in WAVE (format tag 0x2000) from FFmpeg writing to a pipe: no `fact` chunk and the
/// `data` size unset, so FFmpeg 5.1 states no length (listed null); the `data` chunk's whole
/// frames are what decodes. With the header's byte rate 0 the bit rate is the frame header's.
@Test func ac3InWaveLastsItsFrames() throws {
  let path = fixtures + "/othertools/ac3-ffmpeg-piped.wav"
  var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  // The fixture is what it claims: tag 0x2000, no `fact` chunk, the `data` size unset.
  let head = bytes[...]
  #expect(WaveHeader.formatTag(head) == 0x2000)
  #expect(WaveHeader.factSampleLength(in: MemoryBytes(bytes, name: "ac3.wav")) == nil)
  #expect(WaveHeader.streamedDataOffset(head) != nil)
  let decoded = try decodedAudio(path)
  #expect(decoded.frames == 7 * 1536)
  let info = try MediaProbe.probe(path: path)
  let track = try #require(info.audio.first)
  #expect(track.codec == "ac3")
  #expect(abs(try #require(track.duration) - 0.224) < 1e-9)
  #expect(abs(try #require(info.duration) - 0.224) < 1e-9)
  #expect(track.bitRate == 96000)
  // nAvgBytesPerSec 0, as some writers leave it.
  let fmt = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("fmt ".utf8)) })
  bytes.replaceSubrange((fmt + 16)..<(fmt + 20), with: [0, 0, 0, 0])
  let unstated = try #require(try MediaProbe.probe(bytes: bytes, name: "ac3.wav").audio.first)
  #expect(abs(try #require(unstated.duration) - 0.224) < 1e-9)
  #expect(unstated.bitRate == 96000)
}

/// AC-3 frame headers: the size each sample rate and bit rate give (ATSC A/52 table 5.18),
/// 44.1 kHz's two sizes, and byte-swapped words.
@Test func ac3FrameHeadersGiveTheirSize() {
  // fscod 0 (48 kHz), frmsizecod 12 (96 kb/s): 192 words.
  #expect(
    AC3Frames.header([0x0B, 0x77, 0, 0, 0x0C, 0x40][...])
      == AC3Frames.Header(sampleRate: 48000, bitRate: 96000, frameBytes: 384, swapped: false))
  // fscod 1 (44.1 kHz), frmsizecod 0 and 1 (32 kb/s): 69 and 70 words.
  #expect(AC3Frames.header([0x0B, 0x77, 0, 0, 0x40, 0x40][...])?.frameBytes == 138)
  #expect(AC3Frames.header([0x0B, 0x77, 0, 0, 0x41, 0x40][...])?.frameBytes == 140)
  // fscod 2 (32 kHz), frmsizecod 36 (640 kb/s): 1,920 words; swapped words.
  #expect(
    AC3Frames.header([0x77, 0x0B, 0, 0, 0x40, 0xA4][...])
      == AC3Frames.Header(sampleRate: 32000, bitRate: 640_000, frameBytes: 3840, swapped: true))
  // E-AC-3 (bsid 16), a reserved rate code, and no sync word.
  #expect(AC3Frames.header([0x0B, 0x77, 0, 0, 0x0C, 0x80][...]) == nil)
  #expect(AC3Frames.header([0x0B, 0x77, 0, 0, 0xCC, 0x40][...]) == nil)
  #expect(AC3Frames.header([0x0B, 0x78, 0, 0, 0x0C, 0x40][...]) == nil)
  // 44.1 kHz at 32 kb/s: 10 frames of 69 or 70 words (1,392 bytes) are 10 whole frames,
  // 1,391 bytes nine.
  let header = AC3Frames.Header(sampleRate: 44100, bitRate: 32000, frameBytes: 138, swapped: false)
  #expect(AC3Frames.wholeFrames(1392, header: header) == 10)
  #expect(AC3Frames.wholeFrames(1250, header: header) == 8)
}

/// AMR-WB frames from GStreamer's encoder without the storage format's magic, which FFmpeg's
/// `amrwb` demuxer reads and states no length for (listed null): 150 frames of 20 ms.
@Test func headerlessAMRLastsItsFrames() throws {
  let path = fixtures + "/othertools/amr-wb-raw-gstreamer.amr"
  let info = try MediaProbe.probe(path: path)
  #expect(info.demuxerName == "amrwb")
  let track = try #require(info.audio.first)
  let decoded = try decodedAudio(path)
  #expect(decoded.frames == 150 * 320)
  #expect(abs(try #require(track.duration) - 3) < 1e-9)
  #expect(abs(try #require(info.duration) - 3) < 1e-9)
  // Narrowband frames likewise: two 12.2 kb/s frames (31 bytes after the header byte).
  let frame = [UInt8(7 << 3)] + [UInt8](repeating: 0x55, count: 31)
  #expect(
    AMRFrames.duration(MemoryBytes(frame + frame, name: "nb"), headerless: .narrowband) == 0.04)
}
