import SubtitleParser

// Parse (any format, SSA/ASS included), write and parse again, in both writable formats: the
// second write must equal the first (conversion is stable after one round).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let document = try? SubtitleFile.parse(bytes) else { return 0 }
  for format in SubtitleFormat.allCases where format.isWritable {
    let first = document.converted(to: format)
    let written = format == .srt ? first.srt() : first.webVTT()
    // SRT has no header: a document without cues writes nothing, and an empty file is not
    // subtitles (SubtitleError.notSubtitles), as the CLI promises.
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
