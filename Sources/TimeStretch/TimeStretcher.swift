#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A streaming time stretcher: changes the speed of interleaved Float32 audio without changing
/// its pitch, with WSOLA (waveform-similarity overlap-add).
///
/// Feed input with ``push(_:frames:)``, take output with ``pull(into:maxFrames:)`` in any block
/// sizes, call ``finish()`` at the end of the stream to flush the tail, and ``reset()`` after a
/// seek. The output is the same, bit for bit, whatever the block sizes.
///
/// ```swift
/// var stretcher = try TimeStretcher(sampleRate: 48_000, channels: 2, speed: 1.5)
/// stretcher.push(block, frames: block.count / 2)
/// let n = stretcher.pull(into: &out, maxFrames: out.count / 2)
/// ```
///
/// How it works: output is built from windowed segments (10 ms Hann windows, 5 ms apart in the
/// output; 20 ms, 10 ms apart, for a stretcher created below 0.7x: see ``slowHopSeconds``). Each segment is read from the input at the position the speed map gives for it
/// (``mediaTime(forOutputFrame:)`` at the segment's centre), moved by a bounded offset to the
/// position whose waveform best continues the previous segment. The offset stays within ±2 ms,
/// where any tone above about 250 Hz finds a whole period; among matches about as good as the
/// best (within 0.01, widened for poor matches, as on noise) the one nearest the ideal position
/// is taken. Only when low
/// frequencies dominate the signal (it crosses zero no more often than a 250 Hz tone) and
/// nothing within ±2 ms matches well is the search extended to ±15 ms (a 33 Hz period); it then
/// takes the near-equal match nearest the ideal position, so a bass note's offset stays within
/// about half its period and does not build up. Tonal sound that matches nothing well within
/// ±2 ms and is not periodic (chords over a reverberant cloud of partials: it repeats away from
/// its own continuation at a correlation of 0.6 or more, which noise does not reach) is searched
/// over the same ±15 ms for 0.2 s after it is found so, and not scattered (see below), so its
/// continuation is kept rather than spliced out of phase. The similarity is a normalised
/// cross-correlation over 10 ms of the sum of all channels centred on the crossfade, searched
/// coarse-to-fine (4:1 decimated, then full resolution around the three best coarse lags and the
/// ideal position) and refined to a fraction of a frame on a tapered 15 ms correlation, also
/// centred on the crossfade, so that a gliding pitch joins without a phase step; every channel
/// then uses the same offset, so the stereo image is kept. Where the best match is poor (noise:
/// applause, rain, breath) and the stretcher slows down, the segment is read at the best match
/// near a random point within ±1.2 ms, on alternate sides of the ideal position, so repeated
/// input falls at scattered distances instead of forming a comb. Each crossfade keeps the
/// level: its gain follows the measured correlation of the two segments over the overlap
/// (equal gain when they agree, equal power when they are unrelated), the same gain on every
/// channel, so level differences between channels are kept exactly. Onsets (a 0.5 ms block with ten times the energy of the 8 ms before
/// it) are played once, in one segment continued exactly by the next, at their scaled time where
/// the look-ahead allows (late by up to a few milliseconds above 1.5x), and never repeated or
/// skipped, as long as they are at least 25 ms of output apart; closer ones (applause) are
/// played as any other sound, so that a dense texture is not turned into a string of attacks.
///
/// With ``Quality/fine``, below about 950 Hz, while that band is tonal, the output is a phase
/// vocoder's instead (see ``BandSplit``): 46 ms windows, a phase advance locked to spectral peaks and common to every
/// channel, reading the input where the same media-time map puts each frame, decimated to
/// about 5.5 kHz. Spliced segments cut a bass line or a chord's low partials at one offset a
/// segment; the vocoder keeps each partial's phase running, which is closer to the ideal
/// (spectral convergence on StretchQuality's music mix 0.383/0.324/0.357/0.335 at
/// 0.5/1.5/2/3x against 0.410/0.356/0.410/0.416 spliced). Where the low band is noise the
/// splicing stage keeps it (its level and timing), the two mixed by the band's running tonal
/// share. The split is complementary (the splicing output less its low band, plus the
/// vocoder's: flat where the two agree) and zero-phase, so the bands line up to the frame.
/// Around an onset whose low band stands out of quiet (a click, a drum after a rest), the low
/// band stays the splicing stage's, which plays the attack once and in place; the vocoder's
/// window would echo it up to 23 ms early.
///
/// Timeline: a segment plays its input at the input's own rate, so within it the media time runs
/// at slope 1 rather than at the speed (±2.5 ms × |1 − speed| around its centre's), and the
/// centre plays its media on the map plus the offset. Measured on band-limited noise with the
/// media time averaged over 10 ms of output, the error stays within 1.1–1.3 ms for 95 % of the
/// output and 2.0 ms at worst from 0.5x to 2x (1.8 and 2.8 ms at 3x); clicks land within 0.1 ms
/// of their mapped time. Bass-dominated sound may sit up to ±15 ms off
/// (its timing is only defined to within a period), and segments next to onsets up to 25 ms.
/// None of it accumulates. Speed changes scheduled with ``setSpeed(_:atInputFrame:)`` enter the
/// map exactly at their input frame.
///
/// The type is non-copyable: it owns its buffers and frees them when it goes away. After the first
/// blocks, pushing and pulling allocate nothing, as long as the caller's blocks do not grow.
public struct TimeStretcher: ~Copyable, @unchecked Sendable {
  // @unchecked: the raw buffers are owned by this non-copyable value alone, so whoever holds the
  // value has exclusive access to them.

  /// The speeds the stretcher accepts (output faster than input above 1).
  public static let supportedSpeeds: ClosedRange<Double> = 0.1...10
  /// The speeds with full quality; outside, down to 0.1 and up to 10, it still works.
  public static let fullQualitySpeeds: ClosedRange<Double> = 0.25...4
  /// The sample rates the stretcher accepts (Hz): from 4 kHz, below telephony's 8 kHz, so that
  /// files at odd low rates (7,999 Hz from a drifting recorder, FLV's 5,512 Hz) are stretched at
  /// their own rate, up to 192 kHz.
  public static let supportedSampleRates: ClosedRange<Int> = 4000...192_000
  /// The channel counts the stretcher accepts (mono to 7.1).
  public static let supportedChannelCounts: ClosedRange<Int> = 1...8

  /// The sample rate (Hz).
  public let sampleRate: Int
  /// The number of interleaved channels.
  public let channels: Int
  /// The requested speed: input seconds played per output second. A change applies from the next
  /// segment (one hop of output later: 5 ms, or 10 ms for a stretcher created below 0.7x; three
  /// hops at most when an onset is playing). Set it with ``setSpeed(_:)``, or at an exact input frame with ``setSpeed(_:atInputFrame:)`` (then it
  /// takes the new value when the stretcher reaches that frame); changes after ``finish()`` are
  /// ignored.
  public internal(set) var speed: Double

