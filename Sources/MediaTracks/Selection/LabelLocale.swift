/// The words a track label is made of, in one language: language names and the few phrases
/// labels add. English is built in (``english``).
///
/// To label tracks in another language, build a `LabelLocale` with that language's names and
/// phrases and pass it to ``TrackLabeler``:
///
/// ```swift
/// let german = LabelLocale(
///   languageNames: ["en": "Englisch", "fr": "Französisch", "de": "Deutsch"],
///   commentary: "Kommentar", audioDescription: "Audiodeskription", captions: "Untertitel für
///   Hörgeschädigte", forced: "Erzwungen", descriptions: "Beschreibungen",
///   unknownLanguage: "Unbekannt", track: "Spur")
/// ```
///
/// A tag missing from `languageNames` falls back to its primary language (`en` for `en-NZ`), then
/// to the English name, then to the tag itself.
public struct LabelLocale: Sendable, Hashable {
  /// Language names keyed by BCP-47 tag (`"en"`, `"pt-BR"`, `"yue"`).
  public var languageNames: [String: String]
  /// The word for a commentary track.
  public var commentary: String
  /// The word for an audio-description track.
  public var audioDescription: String
  /// The word for captions (subtitles for the deaf and hard of hearing).
  public var captions: String
  /// The word for forced subtitles (only foreign-language parts).
  public var forced: String
  /// The word for text descriptions of the video.
  public var descriptions: String
  /// The word for audio mixed for the hard of hearing (dialogue clearer than in the main mix:
  /// DASH's `enhanced-audio-intelligibility` role, TV-Anytime's hearing-impaired purpose), which
  /// tells such a track apart from its language's main one.
  public var hardOfHearing: String
  /// The label of a track with neither language nor title.
  public var unknownLanguage: String
  /// The word before a track number (`"Track"` in "Track 2").
  public var track: String
  /// Joins the language and the kind: `" – "` in "French – Audio Description".
  public var separator: String

  /// Creates a locale from its words.
  public init(
    languageNames: [String: String], commentary: String, audioDescription: String,
    captions: String, forced: String, descriptions: String, unknownLanguage: String,
    track: String, separator: String = " \u{2013} ", hardOfHearing: String = "Hard of Hearing"
  ) {
    self.hardOfHearing = hardOfHearing
    self.languageNames = languageNames
    self.commentary = commentary
    self.audioDescription = audioDescription
    self.captions = captions
    self.forced = forced
    self.descriptions = descriptions
    self.unknownLanguage = unknownLanguage
    self.track = track
    self.separator = separator
  }

  /// English: names of about 160 languages and regional variants.
  public static let english = LabelLocale(
    languageNames: englishNames, commentary: "Commentary", audioDescription: "Audio Description",
    captions: "SDH", forced: "Forced", descriptions: "Descriptions",
    unknownLanguage: "Unknown language", track: "Track")

  /// The name of a BCP-47 language tag in this locale.
  ///
  /// - Parameter tag: A BCP-47 tag such as `"fr"` or `"pt-BR"`.
  /// - Returns: The exact tag's name, else the primary language's, else the English name, else
  ///   the tag itself.
  public func languageName(for tag: String) -> String {
    if let name = languageNames[tag] { return name }
    let base = LanguageTag.base(of: tag)
    if let name = languageNames[base] { return name }
    if let name = LabelLocale.englishNames[tag] ?? LabelLocale.englishNames[base] { return name }
    return tag
  }

