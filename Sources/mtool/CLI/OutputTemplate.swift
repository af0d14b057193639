/// `--output-template`: the output name of each input of a batch, made from parts of the
/// input's path.
///
/// Placeholders, for the input `talks/day1/keynote.final.wav`:
/// - `{dir}`: the folder as written, without the final slash (`talks/day1`); `.` for a bare
///   name, `/` for a file in the root folder.
/// - `{name}`: the file's name (`keynote.final.wav`).
/// - `{stem}`: the name without its last extension (`keynote.final`); the whole name when it has
///   none (a leading dot, as in `.hidden`, starts no extension).
/// - `{ext}`: the last extension without its dot (`wav`), or empty.
/// - `{{` and `}}`: a literal brace.
struct OutputTemplate: Sendable {
  private enum Piece: Sendable {
    case literal(String)
    case dir, name, stem, ext
  }

  private let pieces: [Piece]
  /// The template as given.
  let text: String

  /// Parses `text`.
  ///
  /// - Throws: `CLIError` (exit 64) for an unknown or unclosed placeholder, for a template with
  ///   neither `{name}` nor `{stem}` (every input of a folder would map to one output), and for
  ///   one that maps an input onto itself.
  init(_ text: String, command: String) throws(CLIError) {
    self.text = text
    var pieces: [Piece] = []
    var literal = ""
    var rest = Substring(text)
    while let first = rest.first {
      rest = rest.dropFirst()
      if (first == "{" || first == "}") && rest.first == first {
        literal.append(first)
        rest = rest.dropFirst()
        continue
      }
      if first == "}" {
        throw CLIError.usage(command, "--output-template: unmatched '}' in '\(text)' (write '}}')")
      }
      guard first == "{" else {
        literal.append(first)
        continue
      }
      guard let close = rest.firstIndex(of: "}") else {
        throw CLIError.usage(command, "--output-template: unclosed '{' in '\(text)'")
      }
      let placeholder = rest[..<close]
      rest = rest[rest.index(after: close)...]
      let piece: Piece
      switch placeholder {
      case "dir": piece = .dir
      case "name": piece = .name
      case "stem": piece = .stem
      case "ext": piece = .ext
      default:
        throw CLIError.usage(
          command,
          "--output-template: unknown placeholder '{\(placeholder)}' (known: {dir} {name} {stem} {ext})"
        )
      }
      if !literal.isEmpty { pieces.append(.literal(literal)) }
      literal = ""
      pieces.append(piece)
    }
    if !literal.isEmpty { pieces.append(.literal(literal)) }
    self.pieces = pieces
    let named = pieces.contains {
      if case .name = $0 { return true }
      if case .stem = $0 { return true }
      return false
    }
    guard named else {
      throw CLIError.usage(
        command,
        "--output-template '\(text)' has neither {name} nor {stem}: every input would map to the same output"
      )
    }
    for sample in ["folder/stem.ext", "stem.ext", "folder/stem"] where output(for: sample) == sample
    {
      throw CLIError.usage(
        command, "--output-template '\(text)' maps an input such as '\(sample)' onto itself")
    }
  }

  /// The output path for `input`.
  func output(for input: String) -> String {
    let parts = OutputTemplate.split(input)
    var result = ""
    for piece in pieces {
      switch piece {
      case .literal(let text): result += text
      case .dir: result += parts.dir
      case .name: result += parts.name
      case .stem: result += parts.stem
      case .ext: result += parts.ext
      }
    }
    return result
  }

  /// The `{dir}`, `{name}`, `{stem}` and `{ext}` of `path`. (The scalars that stand for bytes of
  /// a name that is not UTF-8 are never `/` or `.`, so such names split at their own bytes.)
  static func split(_ path: String) -> (dir: String, name: String, stem: String, ext: String) {
    let scalars = path.unicodeScalars
    var dir = "."
    var name = Substring.UnicodeScalarView(scalars)
    if let slash = scalars.lastIndex(of: "/") {
      let folder = String(scalars[..<slash])
      dir = folder.isEmpty ? "/" : folder
      name = scalars[scalars.index(after: slash)...]
    }
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return (dir, String(name), String(name), "")
    }
    return (dir, String(name), String(name[..<dot]), String(name[name.index(after: dot)...]))
  }
}
