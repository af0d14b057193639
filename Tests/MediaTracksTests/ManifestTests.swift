import MediaTracks
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func fileBytes(_ path: String) throws -> [UInt8] {
  guard let file = fopen(path, "rb") else {
    throw MediaError(kind: .notFound, operation: "fopen", detail: path)
  }
  defer { fclose(file) }
  var result: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = fread(&chunk, 1, chunk.count, file)
    if count <= 0 { break }
    result += chunk[0..<count]
  }
  return result
}

@Test func hlsAttributesAreAllKept() throws {
  let playlist = try HLSPlaylist(
    bytes: bytes(
      """
      #EXTM3U\r
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Main, with comma",LANGUAGE="en",\
      ASSOC-LANGUAGE="en-GB",DEFAULT=YES,CHANNELS="6",CHARACTERISTICS="x.y,z.w",URI="a.m3u8"\r
      #EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS="avc1.4d401f,mp4a.40.5",AUDIO="a"\r
      v.m3u8\r
      """))
  let rendition = try #require(playlist.renditions.first)
  #expect(rendition.type == "AUDIO")
  #expect(rendition.groupID == "a")
  #expect(rendition.name == "Main, with comma")
  #expect(rendition.language == "en")
  #expect(rendition.associatedLanguage == "en-GB")
  #expect(rendition.isDefault)
  #expect(rendition.autoselect)
  #expect(!rendition.forced)
  #expect(rendition.channels == "6")
  #expect(rendition.characteristics == ["x.y", "z.w"])
  #expect(rendition.uri == "a.m3u8")
  #expect(rendition.attributes.count == 9)
  let variant = try #require(playlist.variants.first)
  #expect(variant.bandwidth == 1000)
  #expect(variant.codecs == ["avc1.4d401f", "mp4a.40.5"])
  #expect(variant.audioGroup == "a")
  #expect(variant.uri == "v.m3u8")
  let info = ManifestParser.info(path: "x.m3u8", hls: playlist)
  #expect(info.audio.first?.codec == "aac")
  #expect(info.audio.first?.profile == "HE-AAC")
  #expect(info.audio.first?.channelLayout == "5.1")
}

@Test func hlsFixtureMapsOntoTheTrackModel() throws {
  let info = try MediaProbe.probe(path: fixtures + "/master.m3u8")
  #expect(info.demuxerName == "hls")
  // "English" and "Français" are in both the AAC and the E-AC-3 group: one track each.
  #expect(info.audio.map(\.index) == [0, 1, 2, 3])
  #expect(info.audio.map(\.kind) == [.main, .main, .mainDescriptions, .commentary])
  #expect(info.audio.map(\.codec) == ["aac", "aac", "aac", "aac"])
  #expect(info.audio[1].language == "fr-CA")
  #expect(info.audio[1].title == "Fran\u{e7}ais")
  #expect(info.audio[2].dispositions == ["visual_impaired"])
  // The authors' names are the labels.
  #expect(
    info.audio.map(\.label) == [
      "English", "Fran\u{e7}ais", "English (Audio Description)", "Director's Commentary",
    ])
  #expect(info.audio[0].channelLayout == "stereo")
  #expect(
    info.audio[0].alternatives == [
      AudioEncoding(codec: "eac3", channels: 6, channelLayout: "5.1", groups: ["ec3"])
    ])
  #expect(
    info.audio[1].alternatives == [
      AudioEncoding(codec: "eac3", channels: 6, channelLayout: "Atmos", groups: ["ec3"])
    ])
  #expect(info.audio[2].alternatives.isEmpty)
  #expect(info.subtitles.map(\.index) == [6, 7, 8, 9, 10])
  #expect(info.subtitles.map(\.kind) == [.subtitles, .subtitles, .captions, .subtitles, .captions])
  #expect(info.subtitles[1].isForced)
  #expect(info.subtitles[4].codec == "eia_608")
  #expect(
    info.subtitles.map(\.label) == [
      "English", "English (forced)", "English SDH", "Deutsch", "English CC",
    ])
  #expect(info.defaultAudio == 0)
  #expect(info.defaultSubtitle == 7)
  let playlist = try HLSPlaylist(bytes: fileBytes(fixtures + "/master.m3u8"))
  let tracks = playlist.renditionTracks()
  #expect(tracks.count == 9)
  #expect(tracks[0].renditions == [0, 4])
  #expect(tracks[0].groups == ["aac", "ec3"])
  #expect(tracks[1].renditions == [1, 5])
  #expect(playlist.groupBandwidths()["ec3"] == [6_000_000])

  let french = try MediaProbe.probe(
    path: fixtures + "/master.m3u8", preferences: TrackPreferences(languages: ["fr-CA"]))
  #expect(french.defaultAudio == 1)
  let german = try MediaProbe.probe(
    path: fixtures + "/master.m3u8", preferences: TrackPreferences(languages: ["de"]))
  #expect(german.defaultAudio == 0)
  #expect(german.defaultSubtitle == 9)
  let described = try MediaProbe.probe(
    path: fixtures + "/master.m3u8",
    preferences: TrackPreferences(languages: ["en"], audioDescription: true))
  #expect(described.defaultAudio == 2)
}

