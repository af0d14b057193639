#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which single-byte code page a file that is not UTF-8 is in, told from counts of its bytes.
///
/// Each code page that can be told apart from the others is scored by how likely the text it
/// decodes to is in the best of the languages it serves (`LanguageProfile`): the letters'
/// frequencies in that language (a letter the language lacks, a symbol or a C1 control is very
/// unlikely), how often a non-ASCII character follows another (nearly always in Cyrillic and
/// Greek words, seldom in Latin ones), and two patterns that only a wrong decoding makes
/// common: a word that mixes scripts (Latin and Cyrillic letters side by side) and an upper-case
/// letter right after a lower-case one. A code page is chosen only when its score is well above
/// every other's and the text is about as likely as real text of its language; otherwise the
/// caller keeps its default (windows-1252) or refuses the file.
extension TextEncoding {
  /// Counts of the bytes a single-byte code page is to read (every non-ASCII byte of a file
  /// that is not UTF-8, or those not in valid UTF-8 sequences of a mixed one), and of the pairs
  /// they form with their neighbours.
  struct ByteCounts {
    /// The class of an ASCII lower-case letter, an ASCII upper-case letter and any other byte
    /// (ASCII non-letters, and bytes of UTF-8 sequences) in `pairs`; non-ASCII bytes are their
    /// own class, 0 to 127.
    static let lowerASCII = 128
    static let upperASCII = 129
    static let otherByte = 130
    static let classCount = 131

    /// How often each byte 0x80 to 0xFF occurs (index `byte - 0x80`).
    var bytes = [Int](repeating: 0, count: 128)
    /// How often each class follows each class (`first * classCount + second`), counted for
    /// pairs in which one or both are counted bytes.
    var pairs = [Int](repeating: 0, count: classCount * classCount)
    /// The number of bytes counted.
    var total = 0
    /// How many runs of counted bytes (bytes that follow each other) have an even length, and
    /// how many an odd one: double-byte encodings write runs of even length only.
    var evenRuns = 0
    var oddRuns = 0
    /// The length of the run being counted.
    var runLength = 0

    /// The class of an ASCII byte in `pairs`.
    @inline(__always)
    static func asciiClass(_ b: UInt8) -> Int {
      b &- 0x61 < 26 ? lowerASCII : (b &- 0x41 < 26 ? upperASCII : otherByte)
    }

    /// Ends the run being counted (call after the last byte).
    @inline(__always)
    mutating func endRun() {
      if runLength > 0 {
        if runLength & 1 == 0 { evenRuns += 1 } else { oddRuns += 1 }
      }
      runLength = 0
    }

    /// Counts byte `p[i]` (non-ASCII), whose preceding byte has class `previous`, with its
    /// pair with the next byte when that is ASCII (a non-ASCII next byte counts the pair when
    /// it is counted itself).
    @inline(__always)
    mutating func add(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, previous: Int) {
      let h = Int(p[i] &- 0x80)
      bytes[h] += 1
      total += 1
      if previous < 128 {
        runLength += 1
      } else {
        endRun()
        runLength = 1
      }
      pairs[previous &* ByteCounts.classCount &+ h] += 1
      if i + 1 < n && p[i + 1] < 0x80 {
        pairs[h &* ByteCounts.classCount &+ ByteCounts.asciiClass(p[i + 1])] += 1
      }
    }
  }

  /// The code pages detection chooses among, in order of preference when two read a file's
  /// bytes alike. ISO-8859-1 and -15 are left out: windows-1252 reads their text alike but for
  /// a few rare signs.
  static let detectable: [TextEncoding] = [
    .windows1252, .windows1250, .windows1251, .windows1253, .windows1254, .isoLatin2, .koi8R,
    .isoCyrillic, .isoGreek,
  ]

