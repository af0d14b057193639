import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The measurement behind the scaling tests: an input at 1x and at 10x its size, and the time
// may grow by at most `scalingLimit` (a quadratic path grows by about 100). Times are the
// thread's CPU time, so time spent preempted on a busy machine (other tests run in parallel)
// does not count. The 1x input is run ten times in a row per timing, so both timings span
// about as long and cache and frequency effects hit both alike; each is the best of three,
// taken in turns. A ratio over the limit is measured again (twice at most) before it counts.

/// The largest accepted growth of time for a 10x larger input.
let scalingLimit = 15.0

/// The CPU time of the calling thread, in seconds.
private func threadSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// The CPU time `work` takes, run `times` times in a row, in seconds; its results are added to
/// `sink`, which keeps them alive.
func timed(_ times: Int, sink: inout Int, _ work: () -> Int) -> Double {
  let start = threadSeconds()
  for _ in 0..<times { sink &+= work() }
  return threadSeconds() - start
}

/// Makes an input of `size` and of `10 * size` with `make` and expects `run` to take at most
/// `scalingLimit` times as long on the larger one. `size` is the generator's unit count
/// (cues, tags, bytes …); the inputs are made before the clock starts.
func expectLinear<Input>(
  _ name: String, size: Int, make: (Int) -> Input, run: (Input) -> Int,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let small = make(size)
  let large = make(size * 10)
  var sink = 0
  var ratios: [Double] = []
  for _ in 0..<3 {
    var base = Double.infinity
    var grown = Double.infinity
    for _ in 0..<3 {
      base = min(base, timed(10, sink: &sink) { run(small) } / 10)
      grown = min(grown, timed(1, sink: &sink) { run(large) })
    }
    // A floor of 50 µs keeps timer resolution out of the ratio.
    ratios.append(grown / max(base, 0.000_05))
    if ratios[ratios.count - 1] <= scalingLimit { break }
  }
  let best = ratios.min() ?? .infinity
  #expect(
    best <= scalingLimit,
    "\(name): 10x input took \(best)x the time (measured \(ratios))",
    sourceLocation: sourceLocation)
  #expect(sink != Int.min)
}

/// ``expectLinear(_:size:make:run:sourceLocation:)`` for generators of scale 1 and 10 and work
/// without a result.
func expectLinear<Input>(
  _ name: String, make: (Int) -> Input, _ work: (Input) -> Void,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  expectLinear(
    name, size: 1, make: make,
    run: { input in
      work(input)
      return 0
    }, sourceLocation: sourceLocation)
}
