/// One sample of a subtitle track in an ISO base media file (MP4, fragmented or not), as a
/// demuxer delivers it: where it sits on the track's timeline and its bytes.
///
/// `MP4WebVTT.document(samples:configuration:)` (`wvtt` tracks) and
/// `TTML.document(samples:)` (`stpp` tracks) read such samples onto the format-neutral model.
public struct SubtitleSample: Hashable, Sendable {
  /// When the sample starts, in seconds on the track's presentation timeline.
  public var startTime: Double
  /// How long the sample lasts, in seconds (`nil`: not stated; it then lasts until the next
  /// sample starts, and the last one not at all).
  public var duration: Double?
  /// The sample's bytes; the sample owns them.
  public var bytes: [UInt8]

  /// Creates a sample.
  /// - Parameters:
  ///   - startTime: The start on the track's timeline, in seconds.
  ///   - duration: The duration in seconds, or `nil` when the container states none.
  ///   - bytes: The sample's bytes.
  public init(startTime: Double, duration: Double?, bytes: [UInt8]) {
    self.startTime = startTime
    self.duration = duration
    self.bytes = bytes
  }

  /// The end of each of `samples` in seconds: its start plus its duration, else the next
  /// sample's start (in the given order), else its own start. Never before its start.
  static func ends(of samples: [SubtitleSample]) -> [Double] {
    samples.indices.map { i in
      let start = samples[i].startTime
      if let duration = samples[i].duration, duration.isFinite, duration > 0 {
        return start + duration
      }
      if i + 1 < samples.count { return max(start, samples[i + 1].startTime) }
      return start
    }
  }
}

/// Joins the cues of consecutive samples: a cue a sample carries that the sample before it
/// carried too, with the same content and ending where this sample starts, is one cue lasting
/// over both (ISO/IEC 14496-30 repeats a cue in every sample it is active in; segmenters
/// repeat a TTML paragraph in every segment it overlaps).
struct SampleCueJoiner<Key: Hashable> {
  /// Two times closer than this are one instant (sample times come from integer ticks, added
  /// in different orders): a microsecond.
  static var tolerance: Double { 1e-6 }

  /// The cues so far, in the order they were first seen.
  private(set) var cues: [(key: Key, start: Double, end: Double)] = []
  /// The cues of the previous sample, by content: the ones a cue of this sample may continue.
  private var previous: [Key: [Int]] = [:]
  /// The cues of the current sample, by content.
  private var current: [Key: [Int]] = [:]

  /// Starts the next sample.
  mutating func beginSample() {
    previous = current
    current = [:]
  }

  /// Adds a cue of the current sample, lasting from `start` to `end` seconds.
  mutating func add(_ key: Key, start: Double, end: Double) {
    if var candidates = previous[key],
      let k = candidates.firstIndex(where: { abs(cues[$0].end - start) <= Self.tolerance })
    {
      let j = candidates.remove(at: k)
      previous[key] = candidates
      cues[j].end = max(cues[j].end, end)
      current[key, default: []].append(j)
      return
    }
    cues.append((key, start, end))
    current[key, default: []].append(cues.count - 1)
  }
}
