/// REGION blocks: region settings and the lookup of a cue's region by identifier.
extension VTTCore {

  mutating func parseRegionSettings(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, into region: inout Region
  ) {
    VTTSyntax.forEachToken(p, start: start, end: end) { tokenStart, tokenEnd in
      applyRegionSetting(p, start: tokenStart, end: tokenEnd, to: &region)
    }
  }

  mutating func ignoreRegionSetting(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, _ why: String
  ) {
    let token = String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
    let line = blockStartLine + 1 + countLF(p, start: bufferStart, end: start)
    diagnose("region setting '\(token)' ignored: \(why)", offset: start, line: line)
  }

  /// The index of the last region whose identifier is `value`, compared as bytes, or nil.
  ///
  /// - Complexity: O(`value.count`): one hash lookup. Only when two identifiers share a hash
  ///   (which input cannot aim for: the hash is seeded per process) is the list searched.
  func regionIndex(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let candidate = regionByHash[Self.idHash(value)] else { return nil }
    if regions[candidate].id.utf8.elementsEqual(value) { return candidate }
    return regions.lastIndex { $0.id.utf8.elementsEqual(value) }
  }

  /// The hash `regionByHash` files an identifier under: that of its UTF-8 bytes.
  static func idHash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    return hasher.finalize()
  }

  func countLF(_ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int {
    var count = 0
    for index in start..<max(start, end) where p[index] == 0x0A { count += 1 }
    return count
  }

  mutating func applyRegionSetting(
    _ p: UnsafeBufferPointer<UInt8>, start: Int, end: Int, to region: inout Region
  ) {
    var colon = start
    while colon < end && p[colon] != 0x3A { colon += 1 }
    guard colon < end, colon != start, colon != end - 1 else {
      ignoreRegionSetting(p, start: start, end: end, "not name:value")
      return
    }
    let valueStart = colon + 1
    if VTTSyntax.equals(p, start: start, end: colon, "id") {
      region.id = String(
        decoding: UnsafeBufferPointer(rebasing: p[valueStart..<end]), as: UTF8.self)
    } else if VTTSyntax.equals(p, start: start, end: colon, "width") {
      guard let value = VTTSyntax.percentage(p, start: valueStart, end: end) else {
        ignoreRegionSetting(p, start: start, end: end, "bad percentage")
        return
      }
      region.width = value
    } else if VTTSyntax.equals(p, start: start, end: colon, "lines") {
      var allDigits = true
      for index in valueStart..<end where !VTTSyntax.isDigit(p[index]) {
        allDigits = false
        break
      }
      guard allDigits, let value = VTTSyntax.decimalValue(p, start: valueStart, end: end) else {
        ignoreRegionSetting(p, start: start, end: end, "not a non-negative integer")
        return
      }
      region.lineCount = value
    } else if VTTSyntax.equals(p, start: start, end: colon, "regionanchor")
      || VTTSyntax.equals(p, start: start, end: colon, "viewportanchor")
    {
      var comma = valueStart
      while comma < end && p[comma] != 0x2C { comma += 1 }
      guard comma < end, let x = VTTSyntax.percentage(p, start: valueStart, end: comma),
        let y = VTTSyntax.percentage(p, start: comma + 1, end: end)
      else {
        ignoreRegionSetting(p, start: start, end: end, "bad anchor")
        return
      }
      if colon - start == 12 {
        region.regionAnchorX = x
        region.regionAnchorY = y
      } else {
        region.viewportAnchorX = x
        region.viewportAnchorY = y
      }
    } else if VTTSyntax.equals(p, start: start, end: colon, "scroll") {
      if VTTSyntax.equals(p, start: valueStart, end: end, "up") {
        region.scroll = "up"
      } else {
        ignoreRegionSetting(p, start: start, end: end, "unknown value")
      }
    } else {
      ignoreRegionSetting(p, start: start, end: end, "unknown setting")
    }
  }
}
