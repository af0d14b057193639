#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shared state of a batch probe: the next file to take and the outputs so far.
/// Every mutable field is inside a `PthreadLocked`.
final class ProbeBatch<Output: Sendable>: Sendable {
  private struct State {
    var next = 0
    var outputs: [Output?]
  }

  let paths: [String]
  let preferences: TrackPreferences
  let locale: LabelLocale
  /// The per-call timeout in seconds, or `nil` for the default.
  let timeout: Double?
  /// How http(s) inputs are requested.
  let remote: RemoteAccess
  /// Turns a file's result into the output kept for it; runs on the worker, outside the lock.
  let transform: @Sendable (Int, Result<MediaInfo, MediaError>) -> Output
  let onOutput: (@Sendable (Int, Output) -> Void)?
  private let state: PthreadLocked<State>

  init(
    paths: [String], preferences: TrackPreferences, locale: LabelLocale, timeout: Double?,
    remote: RemoteAccess = RemoteAccess(),
    transform: @escaping @Sendable (Int, Result<MediaInfo, MediaError>) -> Output,
    onOutput: (@Sendable (Int, Output) -> Void)?
  ) {
    self.paths = paths
    self.preferences = preferences
    self.locale = locale
    self.timeout = timeout
    self.remote = remote
    self.transform = transform
    self.onOutput = onOutput
    state = PthreadLocked(State(outputs: Array(repeating: nil, count: paths.count)))
  }

  /// Takes files one at a time until none are left.
  func run() {
    while true {
      let position = state.withLock { state -> Int? in
        guard state.next < paths.count else { return nil }
        defer { state.next += 1 }
        return state.next
      }
      guard let position else { return }
      let result: Result<MediaInfo, MediaError>
      do throws(MediaError) {
        result = .success(
          try MediaProbe.probe(
            path: paths[position], preferences: preferences, locale: locale, timeout: timeout,
            remote: remote))
      } catch {
        result = .failure(error)
      }
      let output = transform(position, result)
      state.withLock { state in
        state.outputs[position] = output
        onOutput?(position, output)
      }
    }
  }

  /// Every output, in input order (after all workers are done). A file no worker reached (which
  /// only happens if a worker stopped early) is transformed from a "not probed" error.
  func outputs() -> [Output] {
    let kept = state.withLock { state in state.outputs }
    return kept.enumerated().map { position, output in
      output
        ?? transform(
          position,
          .failure(MediaError(kind: .other, operation: "probe", detail: "the file was not probed")))
    }
  }
}

/// Runs a closure on several POSIX threads and waits for all of them.
enum WorkerThreads {
  fileprivate final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Runs `body` on `count` threads at once; returns when every thread has finished. If a thread
  /// cannot be created, its share runs on the calling thread.
  static func run(count: Int, _ body: @escaping @Sendable () -> Void) {
    var threads: [pthread_t] = []
    for _ in 0..<count {
      if let thread = spawn(body) {
        threads.append(thread)
      } else {
        body()
      }
    }
    for thread in threads { pthread_join(thread, nil) }
  }

  /// Runs `body` on a new detached thread (or, if one cannot be created, on the calling thread)
  /// and returns at once.
  static func detach(_ body: @escaping @Sendable () -> Void) {
    if let thread = spawn(body) {
      pthread_detach(thread)
    } else {
      body()
    }
  }

  /// A new thread running `body`, or `nil` when none can be created (`body` not run).
  private static func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    // `pthread_t` is an integer on Glibc and a non-null pointer on Darwin, whose
    // `pthread_create` fills an optional one and passes the argument as non-optional.
    #if canImport(Darwin)
      var created: pthread_t? = nil
      let code = pthread_create(&created, nil, { raw in runBox(raw) }, box)
      let thread = created
    #else
      var created = pthread_t()
      let code = pthread_create(&created, nil, { raw in runBox(raw) }, box)
      let thread: pthread_t? = created
    #endif
    guard code == 0 else {
      Unmanaged<Box>.fromOpaque(box).release()
      return nil
    }
    return thread
  }
}

/// The entry of a thread started by `WorkerThreads.spawn`: runs and releases the box `raw` holds.
private func runBox(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  guard let raw else { return nil }
  let box = Unmanaged<WorkerThreads.Box>.fromOpaque(raw).takeRetainedValue()
  box.body()
  return nil
}

/// A value guarded by a `pthread_mutex_t`. (The standard library's `Mutex` waits on a futex
/// directly on Linux, which ThreadSanitizer does not see as synchronisation; a pthread mutex it
/// does, so the sanitizer run checks the real accesses.)
final class PthreadLocked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched between pthread_mutex_lock and pthread_mutex_unlock.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<T>(_ body: (inout Value) -> T) -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body(&value)
  }
}
