@testable import MediaTracks

/// Decodes the default audio track of `path` to its end, as `mtool stretch` reads it.
/// - Returns: the frames decoded (samples per channel) and the decoder's sample rate (Hz).
func decodedAudio(_ path: String) throws -> (frames: Int, rate: Int) {
  var decoder = try AudioDecoder(path: path)
  var samples: [Float] = []
  var decoded = 0
  while case let count = try decoder.read(into: &samples, maxFrames: 4096), count > 0 {
    decoded += count
  }
  return (decoded, decoder.sampleRate)
}

/// The frames (samples per channel) that decoding `path`'s default audio track gives.
func decodedFrames(_ path: String) throws -> Int { try decodedAudio(path).frames }
