import SubtitleParser

// Feeds the input to the incremental WebVTT parser in chunk sizes taken from the input itself
// and checks that the result equals the whole-file parse.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIncremental(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let seed = bytes.first else { return 0 }
  let body = Array(bytes.dropFirst())
  let whole = try? WebVTT.parse(body)
  var parser = WebVTTStreamParser()
  var cues: [Cue] = []
  var failed = false
  var start = 0
  var step = Int(seed % 17) + 1
  do {
    while start < body.count {
      let end = min(body.count, start + step)
      cues += try parser.feed(Array(body[start..<end]))
      start = end
      step = Int(body[end - 1] % 23) + 1
    }
    cues += try parser.finish()
  } catch {
    failed = true
  }
  guard let whole else {
    precondition(failed, "the stream parser accepted a file the whole-file parser rejected")
    return 0
  }
  precondition(!failed, "the stream parser rejected a file the whole-file parser accepted")
  precondition(cues == whole.cues, "stream cues differ from whole-file cues")
  precondition(parser.document == whole, "stream document differs from whole-file document")
  return 0
}
