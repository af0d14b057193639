print("TracksBench: not written yet")
