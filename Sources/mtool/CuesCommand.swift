import SubtitleParser

let cuesCommand = Command(
  name: "cues",
  summary: "Parse, inspect and convert WebVTT and SRT subtitles.",
  usage: "mtool cues FILE|- [options]",
  options: [],
  details: "",
  run: { _ throws(CLIError) -> ExitCode in
    throw CLIError.failure("cues", "not available in this build yet")
  }
)
