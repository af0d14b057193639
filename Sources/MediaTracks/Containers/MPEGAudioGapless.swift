/// The length of a raw MPEG audio layer III stream that states its encoder delay and padding:
/// the LAME tag after the Xing or Info header in its first frame (written by LAME and by
/// FFmpeg's `libmp3lame` encoder, "Lavc"/"Lavf"). The decoder drops those samples (FFmpeg 5.1
/// does), so the audio lasts the frames' samples less them; FFmpeg 5.1 states the frames'
/// samples alone (a second of LAME CBR is listed at 1.071 s, and decodes to 1.000 s).
enum MPEGAudioGapless {
  /// Seconds of audio in `source`: the Xing or Info header's frame count times the samples per
  /// frame, less the LAME tag's delay and padding, over the sample rate; `nil` when the first
  /// frame (after any ID3v2 tag) holds no such header, states no frame count, or its tag is
  /// not LAME's.
  static func seconds(_ source: any ByteSource) -> Double? {
    statedLength(source)?.length.seconds
  }

  /// The audio the first frame's Xing or Info header and LAME tag state (see
  /// ``seconds(_:)``) in samples at the stream's rate, with the frame count it is stated for;
  /// `nil` where ``seconds(_:)`` is.
  static func statedLength(_ source: any ByteSource) -> (length: MediaLength, frames: Int)? {
    guard let header = xingHeader(source), let delayPadding = header.delayPadding else {
      return nil
    }
    let samples =
      header.frames * header.frameSamples - (delayPadding >> 12) - (delayPadding & 0xFFF)
    guard header.frames > 0, samples > 0, header.sampleRate > 0 else { return nil }
    return (MediaLength(units: Int64(samples), timescale: header.sampleRate), header.frames)
  }

  /// The audio of a raw MPEG audio stream whose LAME tag states its length (see
  /// ``statedLength(_:)``) when its frames, walked (`walk`, or walked here when nil), are the
  /// frames the tag counts and at most ``strayFrames`` more: bytes after them (damage, an
  /// unknown tag, garbage that happens to start like a frame) are not audio, and the
  /// decoder's output ends at the stated length. `nil` when the stream states no such length,
  /// holds fewer frames than it states (a cut file), or many more (files joined end to end,
  /// whose later audio the decoder gives too).
  static func endsAtStatedFrames(_ source: any ByteSource, walk: ElementaryFrames.Walk? = nil)
    -> MediaLength?
  {
    guard let stated = statedLength(source) else { return nil }
    // A file that ends where its header says (or with a tag after that) is not walked.
    if walk == nil && endsAsStated(source) { return stated.length }
    guard let walk = walk ?? ElementaryFrames.walk(source, kind: .mpegAudio),
      (stated.frames...(stated.frames + strayFrames)).contains(walk.frames)
    else { return nil }
    return stated.length
  }

  /// Whether `source` ends where the bytes its Xing or Info header states end (from the
  /// header's own frame on), or only an ID3v1, APEv2, Lyrics3 or ID3v2 tag follows there: then
  /// the stream is whole and nothing but a tag is after it, and its frames need no walk.
  /// `false` without a stated byte count.
  static func endsAsStated(_ source: any ByteSource) -> Bool {
    guard let bytes = xingHeader(source)?.bytes else { return false }
    let end = ElementaryFrames.id3v2Length(source) + Int64(bytes)
    if source.size == end { return true }
    guard source.size > end else { return false }
    let after = source.bytes(at: end, count: 11)
    return ["TAG", "APETAGEX", "LYRICSBEGIN", "ID3"].contains {
      after.starts(with: Array($0.utf8))
    }
  }

  /// The most frames past those a LAME tag counts that are taken for garbage that starts like
  /// frames rather than for audio joined on: random bytes after a file held one such "frame"
  /// in tries; a second file joined on holds dozens (38 in a second of audio).
  static let strayFrames = 2

