/// What a container's own headers declare about one stream: the MP4 sample entry, the MPEG-TS
/// stream type and descriptors, the Matroska `CodecID`. FFmpeg guesses some codecs from the
/// bytes (an MPEG-H stream in MPEG-TS reads as MP3 to FFmpeg 5.1), and has no name for others;
/// the declaration is what the muxer wrote.
struct DeclaredStream: Hashable {
  /// The codec in FFmpeg's vocabulary where FFmpeg has a name for it (`"eac3"`, `"mp2"`,
  /// `"mpegh_3d_audio"`), else a short lowercase name (`"ac4"`, `"iamf"`, `"dts_uhd"`); `nil`
  /// when the declaration names no codec this module knows, or names a family (MPEG audio of
  /// any layer) that only the bitstream tells apart.
  var codec: String?
  /// The declaration as found: the sample entry's four-character code (`"ec-3"`, `"enca"`),
  /// the stream type (`"stream_type 0x2d"`), or the `CodecID` (`"A_AC3"`).
  var tag: String
  /// A profile the declaration or the stream's first bytes state (`"DTS-HD"`), or `nil`.
  var profile: String? = nil
  /// The Matroska `TrackType` (1 video, 2 audio, 0x11 subtitles, 0x21 metadata), else `0`.
  var trackType = 0
  /// The track's duration in seconds from its fragments (a fragmented MP4: the last
  /// fragment's end less the first one's start), or `nil`.
  var fragmentsDuration: Double? = nil
  /// A fragmented MP4 track's bit rate over its fragments (their samples' bytes over their
  /// span), in bit/s; FFmpeg 5.1 divides the samples of the fragments it read while opening
  /// by the length a `sidx` states, which was 6 times too low for 3 s in 0.5 s fragments.
  var fragmentsBitRate: Int? = nil
  /// An MP4 audio track's presented length, in its media timescale (see
  /// ``MP4Declarations/presentedLength(_:trak:movieTimescale:)``), or `nil`.
  var presentedLength: MediaLength? = nil
  /// The position of a Matroska `TrackEntry` in `Tracks`, from 0.
  var position = 0
  /// A Matroska track's `TrackNumber` (what its blocks name it by), else `0`.
  var trackNumber = 0
  /// A Matroska track's `DefaultDuration` in seconds (the length of each frame), or `nil`.
  var frameDuration: Double? = nil
  /// Whether the track is usable: `false` for a Matroska track whose `FlagEnabled` is 0, which
  /// FFmpeg 5.1 does not read (a disabled track keeps its `default` disposition).
  var enabled = true
  /// Whether the stream is encrypted (an `enca`/`encv` sample entry, a Matroska content
  /// encryption).
  var encrypted = false
  /// Whether a Matroska track's blocks are zlib-compressed (a `ContentCompression` of
  /// `ContentCompAlgo` 0): FFmpeg inflates the block data, not what travels beside it.
  var zlibCompressed = false
  /// Whether the stream's bytes are scrambled (MPEG-TS): what FFmpeg read from them (rate,
  /// channels) is a misreading.
  var scrambled = false
  /// Whether FFmpeg 5.1 has no decoder for the declared codec at all.
  var noDecoder = false
  /// A Matroska WebVTT track's kind from its `CodecID` (`D_WEBVTT/CAPTIONS`), or `nil`.
  var subtitleKind: SubtitleKind? = nil
  /// The language the container states as a BCP 47 tag (Matroska's `LanguageBCP47`, which
  /// FFmpeg 5.1 does not read: `fr-CA` where FFmpeg gives `fre`), or `nil`.
  var language: String? = nil
  /// An MP4 `wvtt` sample entry's `vttC` box body (the WebVTT file header), or `nil`.
  var textConfiguration: [UInt8]? = nil
  /// Whether the first frames of an MPEG audio stream differ in bit rate (VBR): what FFmpeg
  /// states without reading the stream through is one frame's rate, not the track's.
  var variableBitRate = false
  /// The sample rate in Hz the declaration states (a DVD LPCM header), or `nil`.
  var sampleRate: Int? = nil
  /// The channel count the declaration states (a DVD LPCM header), or `nil`.
  var channels: Int? = nil
  /// The bits per sample the declaration states (a DVD LPCM header), or `nil`.
  var bitsPerSample: Int? = nil
  /// Whether the packets FFmpeg's demuxer gives for the stream are those of the declared
  /// codec whatever codec FFmpeg named (MPEG-PS LPCM, whose packets keep their LPCM header
  /// when a program stream map names another codec): its decoder reads them.
  var decodesAsDeclared = false
  /// The bytes at the start of each packet FFmpeg's demuxer gives for the stream that the
  /// declared codec's decoder does not read, skipped before decoding: VLC 3's LPCM in MPEG-TS
  /// keeps the DVD header's frame count and first access unit pointer (3 bytes), which FFmpeg's
  /// program stream demuxer drops before its LPCM decoder reads the rest.
  var packetHeaderBytes = 0
}

/// A length in units of a timescale: `units / timescale` seconds, exactly.
struct MediaLength: Hashable, Sendable {
  /// The length in timescale units (samples, for an audio track whose timescale is its rate).
  var units: Int64
  /// The units per second (Hz); always positive.
  var timescale: Int

  /// The length in seconds.
  var seconds: Double { Double(units) / Double(timescale) }

  /// The length in frames at `rate` Hz, rounded to the nearest frame.
  func frames(atRate rate: Int) -> Int64 {
    guard rate != timescale else { return units }
    let frames = (Double(units) * Double(rate) / Double(timescale)).rounded()
    return frames < 0x1p62 ? Int64(max(0, frames)) : 1 << 62
  }
}

/// Reads the codec declarations of MP4, MPEG-TS and Matroska headers, keyed by the id FFmpeg
/// gives the stream (`AVStream.id`: the MP4 track ID, the MPEG-TS PID, the Matroska track
/// number).
enum ContainerDeclarations {
  /// The declarations of the container `format` (FFmpeg's demuxer name), or an empty table for
  /// other formats and for headers that cannot be read.
  static func read(format: String, from source: some ByteSource) -> [Int: DeclaredStream] {
    if format.hasPrefix("mov") { return MP4Declarations.read(source) }
    if format == "mpegts" { return TSDeclarations.read(source) }
    if format.hasPrefix("matroska") { return MatroskaDeclarations.read(source) }
    if format == "mpeg" { return PSDeclarations.read(source) }
    return [:]
  }

  /// The codecs FFmpeg 5.1 has no decoder for, by the names used here.
  static let withoutDecoder: Set<String> = ["mpegh_3d_audio", "ac4", "iamf", "dts_uhd"]

  /// The subtitle codecs of the declarations, by the names used here.
  static let subtitleCodecs: Set<String> = [
    "webvtt", "mov_text", "ttml", "eia_608", "dvb_subtitle", "dvb_teletext", "hdmv_pgs_subtitle",
    "subrip", "ass", "ssa", "dvd_subtitle", "hdmv_text_subtitle", "kate", "arib_caption",
  ]

  /// Readable names of codecs, for messages.
  static func displayName(_ codec: String) -> String {
    switch codec {
    case "mpegh_3d_audio": return "MPEG-H 3D Audio"
    case "ac4": return "AC-4"
    case "iamf": return "IAMF"
    case "dts_uhd": return "DTS-UHD (DTS:X)"
    case "dts": return "DTS"
    case "eac3": return "E-AC-3"
    case "ac3": return "AC-3"
    case "mp2": return "MPEG-1 Audio Layer II"
    case "mp3": return "MP3"
    case "aac": return "AAC"
    case "pcm_dvd": return "DVD LPCM"
    case "wavpack": return "WavPack"
    default: return codec
    }
  }

  /// Whether FFmpeg's codec name `ffmpeg` agrees with the declared `codec`: the same codec, or
  /// one of a family whose members only the bitstream tells apart (`pcm_s16le` for `pcm`, the
  /// MPEG audio layers, AC-3 and E-AC-3, a TrueHD stream's AC-3 core).
  static func agrees(declared codec: String, ffmpeg: String) -> Bool {
    if codec == ffmpeg { return true }
    if codec == "pcm" || codec.hasPrefix("pcm_") { return ffmpeg.hasPrefix("pcm_") }
    let families: [Set<String>] = [
      ["aac", "aac_latm"], ["ac3", "eac3"], ["mp1", "mp2", "mp3"], ["truehd", "mlp", "ac3"],
      ["amr_nb", "amr_wb"],
    ]
    return families.contains { $0.contains(codec) && $0.contains(ffmpeg) }
  }

