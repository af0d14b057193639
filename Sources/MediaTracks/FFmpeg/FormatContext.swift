internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Owns one demuxing `AVFormatContext`; closes it when it goes away.
///
/// The raw pointer never leaves this module: callers copy the fields they need into values.
///
/// Every call that reads (the open, ``findStreamInfo(path:)``, ``readFrame(_:path:)``) runs
/// under a ``Deadline``, through FFmpeg's interrupt callback and the custom reader. Local files
/// and bytes in memory are read through a custom reader, and FFmpeg may open nothing else: its
/// protocol whitelist names no protocol and its `io_open` refuses, so a playlist, a DASH
/// manifest or an `ffconcat` list inside a local file cannot make FFmpeg open another file
/// (`file:`, `concat:`, `subfile:`) or the network. Only a URL given as the path (`https://…`)
/// is opened by FFmpeg's own protocols.
struct FormatContext: ~Copyable {
  private(set) var raw: UnsafeMutablePointer<AVFormatContext>
  /// The custom reader of a context opened on a local file or bytes in memory (freed after the
  /// context).
  private var customIO: UnsafeMutablePointer<AVIOContext>? = nil
  /// The bytes a memory context reads; kept alive as long as the context.
  private var memory: MemorySource? = nil
  /// The local file a context reads; kept alive as long as the context.
  private var file: FileSource? = nil
  /// Range reads of an http(s) input, for the container's declarations.
  private var remoteBytes: HTTPBytes? = nil
  /// The limit of each reading call; FFmpeg's interrupt callback points at it.
  let deadline: Deadline
  /// Where the demuxer's reader stood once the headers were read: the first byte of the media
  /// data in formats whose packets follow the header (raw GSM, Wave64), or `nil`.
  private(set) var dataOffset: Int64? = nil
  /// Where the demuxer's view of a local file starts, in bytes: past 0 for a raw MPEG audio or
  /// ADTS stream read from its first frame (see ``ElementaryFrames/firstFrame(_:kind:)``).
  /// Offsets of ``byteSource`` are the view's.
  private(set) var mediaStart: Int64 = 0
  /// The samples of an MPEG audio file's one frame, read with a copy of its header after it
  /// (see ``ElementaryFrames/loneMPEGAudioFrame(_:)``): all the audio there is. `nil` for any
  /// other file.
  private(set) var loneFrameSamples: Int? = nil

  /// The most bytes FFmpeg reads to recognise a format (its default, stated: 1 MiB).
  static let formatProbeBytes: Int32 = 1 << 20
  /// The most bytes the stream-information pass reads (FFmpeg's default, stated: 5 MB).
  static let streamInfoBytes: Int64 = 5_000_000
  /// The most media time the stream-information pass reads, in microseconds (FFmpeg's default
  /// for most formats, stated: 5 s).
  static let streamInfoDuration: Int64 = 5_000_000

