/// Encodes interleaved 32-bit float samples into an audio file whose container and codec follow
/// the file name's extension.
///
/// | extension | container | codec |
/// |---|---|---|
/// | `.wav` | WAVE | 16-bit PCM (`pcm_s16le`), written in Swift without loading FFmpeg |
/// | `.flac` | FLAC | FLAC |
/// | `.mp3` | MP3 | MP3 (`libmp3lame`, when this FFmpeg has an MP3 encoder) |
/// | `.m4a`, `.mp4` | MP4 | AAC |
/// | `.aac` | ADTS | AAC |
/// | `.ogg`, `.opus` | Ogg | Opus, always at 48 kHz (input is resampled) |
/// | `.mka` | Matroska | FLAC |
///
/// The encoder owns its muxer, codec and conversion contexts. Input is converted to the codec's
/// sample format (and, where the codec cannot take the input rate, resampled to the nearest rate
/// it supports) and cut into the codec's frame size internally. Call ``finish()`` to flush and
/// write the trailer. If the encoder goes away without a successful `finish()`, or after any
/// failure, the output file is removed: a failure never leaves a partial file.
public struct AudioEncoder: ~Copyable {
  /// Samples per second (Hz) of the input passed to ``write(_:frames:)``.
  public let sampleRate: Int
  /// Channels per frame of the input passed to ``write(_:frames:)``.
  public let channels: Int
  /// Samples per second (Hz) of the encoded file (differs from ``sampleRate`` when resampled).
  public let outputSampleRate: Int
  /// FFmpeg's name of the encoder in use, for example `"aac"` or `"libopus"`.
  public let codecName: String

  private let path: String
  private let sink: Sink
  private var failed = false
  private var done = false

  /// What writes the file.
  private enum Sink {
    case wave(WaveWriter)
    case ffmpeg(FFmpegAudioSink)
  }

  /// Creates the output file and writes its header.
  ///
  /// - Parameters:
  ///   - path: The output file; its extension picks the container and codec (see the table).
  ///     An existing file is replaced.
  ///   - sampleRate: The input sample rate in Hz (1...768000).
  ///   - channels: The input channel count (1...8).
  ///   - channelMask: The speakers of the channels (see ``AudioDecoder/channelMask``), or `nil`
  ///     for FFmpeg's default layout for the count. A mask that does not name `channels`
  ///     speakers, or that the codec cannot store, also gives the default layout.
  ///   - bitRate: The target bit rate in bits per second for lossy codecs; `nil` picks 64 kbit/s
  ///     per channel (at most 320 kbit/s). Ignored by lossless codecs.
  /// - Throws: `MediaError` with kind `.invalidArgument` for an unknown extension, bad rate or
  ///   channel count, or a codec this FFmpeg lacks; `.outputFailed` when the file cannot be
  ///   created; `.other` when FFmpeg is needed but cannot be loaded.
  public init(
    path: String, sampleRate: Int, channels: Int, bitRate: Int? = nil, channelMask: UInt64? = nil
  ) throws(MediaError) {
    try self.init(
      path: path, sampleRate: sampleRate, channels: channels, bitRate: bitRate,
      channelMask: channelMask, waveFastPath: true)
  }

  /// Writes to a file its caller has opened, for example a temporary file that the caller
  /// renames into place when complete, a pipe or a device.
  ///
  /// The encoder writes from the descriptor's current position and never closes, truncates or
  /// removes it: the descriptor and the file stay the caller's, also after a failure or
  /// ``abandon()``. A descriptor that can seek (a regular file) gets complete headers; one that
  /// cannot (a pipe, a device) gets a streaming `.wav` header (sizes `0xFFFFFFFF`), and
  /// containers that must seek back (`.m4a`, `.mp4`) fail with `.outputFailed`.
  ///
  /// - Parameters:
  ///   - fileDescriptor: An open descriptor, writable, owned by the caller. A `.wav` output on
  ///     a regular file is handed to the disk as it is written, 256 KiB at a time, so that the
  ///     caller's sync at the end (as `mtool stretch` makes before renaming its output into
  ///     place) waits for the last of it alone.
  ///   - name: The output's name as the user knows it: its extension picks the container and
  ///     codec (see the table) and it names the output in errors.
  ///   - sampleRate, channels, bitRate, channelMask: As for ``init(path:sampleRate:channels:bitRate:channelMask:)``.
  ///   - format: An extension of the table, without its dot (for example `"flac"`), that picks
  ///     the container and codec instead of `name`'s: for an output without a name of its
  ///     own, such as standard output. `nil` (the default) goes by `name`.
  /// - Throws: As ``init(path:sampleRate:channels:bitRate:channelMask:)``.
  public init(
    fileDescriptor: Int32, name: String, sampleRate: Int, channels: Int, bitRate: Int? = nil,
    channelMask: UInt64? = nil, format: String? = nil
  ) throws(MediaError) {
    try self.init(
      destination: OutputDestination(path: name, descriptor: fileDescriptor),
      sampleRate: sampleRate, channels: channels, bitRate: bitRate, channelMask: channelMask,
      waveFastPath: true, format: format)
  }