  /// The MPEG audio layers' codec names: a container that names one declares the layer (a
  /// Matroska CodecID, a QuickTime sample entry, the frame header of an MPEG-TS stream).
  static let mpegAudioLayers: Set<String> = ["mp1", "mp2", "mp3"]

  /// The layer of an MPEG audio frame header (`"mp1"`, `"mp2"`, `"mp3"`) at the start of
  /// `bytes` (after at most 64 bytes of anything else), or `nil` when none is found.
  static func mpegAudioLayer(_ bytes: [UInt8]) -> String? {
    var index = 0
    while index + 1 < min(bytes.count, 66) {
      if bytes[index] == 0xFF, bytes[index + 1] & 0xE0 == 0xE0 {
        switch (bytes[index + 1] >> 1) & 3 {
        case 1: return "mp3"
        case 2: return "mp2"
        case 3: return "mp1"
        default: break
        }
      }
      index += 1
    }
    return nil
  }

  /// MPEG audio bit rates in kbit/s by bit-rate index 1...14: MPEG-1 layers I, II, III, then
  /// MPEG-2 and 2.5 layer I, and layers II and III.
  static let mpegAudioBitRateTables: [[Int]] = [
    [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ]
  /// MPEG-1 sample rates by sample-rate index (MPEG-2 halves them, MPEG-2.5 quarters them).
  static let mpegAudioSampleRates = [44100, 48000, 32000]

  /// The bit rates (bits per second) of the consecutive MPEG audio frames at the start of
  /// `bytes` (the first frame header within 64 bytes, then each frame's length to the next),
  /// up to the first that is cut off or not a header of the same version, layer and rate;
  /// empty when none is found or the first is free-format.
  static func mpegAudioBitRates(_ bytes: [UInt8]) -> [Int] {
    let tables = mpegAudioBitRateTables
    var start = 0
    while start + 1 < min(bytes.count, 66), !(bytes[start] == 0xFF && bytes[start + 1] >= 0xE0) {
      start += 1
    }
    guard start + 3 < bytes.count else { return [] }
    // The fixed part of the first header: sync, version, layer, and sample-rate index.
    let fixed = (bytes[start + 1], bytes[start + 2] & 0x0C)
    var rates: [Int] = []
    var at = start
    while at + 3 < bytes.count, bytes[at] == 0xFF, bytes[at + 1] == fixed.0,
      bytes[at + 2] & 0x0C == fixed.1
    {
      let version = (bytes[at + 1] >> 3) & 3  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
      let layer = (bytes[at + 1] >> 1) & 3  // 3: I, 2: II, 1: III
      let rateIndex = Int(bytes[at + 2] >> 4)
      let sampleIndex = Int((bytes[at + 2] >> 2) & 3)
      guard version != 1, layer != 0, (1...14).contains(rateIndex), sampleIndex < 3 else { break }
      let mpeg1 = version == 3
      let table = mpeg1 ? 3 - Int(layer) : (layer == 3 ? 3 : 4)
      let bitRate = tables[table][rateIndex - 1] * 1000
      let sampleRate =
        mpegAudioSampleRates[sampleIndex] >> (mpeg1 ? 0 : version == 2 ? 1 : 2)
      let padding = Int((bytes[at + 2] >> 1) & 1)
      let length =
        layer == 3
        ? (12 * bitRate / sampleRate + padding) * 4
        : (layer == 1 && !mpeg1 ? 72 : 144) * bitRate / sampleRate + padding
      rates.append(bitRate)
      at += length
    }
    return rates
  }

  /// What the sync words at the start of a DTS stream's bytes say: `"dts_uhd"` for DTS-UHD,
  /// `"DTS-HD"` (a profile) when an extension substream is present, else `nil`.
  static func dtsVariant(_ bytes: [UInt8]) -> String? {
    var hasSubstream = false
    var index = 0
    while index + 3 < bytes.count {
      let word =
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16
        | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
      if word == 0x4041_1BF2 || word == 0x71C4_42E8 { return "dts_uhd" }
      if word == 0x6458_2025 { hasSubstream = true }
      index += 1
    }
    return hasSubstream ? "DTS-HD" : nil
  }
}

/// Big-endian reads from a byte array, `0` past its end.
extension Array where Element == UInt8 {
  /// The byte at `at`, or `0` past either end.
  func byte(_ at: Int) -> UInt8 {
    at >= 0 && at < count ? self[at] : 0
  }

  func be16(_ at: Int) -> Int {
    guard at >= 0, at + 2 <= count else { return 0 }
    return Int(self[at]) << 8 | Int(self[at + 1])
  }

  func be32(_ at: Int) -> Int {
    guard at >= 0, at + 4 <= count else { return 0 }
    return Int(self[at]) << 24 | Int(self[at + 1]) << 16 | Int(self[at + 2]) << 8
      | Int(self[at + 3])
  }

  func be64(_ at: Int) -> Int64 {
    guard at >= 0, at + 8 <= count else { return 0 }
    var value: UInt64 = 0
    for offset in 0..<8 { value = value << 8 | UInt64(self[at + offset]) }
    return Int64(bitPattern: value)
  }

  /// Four bytes as text (`"ec-3"`), non-printable bytes as `?`.
  func fourCC(_ at: Int) -> String {
    guard at >= 0, at + 4 <= count else { return "" }
    return String(
      decoding: self[at..<at + 4].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") },
      as: UTF8.self)
  }
}

/// ISO BMFF (MP4, MOV): each track's sample entry, with `sinf`/`frma` for encrypted entries
/// and the `esds` object type for `mp4a`.
enum MP4Declarations {
  /// The largest `moov` read (bigger ones are not declarations this module reads).
  static let moovLimit = 64 << 20

  /// The most movie fragments read for durations.
  static let fragmentLimit = 100_000

  static func read(_ source: some ByteSource) -> [Int: DeclaredStream] {
    var offset: Int64 = 0
    var boxes = 0
    var movie: [UInt8]? = nil
    var fragments: [(Int64, Int)] = []
    while offset + 8 <= source.size, boxes < 1_000_000 {
      boxes += 1
      let header = source.bytes(at: offset, count: 16)
      guard header.count >= 8 else { break }
      var size = Int64(header.be32(0))
      var headerSize: Int64 = 8
      if size == 1 {
        size = header.be64(8)
        headerSize = 16
      } else if size == 0 {
        size = source.size - offset
      }
      guard size >= headerSize, size <= source.size - offset else { break }
      let type = header.fourCC(4)
      if type == "moov" && movie == nil {
        guard size - headerSize <= moovLimit else { return [:] }
        movie = source.bytes(at: offset + headerSize, count: Int(size - headerSize))
      } else if type == "moof", fragments.count < fragmentLimit, size - headerSize <= 16 << 20,
        offset + size <= source.size
      {
        fragments.append((offset + headerSize, Int(size - headerSize)))
      }
      offset += size
    }
    guard let movie else { return [:] }
    var result = tracks(in: movie)
    if !fragments.isEmpty {
      let movieTimescale = self.movieTimescale(movie)
      for (trackID, span) in fragmentDurations(movie: movie, fragments: fragments, source) {
        result[trackID]?.fragmentsDuration = span.length.seconds
        if let bytes = span.bytes, span.length.seconds > 0 {
          let rate = Double(bytes) * 8 / span.length.seconds
          if rate.isFinite, rate >= 1, rate < Double(1 << 31) {
            result[trackID]?.fragmentsBitRate = Int(rate.rounded())
          }
        }
        // An audio track whose samples are all in fragments: their span, from its edit's
        // start (its `stts` in `moov` states none).
        if result[trackID]?.presentedLength == nil,
          let trak = children(movie, 0..<movie.count).first(where: {
            $0.0 == "trak" && Self.trackID(movie, trak: $0.1) == trackID
          })?.1,
          let mdia = child(movie, trak, "mdia"),
          handler(movie, mdia) == "soun"
        {
          result[trackID]?.presentedLength = presentedLength(
            movie, trak: trak, movieTimescale: movieTimescale, media: span.length.units,
            firstDurations: span.first)
        }
      }
    }
    return result
  }