@Test func dashFixtureMapsOntoTheTrackModel() throws {
  let info = try MediaProbe.probe(path: fixtures + "/manifest.mpd")
  #expect(info.demuxerName == "dash")
  let duration = try #require(info.duration)
  #expect(abs(duration - 3723.5) < 1e-9)
  #expect(info.audio.map(\.index) == [1, 2, 3, 4])
  #expect(info.audio.map(\.kind) == [.main, .translation, .mainDescriptions, .commentary])
  #expect(info.audio.map(\.channels) == [2, 6, 2, 1])
  #expect(info.audio.map(\.channelLayout) == ["stereo", "5.1", "stereo", "mono"])
  #expect(info.audio.map(\.codec) == ["aac", "eac3", "aac", "opus"])
  #expect(info.audio.map(\.sampleRate) == [48000, 48000, 48000, 48000])
  #expect(info.audio.map(\.bitRate) == [128_000, 384_000, 96000, 64000])
  #expect(info.audio[2].language == "en")
  #expect(info.audio[2].languageTag == "eng")
  #expect(info.audio[3].title == "Cast & Crew Commentary")
  #expect(
    info.audio.map(\.label) == [
      "English", "German", "English \u{2013} Audio Description", "Cast & Crew Commentary",
    ])
  #expect(info.subtitles.map(\.index) == [5, 6, 7])
  // `defaultAudio` is a stream index (1 here, the first audio set after the video one), and
  // `defaultAudioTrack` the track it names.
  #expect(info.defaultAudio != nil)
  #expect(info.defaultAudioTrack?.index == info.defaultAudio)
  #expect(info.defaultAudioTrack == info.audio.first { $0.index == info.defaultAudio })
  #expect(info.defaultSubtitleTrack?.index == info.defaultSubtitle)
  #expect(info.subtitles.map(\.kind) == [.subtitles, .captions, .subtitles])
  #expect(info.subtitles.map(\.codec) == ["webvtt", "ttml", "webvtt"])
  #expect(info.subtitles[2].isForced)
  #expect(info.defaultAudio == 1)
  #expect(info.defaultSubtitle == nil)
  let german = try MediaProbe.probe(
    path: fixtures + "/manifest.mpd", preferences: TrackPreferences(languages: ["de-DE"]))
  #expect(german.defaultAudio == 2)
  #expect(german.defaultSubtitle == 7)
}

