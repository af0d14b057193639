/// The languages whose text the single-byte code pages carry, as the detection of a code page
/// (`TextEncoding+Detection.swift`) models them: how often each letter outside ASCII occurs, how
/// often such a letter follows another, and which code pages write the language.
///
/// The letter frequencies are published counts (letters per 10,000 letters of running text,
/// rounded; accented letters counted apart from their base letters), not measured here.
struct LanguageProfile: Sendable {
  /// The language's name (ISO 639-1), for tests.
  var name: String
  /// The code pages the language is written in, most common first.
  var encodings: [TextEncoding]
  /// Each non-ASCII letter (lower case) and its count per 10,000 letters of text.
  var letters: [(scalar: UInt32, count: Double)]
  /// The share of non-ASCII characters that follow another non-ASCII character: high in
  /// scripts written wholly outside ASCII (Cyrillic, Greek), low where accented letters sit
  /// between ASCII ones.
  var runRate: Double
  /// The share of non-ASCII characters that are punctuation (quotes, dashes, ellipses, …)
  /// rather than letters.
  var punctuationShare: Double
  /// The log-probability (nats) that a subtitle file not in UTF-8 is in this language rather
  /// than another of its code page: 0, less for languages few subtitles are written in.
  var prior: Double

  /// A profile from `table`: space-separated entries of a letter followed by its count.
  init(
    _ name: String, _ encodings: [TextEncoding], run: Double, punctuation: Double,
    prior: Double = 0, _ table: String
  ) {
    self.prior = prior
    self.name = name
    self.encodings = encodings
    self.runRate = run
    self.punctuationShare = punctuation
    var letters: [(UInt32, Double)] = []
    for entry in table.split(separator: " ") {
      guard let first = entry.unicodeScalars.first,
        let count = Double(String(entry.unicodeScalars.dropFirst()))
      else { continue }
      letters.append((first.value, count))
    }
    self.letters = letters
  }

  static let cyrillic: [TextEncoding] = [.windows1251, .koi8R, .isoCyrillic]
  static let central: [TextEncoding] = [.windows1250, .isoLatin2]

