import MediaTracks
import Testing

/// The directory holding the committed fixtures, found from this file's path.
let fixtures: String = {
  var path = #filePath
  while let slash = path.lastIndex(of: "/"), !path.hasSuffix("/Tests") {
    path = String(path[..<slash])
  }
  return path + "/Fixtures"
}()

@Test func opensMatroskaAndCountsStreams() throws {
  let info = try MediaContainer.inspect(path: fixtures + "/multitrack.mkv")
  #expect(info.demuxerName == "matroska,webm")
  #expect(info.streamCount == 5)
}

@Test func opensWave() throws {
  let info = try MediaContainer.inspect(path: fixtures + "/clip.wav")
  #expect(info.demuxerName == "wav")
  #expect(info.streamCount == 1)
}

@Test func missingFileIsNotFound() {
  #expect {
    _ = try MediaContainer.inspect(path: fixtures + "/no-such-file.mkv")
  } throws: { error in
    (error as? MediaError)?.kind == .notFound
  }
}

@Test func subtitleTextIsNotMedia() {
  #expect {
    _ = try MediaContainer.inspect(path: fixtures + "/sample.srt.garbage")
  } throws: { error in
    (error as? MediaError) != nil
  }
}
