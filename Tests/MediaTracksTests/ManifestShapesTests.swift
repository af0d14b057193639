import MediaTracks
import Testing

// Manifests in the shapes published examples and packagers write (Apple's HLS authoring
// examples, DASH-IF test vectors, Media3's test manifests), written here by hand, and
// adversarial variations of them. Parsed from bytes: no file is read.

private func hls(_ text: String) throws -> MediaInfo {
  var info = ManifestParser.info(path: "x.m3u8", hls: try HLSPlaylist(bytes: Array(text.utf8)))
  info.finish(classifyKinds: false)
  return info
}

private func dash(_ text: String, preferences: TrackPreferences = TrackPreferences()) throws
  -> MediaInfo
{
  var info = ManifestParser.info(path: "x.mpd", dash: try DASHManifest(bytes: Array(text.utf8)))
  info.finish(preferences: preferences, classifyKinds: false)
  return info
}

// MARK: HLS: audio muxed into the variants

@Test(arguments: [
  ("mp4a.40.2", "aac", "LC"), ("mp4a.40.5", "aac", "HE-AAC"), ("ac-3", "ac3", nil),
  ("ec-3", "eac3", nil), ("opus", "opus", nil), ("fLaC", "flac", nil), ("mp4a.40.34", "mp3", nil),
])
func muxedAudioIsListedFromCodecs(codec: String, name: String, profile: String?) throws {
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=640x360,CODECS="avc1.4d401e,\(codec)"
    low/index.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=2560000,RESOLUTION=1280x720,CODECS="avc1.4d401f,\(codec)"
    mid/index.m3u8
    """)
  #expect(info.audio.count == 1)
  #expect(info.audio.first?.codec == name)
  #expect(info.audio.first?.profile == profile)
  #expect(info.audio.first?.index == 0)
  // Video and audio share the variant's bandwidth: no audio bit rate is stated.
  #expect(info.audio.first?.bitRate == nil)
  #expect(info.audio.first?.sampleRate == 0)
  #expect(info.audio.first?.channels == 0)
  #expect(info.defaultAudio == 0)
}

/// Space and blank lines before the signature, and space after it, as hand-edited playlists
/// and players' own test playlists have them (Media3 reads ` #EXTM3U `): still a playlist, by
/// content too. A line that does not start with the signature is still refused.
@Test(arguments: [" #EXTM3U \n", "\n\t#EXTM3U\n", "\r\n  \r\n#EXTM3U\t\r\n", "\u{FEFF} #EXTM3U\n"])
func spaceAroundTheSignatureIsAccepted(header: String) throws {
  let text =
    header + """
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Deutsch",LANGUAGE="de",URI="de.m3u8"
      #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="a"
      low.m3u8
      """
  let info = try hls(text)
  #expect(info.audio.map(\.label) == ["Deutsch"])
  #expect(HLSSubtitleSegments.isPlaylist(Array(text.utf8)))
}

@Test func aFirstLineOtherThanTheSignatureIsRefused() {
  #expect(throws: MediaError.self) {
    try hls("#EXTMU3\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a.40.2\"\nlow.m3u8\n")
  }
  #expect(throws: MediaError.self) {
    try hls("x #EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a.40.2\"\nlow.m3u8\n")
  }
  #expect(!HLSSubtitleSegments.isPlaylist(Array("x #EXTM3U\n".utf8)))
}

@Test func audioOnlyVariantsGiveTheBitRate() throws {
  // An audio-only ladder (a radio stream): the variants' BANDWIDTH is the audio's.
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.5"
    64k.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
    128k.m3u8
    """)
  #expect(info.audio.map(\.codec) == ["aac"])
  #expect(info.audio.first?.bitRate == 128_000)
  #expect(info.audio.first?.profile == "HE-AAC")
}

@Test func noAudioCodecMeansNoMuxedTrack() throws {
  let videoOnly = try hls(
    """
    #EXTM3U
    #EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.640028"
    v.m3u8
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,CODECS="avc1.640028",URI="iframes.m3u8"
    """)
  #expect(videoOnly.audio.isEmpty)
  // Audio renditions present: the variants' mp4a is theirs, not another track.
  let withRenditions = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",URI="en.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.640028,mp4a.40.2",AUDIO="a"
    v.m3u8
    """)
  #expect(withRenditions.audio.map(\.index) == [0])
}

@Test func muxedAudioFollowsTheRenditions() throws {
  // Closed captions and subtitles declared, audio muxed: its index follows the renditions'.
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",LANGUAGE="en",INSTREAM-ID="CC1"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="Español",LANGUAGE="es",INSTREAM-ID="SERVICE2"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",URI="s.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.640028,mp4a.40.2",CLOSED-CAPTIONS="cc",SUBTITLES="s"
    v.m3u8
    """)
  #expect(info.audio.map(\.index) == [3])
  #expect(info.subtitles.map(\.codec) == ["eia_608", "eia_708", "webvtt"])
  #expect(info.subtitles.map(\.kind) == [.captions, .captions, .subtitles])
}

// MARK: HLS: closed captions the variants carry

@Test func closedCaptionsNoneOnTheVariantsListsNoCaptions() throws {
  // RFC 8216 section 4.3.4.2: NONE on every variant means no variant carries captions.
  let none = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc1",LANGUAGE="es",NAME="Eng",INSTREAM-ID="SERVICE4"
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="mp4a.40.2,avc1.66.30",CLOSED-CAPTIONS=NONE
    low.m3u8
    """)
  #expect(none.subtitles.isEmpty)
  #expect(none.audio.map(\.codec) == ["aac"])
  // Once the variants say which groups they carry, a group none names is not carried either;
  // with no CLOSED-CAPTIONS attribute on any variant, the captions declared are listed.
  let named = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc1",LANGUAGE="en",NAME="English",INSTREAM-ID="CC1"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc2",LANGUAGE="fr",NAME="Français",INSTREAM-ID="CC3"
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="mp4a.40.2,avc1.66.30",CLOSED-CAPTIONS="cc1"
    low.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="mp4a.40.2,avc1.66.30",CLOSED-CAPTIONS=NONE
    mid.m3u8
    """)
  #expect(named.subtitles.map(\.language) == ["en"])
  let unstated = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc1",LANGUAGE="es",NAME="Eng",INSTREAM-ID="SERVICE4"
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="mp4a.40.2,avc1.66.30"
    low.m3u8
    """)
  #expect(unstated.subtitles.map(\.codec) == ["eia_708"])
}

@Test func subtitlesWithoutAURIAreNotListed() throws {
  // RFC 8216 section 4.3.4.2.1: the URI is required for SUBTITLES; without it nothing is read.
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="sub1",LANGUAGE="es",NAME="Español"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="sub1",LANGUAGE="en",NAME="English",URI="en.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="mp4a.40.2,avc1.66.30",SUBTITLES="sub1"
    low.m3u8
    """)
  #expect(info.subtitles.map(\.language) == ["en"])
  #expect(info.subtitles.map(\.index) == [1])
}

