#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A bounded hand-off of blocks of interleaved samples from one producing thread to one
/// consuming thread, so that decoding, stretching and encoding run on different cores.
///
/// A fixed set of buffers circulates: the producer takes an empty one, fills it and sends it;
/// the consumer receives it and gives it back. Nothing is allocated after `init`. The producer
/// ends the stream with ``close(failure:)``; the consumer may stop early with ``cancel()``, after
/// which the producer's ``takeEmpty()`` returns `nil`.
final class BlockChannel<Failure: Error & Sendable>: @unchecked Sendable {
  // @unchecked: every stored property below is only touched with `mutex` held.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let changed: UnsafeMutablePointer<pthread_cond_t>
  private var empty: [[Float]]
  private var full: [(samples: [Float], frames: Int)]
  private var closed = false
  private var cancelled = false
  private var storedFailure: Failure?

  /// Creates `count` buffers of `samples` floats each.
  init(buffers count: Int, samples: Int) {
    empty = Array(repeating: [Float](repeating: 0, count: samples), count: count)
    // Each buffer gets its own storage now, not at its first write on another thread.
    for i in empty.indices { empty[i][0] = 0 }
    full = []
    full.reserveCapacity(count)
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    changed = .allocate(capacity: 1)
    changed.initialize(to: pthread_cond_t())
    pthread_cond_init(changed, nil)
  }

  deinit {
    pthread_cond_destroy(changed)
    changed.deinitialize(count: 1)
    changed.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Takes the mutex, then waits on the condition until `ready` holds.
  private func lock(until ready: () -> Bool) {
    pthread_mutex_lock(mutex)
    while !ready() { pthread_cond_wait(changed, mutex) }
  }

  /// Wakes the other thread and releases the mutex.
  private func unlockAndSignal() {
    pthread_cond_broadcast(changed)
    pthread_mutex_unlock(mutex)
  }

  // MARK: Producer

  /// An empty buffer to fill, waiting for one if all are in use; `nil` once the consumer has
  /// cancelled.
  func takeEmpty() -> [Float]? {
    lock { cancelled || !empty.isEmpty }
    defer { unlockAndSignal() }
    return cancelled ? nil : empty.removeLast()
  }

  /// Hands `frames` frames in `samples` to the consumer.
  func send(_ samples: [Float], frames: Int) {
    lock { true }
    defer { unlockAndSignal() }
    full.append((samples, frames))
  }

  /// Ends the stream: the consumer receives what was sent, then `nil`, then sees `failure`.
  func close(failure: Failure? = nil) {
    lock { true }
    defer { unlockAndSignal() }
    closed = true
    storedFailure = failure
  }

  // MARK: Consumer

  /// The next block sent, waiting for one; `nil` when the producer closed the stream and every
  /// block was received (then see ``failure``).
  func receive() -> (samples: [Float], frames: Int)? {
    lock { closed || !full.isEmpty }
    defer { unlockAndSignal() }
    return full.isEmpty ? nil : full.removeFirst()
  }

  /// Gives a received buffer back for the producer to fill again.
  func recycle(_ samples: [Float]) {
    lock { true }
    defer { unlockAndSignal() }
    empty.append(samples)
  }

  /// Stops the producer: its next ``takeEmpty()`` returns `nil`.
  func cancel() {
    lock { true }
    defer { unlockAndSignal() }
    cancelled = true
  }

  /// Why the producer closed the stream, if it failed.
  var failure: Failure? {
    lock { true }
    defer { unlockAndSignal() }
    return storedFailure
  }
}

/// A thread running one closure; ``join()`` waits for it to end.
struct WorkerThread: ~Copyable {
  private final class Box {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  #if canImport(Glibc)
    private var thread = pthread_t()
  #else
    private var thread: pthread_t? = nil
  #endif

  /// Starts `body` on a new thread, or returns `nil` (and does not run it) when the system
  /// cannot create one.
  init?(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let code = pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
        return nil
      }, box)
    guard code == 0 else {
      Unmanaged<Box>.fromOpaque(box).release()
      return nil
    }
  }

  /// Waits for the closure to return.
  consuming func join() {
    #if canImport(Glibc)
      pthread_join(thread, nil)
    #else
      if let thread { pthread_join(thread, nil) }
    #endif
  }
}
