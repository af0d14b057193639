extension TTML {
  /// Reads the samples of a TTML track in an ISO base media file (`stpp` sample entries,
  /// ISO/IEC 14496-30, 5) into one document.
  ///
  /// Each sample is a whole TTML document. Its time expressions are on the track's
  /// presentation timeline, not relative to the sample (14496-30, 5.3: the `begin` of `body`
  /// counts from the start of the track), so a paragraph at `00:00:10.000` shows at 10 s
  /// whichever sample carries it; Shaka Packager and FFmpeg write them so, and dash.js and
  /// Shaka Player read them so for DASH. (Smooth Streaming's fragments count from the
  /// fragment's start instead; such files are not told apart here.)
  ///
  /// A sample's document presents only during the sample: each cue is cut to the sample's
  /// interval (its start to its start plus its duration, else to the next sample's start;
  /// a cue entirely outside is dropped), as a later sample replaces an earlier one. A
  /// paragraph a segmenter repeats in consecutive samples (same text, identifier, settings and
  /// region, ending where the next sample starts) becomes one cue again.
  ///
  /// - Parameter samples: The track's samples, in decoding order. An empty sample (or one of
  ///   white space only) shows nothing.
  /// - Returns: A document of format ``SubtitleFormat/ttml`` whose cues carry WebVTT cue text
  ///   (see ``TTML``), sorted by start time; the diagnostics of all samples, each once.
  /// - Throws: `SubtitleError.badSample` with the sample's index for a sample that is not a
  ///   TTML document.
  /// - Complexity: O(*n*) in the total size of the samples.
  public static func document(samples: [SubtitleSample]) throws(SubtitleError) -> SubtitleDocument {
    let ends = SubtitleSample.ends(of: samples)
    var joiner = SampleCueJoiner<CueContent>()
    var header = ""
    var diagnostics: [Diagnostic] = []
    var seenDiagnostics: Set<Diagnostic> = []
    for (index, sample) in samples.enumerated() {
      joiner.beginSample()
      guard
        sample.bytes.contains(where: {
          !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0)
        })
      else { continue }
      let document: SubtitleDocument
      do {
        document = try parse(sample.bytes)
      } catch {
        throw SubtitleError.badSample(index: index, offset: 0, reason: error.description)
      }
      if index == 0 || header.isEmpty { header = document.header }
      for diagnostic in document.diagnostics where seenDiagnostics.insert(diagnostic).inserted {
        diagnostics.append(diagnostic)
      }
      let (from, to) = (sample.startTime, ends[index])
      let clips = to > from
      for cue in document.cues {
        var start = cue.startTime
        var end = cue.endTime
        if clips {
          guard end > from || (start == end && start == from), start < to else { continue }
          start = max(start, from)
          end = min(end, to)
        }
        var settings = cue.settings
        settings.region = nil
        let content = CueContent(
          identifier: Array(document.text[cue.idRange]), text: Array(document.text[cue.textRange]),
          settings: settings, region: document.region(of: cue))
        joiner.add(content, start: start, end: end)
      }
    }
    var text: [UInt8] = []
    var regions: [Region] = []
    var cues: [Cue] = []
    cues.reserveCapacity(joiner.cues.count)
    for (content, start, end) in joiner.cues {
      let idStart = text.count
      text.append(contentsOf: content.identifier)
      let idRange = idStart..<text.count
      if !content.identifier.isEmpty { text.append(0x0A) }
      let textStart = text.count
      text.append(contentsOf: content.text)
      let textRange = textStart..<text.count
      text.append(0x0A)
      var settings = content.settings
      if let region = content.region {
        if let known = regions.firstIndex(of: region) {
          settings.region = known
        } else {
          regions.append(region)
          settings.region = regions.count - 1
        }
      }
      cues.append(
        Cue(
          idRange: idRange, textRange: textRange, startTime: start, endTime: end, settings: settings
        ))
    }
    let order = cues.indices.sorted { (cues[$0].startTime, $0) < (cues[$1].startTime, $1) }
    return SubtitleDocument(
      format: .ttml, text: text, header: header, regions: regions, cues: order.map { cues[$0] },
      diagnostics: diagnostics)
  }

  /// What makes two cues of consecutive samples one cue.
  struct CueContent: Hashable {
    var identifier: [UInt8]
    var text: [UInt8]
    var settings: CueSettings
    var region: Region?
  }
}