  /// Opens `path` for reading. The corresponding C function is `avformat_open_input`.
  ///
  /// When a regular file's first bytes name the one demuxer that reads them (Matroska/WebM,
  /// MP4/MOV, Ogg, FLAC; see ``InputSignature/demuxer(_:)``), or else its extension names one
  /// whose demuxer checks its own magic bytes (those, and WAVE), that demuxer is tried first,
  /// which skips FFmpeg's probe of every format; if it rejects the file, the file is opened
  /// again with the full probe.
  ///
  /// - Parameters:
  ///   - timeout: The longest one reading call may take, in seconds (`nil`:
  ///     ``MediaProbe/defaultTimeout``).
  ///   - remote: How an http(s) URL is requested (see ``RemoteAccess``).
  init(path: String, timeout: Double? = nil, remote: RemoteAccess = RemoteAccess())
    throws(MediaError)
  {
    try FFmpegLibraries.require()
    let deadline = try Deadline(timeout: timeout)
    if let url = InputPath.url(path) {
      // FFmpeg's own protocols, under the deadline; http(s) with the remote options (its
      // whitelist allows nothing local).
      var options: OpaquePointer? = nil
      if RemoteURL.isRemote(url) {
        _ = RemoteFetch.networkReady
        options = try RemoteFetch.options(remote, deadline: deadline)
      }
      defer { av_dict_free(&options) }
      let (code, opened) = FormatContext.openInput(
        url: url, reader: nil, format: nil, deadline: deadline, confined: false,
        options: &options)
      guard code >= 0, let opened else {
        if RemoteURL.isRemote(url) {
          throw RemoteFetch.error(
            code, url: url, deadline: deadline, operation: "avformat_open_input")
        }
        throw FormatContext.openingError(path, code: code, deadline: deadline)
      }
      try self.init(adopting: opened, reader: nil, path: path, deadline: deadline)
      if RemoteURL.isRemote(url), let io = opened.pointee.pb, avio_size(io) > 0 {
        remoteBytes = HTTPBytes(url: url, size: avio_size(io), access: remote, deadline: deadline)
      }
      return
    }
    let localPath = InputPath.localPath(path)
    let file = try FileSource(path: localPath, deadline: deadline)
    // Raw-stream demuxers (FLAC, AC-3, DTS) open an empty file and report a track of 0 Hz and
    // no channels. (A named pipe's size is 0 too, and is not empty.)
    if file.size == 0 {
      throw MediaError(
        kind: .malformed, operation: "avformat_open_input", detail: "'\(path)' is empty")
    }
    // A regular file's first bytes say what it is; a pipe is not read ahead.
    let head = FileBytes(file)?.signatureHead()
    // An HLS playlist or DASH manifest (by content, whatever its name) names other inputs,
    // which are never opened; FFmpeg's DASH demuxer would also spin on a live manifest until
    // the deadline. Refused before FFmpeg sees it.
    if let head, ManifestParser.sniff(head) != nil {
      throw FormatContext.referencesError(path)
    }
    // An ASF file's packets that FFmpeg would drop for their padding (see
    // ``ASFHeader/paddingRepairs(_:)``) are read with it cleared.
    if let head, ASFHeader.starts(head), let bytes = FileBytes(file),
      let layout = ASFHeader.read(bytes)
    {
      file.patches = layout.paddingRepairs(bytes)
    }
    var code: Int32 = -1
    var opened: UnsafeMutablePointer<AVFormatContext>? = nil
    var reader: UnsafeMutablePointer<AVIOContext>? = nil
    // A pipe cannot be read twice: it gets the full probe at once.
    if let head,
      let hint = InputSignature.demuxer(head) ?? InputSignature.demuxer(named: path),
      let format = av_find_input_format(hint)
    {
      reader = file.makeReader()
      if let io = reader {
        (code, opened) = FormatContext.openInput(
          url: localPath, reader: io, format: format, deadline: deadline, confined: true)
      }
      if code < 0, let io = reader {
        FileSource.free(io)
        reader = nil
        if deadline.expired {
          throw FormatContext.openingError(path, code: code, deadline: deadline)
        }
        guard file.rewind() else { throw MediaError.opening(path, code: code) }
      }
    }
    if code < 0 {
      let io = try FFmpegCall.allocate(
        "avio_alloc_context", code: cff_averror(ENOMEM), "cannot open '\(path)'"
      ) { file.makeReader() }
      reader = io
      (code, opened) = FormatContext.openInput(
        url: localPath, reader: io, format: nil, deadline: deadline, confined: true)
    }
    // An MPEG audio file of one frame, which FFmpeg's demuxer refuses for want of a next
    // frame header to check it by (see ``ElementaryFrames/loneMPEGAudioFrame(_:)``): read with
    // that frame's header again after its end, a cut frame the parser drops.
    var lone: Int? = nil
    if code < 0, file.isRegular, !deadline.expired, let bytes = FileBytes(file),
      let frame = ElementaryFrames.loneMPEGAudioFrame(bytes), let mp3 = av_find_input_format("mp3")
    {
      if let io = reader { FileSource.free(io) }
      reader = file.rewind() ? file.makeReader(from: 0, end: frame.end, tail: frame.header) : nil
      if let io = reader {
        (code, opened) = FormatContext.openInput(
          url: localPath, reader: io, format: mp3, deadline: deadline, confined: true)
      }
      lone = frame.samples
    }
    guard code >= 0, var opened, var io = reader else {
      if let io = reader { FileSource.free(io) }
      throw FormatContext.openingError(path, code: code, deadline: deadline)
    }
    // A raw MPEG audio or ADTS stream with bytes that are not frames before its first frame
    // (see ``ElementaryFrames/firstFrame(_:kind:)``): opened again from that frame, as if the
    // bytes before it were not there.
    var start: Int64 = 0
    let demuxer = FormatContext.name(of: opened)
    let raw: ElementaryFrames.Kind? =
      demuxer == "mp3" ? .mpegAudio : demuxer == "aac" ? .adts : nil
    if let raw, file.isRegular, let bytes = FileBytes(file),
      let first = ElementaryFrames.firstFrame(bytes, kind: raw),
      let iformat = av_find_input_format(demuxer)
    {
      var closing: UnsafeMutablePointer<AVFormatContext>? = opened
      avformat_close_input(&closing)
      FileSource.free(io)
      var again: (Int32, UnsafeMutablePointer<AVFormatContext>?) = (-1, nil)
      var windowed = file.makeReader(from: first)
      if let view = windowed {
        again = FormatContext.openInput(
          url: localPath, reader: view, format: iformat, deadline: deadline, confined: true)
      }
      if again.0 >= 0, let reopened = again.1, let view = windowed {
        opened = reopened
        io = view
        start = first
      } else {
        // The view did not open: the whole file, as before.
        if let view = windowed { FileSource.free(view) }
        windowed = file.makeReader(from: 0)
        guard let whole = windowed else {
          throw FormatContext.openingError(path, code: cff_averror(ENOMEM), deadline: deadline)
        }
        let (code, reopened) = FormatContext.openInput(
          url: localPath, reader: whole, format: iformat, deadline: deadline, confined: true)
        guard code >= 0, let reopened else {
          FileSource.free(whole)
          throw FormatContext.openingError(path, code: code, deadline: deadline)
        }
        opened = reopened
        io = whole
      }
    }
    try self.init(adopting: opened, reader: io, path: path, deadline: deadline, file: file)
    mediaStart = start
    loneFrameSamples = lone
  }