  /// Creates the output file; with `waveFastPath` false, FFmpeg writes `.wav` too (for
  /// comparisons).
  init(
    path: String, sampleRate: Int, channels: Int, bitRate: Int?, channelMask: UInt64? = nil,
    waveFastPath: Bool
  ) throws(MediaError) {
    try self.init(
      destination: OutputDestination(path: path), sampleRate: sampleRate, channels: channels,
      bitRate: bitRate, channelMask: channelMask, waveFastPath: waveFastPath)
  }

  private init(
    destination: OutputDestination, sampleRate: Int, channels: Int, bitRate: Int?,
    channelMask: UInt64?, waveFastPath: Bool, format: String? = nil
  ) throws(MediaError) {
    let path = destination.path
    guard (1...768_000).contains(sampleRate), (1...8).contains(channels) else {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder",
        detail: "unsupported sample rate \(sampleRate) Hz or channel count \(channels)")
    }
    if let bitRate, bitRate <= 0 {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder",
        detail: "bit rate must be positive, got \(bitRate)")
    }
    let choice = try EncoderChoice(path: path, format: format)
    if choice.muxer == "mp3" && channels > 2 {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder",
        detail: "MP3 holds at most 2 channels, the input has \(channels); write .m4a, .opus, "
          + ".flac or .wav instead")
    }
    let sink: Sink
    if waveFastPath && choice.muxer == "wav" {
      sink = .wave(
        try WaveWriter(
          destination: destination, sampleRate: sampleRate, channels: channels,
          channelMask: channelMask))
      outputSampleRate = sampleRate
      codecName = "pcm_s16le"
    } else {
      let encoder = try FFmpegAudioSink(
        destination: destination, sampleRate: sampleRate, channels: channels, bitRate: bitRate,
        channelMask: channelMask, choice: choice)
      outputSampleRate = encoder.outputSampleRate
      codecName = encoder.codecName
      sink = .ffmpeg(encoder)
    }
    self.path = path
    self.sampleRate = sampleRate
    self.channels = channels
    self.sink = sink
  }

  /// Encodes `frames` frames of interleaved float samples from the start of `interleaved`.
  ///
  /// - Parameters:
  ///   - interleaved: At least `frames * channels` samples, nominally in -1...1 (values outside
  ///     are clipped by integer codecs).
  ///   - frames: The frames to take; `0` does nothing.
  /// - Throws: `MediaError` with kind `.invalidArgument` when `interleaved` is too short (the
  ///   output file is then removed and the encoder unusable, as after any failed write) or the
  ///   encoder is already finished, `.outputFailed` when encoding or writing fails.
  public mutating func write(_ interleaved: [Float], frames: Int) throws(MediaError) {
    guard !done && !failed else {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder.write",
        detail: "the encoder for '\(path)' is finished or failed")
    }
    guard frames >= 0, frames <= interleaved.count / channels else {
      fail()
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder.write",
        detail:
          "\(frames) frames of \(channels) channels need more than the \(interleaved.count) samples given"
      )
    }
    if frames == 0 { return }
    let sink = sink
    do throws(MediaError) {
      try interleaved.withUnsafeBufferPointer { (samples) throws(MediaError) in
        switch sink {
        case .wave(let writer): try writer.write(samples.baseAddress, frames: frames)
        case .ffmpeg(let encoder): try encoder.write(samples.baseAddress, frames: frames)
        }
      }
    } catch {
      fail()
      throw error
    }
  }

  /// Flushes the resampler and the encoder and writes the container trailer. The file is
  /// complete once this returns. With no frames written, a `.wav` or `.flac` file holds an
  /// empty track; the other containers get no playable track (as FFmpeg's own tool writes them),
  /// so write at least one frame, or ``abandon()`` instead.
  ///
  /// - Throws: `MediaError` with kind `.outputFailed` when the trailer cannot be written (the
  ///   output file is then removed), `.invalidArgument` if already finished or failed.
  public mutating func finish() throws(MediaError) {
    guard !done && !failed else {
      throw MediaError(
        kind: .invalidArgument, operation: "AudioEncoder.finish",
        detail: "the encoder for '\(path)' is finished or failed")
    }
    do throws(MediaError) {
      switch sink {
      case .wave(let writer): try writer.finish()
      case .ffmpeg(let encoder): try encoder.finish()
      }
      done = true
    } catch {
      fail()
      throw error
    }
  }

  /// Gives up: closes and removes the output file (a caller's descriptor stays open and its
  /// file stays: see ``init(fileDescriptor:name:sampleRate:channels:bitRate:channelMask:)``).
  public consuming func abandon() {
    discard()
  }

  private mutating func fail() {
    failed = true
    discard()
  }

  private func discard() {
    switch sink {
    case .wave(let writer): writer.discard()
    case .ffmpeg(let encoder): encoder.discard()
    }
  }
}
