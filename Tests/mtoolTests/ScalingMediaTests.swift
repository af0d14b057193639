import MediaTracks
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Linear time, checked generally: each adversarial input is timed at 1x and at 10x its size
// (see `expectLinear` in ScalingSupport.swift). A quadratic path takes about 100 times as long.

// MARK: HLS

/// Renditions each in a group of their own and variants that use none of those groups: every
/// rendition's codec lookup found nothing after scanning every variant.
private func hlsUnmatchedGroups(_ scale: Int) -> [UInt8] {
  var text = "#EXTM3U\n"
  for i in 0..<(400 * scale) {
    text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"g\(i)\",NAME=\"Audio \(i)\",URI=\"a\(i).m3u8\"\n"
  }
  for i in 0..<(400 * scale) {
    text += "#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\"mp4a.40.2\",AUDIO=\"x\(i)\"\nv\(i).m3u8\n"
  }
  return utf8(text)
}

/// One line of many attributes, quoted values full of commas, a huge value, and many tags.
private func hlsLongLines(_ scale: Int) -> [UInt8] {
  var text = "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"x\""
  for i in 0..<(2_000 * scale) { text += ",A\(i)=\"1,2,3\"" }
  text += "\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\""
  text += String(repeating: "\u{00E9} ,", count: 5_000 * scale) + "\"\n"
  for _ in 0..<(1_000 * scale) { text += "#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXTINF:4,\n\n" }
  text += "#EXT-X-STREAM-INF:CODECS=\"" + String(repeating: "mp4a.40.2,", count: 1_000 * scale)
  text += "\"\nv.m3u8\n"
  return utf8(text)
}

// MARK: DASH and its XML reader

/// Elements nested nearly as deep as allowed, closed, many times over. (A flood of end tags
/// that match nothing open fails at the first one.)
private func xmlDeepNesting(_ scale: Int) -> [UInt8] {
  var text = "<MPD><Period>"
  let open = String(repeating: "<a x='1'>", count: 250)
  let close = String(repeating: "</a>", count: 250)
  for _ in 0..<(20 * scale) { text += open + close }
  text += "</Period></MPD>"
  return utf8(text)
}

/// One element with very many attributes, many of one local name under different prefixes
/// (the duplicate check is by qualified name).
private func xmlManyAttributes(_ scale: Int) -> [UInt8] {
  var text = "<MPD><Period><AdaptationSet contentType=\"audio\""
  for i in 0..<(4_000 * scale) { text += " a\(i)=\"v\(i)\" ns\(i):b='&amp;'" }
  text += "/></Period></MPD>"
  return utf8(text)
}

/// A Period with very many sets of one key (each a track of its own), then many Periods with
/// the same sets in two codecs, in alternating order (each period's sets are matched to the
/// earlier tracks, the same codec first).
private func dashManyPeriods(_ scale: Int) -> [UInt8] {
  var text = "<MPD>"
  for period in 0..<(20 * scale) {
    text += "<Period>"
    for set in 0..<(period == 0 ? 1_000 * scale : 100) {
      let codec = (set + period) % 2 == 0 ? "mp4a.40.2" : "ec-3"
      text += "<AdaptationSet mimeType=\"audio/mp4\" lang=\"en\" codecs=\"\(codec)\">"
      text += "<Representation id=\"\(period)-\(set)\" bandwidth=\"128000\"/></AdaptationSet>"
    }
    text += "</Period>"
  }
  text += "</MPD>"
  return utf8(text)
}

/// Character references everywhere: text, attributes, unknown and unterminated references, and
/// a document type declaring entities (which are not expanded).
private func xmlManyEntities(_ scale: Int) -> [UInt8] {
  var text = "<!DOCTYPE MPD [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;\">]>"
  text += "<MPD><Period><AdaptationSet contentType=\"text\" label=\""
  text += String(repeating: "&amp;&lt;&#x263A;&#9731;&b;&bogus;&", count: 1_000 * scale)
  text += "\"><Label>"
  text += String(repeating: "&quot;&apos;&#0;&#xFFFFFFFF;&b;", count: 1_000 * scale)
  text += "</Label><Representation/></AdaptationSet></Period></MPD>"
  return utf8(text)
}

/// A huge attribute value, a huge text node, a huge comment and an unterminated one.
private func xmlHugeValues(_ scale: Int) -> [UInt8] {
  let blob = String(repeating: "0123456789abcdef", count: 4_000 * scale)
  var text = "<MPD mediaPresentationDuration=\"PT" + blob + "\"><Period>"
  text += "<AdaptationSet lang=\"" + blob + "\" codecs='" + blob + "'><Label>" + blob
  text += "</Label><Representation/></AdaptationSet><!-- " + blob + " --><![CDATA[" + blob + "]]>"
  text += "</Period></MPD><!-- " + blob
  return utf8(text)
}

