import MediaTracks
import Testing

private func audio(
  _ index: Int, _ language: String?, channels: Int = 2, layout: String = "stereo",
  title: String? = nil, _ dispositions: [String] = [], codec: String = "aac"
) -> AudioTrack {
  AudioTrack(
    index: index, codec: codec, sampleRate: 48000, channels: channels, channelLayout: layout,
    language: LanguageTag.bcp47(language), languageTag: language, title: title,
    dispositions: dispositions)
}

private func subtitle(
  _ index: Int, _ language: String?, title: String? = nil, _ dispositions: [String] = [],
  codec: String = "subrip"
) -> SubtitleTrack {
  SubtitleTrack(
    index: index, codec: codec, language: LanguageTag.bcp47(language), languageTag: language,
    title: title, dispositions: dispositions)
}

private func pick(_ tracks: [AudioTrack], _ preferences: TrackPreferences) -> Int? {
  var classified = tracks
  TrackKinds.classify(&classified)
  return TrackSelection.defaultAudio(in: classified, preferences: preferences)?.index
}

private func labels(_ tracks: [AudioTrack]) -> [String] {
  var classified = tracks
  TrackKinds.classify(&classified)
  TrackLabeler().label(&classified)
  return classified.map(\.label)
}

// MARK: Language tags

@Test(arguments: [
  ("eng", "en"), ("fre", "fr"), ("fra", "fr"), ("ger", "de"), ("deu", "de"), ("chi", "zh"),
  ("zho", "zh"), ("dut", "nl"), ("EN-us", "en-US"), ("zh-hant-tw", "zh-Hant-TW"), ("iw", "he"),
  ("fil", "fil"), ("es-419", "es-419"), ("pt_BR", "pt-BR"), ("eng-US", "en-US"),
])
func languageTagsBecomeBCP47(raw: String, expected: String) {
  #expect(LanguageTag.bcp47(raw) == expected)
}

@Test func multiLanguageStreamsTakeTheirFirstLanguage() {
  // MPEG-TS joins the languages of one stream with commas.
  #expect(LanguageTag.bcp47("eng,fre") == "en")
  #expect(LanguageTag.bcp47("und,fre") == nil)
}

@Test(arguments: [("English", "en"), ("french", "fr"), ("GERMAN", "de"), ("Norwegian", "no")])
func aLanguagesEnglishNameBecomesItsCode(raw: String, expected: String) {
  // Some manifests write lang="English"; no primary language subtag is so long.
  #expect(LanguageTag.bcp47(raw) == expected)
}

@Test(arguments: [
  "und", "", "  ", "1234", "e", "en--US", "toolonglanguage", "Klingonese", "engl", "English-US",
])
func undeterminedOrBogusTagsAreNil(raw: String) {
  #expect(LanguageTag.bcp47(raw) == nil)
}

@Test func everyTwoLetterCodeHasAnEnglishName() {
  for code in Set(["en", "fr", "de", "es", "it", "ja", "ko", "zh", "ru", "pt", "ar", "hi"]) {
    #expect(LabelLocale.english.languageName(for: code) != code)
  }
  #expect(LabelLocale.english.languageName(for: "pt-BR") == "Portuguese (Brazil)")
  #expect(LabelLocale.english.languageName(for: "en-NZ") == "English")
  #expect(LabelLocale.english.languageName(for: "tlh") == "tlh")
}

// MARK: Kinds

@Test func audioKindsFollowDispositionsAndTitles() {
  var tracks = [
    audio(0, "eng", ["default"]), audio(1, "eng"), audio(2, "eng", ["comment"]),
    audio(3, "eng", ["visual_impaired"]), audio(4, "fre", ["dub"]),
    audio(5, "eng", title: "Audio Description"), audio(6, "spa", ["descriptions", "dependent"]),
    audio(7, "ita", title: "Commentary by the cast"),
  ]
  TrackKinds.classify(&tracks)
  #expect(
    tracks.map(\.kind) == [
      .main, .alternative, .commentary, .mainDescriptions, .translation, .mainDescriptions,
      .descriptions, .commentary,
    ])
}

