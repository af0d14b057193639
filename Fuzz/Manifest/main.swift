import MediaTracks

// Fuzzes the HLS master playlist and DASH manifest parsers and their mapping to tracks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let playlist = try? HLSPlaylist(bytes: bytes) {
    _ = ManifestParser.info(path: "fuzz.m3u8", hls: playlist)
  }
  if let manifest = try? DASHManifest(bytes: bytes) {
    _ = ManifestParser.info(path: "fuzz.mpd", dash: manifest)
  }
  return 0
}
