import Testing

@Test func helpListsCommandsAndExitCodes() throws {
  let result = try runMtool(["--help"])
  #expect(result.status == 0)
  for word in ["tracks", "cues", "stretch", "64", "65", "66"] {
    #expect(result.stdout.contains(word), "help lacks \(word)")
  }
}

@Test func versionPrints() throws {
  let result = try runMtool(["--version"])
  #expect(result.status == 0)
  #expect(result.stdout.hasPrefix("mtool "))
}

@Test(arguments: [["--version", "--bogus"], ["help", "tracks", "extra"], ["-h", "x"]])
func extraArgumentsAfterHelpOrVersionAreUsageErrors(arguments: [String]) throws {
  let result = try runMtool(arguments)
  #expect(result.status == 64)
  #expect(result.stdout.isEmpty)
  #expect(result.stderr.hasPrefix("mtool: unexpected '\(arguments.last ?? "")'"))
}

@Test func unknownCommandIsUsageError() throws {
  let result = try runMtool(["nosuchcmd"])
  #expect(result.status == 64)
  #expect(result.stdout.isEmpty)
  #expect(result.stderr.hasPrefix("mtool: "))
  #expect(result.stderr.filter { $0 == "\n" }.count == 1)
}

@Test(arguments: ["tracks", "cues", "stretch"])
func everyCommandHasHelp(command: String) throws {
  let result = try runMtool(["help", command])
  #expect(result.status == 0)
  #expect(result.stdout.contains("usage: mtool \(command)"))
  let dashed = try runMtool([command, "--help"])
  #expect(dashed.stdout == result.stdout)
}

@Test func unknownOptionIsUsageError() throws {
  let result = try runMtool(["tracks", "--nope", fixtures + "/clip.wav"])
  #expect(result.status == 64)
  #expect(result.stderr == "mtool: tracks: unknown option '--nope'\n")
}

/// An option that takes one value, given twice under either of its names, is one line naming
/// it (64) in every command, instead of the last value winning without a word; the repeatable
/// ones (`--header`, `--prefer`) and flags may be repeated.
@Test(arguments: [
  (["stretch", "/no/such.wav", "/no/o.wav", "--speed", "2", "--speed", "3"], "--speed"),
  (["stretch", "/no/such.wav", "/no/o.wav", "-s", "2", "--speed=2"], "--speed"),
  (
    ["stretch", "/no/a.wav", "/no/o.mp3", "-s", "2", "--bitrate", "1", "--bitrate", "2"],
    "--bitrate"
  ),
  (["cues", "/no/such.srt", "--to", "vtt", "--to", "srt"], "--to"),
  (["cues", "/no/such.srt", "-o", "a.vtt", "--output", "b.vtt"], "--output"),
  (["cues", "/no/such.srt", "--shift", "1", "--shift", "2"], "--shift"),
  (["tracks", "/no/such.wav", "--jobs", "1", "-j", "2"], "--jobs"),
  (["tracks", "/no/such.wav", "--timeout", "5", "--timeout", "5"], "--timeout"),
])
func oneValueOptionGivenTwiceIsUsageError(arguments: [String], option: String) throws {
  let result = try runMtool(arguments)
  #expect(result.status == 64, "\(arguments): \(result.stderr)")
  #expect(
    result.stderr
      == "mtool: \(arguments[0]): option '\(option)' is given more than once; it takes one value\n"
  )
}

@Test func repeatableOptionsAndFlagsMayBeRepeated() throws {
  let clip = fixtures + "/clip.wav"
  let tracks = try runMtool([
    "tracks", clip, "--prefer", "fr", "--prefer", "en", "-H", "A: 1", "--header", "B: 2",
    "--json", "--json",
  ])
  #expect(tracks.status == 0, "\(tracks.stderr)")
}

@Test func tracksOfMissingFileIsNoInput() throws {
  let result = try runMtool(["tracks", "/no/such/file"])
  #expect(result.status == 66)
  #expect(result.stderr.hasPrefix("mtool: tracks: "))
  #expect(result.stderr.filter { $0 == "\n" }.count == 1)
}