@Test func defaultFlagMakesTheMainTrackOfALanguage() {
  var tracks = [audio(0, "eng"), audio(1, "eng", ["default"]), audio(2, "fre")]
  TrackKinds.classify(&tracks)
  #expect(tracks.map(\.kind) == [.alternative, .main, .main])
}

@Test func subtitleKinds() {
  var tracks = [
    subtitle(0, "eng"), subtitle(1, "eng", ["hearing_impaired"]), subtitle(2, "eng", title: "SDH"),
    subtitle(3, "eng", ["descriptions"]), subtitle(4, "eng", ["metadata"]),
    subtitle(5, "eng", ["forced"]), subtitle(6, "eng", title: "Chapters"),
  ]
  TrackKinds.classify(&tracks)
  #expect(
    tracks.map(\.kind) == [
      .subtitles, .captions, .captions, .descriptions, .metadata, .subtitles, .chapters,
    ])
}

// MARK: Labels

@Test func labelsAreReadable() {
  #expect(
    labels([
      audio(0, "eng", channels: 6, layout: "5.1", ["default"]),
      audio(1, "fre", ["visual_impaired"]),
      audio(2, "spa", title: "Director's Commentary", ["comment"]),
    ]) == [
      "English", "French \u{2013} Audio Description",
      "Spanish \u{2013} Commentary (Director's Commentary)",
    ])
}

@Test func labelsDisambiguateByLayoutThenTitleThenCodecThenNumber() {
  #expect(
    labels([audio(0, "eng", channels: 6, layout: "5.1"), audio(1, "eng")]) == [
      "English (5.1)", "English (stereo)",
    ])
  #expect(
    labels([audio(0, "eng", title: "Theatrical"), audio(1, "eng", title: "Extended")]) == [
      "English (Theatrical)", "English (Extended)",
    ])
  #expect(
    labels([audio(0, "eng", codec: "ac3"), audio(1, "eng", codec: "aac")]) == [
      "English (ac3)", "English (aac)",
    ])
  #expect(
    labels([audio(0, "eng"), audio(1, "eng"), audio(2, "fre")]) == [
      "English (Track 1)", "English (Track 2)", "French",
    ])
  #expect(labels([audio(0, nil), audio(1, nil, title: "Music")]) == ["Unknown language", "Music"])
  // A mix for the hard of hearing says so before anything else tells it apart.
  #expect(
    labels([
      audio(0, "eng"), audio(1, "eng", ["hearing_impaired"]),
      audio(2, "eng", channels: 6, layout: "5.1"),
    ]) == [
      "English (stereo)", "English (Hard of Hearing)", "English (5.1)",
    ])
}

@Test func labelsAreAlwaysUnique() {
  let tracks = [
    audio(0, "eng"), audio(1, "eng"), audio(2, nil, title: "English (Track 1)"),
    audio(3, "eng", ["comment"]), audio(4, "eng", ["comment"]),
  ]
  let result = labels(tracks)
  #expect(Set(result).count == tracks.count, "\(result)")
}

@Test func subtitleLabels() {
  var tracks = [
    subtitle(0, "eng"), subtitle(1, "eng", ["forced"]), subtitle(2, "eng", ["hearing_impaired"]),
    subtitle(3, "fre", codec: "subrip"), subtitle(4, "fre", codec: "ass"),
  ]
  TrackKinds.classify(&tracks)
  TrackLabeler().label(&tracks)
  #expect(
    tracks.map(\.label) == [
      "English", "English \u{2013} Forced", "English \u{2013} SDH", "French (subrip)",
      "French (ass)",
    ])
}

@Test func otherLocalesPlugIn() {
  let german = LabelLocale(
    languageNames: ["en": "Englisch", "fr": "Franz\u{f6}sisch"], commentary: "Kommentar",
    audioDescription: "Audiodeskription", captions: "SDH", forced: "Erzwungen",
    descriptions: "Beschreibungen", unknownLanguage: "Unbekannt", track: "Spur")
  var tracks = [audio(0, "eng"), audio(1, "fre", ["comment"]), audio(2, "ita")]
  TrackKinds.classify(&tracks)
  TrackLabeler(locale: german).label(&tracks)
  #expect(
    tracks.map(\.label) == ["Englisch", "Franz\u{f6}sisch \u{2013} Kommentar", "Italian"])
}

