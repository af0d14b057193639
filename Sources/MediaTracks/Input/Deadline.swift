internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The time limit of one FFmpeg call (an open, a stream-information pass, a packet read): each
/// call restarts it with ``start()``. FFmpeg's interrupt callback and the file reader of a
/// ``FormatContext`` ask ``isPast``; once past, the call ends with an error and the
/// caller reports ``error(_:path:)``.
///
/// Not `Sendable`: one context, on one thread, owns it.
final class Deadline {
  /// The longest one call may take, in seconds (`.infinity`: no limit).
  let seconds: Double
  /// When the current call must end, in seconds of the monotonic clock.
  private var limit = Double.infinity
  /// Whether a call ran past its limit since the last ``start()`` (or was cancelled).
  private(set) var expired = false
  /// Whether the async call this deadline works for was cancelled (see ``CancellationFlag``).
  private(set) var cancelled = false
  /// The cancellation flag current when the deadline was made.
  private let cancellation = CancellationFlag.current
  /// The end of the whole item this deadline's calls work for (``itemEnd`` when it was made).
  private let itemLimit = Deadline.itemEnd

  /// When the item being read must be done, in seconds of the monotonic clock, or `nil`: set
  /// around the reading of a remote input (``within(seconds:_:)``), so that its manifest, its
  /// playlists and segments, or its transfer end within the timeout in all, not per call.
  @TaskLocal static var itemEnd: Double? = nil

  /// Runs `body` with every deadline made in it also ending `seconds` from now (nested
  /// calls keep the earlier end).
  static func within<T>(seconds: Double, _ body: () throws(MediaError) -> T) throws(MediaError) -> T
  {
    guard seconds.isFinite, seconds > 0 else { return try body() }
    let end = min(itemEnd ?? .infinity, now() + seconds)
    let result: Result<T, MediaError> = $itemEnd.withValue(end) {
      do throws(MediaError) {
        return .success(try body())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// A deadline of `timeout` seconds per call, or of ``MediaProbe/defaultTimeout`` for `nil`.
  /// - Throws: `.invalidArgument` when `timeout` is not a positive number of seconds.
  init(timeout: Double?) throws(MediaError) {
    let seconds = timeout ?? MediaProbe.defaultTimeout
    guard seconds > 0, !seconds.isNaN else {
      throw MediaError(
        kind: .invalidArgument, operation: "timeout",
        detail: "the timeout must be a positive number of seconds, got \(seconds)")
    }
    self.seconds = seconds
  }

  /// Starts a call: it may run until `seconds` from now.
  func start() {
    expired = false
    limit = min(seconds.isFinite ? Deadline.now() + seconds : .infinity, itemLimit ?? .infinity)
  }

  /// Whether the current call has run past its limit (remembered in ``expired``).
  var isPast: Bool {
    if expired { return true }
    if let cancellation, cancellation.isCancelled {
      cancelled = true
      expired = true
      return true
    }
    if limit.isFinite && Deadline.now() >= limit { expired = true }
    return expired
  }

  /// Milliseconds left for the current call (at least 0, at most `Int32.max`).
  var millisecondsLeft: Int32 {
    guard limit.isFinite else { return Int32.max }
    let left = (limit - Deadline.now()) * 1000
    return left <= 0 ? 0 : Int32(min(left.rounded(.up), Double(Int32.max)))
  }

  /// The error for a call that ran past the limit, or was cancelled.
  func error(_ operation: String, path: String) -> MediaError {
    if cancelled { return MediaError.cancelled(operation) }
    return MediaError.timeout(operation, path: path, seconds: Deadline.text(seconds))
  }

  /// Seconds as short text: `30`, `0.5`.
  private static func text(_ seconds: Double) -> String {
    seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds)
  }

  /// The monotonic clock, in seconds.
  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }

  /// FFmpeg's interrupt callback for a context whose `opaque` is a deadline (unretained: the
  /// context's owner keeps it alive): 1 once the deadline is past.
  static let interruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<Deadline>.fromOpaque(opaque).takeUnretainedValue().isPast ? 1 : 0
  }
}
