#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// mtool's version, printed by `mtool --version`.
let mtoolVersion = "0.1.0"

/// Every subcommand, in the order `mtool --help` lists them.
let commands: [Command] = [tracksCommand, cuesCommand, stretchCommand]

let topLevelHelp: String = {
  var text = """
    usage: mtool <command> [options] [arguments]
           mtool help <command>
           mtool --version

    mtool: the engine behind a player's speed, audio-track and subtitle menus.

    commands:

    """
  for command in commands {
    text += "  " + command.name + String(repeating: " ", count: 10 - command.name.count)
    text += command.summary + "\n"
  }
  text +=
    "\nRun 'mtool help <command>' for a command's options.\n\n"
  text += exitCodeHelp
  return text
}()

/// Runs the command line and returns the exit code.
func runMain(_ arguments: [String]) -> ExitCode {
  var stdout = StandardOutput()
  defer { stdout.flush() }
  let rest = arguments.dropFirst()
  do throws(CLIError) {
    guard let first = rest.first else {
      var stderr = StandardError()
      stderr.write(topLevelHelp)
      return .usage
    }
    switch first {
    case "--help", "-h", "--version", "-V", "help":
      // These take nothing after them (but the command to explain): anything else is a
      // mistake the user should hear about.
      let extra = rest.dropFirst(first == "help" ? 2 : 1)
      if let unexpected = extra.first {
        throw CLIError.usage(nil, "unexpected '\(unexpected)' after '\(first)'")
      }
      if first == "--version" || first == "-V" {
        stdout.write("mtool \(mtoolVersion)\n")
        return .ok
      }
      guard first == "help", let name = rest.dropFirst().first else {
        stdout.write(topLevelHelp)
        return .ok
      }
      guard let command = commands.first(where: { $0.name == name }) else {
        throw CLIError.usage(nil, "unknown command '\(name)'; see 'mtool --help'")
      }
      stdout.write(command.help)
      return .ok
    default:
      guard let command = commands.first(where: { $0.name == first }) else {
        throw CLIError.usage(nil, "unknown command '\(first)'; see 'mtool --help'")
      }
      let tail = rest.dropFirst()
      // After `--` everything is an operand (a file may be called `-h`).
      let options = tail.prefix { $0 != "--" }
      if options.contains("--help") || options.contains("-h") {
        stdout.write(command.help)
        return .ok
      }
      let parsed = try parseArguments(tail, options: command.options, command: command.name)
      stdout.flush()
      return try command.run(parsed)
    }
  } catch {
    stdout.flush()
    var stderr = StandardError()
    stderr.write(error.line + "\n")
    return error.code
  }
}

// A closed pipe and a file-size limit (`ulimit -f`) make the write fail (EPIPE, EFBIG), which
// is reported as one line, instead of killing the process without a word.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
_ = processUmask
exit(runMain(CommandLineBytes.arguments()).rawValue)
