print("StretchQuality: not written yet")
