import SubtitleParser

// Fuzzes the cue-text tokenizer and tree builder (tags, classes, timestamps, references).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCueText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = WebVTT.parseCueText(bytes[...])
  return 0
}
