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

@Test func tracksOfMissingFileIsNoInput() throws {
  let result = try runMtool(["tracks", "/no/such/file"])
  #expect(result.status == 66)
  #expect(result.stderr.hasPrefix("mtool: tracks: "))
  #expect(result.stderr.filter { $0 == "\n" }.count == 1)
}