  // A data table: its rows look alike by shape only, and no helper would make it shorter.
  static let englishNames: [String: String] = [
    "af": "Afrikaans", "am": "Amharic", "ar": "Arabic", "as": "Assamese", "az": "Azerbaijani",
    "ba": "Bashkir", "be": "Belarusian", "bg": "Bulgarian", "bn": "Bengali", "bo": "Tibetan",
    "br": "Breton", "bs": "Bosnian", "ca": "Catalan", "ce": "Chechen", "co": "Corsican",
    "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "dv": "Divehi", "dz": "Dzongkha",
    "el": "Greek", "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian",
    "eu": "Basque", "fa": "Persian", "ff": "Fula", "fi": "Finnish", "fj": "Fijian",
    "fo": "Faroese", "fr": "French", "fy": "Western Frisian", "ga": "Irish",
    "gd": "Scottish Gaelic", "gl": "Galician", "gn": "Guarani", "gu": "Gujarati", "gv": "Manx",
    "ha": "Hausa", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "ht": "Haitian Creole",
    "hu": "Hungarian", "hy": "Armenian", "ia": "Interlingua", "id": "Indonesian", "ig": "Igbo",
    "is": "Icelandic", "it": "Italian", "iu": "Inuktitut", "ja": "Japanese", "jv": "Javanese",
    "ka": "Georgian", "kk": "Kazakh", "kl": "Greenlandic", "km": "Khmer", "kn": "Kannada",
    "ko": "Korean", "ks": "Kashmiri", "ku": "Kurdish", "ky": "Kyrgyz", "la": "Latin",
    "lb": "Luxembourgish", "lg": "Ganda", "ln": "Lingala", "lo": "Lao", "lt": "Lithuanian",
    "lv": "Latvian", "mg": "Malagasy", "mi": "Maori", "mk": "Macedonian", "ml": "Malayalam",
    "mn": "Mongolian", "mr": "Marathi", "ms": "Malay", "mt": "Maltese", "my": "Burmese",
    "nb": "Norwegian Bokmål", "ne": "Nepali", "nl": "Dutch", "nn": "Norwegian Nynorsk",
    "no": "Norwegian", "ny": "Chichewa", "oc": "Occitan", "om": "Oromo", "or": "Odia",
    "pa": "Punjabi", "ps": "Pashto", "pl": "Polish", "pt": "Portuguese", "qu": "Quechua",
    "rm": "Romansh", "ro": "Romanian", "ru": "Russian", "rw": "Kinyarwanda", "sa": "Sanskrit",
    "sc": "Sardinian", "sd": "Sindhi", "se": "Northern Sami", "si": "Sinhala", "sk": "Slovak",
    "sl": "Slovenian", "sm": "Samoan", "sn": "Shona", "so": "Somali", "sq": "Albanian",
    "sr": "Serbian", "st": "Southern Sotho", "su": "Sundanese", "sv": "Swedish", "sw": "Swahili",
    "ta": "Tamil", "te": "Telugu", "tg": "Tajik", "th": "Thai", "ti": "Tigrinya", "tk": "Turkmen",
    "tl": "Tagalog", "tn": "Tswana", "to": "Tongan", "tr": "Turkish", "ts": "Tsonga",
    "tt": "Tatar", "ug": "Uyghur", "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek",
    "vi": "Vietnamese", "wa": "Walloon", "wo": "Wolof", "xh": "Xhosa", "yi": "Yiddish",
    "yo": "Yoruba", "za": "Zhuang", "zh": "Chinese", "zu": "Zulu", "ast": "Asturian",
    "ceb": "Cebuano", "fil": "Filipino", "gsw": "Swiss German", "haw": "Hawaiian", "hmn": "Hmong",
    "mul": "Multiple languages", "nds": "Low German", "sco": "Scots", "yue": "Cantonese",
    "zxx": "No linguistic content", "cmn": "Mandarin", "en-US": "English (US)",
    "en-GB": "English (UK)", "en-AU": "English (Australia)", "en-CA": "English (Canada)",
    "en-IN": "English (India)", "es-419": "Spanish (Latin America)", "es-ES": "Spanish (Spain)",
    "es-MX": "Spanish (Mexico)", "fr-CA": "French (Canada)", "fr-FR": "French (France)",
    "fr-BE": "French (Belgium)", "fr-CH": "French (Switzerland)", "de-AT": "German (Austria)",
    "de-CH": "German (Switzerland)", "pt-BR": "Portuguese (Brazil)",
    "pt-PT": "Portuguese (Portugal)", "nl-BE": "Flemish", "zh-Hans": "Chinese (Simplified)",
    "zh-Hant": "Chinese (Traditional)", "zh-CN": "Chinese (China)", "zh-TW": "Chinese (Taiwan)",
    "zh-HK": "Chinese (Hong Kong)", "sr-Latn": "Serbian (Latin)", "sr-Cyrl": "Serbian (Cyrillic)",
  ]
}
