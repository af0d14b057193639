extension SubRip {
  /// Removes `{\…}` blocks from the cues `parser.rewrite` lists, in place, and turns `\anN`
  /// into settings.
  static func removeOverrideBlocks(in text: inout [UInt8], parser: inout SRTParser.Output) {
    var notes = DiagnosticLog()
    text.withUnsafeMutableBufferPointer { buffer in
      // Reads and writes through the buffer (bounds-checked in debug builds); the searches
      // get its base address.
      guard let base = UnsafePointer(buffer.baseAddress) else { return }
      let p = buffer
      for index in parser.rewrite {
        var cue = parser.cues[index]
        var read = cue.textRange.lowerBound
        var write = read
        let end = cue.textRange.upperBound
        var line = cue.line + 1
        // The next `}` and the next line feed, each found once and reused while it is ahead
        // (linear for unmatched `{\`). A block ends on its own line: one whose `}` is on a
        // later line is text (removing it took the line break with it).
        var nextBrace = read - 1
        var nextFeed = read - 1
        while read < end {
          let c = p[read]
          if c == 0x0A { line += 1 }
          if c == 0x7B, read + 1 < end, p[read + 1] == 0x5C {
            if nextBrace <= read {
              nextBrace = ByteScanner.findScalar(0x7D, base, read + 2, end)
            }
            if nextFeed <= read {
              nextFeed = ByteScanner.findScalar(0x0A, base, read + 2, end)
            }
            let close = nextBrace
            if close < end && close < nextFeed {
              var removed = false
              var k = read + 1
              while k < close {
                // Each override starts with a backslash.
                var name = k + 1
                while name < close && p[name] != 0x5C { name += 1 }
                if name - k == 4, p[k + 1] == 0x61, p[k + 2] == 0x6E, p[k + 3] >= 0x31,
                  p[k + 3] <= 0x39
                {
                  let keep = cue.settings.region
                  cue.settings = settings(forASSAlignment: Int(p[k + 3] - 0x30))
                  cue.settings.region = keep
                } else {
                  removed = true
                }
                k = name
              }
              if removed {
                let at = read
                notes.add(
                  line: line, offset: read,
                  "ASS override \(String(decoding: UnsafeBufferPointer(rebasing: p[at...close]), as: UTF8.self)) removed"
                )
              }
              read = close + 1
              continue
            }
          }
          p[write] = c
          write += 1
          read += 1
        }
        cue.textRange = cue.textRange.lowerBound..<write
        parser.cues[index] = cue
      }
    }
    if !notes.isEmpty {
      parser.diagnostics = DiagnosticLog.merged(parser.diagnostics, notes)
    }
  }
}
