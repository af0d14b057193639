/// Whether a local file's bytes end before its container says they do: the evidence that a
/// file was cut short (an interrupted download or copy), as opposed to a header that merely
/// states a wrong duration. FFmpeg's demuxers stop quietly at the end of the bytes in these
/// containers, so the decoder gives the audio up to the cut and no error.
///
/// Only byte-level declarations count, never stated durations (fragmented MP4 and some
/// muxers state impossible ones):
/// - Matroska and WebM: the `Segment` element's size (an unknown size, written by a muxer that
///   could not seek back, states nothing).
/// - Ogg: the last page, whose header states its length (RFC 3533), runs past the end of the
///   file.
/// - AIFF and AIFF-C: the `FORM` chunk's size (a streaming placeholder states nothing; see
///   ``AIFFChunks/isPlaceholder(_:)``).
/// - FLAC: a metadata block whose header states more bytes than remain.
///
/// (WAVE's `data` chunk is checked by ``WaveHeader/isTruncated(path:)``, an MP4's index by the
/// decoder, and FLAC's sample count in `STREAMINFO`, which is exact, against the samples
/// decoded.)
enum DeclaredEnd {
  /// Why the bytes of `source` end early, or `nil` when they do not, the container states no
  /// size, or it is not one of those above (told by its first bytes, so a file FFmpeg could
  /// not even open is judged too).
  static func shortfall(_ source: any ByteSource) -> String? {
    let magic = source.bytes(at: 0, count: 4)
    // FLAC may follow an ID3v2 tag.
    if magic.starts(with: Array("ID3".utf8)) {
      let start = ElementaryFrames.id3v2Length(source)
      guard source.bytes(at: start, count: 4) == Array("fLaC".utf8) else { return nil }
      return flacMetadata(source, from: start)
    }
    switch magic {
    case [0x1A, 0x45, 0xDF, 0xA3]: return matroska(source)
    case Array("OggS".utf8): return ogg(source)
    case Array("FORM".utf8): return aiff(source)
    case Array("fLaC".utf8): return flacMetadata(source, from: 0)
    default: return nil
    }
  }

  /// An EBML variable-length integer at `at` in `bytes`: its value (marker bit removed), its
  /// length, and whether every value bit is set (an unknown size). `nil` when none is there.
  static func variableInteger(_ bytes: [UInt8], at: Int) -> (
    value: UInt64, length: Int, unknown: Bool
  )? {
    guard at < bytes.count, bytes[at] != 0 else { return nil }
    let length = bytes[at].leadingZeroBitCount + 1
    guard at + length <= bytes.count else { return nil }
    var value = UInt64(bytes[at] & (0xFF >> length))
    var allOnes = value == UInt64(0xFF >> length)
    for i in 1..<length {
      value = value << 8 | UInt64(bytes[at + i])
      allOnes = allOnes && bytes[at + i] == 0xFF
    }
    return (value, length, allOnes)
  }