  /// Each track's duration in seconds from its movie fragments: the end of its last run less
  /// the start of its first, from `tfdt` decode times and `trun` sample durations (or the
  /// `tfhd`/`trex` defaults).
  static func fragmentDurations(
    movie: [UInt8], fragments: [(Int64, Int)], _ source: some ByteSource
  ) -> [Int: (length: MediaLength, first: (Int64, Int64)?, bytes: Int64?)] {
    var timescales: [Int: Int] = [:]
    var defaults: [Int: Int] = [:]
    var defaultSizes: [Int: Int] = [:]
    for (type, trak) in children(movie, 0..<movie.count) where type == "trak" {
      guard let tkhd = child(movie, trak, "tkhd"), let mdia = child(movie, trak, "mdia"),
        let mdhd = child(movie, mdia, "mdhd")
      else { continue }
      let trackID =
        movie.byte(tkhd.lowerBound) == 1
        ? movie.be32(tkhd.lowerBound + 20) : movie.be32(tkhd.lowerBound + 12)
      let timescale =
        movie.byte(mdhd.lowerBound) == 1
        ? movie.be32(mdhd.lowerBound + 20) : movie.be32(mdhd.lowerBound + 12)
      if timescale > 0 { timescales[trackID] = timescale }
    }
    if let mvex = child(movie, 0..<movie.count, "mvex") {
      for (type, trex) in children(movie, mvex) where type == "trex" {
        defaults[movie.be32(trex.lowerBound + 4)] = movie.be32(trex.lowerBound + 12)
        if trex.count >= 20 {
          defaultSizes[movie.be32(trex.lowerBound + 4)] = movie.be32(trex.lowerBound + 16)
        }
      }
    }
    // Times in the track's timescale, as doubles: any 64-bit values add up without overflow.
    var first: [Int: Double] = [:]
    var end: [Int: Double] = [:]
    // The durations of each track's first two samples, from its first run.
    var firstSamples: [Int: (Int64, Int64)] = [:]
    // The bytes of each track's samples; nil once a run states no size and no default does.
    var bytes: [Int: Int64?] = [:]
    for (offset, size) in fragments {
      let moof = source.bytes(at: offset, count: size)
      for (type, traf) in children(moof, 0..<moof.count) where type == "traf" {
        guard let tfhd = child(moof, traf, "tfhd") else { continue }
        let flags = moof.be32(tfhd.lowerBound) & 0xFF_FFFF
        let trackID = moof.be32(tfhd.lowerBound + 4)
        var field = tfhd.lowerBound + 8
        if flags & 0x01 != 0 { field += 8 }
        if flags & 0x02 != 0 { field += 4 }
        var defaultDuration = defaults[trackID] ?? 0
        if flags & 0x08 != 0 { defaultDuration = moof.be32(field) }
        var defaultSize = defaultSizes[trackID] ?? 0
        if flags & 0x10 != 0 { defaultSize = moof.be32(field + (flags & 0x08 != 0 ? 4 : 0)) }
        if bytes[trackID] == nil { bytes[trackID] = .some(0) }
        var time = end[trackID] ?? 0
        if let tfdt = child(moof, traf, "tfdt") {
          time =
            moof.byte(tfdt.lowerBound) == 1
            ? Double(UInt64(bitPattern: moof.be64(tfdt.lowerBound + 4)))
            : Double(moof.be32(tfdt.lowerBound + 4))
        }
        if first[trackID] == nil { first[trackID] = time }
        for (runType, trun) in children(moof, traf) where runType == "trun" {
          let runFlags = moof.be32(trun.lowerBound) & 0xFF_FFFF
          let count = moof.be32(trun.lowerBound + 4)
          var at = trun.lowerBound + 8
          if runFlags & 0x01 != 0 { at += 4 }
          if runFlags & 0x04 != 0 { at += 4 }
          let opening = firstSamples[trackID] == nil && time == first[trackID] && count >= 2
          // The run's bytes: each sample's size, or the default for all.
          if runFlags & 0x200 == 0 {
            if let total = bytes[trackID] ?? nil {
              bytes[trackID] = defaultSize > 0 ? total + Int64(count) * Int64(defaultSize) : .none
            }
          } else {
            let stride =
              4 * [0x100, 0x200, 0x400, 0x800].filter { runFlags & $0 != 0 }.count
            let offset = runFlags & 0x100 != 0 ? 4 : 0
            if count <= (trun.upperBound - at) / stride, let total = bytes[trackID] ?? nil {
              var sum = total
              for sample in 0..<count { sum += Int64(moof.be32(at + sample * stride + offset)) }
              bytes[trackID] = sum
            } else {
              bytes[trackID] = .none
            }
          }
          if runFlags & 0x100 == 0 {
            if opening {
              firstSamples[trackID] = (Int64(defaultDuration), Int64(defaultDuration))
            }
            time += Double(count) * Double(defaultDuration)
            continue
          }
          let stride =
            4 * [0x100, 0x200, 0x400, 0x800].filter { runFlags & $0 != 0 }.count
          guard stride > 0, count <= (trun.upperBound - at) / stride else { continue }
          if opening {
            firstSamples[trackID] = (Int64(moof.be32(at)), Int64(moof.be32(at + stride)))
          }
          for sample in 0..<count { time += Double(moof.be32(at + sample * stride)) }
        }
        end[trackID] = time
      }
    }
    var result: [Int: (length: MediaLength, first: (Int64, Int64)?, bytes: Int64?)] = [:]
    for (trackID, last) in end {
      guard let timescale = timescales[trackID], let start = first[trackID], last > start,
        last - start < 0x1p62
      else { continue }
      result[trackID] = (
        MediaLength(units: Int64(last - start), timescale: timescale), firstSamples[trackID],
        bytes[trackID] ?? nil
      )
    }
    return result
  }

  /// A `trak` box's track ID, from its `tkhd`; 0 without one.
  static func trackID(_ moov: [UInt8], trak: Range<Int>) -> Int {
    guard let tkhd = child(moov, trak, "tkhd") else { return 0 }
    return moov.byte(tkhd.lowerBound) == 1
      ? moov.be32(tkhd.lowerBound + 20) : moov.be32(tkhd.lowerBound + 12)
  }

  /// The movie's timescale (`mvhd`), the units of edit list durations; 0 without one.
  static func movieTimescale(_ moov: [UInt8]) -> Int {
    guard let mvhd = child(moov, 0..<moov.count, "mvhd") else { return 0 }
    return moov.byte(mvhd.lowerBound) == 1
      ? moov.be32(mvhd.lowerBound + 20) : moov.be32(mvhd.lowerBound + 12)
  }

  /// The child boxes of `bytes[range]`: (type, payload range).
  static func children(_ bytes: [UInt8], _ range: Range<Int>) -> [(String, Range<Int>)] {
    var result: [(String, Range<Int>)] = []
    var at = range.lowerBound
    while at + 8 <= range.upperBound {
      var size = bytes.be32(at)
      var headerSize = 8
      if size == 1 {
        let large = bytes.be64(at + 8)
        guard large > 0, large < Int64(Int32.max) else { break }
        size = Int(large)
        headerSize = 16
      } else if size == 0 {
        size = range.upperBound - at
      }
      guard size >= headerSize, at + size <= range.upperBound else { break }
      result.append((bytes.fourCC(at + 4), (at + headerSize)..<(at + size)))
      at += size
    }
    return result
  }

  static func child(_ bytes: [UInt8], _ range: Range<Int>, _ type: String) -> Range<Int>? {
    children(bytes, range).first { $0.0 == type }?.1
  }

  static func tracks(in moov: [UInt8]) -> [Int: DeclaredStream] {
    var result: [Int: DeclaredStream] = [:]
    for (type, trak) in children(moov, 0..<moov.count) where type == "trak" {
      guard let tkhd = child(moov, trak, "tkhd"), let mdia = child(moov, trak, "mdia"),
        let minf = child(moov, mdia, "minf"), let stbl = child(moov, minf, "stbl"),
        let stsd = child(moov, stbl, "stsd")
      else { continue }
      let trackID =
        moov.byte(tkhd.lowerBound) == 1
        ? moov.be32(tkhd.lowerBound + 20)
        : moov.be32(tkhd.lowerBound + 12)
      let handler = child(moov, mdia, "hdlr").map { moov.fourCC($0.lowerBound + 8) } ?? ""
      // stsd: version and flags, entry count, then the entries (the first one is read).
      let entries = min(stsd.lowerBound + 8, stsd.upperBound)..<stsd.upperBound
      guard let (entryType, entry) = children(moov, entries).first else { continue }
      if handler == "soun" {
        result[trackID] = audio(moov, entryType, entry)
        result[trackID]?.presentedLength = presentedLength(
          moov, trak: trak, movieTimescale: movieTimescale(moov))
      } else if ["text", "sbtl", "subt", "clcp"].contains(handler) {
        var declared = DeclaredStream(codec: textCodec(entryType), tag: entryType)
        // A plain-text sample entry: 6 reserved bytes and the data reference index, then boxes.
        if entryType == "wvtt", entry.count >= 8,
          let config = child(moov, (entry.lowerBound + 8)..<entry.upperBound, "vttC")
        {
          declared.textConfiguration = Array(moov[config])
        }
        result[trackID] = declared
      }
    }
    return result
  }