  /// The modelled languages.
  static let all: [LanguageProfile] = [
    // Western European (windows-1252). English has no letters outside ASCII: what it has there
    // is punctuation.
    LanguageProfile("en", [.windows1252], run: 0.1, punctuation: 1, ""),
    LanguageProfile(
      "fr", [.windows1252], run: 0.03, punctuation: 0.3,
      "é190 è27 ê22 à49 â5 ç9 ù6 û6 î5 ï1 ô6 ë1 œ2"),
    LanguageProfile("de", [.windows1252], run: 0.02, punctuation: 0.3, "ä58 ö44 ü99 ß31 é2"),
    LanguageProfile(
      "es", [.windows1252], run: 0.03, punctuation: 0.3, "á50 é43 í72 ó83 ú17 ñ31 ü1"),
    LanguageProfile(
      "pt", [.windows1252], run: 0.08, punctuation: 0.3,
      "ã73 á45 é34 í13 ó25 ú10 ç53 â20 ê30 ô15 à7 õ10"),
    LanguageProfile("it", [.windows1252], run: 0.02, punctuation: 0.3, "à63 è26 é5 ì3 ò10 ù17"),
    LanguageProfile(
      "ca", [.windows1252], run: 0.03, punctuation: 0.3,
      "à50 è40 é30 í50 ï10 ò20 ó40 ú10 ü2 ç7"),
    LanguageProfile(
      "nl", [.windows1252], run: 0.02, punctuation: 0.3, "é20 ë10 ï3 è3 ö2 ü1 á1 ó1 ê1"),
    LanguageProfile("sv", [.windows1252], run: 0.03, punctuation: 0.3, "å134 ä180 ö131 é5"),
    LanguageProfile("da", [.windows1252], run: 0.03, punctuation: 0.3, "æ87 ø94 å120 é2"),
    LanguageProfile("fi", [.windows1252], run: 0.05, punctuation: 0.3, "ä360 ö44 å1 š1 ž1"),
    LanguageProfile(
      "is", [.windows1252], run: 0.1, punctuation: 0.1, prior: -3,
      "á180 é65 í157 ó99 ú64 ý90 ð440 þ145 æ87 ö78"),
    // Central European (windows-1250, ISO-8859-2).
    LanguageProfile(
      "pl", central, run: 0.1, punctuation: 0.1, "ą99 ć40 ę111 ł182 ń20 ó85 ś66 ź6 ż83"),
    LanguageProfile(
      "cs", central, run: 0.15, punctuation: 0.1,
      "á87 č46 ď2 é63 ě122 í164 ň3 ó2 ř38 š69 ť2 ú5 ů20 ý100 ž72"),
    LanguageProfile(
      "sk", central, run: 0.12, punctuation: 0.1,
      "á210 ä7 č90 ď10 é60 í140 ĺ1 ľ40 ň10 ó20 ô20 ŕ1 š80 ť40 ú70 ý120 ž70"),
    LanguageProfile(
      "hu", central, run: 0.1, punctuation: 0.1, "á340 é390 í60 ó100 ö100 ő90 ú30 ü60 ű20"),
    LanguageProfile("ro", central, run: 0.05, punctuation: 0.1, "ă250 â60 î100 ş120 ţ100"),
    LanguageProfile("hr", central, run: 0.05, punctuation: 0.1, "č110 ć90 đ30 š110 ž70"),
    LanguageProfile("sl", central, run: 0.05, punctuation: 0.1, "č150 š100 ž80"),
    // Turkish (windows-1254); İ is its own letter (its lower case is the ASCII i).
    LanguageProfile(
      "tr", [.windows1254], run: 0.1, punctuation: 0.1,
      "ç115 ğ112 ı510 ö78 ş178 ü185 â5 î1 û1 İ20"),
    // Cyrillic (windows-1251, KOI8-R, ISO-8859-5).
    LanguageProfile(
      "ru", cyrillic, run: 0.8, punctuation: 0.03,
      "о1097 е845 а801 и735 н670 т626 с547 р473 в454 л440 к349 м321 д298 п281 у262 я201 ы190"
        + " ь174 г170 з165 б159 ч144 й121 х97 ж94 ш73 ю64 ц48 щ36 э32 ф26 ъ4 ё20"),
    LanguageProfile(
      "uk", [.windows1251, .isoCyrillic], run: 0.8, punctuation: 0.03,
      "о928 а840 н650 і560 и610 в530 т510 е470 р460 с400 к360 л350 д330 у330 м310 п290 я230"
        + " з220 ь170 г150 б150 ч130 х120 й110 ж90 ї80 ц90 ш80 ю80 є80 щ60 ф30 ґ2"),
    LanguageProfile(
      "bg", [.windows1251, .isoCyrillic], run: 0.8, punctuation: 0.03,
      "а950 о880 е800 и830 н650 т720 р500 с440 в400 л310 к350 д320 п290 м290 ъ260 з180 я230"
        + " б130 г150 у120 ч120 ж70 ш60 щ70 ц90 й60 х70 ю20 ф30 ь1"),
    LanguageProfile(
      "sr", [.windows1251, .isoCyrillic], run: 0.8, punctuation: 0.03,
      "а1150 и970 о910 е860 н580 т460 с500 р480 ј440 у420 к380 д360 в340 л320 м330 п290"
        + " з180 г170 б140 ч120 ш90 ћ80 ж70 х60 ц90 њ60 љ50 ђ20 џ5 ф20"),
    LanguageProfile(
      "mk", [.windows1251, .isoCyrillic], run: 0.8, punctuation: 0.03,
      "а1100 о900 е870 и800 н600 т560 с450 р450 в400 к400 д380 л300 м300 ј300 п300 у250"
        + " з170 г160 б130 ч110 ш80 ж60 х40 ц70 њ50 љ30 ќ20 ѓ10 ѕ5 џ5 ф20"),
    LanguageProfile(
      "be", [.windows1251, .isoCyrillic], run: 0.8, punctuation: 0.03,
      "а870 н590 о590 і540 е430 р460 с420 ы300 т420 в380 л360 к350 д330 ц180 м300 п260 у260"
        + " я240 ў180 з180 г140 б140 ь150 ч140 й110 х90 ж70 ш70 ю50 э40 ф20 ё80"),
    // Greek (windows-1253, ISO-8859-7).
    LanguageProfile(
      "el", [.windows1253, .isoGreek], run: 0.8, punctuation: 0.03,
      "α1000 ά180 β80 γ180 δ170 ε750 έ140 ζ40 η450 ή120 θ130 ι750 ί170 ϊ10 ΐ5 κ400 λ280 μ330"
        + " ν660 ξ50 ο850 ό180 π400 ρ440 σ420 ς280 τ800 υ400 ύ80 ϋ2 ΰ2 φ80 χ110 ψ15 ω130 ώ60"),
  ]
}