  // Geometry, in frames.
  let hop: Int
  let window: Int
  let radius: Int
  let innerRadius: Int
  /// The drift budget: the offset searched when the signal is not dominated by bass.
  let budget: Int
  /// The coefficient of each of the two one-pole low-pass filters (corner ``bassHz``) through
  /// which ``lowFrequency()`` measures the similarity reference's low-frequency energy.
  let bassCoefficient: Float
  /// The most zero crossings of the similarity reference for which low frequencies count as
  /// dominating it whatever their share: those of a ``bassHz`` tone, and one more.
  let bassCrossings: Int
  let behind: Int
  let reach: Int
  let preroll: Int
  /// Frames before the overlap that the similarity search also compares (about as many as after
  /// it).
  let searchHistory: Int
  /// Frames of history before the overlap that the sub-frame refinement compares (one hop).
  let refineHistory: Int
  /// Frames the similarity search compares (from `searchHistory` before the overlap on).
  let searchLength: Int
  /// Frames the sub-frame refinement compares (from `refineHistory` before the overlap on: three
  /// hops, centred on the overlap).
  let refineLength: Int
  /// Frames of the 4:1 decimated reference (``StretchBuffers/refDec``) that the coarse pass and
  /// the bass check compare: a quarter of ``searchLength``, in whole SIMD8 blocks.
  let coarseLength: Int
  let block: Int

  /// Every buffer: the input, the sum of its channels and that sum's 4:1 decimation (indexed by
  /// internal frame − base), the windows, the output accumulator and the search's scratch.
  var buffers: StretchBuffers
  var base = 0
  var frames = 0
  var decDone = 0

  // The finished hop waiting to be pulled (in `buffers.ready`).
  var readyStart = 0
  var readyCount = 0
  /// The ideal position of the previous segment (internal frames).
  var previousIdeal: Double = 0
  /// The state of the random sequence that scatters repeats of noise-like input.
  var scatterState: UInt64 = Self.scatterSeed
  /// The side of the ideal position the last scattered segment was read on (±1).
  var scatterSide: Double = 1

  // Onsets (their energies and the onsets waiting are in `buffers.history` and
  // `buffers.pending`).
  var historyPos = 0
  /// The largest block energy lately, decaying by ``peakDecay`` a block (see ``onsetOverPeak``).
  var recentPeak: Float = 0
  /// The per-block decay of ``recentPeak``: a tenth in ``peakMemorySeconds``.
  let peakDecay: Float
  var scanned = 0
  var lastOnsetBlock = Int.min / 2
  var pendingHead = 0
  var pendingCount = 0
  var lastEmitted = Int.min

  // Segments and timeline.
  /// Speed changes scheduled at input frames and not yet in the map, by frame.
  var scheduled: ScheduledSpeeds
  var segment = 0
  var previous: Double = 0
  /// +1 when the similarity signal (`buffers.mix`) is the first channel plus the others, −1 when it is
  /// the first minus the others.
  var mixSign: Float = 1
  /// Running means (time constant ``polaritySeconds``) of the first channel times the sum of
  /// the others, and of their energies.
  var polarityCross: Float = 0
  var polarityFirst: Float = 0
  var polarityRest: Float = 0
  /// The weight the running means keep per block of ``polarityBlock`` frames.
  let polarityKeep: Float
  /// Frames of the current polarity block seen so far (its sums are below).
  var polarityFill = 0
  /// The current block's sums, lane *k* over its frames whose index is *k* modulo 4: the same
  /// additions in the same order however the input is split into pushes.
  var polarityBlockCross: SIMD4<Float> = .zero
  var polarityBlockFirst: SIMD4<Float> = .zero
  var polarityBlockRest: SIMD4<Float> = .zero

  /// Segments left in periodic mode (see `periodicMode`); at or below zero, its grace period
  /// runs down, and far below, the mode is off.
  var periodicLeft = Int.min / 2
  /// Searches that skip the periodicity check before it is made again.
  var periodicCheckWait = 0
  /// The last segment of the tonal hold: a periodicity check that finds the sound tonal (see
  /// ``tonalMatch``) lets its segment and the ``tonalHoldSegments`` after it be read outside
  /// the drift budget. Far below the current segment when no check did lately.
  var tonalUntil = Int.min / 2
  /// The running mean of the searched segments' offsets from their ideal positions (input
  /// frames; see ``offsetMemory``), which the whole-range search corrects for.
  var offsetMean: Double = 0
  /// Whether low frequencies dominate the current similarity reference, once measured (see
  /// ``isLowFrequency()``); nil until then.
  var lowFrequencyKnown: Bool?
  /// Whether low frequencies dominated the previous search's reference; true when it was not
  /// measured (its match within the drift budget was good, which noise's never is). The whole
  /// range is searched for bass only when this holds too: low-passed noise passes
  /// ``bassShare`` in one 10 ms reference now and then, and its one good match in the whole
  /// range, its natural continuation, then moved a segment up to 9 ms off the timeline (2.5 ms
  /// averaged over 10 ms at 0.75x, 1.9 ms so). A tone below ``bassHz`` finds a good match
  /// within the budget in some segments and not in the next, which is why an unmeasured
  /// reference counts: counted as not low, a 220 Hz tone lost 55 dB of SNR at 2x.
  var lowFrequencyBefore = true
  var map: MediaTimeMap
  /// The low band's phase-vocoder stage, through which all output passes with
  /// ``Quality/fine`` (see ``BandSplit``); nil with ``Quality/standard``.
  var bands: BandSplit?
  /// The quality chosen at creation.
  public let quality: Quality
  var inputFrames = 0
  var finished = false
  var total = 0
  var delivered = 0

  // The tuning constants. They follow one pattern (a doc comment saying what the value does and
  // why it is what it is, then a `static let`), so runs of them look alike; each is its own
  // value, not repeated code.

