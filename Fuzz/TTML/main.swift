import SubtitleParser

// Fuzzes TTML reading (its XML reader, the timing model, styles and regions), directly and
// through the detecting entry point; every cue's text must lie in the document and read as a
// tree, its times must be ordered, and its conversions must not fail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTTML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = try? SubtitleFile.parse(bytes)
  guard let document = try? SubtitleFile.parse(bytes, format: .ttml) else { return 0 }
  for cue in document.cues {
    precondition(cue.textRange.upperBound <= document.text.count, "cue text out of range")
    precondition(cue.startTime <= cue.endTime, "a cue ends before it begins")
    _ = document.cueTree(of: cue)
  }
  for format in SubtitleFormat.allCases where format.isWritable {
    _ = document.converted(to: format)
  }
  return 0
}