// MARK: HLS: variables

@Test func defineVariablesAreSubstituted() throws {
  // RFC 8216bis section 4.3 and 4.4.2.3: `{$name}` after `#EXT-X-DEFINE` is the value, once.
  let text = """
    #EXTM3U
    #EXT-X-DEFINE:NAME="codecs",VALUE="mp4a.40.5"
    #EXT-X-DEFINE:NAME="lang",VALUE="de"
    #EXT-X-DEFINE:NAME="tricky",VALUE="a/{$lang}/b"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="Deutsch",LANGUAGE="{$lang}",URI="{$tricky}.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="{$codecs}",SUBTITLES="s"
    audio/{$tricky}.m3u8
    """
  let playlist = try HLSPlaylist(bytes: Array(text.utf8))
  #expect(playlist.variants.map(\.codecs) == [["mp4a.40.5"]])
  #expect(playlist.variants.map(\.uri) == ["audio/a/{$lang}/b.m3u8"])
  #expect(playlist.renditions.map(\.uri) == ["a/{$lang}/b.m3u8"])
  let info = try hls(text)
  #expect(info.audio.map(\.codec) == ["aac"])
  #expect(info.audio.map(\.profile) == ["HE-AAC"])
  #expect(info.subtitles.map(\.language) == ["de"])
  // `{$` not followed by a name and `}` stays as written.
  let odd = try HLSPlaylist(
    bytes: Array(
      "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"x\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n{${$a{$a}{$}{$\n"
        .utf8))
  #expect(odd.variants.map(\.uri) == ["{${$ax{$}{$"])
  // A reference to a name no tag declares fails the playlist (section 4.3), with or without
  // other definitions; names declared by IMPORT or QUERYPARAM stay as written.
  for text in [
    "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"x\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n{$b}.m3u8\n",
    "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"{$nm}\"\n",
    "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n{$a}.m3u8\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"x\"\n",
  ] {
    #expect {
      _ = try HLSPlaylist(bytes: Array(text.utf8))
    } throws: { ($0 as? MediaError)?.detail.contains("names no #EXT-X-DEFINE") == true }
  }
  let imported = try HLSPlaylist(
    bytes: Array(
      "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"i\"\n#EXT-X-DEFINE:QUERYPARAM=\"q\"\n#EXTINF:1,\n{$i}{$q}.ts\n"
        .utf8))
  #expect(imported.segments.map(\.uri) == ["{$i}{$q}.ts"])
  // A long value referenced many times is substituted up to 16 MiB in all, then left as written.
  var big = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"v\",VALUE=\"" + String(repeating: "a", count: 1 << 20)
  big += "\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n" + String(repeating: "{$v}", count: 20) + "\n"
  let capped = try HLSPlaylist(bytes: Array(big.utf8))
  #expect(capped.variants.first?.uri.utf8.count == 16 << 20 + 4 * 4)
}

// MARK: HLS: one track per NAME and LANGUAGE

@Test func renditionsOfOneNameInSeveralGroupsAreOneTrack() throws {
  // Apple's advanced example shape: the same languages in an AAC, an AC-3 and an E-AC-3 group.
  var text = "#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n"
  for (group, channels) in [("aud1", "2"), ("aud2", "6"), ("aud3", "6")] {
    text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(group)\",LANGUAGE=\"en\",NAME=\"English\","
    text += "AUTOSELECT=YES,DEFAULT=YES,CHANNELS=\"\(channels)\",URI=\"a1/\(group).m3u8\"\n"
    text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(group)\",LANGUAGE=\"fr\",NAME=\"Français\","
    text += "AUTOSELECT=YES,CHANNELS=\"\(channels)\",URI=\"a2/\(group).m3u8\"\n"
  }
  text += """
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="sub1",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,URI="s1/en/prog_index.m3u8"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc1",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,INSTREAM-ID="CC1"
    #EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=2168183,BANDWIDTH=2177116,CODECS="avc1.640020,mp4a.40.2",RESOLUTION=960x540,FRAME-RATE=60.000,CLOSED-CAPTIONS="cc1",AUDIO="aud1",SUBTITLES="sub1"
    v5/prog_index.m3u8
    #EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=2390686,BANDWIDTH=2399619,CODECS="avc1.640020,ac-3",RESOLUTION=960x540,FRAME-RATE=60.000,CLOSED-CAPTIONS="cc1",AUDIO="aud2",SUBTITLES="sub1"
    v5/prog_index.m3u8
    #EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=2198686,BANDWIDTH=2207619,CODECS="avc1.640020,ec-3",RESOLUTION=960x540,FRAME-RATE=60.000,CLOSED-CAPTIONS="cc1",AUDIO="aud3",SUBTITLES="sub1"
    v5/prog_index.m3u8
    """
  let playlist = try HLSPlaylist(bytes: Array(text.utf8))
  #expect(playlist.variants.map(\.averageBandwidth) == [2_168_183, 2_390_686, 2_198_686])
  let tracks = playlist.renditionTracks()
  #expect(tracks.count == 4)
  #expect(tracks[0].groups == ["aud1", "aud2", "aud3"])
  #expect(tracks[0].renditions == [0, 2, 4])
  #expect(playlist.groupBandwidths()["aud2"] == [2_399_619])
  #expect(playlist.groupBandwidths()["sub1"] == [2_177_116, 2_207_619, 2_399_619])
  let info = try hls(text)
  #expect(info.audio.map(\.label) == ["English", "Fran\u{e7}ais"])
  #expect(info.audio.map(\.index) == [0, 1])
  #expect(info.audio.map(\.codec) == ["aac", "aac"])
  #expect(info.audio.map(\.channels) == [2, 2])
  // The AC-3 and E-AC-3 groups' 5.1 renditions are the same choices in other encodings: listed
  // with the track, not lost in the merge.
  #expect(
    info.audio[0].alternatives == [
      AudioEncoding(codec: "ac3", channels: 6, channelLayout: "5.1", groups: ["aud2"]),
      AudioEncoding(codec: "eac3", channels: 6, channelLayout: "5.1", groups: ["aud3"]),
    ])
  #expect(info.audio[1].alternatives.map(\.codec) == ["ac3", "eac3"])
  // The closed captions' NAME does not say what they are: the kind is added.
  #expect(info.subtitles.map(\.label) == ["English", "English \u{2013} SDH"])
  #expect(info.defaultAudio == 0)
}

@Test func differentNamesLanguagesOrPurposesStayApart() throws {
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="1.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="b",NAME="English",LANGUAGE="en-GB",URI="2.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="b",NAME="English",LANGUAGE="en",CHARACTERISTICS="public.accessibility.describes-video",URI="3.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",URI="4.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="t",NAME="English",LANGUAGE="en",FORCED=YES,URI="5.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="b",NAME="English",LANGUAGE="EN",URI="6.m3u8"
    """)
  // The last one is the first's NAME and LANGUAGE (tags compare without case) in another group.
  #expect(info.audio.map(\.index) == [0, 1, 2])
  #expect(info.subtitles.map(\.index) == [3, 4])
  #expect(Set(info.audio.map(\.label)).count == 3)
  #expect(info.audio[2].label == "English \u{2013} Audio Description")
  #expect(info.subtitles.map(\.label) == ["English", "English \u{2013} Forced"])
}

// MARK: HLS: the author's NAME is the label

@Test func authorsNamesAreLabels() throws {
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Deutsch",LANGUAGE="de",DEFAULT=YES,URI="de.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Audio",LANGUAGE="en",URI="en.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Audio",LANGUAGE="fr",URI="fr.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="",LANGUAGE="es",URI="es.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Kommentar",LANGUAGE="de",CHARACTERISTICS="x",URI="c.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="Deutsch (SDH)",LANGUAGE="de",CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog",URI="s.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="Deutsch",LANGUAGE="de",CHARACTERISTICS="public.accessibility.describes-music-and-sound",URI="t.m3u8"
    """)
  #expect(
    info.audio.map(\.label) == [
      "Deutsch", "Audio (English)", "Audio (French)", "Spanish", "Kommentar",
    ])
  #expect(info.subtitles.map(\.label) == ["Deutsch (SDH)", "Deutsch \u{2013} SDH"])
}

