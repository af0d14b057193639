import SubtitleParser

// Fuzzes SRT parsing through the format- and encoding-detecting entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSRT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let document = try? SubRip.parse(bytes) {
    for cue in document.cues {
      precondition(cue.textRange.upperBound <= document.text.count, "cue text out of range")
      _ = document.cueTree(of: cue)
    }
  }
  _ = try? SubtitleFile.parse(bytes)
  return 0
}
