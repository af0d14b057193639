import SubtitleParser

// Fuzzes SSA/ASS parsing (directly and through the detecting entry point) and its conversions:
// every cue's tree is built, and the document converted to each writable format, written,
// parsed and written again must give the same bytes (stable after one round through the
// neutral model).
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
    let first = document.converted(to: format)
    let written = format == .srt ? first.srt() : first.webVTT()
    if format == .srt && first.cues.isEmpty {
      precondition(written.isEmpty, "an SRT file without cues holds bytes")
      continue
    }
    guard let reparsed = try? SubtitleFile.parse(written, format: format) else {
      preconditionFailure("a written \(format) file does not parse")
    }
    precondition(reparsed.cues.count == first.cues.count, "cue count changed in a round trip")
    let rewritten = format == .srt ? reparsed.srt() : reparsed.webVTT()
    precondition(rewritten == written, "writing is not stable after a round trip")
  }
  return 0
}
