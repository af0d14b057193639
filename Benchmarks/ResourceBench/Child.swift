// Runs a command as a child process and measures its memory: the kernel's peak resident set
// size (`ru_maxrss` from wait4, the same figure as VmHWM in /proc/<pid>/status) and VmRSS polled
// from /proc while it runs, so growth during a run shows as well as the peak.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

struct ChildRun {
  /// The exit status, or -1 when the command could not be started, or 128 + signal.
  var status: Int32
  var seconds: Double
  /// Peak resident set size, KiB.
  var peakKB: Int
  /// VmRSS samples in KiB, about every `pollInterval`, in order.
  var rss: [Int]
  /// The largest VmRSS seen in the first and in the last quarter of the samples.
  var firstQuarterKB: Int {
    rss.prefix(max(1, rss.count / 4)).max() ?? 0
  }
  var lastQuarterKB: Int {
    rss.suffix(max(1, rss.count / 4)).max() ?? 0
  }
  var ok: Bool { status == 0 }
}

/// VmRSS of `pid` in KiB, or nil once it is gone.
func residentKB(_ pid: pid_t) -> Int? {
  guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
  defer { fclose(file) }
  var buffer = [CChar](repeating: 0, count: 256)
  while fgets(&buffer, Int32(buffer.count), file) != nil {
    let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if line.hasPrefix("VmRSS:") {
      return Int(line.dropFirst(6).filter { $0.isNumber })
    }
  }
  return nil
}

/// Runs `arguments` (the first is an absolute path) in `directory`, standard output to `stdout`
/// (a path; /dev/null by default) and standard error to `stderr`.
func runChild(
  _ arguments: [String], in directory: String? = nil, stdout: String = "/dev/null",
  stderr: String = "/dev/null", pollInterval: Double = 0.005
) -> ChildRun {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

  let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
  let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
  defer {
    for p in argv { free(p) }
    for p in envp { free(p) }
  }

  let clock = ContinuousClock()
  let start = clock.now
  var pid: pid_t = 0
  // The child starts in `directory`: change there around the spawn (this program runs its
  // children one at a time, from one thread).
  let previous = FileManager.default.currentDirectoryPath
  if let directory { _ = FileManager.default.changeCurrentDirectoryPath(directory) }
  let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
  if directory != nil { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
  guard spawned == 0 else {
    return ChildRun(status: -1, seconds: 0, peakKB: 0, rss: [])
  }
  var samples: [Int] = []
  var status: Int32 = 0
  var usage = rusage()
  let sleep = useconds_t(pollInterval * 1e6)
  while true {
    let done = wait4(pid, &status, WNOHANG, &usage)
    if done == pid { break }
    if done < 0 { return ChildRun(status: -1, seconds: 0, peakKB: 0, rss: samples) }
    if let kb = residentKB(pid) { samples.append(kb) }
    usleep(sleep)
  }
  let elapsed = seconds(clock.now - start)
  let exitStatus: Int32 =
    (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  return ChildRun(status: exitStatus, seconds: elapsed, peakKB: usage.ru_maxrss, rss: samples)
}