// MARK: Default audio

@Test func exactLanguageBeatsBaseLanguageBeatsDefaultFlag() {
  let tracks = [audio(0, "fre", ["default"]), audio(1, "en-GB"), audio(2, "en-US")]
  #expect(pick(tracks, TrackPreferences(languages: ["en-US"])) == 2)
  #expect(pick(tracks, TrackPreferences(languages: ["en-AU"])) == 1)
  #expect(pick(tracks, TrackPreferences(languages: ["de"])) == 0)
  #expect(pick(tracks, TrackPreferences()) == 0)
}

@Test func earlierPreferenceWinsOverExactnessOfALaterOne() {
  let tracks = [audio(0, "fr-FR"), audio(1, "en-GB")]
  #expect(pick(tracks, TrackPreferences(languages: ["en-US", "fr-FR"])) == 1)
}

@Test func threeLetterPreferencesWork() {
  #expect(pick([audio(0, "eng"), audio(1, "ger")], TrackPreferences(languages: ["deu"])) == 1)
}

@Test func commentaryAndDescriptionsOnlyWhenAsked() {
  let tracks = [
    audio(0, "eng", ["comment", "default"]), audio(1, "eng", ["visual_impaired"]),
    audio(2, "eng"),
  ]
  #expect(pick(tracks, TrackPreferences(languages: ["en"])) == 2)
  #expect(pick(tracks, TrackPreferences(languages: ["en"], audioDescription: true)) == 1)
  #expect(pick(tracks, TrackPreferences(languages: ["en"], commentary: true)) == 0)
  // A main track in another language still beats commentary in the preferred one.
  let foreign = [audio(0, "eng", ["comment"]), audio(1, "fre")]
  #expect(pick(foreign, TrackPreferences(languages: ["en"])) == 1)
  // Only special tracks: one is still chosen.
  #expect(pick([audio(0, "eng", ["comment"])], TrackPreferences(languages: ["fr"])) == 0)
}

@Test func tiesGoToMoreChannelsThenStreamOrder() {
  let tracks = [
    audio(0, "fre"), audio(1, "eng", ["dub"]), audio(2, "eng", channels: 6, layout: "5.1", ["dub"]),
    audio(3, "eng", channels: 6, layout: "5.1", ["dub"]),
  ]
  #expect(pick(tracks, TrackPreferences(languages: ["en"])) == 2)
}

@Test func defaultFlagBreaksTiesWithinALanguage() {
  let tracks = [audio(0, "eng", channels: 6, layout: "5.1"), audio(1, "eng", ["default"])]
  #expect(pick(tracks, TrackPreferences(languages: ["en"])) == 1)
}

@Test func noAudioPicksNothing() {
  #expect(pick([], TrackPreferences(languages: ["en"])) == nil)
}

// MARK: Default subtitles

private func pickSubtitle(
  _ tracks: [SubtitleTrack], audioLanguage: String?, _ preferences: TrackPreferences
) -> Int? {
  var classified = tracks
  TrackKinds.classify(&classified)
  let chosen = audio(0, audioLanguage)
  return TrackSelection.defaultSubtitle(in: classified, audio: chosen, preferences: preferences)?
    .index
}

@Test func understoodAudioGetsOnlyForcedSubtitles() {
  let tracks = [subtitle(0, "eng"), subtitle(1, "eng", ["forced"]), subtitle(2, "fre")]
  #expect(pickSubtitle(tracks, audioLanguage: "eng", TrackPreferences(languages: ["en"])) == 1)
  #expect(
    pickSubtitle([subtitle(0, "eng")], audioLanguage: "eng", TrackPreferences(languages: ["en"]))
      == nil)
  // A second preferred language counts as understood too.
  #expect(
    pickSubtitle(tracks, audioLanguage: "fre", TrackPreferences(languages: ["en", "fr"])) == nil)
}

