#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output file named on the command line, written so that it appears complete or not at all,
/// without following anyone else's links and without touching what the command did not create.
/// Every command that writes a file goes through it.
///
/// The rules:
/// - The name the user typed decides the format (its extension), whatever a link there names.
/// - A symbolic link at the name (or a chain of them, dangling or not) is resolved to the file it
///   names; that file is replaced and the link stays a link.
/// - A regular file (or a name that does not exist yet) is written under a new, hidden,
///   unpredictable name in the same folder, created with `O_CREAT | O_EXCL | O_NOFOLLOW`
///   (a planted file or link at that name is never opened: another name is drawn), given its
///   final permissions before any byte is written (those of the file it replaces, or
///   `0666 & ~umask`), synced, and renamed over the final name by ``commit()``.
/// - Anything else (a named pipe, a character device such as `/dev/null`) is written in place
///   and never removed.
/// - ``discard()``, a failure, or a terminating signal (SIGINT, SIGTERM, SIGHUP and the others
///   in `interruptSignals`) removes only the temporary file this object created.
final class OutputFile {
  /// The output's name as the user gave it.
  let name: String
  /// The open, writable descriptor to write to.
  private(set) var descriptor: Int32
  /// Whether the output is written in place (not a regular file), without a temporary file.
  let inPlace: Bool
  private let command: String
  /// The folder of the final file, open, when a temporary file is used.
  private var folder: Int32 = -1
  private let temporaryName: [CChar]
  private let finalName: [CChar]
  private var done = false

