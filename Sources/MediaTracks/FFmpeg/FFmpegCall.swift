/// FFmpeg's two ways of failing, turned into a ``MediaError`` in one place (as swift-system's
/// `valueOrErrno` does for `errno`): a function that returns a negative `AVERROR` code, and an
/// allocator that returns `NULL`.
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
    guard let value = function() else {
      throw MediaError(kind: .other, code: code, operation: operation, detail: detail())
    }
    return value
  }
}
