import Foundation

/// The result of running the built `mtool` binary.
struct RunResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// The directory holding the committed fixtures, found from this file's path.
let fixtures: String = {
  var path = #filePath
  while let slash = path.lastIndex(of: "/"), !path.hasSuffix("/Tests") {
    path = String(path[..<slash])
  }
  return path + "/Fixtures"
}()

/// The `mtool` executable built beside the test bundle.
let mtoolBinary: String = {
  let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
  var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
  // Inside an .xctest bundle directory on some layouts.
  while dir.path != "/" {
    let candidate = dir.appendingPathComponent("mtool").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    dir = dir.deletingLastPathComponent()
  }
  return "mtool"
}()

/// Runs `mtool` with `arguments` and optional standard input; waits for it to finish.
///
/// With `unprivileged`, a test running as root runs `mtool` as the user `nobody` (through
/// util-linux's `setpriv`), so file permissions apply to it as they would to a user.
/// `environment` adds to (or replaces entries of) the test's own environment.
func runMtool(
  _ arguments: [String], stdin: Data? = nil, unprivileged: Bool = false,
  environment: [String: String] = [:]
) throws -> RunResult {
  let process = Process()
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  if unprivileged && geteuid() == 0 {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments =
      ["--reuid=65534", "--regid=65534", "--clear-groups", mtoolBinary] + arguments
  } else {
    process.executableURL = URL(fileURLWithPath: mtoolBinary)
    process.arguments = arguments
  }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  let input = Pipe()
  process.standardInput = input
  try process.run()
  if let stdin {
    // A command that fails before reading its input (a bad option) closes the pipe: the write
    // then fails with EPIPE, which is not the test's concern.
    signal(SIGPIPE, SIG_IGN)
    try? input.fileHandleForWriting.write(contentsOf: stdin)
  }
  try? input.fileHandleForWriting.close()
  return finish(process, out: out, err: err)
}

/// Reads a started process's output and errors to their ends, concurrently so neither pipe
/// fills up and blocks the child, and waits for it to exit.
private func finish(_ process: Process, out: Pipe, err: Pipe) -> RunResult {
  nonisolated(unsafe) var errData = Data()
  let group = DispatchGroup()
  group.enter()
  DispatchQueue.global().async {
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return RunResult(
    status: process.terminationStatus,
    stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs `script` with `/bin/sh` in `folder`, `$M` being the mtool binary, with no standard
/// input; returns the result and the seconds it took. For attacks that need a shell: links
/// planted before `exec`, `ulimit`, named pipes, signals, names that are not UTF-8.
func runShell(_ script: String, in folder: String) throws -> (RunResult, Double) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", script]
  process.currentDirectoryURL = URL(fileURLWithPath: folder)
  process.environment = ProcessInfo.processInfo.environment.merging(["M": mtoolBinary]) { $1 }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  let started = Date()
  try process.run()
  let result = finish(process, out: out, err: err)
  return (result, Date().timeIntervalSince(started))
}

/// Whether `result` failed with `status` and exactly one `mtool: ` line on stderr.
func failedWithOneLine(_ result: RunResult, _ status: Int32) -> Bool {
  result.status == status && result.stderr.hasPrefix("mtool: ")
    && result.stderr.split(separator: "\n").count == 1
}
