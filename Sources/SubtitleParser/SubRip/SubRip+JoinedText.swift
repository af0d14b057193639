extension SubRip {
  /// Closes the gaps `parser.joins` lists, in place: the blank lines (and a lone cue number)
  /// between a cue's text and the text after them that joined it become one line feed, and
  /// each such cue's text range ends where its shortened text does.
  ///
  /// - Complexity: O(*n*) in the size of the joined cues' texts.
  static func joinParagraphs(in text: inout [UInt8], parser: inout SRTParser.Output) {
    let joins = parser.joins
    text.withUnsafeMutableBufferPointer { p in
      var k = 0
      while k < joins.count {
        let index = joins[k].cue
        let range = parser.cues[index].textRange
        // Bytes before the first gap are in place already.
        var write = joins[k].gap.lowerBound
        var read = write
        while read < range.upperBound {
          if k < joins.count && joins[k].cue == index && read == joins[k].gap.lowerBound {
            p[write] = 0x0A
            write += 1
            read = joins[k].gap.upperBound
            k += 1
            continue
          }
          p[write] = p[read]
          write += 1
          read += 1
        }
        parser.cues[index].textRange = range.lowerBound..<write
      }
    }
  }
}
