/// Facts about a media container as a whole.
public struct ContainerInfo: Hashable, Sendable, Codable {
  /// FFmpeg's demuxer name, for example `"matroska,webm"`.
  public var formatName: String
  /// How many streams (of any type) the container holds.
  public var streamCount: Int

  /// Creates a value from its fields.
  public init(formatName: String, streamCount: Int) {
    self.formatName = formatName
    self.streamCount = streamCount
  }
}

/// Entry points for inspecting media files through FFmpeg.
public enum MediaContainer {
  /// Opens `path` (a file path or any URL FFmpeg accepts), reads its headers and returns the
  /// container's format name and stream count. The file is closed before this returns.
  ///
  /// - Parameters:
  ///   - path: The file path or URL.
  ///   - timeout: The longest opening the input may take, in seconds (`nil`:
  ///     ``MediaProbe/defaultTimeout``).
  /// - Throws: `MediaError` with kind `.notFound` for a missing or unreadable input and
  ///   `.malformed` for data FFmpeg cannot demux, and kind `.other` with
  ///   ``MediaError/isTimeout`` when opening took longer than the timeout.
  public static func inspect(path: String, timeout: Double? = nil) throws(MediaError)
    -> ContainerInfo
  {
    let context = try FormatContext(path: path, timeout: timeout)
    return ContainerInfo(formatName: context.formatName, streamCount: context.streamCount)
  }
}
