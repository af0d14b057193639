/// Language tags: ISO 639-2 codes from media containers to BCP-47 tags.
public enum LanguageTag {
  /// Turns a container's language tag into a BCP-47 tag, or `nil` when there is none.
  ///
  /// - ISO 639-2 codes (bibliographic `/B` and terminologic `/T` forms alike) that have an
  ///   ISO 639-1 code become that code: `fre` and `fra` → `fr`, `ger` and `deu` → `de`,
  ///   `eng` → `en`.
  /// - Other three-letter codes stay as they are, lowercased (`fil`, `yue`), which BCP-47 allows.
  /// - BCP-47 tags get canonical case (`EN-us` → `en-US`, `zh-hant` → `zh-Hant`), and their
  ///   first subtag is mapped as above (`eng-US` → `en-US`). The withdrawn ISO 639-1 codes
  ///   `iw`, `in` and `ji` become `he`, `id` and `yi`.
  /// - A comma-separated list (as MPEG-TS gives a stream with several languages) gives its first
  ///   tag: `eng,fre` → `en`.
  /// - A language's English name instead of a tag (`English`, as some manifests write it) gives
  ///   its code (`en`).
  /// - `und` (undetermined), an empty tag, and text that is not a language tag give `nil`.
  ///
  /// - Parameter raw: The tag as the container stores it, for example `"fre"`.
  /// - Complexity: O(*n*) in the length of `raw`.
  public static func bcp47(_ raw: String?) -> String? {
    guard let raw else { return nil }
    // MPEG-TS gives every language of a multi-language stream, comma-separated: the first is
    // the stream's.
    let first = raw.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let trimmed = first.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\0" })
      .joined()
    let subtags = trimmed.split(separator: "-", omittingEmptySubsequences: false)
      .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
    guard let first = subtags.first, first.count >= 2, first.utf8.allSatisfy({ isLetter($0) })
    else { return nil }
    // No primary language subtag is longer than three letters (four are reserved, and none of
    // five to eight is registered): a longer word is a language's English name, as packagers
    // write `lang="English"`, or nothing.
    guard first.count <= 3 else {
      return subtags.count == 1 ? codesByEnglishName[first.lowercased()] : nil
    }
    var language = first.lowercased()
    if language == "und" { return nil }
    if language.count == 3, let short = isoAlpha3ToAlpha2[language] { language = short }
    switch language {
    case "iw": language = "he"
    case "in": language = "id"
    case "ji": language = "yi"
    default: break
    }
    var parts = [language]
    for subtag in subtags.dropFirst() {
      guard !subtag.isEmpty, subtag.count <= 8,
        subtag.utf8.allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) })
      else { return nil }
      if subtag.count == 4 && subtag.utf8.allSatisfy({ isLetter($0) }) {
        parts.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())
      } else if subtag.count == 2 {
        parts.append(subtag.uppercased())
      } else {
        parts.append(subtag.lowercased())
      }
    }
    return parts.joined(separator: "-")
  }

  /// The primary language subtag of a BCP-47 tag: `en` for `en-US`.
  ///
  /// - Parameter tag: A BCP-47 tag.
  public static func base(of tag: String) -> String {
    String(tag.prefix { $0 != "-" }).lowercased()
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
  }

  /// The ISO 639-1 code of each language by its English name, lowercased (`"english"`: `en`).
  static let codesByEnglishName: [String: String] = Dictionary(
    LabelLocale.englishNames.map { ($0.value.lowercased(), $0.key) },
    uniquingKeysWith: { first, _ in first })

  /// Every ISO 639-2 code (both /B and /T forms) that has an ISO 639-1 code.
  static let isoAlpha3ToAlpha2: [String: String] = [
    "aar": "aa", "abk": "ab", "afr": "af", "aka": "ak", "alb": "sq", "amh": "am", "ara": "ar",
    "arg": "an", "arm": "hy", "asm": "as", "ava": "av", "ave": "ae", "aym": "ay", "aze": "az",
    "bak": "ba", "bam": "bm", "baq": "eu", "bel": "be", "ben": "bn", "bih": "bh", "bis": "bi",
    "bod": "bo", "bos": "bs", "bre": "br", "bul": "bg", "bur": "my", "cat": "ca", "ces": "cs",
    "cha": "ch", "che": "ce", "chi": "zh", "chu": "cu", "chv": "cv", "cor": "kw", "cos": "co",
    "cre": "cr", "cym": "cy", "cze": "cs", "dan": "da", "deu": "de", "div": "dv", "dut": "nl",
    "dzo": "dz", "ell": "el", "eng": "en", "epo": "eo", "est": "et", "eus": "eu", "ewe": "ee",
    "fao": "fo", "fas": "fa", "fij": "fj", "fin": "fi", "fra": "fr", "fre": "fr", "fry": "fy",
    "ful": "ff", "geo": "ka", "ger": "de", "gla": "gd", "gle": "ga", "glg": "gl", "glv": "gv",
    "gre": "el", "grn": "gn", "guj": "gu", "hat": "ht", "hau": "ha", "heb": "he", "her": "hz",
    "hin": "hi", "hmo": "ho", "hrv": "hr", "hun": "hu", "hye": "hy", "ibo": "ig", "ice": "is",
    "ido": "io", "iii": "ii", "iku": "iu", "ile": "ie", "ina": "ia", "ind": "id", "ipk": "ik",
    "isl": "is", "ita": "it", "jav": "jv", "jpn": "ja", "kal": "kl", "kan": "kn", "kas": "ks",
    "kat": "ka", "kau": "kr", "kaz": "kk", "khm": "km", "kik": "ki", "kin": "rw", "kir": "ky",
    "kom": "kv", "kon": "kg", "kor": "ko", "kua": "kj", "kur": "ku", "lao": "lo", "lat": "la",
    "lav": "lv", "lim": "li", "lin": "ln", "lit": "lt", "ltz": "lb", "lub": "lu", "lug": "lg",
    "mac": "mk", "mah": "mh", "mal": "ml", "mao": "mi", "mar": "mr", "may": "ms", "mkd": "mk",
    "mlg": "mg", "mlt": "mt", "mon": "mn", "mri": "mi", "msa": "ms", "mya": "my", "nau": "na",
    "nav": "nv", "nbl": "nr", "nde": "nd", "ndo": "ng", "nep": "ne", "nld": "nl", "nno": "nn",
    "nob": "nb", "nor": "no", "nya": "ny", "oci": "oc", "oji": "oj", "ori": "or", "orm": "om",
    "oss": "os", "pan": "pa", "per": "fa", "pli": "pi", "pol": "pl", "por": "pt", "pus": "ps",
    "que": "qu", "roh": "rm", "ron": "ro", "rum": "ro", "run": "rn", "rus": "ru", "sag": "sg",
    "san": "sa", "sin": "si", "slk": "sk", "slo": "sk", "slv": "sl", "sme": "se", "smo": "sm",
    "sna": "sn", "snd": "sd", "som": "so", "sot": "st", "spa": "es", "sqi": "sq", "srd": "sc",
    "srp": "sr", "ssw": "ss", "sun": "su", "swa": "sw", "swe": "sv", "tah": "ty", "tam": "ta",
    "tat": "tt", "tel": "te", "tgk": "tg", "tgl": "tl", "tha": "th", "tib": "bo", "tir": "ti",
    "ton": "to", "tsn": "tn", "tso": "ts", "tuk": "tk", "tur": "tr", "twi": "tw", "uig": "ug",
    "ukr": "uk", "urd": "ur", "uzb": "uz", "ven": "ve", "vie": "vi", "vol": "vo", "wel": "cy",
    "wln": "wa", "wol": "wo", "xho": "xh", "yid": "yi", "yor": "yo", "zha": "za", "zho": "zh",
    "zul": "zu",
  ]
}