@Test func dashAlternateRoleIsAlternative() throws {
  let manifest = try DASHManifest(
    bytes: bytes(
      """
      <MPD><Period>
        <AdaptationSet contentType="audio" lang="en" codecs="mp4a.40.2">
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="alternate"/><Representation/></AdaptationSet>
        <AdaptationSet contentType="audio" lang="en" codecs="mp4a.40.2"><Representation/></AdaptationSet>
      </Period></MPD>
      """))
  let info = ManifestParser.info(path: "x.mpd", dash: manifest)
  #expect(info.audio.map(\.kind) == [.alternative, .main])
}

@Test func xmlReaderReadsWhatIsWellFormed() throws {
  let manifest = try DASHManifest(
    bytes: bytes(
      """
      \u{FEFF}<?xml version='1.0'?><!DOCTYPE MPD [<!ENTITY x "y">]>
      <mpd:MPD xmlns:mpd="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration = 'PT10S'>
      <mpd:Period><!-- <AdaptationSet lang="xx"/> -->
      <mpd:AdaptationSet mimeType='audio/mp4' lang="fr" label="a &lt; b &#x263A; &#65; &bogus;">
      <Label><![CDATA[Fran<ais]]></Label>
      </mpd:AdaptationSet>
      <AdaptationSet mimeType="text/vtt" lang="fr"></AdaptationSet ></mpd:Period></mpd:MPD>
      <!-- after the root --> <?pi?>
      """))
  #expect(manifest.duration == 10)
  #expect(manifest.adaptationSets.count == 2)
  #expect(manifest.adaptationSets[0].mediaType == "audio")
  #expect(manifest.adaptationSets[0].label == "Fran<ais")
  #expect(manifest.adaptationSets[1].mediaType == "text")
  let attributeOnly = try DASHManifest(
    bytes: bytes(
      "<MPD><Period><AdaptationSet contentType=\"audio\" label=\"a &lt; b &#x263A; &#65; &bogus;\"><Representation/></AdaptationSet>"
        + "</Period></MPD>"
    ))
  #expect(attributeOnly.adaptationSets.first?.label == "a < b \u{263A} A &bogus;")
}

@Test(arguments: [
  // Cut short, at every kind of place.
  "<MPD><Period><AdaptationSet contentType=\"audio\" lang=\"fr\"><Representation/></AdaptationSet>",
  "<MPD><Period><AdaptationSet contentType=\"audio\" lang=\"fr",
  "<MPD><Period><AdaptationSet contentType=\"audio\"",
  "<MPD><Period></Period></MPD", "<MPD><!-- a comment", "<MPD><![CDATA[ x", "<MPD><?pi",
  "<MPD><!DOCTYPE x [", "<MPD>",
  // Malformed in the middle: the sets after the damage would be lost without a word.
  "<MPD><Period><AdaptationSet lang=\"de\"></AdaptationSet</Period></MPD>",
  "<MPD><Period></Wrong></Period></MPD>", "<MPD><Period></MPD>", "</MPD>",
  "<MPD><Period><AdaptationSet lang=fr/></Period></MPD>",
  "<MPD><Period><AdaptationSet lang=\"fr\" lang=\"de\"/></Period></MPD>",
  "<MPD><Period><AdaptationSet lang=\"fr\"contentType=\"audio\"/></Period></MPD>",
  "<MPD><Period><AdaptationSet lang/></Period></MPD>", "<MPD <not XML>", "<MPD>< Period/></MPD>",
  "<MPD><Period/></MPD><MPD><Period/></MPD>", "text<MPD><Period/></MPD>",
  "<MPD><Period/></MPD>text", "", "  ",
])
func xmlThatIsNotWellFormedIsRefused(text: String) {
  #expect {
    _ = try DASHManifest(bytes: bytes(text))
  } throws: { error in
    guard let error = error as? MediaError, error.kind == .malformed else { return false }
    return error.detail.hasPrefix("not well-formed XML (line 1: ")
  }
}