  /// Resolves `path` and opens what will be written (see the type's rules).
  ///
  /// - Throws: `CLIError` with exit code 1 when the output cannot be created.
  init(path: String, command: String) throws(CLIError) {
    name = path
    self.command = command
    func failure(_ reason: String) -> CLIError {
      CLIError.failure(command, "cannot write '\(path)': \(reason)")
    }
    var target = fileSystemBytes(path)
    var info = stat()
    if target.last == 0x2F { throw failure("it names a folder") }
    // A pipe or a device, also through links (`/dev/stdout` is a chain of links ending in a
    // name that is no path): written in place, never created, truncated or removed.
    if stat(target.asCString, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
      && (info.st_mode & S_IFMT) != S_IFDIR
    {
      descriptor = try openInPlace(target, recheck: true, failure)
      inPlace = true
      temporaryName = []
      finalName = []
      return
    }
    let existing = try resolveLinks(&target, failure)
    if let existing, (existing.st_mode & S_IFMT) == S_IFDIR { throw failure("it is a directory") }
    if let existing, (existing.st_mode & S_IFMT) != S_IFREG {
      // A pipe or a device: written in place, never created, truncated or removed.
      descriptor = try openInPlace(target, recheck: false, failure)
      inPlace = true
      temporaryName = []
      finalName = []
      return
    }
    inPlace = false
    let folderPath = folderBytes(of: target)
    folder = open(folderPath.asCString, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else {
      let reason =
        errno == ENOENT
        ? "folder '\(displayBytes(folderPath))' does not exist" : String(cString: strerror(errno))
      throw failure(reason)
    }
    let base = Array(target[(target.lastIndex(of: 0x2F).map { $0 + 1 } ?? 0)...])
    finalName = base.map { CChar(bitPattern: $0) } + [0]
    let created: (descriptor: Int32, name: [CChar])
    do throws(CLIError) {
      created = try createTemporary(in: folder, beside: base, failure)
    } catch {
      close(folder)
      throw error
    }
    descriptor = created.descriptor
    temporaryName = created.name
    registerForSignals(folder: folder, name: created.name)
    if let reason = setFinalPermissions(created.descriptor, replacing: existing) {
      discard()
      throw failure(reason)
    }
  }

  /// Standard output, written in place (through a duplicate of its descriptor): never
  /// created, synced, renamed or removed, whether it is a pipe, a file or a device.
  ///
  /// - Throws: `CLIError` with exit code 1 when standard output is closed.
  init(standardOutputFor command: String) throws(CLIError) {
    name = "standard output"
    self.command = command
    descriptor = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)
    guard descriptor >= 0 else {
      throw CLIError.failure(
        command, "cannot write standard output: \(String(cString: strerror(errno)))")
    }
    inPlace = true
    temporaryName = []
    finalName = []
  }

  deinit { discard() }

  /// Completes the output: syncs the temporary file and renames it over the final name (a
  /// pipe or device is only closed).
  ///
  /// - Throws: `CLIError` (exit 1) when the data cannot be synced, closed or renamed; the
  ///   temporary file is then removed.
  func commit() throws(CLIError) {
    guard !done else { return }
    func failure(_ code: Int32) -> CLIError {
      CLIError.failure(command, "cannot write '\(name)': \(String(cString: strerror(code)))")
    }
    if inPlace {
      done = true
      let closed = close(descriptor)
      descriptor = -1
      if closed != 0 && errno != EINTR { throw failure(errno) }
      return
    }
    if fsync(descriptor) != 0 && errno != EINVAL && errno != EROFS {
      let code = errno
      discard()
      throw failure(code)
    }
    if close(descriptor) != 0 && errno != EINTR {
      let code = errno
      descriptor = -1
      discard()
      throw failure(code)
    }
    descriptor = -1
    // The rename and forgetting the temporary name happen with the signals blocked, so a
    // signal never removes a file of that name that is no longer ours.
    let blocked = blockInterrupts()
    let renamed = renameat(folder, temporaryName, folder, finalName) == 0
    let code = errno
    if renamed { unregisterForSignals() }
    restoreInterrupts(blocked)
    guard renamed else {
      discard()
      throw failure(code)
    }
    // The folder is not synced after the rename: the file's bytes are on disk before its name
    // changes, so after a crash the name holds the old file or the complete new one, never a
    // partial one; syncing the folder too would only make the new name durable sooner, at the
    // cost of a journal commit (up to 13 ms here) on every command.
    close(folder)
    folder = -1
    done = true
  }

  /// Abandons the output: closes it and removes the temporary file (idempotent; a pipe or
  /// device is only closed).
  func discard() {
    guard !done else { return }
    done = true
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    guard !inPlace, folder >= 0 else { return }
    let blocked = blockInterrupts()
    unlinkat(folder, temporaryName, 0)
    unregisterForSignals()
    restoreInterrupts(blocked)
    close(folder)
    folder = -1
  }
}

extension Array where Element == UInt8 {
  /// The bytes with a terminating NUL, as the C library takes a path.
  fileprivate var asCString: [CChar] { map { CChar(bitPattern: $0) } + [0] }
}

/// The folder part of a path's bytes (`.` when there is none, `/` for the root).
private func folderBytes(of path: [UInt8]) -> [UInt8] {
  guard let slash = path.lastIndex(of: 0x2F) else { return [0x2E] }
  return slash == 0 ? [0x2F] : Array(path[..<slash])
}

/// The target of the symbolic link at `path`, or `nil` (errno set).
private func readLink(_ path: [UInt8]) -> [UInt8]? {
  var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
  let count = readlink(path.asCString, &buffer, buffer.count)
  guard count >= 0 else { return nil }
  guard count < buffer.count else {
    errno = ENAMETOOLONG
    return nil
  }
  return buffer[..<count].map { UInt8(bitPattern: $0) }
}

/// Opens a pipe or device at `target` for writing in place; with `recheck`, refuses one that
/// has become a regular file since it was looked at.
private func openInPlace(
  _ target: [UInt8], recheck: Bool, _ failure: (String) -> CLIError
) throws(CLIError) -> Int32 {
  let descriptor = open(target.asCString, O_WRONLY | O_NOCTTY | O_CLOEXEC)
  guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
  // Should the name have become a regular file since, it is not written in place.
  var info = stat()
  if recheck && (fstat(descriptor, &info) != 0 || (info.st_mode & S_IFMT) == S_IFREG) {
    close(descriptor)
    throw failure("it changed while being opened")
  }
  return descriptor
}

/// Follows the chain of symbolic links at `target` (at most 40), leaving `target` at the name
/// it ends in.
///
/// - Returns: The status of what is there, or nil when nothing is (a new file).
private func resolveLinks(
  _ target: inout [UInt8], _ failure: (String) -> CLIError
) throws(CLIError) -> stat? {
  var info = stat()
  var hops = 0
  while true {
    if lstat(target.asCString, &info) != 0 {
      guard errno == ENOENT else { throw failure(String(cString: strerror(errno))) }
      return nil
    }
    guard (info.st_mode & S_IFMT) == S_IFLNK else { return info }
    hops += 1
    guard hops <= 40, let link = readLink(target) else {
      throw failure(String(cString: strerror(hops > 40 ? ELOOP : errno)))
    }
    target = link.first == UInt8(ascii: "/") ? link : folderBytes(of: target) + [0x2F] + link
  }
}

/// Creates the hidden temporary file for the final name `base` in `folder`: `.` + name + `.` +
/// 12 random letters + `.tmp`, with `O_CREAT | O_EXCL | O_NOFOLLOW` (another name is drawn
/// when one exists).
///
/// - Returns: Its descriptor and its name (NUL-terminated).
private func createTemporary(
  in folder: Int32, beside base: [UInt8], _ failure: (String) -> CLIError
) throws(CLIError) -> (descriptor: Int32, name: [CChar]) {
  // Within NAME_MAX (255 bytes).
  let stem = base.prefix(255 - 18)
  var created: Int32 = -1
  var chosen: [CChar] = []
  for _ in 0..<64 {
    let letters = "abcdefghijklmnopqrstuvwxyz0123456789".utf8.map { $0 }
    let random = (0..<12).map { _ in letters[Int.random(in: 0..<letters.count)] }
    let candidate = [0x2E] + stem + [0x2E] + random + Array(".tmp".utf8)
    chosen = candidate.map { CChar(bitPattern: $0) } + [0]
    created = openat(
      folder, chosen, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    if created >= 0 || errno != EEXIST { break }
  }
  guard created >= 0 else { throw failure(String(cString: strerror(errno))) }
  return (created, chosen)
}

/// Gives the new file `descriptor` its final owner and permissions before any byte is written:
/// those of the `replaced` file (without set-id bits), or what a new file would get. Where the
/// group cannot be kept, the group gets nothing rather than access the replaced file did not
/// give it.
///
/// - Returns: nil, or the reason it failed.
private func setFinalPermissions(_ descriptor: Int32, replacing replaced: stat?) -> String? {
  var finalMode: mode_t = replaced.map { $0.st_mode & 0o777 } ?? 0o666 & ~processUmask
  if let info = replaced, info.st_uid != geteuid() || info.st_gid != getegid() {
    if fchown(descriptor, info.st_uid, info.st_gid) != 0 {
      if info.st_gid != getegid() { finalMode &= ~0o070 }
      if info.st_uid != geteuid() { finalMode &= ~0o007 }
    }
  }
  return fchmod(descriptor, finalMode) != 0 ? String(cString: strerror(errno)) : nil
}

/// Path bytes shown in a message.
private func displayBytes(_ bytes: [UInt8]) -> String {
  displayText(CommandLineBytes.decode(bytes).0)
}

/// The process's umask, read once (setting it back at once) before any thread starts.
let processUmask: mode_t = {
  let mask = umask(0o022)
  umask(mask)
  return mask
}()

// The temporary file a signal handler removes: the folder's descriptor and the file's name in
// it. Written only with the interrupt signals blocked.
nonisolated(unsafe) private var signalFolder: Int32 = -1
nonisolated(unsafe) private var signalName: UnsafeMutablePointer<CChar>? = nil

/// Removes the registered temporary file and ends the process as `128 + signal`. Only
/// async-signal-safe calls.
private func removeTemporaryOnSignal(_ signal: Int32) {
  if signalFolder >= 0, let name = signalName { unlinkat(signalFolder, name, 0) }
  _exit(128 + signal)
}

/// The signals whose default action ends the process and that can be caught: interrupt,
/// terminate and hang up, and also quit, the alarm and user signals, and the CPU-time limit
/// (`ulimit -t`), any of which would otherwise leave the temporary file behind. (SIGKILL cannot
/// be caught: after it, the hidden temporary file stays.)
private let interruptSignals: [Int32] = [
  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF,
]

private func blockInterrupts() -> sigset_t {
  var set = sigset_t()
  var previous = sigset_t()
  sigemptyset(&set)
  for sig in interruptSignals { sigaddset(&set, sig) }
  sigprocmask(SIG_BLOCK, &set, &previous)
  return previous
}

private func restoreInterrupts(_ previous: sigset_t) {
  var previous = previous
  sigprocmask(SIG_SETMASK, &previous, nil)
}

/// Registers the temporary file for removal on a signal and installs the handlers (unblocking
/// the signals, which a parent may have blocked).
private func registerForSignals(folder: Int32, name: [CChar]) {
  let blocked = blockInterrupts()
  free(signalName)
  signalName = strdup(name)
  signalFolder = folder
  for sig in interruptSignals { signal(sig, removeTemporaryOnSignal) }
  restoreInterrupts(blocked)
  var set = sigset_t()
  sigemptyset(&set)
  for sig in interruptSignals { sigaddset(&set, sig) }
  sigprocmask(SIG_UNBLOCK, &set, nil)
}

/// Forgets the registered temporary file (call with the signals blocked).
private func unregisterForSignals() {
  signalFolder = -1
  free(signalName)
  signalName = nil
}

/// Refuses an output that is the input file itself (the same file through any path or link):
/// writing it would destroy the input. Exit 64.
/// `input` `-` is standard input, which may be the file redirected in.
func refuseOverwritingInput(_ output: String, input: String, command: String) throws(CLIError) {
  var inInfo = stat()
  var outInfo = stat()
  let opened = input == "-" ? fstat(STDIN_FILENO, &inInfo) : stat(fileSystemPath(input), &inInfo)
  if opened == 0, stat(fileSystemPath(output), &outInfo) == 0,
    (inInfo.st_mode & S_IFMT) == S_IFREG,
    inInfo.st_dev == outInfo.st_dev, inInfo.st_ino == outInfo.st_ino
  {
    throw CLIError.usage(command, "output '\(output)' is the input file; refusing to overwrite it")
  }
}
