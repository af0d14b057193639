print("SubtitleBench: not written yet")
