#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The stretcher's memory: one owner allocates every buffer and frees them all in its `deinit`,
// and the code outside the kernels reaches them only through `BufferView`, whose accesses check
// their bounds in debug builds.
//
// Debug assertions and the Swift 6.3 release-mode miscompile (the one place this is said): an
// `assert` or `precondition` written in `TimeStretcher.init(sampleRate:channels:speed:)` makes
// release builds crash releasing a field. So that initializer states no assertion of its own
// (nor does `StretchBuffers.init`, which it calls); the condition on the lengths it computes is
// asserted where they are used, in `TimeStretcher.readReference()`. The `BufferView` accessors
// it uses to fill the windows are not affected (release build, tests and quality benchmark).
// Everywhere else, preconditions are asserted where they are stated.

/// A run of `count` elements of one of the stretcher's buffers. It does not own its memory: it
/// stays valid while the ``StretchBuffers`` it came from lives and does not grow that buffer.
/// Every access asserts its bounds in debug builds; release builds access memory directly.
struct BufferView<Element> {
  /// The first element.
  let base: UnsafeMutablePointer<Element>
  /// The number of elements.
  let count: Int

  /// Element `i`, which must lie within `0..<count`.
  @inline(__always)
  subscript(i: Int) -> Element {
    get {
      assert(i >= 0 && i < count, "buffer index out of bounds")
      return base[i]
    }
    nonmutating set {
      assert(i >= 0 && i < count, "buffer index out of bounds")
      base[i] = newValue
    }
  }

  /// The address of element `offset`, from which `length` elements will be read or written,
  /// and the `before` elements before it read too (all of them within the view).
  @inline(__always)
  func pointer(at offset: Int, length: Int, before: Int = 0) -> UnsafeMutablePointer<Element> {
    assert(
      offset - before >= 0 && length >= 0 && offset <= count - length,
      "buffer range out of bounds")
    return base + offset
  }

  /// The `length` elements from `offset` on, as a view of their own (within this one).
  @inline(__always)
  func view(at offset: Int, length: Int) -> BufferView {
    BufferView(base: pointer(at: offset, length: length), count: length)
  }

  /// Sets the `length` elements from `offset` on to `value`.
  @inline(__always)
  func fill(_ value: Element, at offset: Int = 0, length: Int) {
    pointer(at: offset, length: length).update(repeating: value, count: length)
  }

  /// Copies `length` elements from `source` (another view, or this one at a later offset) to
  /// `offset`.
  @inline(__always)
  func copy(from source: BufferView, at sourceOffset: Int, to offset: Int, length: Int) {
    pointer(at: offset, length: length).update(
      from: source.pointer(at: sourceOffset, length: length), count: length)
  }

  /// Loads the vector of `V.scalarCount` elements from `offset` on (unaligned).
  @inline(__always)
  func load<V: SIMD>(_: V.Type, at offset: Int) -> V where V.Scalar == Element {
    assert(
      offset >= 0 && offset <= count - V.scalarCount, "buffer vector load out of bounds")
    return UnsafeRawPointer(base).loadUnaligned(
      fromByteOffset: offset &* MemoryLayout<Element>.stride, as: V.self)
  }

  /// Stores `value`'s `V.scalarCount` elements from `offset` on (unaligned).
  @inline(__always)
  func store<V: SIMD>(_ value: V, at offset: Int) where V.Scalar == Element {
    assert(
      offset >= 0 && offset <= count - V.scalarCount, "buffer vector store out of bounds")
    UnsafeMutableRawPointer(base).storeBytes(
      of: value, toByteOffset: offset &* MemoryLayout<Element>.stride, as: V.self)
  }
}

/// The sizes of the stretcher's buffers, in frames or elements (see ``StretchBuffers``).
struct StretchBufferSizes {
  /// Interleaved channels.
  var channels: Int
  /// Input frames the input buffer holds at first.
  var capacity: Int
  /// Frames per segment.
  var window: Int
  /// Frames per hop.
  var hop: Int
  /// Frames the similarity search compares.
  var searchLength: Int
  /// Frames the sub-frame refinement compares.
  var refineLength: Int
  /// Coarse lags whose energy the similarity search keeps at most.
  var coarseLags: Int
  /// Onset-detection blocks whose energy is kept.
  var historyLength: Int
  /// Onsets that can wait to be placed.
  var pendingCapacity: Int
}

