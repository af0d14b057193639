import SubtitleParser

// Fuzzes WebVTT file parsing and cue-text tree building for every cue found.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebVTT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let document = try? WebVTT.parse(bytes) else { return 0 }
  for cue in document.cues {
    precondition(cue.textRange.upperBound <= document.text.count, "cue text out of range")
    _ = document.cueTree(of: cue)
    _ = document.plainText(of: cue)
  }
  return 0
}