  /// Opens the Ogg stream of a local file from byte `start` on (a link of a chained stream,
  /// which begins with its own first pages), as if the bytes before it were not there
  /// (see ``mediaStart``). The corresponding C function is `avformat_open_input`.
  init(oggLinkOf path: String, at start: Int64, timeout: Double? = nil) throws(MediaError) {
    try FFmpegLibraries.require()
    let deadline = try Deadline(timeout: timeout)
    let file = try FileSource(path: InputPath.localPath(path), deadline: deadline)
    guard file.isRegular, let ogg = av_find_input_format("ogg"),
      let io = file.makeReader(from: start)
    else { throw MediaError.opening(path, code: cff_averror(EINVAL)) }
    let (code, opened) = FormatContext.openInput(
      url: InputPath.localPath(path), reader: io, format: ogg, deadline: deadline,
      confined: true)
    guard code >= 0, let opened else {
      FileSource.free(io)
      throw FormatContext.openingError(path, code: code, deadline: deadline)
    }
    try self.init(adopting: opened, reader: io, path: path, deadline: deadline, file: file)
    mediaStart = start
  }

  /// The short name of an opened context's demuxer.
  private static func name(of context: UnsafeMutablePointer<AVFormatContext>) -> String {
    guard let iformat = context.pointee.iformat, let name = iformat.pointee.name else { return "" }
    return String(cString: name)
  }

  /// Takes an opened context: one FFmpeg's own protocols read (`reader` `nil`), or a confined
  /// one reading through the custom `reader`, which keeps `file` or `memory` (what the reader
  /// reads) alive as long as itself. A confined context that opened as a format that only
  /// names other inputs is closed, with its reader, and refused.
  /// - Throws: The refusal (``referencesError(_:)``).
  private init(
    adopting opened: UnsafeMutablePointer<AVFormatContext>,
    reader: UnsafeMutablePointer<AVIOContext>?, path: String, deadline: Deadline,
    file: FileSource? = nil, memory: MemorySource? = nil
  ) throws(MediaError) {
    if let io = reader, let refusal = FormatContext.refuseReferences(opened, path: path) {
      FileSource.free(io)
      throw refusal
    }
    raw = opened
    customIO = reader
    self.file = file
    self.memory = memory
    self.deadline = deadline
    dataOffset = reader.flatMap(FormatContext.readerPosition)
  }

  /// Whether the demuxer has read every byte of its input: its reader reached the end, or stands
  /// at the input's known size. An error from `av_read_frame` then concerns the input's last
  /// packet (VLC's Ogg muxer ends a stream with an empty packet on its end-of-stream page, which
  /// FFmpeg 5.1's Opus and OGM readers reject), and what came before it is the whole stream.
  /// The corresponding C function is `avio_size`.
  var readAllBytes: Bool {
    guard let io = raw.pointee.pb else { return false }
    if io.pointee.eof_reached != 0 { return true }
    let size = avio_size(io)
    guard size > 0, let position = FormatContext.readerPosition(io) else { return false }
    return position >= size
  }

