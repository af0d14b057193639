// Formatting, timing and file helpers shared by the three parts of ResourceBench.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// CPU time of the calling thread, seconds (user and system): unaffected by time spent waiting
/// for a core on a shared machine, unlike the wall clock.
func threadCPUTime() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// glibc's `malloc_trim`, looked up at run time (its header is not part of the Glibc module);
/// nil where there is none.
private let mallocTrim: (@convention(c) (Int) -> Int32)? = {
  #if canImport(Glibc)
    guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
  #else
    return nil
  #endif
}()

/// Hands the memory that malloc keeps after `free` back to the kernel, so that the next run
/// takes fresh pages (and pays their page faults) whatever its size. Without this, runs whose
/// blocks are under glibc's mmap ceiling (32 MiB) reuse the pages of the previous run while
/// larger ones are given fresh pages every time, and the time per byte then grows with the
/// size although the parser does the same work per byte.
func releaseFreedMemory() {
  _ = mallocTrim?(0)
}

/// Wall-clock and thread CPU seconds of `body`.
func timed(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
  let clock = ContinuousClock()
  let cpuStart = threadCPUTime()
  let start = clock.now
  try body()
  return (seconds(clock.now - start), threadCPUTime() - cpuStart)
}

/// Sorted wall-clock samples, and the thread CPU times of the same runs, sorted.
struct Samples {
  var times: [Double]
  var cpu: [Double]
  var min: Double { times.first ?? .nan }
  var median: Double { times.isEmpty ? .nan : times[times.count / 2] }
  var cpuMin: Double { cpu.first ?? .nan }
  init(_ times: [Double], cpu: [Double] = []) {
    self.times = times.sorted()
    self.cpu = cpu.sorted()
  }
  init(_ runs: [(wall: Double, cpu: Double)]) {
    self.init(runs.map(\.wall), cpu: runs.map(\.cpu))
  }
}

func loadAverage() -> String {
  guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
    return "n/a"
  }
  return text.split(separator: " ").prefix(3).joined(separator: " ")
}

func fixed(_ value: Double, _ decimals: Int) -> String {
  guard value.isFinite else { return "-" }
  return String(format: "%.\(decimals)f", value)
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return left ? text + padding : padding + text
}

/// One table row: the first column left-aligned, the others right-aligned.
func row(_ cells: [String], _ widths: [Int]) -> String {
  var line = ""
  for (i, cell) in cells.enumerated() {
    let width = i < widths.count ? widths[i] : 10
    line += i == 0 ? pad(cell, width, left: true) : pad(cell, width)
  }
  return line
}

func megabytes(kilobytes: Int) -> String { fixed(Double(kilobytes) / 1024, 1) }

/// The whole file, read straight into one array (no second copy on the way).
func readBytes(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var info = stat()
  guard fstat(fileno(file), &info) == 0 else { return nil }
  let size = Int(info.st_size)
  var failed = false
  let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
    count = fread(buffer.baseAddress, 1, size, file)
    failed = count != size
  }
  return failed ? nil : bytes
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
  try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func remove(_ path: String) {
  try? FileManager.default.removeItem(atPath: path)
}

func fileSize(_ path: String) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

/// The path of the running executable.
func ownExecutable() -> String {
  (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
}

/// The absolute path of `name` in `PATH`, or nil.
func which(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for dir in path.split(separator: ":") {
    let candidate = "\(dir)/\(name)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}
