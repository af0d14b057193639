#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the task that asked for a blocking read has been cancelled: set from the task's
/// cancellation handler, read by every ``Deadline`` made while it is the current flag (FFmpeg's
/// interrupt callback asks the deadline, so a cancelled probe or transfer ends at FFmpeg's next
/// check, within milliseconds).
final class CancellationFlag: Sendable {
  private let state = PthreadLocked(false)

  /// The flag of the async call the current thread works for, or `nil`.
  @TaskLocal static var current: CancellationFlag? = nil

  /// Marks the work cancelled.
  func cancel() { state.withLock { $0 = true } }

  /// Whether the work was cancelled.
  var isCancelled: Bool { state.withLock { $0 } }
}

/// The async entry points: blocking work on a thread of its own, cancelled with the task.
enum BlockingWork {
  /// Runs `body` on a new thread, so a blocking FFmpeg call or transfer never holds a thread
  /// of Swift's cooperative pool, with a ``CancellationFlag`` that the task's cancellation sets.
  ///
  /// - Throws: `body`'s error; ``MediaError/cancelled(_:)`` when the task was cancelled before
  ///   the work started (once started, the work itself ends with that error at its next read).
  static func run<T: Sendable>(
    _ operation: String, _ body: @escaping @Sendable () throws(MediaError) -> T
  ) async throws(MediaError) -> T {
    if Task.isCancelled { throw MediaError.cancelled(operation) }
    let flag = CancellationFlag()
    let result: Result<T, MediaError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        WorkerThreads.detach {
          let outcome = CancellationFlag.$current.withValue(flag) {
            () -> Result<T, MediaError> in
            do throws(MediaError) {
              return .success(try body())
            } catch {
              return .failure(error)
            }
          }
          continuation.resume(returning: outcome)
        }
      }
    } onCancel: {
      flag.cancel()
    }
    return try result.get()
  }
}