  /// The byte position of a reader (what `avio_tell` computes: the buffer's file position
  /// less the bytes still unread in it), or `nil` when it is not a plausible offset.
  private static func readerPosition(_ io: UnsafeMutablePointer<AVIOContext>) -> Int64? {
    let pending = io.pointee.buf_end - io.pointee.buf_ptr
    let position = io.pointee.pos - Int64(pending)
    return position >= 0 ? position : nil
  }

  /// The error for a failed open: a timeout when the deadline passed, a refused nested input
  /// (the `io_open` of a confined context says `EPERM`), else FFmpeg's code.
  private static func openingError(_ path: String, code: Int32, deadline: Deadline) -> MediaError {
    if deadline.expired { return deadline.error("avformat_open_input", path: path) }
    if code == cff_averror(EPERM) { return referencesError(path) }
    return MediaError.opening(path, code: code)
  }

  /// The demuxers whose input only names other inputs (playlists, manifests, concat lists).
  private static let referringFormats: Set<String> = ["hls", "dash", "concat", "imf"]

  /// Closes `context` and returns an error when a confined input opened as a format that only
  /// names other inputs (which it may not open); `nil` otherwise.
  private static func refuseReferences(
    _ context: UnsafeMutablePointer<AVFormatContext>, path: String
  ) -> MediaError? {
    guard let iformat = context.pointee.iformat, let name = iformat.pointee.name,
      referringFormats.contains(String(cString: name))
    else { return nil }
    var closing: UnsafeMutablePointer<AVFormatContext>? = context
    avformat_close_input(&closing)
    return referencesError(path)
  }

  /// The error for a local input that refers to other files or URLs.
  private static func referencesError(_ path: String) -> MediaError {
    MediaError(
      kind: .malformed, operation: "avformat_open_input",
      detail:
        "'\(path)' is a playlist or list of other files or URLs, which are not opened: "
        + "give one of its media files")
  }

  /// Allocates a context, sets its limits (and, when `confined`, its reader and the refusal of
  /// every other input), and opens it under the deadline. On failure the context is freed (but
  /// not `reader`) and the result is `nil`.
  private static func openInput(
    url: String?, reader: UnsafeMutablePointer<AVIOContext>?,
    format: UnsafePointer<AVInputFormat>?, deadline: Deadline, confined: Bool,
    options: UnsafeMutablePointer<OpaquePointer?>? = nil
  ) -> (Int32, UnsafeMutablePointer<AVFormatContext>?) {
    guard let context = avformat_alloc_context() else { return (cff_averror(ENOMEM), nil) }
    context.pointee.interrupt_callback = AVIOInterruptCB(
      callback: Deadline.interruptCallback,
      opaque: Unmanaged.passUnretained(deadline).toOpaque())
    context.pointee.format_probesize = formatProbeBytes
    context.pointee.probesize = streamInfoBytes
    context.pointee.max_analyze_duration = streamInfoDuration
    if confined {
      if let reader {
        context.pointee.pb = reader
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
      }
      // No protocol is on the whitelist (FFmpeg copies it into the contexts a demuxer opens
      // for nested inputs), and the callback every demuxer opens nested inputs with refuses.
      if let whitelist = av_malloc(5)?.assumingMemoryBound(to: CChar.self) {
        for (offset, byte) in "none".utf8.enumerated() { whitelist[offset] = CChar(byte) }
        whitelist[4] = 0
        context.pointee.protocol_whitelist = whitelist
      }
      context.pointee.io_open = { _, _, _, _, _ in cff_averror(EPERM) }
    }
    var opened: UnsafeMutablePointer<AVFormatContext>? = context
    deadline.start()
    // On failure avformat_open_input frees the context but not a custom reader.
    var code = avformat_open_input(&opened, url, format, options)
    // Out of memory while opening is a header stating a table larger than FFmpeg may allocate
    // (see CFFmpegLoader): the file's fault, reported as invalid data.
    if code == cff_averror(ENOMEM) { code = cff_averror_invaliddata() }
    guard code >= 0, let opened else { return (code < 0 ? code : cff_averror(EINVAL), nil) }
    if deadline.expired {
      // A demuxer may carry on with what it read before the reader gave up (the probe of a
      // stalled pipe), and the reader then reports its end: the open failed.
      var closing: UnsafeMutablePointer<AVFormatContext>? = opened
      avformat_close_input(&closing)
      return (cff_averror(ETIMEDOUT), nil)
    }
    return (code, opened)
  }

