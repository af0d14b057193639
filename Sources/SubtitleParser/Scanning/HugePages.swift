#if canImport(Glibc)
  import Glibc
#endif

/// Transparent huge pages for the large buffers a parse writes once (the rewritten text, the
/// cue array). A buffer of megabytes freshly mapped by `malloc` takes a page fault per 4 KiB
/// page on its first write, and on a virtual machine each fault costs microseconds: more than
/// the parse itself. Where the kernel grants huge pages only on request (`madvise` mode), a
/// request for the 2 MiB-aligned interior of the buffer turns 512 of those faults into one.
enum HugePages {
  /// The size of a huge page on x86-64 and arm64 (4 KiB base pages).
  static let size = 2 << 20

  /// Asks for huge pages on the whole 2 MiB-aligned pages inside `count` bytes at `base`,
  /// before they are first written. A hint only: it changes no contents, does nothing for
  /// buffers under 4 MiB or pages already in use, and nothing at all outside Linux.
  static func advise(_ base: UnsafeMutableRawPointer, count: Int) {
    #if canImport(Glibc)
      guard count >= 2 * size else { return }
      let address = UInt(bitPattern: base)
      let mask = UInt(size - 1)
      let first = (address + mask) & ~mask
      let last = (address + UInt(count)) & ~mask
      guard last > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
      _ = madvise(start, Int(last - first), MADV_HUGEPAGE)
    #endif
  }

  /// `advise(_:count:)` for the whole capacity of `buffer`.
  static func advise<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
    guard let base = buffer.baseAddress else { return }
    advise(UnsafeMutableRawPointer(base), count: buffer.count * MemoryLayout<Element>.stride)
  }
}