  /// The length of the audio a track presents, in its media timescale (ISO/IEC 14496-12
  /// 8.6.6): the media from its one edit's `media_time` on, for the edit's
  /// `segment_duration`; without an edit list, the whole media (its `stts` sample durations
  /// added up). The decoder gives whole frames, so the last one carries the encoder's padding
  /// past this length (FFmpeg's muxer states a last Opus or AAC sample's true length in
  /// `stts`, GStreamer's its first sample's too, and FFmpeg 5.1's demuxer trims only the
  /// start).
  ///
  /// An edit within one movie-timescale tick of the media's end is the whole media, rounded to
  /// the coarser timescale (GStreamer's 1,800 Hz: 883 ticks for 23,552 samples at 48 kHz).
  /// Empty edits (`media_time` -1, a delay before the audio) are passed over. `nil` when the
  /// media states no sample durations, or the edit list has several edits of media (other than
  /// edits that each go on where the one before ended, read as one) or one at another rate, or
  /// a version not known. `media`, when given, is the media's length in
  /// its timescale in place of the `stts` durations' (a fragmented file's fragments).
  static func presentedLength(
    _ moov: [UInt8], trak: Range<Int>, movieTimescale: Int, media stated: Int64? = nil,
    firstDurations statedFirst: (Int64, Int64)? = nil
  ) -> MediaLength? {
    guard let mdia = child(moov, trak, "mdia"), let mdhd = child(moov, mdia, "mdhd"),
      mdhd.count >= 16
    else { return nil }
    let timescale =
      moov.byte(mdhd.lowerBound) == 1
      ? moov.be32(mdhd.lowerBound + 20) : moov.be32(mdhd.lowerBound + 12)
    guard timescale > 0 else { return nil }
    var media: Int64 = stated ?? 0
    var first = statedFirst
    if stated == nil {
      guard let minf = child(moov, mdia, "minf"), let stbl = child(moov, minf, "stbl"),
        let stts = child(moov, stbl, "stts"), stts.count >= 8
      else { return nil }
      let entries = moov.be32(stts.lowerBound + 4)
      guard entries > 0, entries <= (stts.count - 8) / 8 else { return nil }
      for entry in 0..<entries {
        let at = stts.lowerBound + 8 + entry * 8
        let (span, large) = Int64(moov.be32(at)).multipliedReportingOverflow(
          by: Int64(moov.be32(at + 4)))
        let (sum, overflow) = media.addingReportingOverflow(span)
        guard !large, !overflow else { return nil }
        media = sum
      }
      let count = moov.be32(stts.lowerBound + 8)
      let delta = Int64(moov.be32(stts.lowerBound + 12))
      if count >= 2 {
        first = (delta, delta)
      } else if entries >= 2 {
        first = (delta, Int64(moov.be32(stts.lowerBound + 20)))
      }
    }
    guard media > 0 else { return nil }
    guard let edts = child(moov, trak, "edts"), let elst = child(moov, edts, "elst"),
      elst.count >= 8
    else {
      // Opus without an edit list: where the first sample lasts as long as the next, it
      // counts the pre-skip, which the decoder drops (FFmpeg's fragmented files); GStreamer's
      // first sample lasts its packet less the pre-skip (648 of 960), and stays.
      let preSkip = opusPreSkip(moov, trak: trak)
      if timescale == 48000, preSkip > 0, let first, first.0 == first.1, media > preSkip {
        return MediaLength(units: media - preSkip, timescale: timescale)
      }
      // iTunes' gapless tag on a sound track: its sample count, when its priming, samples and
      // padding add up to the media (within two AAC frames, as its counts are at the track's
      // rate). FFmpeg 5.1 skips the priming and decoded the padding too.
      if handler(moov, mdia) == "soun", let gapless = iTunesGapless(moov),
        abs(gapless.priming + gapless.samples + gapless.padding - media) <= 2048
      {
        return MediaLength(units: gapless.samples, timescale: timescale)
      }
      return MediaLength(units: media, timescale: timescale)
    }
    let version = moov.byte(elst.lowerBound)
    let size = version == 1 ? 20 : 12
    let count = moov.be32(elst.lowerBound + 4)
    guard version <= 1, count <= (elst.count - 8) / size else { return nil }
    var edit: (duration: Int64, mediaTime: Int64)? = nil
    for index in 0..<count {
      let at = elst.lowerBound + 8 + index * size
      let duration = version == 1 ? moov.be64(at) : Int64(moov.be32(at))
      let mediaTime =
        version == 1 ? moov.be64(at + 8) : Int64(Int32(truncatingIfNeeded: moov.be32(at + 4)))
      let rate = moov.be32(at + (version == 1 ? 16 : 8))
      if mediaTime == -1 { continue }
      guard mediaTime >= 0, rate == 0x1_0000 else { return nil }
      // An edit that goes on where the one before it ended (a muxer that splits one span into
      // several) extends it; any other second edit is not read.
      if let previous = edit {
        guard movieTimescale > 0, previous.duration > 0 else { return nil }
        let previousEnd =
          Double(previous.mediaTime)
          + Double(previous.duration) * Double(timescale) / Double(movieTimescale)
        guard
          abs(Double(mediaTime) - previousEnd) <= max(1, Double(timescale) / Double(movieTimescale))
        else { return nil }
        edit = (previous.duration + duration, previous.mediaTime)
      } else {
        edit = (duration, mediaTime)
      }
    }
    guard let edit else { return MediaLength(units: media, timescale: timescale) }
    let available = media - edit.mediaTime
    guard available > 0 else { return nil }
    guard movieTimescale > 0, edit.duration > 0 else {
      return MediaLength(units: available, timescale: timescale)
    }
    let segment = Double(edit.duration) * Double(timescale) / Double(movieTimescale)
    let tick = Double(timescale) / Double(movieTimescale)
    if segment >= Double(available) - tick {
      return MediaLength(units: available, timescale: timescale)
    }
    return MediaLength(units: Int64(segment.rounded()), timescale: timescale)
  }

  /// The handler type of a track's `mdia` box (`soun`, `vide`, `text`), or `nil`.
  static func handler(_ moov: [UInt8], _ mdia: Range<Int>) -> String? {
    guard let hdlr = child(moov, mdia, "hdlr"), hdlr.count >= 12 else { return nil }
    return moov.fourCC(hdlr.lowerBound + 8)
  }

  /// The encoder priming, padding and sample count iTunes states for the movie's audio in its
  /// `iTunSMPB` tag (`moov/udta/meta/ilst/----`, the value " 00000000 PPPPPPPP QQQQQQQQ
  /// NNNNNNNNNNNNNNNN …" in hex: priming P, padding Q, samples N; Apple's players and Media3
  /// play the N samples after the priming), or `nil` when there is none or it does not read.
  static func iTunesGapless(_ moov: [UInt8]) -> (priming: Int64, padding: Int64, samples: Int64)? {
    guard let udta = child(moov, 0..<moov.count, "udta"), var meta = child(moov, udta, "meta")
    else { return nil }
    // ISO's `meta` is a full box (version and flags before its children); QuickTime's is not.
    if meta.count >= 4, moov.be32(meta.lowerBound) == 0 {
      meta = (meta.lowerBound + 4)..<meta.upperBound
    }
    guard let ilst = child(moov, meta, "ilst") else { return nil }
    for (type, item) in children(moov, ilst) where type == "----" {
      guard let name = child(moov, item, "name"), name.count > 4,
        moov[(name.lowerBound + 4)..<name.upperBound].elementsEqual("iTunSMPB".utf8)
      else { continue }
      guard let data = child(moov, item, "data"), data.count > 8 else { return nil }
      let text = moov[(data.lowerBound + 8)..<data.upperBound].prefix(256)
      let fields = text.split(separator: 0x20).prefix(4).map {
        $0.count <= 16 ? Int64(String(decoding: $0, as: UTF8.self), radix: 16) : nil
      }
      guard fields.count == 4, let priming = fields[1], let padding = fields[2],
        let samples = fields[3], priming >= 0, padding >= 0, samples > 0,
        priming < 1 << 20, padding < 1 << 20, samples < 1 << 40
      else { return nil }
      return (priming, padding, samples)
    }
    return nil
  }