  /// The single-byte code page `counts` are best read in, or nil when none is clearly best or
  /// the best does not read as real text.
  ///
  /// - Complexity: O(1): a fixed amount of work on the counts, whatever the file's size.
  static func detectCodePage(_ counts: ByteCounts) -> TextEncoding? {
    let scores = codePageScores(counts)
    guard var best = scores.first, best.plausible else { return nil }
    // Within a family the Windows code page, far more common, is taken unless the ISO one is
    // clearly better.
    if let sibling = scores.first(where: {
      $0.model < best.model
        && CodePageModel.all[$0.model].family == CodePageModel.all[best.model].family
    }), best.score - sibling.score < CodePageModel.familyMargin {
      best = sibling
    }
    if best.encoding == .windows1252 { return best.encoding }
    // Code pages that read nearly every byte here alike (windows-1253 and ISO-8859-7 in
    // lower-case Greek) differ in a few characters at most: the better one is taken whatever
    // the margin. Any other must be clearly worse.
    let model = CodePageModel.all[best.model]
    for other in scores where other.model != best.model {
      var same = 0
      for h in 0..<128
      where counts.bytes[h] > 0
        && CodePageModel.all[other.model].scalars[h] == model.scalars[h]
      {
        same += counts.bytes[h]
      }
      if model.family == CodePageModel.all[other.model].family { continue }
      let near = same * 10 >= counts.total * 9
      if best.score - other.score < (near ? CodePageModel.nearMargin : CodePageModel.margin) {
        return nil
      }
    }
    return best.encoding
  }

  /// A code page's score on some counts: the log-likelihood of its reading (in nats), whether
  /// that reading is about as likely as real text, and the language that explains it best.
  struct CodePageScore {
    var encoding: TextEncoding
    /// The index of the code page in `CodePageModel.all`.
    var model: Int
    var score: Double
    var plausible: Bool
    var language: String
    /// The score less what real text of the language scores, divided by the square root of
    /// the byte count.
    var excess: Double
  }

  /// The scores of the code pages that read `counts` differently from one another, best first
  /// (of code pages that decode every counted byte alike, the one first in `detectable`).
  static func codePageScores(_ counts: ByteCounts) -> [CodePageScore] {
    guard counts.total > 0 else { return [] }
    let models = CodePageModel.all
    var present: [Int] = []
    for h in 0..<128 where counts.bytes[h] > 0 { present.append(h) }
    var nonZeroPairs: [(first: Int, second: Int, count: Double)] = []
    for first in 0..<ByteCounts.classCount {
      for second in 0..<ByteCounts.classCount {
        let count = counts.pairs[first * ByteCounts.classCount + second]
        guard count > 0 else { continue }
        nonZeroPairs.append((first, second, Double(count)))
      }
    }
    let total = Double(counts.total)
    var kept: [Int] = []
    var scores: [CodePageScore] = []
    for (index, model) in models.enumerated() {
      // A code page that reads every byte here as one before it does says nothing new.
      if kept.contains(where: { k in
        present.allSatisfy { models[k].scalars[$0] == model.scalars[$0] }
      }) {
        continue
      }
      kept.append(index)
      var pairScore = 0.0
      // Letters, and letters that follow another counted byte.
      var runs = 0.0
      var letters = 0.0
      var upper = 0.0
      for h in present where model.script[h] != 0 {
        letters += Double(counts.bytes[h])
        if model.letterCase[h] == 2 { upper += Double(counts.bytes[h]) }
      }
      // Text is in lower case with capitals here and there, or all in capitals: not both at
      // random, as a wrong code page (or a double-byte encoding) reads it.
      let lower = letters - upper
      let caseScore = max(
        upper * log(CodePageModel.capitals) + lower * log(1 - CodePageModel.capitals),
        upper * log(1 - CodePageModel.shouting) + lower * log(CodePageModel.shouting))
      for pair in nonZeroPairs {
        let (s1, c1) = model.letterClass(pair.first)
        let (s2, c2) = model.letterClass(pair.second)
        if pair.first < 128 && pair.second < 128 && s2 != 0 { runs += pair.count }
        if s1 == 0 || s2 == 0 {
          // A sign (¶, ±, ³, a box-drawing piece) or control next to a letter.
          if (s1 != 0 && model.isSign(pair.second)) || (s2 != 0 && model.isSign(pair.first)) {
            pairScore += pair.count * CodePageModel.pairPenalty
          }
          continue
        }
        if s1 != s2 || (c1 == 1 && c2 == 2) { pairScore += pair.count * CodePageModel.pairPenalty }
      }
      var best = -Double.infinity
      var bestLanguage = 0
      var bestExpected = 0.0
      for (k, language) in model.languages.enumerated() {
        var s = 0.0
        for h in present { s += Double(counts.bytes[h]) * model.logP[k][h] }
        let r = LanguageProfile.all[language].runRate
        s += runs * log(r) + (letters - runs) * log(1 - r) + LanguageProfile.all[language].prior
        if s > best {
          best = s
          bestLanguage = language
          bestExpected = model.expected[k]
        }
      }
      let score = best + pairScore + caseScore + model.prior
      // Real text of the language scores about its expected log-likelihood per byte; a wrong
      // reading (or a double-byte encoding's bytes) far less. Runs of even length only are a
      // double-byte encoding's sign too.
      let even =
        Double(counts.evenRuns) * log(0.95 / 0.5) + Double(counts.oddRuns) * log(0.05 / 0.5)
      let excess = score - bestExpected * total - max(0, even)
      let slack = CodePageModel.slack * total + CodePageModel.smallSampleSlack * total.squareRoot()
      scores.append(
        CodePageScore(
          encoding: model.encoding, model: index, score: score,
          plausible: excess >= -slack,
          language: LanguageProfile.all[bestLanguage].name, excess: excess / total.squareRoot()))
    }
    scores.sort { $0.score > $1.score || ($0.score == $1.score && $0.model < $1.model) }
    return scores
  }
}