/// The owner of all the stretcher's buffers: it allocates them, grows the input buffers, and
/// frees them all when it goes away. Non-copyable, so that exactly one value frees them.
struct StretchBuffers: ~Copyable {
  /// The input, interleaved, indexed by internal frame − base (times the channel count).
  private(set) var input: BufferView<Float>
  /// The similarity signal, one value per input frame, with 8 more for the kernels' reads past
  /// the last frame.
  private(set) var mix: BufferView<Float>
  /// The similarity signal's 4:1 decimation, with 8 more values.
  private(set) var dec: BufferView<Float>
  /// Input frames `input` holds.
  private(set) var capacity: Int

  /// The segment window (periodic Hann), one value per frame.
  let windowMono: BufferView<Float>
  /// The segment window, repeated for every channel.
  let windowInterleaved: BufferView<Float>
  /// The output accumulator's first hop (interleaved): the hop the current segment finishes.
  private(set) var acc: BufferView<Float>
  /// The output accumulator's second hop (interleaved), where the current segment's second
  /// half goes.
  private(set) var accNext: BufferView<Float>
  /// The finished hop waiting to be pulled, interleaved.
  private(set) var ready: BufferView<Float>
  /// The current segment as read (interleaved, unwindowed).
  private(set) var segmentRaw: BufferView<Float>
  /// The previous segment as read (interleaved, unwindowed); its second half is
  /// ``previousTail``.
  private(set) var previousSegment: BufferView<Float>
  /// The similarity reference, with 8 more values.
  let ref: BufferView<Float>
  /// The similarity reference's 4:1 decimation, with 8 more values.
  let refDec: BufferView<Float>
  /// The previous segment's continuation over the sub-frame refinement's stretch, with 8 more
  /// values.
  let refineReference: BufferView<Float>
  /// The sub-frame refinement's window.
  let refineWindow: BufferView<Float>
  /// The coarse search's candidate energies.
  let coarseEnergy: BufferView<Float>
  /// The fine search's correlations: 32 for the candidates' windows, 32 for the blocks of lags.
  let fineNCC: BufferView<Float>
  /// The crossfade's level-keeping gains, one per frame of a hop.
  let gains: BufferView<Float>
  /// The products of the two segments' windows over the overlap, interleaved (a hop):
  /// `windowInterleaved[i] · windowInterleaved[i + hop · channels]`.
  let overlapWeights: BufferView<Float>
  /// The crossfade's window terms by frame of the overlap, a hop each: `a²`, then `b²`, then
  /// `a·b`, where `a` is the previous segment's window (`windowMono[f + hop]`) and `b` this
  /// one's (`windowMono[f]`).
  let crossfadeTerms: BufferView<Float>
  /// The onset detection's recent block energies.
  let history: BufferView<Float>
  /// The onsets waiting to be placed (a ring).
  let pending: BufferView<Int>

  /// Allocates every buffer (contents uninitialised).
  init(_ sizes: StretchBufferSizes) {
    // No assertions here (see the note at the top of this file).
    func make<T>(_ count: Int) -> BufferView<T> {
      BufferView(base: .allocate(capacity: count), count: count)
    }
    let channels = sizes.channels
    capacity = sizes.capacity
    input = make(sizes.capacity * channels)
    mix = make(sizes.capacity + 8)
    dec = make(sizes.capacity / 4 + 8)
    windowMono = make(sizes.window)
    windowInterleaved = make(sizes.window * channels)
    acc = make(sizes.hop * channels)
    accNext = make(sizes.hop * channels)
    segmentRaw = make(sizes.window * channels)
    previousSegment = make(sizes.window * channels)
    ready = make(sizes.hop * channels)
    ref = make(sizes.searchLength + 8)
    refDec = make(sizes.searchLength / 4 + 8)
    refineReference = make(sizes.refineLength + 8)
    refineWindow = make(sizes.refineLength)
    coarseEnergy = make(sizes.coarseLags)
    fineNCC = make(64)
    gains = make(sizes.hop)
    overlapWeights = make(sizes.hop * channels)
    crossfadeTerms = make(3 * sizes.hop)
    history = make(sizes.historyLength)
    pending = make(sizes.pendingCapacity)
  }