  /// Reads packets to fill in stream parameters the headers lack.
  /// The corresponding C function is `avformat_find_stream_info`.
  func findStreamInfo(path: String) throws(MediaError) {
    deadline.start()
    let code = avformat_find_stream_info(raw, nil)
    if deadline.expired { throw deadline.error("avformat_find_stream_info", path: path) }
    try FFmpegCall.check(
      "avformat_find_stream_info", .malformed, "cannot read stream information of '\(path)'"
    ) { code }
  }

  /// Reads the next packet into `packet` under the deadline. The corresponding C function is
  /// `av_read_frame`.
  ///
  /// - Returns: FFmpeg's code: 0 for a packet, negative at the end or on an error.
  /// - Throws: `.timedOut` when the read ran past the deadline.
  func readFrame(_ packet: UnsafeMutablePointer<AVPacket>, path: String) throws(MediaError)
    -> Int32
  {
    deadline.start()
    let code = av_read_frame(raw, packet)
    // Past the deadline the reader has given up, and FFmpeg takes that for the end of the
    // input (even when this read still returned a packet).
    if deadline.expired {
      av_packet_unref(packet)
      throw deadline.error("av_read_frame", path: path)
    }
    return code
  }

  /// Random access to the input's bytes, for reading the container's own declarations: the
  /// local regular file, the bytes in memory or an http(s) input of known size (range
  /// requests); `nil` for pipes and other URLs.
  var byteSource: (any ByteSource)? {
    if let memory { return MemoryBytes(memory.bytes, name: memory.name) }
    if let remoteBytes { return remoteBytes }
    guard let whole = file.flatMap({ FileBytes($0) }) else { return nil }
    return mediaStart > 0 ? ByteWindow(whole, start: mediaStart, length: whole.size) : whole
  }

  /// Whether the input is read over http(s) (its bytes cost a request each range).
  var isRemote: Bool { remoteBytes != nil }

  /// The number of streams in the container.
  var streamCount: Int { Int(raw.pointee.nb_streams) }

  /// The demuxer's short name, for example `"matroska,webm"` or `"mov,mp4,m4a,3gp,3g2,mj2"`.
  var formatName: String {
    guard let iformat = raw.pointee.iformat, let name = iformat.pointee.name else { return "" }
    return String(cString: name)
  }

  /// Opens bytes held in memory, read through a custom `AVIOContext` (no temporary file), and
  /// confined as a local file is. `name` only labels errors. The corresponding C functions are
  /// `avio_alloc_context` and `avformat_open_input`.
  init(bytes: [UInt8], name: String, timeout: Double? = nil) throws(MediaError) {
    try FFmpegLibraries.require()
    let deadline = try Deadline(timeout: timeout)
    if ManifestParser.sniff(bytes.prefix(1 << 16)) != nil {
      throw FormatContext.referencesError(name)
    }
    let source = MemorySource(bytes, name: name)
    let bufferSize = 32_768
    let buffer = try FFmpegCall.allocate(
      "av_malloc", code: cff_averror(ENOMEM), "cannot open '\(name)'"
    ) {
      av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self)
    }
    let opaque = Unmanaged.passUnretained(source).toOpaque()
    let io = try FFmpegCall.allocate(
      "avio_alloc_context", code: cff_averror(ENOMEM), "cannot open '\(name)'"
    ) {
      let io = avio_alloc_context(buffer, Int32(bufferSize), 0, opaque, memoryRead, nil, memorySeek)
      if io == nil { av_free(buffer) }
      return io
    }
    let (code, opened) = FormatContext.openInput(
      url: nil, reader: io, format: nil, deadline: deadline, confined: true)
    guard code >= 0, let opened else {
      FileSource.free(io)
      throw FormatContext.openingError(name, code: code, deadline: deadline)
    }
    try self.init(adopting: opened, reader: io, path: name, deadline: deadline, memory: source)
  }

  deinit {
    var context: UnsafeMutablePointer<AVFormatContext>? = raw
    avformat_close_input(&context)
    if let io = customIO { FileSource.free(io) }
  }
}

/// Bytes in memory and a read position, for a custom `AVIOContext`.
final class MemorySource {
  let bytes: [UInt8]
  /// What errors name the bytes by.
  let name: String
  var position = 0

  init(_ bytes: [UInt8], name: String) {
    self.bytes = bytes
    self.name = name
  }
}

