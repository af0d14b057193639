internal import CFFmpeg

extension FormatContext {
  /// The start (seconds) and frame count of the last block of Matroska track `index`, read
  /// from the clusters at the end of the file (see ``MatroskaBlocks/lastBlocks(_:)``); `nil`
  /// for other containers, remote inputs, codecs whose frames are not all one length (only
  /// AAC, MPEG audio, AC-3 and E-AC-3 are taken), and when it is not found.
  func matroskaLastBlock(ofStream index: Int, declared: DeclaredStream?)
    -> (start: Double, frames: Int)?
  {
    let fixedFrames = [
      AV_CODEC_ID_AAC, AV_CODEC_ID_MP3, AV_CODEC_ID_MP2, AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3,
    ]
    guard formatName.hasPrefix("matroska"), !isRemote, let source = byteSource,
      let codec = stream(at: index).pointee.codecpar?.pointee.codec_id,
      fixedFrames.contains(codec),
      let number = declared?.trackNumber, number > 0,
      let last = MatroskaBlocks.lastBlocks(source)[number]
    else { return nil }
    return (Double(last.ticks) * av_q2d(stream(at: index).pointee.time_base), last.frames)
  }

  /// Where a Matroska track's audio ends when its stated duration (`stated`, seconds) falls
  /// inside its last block's last frame (`frameSeconds` long): what the frame holds past it is
  /// the encoder's padding, which the decoder gives whole. FFmpeg's muxer states AAC's length
  /// from 0 as its input's plus the 1,024 samples of encoder delay (3.023 s for 3 s at
  /// 44.1 kHz) and writes whole frames, which decode to 3.042 s; mkvmerge and GStreamer state
  /// the whole frames. `nil` when the last block ends no more than a timestamp unit (`tick`,
  /// seconds) past the stated duration (which is then the blocks' end, rounded: mkvmerge's
  /// 3.041218 s for 3.041814), or a frame or more past it: the stated duration is then not
  /// the audio's end, and the decode stands.
  static func matroskaPaddedEnd(
    stated: Double, lastBlock: (start: Double, frames: Int), frameSeconds: Double,
    tick: Double, rate: Int
  ) -> MediaLength? {
    guard stated > 0, frameSeconds > 0, rate > 0 else { return nil }
    let end = lastBlock.start + Double(lastBlock.frames) * frameSeconds
    guard end - stated > tick, end - stated < frameSeconds else { return nil }
    return MediaLength(units: Int64((stated * Double(rate)).rounded()), timescale: rate)
  }
}