@Test func sampleRateComesFromTheRendition() throws {
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",SAMPLE-RATE=48000,BIT-DEPTH=24,CHANNELS="2",URI="a.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Bad",SAMPLE-RATE=-5,CHANNELS="0",URI="b.m3u8"
    """)
  #expect(info.audio.map(\.sampleRate) == [48000, 0])
  #expect(info.audio.map(\.channels) == [2, 0])
}

// MARK: DASH

private let streamKeysShape = """
  <?xml version="1.0" encoding="UTF-8"?>
  <MPD availabilityStartTime="2014-06-19T23:07:42" type="dynamic">
    <Period start="PT0S" id="0">
      <AdaptationSet id="0" mimeType="video/mp4">
        <Representation id="1" bandwidth="1000000" codecs="avc1.42c01f"/>
      </AdaptationSet>
    </Period>
    <Period start="PT60S" id="1">
      <AdaptationSet id="101" mimeType="audio/mp4">
        <SupplementalProperty schemeIdUri="urn:mpeg:dash:adaptation-set-switching:2016" value="102"/>
        <Representation id="1011" bandwidth="48000" codecs="mp4a.40.2"/>
        <Representation id="1012" bandwidth="96000" codecs="mp4a.40.2"/>
      </AdaptationSet>
      <AdaptationSet id="102" mimeType="audio/mp4">
        <SupplementalProperty schemeIdUri="urn:mpeg:dash:adaptation-set-switching:2016" value="101"/>
        <Representation id="1021" bandwidth="256000" codecs="mp4a.40.2"/>
      </AdaptationSet>
      <AdaptationSet id="105" lang="eng" mimeType="application/mp4" contentType="text" codecs="wvtt">
        <Representation id="1051" bandwidth="100"/>
      </AdaptationSet>
      <AdaptationSet id="106" lang="ger" mimeType="application/mp4" contentType="text" codecs="stpp.ttml.im1t">
        <Representation id="1061" bandwidth="100"/>
      </AdaptationSet>
    </Period>
  </MPD>
  """

@Test func everyPeriodIsRead() throws {
  let manifest = try DASHManifest(bytes: Array(streamKeysShape.utf8))
  #expect(manifest.periods.map(\.id) == ["0", "1"])
  #expect(manifest.periods.map(\.start) == [0, 60])
  #expect(manifest.isDynamic)
  #expect(manifest.adaptationSets.map(\.period) == [0, 1, 1, 1, 1])
  #expect(manifest.adaptationSets[1].switchableWith == ["102"])
  #expect(manifest.adaptationSets[1].bandwidths == [48000, 96000])
  let info = try dash(streamKeysShape)
  // Sets 101 and 102 switch seamlessly: one track, its bit rate the highest of both.
  #expect(info.audio.map(\.index) == [1])
  #expect(info.audio.first?.bitRate == 256_000)
  #expect(info.subtitles.map(\.index) == [3, 4])
  #expect(info.subtitles.map(\.codec) == ["webvtt", "ttml"])
  #expect(info.subtitles.map(\.label) == ["English", "German"])
}

@Test func aTrackContinuesAcrossPeriods() throws {
  // Three periods (a programme, an advert, the programme again), each with English and French.
  var text = "<MPD type=\"static\" mediaPresentationDuration=\"PT3M\">"
  for period in 0..<3 {
    text += "<Period id=\"p\(period)\"><AdaptationSet contentType=\"video\" mimeType=\"video/mp4\">"
    text += "<Representation id=\"v\" bandwidth=\"1\" codecs=\"avc1.64001f\"/></AdaptationSet>"
    for (language, rate) in [("en", 128_000 + period), ("fr", 96000)] {
      text += "<AdaptationSet contentType=\"audio\" mimeType=\"audio/mp4\" lang=\"\(language)\">"
      text += "<Role schemeIdUri=\"urn:mpeg:dash:role:2011\" value=\"main\"/>"
      text += "<Representation id=\"a\" bandwidth=\"\(rate)\" codecs=\"mp4a.40.2\""
      text += period == 1 ? " audioSamplingRate=\"44100\"/>" : "/>"
      text += "</AdaptationSet>"
    }
    text += "</Period>"
  }
  text += "</MPD>"
  let info = try dash(text)
  #expect(info.audio.map(\.language) == ["en", "fr"])
  #expect(info.audio.map(\.index) == [1, 2])
  #expect(info.audio.map(\.bitRate) == [128_002, 96000])
  // A fact only a later period states fills in.
  #expect(info.audio.map(\.sampleRate) == [44100, 44100])
}

/// A three-period manifest (programme, advert, programme) whose audio sets differ as packagers
/// write them: `attributes[period]` are the set's attributes and children in that period.
private func threePeriods(_ attributes: [String], french: Bool = false) -> String {
  var text = "<MPD type=\"static\" mediaPresentationDuration=\"PT3M\">"
  for (period, extra) in attributes.enumerated() {
    text += "<Period id=\"p\(period)\">"
    text += "<AdaptationSet contentType=\"audio\" mimeType=\"audio/mp4\" \(extra)"
    text += "<Representation id=\"a\(period)\" bandwidth=\"128000\" codecs=\"mp4a.40.2\"/>"
    text += "</AdaptationSet>"
    if french {
      text += "<AdaptationSet contentType=\"audio\" mimeType=\"audio/mp4\" lang=\"fr\">"
      text += "<Representation id=\"f\(period)\" bandwidth=\"96000\" codecs=\"mp4a.40.2\"/>"
      text += "</AdaptationSet>"
    }
    text += "</Period>"
  }
  return text + "</MPD>"
}

@Test(arguments: [
  // eng and en are one language.
  [#"lang="en">"#, #"lang="eng">"#, #"lang="en">"#],
  // A Role main in one period and none in another: main is the role of a set without one.
  [
    #"lang="en"><Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>"#, #"lang="en">"#,
    #"lang="en"><Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>"#,
  ],
  // An advert without a language, or undetermined, or without the programme's label.
  [#"lang="en">"#, ">", #"lang="en">"#],
  [#"lang="en">"#, #"lang="und">"#, #"lang="en">"#],
  [#"lang="en"><Label>English</Label>"#, #"lang="en">"#, #"lang="en"><Label>English</Label>"#],
  // A pre-roll without a language before the programme.
  [">", #"lang="en">"#, #"lang="en">"#],
])
func aTrackContinuesAcrossPeriodsThatWriteItDifferently(sets: [String]) throws {
  let info = try dash(threePeriods(sets))
  #expect(info.audio.count == 1)
  #expect(info.audio.first?.index == 0)
  #expect(info.audio.first?.language == "en")
}

@Test func aCloseMatchNeverTakesTheTrackOfAnExactOne() throws {
  // In the advert the French set comes first and states its language; the English set states
  // none. French continues French, and the English track is continued by the set without a
  // language (the close match), not by French.
  let text = """
    <MPD type="static" mediaPresentationDuration="PT3M">
      <Period id="p0">
        <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="en">
          <Representation id="e0" bandwidth="128000" codecs="mp4a.40.2"/></AdaptationSet>
        <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="fr">
          <Representation id="f0" bandwidth="96000" codecs="mp4a.40.2"/></AdaptationSet>
      </Period>
      <Period id="p1">
        <AdaptationSet contentType="audio" mimeType="audio/mp4">
          <Representation id="u1" bandwidth="64000" codecs="mp4a.40.2"/></AdaptationSet>
        <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="fr">
          <Representation id="f1" bandwidth="96000" codecs="mp4a.40.2"/></AdaptationSet>
      </Period>
    </MPD>
    """
  let info = try dash(text)
  #expect(info.audio.map(\.language) == ["en", "fr"])
  #expect(info.audio.map(\.index) == [0, 1])
}

@Test func twoLanguagesInOnePeriodStayTwoTracks() throws {
  // Close matches join earlier periods' tracks only: in one period, English and a set without a
  // language are two tracks.
  let text = """
    <MPD type="static" mediaPresentationDuration="PT1M"><Period id="p0">
      <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="en">
        <Representation id="e" bandwidth="128000" codecs="mp4a.40.2"/></AdaptationSet>
      <AdaptationSet contentType="audio" mimeType="audio/mp4">
        <Representation id="u" bandwidth="128000" codecs="mp4a.40.2"/></AdaptationSet>
    </Period></MPD>
    """
  #expect(try dash(text).audio.count == 2)
  // And a third period's French is its own track, even where an advert had no language.
  let info = try dash(threePeriods([#"lang="en">"#, ">", #"lang="en">"#], french: true))
  #expect(info.audio.map(\.language) == ["en", "fr"])
}

@Test func accessibilityCaptionsAreSubtitleTracks() throws {
  let text = """
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT10S">
      <Period id="1">
        <AdaptationSet id="1" contentType="video" mimeType="video/mp4">
          <Accessibility schemeIdUri="urn:scte:dash:cc:cea-608:2015" value="CC1=eng;CC3=spa"/>
          <Accessibility schemeIdUri="urn:scte:dash:cc:cea-708:2015" value="1=lang:eng;2=lang:fra,war:1,er:1"/>
          <Representation id="v" bandwidth="1" codecs="avc1.640028"/>
        </AdaptationSet>
        <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" lang="en" codecs="mp4a.40.2"><Representation/></AdaptationSet>
      </Period>
      <Period id="2">
        <AdaptationSet id="1" contentType="video" mimeType="video/mp4">
          <Accessibility schemeIdUri="urn:scte:dash:cc:cea-608:2015" value="CC1=eng;CC3=spa"/>
          <Representation id="v" bandwidth="1" codecs="avc1.640028"/>
        </AdaptationSet>
      </Period>
    </MPD>
    """
  let info = try dash(text)
  #expect(info.subtitles.map(\.codec) == ["eia_608", "eia_608", "eia_708", "eia_708"])
  #expect(info.subtitles.map(\.language) == ["en", "es", "en", "fr"])
  #expect(info.subtitles.allSatisfy { $0.kind == .captions })
  #expect(info.subtitles.map(\.index) == [3, 4, 5, 6])
  #expect(Set(info.subtitles.map(\.label)).count == 4)
  // Bare languages, and a descriptor without a value.
  let bare = try dash(
    """
    <MPD><Period><AdaptationSet contentType="video">
    <Accessibility schemeIdUri="urn:scte:dash:cc:cea-608:2015" value="eng;deu"/>
    <Accessibility schemeIdUri="urn:scte:dash:cc:cea-708:2015"/>
    <Representation/></AdaptationSet></Period></MPD>
    """)
  #expect(bare.subtitles.map(\.language) == ["en", "de", nil])
}

@Test func rawCaptionSetsAreCaptionTracks() throws {
  let info = try dash(
    """
    <MPD type="static" mediaPresentationDuration="PT1S"><Period>
      <AdaptationSet mimeType="application/x-rawcc" lang="en">
        <Representation id="a" codecs="cea608" bandwidth="16"/>
      </AdaptationSet>
      <AdaptationSet mimeType="application/x-rawcc">
        <Representation id="b" codecs="cea708" bandwidth="16"/>
      </AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.subtitles.map(\.codec) == ["eia_608", "eia_708"])
  #expect(info.subtitles.allSatisfy { $0.kind == .captions })
  #expect(info.subtitles.map(\.language) == ["en", nil])
}

