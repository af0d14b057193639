import Foundation

/// Interleaved Float32 audio with its format.
struct Audio {
  var samples: [Float]
  var channels: Int
  var sampleRate: Int

  var frames: Int { samples.count / channels }

  /// One channel as Doubles.
  func channel(_ c: Int) -> [Double] {
    var out = [Double](repeating: 0, count: frames)
    for i in 0..<frames {
      out[i] = Double(samples[i * channels + c])
    }
    return out
  }
}

enum WaveError: Error, CustomStringConvertible {
  case malformed(String)
  var description: String {
    switch self {
    case .malformed(let why): "bad WAV file: \(why)"
    }
  }
}

/// Writes 32-bit float WAV (format 3) or 16-bit PCM WAV.
func writeWave(_ audio: Audio, to path: String, float: Bool = true) throws {
  let bytesPerSample = float ? 4 : 2
  let dataBytes = audio.samples.count * bytesPerSample
  var d = Data()
  d.reserveCapacity(dataBytes + 64)
  func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { d.append(contentsOf: $0) } }
  func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { d.append(contentsOf: $0) } }
  d.append(contentsOf: Array("RIFF".utf8))
  u32(36 + dataBytes)
  d.append(contentsOf: Array("WAVEfmt ".utf8))
  u32(16)
  u16(float ? 3 : 1)
  u16(audio.channels)
  u32(audio.sampleRate)
  u32(audio.sampleRate * audio.channels * bytesPerSample)
  u16(audio.channels * bytesPerSample)
  u16(bytesPerSample * 8)
  d.append(contentsOf: Array("data".utf8))
  u32(dataBytes)
  if float {
    audio.samples.withUnsafeBufferPointer {
      d.append(
        UnsafeBufferPointer(
          start: $0.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) },
          count: dataBytes))
    }
  } else {
    for s in audio.samples {
      let v = Int16(max(-32768, min(32767, (Double(s) * 32767).rounded())))
      withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) }
    }
  }
  try d.write(to: URL(fileURLWithPath: path))
}

/// Reads PCM (16, 24, 32-bit) or float (32, 64-bit) WAV, plain or WAVE_FORMAT_EXTENSIBLE.
func readWave(_ path: String) throws -> Audio {
  let d = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  func u16(_ o: Int) -> Int { Int(d[o]) | Int(d[o + 1]) << 8 }
  func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
  guard d.count >= 12, d[0..<4].elementsEqual("RIFF".utf8), d[8..<12].elementsEqual("WAVE".utf8)
  else { throw WaveError.malformed("no RIFF/WAVE header") }
  var pos = 12
  var format = 0
  var channels = 0
  var rate = 0
  var bits = 0
  while pos + 8 <= d.count {
    let id = String(decoding: d[pos..<(pos + 4)], as: UTF8.self)
    var size = u32(pos + 4)
    let body = pos + 8
    if id == "fmt " {
      format = u16(body)
      channels = u16(body + 2)
      rate = u32(body + 4)
      bits = u16(body + 14)
      if format == 0xFFFE && size >= 26 { format = u16(body + 24) }
    } else if id == "data" {
      if size == 0 || body + size > d.count { size = d.count - body }  // streamed writers
      guard channels > 0, bits > 0 else { throw WaveError.malformed("data before fmt") }
      let bytes = bits / 8
      let n = size / bytes
      var samples = [Float](repeating: 0, count: n - n % channels)
      for i in 0..<samples.count {
        let o = body + i * bytes
        switch (format, bits) {
        case (1, 16): samples[i] = Float(Int16(truncatingIfNeeded: u16(o))) / 32768
        case (1, 24):
          let v = Int32(truncatingIfNeeded: (u16(o) | Int(d[o + 2]) << 16) << 8) >> 8
          samples[i] = Float(v) / 8_388_608
        case (1, 32): samples[i] = Float(Int32(truncatingIfNeeded: u32(o))) / 2_147_483_648
        case (3, 32): samples[i] = Float(bitPattern: UInt32(u32(o)))
        case (3, 64):
          samples[i] = Float(Double(bitPattern: UInt64(u32(o)) | UInt64(u32(o + 4)) << 32))
        default: throw WaveError.malformed("format \(format) with \(bits) bits")
        }
      }
      return Audio(samples: samples, channels: channels, sampleRate: rate)
    }
    pos = body + size + (size & 1)
  }
  throw WaveError.malformed("no data chunk")
}
