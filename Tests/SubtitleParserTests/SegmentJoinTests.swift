import SubtitleParser
import Testing

// HLS subtitle playlists: WebVTT segments joined into one document through their
// X-TIMESTAMP-MAP headers (RFC 8216, 3.5).

private func segment(_ map: String?, _ body: String) throws -> SubtitleDocument {
  var text = "WEBVTT\n"
  if let map { text += "X-TIMESTAMP-MAP=\(map)\n" }
  return try SubtitleFile.parse(Array((text + "\n" + body).utf8), format: .webVTT)
}

private func times(_ document: SubtitleDocument) -> [[Double]] {
  document.cues.map { [$0.startTime, $0.endTime] }
}

@Test func segmentsWithOneMapKeepTheirTimes() throws {
  let a = try segment("MPEGTS:900000,LOCAL:00:00:00.000", "00:01.000 --> 00:02.000\nOne\n")
  let b = try segment("MPEGTS:900000,LOCAL:00:00:00.000", "00:05.000 --> 00:06.000\nTwo\n")
  let joined = SubtitleDocument(joiningSegments: [a, b])
  #expect(times(joined) == [[1, 2], [5, 6]])
  #expect(joined.cues.map { joined.text(of: $0) } == ["One", "Two"])
  #expect(joined.timestampMap == TimestampMap(mpegts: 900_000, local: 0))
}

@Test func eachSegmentsMapMovesItsCuesOntoTheFirstTimeline() throws {
  // The second segment's cue times are local to it: LOCAL 0 is MPEGTS 900000 + 4 s.
  let a = try segment("MPEGTS:900000,LOCAL:00:00:00.000", "00:01.000 --> 00:02.000\nOne\n")
  let b = try segment("MPEGTS:1260000,LOCAL:00:00:00.000", "00:00.500 --> 00:01.000\nTwo\n")
  // LOCAL other than 0: the cue at 10.5 s of a segment mapping LOCAL 10 s to MPEGTS 900000 + 8 s.
  let c = try segment("MPEGTS:1620000,LOCAL:00:00:10.000", "00:10.500 --> 00:11.000\nThree\n")
  let joined = SubtitleDocument(joiningSegments: [a, b, c])
  #expect(times(joined) == [[1, 2], [4.5, 5], [8.5, 9]])
}

@Test func mpegTimeThatWrapsIsUnwrapped() throws {
  let wrap: Int64 = 1 << 33
  let a = try segment("MPEGTS:\(wrap - 90000),LOCAL:00:00:00.000", "00:00.000 --> 00:00.500\nA\n")
  // One second later, past the wrap.
  let b = try segment("MPEGTS:0,LOCAL:00:00:00.000", "00:00.000 --> 00:00.500\nB\n")
  #expect(times(SubtitleDocument(joiningSegments: [a, b])) == [[0, 0.5], [1, 1.5]])
}

@Test func aCueRepeatedAcrossABoundaryIsKeptOnce() throws {
  let body = "00:03.000 --> 00:05.000 line:0\nAcross\n"
  let a = try segment("MPEGTS:900000,LOCAL:00:00:00.000", "00:01.000 --> 00:02.000\nOne\n\n" + body)
  let b = try segment("MPEGTS:900000,LOCAL:00:00:00.000", body + "\n00:06.000 --> 00:07.000\nTwo\n")
  let joined = SubtitleDocument(joiningSegments: [a, b])
  #expect(joined.cues.map { joined.text(of: $0) } == ["One", "Across", "Two"])
  #expect(joined.diagnostics.contains { $0.reason.contains("repeated") })
  // Same times, other text: two cues.
  let c = try segment(nil, "00:03.000 --> 00:05.000\nOther\n")
  #expect(SubtitleDocument(joiningSegments: [a, c]).cues.count == 3)
}

@Test func aSegmentWithoutAMapTakesTheOneBefore() throws {
  let a = try segment("MPEGTS:900000,LOCAL:00:00:00.000", "00:01.000 --> 00:02.000\nOne\n")
  let b = try segment("MPEGTS:1260000,LOCAL:00:00:00.000", "00:00.000 --> 00:00.500\nTwo\n")
  let c = try segment(nil, "00:01.000 --> 00:01.500\nThree\n")
  #expect(times(SubtitleDocument(joiningSegments: [a, b, c])) == [[1, 2], [4, 4.5], [5, 5.5]])
}

@Test func regionsAreKeptOncePerIdentifierAndCuesPointAtThem() throws {
  let region = "REGION\nid:r1\nwidth:40%\n\n"
  let a = try segment(nil, region + "00:01.000 --> 00:02.000 region:r1\nOne\n")
  let b = try segment(nil, region + "00:03.000 --> 00:04.000 region:r1\nTwo\n")
  let joined = SubtitleDocument(joiningSegments: [a, b])
  #expect(joined.regions.map(\.id) == ["r1"])
  #expect(joined.cues.map { joined.region(of: $0)?.id } == ["r1", "r1"])
}

@Test func noSegmentsIsAnEmptyDocument() {
  let joined = SubtitleDocument(joiningSegments: [])
  #expect(joined.cues.isEmpty && joined.text.isEmpty)
}

// Discontinuities: timestamps may restart, and each discontinuity sequence is lined up with
// the playlist's timeline (the sum of the #EXTINF durations before a segment).

private func timing(_ places: [(Double, Int)]) -> [SubtitleDocument.SegmentTiming] {
  places.map { SubtitleDocument.SegmentTiming(start: $0.0, discontinuitySequence: $0.1) }
}