  /// The pre-skip (48 kHz samples) of an `Opus` sample entry's `dOps` box (big-endian, as
  /// the format has it); 0 for another entry, and for a value over 0.1 s (GStreamer 1.22
  /// writes the box little-endian: 312 reads as 14,337).
  static func opusPreSkip(_ moov: [UInt8], trak: Range<Int>) -> Int64 {
    guard let mdia = child(moov, trak, "mdia"), let minf = child(moov, mdia, "minf"),
      let stbl = child(moov, minf, "stbl"), let stsd = child(moov, stbl, "stsd"),
      let (type, entry) = children(
        moov, min(stsd.lowerBound + 8, stsd.upperBound)..<stsd.upperBound
      )
      .first, type == "Opus",
      let dOps = child(
        moov, min(entry.lowerBound + 28, entry.upperBound)..<entry.upperBound, "dOps"),
      dOps.count >= 4
    else { return 0 }
    let preSkip = Int64(moov.be16(dOps.lowerBound + 2))
    return preSkip <= 4800 ? preSkip : 0
  }

  /// An audio sample entry: the fixed fields (28 bytes; QuickTime versions 1 and 2 add 16 and
  /// 36), then child boxes.
  static func audio(_ bytes: [UInt8], _ type: String, _ entry: Range<Int>) -> DeclaredStream {
    let version = bytes.be16(entry.lowerBound + 8)
    let boxesStart = entry.lowerBound + 28 + (version == 1 ? 16 : version == 2 ? 36 : 0)
    let boxes = min(boxesStart, entry.upperBound)..<entry.upperBound
    var declared = DeclaredStream(tag: type)
    var format = type
    if type == "enca" {
      declared.encrypted = true
      if let sinf = child(bytes, boxes, "sinf"), let frma = child(bytes, sinf, "frma") {
        format = bytes.fourCC(frma.lowerBound)
      }
    }
    switch format {
    case "mp4a":
      // esds: version and flags, then the ES descriptor (tag 3) holding the decoder config
      // descriptor (tag 4), whose first byte is the object type indication.
      if let esds = child(bytes, boxes, "esds"),
        let objectType = objectTypeIndication(bytes, esds.lowerBound + 4, esds.upperBound)
      {
        declared.codec = codec(objectType: objectType)
      }
    default:
      declared.codec = codec(sampleEntry: format)
    }
    if let codec = declared.codec, ContainerDeclarations.withoutDecoder.contains(codec) {
      declared.noDecoder = true
    }
    if format == "dtsh" || format == "dtsl" { declared.profile = "DTS-HD" }
    if format == "dtse" { declared.profile = "DTS Express" }
    return declared
  }

  /// The object type indication of an ES descriptor starting at `at`.
  static func objectTypeIndication(_ bytes: [UInt8], _ at: Int, _ end: Int) -> Int? {
    var index = at
    var depth = 0
    while index < end, depth < 4 {
      let tag = bytes[index]
      index += 1
      // The size: up to four bytes of seven bits each.
      var length = 0
      for _ in 0..<4 {
        guard index < end else { return nil }
        let byte = bytes[index]
        index += 1
        length = length << 7 | Int(byte & 0x7F)
        if byte & 0x80 == 0 { break }
      }
      switch tag {
      case 3:
        // ES_ID (2), flags (1), then optional fields by the flags.
        guard index + 3 <= end else { return nil }
        let flags = bytes[index + 2]
        index += 3
        if flags & 0x80 != 0 { index += 2 }
        if flags & 0x40 != 0, index < end { index += 1 + Int(bytes[index]) }
        if flags & 0x20 != 0 { index += 2 }
        depth += 1
      case 4:
        return index < end ? Int(bytes[index]) : nil
      default:
        index += length
      }
    }
    return nil
  }

  /// ISO/IEC 14496-1 object type indications (and those registered by mp4ra).
  static func codec(objectType: Int) -> String? {
    switch objectType {
    case 0x40, 0x66, 0x67, 0x68: return "aac"
    // MPEG-1 or MPEG-2 audio: the layer is in the bitstream.
    case 0x69, 0x6B: return nil
    case 0xA5: return "ac3"
    case 0xA6: return "eac3"
    case 0xA9, 0xAA, 0xAB, 0xAC: return "dts"
    case 0xAD: return "opus"
    case 0xDD: return "vorbis"
    default: return nil
    }
  }

  /// Sample entry codes of audio codecs (ISO BMFF bindings registered by mp4ra).
  static func codec(sampleEntry: String) -> String? {
    switch sampleEntry {
    case "ac-3": return "ac3"
    case "ec-3": return "eac3"
    case "ac-4": return "ac4"
    case "dtsc", "dtsh", "dtsl", "dtse": return "dts"
    case "dtsx", "dtsy": return "dts_uhd"
    case "Opus": return "opus"
    case "fLaC": return "flac"
    case "alac": return "alac"
    case "mha1", "mha2", "mhm1", "mhm2": return "mpegh_3d_audio"
    case "iamf": return "iamf"
    case "samr": return "amr_nb"
    case "sawb": return "amr_wb"
    case ".mp3": return "mp3"
    case "mlpa": return "truehd"
    case "ulaw": return "pcm_mulaw"
    case "alaw": return "pcm_alaw"
    case "ipcm", "lpcm", "sowt", "twos", "in24", "in32", "fl32", "fl64", "raw ", "NONE":
      return "pcm"
    default: return nil
    }
  }

  static func textCodec(_ sampleEntry: String) -> String? {
    switch sampleEntry {
    case "wvtt": return "webvtt"
    case "tx3g", "text": return "mov_text"
    case "stpp": return "ttml"
    case "c608": return "eia_608"
    default: return nil
    }
  }
}

/// MPEG-TS: the stream types and descriptors of the first program map tables (ISO/IEC 13818-1,
/// ATSC A/52, ETSI EN 300 468, Blu-ray), with the first bytes of each stream's first PES
/// payload for the variants only the bitstream tells (DTS-HD, DTS-UHD, the MPEG audio layer).
enum TSDeclarations {
  /// How much of the start of the file is read for the tables and first payloads.
  static let scanBytes = 1 << 20

  static func read(_ source: some ByteSource) -> [Int: DeclaredStream] {
    let bytes = source.bytes(at: 0, count: Int(min(source.size, Int64(scanBytes))))
    guard let (packetSize, start) = packetLayout(bytes) else { return [:] }
    var scan = TSScan(blueRay: packetSize == 192)
    var at = start
    while at + 188 <= bytes.count {
      defer { at += packetSize }
      if !scan.packet(bytes, at: at) { break }
    }
    return scan.declarations()
  }

  /// The packet size (188 bytes, or 192 with a 4-byte time code first as in M2TS, or 204 with
  /// parity) and the first packet's offset: the first sync byte followed by three more a packet
  /// apart; `nil` when there is none.
  static func packetLayout(_ bytes: [UInt8]) -> (size: Int, start: Int)? {
    for candidate in [188, 192, 204] {
      for first in 0..<min(candidate, bytes.count) where bytes[first] == 0x47 {
        if (1...3).allSatisfy({
          first + $0 * candidate < bytes.count ? bytes[first + $0 * candidate] == 0x47 : false
        }) {
          return (candidate, first)
        }
      }
    }
    return nil
  }

