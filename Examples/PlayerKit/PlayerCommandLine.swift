import Foundation

/// The `PlayerSession` command line: options to a session, the script run, events printed.
///
/// ```
/// PlayerSession <media> [--subs file.vtt] [--prefer fr,en] [--speeds 0.5,1,2]
///   [--labels Slow,Normal,Fast] [--plugins speed,asel,subtitles] [--block 512] [--json]
///   [--memory choices.json]
///   --script "play; 3s; speed 2; 2s; audio next; seek 10; 2s; end"
/// ```
public enum PlayerCommandLine {
  /// Parsed options.
  public struct Options: Hashable, Sendable {
    /// The session's controls config.
    public var config: ControlsConfig
    /// The media file.
    public var media: String
    /// The script's commands.
    public var script: [ScriptCommand]
    /// Whether events print as JSON Lines.
    public var json: Bool
    /// The render block in output frames.
    public var block: Int
    /// A JSON file with the viewer's remembered choices: read when it exists, written at the end.
    public var memory: String?
  }

  /// The usage text.
  public static let usage = """
    usage: PlayerSession <media> --script "play; 3s; speed 2; 2s; end" [--subs file.vtt]
           [--prefer fr,en] [--speeds 0.5,1,2] [--labels Slow,Normal,Fast]
           [--plugins speed,asel,subtitles] [--block frames] [--json] [--memory file.json]
    script commands: play, pause, Ns, speed X|up|down, audio next|<index>|<lang>,
           subs <index>|file|off, delay S, seek T, end
    """

  /// Parses the arguments (without the program name).
  /// - Throws: ``PlayerError/usage(_:)``, ``PlayerError/invalidKey(_:reason:)`` or
  ///   ``PlayerError/badScript(command:reason:)``.
  public static func parse(_ arguments: [String]) throws(PlayerError) -> Options {
    var config = ControlsConfig()
    var plugins = ControlsConfig.knownPlugins
    var media: String? = nil
    var script: String? = nil
    var json = false
    var block = 512
    var memory: String? = nil
    var i = 0
    func value(_ option: String) throws(PlayerError) -> String {
      i += 1
      guard i < arguments.count else { throw .usage("\(option) needs a value") }
      return arguments[i]
    }
    func list(_ text: String) -> [String] {
      text.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
    }
    while i < arguments.count {
      let argument = arguments[i]
      switch argument {
      case "--subs": config.sideloadedSubtitles = try value(argument)
      case "--prefer": config.preferredLanguages = list(try value(argument))
      case "--speeds":
        var speeds: [Double] = []
        for word in list(try value(argument)) {
          guard let speed = Double(word) else {
            throw .invalidKey("speed.options", reason: "'\(word)' is not a number")
          }
          speeds.append(speed)
        }
        config["speed.options"] = .numbers(speeds)
      case "--labels": config["speed.labels"] = .strings(list(try value(argument)))
      case "--plugins": plugins = list(try value(argument)).filter { !$0.isEmpty }
      case "--script": script = try value(argument)
      case "--json": json = true
      case "--memory": memory = try value(argument)
      case "--block":
        let word = try value(argument)
        guard let n = Int(word), n > 0, n <= PlayerSession.largestBlock else {
          throw .usage(
            "--block needs a number of frames from 1 to \(PlayerSession.largestBlock), not '\(word)'"
          )
        }
        block = n
      default:
        if argument.hasPrefix("-") && argument != "-" {
          throw .usage("unknown option '\(argument)'")
        }
        guard media == nil else { throw .usage("more than one media file given") }
        media = argument
      }
      i += 1
    }
    guard let media else { throw .usage("no media file given") }
    guard let script else { throw .usage("no --script given") }
    config.enablePlugins(plugins)
    return Options(
      config: config, media: media, script: try PlayerScript.parse(script), json: json,
      block: block, memory: memory)
  }

  /// Runs the command line: prints one line per event to standard output as it happens and,
  /// on error, one line `PlayerSession: <message>` to standard error.
  /// - Parameter arguments: the arguments without the program name.
  /// - Returns: the exit code: 0, 64 for bad arguments, keys or script, 65 for malformed input,
  ///   66 for missing input.
  public static func main(_ arguments: [String]) -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      print(usage)
      return 0
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do throws(PlayerError) {
      let options = try parse(arguments)
      var remembered = PlayerMemory()
      if let file = options.memory, FileManager.default.fileExists(atPath: file) {
        guard let data = FileManager.default.contents(atPath: file),
          let value = try? JSONDecoder().decode(PlayerMemory.self, from: data)
        else {
          throw .invalidKey("memory", reason: "'\(file)' is not a remembered-choices JSON file")
        }
        remembered = value
      }
      let session = PlayerSession(
        path: options.media, config: options.config, memory: remembered,
        renderBlock: options.block)
      defer { session.destroy() }
      session.observe { event in
        guard event.kind != .timeUpdate else { return }
        if options.json {
          if let data = try? encoder.encode(event) {
            print(String(decoding: data, as: UTF8.self))
          }
        } else {
          print(event.logLine)
        }
      }
      try session.configure()
      try session.run(options.script)
      if let file = options.memory {
        guard let data = try? encoder.encode(session.memory),
          (try? data.write(to: URL(fileURLWithPath: file), options: .atomic)) != nil
        else { throw .outputFailed(path: file) }
      }
      return 0
    } catch {
      fflush(nil)
      var line = "PlayerSession: \(error.description)\n"
      line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
      return error.exitCode
    }
  }
}
