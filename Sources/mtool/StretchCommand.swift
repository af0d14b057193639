import TimeStretch

let stretchCommand = Command(
  name: "stretch",
  summary: "Change the speed of audio without changing its pitch.",
  usage: "mtool stretch IN OUT --speed S [options]",
  options: [],
  details: "",
  run: { _ throws(CLIError) -> ExitCode in
    throw CLIError.failure("stretch", "not available in this build yet")
  }
)
