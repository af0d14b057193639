#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an output named on the command line is really written.
///
/// Outputs are written under a temporary name and renamed into place when complete. Renaming
/// over a symbolic link would replace the link, and over a device (`/dev/null`) or a named
/// pipe would replace that, so a link is followed to the file it names, and anything that is
/// not a regular file is written in place. A replaced file keeps its permissions.
struct OutputTarget {
  /// The file to replace: the path as given, or the file a symbolic link there names.
  var file: String
  /// Whether the path is written in place (not a regular file, or a link to nothing yet).
  var inPlace = false
  /// The permission bits of the file being replaced, when there is one.
  var mode: mode_t? = nil

  init(_ path: String) {
    file = path
    var info = stat()
    guard stat(path, &info) == 0 else {
      // Missing. A link whose target does not exist yet is written through, which creates it.
      var link = stat()
      inPlace = lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
      return
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      inPlace = true
      return
    }
    mode = info.st_mode & 0o7777
    var link = stat()
    if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, let real = realpath(path, nil) {
      file = String(cString: real)
      free(real)
    }
  }
}

/// Refuses an output that is the input file itself (the same file through any path or link):
/// writing it would destroy the input. Exit 64.
/// `input` `-` is standard input, which may be the file redirected in.
func refuseOverwritingInput(_ output: String, input: String, command: String) throws(CLIError) {
  var inInfo = stat()
  var outInfo = stat()
  let opened = input == "-" ? fstat(STDIN_FILENO, &inInfo) : stat(input, &inInfo)
  if opened == 0, stat(output, &outInfo) == 0,
    (inInfo.st_mode & S_IFMT) == S_IFREG,
    inInfo.st_dev == outInfo.st_dev, inInfo.st_ino == outInfo.st_ino
  {
    throw CLIError.usage(command, "output '\(output)' is the input file; refusing to overwrite it")
  }
}
