import Foundation
import Testing

@testable import MediaTracks

/// WAVE headers that assign the channels no speakers: an EXTENSIBLE header's `dwChannelMask` of
/// 0, a plain header of more than two channels. FFmpeg 5.1 leaves the layout unspecified (as
/// ffprobe says: "unknown") and names its default for the count, which the file never stated.

private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
private func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }

/// 0.01 s of 16-bit PCM at 8000 Hz in a WAVE file: a plain header, or an EXTENSIBLE one with
/// `mask`.
private func wave(channels: Int, mask: Int?) -> [UInt8] {
  let blockAlign = channels * 2
  var fmt = le16(mask == nil ? 1 : 0xFFFE) + le16(channels) + le32(8000)
  fmt += le32(8000 * blockAlign) + le16(blockAlign) + le16(16)
  if let mask {
    fmt += le16(22) + le16(16) + le32(mask) + le16(1) + le16(0)
    fmt += [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
  }
  let data = [UInt8](repeating: 0, count: 80 * blockAlign)
  let body =
    Array("WAVE".utf8) + Array("fmt ".utf8) + le32(fmt.count) + fmt + Array("data".utf8)
    + le32(data.count) + data
  return Array("RIFF".utf8) + le32(body.count) + body
}

/// sox's six channels with the mask zeroed (`Scripts/make-othertool-fixtures.sh`): listed
/// `5.1` before, with six channels either way.
@Test func aZeroChannelMaskStatesNoLayout() throws {
  let path = fixtures + "/othertools/wave-mask0-sox.wav"
  let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  // The fixture is what it claims: EXTENSIBLE, six channels, mask 0.
  let fmt = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("fmt ".utf8)) })
  #expect(Array(bytes[(fmt + 8)..<(fmt + 12)]) == [0xFE, 0xFF, 6, 0])
  #expect(Array(bytes[(fmt + 28)..<(fmt + 32)]) == [0, 0, 0, 0])
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.channels == 6)
  #expect(track.channelLayout == "")
  #expect(track.codec == "pcm_s16le")
  #expect(abs(try #require(track.duration) - 0.02) < 1e-9)
}

@Test(arguments: [
  (6, 0 as Int?, ""), (2, 0, ""), (1, 0, ""), (6, nil, ""), (3, nil, ""), (2, nil, "stereo"),
  (1, nil, "mono"), (6, 0x3F, "5.1"), (2, 0x3, "stereo"),
])
func aWaveLayoutIsTheHeadersSpeakers(channels: Int, mask: Int?, layout: String) throws {
  let info = try MediaProbe.probe(bytes: wave(channels: channels, mask: mask), name: "x.wav")
  let track = try #require(info.audio.first)
  #expect(track.channels == channels)
  #expect(track.channelLayout == layout)
}

/// A big-endian (RIFX) file, which FFmpeg 5.1 does not open and the Swift reader lists: the
/// same rule. sox's 24-bit stereo (`wave-rifx-24bit.wav`), its mask (3) zeroed.
@Test func aBigEndianWaveWithAZeroMaskStatesNoLayout() throws {
  let original = fixtures + "/othertools/wave-rifx-24bit.wav"
  var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: original)))
  let fmt = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("fmt ".utf8)) })
  #expect(Array(bytes[(fmt + 8)..<(fmt + 12)]) == [0xFF, 0xFE, 0, 2])
  #expect(Array(bytes[(fmt + 28)..<(fmt + 32)]) == [0, 0, 0, 3])
  let stated = try #require(try MediaProbe.probe(path: original).audio.first)
  #expect(stated.channelLayout == "stereo")
  bytes[fmt + 31] = 0
  let path = NSTemporaryDirectory() + "/mediatracks-rifx-mask0-\(getpid()).wav"
  defer { try? FileManager.default.removeItem(atPath: path) }
  #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
  let track = try #require(try MediaProbe.probe(path: path).audio.first)
  #expect(track.codec == "pcm_s24be")
  #expect(track.channels == 2)
  #expect(track.channelLayout == "")
}

/// A file whose header assigns no speakers is written out saying so too: mask 0 in the WAVE
/// output, not FFmpeg's default layout for the count (0x3F, 5.1), which it never stated. Other
/// outputs, which need a layout, take the default.
@Test func aWaveOutputKeepsSpeakersUnassigned() throws {
  let decoder = try AudioDecoder(path: fixtures + "/othertools/wave-mask0-sox.wav")
  #expect(decoder.channels == 6)
  #expect(decoder.channelMask == 0)
  /// The channel mask of an EXTENSIBLE header written for six channels with `mask`.
  func written(_ mask: UInt64?) -> Int {
    let header = WaveWriter.header(sampleRate: 8000, channels: 6, mask: mask)
    #expect(header[20] == 0xFE && header[21] == 0xFF)
    return header[40..<44].reversed().reduce(0) { $0 << 8 | Int($1) }
  }
  #expect(written(0) == 0)
  #expect(written(nil) == 0x3F)
  #expect(written(0x60F) == 0x60F)
  // A mono file's one channel is never "unassigned".
  let mono = try AudioDecoder(path: fixtures + "/othertools/wave-streamed-sox.wav")
  #expect(mono.channels == 1)
  #expect(mono.channelMask != 0)
}
