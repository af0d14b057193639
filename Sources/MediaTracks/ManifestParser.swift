/// Reads the audio and subtitle renditions of HLS master playlists and DASH manifests.
public enum ManifestParser {
  /// Parses `path` when its extension is `.m3u8` (HLS) or `.mpd` (DASH); `nil` otherwise.
  static func parseIfManifest(path: String) throws(MediaError) -> MediaInfo? {
    nil
  }
}