  /// Output distance between segments; segments are twice as long. A stretcher created at a
  /// speed below ``slowHopBelow`` uses ``slowHopSeconds`` instead.
  static let hopSeconds = 0.005
  /// The output distance between segments of a stretcher created to slow down by more than
  /// ``slowHopBelow`` (20 ms segments). Slowing down, each stretch of input is played about
  /// 1/speed times, so with 5 ms hops a 0.5x stretcher made three times the segments (each with
  /// its search) per second of input that a 1.5x one does, and splices repeated short stretches
  /// of noise-like sound. With 10 ms hops at 0.5x (measured on StretchQuality's signals): the
  /// music mix's log-spectral distance 3.9 dB instead of 4.2, white-noise periodicity .014
  /// instead of .019, the stereo sources' level balance within 0.002 dB instead of 0.014; tone
  /// SNR, pitch, clicks (none doubled), the timeline (2.0 ms worst) and the stereo delay held;
  /// fast speech's envelope correlation .89 instead of .94 (every peer measured is below .84);
  /// and a minute of stereo stretched in 62 % of the time. Above 0.7x, longer hops moved the
  /// timeline on noise (2.3 ms at 0.75x, 4.7 at 2.5x) and blurred fast speech, so they stay 5 ms.
  /// The hop is fixed when the stretcher is created: a later speed change keeps it.
  static let slowHopSeconds = 0.010
  /// The speed below which a new stretcher uses ``slowHopSeconds``.
  static let slowHopBelow = 0.7
  /// The largest offset the similarity search may move a segment from its ideal position: enough
  /// for a 33 Hz period.
  static let radiusSeconds = 0.015
  /// The offset searched first; the search extends to ``radiusSeconds`` only when no lag in it
  /// correlates better than ``extendBelow`` (a period too long for it).
  static let innerRadiusSeconds = 0.0095
  static let extendBelow: Float = 0.98
  /// The largest offset from the ideal position searched first, and the only one searched unless
  /// the signal has strong low-frequency content (see ``bassHz``).
  static let budgetSeconds = 0.002
  /// Signals dominated by frequencies below about this one (Hz) may be moved by up to
  /// ``radiusSeconds`` when nothing within ``budgetSeconds`` matches well; others by up to
  /// ``budgetSeconds`` only.
  static let bassHz = 250.0
  /// The share of the similarity reference's energy below about ``bassHz`` (through two one-pole
  /// low-pass filters) from which low frequencies count as dominating it. A music mix's kick and
  /// bass carry most of its energy under chords, hi-hats and a reverb tail, and pass this; noise
  /// flat to 2 kHz, whose stretches pass 0.2 now and then, does not (searched beyond the drift
  /// budget, it drifted 6 ms off the timeline). A tone just below ``bassHz`` passes only about
  /// 0.3 of its energy: it counts by its zero crossings (see ``bassCrossings``).
  static let bassShare: Float = 0.3
  /// The share of the previous segment's offset from its ideal position that the next search
  /// within the drift budget aims to undo: its preferred lag (among near-equal peaks, and for the
  /// distance penalty) is the ideal position less this share of that offset. Matches of
  /// noise-like sound are near-equal over the whole budget, and taken nearest the ideal position
  /// they wandered to one side of it for several segments; the timeline on band-limited noise
  /// was 3.6 ms off at 3x, 2.5 ms at 0.75x and 2.1 ms at 2.5x (averaged over 10 ms), against
  /// 2.1, 1.9 and 2.0 ms so. The whole share (1) made neighbouring segments swing from one edge
  /// of the budget to the other; a tone's or a chord's match, near-equal to none, is unchanged.
  /// (The whole-range search of periodic and tonal sound, whose offsets persist over many
  /// segments, corrects by their running mean instead: see ``offsetMemory``.)
  static let offsetCarry = 0.5
  /// How near its preferred lag a poor match is kept when speeding up, as a share of the drift
  /// budget (see `keepNearTarget`).
  static let nearTargetShare = 0.5
  /// The correlation of a match within the drift budget that is good enough to keep.
  static let goodMatch: Float = 0.99
  /// Above the bass, a match outside the drift budget replaces the best within it only when it
  /// correlates at least this well (a periodic continuation: a chord whose common period is
  /// longer than the budget)...
  static let periodicMatch: Float = 0.9
  /// ...and by this much more than the best within the budget. Noise, whose best match is
  /// near 0.7 anywhere, stays within the budget.
  static let periodicGain: Float = 0.05
  /// The similarity search and the onset scan follow one signal for all channels (one shared
  /// alignment keeps the stereo image). It is the channels' sum, but channels in opposite
  /// polarity (a wired-backwards stereo pair, or side content louder than the middle) cancel
  /// in the sum, which left the search nothing to align. When the running correlation between
  /// the first channel and the others is below −``polarityTurn`` the others are subtracted
  /// instead; above +``polarityTurn`` they are added again.
  static let polarityTurn: Float = 0.5
  /// The time constant of that running correlation.
  static let polaritySeconds = 0.05
  /// The running correlation is updated, and the sign may turn, once per this many frames
  /// (a multiple of 4): per-frame running means were a serial chain of multiplies and adds,
  /// a tenth of the stretcher's time.
  static let polarityBlock = 32
  /// Tonal sound that is not periodic within the search range (a music mix: chords over a
  /// bass that has died away, a reverberant cloud of partials, hi-hats) has no good match
  /// within the drift budget; spliced there, at correlations of 0.1 to 0.7, each crossfade
  /// smeared its partials (energy moved from the partials to the bins between them: the mix's
  /// chord partials came out 10–30 % weaker), and when slowing down the scattering of
  /// noise-like repeats made those splices worse still. Its continuation is kept instead, as
  /// for bass: the whole range is searched (the natural continuation, when it is in range,
  /// matches perfectly, and the offset then stays within ``radiusSeconds``) when the best match
  /// away from the natural continuation reaches this correlation...
  static let tonalMatch: Float = 0.6
  /// ...and this much more than the best within the budget. Over 10 ms, noise (white, pink,
  /// low-passed) matches itself away from the natural continuation by chance at up to about
  /// 0.5 (0.65 at most for pink noise), and a tonal music mix at 0.45 to 0.9; at 0.5 noise
  /// was taken for tonal now and then and drifted off the timeline (2.8 ms at 2x).
  static let tonalGain: Float = 0.2
  /// A periodicity check whose best match away from the natural continuation reaches this,
  /// short of tonal, is made again for the next segment rather than after
  /// ``periodicCheckInterval`` segments: a music mix passes ``tonalMatch`` in some segments and
  /// not in the next few, which were spliced within the budget (and scattered when slowing
  /// down) until the next check. Noise comes this near in about one check in ten, so it pays
  /// for few extra checks.
  static let nearlyTonal: Float = 0.45
  /// How long a tonal check's answer holds. Held for its own segment alone, a chord under a
  /// reverberant cloud of partials (whose check passes ``tonalMatch`` in one segment and not in
  /// the next) was read at its continuation in one segment and spliced within the drift budget,
  /// out of phase with its notes, in the next: a C major chord under 120 partials a sixth of
  /// its power kept 7–11 % of its power at the notes at 0.5x and 0.75x, against 72 % in the
  /// input (30–59 % held 0.2 s, with no scattering while it holds). The music mix's spectral
  /// convergence, averaged over six mixes of its kind (other chords, tempo, partials), went
  /// from 0.429, 0.377, 0.440 and 0.428 at 0.5x, 1.5x, 2x and 3x to 0.404, 0.366, 0.433 and
  /// 0.427. Noise passes the check too seldom for the hold to move its timeline, level or
  /// periodicity.
  static let tonalHoldSeconds = 0.2
  /// ``tonalHoldSeconds`` in segments.
  let tonalHoldSegments: Int
  /// How long a periodic match found outside the drift budget keeps the whole range searched.
  /// Held 1 s, a music mix (chords over a bass) was searched within the budget again between
  /// its periodic matches: its spectral convergence was 0.436 at 0.5x and 0.362 at 1.5x,
  /// against 0.433 and 0.357 held 3 s (speech-like material at 0.5x: 0.158
  /// against 0.136). Noise finds no such match (see ``periodicMatch``), and its timeline and
  /// level are the same either way.
  static let periodicHoldSeconds = 3.0
  /// The weight of each searched segment in ``offsetMean`` (a time constant of ten segments,
  /// 50 ms). Searched over the whole range, a segment takes the near-equal peak nearest its
  /// ideal position, but the sound changes with time, so peaks nearer the natural continuation
  /// of the previous segment correlate better, and segments sat on its side on average (a music
  /// mix's offsets averaged +2.5 ms at 0.5x and −1.5 ms at 2x): the sound played early or late
  /// by that much. For periodic and tonal sound the whole-range search therefore centres its
  /// distance penalty and its choice among near-equal peaks on the ideal position less the
  /// running mean. Speech-like material's spectral convergence went from 0.137, 0.122, 0.155
  /// and 0.165 at 0.5x, 1.5x, 2x and 3x to 0.133, 0.122, 0.149 and 0.166 (its envelope
  /// correlation at 0.5x from 0.909 to 0.942), a chirp's at 3x from 0.056 to 0.043, the music
  /// mix's from 0.416 to 0.413 at 0.5x and within 0.001 elsewhere. Bass is left out: its
  /// offset runs over its whole period (its timing is only defined within one), and centred on
  /// that running mean a 41 Hz tone came out 0.2 Hz off. Noise, searched within the drift
  /// budget, is unaffected.
  static let offsetMemory = 0.1
  /// How long after that the whole range is still searched without a new periodic match.
  static let periodicGraceSeconds = 0.1
  /// While no periodic match is found, the check runs on one search in this many.
  static let periodicCheckInterval = 8
  /// ``periodicHoldSeconds`` in segments.
  let periodicHoldSegments: Int
  /// ``periodicGraceSeconds`` in segments.
  let periodicGraceSegments: Int
  /// How much signal the similarity search compares: the overlap, and as much before it as after
  /// it. The comparison is centred on the overlap's centre because the match sets the phase of
  /// the join there: centred on an earlier point (as when it compared only history before the
  /// overlap), a gliding pitch joined with a phase step at every crossfade, proportional to the
  /// segment's jump, which raised or lowered the pitch heard (on a chirp at 2x as if the media
  /// ran 5 ms ahead of where the segments sat).
  static let searchSeconds = 0.010
  static let historyLength = 16
  static let pendingCapacity = 64
  /// The most scheduled speed changes that can wait at a time: 4,194,304 (2²²), a guard against
  /// runaway memory rather than a limit a speed map meets (a change every millisecond of a
  /// 69-minute stream). Each waiting change takes 24 bytes, and each change reached adds a
  /// breakpoint of 32 bytes to the media-time map, which keeps them all.
  public static let scheduledCapacity = 1 << 22
  /// The scheduled changes within the input pushed that ``availableFrames`` examines one by one;
  /// beyond that many it bounds them all at once.
  static let reachableChangesExamined = 64
  /// An onset is a block (about 0.5 ms) whose energy is this many times the mean of the
  /// ``historyLength`` blocks before it...
  static let onsetRatio: Float = 10
  /// ...and this many times the largest block energy of the last ``peakMemorySeconds`` or so
  /// (decaying). Sound made of several tones beats: its short-time energy dips nearly to zero
  /// and comes back every few milliseconds, ten times its mean over the dip. Those returns
  /// reach no higher than the peaks of the beats before them, while a click or a drum hit rises
  /// above everything just heard. (Chords taken for onsets were played without the similarity
  /// search, which garbled them.)
  static let onsetOverPeak: Float = 4
  /// How long a block's energy counts as recent for ``onsetOverPeak``: it decays to a tenth in
  /// this time, longer than the beat period of tones 33 Hz apart.
  static let peakMemorySeconds = 0.03
  /// The least output time between two onsets that are each played once at their scaled time:
  /// an onset that follows the last one kept by less than this (times the speed, in input) is
  /// sound like any other. In dense textures (applause: some 60 claps a second) keeping every
  /// clap's attack filled the output with attacks when speeding up, since each one played in
  /// full and the quieter decays between them were skipped: applause came out 0.54 dB louder at
  /// 3x (+0.23 at 2x), against −0.27 dB with no onsets at all. A click train, drum hits on
  /// eighth notes at 120 bpm and speech syllables stay well apart at 3x (42 ms or more).
  static let onsetSpacingSeconds = 0.025
  /// ``onsetSpacingSeconds`` in output frames.
  let onsetSpacingFrames: Double
  static let distancePenalty: Float = 0.05
  /// Lags whose correlation is within this of the best peak's count as equal matches; the one
  /// nearest the ideal position is taken (see ``nearEqualSpread``).
  static let nearEqual: Float = 0.01
  /// Widens ``nearEqual`` for poor matches by this times 1 − r² (r the best peak's correlation),
  /// about twice the standard error of a correlation over 10 ms of band-limited sound: on noise,
  /// whose best match is near 0.7, peaks within about 0.15 of it are not told apart reliably and
  /// the nearest keeps the timeline; on a tone (r near 1) only the best counts.
  static let nearEqualSpread: Float = 0.3
  /// Below this correlation, the best match counts as poor (noise-like sound) and, when
  /// slowing down, repeats are scattered (see `search`).
  static let scatterBelow: Float = 0.9
  /// Scattering applies while the ideal position advances less than this many hops a segment
  /// (input is repeated).
  static let scatterStride = 0.95
  /// How much of the drift budget scattered segments are spread over, on either side of the
  /// ideal position (±1.2 ms): enough to spread the repeats' distances over 200 frames, and
  /// little enough that the timeline, averaged over two segments, stays within 2 ms.
  static let scatterSpread = 0.6
  /// How far from its random point a scattered segment may move to the best local match.
  static let scatterReachSeconds = 0.0005
  /// The random sequence's start, after every ``reset()``.
  static let scatterSeed: UInt64 = 0x243F_6A88_85A3_08D3
  /// Matches below this correlation are not refined to a fraction of a frame.
  static let refineAbove: Float = 0.9
  /// The crossfade's gain counts correlations down to minus this.
  static let lowestCrossfadeCorrelation = 0.5
  /// ``scatterReachSeconds`` in frames.
  let scatterReach: Int

