/// Facts about a media container as a whole.
public struct ContainerInfo: Hashable, Sendable, Codable {
  /// FFmpeg's demuxer name, for example `"matroska,webm"` (as `MediaInfo.demuxerName`).
  public var demuxerName: String
  /// How many streams (of any type) the container holds.
  public var streamCount: Int

  /// FFmpeg's demuxer name.
  @available(*, deprecated, renamed: "demuxerName")
  public var formatName: String {
    get { demuxerName }
    set { demuxerName = newValue }
  }

  // Encoded under the key it always had.
  private enum CodingKeys: String, CodingKey {
    case demuxerName = "formatName"
    case streamCount
  }

  /// Creates a value from its fields (a public type's memberwise initialiser is written out).
  public init(demuxerName: String, streamCount: Int) {
    self.demuxerName = demuxerName
    self.streamCount = streamCount
  }

  /// Creates a value from its fields; `formatName` is FFmpeg's demuxer name.
  @available(*, deprecated, renamed: "init(demuxerName:streamCount:)")
  public init(formatName: String, streamCount: Int) {
    self.init(demuxerName: formatName, streamCount: streamCount)
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
    return ContainerInfo(demuxerName: context.formatName, streamCount: context.streamCount)
  }
}