/// A code page's reading of bytes 0x80 to 0xFF, and the log-probability of each under each
/// language the code page serves.
struct CodePageModel: Sendable {
  /// A wrong decoding's sign (a word of two scripts, an upper-case letter after a lower-case
  /// one), in nats per occurrence.
  static let pairPenalty = log(0.005)
  /// How much better (in nats) a code page other than windows-1252 must score than any other.
  static let margin = 4.0
  /// The margin between code pages that read at least 90 % of the bytes alike.
  static let nearMargin = 0.5
  /// The margin by which an ISO code page must beat the Windows one of its family.
  static let familyMargin = 2.5
  /// How far below its language's expected log-likelihood per byte a reading may fall, in
  /// nats, plus a term for short samples (divided by the square root of the byte count).
  static let slack = 0.3
  static let smallSampleSlack = 7.5
  /// The share of capitals in text in lower case, and of lower-case letters in text in capitals.
  static let capitals = 0.06
  static let shouting = 0.1
  /// The probabilities of characters a language does not use.
  static let foreignLetter = 3e-4
  static let symbol = 1e-4
  static let control = 1e-7

  var encoding: TextEncoding
  /// Code pages of one family read a language's text alike but for a few letters: a mistake
  /// between them costs those letters, not the text.
  var family: Int
  /// The log-probability (nats) that a file is in this code page rather than another: 0 for
  /// the Windows code pages, less for those few subtitles are written in.
  var prior: Double
  /// The code point of each byte 0x80 to 0xFF.
  var scalars: [UInt32]
  /// Each byte's script (0: not a letter, 1: Latin, 2: Cyrillic, 3: Greek) and case (0: none,
  /// 1: lower, 2: upper).
  var script: [UInt8]
  var letterCase: [UInt8]
  /// Each byte's kind: 0 a letter, 1 punctuation, 2 a sign, 3 a control character.
  var kind: [UInt8]
  /// The indices in `LanguageProfile.all` of the languages written in this code page.
  var languages: [Int]
  /// For each of those languages, the log-probability of each byte 0x80 to 0xFF.
  var logP: [[Double]]
  /// For each of those languages, the expected log-likelihood per byte of its text.
  var expected: [Double]

  /// Whether a class of `TextEncoding.ByteCounts.pairs` is a sign or control character (not a
  /// letter, nor punctuation text has).
  @inline(__always)
  func isSign(_ c: Int) -> Bool { c < 128 && kind[c] >= 2 }

  /// The script and case of a class of `TextEncoding.ByteCounts.pairs`.
  @inline(__always)
  func letterClass(_ c: Int) -> (UInt8, UInt8) {
    if c < 128 { return (script[c], letterCase[c]) }
    if c == TextEncoding.ByteCounts.lowerASCII { return (1, 1) }
    if c == TextEncoding.ByteCounts.upperASCII { return (1, 2) }
    return (0, 0)
  }

  /// Punctuation text in any language has outside ASCII, and how common each is: quotation
  /// marks, dashes, the ellipsis, no-break space, bullet, euro, degree, numero, section,
  /// inverted marks, middle dot and copyright signs.
  static let punctuation: [UInt32: Double] = [
    0x2019: 4, 0x2026: 3, 0x201C: 2, 0x201D: 2, 0x2013: 2, 0xAB: 2, 0xBB: 2, 0x2014: 1,
    0xA0: 1, 0x2018: 1, 0x201E: 1, 0x201A: 0.5, 0x2022: 0.5, 0x20AC: 0.5, 0xB0: 0.5,
    0x2116: 0.5, 0xA7: 0.5, 0xBF: 0.5, 0xA1: 0.5, 0xB7: 0.5, 0xA9: 0.5,
  ]
  static let punctuationWeight = punctuation.values.reduce(0, +)