@Test(arguments: [
  ("main", AudioKind.main, true), ("alternate", .alternative, false),
  ("supplementary", .alternative, false), ("commentary", .commentary, false),
  ("dub", .translation, false), ("description", .mainDescriptions, false),
  ("emergency", .alternative, false),
])
func audioRolesGiveKinds(role: String, kind: AudioKind, isDefault: Bool) throws {
  let info = try dash(
    """
    <MPD><Period>
    <AdaptationSet contentType="audio" lang="en" codecs="mp4a.40.2"><Role
      schemeIdUri="urn:mpeg:dash:role:2011" value="\(role)"/><Representation/></AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.audio.first?.kind == kind)
  #expect(info.audio.first?.isDefault == isDefault)
}

@Test func aSupplementaryDescriptionIsDescriptionsOnly() throws {
  let info = try dash(
    """
    <MPD><Period>
    <AdaptationSet contentType="audio" lang="en" codecs="mp4a.40.2">
      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/><Representation/></AdaptationSet>
    <AdaptationSet contentType="audio" lang="en" codecs="mp4a.40.2">
      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="supplementary"/>
      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="description"/><Representation/></AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.audio.map(\.kind) == [.main, .descriptions])
}

@Test(arguments: [
  ("subtitle", SubtitleKind.subtitles), ("caption", .captions), ("description", .descriptions),
  ("metadata", .metadata), ("easyreader", .subtitles), ("forced-subtitle", .subtitles),
])
func textRolesGiveKinds(role: String, kind: SubtitleKind) throws {
  let info = try dash(
    """
    <MPD><Period>
    <AdaptationSet contentType="text" mimeType="text/vtt" lang="fr"><Role
      schemeIdUri="urn:mpeg:dash:role:2011" value="\(role)"/><Representation/></AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.subtitles.first?.kind == kind)
  #expect(info.subtitles.first?.isForced == (role == "forced-subtitle"))
}

@Test func roleMainMakesTheDefault() throws {
  // The second English set is "main": it is the default, whatever the order.
  let info = try dash(
    """
    <MPD><Period>
    <AdaptationSet contentType="audio" lang="en" codecs="ec-3"><Representation id="a"
      bandwidth="1"><Role schemeIdUri="urn:mpeg:dash:role:2011" value="alternate"/></Representation>
    </AdaptationSet>
    <AdaptationSet contentType="audio" lang="en" codecs="mp4a.40.2"><Representation id="b"
      bandwidth="1"><Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/></Representation>
    </AdaptationSet>
    <AdaptationSet contentType="text" lang="en" mimeType="text/vtt"><Role
      schemeIdUri="urn:mpeg:dash:role:2011" value="main"/><Representation/></AdaptationSet>
    </Period></MPD>
    """, preferences: TrackPreferences(languages: ["en"]))
  #expect(info.defaultAudio == 1)
  #expect(info.audio.map(\.kind) == [.alternative, .main])
  #expect(info.subtitles.first?.isDefault == true)
}

@Test(arguments: [
  // Each scheme's value read as the scheme defines it.
  ("urn:mpeg:dash:23003:3:audio_channel_configuration:2011", "2", 2),
  ("urn:mpeg:mpegB:cicp:ChannelConfiguration", "6", 6),
  ("urn:mpeg:mpegB:cicp:ChannelConfiguration", "8", 2),
  ("urn:mpeg:mpegB:cicp:ChannelConfiguration", "12", 8),
  ("tag:dolby.com,2014:dash:audio_channel_configuration:2011", "F801", 6),
  ("urn:dolby:dash:audio_channel_configuration:2011", "A000", 2),
  // AC-4 speaker-group masks: 5.1 and 5.1.2, not 47 or 199 channels.
  ("tag:dolby.com,2015:dash:audio_channel_configuration:2015", "000047", 6),
  ("tag:dolby.com,2015:dash:audio_channel_configuration:2015", "0000C7", 8),
  ("tag:dolby.com,2015:dash:audio_channel_configuration:2015", "800047", 0),
  ("tag:dts.com,2014:dash:audio_channel_configuration:2012", "6", 6),
  ("tag:dts.com,2018:uhd:audio_channel_configuration", "0000003F", 6),
  // A scheme nobody defined here: its value is not guessed at.
  ("urn:example:channels", "000047", 0),
  ("urn:example:channels", "2", 0),
])
func channelSchemesAreReadAsDefined(scheme: String, value: String, channels: Int) throws {
  let info = try dash(
    """
    <MPD type="static" mediaPresentationDuration="PT10S"><Period>
      <AdaptationSet mimeType="audio/mp4" codecs="ec-3" lang="en">
        <AudioChannelConfiguration schemeIdUri="\(scheme)" value="\(value)"/>
        <Representation id="a" bandwidth="128000"/>
      </AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.audio.map(\.channels) == [channels])
}