/// Many adaptation sets, each with many representations and descriptors.
private func dashManySets(_ scale: Int) -> [UInt8] {
  var text = "<MPD><Period>"
  for set in 0..<(100 * scale) {
    text += "<AdaptationSet mimeType=\"audio/mp4\" lang=\"en\">"
    for representation in 0..<10 {
      text += "<Representation id=\"\(set)-\(representation)\" bandwidth=\"\(representation)\""
      text += " codecs=\"mp4a.40.2\"><Role schemeIdUri=\"urn:mpeg:dash:role:2011\" value=\"main\"/>"
      text += "<AudioChannelConfiguration schemeIdUri=\"x\" value=\"2\"/></Representation>"
    }
    text += "</AdaptationSet>"
  }
  text += "</Period></MPD>"
  return utf8(text)
}

// MARK: Labels

/// Audio tracks whose labels collide again in every disambiguation round: two untagged tracks
/// titled "A" become "A (Track 1)" and "A (Track 2)"; the first then meets a track titled
/// "A (Track 1)", gains its index " [0]", meets a track titled "A (Track 1) [0]", and so on, a
/// round per link of the chain; beside them, many tracks with labels of their own. The chain's
/// titles grow with its length, so it is as long as the square root of the input.
private func collidingAudio(_ scale: Int) -> [AudioTrack] {
  let links = scale == 1 ? 30 : 95
  var titles = ["A", "A"]
  var title = "A (Track 1)"
  for _ in 0..<links {
    titles.append(title)
    title += " [0]"
  }
  for i in 0..<(1_000 * scale) { titles.append("Other \(i)") }
  for _ in 0..<(300 * scale) { titles.append("Same") }
  return titles.enumerated().map { AudioTrack(index: $0.offset, codec: "aac", title: $0.element) }
}

/// Subtitle tracks: the same chain, and many tracks of one language told apart by title.
private func collidingSubtitles(_ scale: Int) -> [SubtitleTrack] {
  let links = scale == 1 ? 30 : 95
  var titles = ["A", "A"]
  var title = "A (Track 1)"
  for _ in 0..<links {
    titles.append(title)
    title += " [0]"
  }
  var tracks = titles.enumerated().map {
    SubtitleTrack(index: $0.offset, codec: "subrip", title: $0.element)
  }
  for i in 0..<(1_000 * scale) {
    tracks.append(
      SubtitleTrack(index: tracks.count, codec: "subrip", language: "en", title: "T\(i % 7)"))
  }
  return tracks
}

/// The same chain through an HLS playlist, parsed and labelled as `mtool tracks` does.
private func hlsCollidingNames(_ scale: Int) -> [UInt8] {
  var text = "#EXTM3U\n"
  for track in collidingAudio(scale) {
    text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"\(track.title ?? "")\"\n"
  }
  return utf8(text)
}

/// Timed tests, one at a time so they do not slow each other down.
@Suite(.serialized) struct ScalingMediaTests {}

extension ScalingMediaTests {
  @Test func hlsRenditionsAgainstVariantsScaleLinearly() {
    expectLinear("HLS unmatched groups", make: hlsUnmatchedGroups) { bytes in
      _ = (try? HLSPlaylist(bytes: bytes)).map { ManifestParser.info(path: "x.m3u8", hls: $0) }
    }
  }

  @Test func hlsLongLinesScaleLinearly() {
    expectLinear("HLS long lines", make: hlsLongLines) { bytes in
      var info = (try? HLSPlaylist(bytes: bytes)).map {
        ManifestParser.info(path: "x.m3u8", hls: $0)
      }
      info?.finish()
    }
  }

  @Test(arguments: [
    ("deep nesting", 0), ("many attributes", 1), ("many entities", 2), ("huge values", 3),
    ("many sets", 4), ("many periods", 5),
  ])
  func dashManifestsScaleLinearly(name: String, generator: Int) {
    let make: (Int) -> [UInt8] = {
      switch generator {
      case 0: xmlDeepNesting($0)
      case 1: xmlManyAttributes($0)
      case 2: xmlManyEntities($0)
      case 3: xmlHugeValues($0)
      case 4: dashManySets($0)
      default: dashManyPeriods($0)
      }
    }
    expectLinear("DASH \(name)", make: make) { bytes in
      var info = (try? DASHManifest(bytes: bytes)).map {
        ManifestParser.info(path: "x.mpd", dash: $0)
      }
      info?.finish()
    }
  }

  @Test func collidingAudioLabelsScaleLinearly() {
    expectLinear("audio labels", make: collidingAudio) { tracks in
      var tracks = tracks
      TrackLabeler().label(&tracks)
    }
  }

  @Test func collidingSubtitleLabelsScaleLinearly() {
    expectLinear("subtitle labels", make: collidingSubtitles) { tracks in
      var tracks = tracks
      TrackLabeler().label(&tracks)
    }
  }

  @Test func collidingLabelsAreAllDistinct() {
    var audio = collidingAudio(1)
    TrackLabeler().label(&audio)
    #expect(Set(audio.map(\.label)).count == audio.count)
    var subtitles = collidingSubtitles(1)
    TrackLabeler().label(&subtitles)
    #expect(Set(subtitles.map(\.label)).count == subtitles.count)
  }

  @Test func hlsCollidingNamesScaleLinearly() {
    expectLinear("HLS colliding names", make: hlsCollidingNames) { bytes in
      var info = (try? HLSPlaylist(bytes: bytes)).map {
        ManifestParser.info(path: "x.m3u8", hls: $0)
      }
      info?.finish()
    }
  }
}
