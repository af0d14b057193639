/// FFmpeg's two ways of failing, turned into a ``MediaError`` in one place (as swift-system's
/// `valueOrErrno` does for `errno`): a function that returns a negative `AVERROR` code, and an
/// allocator or lookup that returns `NULL`. Every FFmpeg call whose failure is reported as it
/// is goes through here; the few throws left elsewhere check something else (a count written,
/// a run of decoding errors, a missing stream) or clean up first.
enum FFmpegCall {
  /// Calls `function` and returns its code when it is not negative; otherwise throws an error
  /// of `kind` naming `operation` and carrying the code.
  ///
  /// - Parameters:
  ///   - operation: The FFmpeg function called (`"avformat_write_header"`).
  ///   - kind: The kind of error a failure is.
  ///   - detail: What could not be done, with the path where one applies.
  ///   - function: The call; its result is an `AVERROR` code (negative on failure).
  @discardableResult
  static func check(
    _ operation: String, _ kind: MediaError.Kind, _ detail: @autoclosure () -> String,
    _ function: () -> Int32
  ) throws(MediaError) -> Int32 {
    let code = function()
    guard code >= 0 else {
      throw MediaError(kind: kind, code: code, operation: operation, detail: detail())
    }
    return code
  }

  /// Calls the allocator `function` and returns what it made; throws an error of kind
  /// `.other` naming `operation` when it returns `nil`.
  ///
  /// - Parameters:
  ///   - operation: The FFmpeg function called (`"av_frame_alloc"`).
  ///   - code: The code the error carries (`0`, or `AVERROR(ENOMEM)`).
  ///   - detail: What could not be done.
  ///   - function: The allocation.
  static func allocate<Value>(
    _ operation: String, code: Int32 = 0, _ detail: @autoclosure () -> String = "out of memory",
    _ function: () -> Value?
  ) throws(MediaError) -> Value {
    try find(operation, .other, code: code, detail(), function)
  }

  /// Calls the lookup `function` (a codec, a muxer) and returns what it found; throws an
  /// error of `kind` naming `operation` when it returns `nil`.
  ///
  /// - Parameters:
  ///   - operation: The FFmpeg function called (`"avcodec_find_decoder"`).
  ///   - kind: The kind of error a failure is.
  ///   - code: The code the error carries (`0`, or what a call before returned).
  ///   - detail: What could not be done, with the path where one applies.
  ///   - function: The lookup.
  static func find<Value>(
    _ operation: String, _ kind: MediaError.Kind, code: Int32 = 0,
    _ detail: @autoclosure () -> String, _ function: () -> Value?
  ) throws(MediaError) -> Value {
    guard let value = function() else {
      throw MediaError(kind: kind, code: code, operation: operation, detail: detail())
    }
    return value
  }
}