@Test func audioMuxedIntoAVideoSetIsListed() throws {
  let info = try dash(
    """
    <MPD><Period>
    <AdaptationSet mimeType="video/mp4" codecs="avc1.4d401e,mp4a.40.2" lang="en">
      <Representation id="1" bandwidth="500000"/></AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.audio.map(\.codec) == ["aac"])
  #expect(info.audio.first?.language == "en")
}

@Test func dashLabelsAreTheAuthors() throws {
  let info = try dash(
    """
    <MPD><Period>
    <AdaptationSet contentType="audio" lang="de" codecs="mp4a.40.2"><Label>Deutsch</Label>
    <Representation/></AdaptationSet>
    <AdaptationSet contentType="audio" lang="de" codecs="mp4a.40.2"><Label>Deutsch</Label>
      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="commentary"/><Representation/></AdaptationSet>
    <AdaptationSet contentType="audio" lang="en" codecs="mp4a.40.2"><Representation/></AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.audio.map(\.label) == ["Deutsch", "Deutsch \u{2013} Commentary", "English"])
}

// MARK: Decodability and codec names from declarations

@Test(arguments: [
  ("mp4a.a5", "ac3", nil, true), ("mp4a.a6", "eac3", nil, true),
  ("mp4a.40.42", "aac", "xHE-AAC", false), ("ac-4.02.01.01", "ac4", nil, false),
  ("mhm1.0x0D", "mpegh_3d_audio", nil, false), ("mha1.0x0C", "mpegh_3d_audio", nil, false),
  ("dtsx", "dts_uhd", nil, false), ("dtsc", "dts", nil, true), ("mp4a.40.2", "aac", "LC", true),
])
func declaredCodecsSayWhetherFFmpegDecodes(
  codecs: String, name: String, profile: String?, decodable: Bool
) throws {
  let hlsInfo = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",URI="a.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.4d401e,\(codecs)",AUDIO="a"
    v.m3u8
    """)
  #expect(hlsInfo.audio.map(\.codec) == [name])
  #expect(hlsInfo.audio.map(\.profile) == [profile])
  #expect(hlsInfo.audio.map(\.decodable) == [decodable])
  let dashInfo = try dash(
    """
    <MPD><Period><AdaptationSet mimeType="audio/mp4" codecs="\(codecs)" lang="en">
    <Representation id="a" bandwidth="128000"/></AdaptationSet></Period></MPD>
    """)
  #expect(dashInfo.audio.map(\.codec) == [name])
  #expect(dashInfo.audio.map(\.decodable) == [decodable])
}

@Test func aTrackWithADecodableAlternativeIsDecodableAndAnUndecodableOneIsNotDefault() throws {
  // English in AC-4 and in AAC (a player picks the AAC group); French in AC-4 only, marked
  // default: the default goes to a track this FFmpeg can play.
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ac4",NAME="English",LANGUAGE="en",CHANNELS="2",URI="a1.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ac4",NAME="French",LANGUAGE="fr",DEFAULT=YES,CHANNELS="2",URI="a2.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",CHANNELS="2",URI="a3.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.64001f,ac-4.02.01.01",AUDIO="ac4"
    v1.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
    v2.m3u8
    """)
  #expect(info.audio.map(\.label) == ["English", "French"])
  #expect(info.audio.map(\.decodable) == [true, false])
  #expect(info.defaultAudioTrack?.label == "English")
}

