// Runs a command as a child process and measures its memory: the peak resident set size and
// VmRSS polled from /proc while it runs, so growth during a run shows as well as the peak.
//
// The peak is `/usr/bin/time -f %M` of the command when GNU time is installed (Debian's `time`
// package), else the last VmHWM read from /proc/<pid>/status before the command exited. Not
// wait4's own ru_maxrss: posix_spawn starts the child on this process's address space
// (CLONE_VM), and Linux carries that high-water mark over the exec, so the child's figure would
// include this benchmark's own peak.
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

/// VmRSS and VmHWM of `pid` in KiB, or nil once it is gone.
func memoryKB(_ pid: pid_t) -> (rss: Int, hwm: Int)? {
  guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
    return nil
  }
  var rss: Int? = nil
  var hwm: Int? = nil
  for line in text.split(separator: "\n") {
    if line.hasPrefix("VmRSS:") { rss = Int(line.dropFirst(6).filter(\.isNumber)) }
    if line.hasPrefix("VmHWM:") { hwm = Int(line.dropFirst(6).filter(\.isNumber)) }
  }
  guard let rss, let hwm else { return nil }
  return (rss, hwm)
}

/// The first child of `pid`, or nil.
func firstChild(of pid: pid_t) -> pid_t? {
  guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
  else { return nil }
  return text.split(separator: " ").first.flatMap { pid_t($0) }
}

let gnuTime: String? =
  FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

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

  let peakFile = FileManager.default.temporaryDirectory.appendingPathComponent(
    "resourcebench-\(getpid()).peak"
  ).path
  let command = gnuTime.map { [$0, "-f", "%M", "-o", peakFile] + arguments } ?? arguments
  let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
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
  let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
  if directory != nil { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
  guard spawned == 0 else {
    return ChildRun(status: -1, seconds: 0, peakKB: 0, rss: [])
  }
  var samples: [Int] = []
  var lastHWM = 0
  var status: Int32 = 0
  var usage = rusage()
  var measured: pid_t? = gnuTime == nil ? pid : nil
  let sleep = useconds_t(pollInterval * 1e6)
  while true {
    let done = wait4(pid, &status, WNOHANG, &usage)
    if done == pid { break }
    if done < 0 { return ChildRun(status: -1, seconds: 0, peakKB: 0, rss: samples) }
    if measured == nil { measured = firstChild(of: pid) }
    if let measured, let memory = memoryKB(measured) {
      samples.append(memory.rss)
      lastHWM = max(lastHWM, memory.hwm)
    }
    usleep(sleep)
  }
  let elapsed = seconds(clock.now - start)
  let exitStatus: Int32 =
    (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  var peak = lastHWM
  if gnuTime != nil {
    let text = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
    // GNU time writes "Command exited with non-zero status N" before the figure on failure.
    peak =
      text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
      ?? lastHWM
    try? FileManager.default.removeItem(atPath: peakFile)
  }
  return ChildRun(status: exitStatus, seconds: elapsed, peakKB: peak, rss: samples)
}