  /// Matroska: the EBML header, then the `Segment` element (ID 0x18538067) whose size, when
  /// known, must fit in the file.
  static func matroska(_ source: any ByteSource) -> String? {
    let head = source.bytes(at: 0, count: 4_096)
    guard head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]),
      let header = variableInteger(head, at: 4), !header.unknown,
      header.value < UInt64(head.count)
    else { return nil }
    let segment = 4 + header.length + Int(header.value)
    guard segment >= 0, segment + 4 <= head.count,
      Array(head[segment..<(segment + 4)]) == [0x18, 0x53, 0x80, 0x67],
      let size = variableInteger(head, at: segment + 4), !size.unknown
    else { return nil }
    // (A size beyond any file's is a cut as well; compared without overflowing.)
    let start = Int64(segment + 4 + size.length)
    guard size.value > UInt64(max(0, source.size - start)) else { return nil }
    let end = size.value > UInt64(Int64.max - start) ? Int64.max : start + Int64(size.value)
    return "its Segment element states \(end) bytes; the file holds \(source.size)"
  }

  /// Ogg: the pages of the file's last 64 KiB are walked from the first whole one whose
  /// checksum matches; a last page whose header states more bytes than remain is cut.
  static func ogg(_ source: any ByteSource) -> String? {
    let tailBytes = 65_536
    let start = max(0, source.size - Int64(tailBytes))
    let tail = source.bytes(at: start, count: tailBytes)[...]
    guard !tail.isEmpty else { return nil }
    let sync = Array("OggS".utf8)
    var at = tail.startIndex
    // The first page that is whole and intact: a sync pattern inside a packet's data is not a
    // page. (Where the tail is the whole file, its first page starts it.)
    while start > 0 && at + 27 <= tail.endIndex {
      if tail[at...].starts(with: sync), let page = OggChain.page(in: tail[at...]),
        at + page.size <= tail.endIndex,
        OggChain.checksumMatches(tail[at..<(at + page.size)])
      {
        break
      }
      at += 1
    }
    guard start == 0 || at + 27 <= tail.endIndex else { return nil }
    var serials = Set<UInt32>()
    while at < tail.endIndex {
      guard tail[at...].starts(with: sync.prefix(min(4, tail.endIndex - at))),
        Self.mayStartOggPage(tail[at...], serials: serials)
      else {
        // Bytes after the last page that are no page (a tag some tools append, garbage that
        // starts with the sync pattern): not a cut.
        return nil
      }
      guard let page = OggChain.page(in: tail[at...]) else {
        // A page header cut inside its first 27 bytes or its segment table.
        return "its last page's header is cut \(tail.endIndex - at) bytes in"
      }
      if at + page.size > tail.endIndex {
        return "its last page states \(page.size) bytes; \(tail.endIndex - at) remain"
      }
      serials.insert(page.serial)
      at += page.size
    }
    return nil
  }

  /// Whether the bytes of `head`, as far as they go, can be an Ogg page header following pages
  /// of the streams `serials` (any stream when empty): version 0, no flag bits past the three
  /// defined, and one of those streams' serial numbers.
  static func mayStartOggPage(_ head: ArraySlice<UInt8>, serials: Set<UInt32>) -> Bool {
    let base = head.startIndex
    if head.count > 4 && head[base + 4] != 0 { return false }
    if head.count > 5 && head[base + 5] > 7 { return false }
    if head.count >= 18 && !serials.isEmpty {
      let serial = (14..<18).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32(head[base + $1]) }
      return serials.contains(serial)
    }
    return true
  }

  /// AIFF: the `FORM` chunk's size, unless it is a placeholder; and the chunks inside it up to
  /// the sound data, whose headers and bodies must fit in the file (a streamed file's `SSND`
  /// chunk, of placeholder size, runs to the end).
  static func aiff(_ source: any ByteSource) -> String? {
    let head = source.bytes(at: 0, count: 12)
    guard head.count == 12, head.starts(with: Array("FORM".utf8)),
      head[8..<12].elementsEqual("AIFF".utf8) || head[8..<12].elementsEqual("AIFC".utf8)
    else { return nil }
    let size = head[4..<8].reduce(0) { $0 << 8 | Int($1) }
    if !AIFFChunks.isPlaceholder(size) {
      let end = Int64(8 + size)
      // A writer may count the pad byte after an odd-sized last chunk and leave it out.
      if end > source.size + 1 {
        return "its FORM chunk states \(end) bytes; the file holds \(source.size)"
      }
    }
    var at: Int64 = 12
    while at < source.size {
      let chunk = source.bytes(at: at, count: 8)
      guard chunk.count == 8 else { return "a chunk header is cut \(chunk.count) bytes in" }
      let length = chunk[4..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
      if chunk[0..<4].elementsEqual("SSND".utf8) {
        return !AIFFChunks.isPlaceholder(Int(length)) && at + 8 + length > source.size
          ? "its sound data states \(length) bytes; the file ends before them" : nil
      }
      if at + 8 + length > source.size {
        return "a chunk states \(length) bytes; the file ends before them"
      }
      at += 8 + length + (length & 1)
    }
    return nil
  }

  /// A native FLAC file's sample count and rate as its `STREAMINFO` block states them (the
  /// count is exact: the encoder writes it back when it finishes). `nil` when `source` is no
  /// FLAC file or states no count (0: an encoder writing to a pipe).
  static func flacSamples(_ source: any ByteSource) -> (samples: Int64, rate: Int)? {
    let head = source.bytes(at: ElementaryFrames.id3v2Length(source), count: 42)
    // "fLaC" (after any ID3v2 tag), a metadata block header whose type is STREAMINFO (0),
    // then its 34 bytes.
    guard head.count == 42, head.starts(with: Array("fLaC".utf8)), head[4] & 0x7F == 0 else {
      return nil
    }
    let info = Array(head[8...])
    let rate = Int(info[10]) << 12 | Int(info[11]) << 4 | Int(info[12]) >> 4
    let samples =
      Int64(info[13] & 0x0F) << 32 | info[14..<18].reduce(Int64(0)) { $0 << 8 | Int64($1) }
    guard rate > 0, samples > 0 else { return nil }
    return (samples, rate)
  }

  /// A raw MPEG audio or ADTS stream (FFmpeg's `mp3` and `aac` formats) whose last frame runs
  /// past the end of the file: encoders write whole frames, so a frame cut off is a cut file.
  /// The frames of the last 16 KiB are followed from the first one the next frame confirms
  /// (with the stream fields of the file's first frame); bytes after the last whole frame that
  /// start no frame (an ID3v1 or APE tag) are no cut, nor is anything after the frames an MP3's
  /// LAME tag counts when they are all there (see ``MPEGAudioGapless/endsAtStatedFrames(_:walk:)``:
  /// trailing garbage that starts like a frame).
  ///
  /// An MPEG audio stream whose Xing or Info header states other bytes than the file holds and
  /// more frames than it walks is cut too, whatever follows the cut (see
  /// ``MPEGAudioGapless/missingFrames(_:)``: garbage after a cut hides the cut frame).
  static func elementary(_ source: any ByteSource, kind: ElementaryFrames.Kind) -> String? {
    guard kind == .mpegAudio else { return lastFrameCut(source, kind: kind) }
    if let cut = lastFrameCut(source, kind: kind) {
      return MPEGAudioGapless.endsAtStatedFrames(source) == nil ? cut : nil
    }
    if let missing = MPEGAudioGapless.missingFrames(source) {
      return "its Xing header counts \(missing.stated) frames; \(missing.held) are there"
    }
    return nil
  }

  /// Why the last frame of a raw MPEG audio or ADTS stream is cut (see ``elementary(_:kind:)``),
  /// from its last 16 KiB alone.
  private static func lastFrameCut(_ source: any ByteSource, kind: ElementaryFrames.Kind)
    -> String?
  {
    let headerBytes = kind == .adts ? 7 : 4
    func header(_ bytes: [UInt8], _ at: Int) -> ElementaryFrames.Header? {
      guard at >= 0, at + headerBytes <= bytes.count else { return nil }
      return bytes.withUnsafeBufferPointer { all in
        let b = UnsafeBufferPointer(rebasing: all[at..<(at + headerBytes)])
        return kind == .adts ? ElementaryFrames.adtsHeader(b) : ElementaryFrames.mpegAudioHeader(b)
      }
    }
    /// The first frame in `bytes` that the frame after it confirms (the same stream fields as
    /// `key`'s, any when nil).
    func firstConfirmed(_ bytes: [UInt8], key: UInt32?) -> (at: Int, key: UInt32)? {
      for at in bytes.indices where bytes[at] == 0xFF {
        guard let h = header(bytes, at), key == nil || h.key == key,
          let next = header(bytes, at + h.length), next.key == h.key
        else { continue }
        return (at, h.key)
      }
      return nil
    }
    let audioStart = ElementaryFrames.id3v2Length(source)
    guard let first = firstConfirmed(source.bytes(at: audioStart, count: 16_384), key: nil)
    else { return nil }
    let tailStart = max(audioStart, source.size - 16_384)
    let tail = source.bytes(at: tailStart, count: 16_384)
    guard var at = firstConfirmed(tail, key: first.key)?.at else { return nil }
    while let h = header(tail, at), h.key == first.key {
      if at + h.length > tail.count {
        return "its last frame holds \(tail.count - at) of its \(h.length) bytes"
      }
      at += h.length
    }
    // A frame header cut inside its first bytes.
    if at < tail.count && tail.count - at < headerBytes && tail[at] == 0xFF {
      return "its last frame's header is cut \(tail.count - at) bytes in"
    }
    return nil
  }

  /// FLAC: the metadata blocks after `fLaC` (at `start`), each with a 4-byte header stating
  /// its length, up to the one marked last; one that runs past the end of the file is cut.
  static func flacMetadata(_ source: any ByteSource, from start: Int64) -> String? {
    var at = start + 4
    // (At most 1,024 blocks: a file of millions of empty ones is not walked.)
    for _ in 0..<1024 {
      let header = source.bytes(at: at, count: 4)
      guard header.count == 4 else {
        return "its metadata ends \(source.size - at) bytes into a block header"
      }
      let length = Int64(header[1]) << 16 | Int64(header[2]) << 8 | Int64(header[3])
      at += 4 + length
      if at > source.size {
        return "a metadata block states \(length) bytes; the file ends before them"
      }
      if header[0] & 0x80 != 0 { return nil }
    }
    return nil
  }
}
