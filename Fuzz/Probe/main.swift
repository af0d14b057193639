import MediaTracks

// Probes fuzzed bytes as media through an in-memory reader (no temporary files).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProbe(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = try? MediaProbe.probe(bytes: bytes, name: "fuzz")
  return 0
}