@Test func aManifestWithoutAPeriodIsRefused() {
  #expect {
    _ = try DASHManifest(bytes: bytes("<MPD mediaPresentationDuration=\"PT1S\"></MPD>"))
  } throws: { ($0 as? MediaError)?.detail.contains("without a Period") == true }
}

@Test(arguments: [
  ("PT1H2M3.5S", 3723.5), ("PT0S", 0), ("P1DT1S", 86401), ("PT90M", 5400),
  ("P0Y0M0DT0H3M30S", 210),
])
func isoDurations(text: String, seconds: Double) throws {
  let manifest = try DASHManifest(
    bytes: bytes("<MPD mediaPresentationDuration=\"\(text)\"><Period/></MPD>"))
  #expect(manifest.duration == seconds)
}

@Test func notManifestsAreMalformed() throws {
  #expect {
    _ = try HLSPlaylist(bytes: bytes("WEBVTT\n"))
  } throws: { ($0 as? MediaError)?.kind == .malformed }
  #expect {
    _ = try HLSPlaylist(bytes: bytes("#EXTM3U\n\n# nothing\n"))
  } throws: { ($0 as? MediaError)?.kind == .malformed }
  // A media playlist parses: its tracks are its segments' (see ManifestSegmentTests).
  let media = try HLSPlaylist(bytes: bytes("#EXTM3U\n#EXTINF:4,\nseg1.ts\n"))
  #expect(media.isMediaPlaylist)
  #expect(media.segments.map(\.uri) == ["seg1.ts"])
  #expect(ManifestParser.info(path: "x.m3u8", hls: media).audio.isEmpty)
  #expect {
    _ = try DASHManifest(bytes: bytes("<html><body>no</body></html>"))
  } throws: { ($0 as? MediaError)?.kind == .malformed }
  #expect {
    _ = try MediaProbe.probe(path: fixtures + "/sample.vtt.m3u8")
  } throws: { ($0 as? MediaError)?.kind == .notFound }
}

@Test func monthsAndYearsHaveNoFixedLength() throws {
  for text in ["P1M", "P1Y", "P1Y0M0DT1S"] {
    let manifest = try DASHManifest(
      bytes: bytes("<MPD mediaPresentationDuration=\"\(text)\"><Period/></MPD>"))
    #expect(manifest.duration == nil)
  }
}

@Test func labelsWrittenOverSeveralLinesReadAsOne() throws {
  let manifest = try DASHManifest(
    bytes: bytes(
      "<MPD><Period><AdaptationSet contentType=\"audio\"><Label>\n   Director's\r\n\t Commentary \u{1B}[2J\n"
        + "</Label><Representation/></AdaptationSet><AdaptationSet contentType=\"audio\" label=\"A&#0;B\"><Representation/></AdaptationSet></Period></MPD>"
    ))
  #expect(manifest.adaptationSets.map(\.label) == ["Director's Commentary [2J", "A&#0;B"])
}

@Test func deepNestingIsRefusedNotRecursedInto() {
  // Ten thousand levels: without a bound, freeing the tree recursed once per level (a stack
  // overflow at about 50,000) and unmatched end tags cost quadratic time.
  let deep = "<MPD><Period>" + String(repeating: "<a>", count: 10_000) + "</Period></MPD>"
  #expect {
    _ = try DASHManifest(bytes: bytes(deep))
  } throws: { ($0 as? MediaError)?.kind == .malformed }
  let fine =
    "<MPD><Period>" + String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200)
    + "</Period></MPD>"
  #expect((try? DASHManifest(bytes: bytes(fine))) != nil)
}

@Test func garbageNeverCrashesTheParsers() {
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  for length in [0, 1, 7, 100, 1000] {
    for _ in 0..<50 {
      var data: [UInt8] = []
      for _ in 0..<length {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        // Bias towards markup characters so the tokenizer's branches are exercised.
        let alphabet = Array("<>/=\"'!-?[]&#;: aXM\n".utf8)
        data.append(
          state >> 63 == 0
            ? alphabet[Int(state >> 32) % alphabet.count] : UInt8(truncatingIfNeeded: state >> 24))
      }
      _ = try? DASHManifest(bytes: Array("<MPD><Period>".utf8) + data)
      _ = try? HLSPlaylist(bytes: Array("#EXTM3U\n#EXT-X-MEDIA:".utf8) + data)
    }
  }
}