/// `read_packet` of a memory reader: copies up to `size` bytes, `AVERROR_EOF` at the end.
private func memoryRead(
  _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
  guard let opaque, let buffer, size > 0 else { return cff_averror_eof() }
  let source = Unmanaged<MemorySource>.fromOpaque(opaque).takeUnretainedValue()
  let count = min(Int(size), source.bytes.count - source.position)
  guard count > 0 else { return cff_averror_eof() }
  source.bytes.withUnsafeBufferPointer { bytes in
    guard let base = bytes.baseAddress else { return }
    buffer.update(from: base + source.position, count: count)
  }
  source.position += count
  return Int32(count)
}

/// `seek` of a memory reader: `SEEK_SET`/`SEEK_CUR`/`SEEK_END` and `AVSEEK_SIZE`.
private func memorySeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32)
  -> Int64
{
  guard let opaque else { return Int64(cff_averror(EINVAL)) }
  let source = Unmanaged<MemorySource>.fromOpaque(opaque).takeUnretainedValue()
  let size = Int64(source.bytes.count)
  if whence & AVSEEK_SIZE != 0 { return size }
  let base: Int64
  switch whence & ~AVSEEK_FORCE {
  case SEEK_SET: base = 0
  case SEEK_CUR: base = Int64(source.position)
  case SEEK_END: base = size
  default: return Int64(cff_averror(EINVAL))
  }
  let (target, overflow) = base.addingReportingOverflow(offset)
  guard !overflow, target >= 0, target <= size else { return Int64(cff_averror(EINVAL)) }
  source.position = Int(target)
  return target
}

extension FormatContext {
  /// The stream at `index` (which must be below `streamCount`); borrowed, never escapes.
  func stream(at index: Int) -> UnsafeMutablePointer<AVStream> {
    raw.pointee.streams[index]!
  }

  /// A stream's duration in seconds, else the container's, else `nil`.
  func duration(ofStream index: Int) -> Double? {
    let stream = stream(at: index)
    let value = stream.pointee.duration
    if value != cff_nopts_value() && value > 0 {
      return Double(value) * av_q2d(stream.pointee.time_base)
    }
    return containerDuration
  }

  /// The duration in seconds the headers state for the stream itself (not the container's, which
  /// may cover longer subtitle or video streams), or `nil` when unknown, only estimated from
  /// the bit rate and file size, or read from an Ogg file's last page.
  func headerDuration(ofStream index: Int) -> Double? {
    // Not a duration estimated from the bit rate (a guess), nor Ogg's, which the demuxer reads
    // from the last page, so it is where the file ends, cut or not, and includes a start
    // offset. (`duration_estimation_method` is only set by `avformat_find_stream_info`.)
    guard raw.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE,
      formatName != "ogg"
    else { return nil }
    // A streamed AIFF file's header states a placeholder's hours: its bytes are what it holds.
    if let streamed = streamedAIFFDuration(ofStream: index) { return streamed }
    let stream = stream(at: index)
    let value = stream.pointee.duration
    guard value != cff_nopts_value() && value > 0 else { return nil }
    return Double(value) * av_q2d(stream.pointee.time_base)
  }

  /// The longest duration in seconds the headers state for any stream, video and subtitles
  /// included (see ``headerDuration(ofStream:)``), or `nil` when none states one.
  func longestStatedStream() -> Double? {
    (0..<streamCount).compactMap { headerDuration(ofStream: $0) }.filter { !isImplausible($0) }
      .max()
  }

  /// Whether FFmpeg only estimated the durations from the bit rate and the file size (set by
  /// the stream-information pass).
  var durationFromBitRate: Bool {
    raw.pointee.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE
  }

  /// Whether some stream is video other than an attached picture (cover art).
  var hasMovingPictures: Bool {
    (0..<streamCount).contains { index in
      let stream = stream(at: index)
      return stream.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        && stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
    }
  }

  /// The container's duration in seconds, or `nil` when unknown.
  var containerDuration: Double? {
    let value = raw.pointee.duration
    guard value != cff_nopts_value() && value > 0 else { return nil }
    return Double(value) / Double(cff_time_base())
  }

  /// The stream index of the default audio track: the one ``TrackSelection`` picks with no
  /// language preference (from the facts the headers give).
  func defaultAudioStream(path: String) throws(MediaError) -> Int {
    var (audio, _) = tracks()
    TrackKinds.classify(&audio)
    guard let chosen = TrackSelection.defaultAudio(in: audio, preferences: TrackPreferences())
    else {
      throw MediaError(
        kind: .noSuchStream, operation: "AudioDecoder", detail: "'\(path)' has no audio track")
    }
    return chosen.index
  }
}
