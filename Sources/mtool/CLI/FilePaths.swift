#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File names as bytes: a name on the command line need not be UTF-8, and must reach `open(2)`
/// byte for byte and appear in messages escaped, never altered.
///
/// Arguments are decoded from `argv` once. A valid UTF-8 argument becomes its `String`; in one
/// that is not, each byte that is not part of a valid sequence becomes the private-use scalar
/// U+10FF00 + byte (bytes 0x80-0xFF only ever appear there), and the argument is remembered as
/// undecodable. ``fileSystemPath(_:)`` turns such a string back into the original bytes, and
/// ``displayText(_:)`` shows those bytes as `\xFF`.
enum CommandLineBytes {
  /// The arguments (and `--files-from` paths) that were not valid UTF-8, as decoded. Written at
  /// start-up, and by a batch between blocks of its list, never while a worker thread runs.
  nonisolated(unsafe) static var undecodable: Set<String> = []

  /// The first scalar of the range that stands for raw bytes 0x80-0xFF (U+10FF80-U+10FFFF).
  static let rawByteBase: UInt32 = 0x10_FF00

  /// `argv`, decoded as described above.
  static func arguments() -> [String] {
    var result: [String] = []
    for index in 0..<Int(CommandLine.argc) {
      guard let pointer = CommandLine.unsafeArgv[index] else { continue }
      let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer))
      let (text, valid) = decode(bytes.map { UInt8(bitPattern: $0) })
      if !valid { undecodable.insert(text) }
      result.append(text)
    }
    return result
  }

  /// `bytes` as a string (each byte outside a valid UTF-8 sequence as U+10FF00 + byte), and
  /// whether all of it was valid UTF-8.
  static func decode(_ bytes: [UInt8]) -> (String, Bool) {
    if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
    var scalars = String.UnicodeScalarView()
    var index = 0
    while index < bytes.count {
      if let (scalar, length) = scalarAt(bytes, index) {
        scalars.append(scalar)
        index += length
      } else {
        scalars.append(Unicode.Scalar(rawByteBase + UInt32(bytes[index]))!)
        index += 1
      }
    }
    return (String(scalars), false)
  }

  /// The valid UTF-8 sequence at `index` (scalar and length), or `nil`.
  private static func scalarAt(_ bytes: [UInt8], _ index: Int) -> (Unicode.Scalar, Int)? {
    let lead = bytes[index]
    if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
    let length: Int
    let minimum: UInt32
    var value: UInt32
    switch lead {
    case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, minimum, value) = (4, 0x1_0000, UInt32(lead & 0x07))
    default: return nil
    }
    guard index + length <= bytes.count else { return nil }
    for offset in 1..<length {
      let byte = bytes[index + offset]
      guard byte & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
    return (scalar, length)
  }
}

/// The bytes of the file name `path` as the user gave it (see ``CommandLineBytes``), without a
/// terminating NUL.
func fileSystemBytes(_ path: String) -> [UInt8] {
  guard CommandLineBytes.undecodable.contains(path) else { return Array(path.utf8) }
  var bytes: [UInt8] = []
  for scalar in path.unicodeScalars {
    if scalar.value >= CommandLineBytes.rawByteBase + 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: scalar.value - CommandLineBytes.rawByteBase))
    } else {
      bytes.append(contentsOf: String(scalar).utf8)
    }
  }
  return bytes
}

/// `path` as a NUL-terminated C string of its original bytes, for the C library.
func fileSystemPath(_ path: String) -> [CChar] {
  fileSystemBytes(path).map { CChar(bitPattern: $0) } + [0]
}

/// `text` safe to print on a terminal and to keep on one line: control characters (C0, DEL,
/// C1, line and paragraph separators) and the bidirectional overrides that could disguise a
/// name are shown as `\x1B` or `\u{202E}`, and the raw bytes of a file name that is not UTF-8
/// as `\xFF`. Anything else is unchanged.
func displayText(_ text: String) -> String {
  func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
      || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
      || value >= CommandLineBytes.rawByteBase + 0x80
  }
  guard text.unicodeScalars.contains(where: needsEscape) else { return text }
  let digits = Array("0123456789ABCDEF")
  var result = String.UnicodeScalarView()
  for scalar in text.unicodeScalars {
    guard needsEscape(scalar) else {
      result.append(scalar)
      continue
    }
    var value = scalar.value
    if value >= CommandLineBytes.rawByteBase { value -= CommandLineBytes.rawByteBase }
    let escaped: String
    if value <= 0xFF {
      escaped = "\\x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
    } else {
      escaped = "\\u{" + String(value, radix: 16, uppercase: true) + "}"
    }
    result.append(contentsOf: escaped.unicodeScalars)
  }
  return String(result)
}

/// Descriptors opened for inputs whose names are not UTF-8, kept open until exit.
nonisolated(unsafe) private var heldInputs: [String: String] = [:]

/// A path the libraries can open for the input `path`: `path` itself when its name is valid
/// UTF-8; otherwise the file is opened here by its bytes and `/dev/fd/N` is returned (the
/// libraries take `String` paths, which cannot hold other bytes). Messages that name the
/// returned path should be passed through ``restoringInputNames(_:)``.
///
/// - Throws: `CLIError` with exit code 66 when the file cannot be opened.
func openableInput(_ path: String, command: String) throws(CLIError) -> String {
  guard CommandLineBytes.undecodable.contains(path) else { return path }
  let descriptor = open(fileSystemPath(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
  guard descriptor >= 0 else {
    throw CLIError.noInput(command, "cannot open '\(path)': \(String(cString: strerror(errno)))")
  }
  let flags = fcntl(descriptor, F_GETFL)
  if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
  let alias = "/dev/fd/\(descriptor)"
  heldInputs[alias] = path
  return alias
}

/// `message` with each `/dev/fd/N` alias from ``openableInput(_:command:)`` replaced by the
/// name the user gave.
func restoringInputNames(_ message: String) -> String {
  var text = message
  for (alias, name) in heldInputs { text = text.replacing("'\(alias)'", with: "'\(name)'") }
  return text
}

/// Closes the descriptors ``openableInput(_:command:)`` opened.
func releaseInputs() {
  for alias in heldInputs.keys {
    if let number = Int32(alias.dropFirst("/dev/fd/".count)) { close(number) }
  }
  heldInputs.removeAll()
}

/// A file name for JSON output: the name itself (JSON escapes its control characters), or for a
/// name that is not UTF-8, which JSON cannot hold, its ``displayText(_:)`` form.
func jsonName(_ path: String) -> String {
  CommandLineBytes.undecodable.contains(path) ? displayText(path) : path
}
