import SubtitleParser

// Fuzzes SSA/ASS parsing, directly and through the detecting entry point, and builds every
// cue's tree. (The conversions of what it reads, and their stability after one round through
// the neutral model, are the RoundTrip target's: it detects SSA/ASS by content and is seeded
// with the SSA/ASS fixtures too.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSA(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = try? SubtitleFile.parse(bytes)
  guard let document = try? SubtitleFile.parse(bytes, format: .ass) else { return 0 }
  for cue in document.cues {
    precondition(cue.textRange.upperBound <= document.text.count, "cue text out of range")
    _ = document.cueTree(of: cue)
  }
  for format in SubtitleFormat.allCases where format.isWritable {
    _ = document.converted(to: format)
  }
  return 0
}