  /// The models of `TextEncoding.detectable`, in that order.
  static let all: [CodePageModel] = TextEncoding.detectable.map { CodePageModel($0) }

  init(_ encoding: TextEncoding) {
    self.encoding = encoding
    switch encoding {
    case .windows1250, .isoLatin2: family = 1
    case .windows1253, .isoGreek: family = 2
    default: family = 10 + (TextEncoding.detectable.firstIndex(of: encoding) ?? 0)
    }
    switch encoding {
    case .isoLatin2, .isoCyrillic, .isoGreek, .koi8R: prior = -1
    default: prior = 0
    }
    var scalars: [UInt32] = []
    for b in UInt8(0x80)...0xFF {
      scalars.append(
        encoding.highTable.map { UInt32($0[Int(b - 0x80)]) }
          ?? UInt32(encoding.scalar(forHighByte: b)))
    }
    self.scalars = scalars
    var script: [UInt8] = []
    var letterCase: [UInt8] = []
    var keys: [UInt32] = []
    var kinds: [UInt8] = []  // 0: letter, 1: punctuation, 2: symbol, 3: control
    for s in scalars {
      let (sc, lc, key) = CodePageModel.classify(s)
      script.append(sc)
      letterCase.append(lc)
      keys.append(key)
      if sc != 0 {
        kinds.append(0)
      } else if CodePageModel.punctuation[s] != nil {
        kinds.append(1)
      } else if s < 0xA0 || s == 0xFFFD {
        kinds.append(3)
      } else {
        kinds.append(2)
      }
    }
    self.script = script
    self.letterCase = letterCase
    self.kind = kinds
    var languages: [Int] = []
    var logP: [[Double]] = []
    var expected: [Double] = []
    for (index, language) in LanguageProfile.all.enumerated()
    where language.encodings.contains(encoding) {
      languages.append(index)
      let sum = language.letters.reduce(0) { $0 + $1.count }
      let letterShare = 1 - language.punctuationShare
      var p: [Double] = []
      for h in 0..<128 {
        switch kinds[h] {
        case 0:
          let count = language.letters.first { $0.scalar == keys[h] }?.count ?? 0
          p.append(
            count > 0 ? log(letterShare * count / sum) : log(CodePageModel.foreignLetter))
        case 1:
          let weight = CodePageModel.punctuation[scalars[h]] ?? 0
          p.append(log(language.punctuationShare * weight / CodePageModel.punctuationWeight))
        case 2: p.append(log(CodePageModel.symbol))
        default: p.append(log(CodePageModel.control))
        }
      }
      logP.append(p)
      // The expected log-likelihood per byte: letters, punctuation, and whether it follows
      // another non-ASCII byte.
      var e = 0.0
      for (_, count) in language.letters {
        let q = letterShare * count / sum
        e += q * log(q)
      }
      let share = language.punctuationShare
      for weight in CodePageModel.punctuation.values where share > 0 {
        let q = share * weight / CodePageModel.punctuationWeight
        e += q * log(q)
      }
      let r = language.runRate
      e += letterShare * (r * log(r) + (1 - r) * log(1 - r))
      let c = CodePageModel.capitals
      e += letterShare * (c * log(c) + (1 - c) * log(1 - c))
      expected.append(e)
    }
    self.languages = languages
    self.logP = logP
    self.expected = expected
  }

  /// The script (0: none, 1: Latin, 2: Cyrillic, 3: Greek), case (0: none, 1: lower, 2: upper)
  /// and lower-case form of a code point.
  static func classify(_ s: UInt32) -> (UInt8, UInt8, UInt32) {
    guard let scalar = Unicode.Scalar(s), scalar.properties.isAlphabetic else { return (0, 0, s) }
    let script: UInt8
    switch s {
    case 0xC0...0x24F where s != 0xD7 && s != 0xF7: script = 1
    case 0x370...0x3FF: script = 3
    case 0x400...0x52F: script = 2
    default: return (0, 0, s)
    }
    let properties = scalar.properties
    let letterCase: UInt8 = properties.isUppercase ? 2 : (properties.isLowercase ? 1 : 0)
    let lower = properties.lowercaseMapping.unicodeScalars
    let key = lower.count == 1 ? lower.first?.value ?? s : s
    return (script, letterCase, key)
  }
}