  /// The declaration of one elementary stream, or `nil` for video and data streams.
  ///
  /// The Blu-ray (HDMV) stream types 0x80 and 0x83 to 0x86, 0x90, 0xA1 and 0xA2 count only with
  /// an `HDMV` registration (the program's or the stream's) or in 192-byte packets (M2TS):
  /// elsewhere 0x86 is SCTE-35 splice information, not audio. 0x82 is DTS in both.
  static func declaration(type: Int, descriptors: [UInt8], blueRay: Bool = false)
    -> DeclaredStream?
  {
    let hex = String(type, radix: 16, uppercase: false)
    let tag = "stream_type 0x" + (hex.count < 2 ? "0" : "") + hex
    func named(_ codec: String?, profile: String? = nil) -> DeclaredStream {
      var declared = DeclaredStream(codec: codec, tag: tag, profile: profile)
      if let codec, ContainerDeclarations.withoutDecoder.contains(codec) {
        declared.noDecoder = true
      }
      return declared
    }
    // Descriptors: tag, length, body.
    var registration: String? = nil
    var privateData: String? = nil
    var described: String? = nil
    var profile: String? = nil
    var index = 0
    while index + 2 <= descriptors.count {
      let descriptorTag = descriptors[index]
      let length = Int(descriptors[index + 1])
      let body = index + 2
      guard body + length <= descriptors.count else { break }
      // The specification's descriptor tags, a table: other value tables share its shape only.
      switch descriptorTag {
      case 0x05 where length >= 4: registration = descriptors.fourCC(body)
      case 0x0F where length >= 4: privateData = descriptors.fourCC(body)
      case 0x6A: described = "ac3"
      case 0x7A: described = "eac3"
      case 0x7B: described = "dts"
      case 0x7C: described = "aac"
      case 0x59: described = "dvb_subtitle"
      case 0x56: described = "dvb_teletext"
      case 0x3F where length >= 1 && descriptors[body] == 0x08: described = "mpegh_3d_audio"
      case 0x7F where length >= 1:
        switch descriptors[body] {
        case 0x0E:
          described = "dts"
          profile = "DTS-HD"
        case 0x15: described = "ac4"
        case 0x20: described = "ttml"
        case 0x21: described = "dts_uhd"
        default: break
        }
      default: break
      }
      index = body + length
    }
    let hdmv = blueRay || registration == "HDMV"
    // Apple's sample encryption (HLS `SAMPLE-AES`): AAC, AC-3 and E-AC-3 under stream types of
    // their own, marked by a private data indicator (`aacd`, `ac3d`, `ec3d`) or an `apad`
    // registration with the audio setup. The frames are encrypted past their first bytes.
    let sampleEncrypted: [Int: (codec: String, indicator: String)] = [
      0xCF: ("aac", "aacd"), 0xC1: ("ac3", "ac3d"), 0xC2: ("eac3", "ec3d"),
    ]
    if let encrypted = sampleEncrypted[type],
      privateData == encrypted.indicator || registration == "apad"
    {
      var declared = named(encrypted.codec)
      declared.encrypted = true
      return declared
    }
    switch type {
    case 0x03, 0x04: return DeclaredStream(codec: nil, tag: tag)
    case 0x0F, 0x1C: return named("aac")
    case 0x11: return named("aac_latm")
    case 0x2D, 0x2E: return named("mpegh_3d_audio")
    case 0x80 where hdmv: return named("pcm_bluray")
    case 0x81: return named("ac3")
    case 0x83 where hdmv: return named("truehd")
    case 0x84 where hdmv, 0xA1 where hdmv: return named("eac3")
    case 0x87: return named("eac3")
    case 0x82, 0x8A: return named("dts")
    case 0xA2 where hdmv: return named("dts", profile: "DTS Express")
    case 0x85 where hdmv, 0x86 where hdmv: return named("dts", profile: "DTS-HD")
    case 0x90 where hdmv: return named("hdmv_pgs_subtitle")
    case 0x06:
      if let described { return named(described, profile: profile) }
      switch registration {
      case "AC-3": return named("ac3")
      case "EAC3": return named("eac3")
      case "AC-4": return named("ac4")
      case "DTS1", "DTS2", "DTS3": return named("dts")
      case "Opus": return named("opus")
      case "BSSD": return named("s302m")
      default: return nil
      }
    default:
      if let described { return named(described, profile: profile) }
      return nil
    }
  }
}

/// What the first packets of a transport stream have told so far: the program association
/// and program map tables, each stream's first PES payload bytes and whether it is scrambled.
struct TSScan {
  private var sections: [Int: [UInt8]] = [:]
  private var programMaps: Set<Int> = []
  private var streams: [Int: (type: Int, descriptors: [UInt8])] = [:]
  private var payloads: [Int: [UInt8]] = [:]
  /// Each stream's PES stream id (`0xBD` for private stream 1), from its first PES header.
  private var streamIDs: [Int: UInt8] = [:]
  private var scrambled: Set<Int> = []
  /// Where the first program map table ended, or `nil` before it.
  private var tablesEnd: Int? = nil
  /// Whether the stream is Blu-ray's: M2TS (192-byte packets) or an `HDMV` registration.
  private var blueRay: Bool

  init(blueRay: Bool) { self.blueRay = blueRay }

  /// Reads the 188-byte packet at `at` in `bytes`; `false` when enough has been read.
  mutating func packet(_ bytes: [UInt8], at: Int) -> Bool {
    guard bytes[at] == 0x47 else { return true }
    let pid = (Int(bytes[at + 1]) & 0x1F) << 8 | Int(bytes[at + 2])
    let unitStart = bytes[at + 1] & 0x40 != 0
    let control = (bytes[at + 3] >> 4) & 3
    guard control & 1 != 0 else { return true }
    var payload = at + 4
    if control & 2 != 0 { payload += 1 + Int(bytes[at + 4]) }
    guard payload < at + 188 else { return true }
    guard pid == 0 || programMaps.contains(pid) || streams[pid] != nil else { return true }
    // Enough: 512 KiB went by since the first program map, or 128 KiB and every stream's
    // first payloads are in (the other programs' maps repeat well within that).
    if let tables = tablesEnd,
      at - tables > 512 << 10
        || (at - tables > 128 << 10
          && streams.keys.allSatisfy { payloads[$0]?.count ?? 0 >= 4096 })
    {
      return false
    }
    let data = Array(bytes[payload..<(at + 188)])
    if pid == 0 || programMaps.contains(pid) {
      table(data, pid: pid, unitStart: unitStart, at: at)
      return true
    }
    // Scrambled packets (transport_scrambling_control set): the stream is encrypted.
    if streams[pid] != nil, bytes[at + 3] >> 6 != 0 { scrambled.insert(pid) }
    // The first PES payloads of a stream, each after its PES header.
    if streams[pid] != nil, (payloads[pid]?.count ?? 0) < 4096 {
      // Payloads of consecutive PES packets are joined: a frame may span two of them.
      if unitStart, data.count >= 9, data[0] == 0, data[1] == 0, data[2] == 1 {
        if streamIDs[pid] == nil { streamIDs[pid] = data[3] }
        let headerEnd = 9 + Int(data[8])
        if headerEnd <= data.count { payloads[pid, default: []] += data[headerEnd...] }
      } else if !unitStart, payloads[pid] != nil {
        payloads[pid]? += data
      }
    }
    return true
  }

  /// Adds a table packet's payload to its section and reads the section once it is whole.
  private mutating func table(_ data: [UInt8], pid: Int, unitStart: Bool, at: Int) {
    if unitStart {
      let pointer = Int(data[0])
      guard 1 + pointer < data.count else { return }
      sections[pid] = Array(data[(1 + pointer)...])
    } else if sections[pid] != nil {
      sections[pid]? += data
    }
    guard let section = sections[pid], section.count >= 3 else { return }
    let length = (Int(section[1]) & 0x0F) << 8 | Int(section[2])
    guard section.count >= 3 + length else { return }
    sections[pid] = nil
    if pid == 0 && section[0] == 0 {
      var entry = 8
      while entry + 4 <= 3 + length - 4 {
        let program = section.be16(entry)
        let mapPID = section.be16(entry + 2) & 0x1FFF
        if program != 0 { programMaps.insert(mapPID) }
        entry += 4
      }
    } else if section[0] == 2 {
      programMap(section, length: length)
      if tablesEnd == nil { tablesEnd = at }
    }
  }

  /// Reads a whole program map section (`length` from its header): the program's
  /// registration and each stream's type and descriptors.
  private mutating func programMap(_ section: [UInt8], length: Int) {
    let infoLength = section.be16(10) & 0x0FFF
    // A program-level registration descriptor (tag 5) naming HDMV: a Blu-ray stream.
    var info = 12
    while info + 6 <= min(12 + infoLength, section.count) {
      if section[info] == 0x05, section.fourCC(info + 2) == "HDMV" { blueRay = true }
      info += 2 + Int(section[info + 1])
    }
    var entry = 12 + infoLength
    while entry + 5 <= 3 + length - 4 {
      let type = Int(section[entry])
      let streamPID = section.be16(entry + 1) & 0x1FFF
      let descriptorLength = section.be16(entry + 3) & 0x0FFF
      let end = min(entry + 5 + descriptorLength, section.count)
      if streams[streamPID] == nil {
        streams[streamPID] = (type, Array(section[(entry + 5)..<end]))
      }
      entry += 5 + descriptorLength
    }
  }