@Test func renditionsWithoutAGroupAreSkipped() throws {
  let playlist = try HLSPlaylist(
    bytes: Array(
      """
      #EXTM3U
      #EXT-X-MEDIA:TYPE=AUDIO,NAME="No group",LANGUAGE="en",URI="a.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="",NAME="Empty group",LANGUAGE="en",URI="b.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="German",LANGUAGE="de",URI="c.m3u8"
      #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="mp4a.40.2",AUDIO="a"
      v.m3u8
      """.utf8))
  #expect(playlist.renditions.map(\.name) == ["German"])
}

// MARK: DASH: descriptors as their schemes define them

@Test func cea608ChannelsInEveryWrittenForm() throws {
  // `CC1=lang:eng`, bare numbers with 708-style fields, and languages alone: each channel once,
  // with its language.
  for value in ["CC1=lang:eng;CC3=lang:swe", "1=lang:eng;3=lang:swe,war:1,er:1", "CC1=eng;CC3=swe"]
  {
    let info = try dash(
      """
      <MPD><Period><AdaptationSet mimeType="video/mp4" codecs="avc1.4d401f">
      <Accessibility schemeIdUri="urn:scte:dash:cc:cea-608:2015" value="\(value)"/>
      <Representation id="v" bandwidth="100000"/></AdaptationSet></Period></MPD>
      """)
    #expect(info.subtitles.map(\.language) == ["en", "sv"], "\(value)")
    #expect(info.subtitles.map(\.codec) == ["eia_608", "eia_608"], "\(value)")
  }
}