  /// Whether the first frame of `source` (after any ID3v2 tag) holds a Xing or Info header
  /// that states a frame count without an encoder's tag after it (GStreamer's `xingmux`
  /// writes such a header). What that count covers is the writer's own: `xingmux` counts its
  /// header's frame too (91 for 90 frames of audio), which no decoder gives, so the length
  /// is the frames the stream holds, walked.
  static func statesFramesWithoutEncoderTag(_ source: any ByteSource) -> Bool {
    guard let header = xingHeader(source) else { return false }
    return header.delayPadding == nil && header.frames > 0
  }

  /// The frames a raw MPEG audio stream holds and the frames its Xing or Info header counts,
  /// when the file does not end where that header says (see ``endsAsStated(_:)``: only then
  /// are the frames walked) and the frames walked fall short of its count by
  /// more than one frame (GStreamer's `xingmux` counts its own) and a hundredth (a damaged
  /// frame header here and there loses a frame): a cut file, whatever follows the cut. `nil` otherwise, and when the header
  /// states no frame count or no byte count.
  static func missingFrames(_ source: any ByteSource) -> (held: Int, stated: Int)? {
    guard let header = xingHeader(source), header.frames > 0, header.bytes != nil,
      !endsAsStated(source),
      let walk = ElementaryFrames.walk(source, kind: .mpegAudio),
      walk.frames + 1 + header.frames / 100 < header.frames
    else { return nil }
    return (walk.frames, header.frames)
  }

  /// The Xing or Info header in the first frame of `source`: its frame count, the bytes it
  /// states (when it does), the samples of one frame and the rate, and the LAME tag's delay
  /// and padding (12 bits each, in one 24-bit value) when an encoder's tag follows (`nil`
  /// otherwise); `nil` when the first frame holds no such header or it states no frame count.
  private static func xingHeader(_ source: any ByteSource) -> (
    frames: Int, bytes: Int?, frameSamples: Int, sampleRate: Int, delayPadding: Int?
  )? {
    let start = ElementaryFrames.id3v2Length(source)
    let bytes = source.bytes(at: start, count: 512)
    guard bytes.count >= 4 else { return nil }
    let header =
      bytes.withUnsafeBufferPointer { all in
        ElementaryFrames.mpegAudioHeader(UnsafeBufferPointer(rebasing: all[0..<4]))
      }.map { (samples: $0.samples, sampleRate: $0.sampleRate) }
      ?? ElementaryFrames.freeFormatHeader(source).map {
        (samples: $0.frameSamples, sampleRate: $0.sampleRate)
      }
    // Layer III only (layer bits 01).
    guard let header, (bytes[1] >> 1) & 3 == 1 else { return nil }
    let mpeg1 = (bytes[1] >> 3) & 3 == 3
    let mono = bytes[3] >> 6 == 3
    // The Xing or Info header follows the side information.
    let sideInfo = mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
    var at = 4 + sideInfo
    guard at + 8 <= bytes.count,
      bytes[at..<(at + 4)].elementsEqual("Xing".utf8)
        || bytes[at..<(at + 4)].elementsEqual("Info".utf8)
    else { return nil }
    let flags = bytes[(at + 4)..<(at + 8)].reduce(0) { $0 << 8 | Int($1) }
    at += 8
    guard flags & 1 != 0, at + 4 <= bytes.count else { return nil }
    let frames = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
    at += 4
    var statedBytes: Int? = nil
    if flags & 2 != 0, at + 4 <= bytes.count {
      statedBytes = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
      at += 4
    }
    if flags & 4 != 0 { at += 100 }  // table of contents
    if flags & 8 != 0 { at += 4 }  // quality
    // The LAME tag: a 9-byte encoder name, then, 21 bytes from its start, the delay and the
    // padding (12 bits each).
    guard at + 24 <= bytes.count,
      ["LAME", "Lavf", "Lavc"].contains(where: { bytes[at..<(at + 4)].elementsEqual($0.utf8) })
    else { return (frames, statedBytes, header.samples, header.sampleRate, nil) }
    let delayPadding = bytes[(at + 21)..<(at + 24)].reduce(0) { $0 << 8 | Int($1) }
    return (frames, statedBytes, header.samples, header.sampleRate, delayPadding)
  }
}