@Test func aSequenceAfterADiscontinuityStartsWhereThePlaylistPutsIt() throws {
  let a = try segment("MPEGTS:900000,LOCAL:00:00:00.000", "00:01.000 --> 00:02.000\nOne\n")
  let b = try segment("MPEGTS:900000,LOCAL:00:00:00.000", "00:07.000 --> 00:08.000\nTwo\n")
  // Timestamps restart at 2 s after the discontinuity; the segment starts at 12 s.
  let c = try segment("MPEGTS:180000,LOCAL:00:00:00.000", "00:00.500 --> 00:01.500\nThree\n")
  // Its sequence goes on: 6 s later in MPEG-TS time, with a cue local to that segment.
  let d = try segment("MPEGTS:720000,LOCAL:00:00:00.000", "00:00.250 --> 00:01.000\nFour\n")
  let joined = SubtitleDocument(
    joiningSegments: [a, b, c, d], timing: timing([(0, 0), (6, 0), (12, 1), (18, 1)]))
  #expect(times(joined) == [[1, 2], [7, 8], [12.5, 13.5], [18.25, 19]])
  #expect(joined.timestampMap == TimestampMap(mpegts: 900_000, local: 0))
}

@Test func withoutADiscontinuityTimingChangesNothing() throws {
  let a = try segment("MPEGTS:900000,LOCAL:00:00:02.000", "00:03.000 --> 00:04.000\nOne\n")
  let b = try segment("MPEGTS:1260000,LOCAL:00:00:00.000", "00:00.500 --> 00:01.000\nTwo\n")
  let c = try segment(nil, "00:01.000 --> 00:01.500\nThree\n")
  let plain = SubtitleDocument(joiningSegments: [a, b, c])
  let timed = SubtitleDocument(
    joiningSegments: [a, b, c], timing: timing([(0, 3), (6, 3), (12, 3)]))
  #expect(times(timed) == times(plain))
  #expect(times(plain) == [[3, 4], [6.5, 7], [7, 7.5]])
}

@Test func aLaterSequenceUnwrapsItsOwnMPEGTime() throws {
  let wrap: Int64 = 1 << 33
  let a = try segment("MPEGTS:900000,LOCAL:00:00:00.000", "00:01.000 --> 00:02.000\nOne\n")
  // After the discontinuity the MPEG-TS clock is 1 s before its wrap, then past it.
  let b = try segment(
    "MPEGTS:\(wrap - 90000),LOCAL:00:00:00.000", "00:00.000 --> 00:00.500\nTwo\n")
  let c = try segment("MPEGTS:450000,LOCAL:00:00:00.000", "00:00.000 --> 00:00.500\nThree\n")
  let joined = SubtitleDocument(
    joiningSegments: [a, b, c], timing: timing([(0, 0), (6, 1), (12, 1)]))
  #expect(times(joined) == [[1, 2], [6, 6.5], [12, 12.5]])
}

@Test func playlistTimesFollowTheFirstSegmentsTimeline() throws {
  // The first segment's LOCAL 2 s is its start: the result's times are 2 s past the
  // playlist's, after the discontinuity too.
  let a = try segment("MPEGTS:900000,LOCAL:00:00:02.000", "00:03.000 --> 00:04.000\nOne\n")
  let b = try segment("MPEGTS:0,LOCAL:00:00:00.000", "00:00.500 --> 00:01.000\nTwo\n")
  // A later sequence's segment without a map, before any: its times are playlist times.
  let c = try segment(nil, "00:13.000 --> 00:13.500\nThree\n")
  let joined = SubtitleDocument(
    joiningSegments: [a, c, b], timing: timing([(0, 0), (6, 1), (12, 2)]))
  #expect(times(joined) == [[3, 4], [15, 15.5], [14.5, 15]])
}

/// MPEG-TS time has 33 bits: a stated value past them (up to the 64-bit limit, as a hostile
/// playlist's segments may state) is read by its low 33 bits, and joining neither traps on
/// overflow nor loops, in either order and across a discontinuity.
@Test func mpegTimePastThirtyThreeBitsIsReadByItsLowBits() throws {
  let huge = try segment("MPEGTS:\(Int64.max),LOCAL:00:00:00.000", "00:00.000 --> 00:00.500\nA\n")
  let small = try segment("MPEGTS:90000,LOCAL:00:00:00.000", "00:00.000 --> 00:00.500\nB\n")
  let alsoHuge = try segment(
    "MPEGTS:\(Int64.max - (1 << 33) + 90000),LOCAL:00:00:00.000", "00:00.000 --> 00:00.500\nC\n")
  let timing = [0.0, 6, 12].enumerated().map {
    SubtitleDocument.SegmentTiming(start: $0.element, discontinuitySequence: $0.offset)
  }
  for order in [[huge, small, alsoHuge], [small, huge, alsoHuge], [alsoHuge, small, huge]] {
    for joined in [
      SubtitleDocument(joiningSegments: order),
      SubtitleDocument(joiningSegments: order, timing: timing),
    ] {
      #expect(joined.cues.count == 3)
      #expect(joined.cues.allSatisfy { $0.startTime.isFinite && $0.endTime >= $0.startTime })
    }
  }
  // Int64.max's low 33 bits are 2^33 - 1: the next segment's 90000 is a second (and a tick)
  // after it, wrapped.
  let joined = SubtitleDocument(joiningSegments: [huge, small])
  #expect(abs(joined.cues[1].startTime - 1) < 0.001)
}