@Test func foreignAudioGetsFullSubtitlesInThePreferredLanguage() {
  let tracks = [
    subtitle(0, "eng", ["forced"]), subtitle(1, "ger", ["hearing_impaired"]), subtitle(2, "ger"),
    subtitle(3, "eng"),
  ]
  #expect(pickSubtitle(tracks, audioLanguage: "eng", TrackPreferences(languages: ["de"])) == 2)
  #expect(
    pickSubtitle(tracks, audioLanguage: "jpn", TrackPreferences(languages: ["fr", "en"])) == 3)
  // Nothing in a preferred language: the forced track in the audio's language.
  #expect(pickSubtitle(tracks, audioLanguage: "eng", TrackPreferences(languages: ["it"])) == 0)
}

@Test func captionsPreferenceAndModes() {
  let tracks = [subtitle(0, "eng"), subtitle(1, "eng", ["hearing_impaired"]), subtitle(2, "fre")]
  #expect(
    pickSubtitle(tracks, audioLanguage: "eng", TrackPreferences(languages: ["en"], captions: true))
      == 1)
  #expect(
    pickSubtitle(tracks, audioLanguage: "fre", TrackPreferences(languages: ["de"], subtitles: .off))
      == nil)
  #expect(
    pickSubtitle(
      tracks, audioLanguage: "eng", TrackPreferences(languages: ["fr"], subtitles: .always)) == 2)
  #expect(
    pickSubtitle(
      tracks, audioLanguage: "eng", TrackPreferences(languages: ["en"], subtitles: .always)) == 0)
}

@Test func withoutPreferencesForcedThenDefaultFlag() {
  #expect(
    pickSubtitle(
      [subtitle(0, "eng", ["default"]), subtitle(1, "fre", ["forced"])], audioLanguage: "fre",
      TrackPreferences()) == 1)
  #expect(
    pickSubtitle(
      [subtitle(0, "eng"), subtitle(1, "fre", ["default"])], audioLanguage: "eng",
      TrackPreferences()) == 1)
  #expect(pickSubtitle([subtitle(0, "eng")], audioLanguage: "eng", TrackPreferences()) == nil)
}

@Test func channelLayoutNamesAreClean() throws {
  // Through the real probe: Opus 5.1 in Matroska is "5.1", not "5.1(side)" or "6 channels".
  let info = try MediaProbe.probe(path: fixtures + "/multitrack.mkv")
  #expect(info.audio.map(\.channelLayout) == ["stereo", "5.1", "stereo"])
}

@Test func labelsStayUniqueWhenTitlesMimicQualifiers() {
  // A title that reads like another track's label with its stream index.
  let result = labels([
    audio(0, nil, channels: 1, layout: "mono", title: "English (Track 1) [1]"),
    audio(1, "eng", channels: 1, layout: "mono"), audio(2, "eng", channels: 1, layout: "mono"),
    audio(3, nil, channels: 1, layout: "mono", title: "English (Track 1)"),
  ])
  #expect(Set(result).count == result.count, "\(result)")
}

@Test func titlesWithLineBreaksAndControlsMakeOneLineLabels() {
  let result = labels([
    audio(0, "eng", title: "Director's\n  Commentary\u{1B}]0;x\u{07}", ["comment"]),
    audio(1, nil, title: "\tMystery\r\nTrack "),
  ])
  #expect(result == ["English – Commentary (Director's Commentary ]0;x)", "Mystery Track"])
}

@Test func manyTracksOfOneLanguageAreClassifiedInLinearTime() {
  // 20,000 tracks: the per-language grouping used to rescan every track for each track.
  var tracks = (0..<20_000).map { audio($0, $0 % 2 == 0 ? "en" : "fr") }
  tracks[5] = audio(5, "fr", ["default"])
  TrackKinds.classify(&tracks)
  #expect(tracks.filter { $0.kind == .main }.map(\.index) == [0, 5])
}
