/// One command of a player script.
public enum ScriptCommand: Hashable, Sendable {
  /// Which speed a `speed` command selects.
  public enum Speed: Hashable, Sendable {
    /// A speed that must be in the menu.
    case exact(Double)
    /// The next faster menu speed.
    case up
    /// The next slower menu speed.
    case down

    /// ``exact(_:)`` under its former name (for building a command; a `switch` matches
    /// `.exact`).
    @available(*, deprecated, renamed: "exact")
    public static func rate(_ speed: Double) -> Speed { .exact(speed) }
  }
  /// Which track `audio` selects.
  public enum Audio: Hashable, Sendable {
    /// The next audio track in stream order (wrapping).
    case next
    /// A container stream index.
    case index(Int)
    /// The best track in a language (BCP-47 or ISO 639-2).
    case language(String)
  }
  /// Which source `subs` selects.
  public enum Subtitles: Hashable, Sendable {
    /// An in-media subtitle track by container stream index.
    case index(Int)
    /// The side-loaded file.
    case file
    /// No subtitles.
    case off
  }

  /// Start or resume playback.
  case play
  /// Pause playback.
  case pause
  /// Advance the simulated clock by this many seconds of output time.
  case wait(Double)
  /// Change the playback speed.
  case speed(Speed)
  /// Switch the audio track.
  case audio(Audio)
  /// Switch the subtitle source.
  case subs(Subtitles)
  /// Set the subtitle delay in seconds (positive shows subtitles later).
  case delay(Double)
  /// Jump to a media position in seconds.
  case seek(Double)
  /// End the session's playback.
  case end
}

/// Parses player scripts: commands separated by `;`, for example
/// `play; 3s; speed 2; 2s; audio next; seek 10; 2s; end`.
public enum PlayerScript {
  /// The longest time a command accepts, in seconds (about 115 days).
  public static let longest: Double = 10_000_000

  /// Parses a script.
  /// - Parameter text: commands separated by `;` (empty commands are skipped).
  /// - Returns: the commands in order.
  /// - Throws: ``PlayerError/badScript(command:reason:)`` for the first bad command.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func parse(_ text: String) throws(PlayerError) -> [ScriptCommand] {
    var commands: [ScriptCommand] = []
    for piece in text.split(separator: ";", omittingEmptySubsequences: false) {
      let words = piece.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(
        String.init)
      guard let head = words.first else { continue }
      let source = words.joined(separator: " ")
      func bad(_ reason: String) -> PlayerError { .badScript(command: source, reason: reason) }
      func argument() throws(PlayerError) -> String {
        guard words.count == 2 else {
          throw bad(words.count < 2 ? "needs an argument" : "takes one argument")
        }
        return words[1]
      }
      func seconds(_ word: String, allowNegative: Bool) throws(PlayerError) -> Double {
        guard let value = Double(word), value.isFinite, allowNegative || value >= 0 else {
          throw bad("'\(word)' is not a \(allowNegative ? "" : "non-negative ")number of seconds")
        }
        guard abs(value) <= PlayerScript.longest else {
          throw bad("\(word) s is longer than \(Int(PlayerScript.longest)) s")
        }
        return value
      }
      switch head.lowercased() {
      case "play", "pause", "end":
        guard words.count == 1 else { throw bad("takes no argument") }
        commands.append(
          head.lowercased() == "play" ? .play : head.lowercased() == "pause" ? .pause : .end)
      case "speed":
        let word = try argument()
        switch word.lowercased() {
        case "up": commands.append(.speed(.up))
        case "down": commands.append(.speed(.down))
        default:
          var number = word
          if number.hasSuffix("x") || number.hasSuffix("×") { number.removeLast() }
          guard let speed = Double(number), speed.isFinite, speed > 0 else {
            throw bad("'\(word)' is not a speed, 'up' or 'down'")
          }
          commands.append(.speed(.exact(speed)))
        }
      case "audio":
        let word = try argument()
        if word.lowercased() == "next" {
          commands.append(.audio(.next))
        } else if let index = Int(word) {
          guard index >= 0 else { throw bad("stream index \(index) is negative") }
          commands.append(.audio(.index(index)))
        } else if word.allSatisfy({ $0.isLetter || $0 == "-" }) {
          commands.append(.audio(.language(word)))
        } else {
          throw bad("'\(word)' is not 'next', a stream index or a language")
        }
      case "subs":
        let word = try argument()
        if word.lowercased() == "off" {
          commands.append(.subs(.off))
        } else if word.lowercased() == "file" {
          commands.append(.subs(.file))
        } else if let index = Int(word), index >= 0 {
          commands.append(.subs(.index(index)))
        } else {
          throw bad("'\(word)' is not a stream index, 'file' or 'off'")
        }
      case "delay":
        commands.append(.delay(try seconds(try argument(), allowNegative: true)))
      case "seek":
        commands.append(.seek(try seconds(try argument(), allowNegative: false)))
      default:
        if words.count == 1, head.hasSuffix("s"), head.count > 1 {
          commands.append(.wait(try seconds(String(head.dropLast()), allowNegative: false)))
        } else {
          throw bad("unknown command (play, pause, Ns, speed, audio, subs, delay, seek, end)")
        }
      }
    }
    return commands
  }
}
