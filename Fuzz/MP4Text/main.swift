import SubtitleParser

// Fuzzes the readers of subtitle samples in MP4 (ISO/IEC 14496-30): the input is cut into
// samples at each 0xFF byte; every sample is read as WebVTT boxes (wvtt) and all of them as a
// wvtt track and as a TTML (stpp) track. A bad sample must be a typed error; a document's cues
// must lie in its text, be ordered in time and read as trees.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4Text(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var samples: [SubtitleSample] = []
  for (index, part) in bytes.split(separator: 0xFF, omittingEmptySubsequences: false).enumerated() {
    let duration: Double? = index % 3 == 2 ? nil : Double(index % 4)
    samples.append(SubtitleSample(startTime: Double(index), duration: duration, bytes: Array(part)))
    _ = try? MP4WebVTT.cues(inSample: Array(part))
  }
  let configuration = samples.first.map(\.bytes) ?? []
  for document in [
    try? MP4WebVTT.document(samples: samples, configuration: configuration),
    try? TTML.document(samples: samples),
  ] {
    guard let document else { continue }
    for cue in document.cues {
      precondition(cue.textRange.upperBound <= document.text.count, "cue text out of range")
      precondition(cue.idRange.upperBound <= document.text.count, "cue id out of range")
      precondition(cue.startTime <= cue.endTime, "a cue ends before it begins")
      _ = document.cueTree(of: cue)
    }
  }
  return 0
}
