/// Random access to the bytes of one input, whatever holds them: what the manifest parsers, the
/// container-declaration readers and the Swift WAVE reader read, and what recognises an input
/// by its content (``InputSignature``).
///
/// Each kind of input is one conformer: ``FileBytes`` for a local regular file and
/// ``MemoryBytes`` for bytes in memory (a named pipe is read whole into one). A remote input is
/// a new conformer and nothing else: an HTTP source answers ``size`` from the response's
/// `Content-Length` (or `Content-Range`) and ``read(into:at:)`` with one range request
/// (`Range: bytes=offset-…`), mapping a failed request to a ``MediaError``; every parser above
/// then reads a remote manifest or media header unchanged, and no parser code is added for it.
///
/// Conformers are read from one thread at a time; a read does not move any shared position.
protocol ByteSource {
  /// What errors name the input by: the path as given, or the label of bytes in memory.
  var name: String { get }

  /// The input's size in bytes, as it was when the source was made.
  var size: Int64 { get }

  /// Reads up to `buffer.count` bytes starting at byte `offset` into `buffer`.
  ///
  /// - Returns: The number of bytes read: fewer than `buffer.count` only at the end of the
  ///   input, `0` at or past it.
  /// - Throws: `MediaError` of kind `.notFound` when the input cannot be read (its `code` is the
  ///   negated `errno` for a local file).
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(MediaError)
    -> Int
}

extension ByteSource {
  /// Up to `count` bytes from byte `offset`: fewer at the end of the input, and only those read
  /// before a failure when a read fails (the declaration readers take what there is).
  func bytes(at offset: Int64, count: Int) -> [UInt8] {
    guard offset >= 0, offset < size, count > 0 else { return [] }
    let count = Int(min(Int64(count), size - offset))
    var result = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = result.withUnsafeMutableBytes { buffer -> Int in
        let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
        return (try? read(into: rest, at: offset + Int64(filled))) ?? 0
      }
      if got <= 0 { break }
      filled += got
    }
    result.removeLast(count - filled)
    return result
  }

  /// The whole input: its first ``size`` bytes (fewer when it has shrunk since).
  /// - Throws: The source's error when a read fails.
  func contents() throws(MediaError) -> [UInt8] {
    var result = [UInt8](repeating: 0, count: Int(size))
    var failure: MediaError? = nil
    let got = result.withUnsafeMutableBytes { buffer -> Int in
      do throws(MediaError) {
        return try read(into: buffer, at: 0)
      } catch {
        failure = error
        return 0
      }
    }
    if let failure { throw failure }
    result.removeLast(result.count - got)
    return result
  }

  /// Up to the first `count` bytes of the input (by default 64 KiB, enough for any signature
  /// and a WAVE header).
  func head(_ count: Int = 65_536) -> ArraySlice<UInt8> {
    bytes(at: 0, count: count)[...]
  }

  /// The first bytes that tell what the input is (``InputSignature``): the first 512 bytes
  /// when they cannot start a playlist or an XML document (media), else up to the first
  /// 64 KiB (where an `MPD` element may stand after comments).
  func signatureHead() -> ArraySlice<UInt8> {
    let first = head(512)
    let start = first.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }
    guard let lead = start.first, lead == UInt8(ascii: "#") || lead == UInt8(ascii: "<"),
      first.count == 512
    else { return first }
    return head()
  }
}
