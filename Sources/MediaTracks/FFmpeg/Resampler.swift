internal import CFFmpeg

/// Owns one `SwrContext` that converts between sample formats, rates and channel layouts.
/// It starts unconfigured; `configure` replaces any earlier configuration.
struct Resampler: ~Copyable {
  private(set) var raw: OpaquePointer? = nil
  /// The input it was configured for, to notice mid-stream changes.
  private(set) var inputFormat: Int32 = -1
  private(set) var inputRate: Int32 = 0
  private(set) var inputChannels: Int32 = 0

  init() {}

  /// Whether it is configured for this input.
  func matches(format: Int32, rate: Int32, channels: Int32) -> Bool {
    raw != nil && inputFormat == format && inputRate == rate && inputChannels == channels
  }

  /// Configures and initialises the resampler.
  /// The corresponding C functions are `swr_alloc_set_opts2` and `swr_init`.
  mutating func configure(
    input layout: UnsafePointer<AVChannelLayout>, format inFormat: AVSampleFormat,
    rate inRate: Int32,
    output outLayout: UnsafePointer<AVChannelLayout>, format outFormat: AVSampleFormat,
    rate outRate: Int32
  ) throws(MediaError) {
    swr_free(&raw)
    var code = swr_alloc_set_opts2(
      &raw, UnsafeMutablePointer(mutating: outLayout), outFormat, outRate,
      UnsafeMutablePointer(mutating: layout), inFormat, inRate, 0, nil)
    if code >= 0, let matrix = Self.mixMatrix(input: layout, output: outLayout) {
      code = matrix.withUnsafeBufferPointer { values in
        guard let base = values.baseAddress else { return 0 }
        return swr_set_matrix(raw, base, layout.pointee.nb_channels)
      }
    }
    if code >= 0 { code = swr_init(raw) }
    if code < 0 { swr_free(&raw) }
    try FFmpegCall.check("swr_init", .other, "cannot configure sample conversion") { code }
    inputFormat = inFormat.rawValue
    inputRate = inRate
    inputChannels = layout.pointee.nb_channels
  }

  /// The mix of a mono input into an output with a front pair, and of a stereo input into mono,
  /// that keeps a sound's level (output rows by input columns), or `nil` to leave the mix to
  /// FFmpeg. A mono input plays at full level on both front channels, as players play it, and
  /// a stereo pair becomes the average of its two channels: FFmpeg 5.1's default matrices put
  /// the mono link of a chained Ogg file (stereo, then mono) 6 dB lower in each channel, and
  /// would raise a stereo pair whose channels agree by 3 dB in mono.
  static func mixMatrix(
    input: UnsafePointer<AVChannelLayout>, output: UnsafePointer<AVChannelLayout>
  ) -> [Double]? {
    let inputs = Int(input.pointee.nb_channels)
    let outputs = Int(output.pointee.nb_channels)
    if inputs == 1, outputs > 1 {
      let left = av_channel_layout_index_from_channel(output, AV_CHAN_FRONT_LEFT)
      let right = av_channel_layout_index_from_channel(output, AV_CHAN_FRONT_RIGHT)
      guard left >= 0, right >= 0 else { return nil }
      var matrix = [Double](repeating: 0, count: outputs)
      matrix[Int(left)] = 1
      matrix[Int(right)] = 1
      return matrix
    }
    if inputs == 2, outputs == 1,
      av_channel_layout_index_from_channel(input, AV_CHAN_FRONT_LEFT) >= 0,
      av_channel_layout_index_from_channel(input, AV_CHAN_FRONT_RIGHT) >= 0
    {
      return [0.5, 0.5]
    }
    return nil
  }

  deinit {
    // Never configured: FFmpeg may not even be loaded.
    guard raw != nil else { return }
    var context = raw
    swr_free(&context)
  }
}

/// A channel layout value that is uninitialised when it goes away.
struct ChannelLayout: ~Copyable {
  var raw = AVChannelLayout()

  /// The native default layout for `channels` channels.
  /// The corresponding C function is `av_channel_layout_default`.
  init(defaultFor channels: Int) {
    av_channel_layout_default(&raw, Int32(channels))
  }

  /// A copy of `layout`; an unspecified layout becomes the default one for its channel count.
  init(copying layout: UnsafePointer<AVChannelLayout>) {
    if layout.pointee.order == AV_CHANNEL_ORDER_UNSPEC || layout.pointee.nb_channels <= 0 {
      av_channel_layout_default(&raw, max(1, layout.pointee.nb_channels))
    } else if av_channel_layout_copy(&raw, layout) < 0 {
      av_channel_layout_default(&raw, layout.pointee.nb_channels)
    }
  }

  /// The native layout of the speakers in `mask` (WAVE/FFmpeg bit order), or the default
  /// layout for `channels` when `mask` is nil or does not name `channels` speakers.
  /// The corresponding C function is `av_channel_layout_from_mask`.
  init(mask: UInt64?, channels: Int) {
    if let mask, mask.nonzeroBitCount == channels, av_channel_layout_from_mask(&raw, mask) == 0 {
      return
    }
    av_channel_layout_default(&raw, Int32(channels))
  }

  /// The speakers of the Vorbis channel mapping for `channels` (1 to 8), which Opus's mapping
  /// family 1 shares: mono, stereo, 3.0, quad, 5.0, 5.1, 6.1 and 7.1, with the rear pair at
  /// the back up to 5.1; `nil` for other counts.
  static func vorbisMask(channels: Int) -> UInt64? {
    let masks: [UInt64] = [0x4, 0x3, 0x7, 0x33, 0x37, 0x3F, 0x70F, 0x63F]
    return (1...masks.count).contains(channels) ? masks[channels - 1] : nil
  }

  /// The speakers as a native-order mask, or nil for a layout that is not one.
  var mask: UInt64? {
    raw.order == AV_CHANNEL_ORDER_NATIVE ? raw.u.mask : nil
  }

  /// FFmpeg's description, for example `"5.1(side)"`.
  /// The corresponding C function is `av_channel_layout_describe`.
  var described: String {
    withUnsafePointer(to: raw) { Self.describe($0) }
  }

  /// FFmpeg's description of `layout`.
  static func describe(_ layout: UnsafePointer<AVChannelLayout>) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    let code = buffer.withUnsafeMutableBufferPointer {
      av_channel_layout_describe(layout, $0.baseAddress, $0.count)
    }
    if code < 0 { return "" }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }

  deinit {
    var copy = raw
    av_channel_layout_uninit(&copy)
  }
}

extension ChannelLayout {
  /// The clean name of FFmpeg's default layout for `channels` (`""` for 0), without loading
  /// FFmpeg: the names `av_channel_layout_default` gives in FFmpeg 5.1.
  static func defaultName(channels: Int) -> String {
    guard channels > 0 else { return "" }
    let described: String
    // FFmpeg's names by channel count, a table: other value tables share its shape only.
    switch channels {
    case 1: described = "mono"
    case 2: described = "stereo"
    case 3: described = "2.1"
    case 4: described = "4.0"
    case 5: described = "5.0"
    case 6: described = "5.1"
    case 7: described = "6.1"
    case 8: described = "7.1"
    case 16: described = "hexadecagonal"
    case 24: described = "22.2"
    default: described = "\(channels) channels"
    }
    return ChannelLayoutName.clean(described, channels: channels)
  }
}