  /// How the stretcher trades work and latency for fidelity on music.
  public enum Quality: String, Sendable, CaseIterable {
    /// Spliced segments alone (WSOLA): the fastest, about 25 ms of latency (35 ms below 0.7x).
    /// The best of the stretchers measured on tones, clicks, speech, noise and stereo; on a
    /// music mix its spectral convergence trails Rubber Band R3's.
    case standard
    /// Spliced segments above about 950 Hz and a phase-locked phase vocoder below it while
    /// that band is tonal (see the type's notes): closer to the ideal on chords and bass lines
    /// (spectral convergence on the benchmark's music mix about 0.38/0.32/0.36/0.34 at
    /// 0.5/1.5/2/3x against 0.41/0.36/0.41/0.42 standard; on a low C4-E4-G4 chord 0.03 at 3x
    /// against 0.13), at four to seven times the work and about 105 ms of latency at 1x. Its
    /// buffers grow with the first seconds of a stream, so it may allocate while streaming.
    case fine
  }

  /// Creates a stretcher.
  /// - Parameters:
  ///   - sampleRate: frames per second (Hz), 4 000 to 192 000.
  ///   - channels: interleaved channels, 1 to 8.
  ///   - speed: input seconds per output second, 0.1 to 10 (full quality from 0.25 to 4).
  ///   - quality: ``Quality/standard`` (the default) or ``Quality/fine``.
  /// - Throws: ``StretchError`` naming the bad value and the supported range.
  public init(
    sampleRate: Int, channels: Int, speed: Double, quality: Quality = .standard
  ) throws(StretchError) {
    guard Self.supportedSampleRates.contains(sampleRate) else {
      throw .sampleRateOutOfRange(sampleRate, supported: Self.supportedSampleRates)
    }
    guard Self.supportedChannelCounts.contains(channels) else {
      throw .channelCountOutOfRange(channels, supported: Self.supportedChannelCounts)
    }
    guard speed.isFinite, Self.supportedSpeeds.contains(speed) else {
      throw .speedOutOfRange(speed, supported: Self.supportedSpeeds)
    }
    self.sampleRate = sampleRate
    self.channels = channels
    self.speed = speed
    let rate = Double(sampleRate)
    let hopSeconds = speed < Self.slowHopBelow ? Self.slowHopSeconds : Self.hopSeconds
    hop = Int((rate * hopSeconds).rounded())
    polarityKeep = Float(exp(-Double(Self.polarityBlock) / (Self.polaritySeconds * rate)))
    periodicHoldSegments = Int((Self.periodicHoldSeconds / hopSeconds).rounded())
    periodicGraceSegments = Int((Self.periodicGraceSeconds / hopSeconds).rounded())
    tonalHoldSegments = Int((Self.tonalHoldSeconds / hopSeconds).rounded())
    window = 2 * hop
    radius = Int(rate * Self.radiusSeconds)
    innerRadius = Int(rate * Self.innerRadiusSeconds)
    budget = Int(rate * Self.budgetSeconds)
    scatterReach = max(1, Int(rate * Self.scatterReachSeconds))
    onsetSpacingFrames = rate * Self.onsetSpacingSeconds
    behind = window + radius
    reach = radius + window + 4
    // Both comparisons are centred on the overlap's centre, where the crossfade weighs the two
    // segments equally (see ``searchSeconds``).
    searchLength = Int(rate * Self.searchSeconds / 4) * 4
    searchHistory = ((searchLength - hop) / 2 + 3) / 4 * 4
    refineLength = 3 * hop
    refineHistory = hop
    coarseLength = max(8, searchLength / 32 * 8)
    // The search reads its reference out of the refinement's (see `search`), which needs
    // searchHistory <= refineHistory and refineHistory - searchHistory + searchLength <=
    // refineLength: true at every supported rate (a test runs the search at rates across the
    // range under AddressSanitizer). Asserted in `readReference()`, not here (see the note on
    // assertions in StretchBuffers.swift).
    // At the quarter rate of the decimated reference the filters run on (see lowFrequency()).
    bassCoefficient = Float(1 - exp(-2 * Double.pi * Self.bassHz / (rate / 4)))
    bassCrossings = Int(2 * Self.bassHz * Double(searchLength) / rate) + 1
    preroll = (refineHistory + 2 * hop + 12) / 4 * 4
    block = max(8, sampleRate / 2000)

    buffers = StretchBuffers(
      StretchBufferSizes(
        channels: channels, capacity: 4 * (reach + behind) + 16_384, window: window, hop: hop,
        searchLength: searchLength, refineLength: refineLength,
        // The search range is at most ideal − behind ... ideal + radius (next to onsets).
        coarseLags: (behind + radius) / 4 + 24, historyLength: Self.historyLength,
        pendingCapacity: Self.pendingCapacity))
    peakDecay = Float(pow(0.1, Double(block) / rate / Self.peakMemorySeconds))
    map = MediaTimeMap(speed: speed)
    scheduled = ScheduledSpeeds()
    self.quality = quality
    bands = quality == .fine ? BandSplit(sampleRate: sampleRate, channels: channels) : nil

    let windowMono = buffers.windowMono
    let windowInterleaved = buffers.windowInterleaved
    for i in 0..<window {
      // Periodic Hann: w(i) + w(i + hop) = 1.
      let w = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(window)))
      windowMono[i] = w
      for c in 0..<channels {
        windowInterleaved[i * channels + c] = w
      }
    }
    let overlapWeights = buffers.overlapWeights
    for i in 0..<(hop * channels) {
      overlapWeights[i] = windowInterleaved[i] * windowInterleaved[i + hop * channels]
    }
    let crossfadeTerms = buffers.crossfadeTerms
    for f in 0..<hop {
      let a = windowMono[f + hop]
      let b = windowMono[f]
      crossfadeTerms[f] = a * a
      crossfadeTerms[hop + f] = b * b
      crossfadeTerms[2 * hop + f] = a * b
    }
    // Hann squared: its leakage at twice a tone's frequency, which biases the refined lag on a
    // short window, falls off much faster than a plain Hann window's (220 Hz tone: 84 dB SNR
    // against 65 dB over these 15 ms).
    let refineWindow = buffers.refineWindow
    for i in 0..<refineLength {
      let h = 0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(refineLength))
      refineWindow[i] = Float(h * h)
    }
    reset()
  }

  // MARK: Public API

  /// Changes the speed. The change applies from the next segment, crossfaded like any segment
  /// (no gap, click or flush), and is recorded in the media-time map.
  /// - Parameter newSpeed: input seconds per output second, 0.1 to 10.
  /// - Throws: ``StretchError/speedOutOfRange(_:supported:)``.
  public mutating func setSpeed(_ newSpeed: Double) throws(StretchError) {
    guard newSpeed.isFinite, Self.supportedSpeeds.contains(newSpeed) else {
      throw .speedOutOfRange(newSpeed, supported: Self.supportedSpeeds)
    }
    guard !finished else { return }
    speed = newSpeed
    // Room for the breakpoint this change may add, so that planning output allocates nothing.
    map.reserve(scheduled.count + 2)
  }

  /// Schedules a speed change at an input frame: output plays input at the current speed up to
  /// `frame` and at `newSpeed` from there on. The media-time map gets a breakpoint at the output
  /// frame nearest to where `frame` plays, on the line at `newSpeed` through `frame` where it
  /// plays exactly (its ``SpeedBreakpoint/inputFrame`` within half an output frame times
  /// `newSpeed` of `frame`), so rounding adds up over no number of changes; segments are placed
  /// on that map, so the change is heard at that input time, crossfaded like any segment. A
  /// change at frame 0 sets the speed from the start.
  ///
  /// Changes can be scheduled ahead, in any order and before the input reaching them is pushed;
  /// a second change at the same frame replaces the first. Any number can wait (up to
  /// ``scheduledCapacity``), however close together, and each gets its own breakpoint, so the
  /// map stays exact. What "exact" means:
  /// - The stream's total output (``totalOutputFrames``) is the sum over the intervals between
  ///   changes of the interval's input frames divided by its speed, rounded, within one output
  ///   frame, whatever the number of changes (floating-point rounding aside: about 10⁻⁸ frames a
  ///   change).
  /// - Each change's line passes exactly through its input frame where it plays. A change that
  ///   plays before the output frame after the previous breakpoint (changes closer together
  ///   than an output frame) gets its breakpoint at that frame instead, still on its line: a
  ///   run of n such changes ends up to n output frames after where it plays, and the length
  ///   is unaffected.
  /// - Changes closer together than a segment (5 ms of output) are all in the map, and each
  ///   segment is read from where the map puts its centre, so within one segment they are
  ///   heard as their average.
  ///
  /// Scheduling every change before pushing gives the same output, bit for bit, whatever the
  /// push and pull block sizes. Changes at or after the end of the stream are dropped by
  /// ``finish()`` (with their breakpoints, when output was planned past them), and ``reset()``
  /// drops all of them. A change made with ``setSpeed(_:)`` applies from the next segment, after
  /// any scheduled change already due there, and a scheduled change reached later replaces it.
  /// Ignored after ``finish()``.
  /// - Parameters:
  ///   - newSpeed: input seconds per output second, 0.1 to 10.
  ///   - frame: the input frame (since the start of the stream, or the last ``reset()``) from
  ///     which `newSpeed` plays; `frame / sampleRate` is its time in seconds.
  /// - Throws: ``StretchError/speedOutOfRange(_:supported:)`` for a speed that is not finite or
  ///   out of range; ``StretchError/inputFrameInPast(_:earliest:)`` for a frame the stretcher has
  ///   already planned output for (negative frames included);
  ///   ``StretchError/tooManyScheduledChanges(capacity:)`` when ``scheduledCapacity`` changes
  ///   already wait (a replaced change counts until its frame is reached).
  /// - Complexity: O(log c) for c waiting changes, O(1) on average for changes scheduled in
  ///   ascending order. Allocates only when the storage for waiting changes, or the map's,
  ///   grows (geometrically), so that ``push(_:frames:)`` and ``pull(into:maxFrames:)`` still
  ///   allocate nothing.
  public mutating func setSpeed(_ newSpeed: Double, atInputFrame frame: Int) throws(StretchError) {
    guard newSpeed.isFinite, Self.supportedSpeeds.contains(newSpeed) else {
      throw .speedOutOfRange(newSpeed, supported: Self.supportedSpeeds)
    }
    guard !finished else { return }
    let earliest = earliestSchedulableFrame()
    guard frame >= earliest else { throw .inputFrameInPast(frame, earliest: earliest) }
    guard scheduled.count < Self.scheduledCapacity else {
      throw .tooManyScheduledChanges(capacity: Self.scheduledCapacity)
    }
    scheduled.insert(frame: frame, speed: newSpeed)
    // Room for the breakpoints the waiting changes will add, so that planning output allocates
    // nothing.
    map.reserve(scheduled.count + 2)
  }

  /// Schedules a speed change at a media time: ``setSpeed(_:atInputFrame:)`` at the input frame
  /// nearest to `seconds × sampleRate`.
  /// - Parameters:
  ///   - newSpeed: input seconds per output second, 0.1 to 10.
  ///   - seconds: media time in seconds since the start of the stream (or the last
  ///     ``reset()``).
  /// - Throws: ``StretchError/invalidMediaTime(_:)`` for a time that is not finite or is
  ///   negative, and what ``setSpeed(_:atInputFrame:)`` throws.
  public mutating func setSpeed(_ newSpeed: Double, atMediaTime seconds: Double)
    throws(StretchError)
  {
    let frame = seconds * Double(sampleRate)
    guard seconds.isFinite, seconds >= 0, frame < 0x1p62 else { throw .invalidMediaTime(seconds) }
    try setSpeed(newSpeed, atInputFrame: Int(frame.rounded()))
  }

  /// The algorithmic latency in input frames at the current speed: how much input beyond a
  /// position must be pushed before the output up to that position can be pulled. The
  /// splicing stage's reach; with ``Quality/fine``, plus the low band's (see ``BandSplit``):
  /// its output waits for the splicing output a vocoder window ahead (46 ms plus the filter's
  /// 6 ms), read at the speed, and for input half a vocoder window (23 ms) ahead of that.
  public var latencyFrames: Int {
    guard let bands else { return reach }
    return reach + Int((Double(bands.outputAhead) * speed).rounded(.up)) + bands.inputAhead
  }

  /// The algorithmic latency in seconds (``latencyFrames`` / ``sampleRate``): about 25 ms (35 ms
  /// for a stretcher created below 0.7x, whose segments are twice as long); with
  /// ``Quality/fine``, about 105 ms at 1x and more at higher speeds (the low band's look-ahead
  /// in output frames is read at the speed).
  public var latencySeconds: Double { Double(latencyFrames) / Double(sampleRate) }

  /// The output frames pulled since the start of the stream (or the last ``reset()``).
  public var deliveredFrames: Int { bands?.emitted ?? delivered }

  /// The input frames pushed since the start of the stream (or the last ``reset()``).
  public var pushedFrames: Int { inputFrames }

  /// The exact number of output frames of the stream, known once ``finish()`` was called.
  public var totalOutputFrames: Int? { finished ? total : nil }

  /// The speed changes so far, oldest first: all of them since the start of the stream (or the
  /// last ``reset()``), 32 bytes each.
  public var breakpoints: [SpeedBreakpoint] { map.points }

  /// The media (input) time, in seconds since the start of the stream, that an output frame
  /// plays, across every speed change so far.
  ///
  /// Exact for every output frame however many speed changes came before it (the map keeps every
  /// breakpoint). Frames before 0 map along the first piece extended backwards (negative
  /// times); frames after the output planned so far, along the newest piece, at the current
  /// speed. Any `Int` is accepted.
  /// - Parameter frame: an output frame index since the start of the stream.
  /// - Complexity: O(1) for a frame on one of the newest breakpoints' pieces; O(log b) for a
  ///   frame b breakpoints back.
  public func mediaTime(forOutputFrame frame: Int) -> Double {
    map.inputFrame(forOutputFrame: Double(frame)) / Double(sampleRate)
  }

  /// The output frame (fractional, since the start of the stream) at which media time
  /// `seconds` plays: the inverse of ``mediaTime(forOutputFrame:)``, for example to schedule
  /// something at a media time on the output clock. Exact on the same terms. A time that is
  /// not finite gives a result that is not finite (NaN for NaN); nothing traps.
  /// - Parameter seconds: media time in seconds since the start of the stream.
  /// - Complexity: O(1) for a time on one of the newest pieces; O(log b) for one b breakpoints
  ///   back.
  public func outputFrame(forMediaTime seconds: Double) -> Double {
    map.outputFrame(forInputFrame: seconds * Double(sampleRate))
  }

  /// Appends input.
  /// - Parameters:
  ///   - interleaved: samples, `channels` per frame, nominally within −1...1. Not retained.
  ///   - frames: how many frames of `interleaved` to take; clamped to what it holds.
  /// - Complexity: O(frames). Allocates only when the internal buffer must grow because more
  ///   input is pushed than pulled.
  public mutating func push(_ interleaved: [Float], frames: Int) {
    guard !finished else { return }
    let n = max(0, min(frames, interleaved.count / channels))
    guard n > 0 else { return }
    interleaved.withUnsafeBufferPointer { src in
      if let p = src.baseAddress {
        appendFrames(p, n)
        bands?.pushInput(p, n)
      }
    }
    inputFrames += n
  }

  /// Appends all frames of `interleaved` (its count divided by ``channels``).
  /// - Parameter interleaved: samples, `channels` per frame. Not retained.
  public mutating func push(_ interleaved: [Float]) {
    push(interleaved, frames: interleaved.count / channels)
  }

  /// Appends all whole frames of a slice, without copying it first.
  /// - Parameter interleaved: samples, `channels` per frame. Not retained.
  public mutating func push(_ interleaved: ArraySlice<Float>) {
    guard !finished else { return }
    let n = interleaved.count / channels
    guard n > 0 else { return }
    interleaved.withUnsafeBufferPointer { src in
      if let p = src.baseAddress {
        appendFrames(p, n)
        bands?.pushInput(p, n)
      }
    }
    inputFrames += n
  }

  /// Appends all whole frames of a span (for example of a decoder's buffer), without copying it
  /// first.
  /// - Parameter interleaved: samples, `channels` per frame. Not retained.
  public mutating func push(_ interleaved: Span<Float>) {
    guard !finished else { return }
    let n = interleaved.count / channels
    guard n > 0 else { return }
    interleaved.withUnsafeBufferPointer { src in
      if let p = src.baseAddress {
        appendFrames(p, n)
        bands?.pushInput(p, n)
      }
    }
    inputFrames += n
  }

  /// Marks the end of the stream: the remaining output can then be pulled, and the stream's
  /// total output is exactly `round(mapped length)` frames (`round(input / speed)` at one speed).
  /// Further pushes are ignored until ``reset()``.
  public mutating func finish() {
    guard !finished else { return }
    applyPendingSpeed(force: true)
    while let frame = scheduled.firstFrame, frame < inputFrames,
      let next = scheduled.removeFirst()
    {
      applyScheduled(next)
    }
    scheduled.removeAll()
    // Changes at or after the end that the map took in ahead of the input (output is planned up
    // to a segment ahead) are dropped too: the last piece then plays the end of the stream.
    if map.dropScheduled(atOrAfter: inputFrames) {
      speed = map.last.speed
    }
    finished = true
    bands?.finishInput()
    let end = map.outputFrameOnLastPiece(forInputFrame: Double(inputFrames))
    total = max(0, Int(end.rounded()))
  }

  /// Forgets the stream (for a seek): buffers, timeline and speed map start over at the current
  /// speed. Allocates nothing.
  public mutating func reset() {
    base = 0
    frames = 0
    decDone = 0
    readyStart = 0
    readyCount = 0
    buffers.acc.fill(0, length: hop * channels)
    buffers.accNext.fill(0, length: hop * channels)
    buffers.segmentRaw.fill(0, length: window * channels)
    buffers.previousSegment.fill(0, length: window * channels)
    scatterState = Self.scatterSeed
    scatterSide = 1
    buffers.history.fill(0, length: Self.historyLength)
    historyPos = 0
    recentPeak = 0
    periodicLeft = Int.min / 2
    periodicCheckWait = 0
    tonalUntil = Int.min / 2
    offsetMean = 0
    mixSign = 1
    polarityCross = 0
    polarityFirst = 0
    polarityRest = 0
    polarityFill = 0
    polarityBlockCross = .zero
    polarityBlockFirst = .zero
    polarityBlockRest = .zero
    scanned = 0
    lastOnsetBlock = Int.min / 2
    pendingHead = 0
    pendingCount = 0
    lastEmitted = Int.min
    lowFrequencyKnown = nil
    lowFrequencyBefore = true
    segment = 0
    previous = Double(preroll - hop)
    previousIdeal = previous
    map.reset(speed: speed)
    scheduled.removeAll()
    inputFrames = 0
    finished = false
    total = 0
    delivered = 0
    bands?.reset()
    appendFrames(nil, preroll)
  }

  /// The frames that ``pull(into:maxFrames:)`` can deliver now without more input: exact when
  /// no speed change waits to be placed, and otherwise a lower bound that grows with the input
  /// pushed (so a loop that pushes until enough frames are available ends).
  public var availableFrames: Int {
    guard let bands else { return coreAvailableFrames }
    if finished { return max(0, total - bands.emitted) }
    // Output frame t is final once the splicing output reaches `outputAhead` frames past it
    // and the input `inputAhead` frames past where the map puts that frame (see
    // ``BandSplit/ready(_:map:total:)``); past the output planned, the map runs on at the
    // fastest speed that may apply.
    let reachable = bands.yEnd + coreAvailableFrames
    let planned = bands.yEnd + readyCount
    var fastest = max(speed, map.last.speed)
    if !scheduled.isEmpty { fastest = max(fastest, scheduled.fastest) }
    let plannedInput = map.inputFrame(forOutputFrame: Double(planned))
    func allows(_ t: Int) -> Bool {
      let o = t + bands.outputAhead
      guard o < reachable else { return false }
      let input =
        o < planned
        ? map.inputFrame(forOutputFrame: Double(o))
        : plannedInput + Double(o - planned) * fastest
      return input + Double(bands.inputAhead) <= Double(bands.inputEnd)
    }
    let from = bands.emitted
    guard allows(from) else { return 0 }
    var below = 1
    var above = 2
    while allows(from + above - 1) {
      below = above
      above *= 2
    }
    while above - below > 1 {
      let middle = (below + above) / 2
      if allows(from + middle - 1) { below = middle } else { above = middle }
    }
    return below
  }

  /// The frames the splicing stage can deliver now without more input (see
  /// ``availableFrames``).
  var coreAvailableFrames: Int {
    if finished { return max(0, total - delivered) }
    var n = readyCount
    let end = base + frames
    var k = segment
    if k == 0 {
      guard Double(preroll - hop) < Double(end - reach) else { return n }
      k = 1
    }
    let last = map.last
    if !scheduled.isEmpty
      || (speed != last.speed && (speedChangeWaits() || Double(last.outputFrame) > mapPoint(k)))
    {
      return n + hop * segmentsSurelyReady(from: k, end: end)
    }
    if Double(last.outputFrame) > mapPoint(k) {
      // Segment by segment on the map as it stands.
      while true {
        let piece = map.piece(containing: mapPoint(k))
        let ahead = max(lookahead(piece), lookahead(last))
        guard idealPosition(k, piece) < Double(end - ahead) else { break }
        n += hop
        k += 1
      }
      return n
    }
    // Segments k, k+1, … at the speed that will apply to them.
    let piece = nextPiece()
    let limit = Double(end - lookahead(piece))
    guard idealPosition(k, piece) < limit else { return n }
    let step = Double(hop) * speed
    var count = max(1, Int(((limit - idealPosition(k, piece)) / step).rounded(.down)))
    while count > 1 && !(idealPosition(k + count - 1, piece) < limit) { count -= 1 }
    while idealPosition(k + count, piece) < limit { count += 1 }
    n += count * hop
    return n
  }

  /// How many segments from `k` on `pull` can surely make with the input up to internal frame
  /// `end` while speed changes wait to be placed. The map is known before its last breakpoint
  /// (a change placed at that breakpoint's output frame replaces its input frame). From there,
  /// no change is placed before the output already planned (`(k − 1)·hop`), so the last piece
  /// holds up to `anchor`; it runs on at its speed until a waiting change can apply (at once for
  /// a live change, where the first scheduled change within the input pushed plays for those),
  /// and no piece reads input faster than the fastest speed that may apply, plus half an input
  /// frame per scheduled change (which starts its piece at its exact input frame). Changes
  /// scheduled beyond the input pushed cannot apply to segments the input pushed can make.
  func segmentsSurelyReady(from k: Int, end: Int) -> Int {
    let last = map.last
    // The changes within the input pushed, looked at one by one up to a few dozen (a dense map
    // has many); beyond that, all waiting changes count, at the fastest speed scheduled.
    let within =
      scheduled.before(inputFrames, limit: Self.reachableChangesExamined)
      ?? (scheduled.count, scheduled.fastest, scheduled.firstFrame ?? Int.max)
    let fastest = max(speed, last.speed, within.fastest)
    let reachable = within.count
    let firstReachable = within.first
    let margin = 0.5 * fastest * Double(reachable) + 1
    let limit = Double(end - max(lookahead(last), reach))
    var j = k
    while mapPoint(j) < Double(last.outputFrame) {
      guard idealPosition(j, map.piece(containing: mapPoint(j))) < limit else { return j - k }
      j += 1
    }
    let anchor = max(Double(last.outputFrame), Double((k - 1) * hop))
    let anchorInput = last.inputFrame + (anchor - Double(last.outputFrame)) * last.speed
    var turn = anchor
    if speed == last.speed && firstReachable != Int.max {
      let plays = map.outputFrameOnLastPiece(forInputFrame: Double(firstReachable))
      turn = max(anchor, plays.rounded(.down))
    }
    let turnInput = anchorInput + (turn - anchor) * last.speed
    func bound(_ i: Int) -> Double {
      let point = mapPoint(i)
      let input =
        point <= turn
        ? anchorInput + (point - anchor) * last.speed : turnInput + (point - turn) * fastest
      return Double(preroll - hop) + input + margin
    }
    // `bound` rises with `i`: the last segment under `limit` by doubling, then bisection.
    guard bound(j) < limit else { return j - k }
    var below = 1
    var above = 2
    while bound(j + above - 1) < limit {
      below = above
      above *= 2
    }
    while above - below > 1 {
      let middle = (below + above) / 2
      if bound(j + middle - 1) < limit { below = middle } else { above = middle }
    }
    return j + below - k
  }

  /// Takes output.
  /// - Parameters:
  ///   - output: receives up to `maxFrames` interleaved frames at its start; never resized, so
  ///     at most `output.count / channels` frames are written. Keep it uniquely referenced, or
  ///     writing to it copies it first.
  ///   - maxFrames: the most frames wanted.
  /// - Returns: the frames written (0 when more input, or ``finish()``, is needed).
  /// - Complexity: O(frames written). Allocates nothing.
  public mutating func pull(into output: inout [Float], maxFrames: Int) -> Int {
    let wanted = min(maxFrames, output.count / channels)
    guard wanted > 0 else { return 0 }
    var written = 0
    output.withUnsafeMutableBufferPointer { out in
      guard let o = out.baseAddress else { return }
      guard bands != nil else {
        written = pullSpliced(into: o, wanted: wanted)
        return
      }
      while written < wanted {
        written +=
          bands?.emit(
            into: o + written * channels, count: wanted - written, map: map,
            total: finished ? total : nil) ?? 0
        if written >= wanted || !feedBands() { break }
      }
    }
    return written
  }

  /// Writes up to `wanted` frames of the splicing stage's output into `o` (``Quality/standard``);
  /// returns how many.
  mutating func pullSpliced(into o: UnsafeMutablePointer<Float>, wanted: Int) -> Int {
    let target = BufferView(base: o, count: wanted * channels)
    var written = 0
    while written < wanted {
      if readyCount > 0 {
        var n = min(readyCount, wanted - written)
        if finished { n = min(n, total - delivered) }
        if n <= 0 { break }
        // `ready` is another buffer after each segment (see
        // ``StretchBuffers/advanceAccumulator()``).
        target.copy(
          from: buffers.ready, at: readyStart * channels, to: written * channels,
          length: n * channels)
        readyStart += n
        readyCount -= n
        written += n
        delivered += n
        continue
      }
      if finished && delivered >= total { break }
      if !produceSegment() { break }
    }
    return written
  }

  /// Hands the next splicing output to the low-band stage (``Quality/fine``); false when none
  /// can be made without more input.
  mutating func feedBands() -> Bool {
    if readyCount > 0 {
      var n = readyCount
      if finished { n = min(n, total - delivered) }
      if n > 0 {
        // `ready` is another buffer after each segment (see
        // ``StretchBuffers/advanceAccumulator()``).
        bands?.pushOutput(
          buffers.ready.pointer(at: readyStart * channels, length: n * channels), n)
        readyStart += n
        readyCount -= n
        delivered += n
        return true
      }
    }
    if finished && delivered >= total {
      guard bands?.outputDone == false else { return false }
      bands?.finishOutput()
      return true
    }
    return produceSegment()
  }

  /// Stretches a whole buffer as one stream, from a fresh state, and leaves the stretcher reset.
  /// - Parameter input: interleaved samples, `channels` per frame.
  /// - Returns: exactly `round(frames / speed)` interleaved frames.
  public mutating func process(input: [Float]) -> [Float] {
    reset()
    push(input)
    finish()
    let n = availableFrames
    var out = [Float](repeating: 0, count: n * channels)
    let got = pull(into: &out, maxFrames: n)
    out.removeLast(out.count - got * channels)
    reset()
    return out
  }
}