@Test func millionLevelsOfNestingAreRefusedWithoutOverflow() {
  // Open tags alone, then self-closed runs and end tags that match nothing: no recursion, no
  // quadratic search.
  for body in [
    String(repeating: "<a>", count: 1_000_000),
    String(repeating: "<a><b/>", count: 255) + String(repeating: "</zz>", count: 500_000),
  ] {
    let manifest = try? DASHManifest(bytes: bytes("<MPD><Period>" + body + "</Period></MPD>"))
    if body.hasPrefix("<a><a>") { #expect(manifest == nil) }
  }
}

@Test func declaredEntitiesAreNotExpanded() throws {
  // The "billion laughs": each entity ten of the one before. Only the predefined and numeric
  // references are decoded; declared entities stay as written.
  var doctype = "<!DOCTYPE MPD [<!ENTITY lol0 \"lol\">"
  for level in 1...9 {
    doctype +=
      "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
  }
  doctype += "]>"
  let manifest = try DASHManifest(
    bytes: bytes(
      doctype
        + "<MPD><Period><AdaptationSet contentType=\"audio\" label=\"&lol9;\"><Representation/></AdaptationSet></Period></MPD>"
    ))
  #expect(manifest.adaptationSets.first?.label == "&lol9;")
}

@Test func attributesOfOneLocalNameUnderDifferentPrefixesAreNotDuplicates() throws {
  // `xlink:href` and `href` are two attributes (XML compares qualified names); both are kept
  // under the local name, the later one winning.
  let manifest = try DASHManifest(
    bytes: bytes(
      "<MPD xmlns:a=\"urn:a\"><Period><AdaptationSet contentType=\"audio\" a:lang=\"fr\" lang=\"de\">"
        + "<Representation id=\"r\" bandwidth=\"128000\"/></AdaptationSet></Period></MPD>"))
  #expect(manifest.adaptationSets.map(\.language) == ["de"])
}

/// One audio group of renditions in two codecs, as Shaka Packager writes it: the variant's
/// CODECS lists both, and says nothing of which rendition is which. Each rendition's codec is
/// unknown (its media would tell), not the first codec listed; its channels are as stated.
@Test func hlsGroupOfSeveralAudioCodecsLeavesEachCodecUnknown() throws {
  let playlist = try HLSPlaylist(
    bytes: bytes(
      """
      #EXTM3U
      #EXT-X-MEDIA:TYPE=AUDIO,URI="en.m3u8",GROUP-ID="aud",LANGUAGE="en",NAME="English",CHANNELS="2"
      #EXT-X-MEDIA:TYPE=AUDIO,URI="en51.m3u8",GROUP-ID="aud",LANGUAGE="en",NAME="English 5.1",\
      CHANNELS="6"
      #EXT-X-MEDIA:TYPE=AUDIO,URI="de.m3u8",GROUP-ID="solo",LANGUAGE="de",NAME="Deutsch",CHANNELS="2"
      #EXT-X-STREAM-INF:BANDWIDTH=224706,CODECS="avc1.64000b,ac-3,mp4a.40.2",AUDIO="aud"
      v.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=104864,CODECS="avc1.64000b,opus",AUDIO="solo"
      v.m3u8
      """))
  let info = ManifestParser.info(path: "x.m3u8", hls: playlist)
  #expect(info.audio.map(\.codec) == ["", "", "opus"])
  #expect(info.audio.map(\.channels) == [2, 6, 2])
  #expect(info.audio.map(\.decodable) == [true, true, true])
}
