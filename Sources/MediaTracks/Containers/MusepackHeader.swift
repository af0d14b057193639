/// The length of a Musepack SV8 file (`MPCK`) from its stream header (`SH`) packet, which
/// states the stream's sample count and the samples of silence at its start. FFmpeg 5.1
/// divides the count by the samples of one packet of the file (1,152 times 4 to the power of
/// the header's block-frames field: 73,728 for mpcenc's default) in integers, so every file
/// it reads lists whole packets of 1.67 s: 4.82 s of audio as 3.34 s.
enum MusepackHeader {
  /// The bytes after the magic searched for the stream header.
  static let headBytes = 1 << 16

  /// The sample rates of the header's 3-bit sample-frequency field (SV8 specification).
  static let sampleRates = [44100, 48000, 37800, 32000]

  /// The duration in seconds of the SV8 stream `source` holds (after any ID3v2 tag), its
  /// sample count less its beginning silence over its sample rate; `nil` when the input is not
  /// SV8, no stream header comes before the first audio packet within ``headBytes``, or the
  /// header states no samples or a reserved rate.
  static func duration(_ source: any ByteSource) -> Double? {
    let base = ElementaryFrames.id3v2Length(source)
    let bytes = source.bytes(at: base, count: 4 + headBytes)
    guard bytes.starts(with: Array("MPCK".utf8)) else { return nil }
    var at = 4
    // Each packet: a two-letter key, its size (the key and this field included) in 7-bit
    // groups, most significant first, the top bit set on every byte but the last.
    while at + 2 < bytes.count {
      let key = (bytes[at], bytes[at + 1])
      guard let (size, sizeEnd) = varLength(bytes, at: at + 2), size > sizeEnd - at else {
        return nil
      }
      if key == (UInt8(ascii: "S"), UInt8(ascii: "H")) {
        return streamHeaderDuration(bytes, at: sizeEnd, end: min(at + size, bytes.count))
      }
      // Audio packets, or the stream's end, come after the header in a valid stream.
      if key == (UInt8(ascii: "A"), UInt8(ascii: "P"))
        || key == (UInt8(ascii: "S"), UInt8(ascii: "E"))
      {
        return nil
      }
      at += size
    }
    return nil
  }

  /// The stream header's duration: after a 4-byte CRC and a version byte (8), the sample count
  /// and the beginning silence as sizes are written, then 3 bits of sample-frequency index.
  private static func streamHeaderDuration(_ bytes: [UInt8], at start: Int, end: Int) -> Double? {
    guard start + 5 < end, bytes[start + 4] == 8,
      let (samples, afterSamples) = varLength(bytes, at: start + 5),
      let (silence, afterSilence) = varLength(bytes, at: afterSamples), afterSilence < end
    else { return nil }
    let rateIndex = Int(bytes[afterSilence] >> 5)
    guard rateIndex < sampleRates.count, samples > silence else { return nil }
    return Double(samples - silence) / Double(sampleRates[rateIndex])
  }

  /// A size field at `at`: its value and the index after it, or `nil` when it runs past the
  /// bytes or over 8 bytes.
  private static func varLength(_ bytes: [UInt8], at start: Int) -> (Int, Int)? {
    var value = 0
    var at = start
    while at < bytes.count, at - start < 8 {
      let byte = bytes[at]
      value = value << 7 | Int(byte & 0x7F)
      at += 1
      if byte & 0x80 == 0 { return (value, at) }
    }
    return nil
  }
}