  deinit {
    input.base.deallocate()
    mix.base.deallocate()
    dec.base.deallocate()
    windowMono.base.deallocate()
    windowInterleaved.base.deallocate()
    acc.base.deallocate()
    accNext.base.deallocate()
    segmentRaw.base.deallocate()
    previousSegment.base.deallocate()
    ready.base.deallocate()
    ref.base.deallocate()
    refDec.base.deallocate()
    refineReference.base.deallocate()
    gains.base.deallocate()
    overlapWeights.base.deallocate()
    crossfadeTerms.base.deallocate()
    refineWindow.base.deallocate()
    coarseEnergy.base.deallocate()
    fineNCC.base.deallocate()
    history.base.deallocate()
    pending.base.deallocate()
  }

  /// The previous segment's second half (interleaved, unwindowed).
  var previousTail: BufferView<Float> {
    previousSegment.view(at: previousSegment.count / 2, length: previousSegment.count / 2)
  }

  /// Makes the current segment the previous one; the next segment is read into the buffer the
  /// previous one held. (The buffers change roles instead of their contents being copied.)
  mutating func startSegment() {
    swap(&segmentRaw, &previousSegment)
  }

  /// Hands the accumulator's finished first hop over to ``ready`` and moves the accumulator on
  /// by a hop: its second hop becomes the first, and the hop ``ready`` held the second (not
  /// cleared: the next segment writes it whole). Only while nothing waits to be pulled from
  /// ``ready``.
  mutating func advanceAccumulator() {
    let finished = acc
    acc = accNext
    accNext = ready
    ready = finished
  }

  /// Moves the input buffers' contents `shift` frames (a multiple of 4) towards their start,
  /// keeping `frames` frames of input and `decimated` decimated values from there.
  mutating func discard(_ shift: Int, keeping frames: Int, decimated: Int, channels: Int) {
    assert(shift > 0 && shift % 4 == 0, "the input is discarded four frames at a time")
    let stride = MemoryLayout<Float>.stride
    memmove(
      input.pointer(at: 0, length: frames * channels),
      input.pointer(at: shift * channels, length: frames * channels),
      frames * channels * stride)
    memmove(
      mix.pointer(at: 0, length: frames), mix.pointer(at: shift, length: frames), frames * stride)
    let decShift = shift / 4
    memmove(
      dec.pointer(at: 0, length: decimated), dec.pointer(at: decShift, length: decimated),
      decimated * stride)
  }

  /// Replaces the input buffers with ones of `newCapacity` frames, keeping their first `frames`
  /// frames of input and `decimated` decimated values.
  mutating func grow(to newCapacity: Int, keeping frames: Int, decimated: Int, channels: Int) {
    assert(newCapacity >= frames && frames <= capacity, "the input buffers only grow")
    let newInput = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity * channels)
    let newMix = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity + 8)
    let newDec = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity / 4 + 8)
    newInput.update(from: input.pointer(at: 0, length: frames * channels), count: frames * channels)
    newMix.update(from: mix.pointer(at: 0, length: frames), count: frames)
    newDec.update(from: dec.pointer(at: 0, length: decimated), count: decimated)
    input.base.deallocate()
    mix.base.deallocate()
    dec.base.deallocate()
    input = BufferView(base: newInput, count: newCapacity * channels)
    mix = BufferView(base: newMix, count: newCapacity + 8)
    dec = BufferView(base: newDec, count: newCapacity / 4 + 8)
    capacity = newCapacity
  }
}
