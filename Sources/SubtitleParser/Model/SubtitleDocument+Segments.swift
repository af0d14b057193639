extension SubtitleDocument {
  /// One document from the WebVTT segments of an HLS subtitle playlist, in playlist order.
  ///
  /// Each segment's cue times are moved onto the first segment's timeline through the
  /// segments' `X-TIMESTAMP-MAP` headers (RFC 8216, 3.5): a cue at time *t* of a segment that
  /// maps `LOCAL` *l* to `MPEGTS` *m* plays at media time *t* − *l* + *m*/90000, and the result
  /// keeps the first segment's map, so its times are the first segment's own. MPEG-TS times
  /// that wrap (33 bits) are unwrapped; a segment without a map takes the one before it. A cue
  /// repeated in a later segment (one that spans a segment boundary, with the same times,
  /// settings and text) is kept once. Regions are kept once per identifier and styles once
  /// each; diagnostics keep their lines within their segment, their offsets moved into the
  /// joined `text`, with one more for each repeated cue dropped.
  ///
  /// - Parameter segments: The parsed segments (the caller keeps them; the result copies what
  ///   it needs).
  public init(joiningSegments segments: [SubtitleDocument]) {
    self.init(joiningSegments: segments, timing: [])
  }

  /// Where an HLS playlist places one of its segments: what lines up segments whose MPEG-TS
  /// timestamps restart after an `#EXT-X-DISCONTINUITY`.
  public struct SegmentTiming: Hashable, Sendable, Codable {
    /// The segment's start on the playlist's timeline, in seconds: the sum of the `#EXTINF`
    /// durations before it.
    public var start: Double
    /// Its discontinuity sequence number: segments of one number share one MPEG-TS timeline.
    public var discontinuitySequence: Int

    /// A segment that starts at `start` seconds of the playlist, in discontinuity sequence
    /// `discontinuitySequence`.
    public init(start: Double, discontinuitySequence: Int) {
      self.start = start
      self.discontinuitySequence = discontinuitySequence
    }
  }

  /// One document from the WebVTT segments of an HLS subtitle playlist, in playlist order,
  /// where `timing` says how the playlist places each segment.
  ///
  /// As ``init(joiningSegments:)`` joins them, and across discontinuities as players do
  /// (RFC 8216 section 6.3.3; Media3 keeps one timestamp adjuster per discontinuity sequence):
  /// the segments up to the first change of ``SegmentTiming/discontinuitySequence`` are joined
  /// as one playlist without discontinuities is. In each later sequence the first segment with
  /// an `X-TIMESTAMP-MAP` lines its `MPEGTS` value up with its ``SegmentTiming/start``, and
  /// the sequence's other segments keep their MPEG-TS distance from it (33-bit wrap
  /// unwrapped). Playlist times are put on the result's timeline (the first segment's) by the
  /// first mapped segment of the first sequence, whose `MPEGTS` value is at its start; a later
  /// sequence's segments before its first map take their cue times as playlist times.
  ///
  /// - Parameters:
  ///   - segments: The parsed segments (the caller keeps them; the result copies what it
  ///     needs).
  ///   - timing: The placement of each segment, by position; a segment past its end is in the
  ///     sequence of the one before it (an empty `timing` joins as ``init(joiningSegments:)``).
  public init(joiningSegments segments: [SubtitleDocument], timing: [SegmentTiming]) {
    self.init(format: .webVTT, text: [])
    guard let first = segments.first else { return }
    header = first.header
    timestampMap = first.timestampMap
    // MPEG-TS time has 33 bits: higher bits of a stated value are not time (and a hostile
    // value near the 64-bit limit must not overflow the unwrapping below).
    let wrap: Int64 = 1 << 33
    let base = first.timestampMap.map { Double($0.mpegts & (wrap - 1)) / 90_000 - $0.local } ?? 0
    var previousTicks = first.timestampMap.map { $0.mpegts & (wrap - 1) }
    var offset = 0.0
    /// The discontinuity sequence of the segment before.
    var sequence = timing.first?.discontinuitySequence
    /// Whether a discontinuity has been passed.
    var pastFirstSequence = false
    /// The result's time minus the playlist's, once the first sequence has a map.
    var playlistShift: Double? = nil
    /// In a later sequence, its first map's MPEG-TS time and that segment's playlist start.
    var anchor: (ticks: Int64, start: Double)? = nil
    var seen = Set<CueKey>()
    var regionIndex: [String: Int] = [:]
    var log = DiagnosticLog()
    for (number, segment) in segments.enumerated() {
      let place = number < timing.count ? timing[number] : nil
      if let place, place.discontinuitySequence != sequence {
        // Timestamps may restart: this sequence is lined up with the playlist on its own.
        sequence = place.discontinuitySequence
        pastFirstSequence = true
        previousTicks = nil
        anchor = nil
        offset = playlistShift ?? 0
      }
      if let map = segment.timestampMap {
        var ticks = map.mpegts & (wrap - 1)
        if let previous = previousTicks, ticks < previous - wrap / 2 {
          // A value far below the one before has wrapped (as often as it takes to come within
          // half a wrap of it).
          ticks += (previous - wrap / 2 - ticks + wrap - 1) / wrap * wrap
        }
        previousTicks = ticks
        if !pastFirstSequence {
          offset = Double(ticks) / 90_000 - map.local - base
          if playlistShift == nil, let place {
            playlistShift = Double(ticks) / 90_000 - base - place.start
          }
        } else {
          let start = anchor?.start ?? place?.start ?? 0
          let anchorTicks = anchor?.ticks ?? ticks
          anchor = (anchorTicks, start)
          offset =
            start + Double(ticks - anchorTicks) / 90_000 - map.local + (playlistShift ?? 0)
        }
      }
      let shift = text.count
      text.append(contentsOf: segment.text)
      for style in segment.styles where !styles.contains(style) { styles.append(style) }
      var regionMap: [Int: Int] = [:]
      for (index, region) in segment.regions.enumerated() {
        if let known = regionIndex[region.id], !region.id.isEmpty {
          regionMap[index] = known
        } else {
          regionMap[index] = regions.count
          if !region.id.isEmpty { regionIndex[region.id] = regions.count }
          regions.append(region)
        }
      }
      for var diagnostic in segment.diagnostics {
        diagnostic.offset += shift
        log.append(diagnostic)
      }
      for var cue in segment.cues {
        cue.startTime = ((cue.startTime + offset) * 1000).rounded() / 1000
        cue.endTime = ((cue.endTime + offset) * 1000).rounded() / 1000
        cue.idRange = (cue.idRange.lowerBound + shift)..<(cue.idRange.upperBound + shift)
        cue.textRange = (cue.textRange.lowerBound + shift)..<(cue.textRange.upperBound + shift)
        cue.settings.region = cue.settings.region.flatMap { regionMap[$0] }
        let key = CueKey(
          start: cue.startTime, end: cue.endTime, settings: cue.settings,
          text: Array(text[cue.textRange]))
        guard seen.insert(key).inserted else {
          if number > 0 {
            log.add(
              line: cue.line, offset: cue.textRange.lowerBound,
              "cue repeated from an earlier segment; kept once")
          }
          continue
        }
        cues.append(cue)
      }
    }
    diagnostics = log.list
  }

  /// What makes two cues of consecutive segments the same cue.
  private struct CueKey: Hashable {
    var start: Double
    var end: Double
    var settings: CueSettings
    var text: [UInt8]
  }
}