  /// The declaration of VLC 3's LPCM in MPEG-TS, outside Blu-ray (where 0x83 is TrueHD): stream
  /// type 0x83 in private stream 1, whose PES payloads are those of DVD LPCM in a program
  /// stream without the substream id (the frame count, the first access unit pointer, then
  /// the LPCM header; see ``PSDeclarations/declaration(_:)``). FFmpeg 5.1 names no codec for
  /// it. `nil` for anything else.
  private func lpcmDeclaration(pid: Int, type: Int) -> DeclaredStream? {
    guard type == 0x83, !blueRay, streamIDs[pid] == 0xBD, let payload = payloads[pid],
      payload.count >= 6, payload[0] >= 1,
      var declared = PSDeclarations.declaration([0xA0] + payload.prefix(6))
    else { return nil }
    declared.tag = "stream_type 0x83"
    declared.packetHeaderBytes = 3
    return declared
  }

  /// The declarations of the streams found, by PID.
  func declarations() -> [Int: DeclaredStream] {
    var result: [Int: DeclaredStream] = [:]
    for (pid, stream) in streams {
      if var declared = TSDeclarations.declaration(
        type: stream.type, descriptors: stream.descriptors, blueRay: blueRay)
        ?? lpcmDeclaration(pid: pid, type: stream.type)
      {
        declared.scrambled = scrambled.contains(pid)
        if declared.scrambled { declared.encrypted = true }
        let payload = payloads[pid] ?? []
        if declared.codec == "dts", let variant = ContainerDeclarations.dtsVariant(payload) {
          if variant == "dts_uhd" {
            declared.codec = "dts_uhd"
            declared.noDecoder = true
          } else {
            declared.profile = variant
          }
        }
        if declared.codec == nil, declared.tag.hasSuffix("0x03") || declared.tag.hasSuffix("0x04") {
          declared.codec = ContainerDeclarations.mpegAudioLayer(payload)
          declared.variableBitRate = Set(ContainerDeclarations.mpegAudioBitRates(payload)).count > 1
        }
        result[pid] = declared
      }
    }
    return result
  }
}

/// MPEG program streams (DVD VOB, VLC's `ps` muxer): the substreams of private stream 1
/// (`0xBD`), whose first payload byte, the substream id, declares the codec (the DVD-Video
/// convention: `0x20`-`0x3F` subpictures, `0x80`-`0x87` AC-3, `0x88`-`0x8F` DTS, `0xA0`-`0xA7`
/// LPCM). FFmpeg 5.1 names such a stream by the program stream map instead when there is one,
/// and VLC 3's map names its LPCM AC-3 (stream type `0x81`). Keyed by the substream id, which
/// is the id FFmpeg gives the stream.
enum PSDeclarations {
  /// How much of the start of the file is read for the first payloads.
  static let scanBytes = 1 << 20

  static func read(_ source: some ByteSource) -> [Int: DeclaredStream] {
    let bytes = source.bytes(at: 0, count: Int(min(source.size, Int64(scanBytes))))
    var result: [Int: DeclaredStream] = [:]
    var at = 0
    while at + 6 <= bytes.count {
      guard bytes[at] == 0, bytes[at + 1] == 0, bytes[at + 2] == 1, bytes[at + 3] >= 0xB9 else {
        at += 1
        continue
      }
      let code = bytes[at + 3]
      if code == 0xB9 { break }
      if code == 0xBA {
        // A pack header: MPEG-2's is 14 bytes and its stuffing, MPEG-1's 12.
        guard at + 14 <= bytes.count else { break }
        at += bytes[at + 4] >> 6 == 1 ? 14 + Int(bytes[at + 13] & 7) : 12
        continue
      }
      let length = bytes.be16(at + 4)
      if code == 0xBD, let payload = payloadStart(bytes, pes: at), payload < bytes.count,
        payload < at + 6 + length
      {
        let id = Int(bytes[payload])
        if result[id] == nil {
          let end = min(at + 6 + length, bytes.count)
          if let declared = declaration(Array(bytes[payload..<end])) { result[id] = declared }
        }
      }
      at += 6 + length
    }
    return result
  }

  /// Where the payload of the PES packet at `pes` starts (after its MPEG-2 or MPEG-1 header),
  /// or `nil` when the header is not whole.
  static func payloadStart(_ bytes: [UInt8], pes: Int) -> Int? {
    guard pes + 9 <= bytes.count else { return nil }
    if bytes[pes + 6] >> 6 == 2 { return pes + 9 + Int(bytes[pes + 8]) }
    // MPEG-1: stuffing, the STD buffer size, then the time stamps.
    var at = pes + 6
    while at < bytes.count, bytes[at] == 0xFF, at < pes + 22 { at += 1 }
    guard at < bytes.count else { return nil }
    if bytes[at] >> 6 == 1 { at += 2 }
    guard at < bytes.count else { return nil }
    switch bytes[at] >> 4 {
    case 2: return at + 5
    case 3: return at + 10
    default: return at + 1
    }
  }

  /// The declaration of a private-stream-1 payload (its substream id first), or `nil` for ids
  /// outside the DVD-Video ranges and LPCM whose header is not one.
  static func declaration(_ payload: [UInt8]) -> DeclaredStream? {
    guard let id = payload.first else { return nil }
    let tag = "substream 0x" + String(id, radix: 16)
    switch id {
    case 0x20...0x3F: return DeclaredStream(codec: "dvd_subtitle", tag: tag)
    case 0x80...0x87: return DeclaredStream(codec: "ac3", tag: tag)
    case 0x88...0x8F: return DeclaredStream(codec: "dts", tag: tag)
    case 0xA0...0xA7:
      // The LPCM header after the id, the number of frames and the first access unit's
      // pointer: the emphasis, mute and frame number, then the quantization (16, 20 or 24
      // bits; 3 is reserved), the sampling frequency (48, 96, 44.1 or 32 kHz) and the
      // channels less one, then the dynamic range.
      guard payload.count >= 7, payload[5] >> 6 != 3 else { return nil }
      var declared = DeclaredStream(codec: "pcm_dvd", tag: tag)
      declared.bitsPerSample = [16, 20, 24][Int(payload[5] >> 6)]
      declared.sampleRate = [48000, 96000, 44100, 32000][Int(payload[5] >> 4 & 3)]
      declared.channels = Int(payload[5] & 7) + 1
      declared.decodesAsDeclared = true
      return declared
    default: return nil
    }
  }
}

/// Matroska and WebM: each `TrackEntry`'s `CodecID` and content encryption, read from the
/// `Tracks` element before the first cluster.
enum MatroskaDeclarations {
  static let scanBytes = 16 << 20

  /// An EBML variable-size integer at `at`: (value, length); the marker bit is removed when
  /// `keepMarker` is false. `nil` when invalid.
  static func vint(_ bytes: [UInt8], _ at: Int, keepMarker: Bool) -> (Int64, Int)? {
    guard at < bytes.count, bytes[at] != 0 else { return nil }
    let length = bytes[at].leadingZeroBitCount + 1
    guard length <= 8, at + length <= bytes.count else { return nil }
    var value = UInt64(keepMarker ? bytes[at] : bytes[at] & (0xFF >> length))
    var allOnes = value == UInt64(0xFF >> length)
    for offset in 1..<length {
      value = value << 8 | UInt64(bytes[at + offset])
      if bytes[at + offset] != 0xFF { allOnes = false }
    }
    // All ones in a size: unknown (the rest of the parent).
    if !keepMarker && allOnes { return (-1, length) }
    return (Int64(bitPattern: value), length)
  }

  /// The elements of `bytes[range]`: (id, payload range).
  static func elements(_ bytes: [UInt8], _ range: Range<Int>) -> [(Int64, Range<Int>)] {
    var result: [(Int64, Range<Int>)] = []
    var at = range.lowerBound
    while at < range.upperBound {
      guard let (id, idLength) = vint(bytes, at, keepMarker: true),
        let (size, sizeLength) = vint(bytes, at + idLength, keepMarker: false)
      else { break }
      let start = at + idLength + sizeLength
      guard start <= range.upperBound else { break }
      let end =
        size < 0 || size > Int64(range.upperBound - start)
        ? range.upperBound : start + Int(size)
      result.append((id, start..<end))
      if size < 0 || size > Int64(range.upperBound - start) { break }
      at = end
    }
    return result
  }

  static func read(_ source: some ByteSource) -> [Int: DeclaredStream] {
    // The tracks are nearly always within the first kilobytes: 256 KiB first, more only when
    // they were not complete there.
    let first = source.bytes(at: 0, count: Int(min(source.size, 256 << 10)))
    let whole = Int64(first.count) >= source.size
    let found = tracks(in: first, whole: whole)
    if !found.isEmpty || whole { return found }
    let more = source.bytes(at: 0, count: Int(min(source.size, Int64(scanBytes))))
    return tracks(in: more, whole: true)
  }

