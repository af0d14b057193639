import MediaTracks

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An ``AudioEncoder`` that encodes and writes on a thread of its own, so that the caller goes on
/// computing the next block of audio while the previous one is converted, written and handed to
/// the disk (the machine's second processor does the writing). Blocks are written in the order
/// given, each as the encoder's own `write` would write it, so the file is the same byte for
/// byte. A failure to write is reported by the next call after it.
///
/// The caller hands over its block and gets a spare one back (no copying); at most
/// `spareBlocks` blocks wait to be written, after which the caller waits for the writer. Call
/// ``finish()`` to write the rest and the trailer, or ``abandon()`` to give up; one of them must
/// be called (the thread keeps the object alive until then).
final class BackgroundEncoder: @unchecked Sendable {
  // @unchecked: `queue`, `spares`, `ended` and `failure` are only touched with `mutex` held;
  // `encoder` only by the writing thread from its start until it ends, and by the caller's
  // thread before the thread starts and after it has been joined (or when there is none).
  private var encoder: AudioEncoder?
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Signalled when a block is queued, a spare is returned, or the thread is told to end.
  private let changed: UnsafeMutablePointer<pthread_cond_t>
  private var queue: [(samples: [Float], frames: Int)] = []
  private var queueHead = 0
  private var spares: [[Float]]
  private var ended = false
  private var failure: MediaError?
  private var thread: pthread_t?

  /// Starts the writing thread for `encoder` (or, when no thread can be created, writes on the
  /// caller's thread). `spares` are the blocks the caller gets back in exchange for its own,
  /// each as large as the blocks it will hand over.
  init(_ encoder: consuming AudioEncoder, spares: [[Float]]) {
    self.encoder = consume encoder
    self.spares = spares
    queue.reserveCapacity(spares.count + 1)
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    changed = .allocate(capacity: 1)
    changed.initialize(to: pthread_cond_t())
    pthread_cond_init(changed, nil)
    let context = Unmanaged.passRetained(self).toOpaque()
    // `pthread_t` is an integer on Glibc and a non-null pointer on Darwin, whose
    // `pthread_create` fills an optional one and passes the argument as non-optional.
    #if canImport(Darwin)
      var created: pthread_t? = nil
      let code = pthread_create(&created, nil, { raw in runEncoder(raw) }, context)
    #else
      var created = pthread_t()
      let code = pthread_create(&created, nil, { raw in runEncoder(raw) }, context)
    #endif
    if code == 0 {
      thread = created
    } else {
      Unmanaged<BackgroundEncoder>.fromOpaque(context).release()
    }
  }

  deinit {
    pthread_cond_destroy(changed)
    changed.deinitialize(count: 1)
    changed.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Queues the first `frames` frames of `block` to be written and replaces `block` with a spare
  /// of the same size (waiting for one while the writer is behind).
  ///
  /// - Throws: The `MediaError` of a write that failed (the encoder then writes nothing more).
  func write(_ block: inout [Float], frames: Int) throws(MediaError) {
    guard thread != nil else {
      try encoder?.write(block, frames: frames)
      return
    }
    pthread_mutex_lock(mutex)
    while spares.isEmpty && failure == nil {
      pthread_cond_wait(changed, mutex)
    }
    if let failure {
      pthread_mutex_unlock(mutex)
      throw failure
    }
    // Exchanged under the lock: the caller keeps no reference to the block it handed over, so
    // the writer hands it back unshared, and filling it again copies nothing.
    let spare = spares.removeLast()
    queue.append((block, frames))
    block = spare
    pthread_mutex_unlock(mutex)
    // Signalled after unlocking, so that the writer does not wake only to wait for the lock.
    // At most one thread waits at a time: the caller waits only when no spare is left, that is
    // while the writer has blocks to write.
    pthread_cond_signal(changed)
  }

  /// Writes what is queued and the trailer (see `AudioEncoder.finish()`).
  ///
  /// - Throws: The `MediaError` of a write or of the trailer that failed.
  func finish() throws(MediaError) {
    stop()
    if let failure { throw failure }
    try encoder?.finish()
  }

  /// Gives up: ends the writing thread after the block it is writing and abandons the encoder
  /// (see `AudioEncoder.abandon()`).
  func abandon() {
    pthread_mutex_lock(mutex)
    queue.removeAll()
    queueHead = 0
    pthread_mutex_unlock(mutex)
    stop()
    encoder.take()?.abandon()
  }

  /// Ends the writing thread after the blocks queued so far (idempotent).
  private func stop() {
    guard let running = thread else { return }
    pthread_mutex_lock(mutex)
    ended = true
    pthread_cond_broadcast(changed)
    pthread_mutex_unlock(mutex)
    pthread_join(running, nil)
    thread = nil
  }

  /// The writing thread: writes each queued block in turn until told to end with nothing
  /// queued, or until a write fails.
  fileprivate func run() {
    pthread_mutex_lock(mutex)
    while true {
      while queueHead == queue.count && !ended {
        pthread_cond_wait(changed, mutex)
      }
      guard queueHead < queue.count else { break }
      let (block, frames) = queue[queueHead]
      queue[queueHead].samples = []
      queueHead += 1
      if queueHead == queue.count {
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
      }
      pthread_mutex_unlock(mutex)
      var error: MediaError?
      do throws(MediaError) {
        try encoder?.write(block, frames: frames)
      } catch let caught {
        error = caught
      }
      pthread_mutex_lock(mutex)
      spares.append(consume block)
      if let error {
        failure = error
        break
      }
      // A caller waiting for a spare waits for the lock too: it is signalled after unlocking.
      if spares.count == 1 {
        pthread_mutex_unlock(mutex)
        pthread_cond_signal(changed)
        pthread_mutex_lock(mutex)
      }
    }
    pthread_mutex_unlock(mutex)
    pthread_cond_signal(changed)
  }
}

/// The entry of a `BackgroundEncoder`'s writing thread: runs and releases the encoder `raw`
/// holds.
private func runEncoder(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  guard let raw else { return nil }
  Unmanaged<BackgroundEncoder>.fromOpaque(raw).takeRetainedValue().run()
  return nil
}