@Test func atmosLanguageWebVTTMimeAndOutputChannelPositions() throws {
  let info = try dash(
    """
    <MPD><Period>
    <AdaptationSet mimeType="audio/mp4" codecs="ec-3" lang="en">
      <SupplementalProperty schemeIdUri="tag:dolby.com,2018:dash:EC3_ExtensionType:2018" value="JOC"/>
      <Representation id="a1" bandwidth="768000"><AudioChannelConfiguration
        schemeIdUri="tag:dolby.com,2014:dash:audio_channel_configuration:2011" value="F801"/>
      </Representation></AdaptationSet>
    <AdaptationSet mimeType="audio/mp4" codecs="mp4a.40.2">
      <ContentComponent id="1" contentType="audio" lang="it"/>
      <Representation id="a2" bandwidth="128000"><AudioChannelConfiguration
        schemeIdUri="urn:mpeg:dash:outputChannelPositionList:2012" value="2 0 1 4 5 3 17 1"/>
      </Representation></AdaptationSet>
    <AdaptationSet mimeType="text/webvtt" lang="de"><Representation id="t" bandwidth="1"/>
    </AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.audio.map(\.channelLayout) == ["Atmos", "7.1"])
  #expect(info.audio.map(\.channels) == [6, 8])
  #expect(info.audio.map(\.language) == ["en", "it"])
  #expect(info.subtitles.map(\.codec) == ["webvtt"])
}

@Test func captionChannelsOutsideTheRFCAndDialogTranscriptsAloneAreNotSDH() throws {
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",LANGUAGE="en",INSTREAM-ID="CC1"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC5",LANGUAGE="fr",INSTREAM-ID="CC5"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="S64",LANGUAGE="de",INSTREAM-ID="SERVICE64"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="None",LANGUAGE="es"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="S63",LANGUAGE="it",INSTREAM-ID="SERVICE63"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog",URI="s.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.4d401e,mp4a.40.2",CLOSED-CAPTIONS="cc",SUBTITLES="s"
    v.m3u8
    """)
  #expect(info.subtitles.map(\.language) == ["en", "it", "en"])
  #expect(info.subtitles.last?.dispositions.contains("hearing_impaired") == false)
}

@Test func aTrackWhoseCodecChangesBetweenPeriodsIsOneTrackWithAnAlternative() throws {
  // Period 1: English AAC and English E-AC-3; period 2 the same in the other order, and an
  // inserted period 3 in AAC alone: two tracks, each matched to its own codec first.
  func set(_ codecs: String, _ id: String) -> String {
    "<AdaptationSet mimeType=\"audio/mp4\" codecs=\"\(codecs)\" lang=\"en\">"
      + "<Representation id=\"\(id)\" bandwidth=\"128000\"/></AdaptationSet>"
  }
  let info = try dash(
    "<MPD><Period id=\"1\">" + set("mp4a.40.2", "a") + set("ec-3", "b") + "</Period>"
      + "<Period id=\"2\">" + set("ec-3", "c") + set("mp4a.40.2", "d") + "</Period>"
      + "<Period id=\"3\">" + set("ac-4.02.01.01", "e") + "</Period></MPD>")
  #expect(info.audio.map(\.codec) == ["aac", "eac3"])
  #expect(info.audio.map { $0.alternatives.map(\.codec) } == [["ac4"], []])
  #expect(info.audio.map(\.decodable) == [true, true])
}

@Test func renditionsWithoutANameAreMatchedGroupByGroup() throws {
  // Shaka Player's "multiple audio groups" shape: the same two languages, without NAMEs, in a
  // stereo and a surround group; and two unnamed English renditions in one group stay two.
  let info = try hls(
    """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="stereo",LANGUAGE="en",URI="a1.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="stereo",LANGUAGE="fr",URI="a2.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="surround",LANGUAGE="en",URI="a3.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="surround",LANGUAGE="fr",URI="a4.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="surround",LANGUAGE="en",URI="a5.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="mp4a.40.2",AUDIO="stereo"
    v1.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=2,CODECS="ec-3",AUDIO="surround"
    v2.m3u8
    """)
  #expect(info.audio.map(\.language) == ["en", "fr", "en"])
  #expect(info.audio.map { $0.alternatives.map(\.codec) } == [["eac3"], ["eac3"], []])
}

@Test func contentProtectionMakesATrackEncrypted() throws {
  // Common Encryption and a DRM system on the set, or on a representation only.
  for placement in ["set", "representation"] {
    let protection = """
      <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc"/>
      <ContentProtection schemeIdUri="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"/>
      """
    let text = """
      <MPD type="static" mediaPresentationDuration="PT10S"><Period>
        <AdaptationSet contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en">
          \(placement == "set" ? protection : "")
          <Representation id="a" bandwidth="128000">\(placement == "set" ? "" : protection)
          </Representation>
        </AdaptationSet>
        <AdaptationSet contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="fr">
          <Representation id="f" bandwidth="128000"/>
        </AdaptationSet>
      </Period></MPD>
      """
    let info = try dash(text)
    #expect(info.audio.map(\.encrypted) == [true, false])
    #expect(info.audio.map(\.decodable) == [false, true])
  }
}

@Test func renditionsInGroupsNoVariantNamesAreNotListed() throws {
  let text = """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="en.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="unused",NAME="Deutsch",LANGUAGE="de",URI="de.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",URI="sen.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s2",NAME="Français",LANGUAGE="fr",URI="sfr.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="a",SUBTITLES="s"
    v.m3u8
    """
  let info = try hls(text)
  #expect(info.audio.map(\.language) == ["en"])
  #expect(info.subtitles.map(\.language) == ["en"])
}

@Test func muxedAudioHasNoBitRateOfItsOwn() throws {
  // The representation's bandwidth is the video and audio together.
  let text = """
    <MPD type="static" mediaPresentationDuration="PT30S"><Period>
      <AdaptationSet mimeType="video/mp4" lang="en">
        <Representation id="v1" codecs="avc1.64001f,mp4a.40.2" bandwidth="5000000"/>
      </AdaptationSet>
    </Period></MPD>
    """
  let info = try dash(text)
  #expect(info.audio.map(\.codec) == ["aac"])
  #expect(info.audio.first?.bitRate == nil)
}

/// A multivariant playlist whose session key has `method`.
private func sessionKeyed(_ method: String) -> String {
  """
  #EXTM3U
  #EXT-X-SESSION-KEY:METHOD=\(method),URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery"
  #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",CHANNELS="2",URI="en.m3u8"
  #EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="a"
  v.m3u8
  """
}