  /// The declarations of the `Tracks` element in `bytes` (the start of the file, or all of it
  /// when `whole`), or an empty table when it is not there whole.
  static func tracks(in bytes: [UInt8], whole: Bool) -> [Int: DeclaredStream] {
    let top = elements(bytes, 0..<bytes.count)
    guard let segment = top.first(where: { $0.0 == 0x1853_8067 }) else { return [:] }
    // The segment's children up to the first cluster; a cluster of unknown size ends the
    // walk anyway.
    var result: [Int: DeclaredStream] = [:]
    for (id, tracks) in elements(bytes, segment.1) {
      if id == 0x1F43_B675 { break }
      guard id == 0x1654_AE6B else { continue }
      // A `Tracks` element cut by the end of the bytes read: read more, or nothing.
      if tracks.upperBound == bytes.count && !whole { return [:] }
      for (entryID, entry) in elements(bytes, tracks) where entryID == 0xAE {
        var number: Int? = nil
        var codecID = ""
        var trackType = 0
        var encrypted = false
        var zlibCompressed = false
        var language: String? = nil
        var defaultDuration: UInt64 = 0
        var enabled = true
        for (field, value) in elements(bytes, entry) {
          switch field {
          case 0x23_E383: defaultDuration = unsigned(bytes, value)
          // FlagEnabled; an empty element takes its default value, 1 (EBML, RFC 8794).
          case 0xB9: enabled = value.isEmpty || unsigned(bytes, value) != 0
          case 0x22_B59D:
            // LanguageBCP47 (Matroska v4): when present, the ISO 639-2 `Language` is ignored.
            language = String(decoding: bytes[value].prefix { $0 != 0 }, as: UTF8.self)
          case 0xD7: number = Int(truncatingIfNeeded: unsigned(bytes, value))
          case 0x83: trackType = Int(truncatingIfNeeded: unsigned(bytes, value))
          case 0x86:
            codecID = String(decoding: bytes[value].prefix { $0 != 0 }, as: UTF8.self)
          case 0x6D80:
            // ContentEncodings > ContentEncoding > ContentEncodingType (1: encryption).
            for (encodingID, encoding) in elements(bytes, value) where encodingID == 0x6240 {
              for (typeID, type) in elements(bytes, encoding)
              where (typeID == 0x5033 && unsigned(bytes, type) == 1) || typeID == 0x5035 {
                encrypted = true
              }
              // ContentCompression > ContentCompAlgo (0, the default: zlib).
              for (compressionID, compression) in elements(bytes, encoding)
              where compressionID == 0x5034 {
                zlibCompressed = !elements(bytes, compression).contains {
                  $0.0 == 0x4254 && unsigned(bytes, $0.1) != 0
                }
              }
            }
          default: break
          }
        }
        guard let number, !codecID.isEmpty else { continue }
        var declared = DeclaredStream(codec: codec(codecID), tag: codecID, encrypted: encrypted)
        declared.trackType = trackType
        declared.zlibCompressed = zlibCompressed
        declared.position = result.count
        declared.language = language
        declared.trackNumber = number
        declared.enabled = enabled
        if defaultDuration > 0 { declared.frameDuration = Double(defaultDuration) / 1e9 }
        if codecID.hasPrefix("D_WEBVTT/") {
          switch codecID.dropFirst(9) {
          case "CAPTIONS": declared.subtitleKind = .captions
          case "DESCRIPTIONS": declared.subtitleKind = .descriptions
          case "METADATA": declared.subtitleKind = .metadata
          default: declared.subtitleKind = .subtitles
          }
        }
        if let codec = declared.codec, ContainerDeclarations.withoutDecoder.contains(codec) {
          declared.noDecoder = true
        }
        result[number] = declared
      }
    }
    return result
  }

  static func unsigned(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
    var value: UInt64 = 0
    for index in range.prefix(8) { value = value << 8 | UInt64(bytes[index]) }
    return value
  }

  /// Matroska codec IDs (the Matroska codec specifications).
  static func codec(_ id: String) -> String? {
    if id.hasPrefix("A_AAC") { return "aac" }
    if id.hasPrefix("A_PCM/") { return "pcm" }
    if id.hasPrefix("A_REAL/") || id.hasPrefix("A_MS/") || id.hasPrefix("A_QUICKTIME") {
      return nil
    }
    if id.hasPrefix("D_WEBVTT/") { return "webvtt" }
    switch id {
    case "A_AC3", "A_AC3/BSID9", "A_AC3/BSID10": return "ac3"
    case "A_EAC3": return "eac3"
    case "A_AC4": return "ac4"
    case "A_DTS", "A_DTS/EXPRESS", "A_DTS/LOSSLESS": return "dts"
    case "A_OPUS": return "opus"
    case "A_VORBIS": return "vorbis"
    case "A_FLAC": return "flac"
    case "A_MPEG/L3": return "mp3"
    case "A_MPEG/L2": return "mp2"
    case "A_MPEG/L1": return "mp1"
    case "A_TRUEHD": return "truehd"
    case "A_MLP": return "mlp"
    case "A_ALAC": return "alac"
    case "A_TTA1": return "tta"
    case "A_WAVPACK4": return "wavpack"
    case "A_MPEGH/MHA1", "A_MPEGH/MHM1": return "mpegh_3d_audio"
    case "S_TEXT/UTF8": return "subrip"
    case "S_TEXT/ASS", "S_ASS": return "ass"
    case "S_TEXT/SSA", "S_SSA": return "ssa"
    case "S_TEXT/WEBVTT": return "webvtt"
    case "S_VOBSUB": return "dvd_subtitle"
    case "S_HDMV/PGS": return "hdmv_pgs_subtitle"
    case "S_HDMV/TEXTST": return "hdmv_text_subtitle"
    case "S_DVBSUB": return "dvb_subtitle"
    case "S_KATE": return "kate"
    case "S_ARIBSUB": return "arib_caption"
    default: return nil
    }
  }
}

/// E-AC-3 sync frames (ETSI TS 102 366, annex E): where one packet holds several.
enum EAC3Frames {
  /// The samples per channel the sync frames in `bytes` hold: the audio blocks of the
  /// independent frames of substream 0 (`numblkscod`: 1, 2, 3 or 6 blocks; 6 when `fscod` is
  /// 3) times 256; `nil` when `bytes` is not a whole run of E-AC-3 sync frames.
  static func samples(_ bytes: [UInt8]) -> Int? {
    var samples = 0
    var at = 0
    while at + 6 <= bytes.count {
      guard bytes[at] == 0x0B, bytes[at + 1] == 0x77, bytes[at + 5] >> 3 > 10 else { return nil }
      let streamType = bytes[at + 2] >> 6
      let substream = (bytes[at + 2] >> 3) & 7
      let size = ((Int(bytes[at + 2]) & 7) << 8 | Int(bytes[at + 3])) + 1
      let blocks = bytes[at + 4] >> 6 == 3 ? 6 : [1, 2, 3, 6][Int((bytes[at + 4] >> 4) & 3)]
      if streamType != 1 && substream == 0 { samples += blocks * 256 }
      at += size * 2
    }
    return at == bytes.count && samples > 0 ? samples : nil
  }

  /// The access units in `bytes`: each independent frame of substream 0 with the frames that
  /// follow it (dependent frames, other substreams), as the decoder reads one per packet.
  /// One range for the whole packet when it holds one unit or is not a run of sync frames.
  static func accessUnits(_ bytes: [UInt8]) -> [Range<Int>] {
    var starts: [Int] = []
    var at = 0
    while at + 5 <= bytes.count {
      guard bytes[at] == 0x0B, bytes[at + 1] == 0x77 else { return [0..<bytes.count] }
      // bsid (5 bits) is in byte 5 for both AC-3 and E-AC-3: above 10 is E-AC-3.
      guard at + 6 <= bytes.count, bytes[at + 5] >> 3 > 10 else { return [0..<bytes.count] }
      let streamType = bytes[at + 2] >> 6
      let substream = (bytes[at + 2] >> 3) & 7
      let size = ((Int(bytes[at + 2]) & 7) << 8 | Int(bytes[at + 3])) + 1
      if streamType != 1 && substream == 0 { starts.append(at) }
      at += size * 2
    }
    guard at == bytes.count, starts.count > 1, starts.first == 0 else { return [0..<bytes.count] }
    return starts.indices.map { position in
      starts[position]..<(position + 1 < starts.count ? starts[position + 1] : bytes.count)
    }
  }
}
