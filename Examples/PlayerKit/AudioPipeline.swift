import MediaTracks
import TimeStretch

/// The audio path of a player: one decoder feeding one time stretcher, pulled in render blocks.
///
/// It owns the FFmpeg contexts (through ``AudioDecoder``) and the stretcher's buffers; both are
/// freed when the pipeline goes away. A seek or a track change builds a new pipeline that starts
/// at a media frame (`base`): the decoder decodes and discards up to it, and the stretcher starts
/// a fresh media-time map there.
struct AudioPipeline: ~Copyable {
  /// The container stream index of the track.
  let track: Int
  /// The media frame at which the stretcher's stream starts.
  let base: Int
  private var decoder: AudioDecoder
  private var stretcher: TimeStretcher
  private var input: [Float] = []
  private var output: [Float]
  private let chunk = 4096

  /// Samples per second of the track (Hz).
  var sampleRate: Int { decoder.sampleRate }
  /// Channels of the track.
  var channels: Int { decoder.channels }
  /// The stretcher's current speed.
  var speed: Double { stretcher.speed }
  /// The stretcher's speed breakpoints since `base`.
  var breakpoints: [SpeedBreakpoint] { stretcher.breakpoints }
  /// Output frames delivered since `base`.
  var delivered: Int { stretcher.deliveredFrames }
  /// The stretcher's latency in media frames.
  var latencyFrames: Int { stretcher.latencyFrames }

  /// Opens `track` of `path`, skips to media frame `start` and prepares to play at `speed`.
  /// - Parameters:
  ///   - path: the media file.
  ///   - track: a container stream index of an audio track.
  ///   - start: the media frame to start at (clamped to the track's length).
  ///   - speed: the playback speed (media seconds per output second).
  ///   - block: the largest render block in frames.
  init(path: String, track: Int, start: Int, speed: Double, block: Int) throws(PlayerError) {
    var decoder: AudioDecoder
    do {
      decoder = try AudioDecoder(path: path, streamIndex: track)
    } catch {
      throw .media(error)
    }
    // Decode and discard up to `start`, exactly: `read` never returns more than asked.
    var skipped = 0
    var scratch: [Float] = []
    while skipped < start {
      let n: Int
      do {
        n = try decoder.read(into: &scratch, maxFrames: min(chunk, start - skipped))
      } catch {
        throw .media(error)
      }
      if n == 0 { break }
      skipped += n
    }
    do {
      stretcher = try TimeStretcher(
        sampleRate: decoder.sampleRate, channels: decoder.channels, speed: speed)
    } catch {
      throw .stretch(error)
    }
    self.track = track
    base = skipped
    output = [Float](repeating: 0, count: max(1, block) * decoder.channels)
    input.reserveCapacity(chunk * decoder.channels)
    self.decoder = decoder
  }

  /// The media position in frames of the next output frame: `base` plus the stretcher's
  /// media-time map at the frames delivered so far.
  var position: Double {
    Double(base) + stretcher.mediaTime(forOutputFrame: stretcher.deliveredFrames)
      * Double(sampleRate)
  }

  /// Changes the speed from the stretcher's next segment on.
  mutating func setSpeed(_ speed: Double) throws(PlayerError) {
    do {
      try stretcher.setSpeed(speed)
    } catch {
      throw .stretch(error)
    }
  }

  /// Renders `frames` output frames (at most the block size given at creation) and counts
  /// them, as an audio render callback would pull them.
  /// - Returns: the frames rendered; fewer than `frames` only at the end of the media.
  mutating func render(frames: Int) throws(PlayerError) -> Int {
    let wanted = min(frames, output.count / channels)
    var done = 0
    while done < wanted {
      let n = stretcher.pull(into: &output, maxFrames: wanted - done)
      done += n
      if n > 0 { continue }
      if stretcher.totalOutputFrames != nil { break }
      let got: Int
      do {
        got = try decoder.read(into: &input, maxFrames: chunk)
      } catch {
        throw .media(error)
      }
      if got == 0 {
        stretcher.finish()
      } else {
        stretcher.push(input, frames: got)
      }
    }
    return done
  }
}