@Test(arguments: [("SAMPLE-AES", false), ("AES-128", true)])
func sessionKeysMakeTheAudioEncrypted(method: String, decodable: Bool) throws {
  let info = try hls(sessionKeyed(method))
  #expect(info.audio.map(\.encrypted) == [true])
  #expect(info.audio.map(\.decodable) == [decodable])
  // METHOD=NONE says there is no key.
  #expect(try hls(sessionKeyed("NONE")).audio.map(\.encrypted) == [false])
}

@Test func aSetWithoutARepresentationIsNoTrack() throws {
  // An empty set (the schema asks for one Representation at least; an xlink'd set this reader
  // does not follow has none) has nothing to play: it is not listed, it leads no switching
  // group and its captions are not listed either.
  let info = try dash(
    """
    <MPD type="static" mediaPresentationDuration="PT10S"><Period>
      <AdaptationSet id="1" contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="de">
        <SupplementalProperty schemeIdUri="urn:mpeg:dash:adaptation-set-switching:2016" value="2"/>
      </AdaptationSet>
      <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en">
        <SupplementalProperty schemeIdUri="urn:mpeg:dash:adaptation-set-switching:2016" value="1"/>
        <Representation id="a" bandwidth="128000"/>
      </AdaptationSet>
      <AdaptationSet contentType="text" mimeType="text/vtt" lang="fr"/>
      <AdaptationSet contentType="video" mimeType="video/mp4" codecs="avc1.64001f">
        <Accessibility schemeIdUri="urn:scte:dash:cc:cea-608:2015" value="CC1=eng"/>
      </AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.audio.map(\.language) == ["en"])
  #expect(info.audio.first?.bitRate == 128000)
  #expect(info.subtitles.isEmpty)
}

/// A set whose representations state different sampling rates has no one rate: which one
/// plays is the player's choice, so the track's rate is unknown rather than the first's paired
/// with another's bit rate. A rate the set states, or one all its representations share, is
/// kept.
@Test(arguments: [
  (
    #"<Representation id="lo" bandwidth="64000" audioSamplingRate="32000"/><Representation id="hi" bandwidth="96000" audioSamplingRate="24000"/>"#,
    ""
  ),
  (
    #"<Representation id="lo" bandwidth="64000" audioSamplingRate="24000"/><Representation id="hi" bandwidth="96000" audioSamplingRate="24000"/>"#,
    "24000"
  ),
  (
    #"<Representation id="lo" bandwidth="64000"/><Representation id="hi" bandwidth="96000" audioSamplingRate="32000"/>"#,
    "32000"
  ),
])
func representationsOfDifferentRatesLeaveTheRateUnknown(
  representations: String, expected: String
) throws {
  let text = """
    <MPD type="static" mediaPresentationDuration="PT8S"><Period>
    <AdaptationSet mimeType="audio/mp4" codecs="mp4a.40.2" lang="fr">\(representations)
    </AdaptationSet></Period></MPD>
    """
  let info = try dash(text)
  #expect(info.audio.count == 1)
  #expect(info.audio.first.map { String($0.sampleRate) } == (expected.isEmpty ? "0" : expected))
  #expect(info.audio.first?.bitRate == 96_000)
}

@Test func aSetsOwnRateIsItsRate() throws {
  let info = try dash(
    """
    <MPD type="static"><Period><AdaptationSet mimeType="audio/mp4" codecs="mp4a.40.2"
    audioSamplingRate="22050"><Representation id="a" bandwidth="32000"/></AdaptationSet>
    </Period></MPD>
    """)
  #expect(info.audio.first?.sampleRate == 22050)
}

/// A set whose representations state different channel counts has no one count, as for rates:
/// the track's channels are unknown rather than the first representation's. A configuration
/// the set states, or one count all its representations share (under any scheme), is kept.
@Test(arguments: [
  (
    #"<Representation id="st" bandwidth="64000"><AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/></Representation><Representation id="mc" bandwidth="96000"><AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="6"/></Representation>"#,
    0
  ),
  (
    #"<Representation id="st" bandwidth="64000"><AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/></Representation><Representation id="mc" bandwidth="96000"><AudioChannelConfiguration schemeIdUri="urn:mpeg:mpegB:cicp:ChannelConfiguration" value="2"/></Representation>"#,
    2
  ),
  (
    #"<Representation id="st" bandwidth="64000"/><Representation id="mc" bandwidth="96000"><AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="6"/></Representation>"#,
    6
  ),
  (
    #"<AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="6"/><Representation id="st" bandwidth="64000"><AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/></Representation>"#,
    6
  ),
])
func representationsOfDifferentChannelCountsLeaveTheCountUnknown(
  content: String, expected: Int
) throws {
  let text = """
    <MPD type="static" mediaPresentationDuration="PT8S"><Period>
    <AdaptationSet mimeType="audio/mp4" codecs="mp4a.40.2" lang="fr">\(content)
    </AdaptationSet></Period></MPD>
    """
  let parsed = try DASHManifest(bytes: Array(text.utf8))
  #expect(parsed.adaptationSets.first?.channelCountsDiffer == (expected == 0))
  let info = try dash(text)
  #expect(info.audio.count == 1)
  #expect(info.audio.first?.channels == expected)
  #expect(info.audio.first?.channelLayout == [0: "", 2: "stereo", 6: "5.1"][expected])
}

/// `Tests/Fixtures/manifest-layouts/dash-per-representation`
/// (`Scripts/make-manifest-layout-fixtures.sh`): each representation's initialization segment
/// is AAC mono at 8 kHz. It fills in what the representations leave out, not a count or rate
/// they state differently (it is only the first representation's).
@Test func anInitializationSegmentDoesNotDecideWhatRepresentationsStateDifferently() throws {
  let info = try MediaProbe.probe(
    path: fixtures + "/manifest-layouts/dash-per-representation/manifest.mpd")
  #expect(info.audio.map(\.language) == ["en", "fr", "de"])
  // English: stereo and 5.1 representations; the set's rate.
  #expect(info.audio.map(\.channels) == [0, 2, 2])
  // German: 48 kHz and 44.1 kHz representations.
  #expect(info.audio.map(\.sampleRate) == [48000, 48000, 0])
  #expect(info.audio.map(\.bitRate) == [384_000, 128_000, 192_000])
}
