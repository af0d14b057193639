/// A DASH media presentation description (ISO/IEC 23009-1): the adaptation sets of every
/// period, with the properties a track menu needs.
public struct DASHManifest: Hashable, Sendable, Codable {
  /// A descriptor element: `Role`, `Accessibility` or `AudioChannelConfiguration`.
  public struct Descriptor: Hashable, Sendable, Codable {
    /// `schemeIdUri`.
    public var scheme: String
    /// `value`, or `""`.
    public var value: String
  }

  /// One `AdaptationSet`; properties missing on the set are taken from its first
  /// `Representation` that has them.
  public struct AdaptationSet: Hashable, Sendable, Codable {
    /// `id`, or `nil`.
    public var id: String?
    /// `audio`, `video`, `text`, `image` or `""`: `contentType`, else derived from `mimeType`
    /// and `codecs`.
    public var mediaType: String
    /// `mimeType`, or `nil`.
    public var mimeType: String?
    /// `codecs` (RFC 6381), or `nil`.
    public var codecs: String?
    /// `lang` (BCP-47 as written), or `nil`.
    public var language: String?
    /// The `Label` element's text or the `label` attribute, or `nil`.
    public var label: String?
    /// `Role` descriptors.
    public var roles: [Descriptor]
    /// `Accessibility` descriptors.
    public var accessibility: [Descriptor]
    /// `AudioChannelConfiguration` descriptors: the set's own, else those of its
    /// representations when every one that states some states the same channel count; none
    /// when they state different counts (which plays is the player's choice).
    public var audioChannelConfiguration: [Descriptor]
    /// `audioSamplingRate` in Hz: the set's own, else the one every representation that states
    /// one shares; `nil` when none states one, or when they state different rates.
    public var sampleRate: Int?
    /// Whether the set states no channel configuration of its own and its representations
    /// state different channel counts: the set has no one count, not an unknown one.
    public var channelCountsDiffer = false
    /// Whether the set states no `audioSamplingRate` of its own and its representations state
    /// different rates.
    public var sampleRatesDiffer = false
    /// The highest `bandwidth` among the representations, in bits per second, or `nil`.
    public var bandwidth: Int?
    /// Every representation's `bandwidth`, in bits per second, ascending, without repeats.
    public var bandwidths: [Int]
    /// How many `Representation` elements the set has. A set without one (which the schema
    /// does not allow; one whose content is behind an `xlink:href` this reader does not
    /// follow) has nothing a player can play, and is not listed as a track.
    public var representationCount: Int = 1
    /// The position of the set's `Period` in ``DASHManifest/periods``, from 0.
    public var period: Int
    /// The `id`s of the sets of the same period a player may switch to seamlessly, from
    /// `SupplementalProperty` or `EssentialProperty` descriptors with the scheme
    /// `urn:mpeg:dash:adaptation-set-switching:2016` (their value is a comma-separated list).
    public var switchableWith: [String]
    /// `ContentProtection` descriptors of the set and its representations (Common Encryption's
    /// `urn:mpeg:dash:mp4protection:2011`, a DRM system's `urn:uuid:…`): the media is encrypted.
    public var contentProtection: [Descriptor] = []
    /// `SupplementalProperty` and `EssentialProperty` descriptors of the set and its first
    /// `Representation` (for example Dolby's `EC3_ExtensionType` `JOC`: Atmos).
    public var properties: [Descriptor] = []
    /// Where the first `Representation`'s initialization segment is, as a reference relative
    /// to the manifest (or absolute where a `BaseURL` is): the `BaseURL`s of the `MPD`,
    /// `Period`, set and `Representation` applied in turn, then the initialization of the
    /// `SegmentTemplate` (its `$RepresentationID$` and `$Bandwidth$` filled in), `SegmentList`
    /// or `SegmentBase` nearest the `Representation`; for a `SegmentBase` without an
    /// `Initialization` `sourceURL`, the representation's media file itself. `nil` when the
    /// manifest says none.
    public var initialization: String? = nil
  }

  /// One `Period`.
  public struct Period: Hashable, Sendable, Codable {
    /// `id`, or `nil`.
    public var id: String?
    /// `start` in seconds, or `nil`.
    public var start: Double?
    /// `duration` in seconds, or `nil`.
    public var duration: Double?
    /// How many adaptation sets the period has (its sets are in
    /// ``DASHManifest/adaptationSets``, in order, with ``AdaptationSet/period`` naming it).
    public var adaptationSetCount: Int
  }

  /// `mediaPresentationDuration` in seconds, or `nil`.
  public var duration: Double?
  /// Every period, in document order.
  public var periods: [Period]
  /// The adaptation sets of every period, in document order.
  public var adaptationSets: [AdaptationSet]
  /// `type="dynamic"`: a live presentation whose manifest changes.
  public var isDynamic: Bool

  /// Parses a manifest with a small XML reader of this module.
  ///
  /// - Parameter bytes: The manifest's UTF-8 bytes.
  /// - Throws: `MediaError` with kind `.malformed` when the XML is not well-formed (a manifest
  ///   cut short, a malformed tag, elements nested more than 256 deep), or there is no `MPD`
  ///   element or no `Period` in it.
  /// - Complexity: O(*n*) in the number of bytes.
  public init(bytes: [UInt8]) throws(MediaError) {
    let root: XMLElement
    do throws(XMLElement.Failure) {
      root = try XMLElement.parse(bytes)
    } catch {
      throw MediaError(
        kind: .malformed, operation: "DASHManifest",
        detail: "not well-formed XML (line \(error.line): \(error.reason))")
    }
    guard let mpd = root.child("MPD") else {
      throw MediaError(
        kind: .malformed, operation: "DASHManifest", detail: "not a DASH manifest (no MPD element)")
    }
    duration = mpd.attributes["mediaPresentationDuration"].flatMap(DASHManifest.seconds)
    isDynamic = mpd.attributes["type"]?.trimmingSpaces == "dynamic"
    var periods: [Period] = []
    var sets: [AdaptationSet] = []
    let mpdBase = DASHManifest.joined(nil, mpd.child("BaseURL")?.text)
    let mpdSegments = SegmentDescriptions(mpd)
    let periodElements = mpd.children("Period")
    guard !periodElements.isEmpty else {
      throw MediaError(
        kind: .malformed, operation: "DASHManifest", detail: "a DASH manifest without a Period")
    }
    for (position, period) in periodElements.enumerated() {
      let found = period.children("AdaptationSet")
      let periodBase = DASHManifest.joined(mpdBase, period.child("BaseURL")?.text)
      let periodSegments = SegmentDescriptions(period)
      periods.append(
        Period(
          id: period.attributes["id"],
          start: period.attributes["start"].flatMap(DASHManifest.seconds),
          duration: period.attributes["duration"].flatMap(DASHManifest.seconds),
          adaptationSetCount: found.count))
      for element in found {
        var set = DASHManifest.adaptationSet(element, period: position)
        set.initialization = DASHManifest.initialization(
          of: element, base: periodBase, inherited: [periodSegments, mpdSegments])
        sets.append(set)
      }
    }
    self.periods = periods
    adaptationSets = sets
  }

  private static func descriptors(_ name: String, in elements: [XMLElement]) -> [Descriptor] {
    for element in elements {
      let found = element.children(name).map {
        Descriptor(scheme: $0.attributes["schemeIdUri"] ?? "", value: $0.attributes["value"] ?? "")
      }
      if !found.isEmpty { return found }
    }
    return []
  }

  private static func adaptationSet(_ set: XMLElement, period: Int) -> AdaptationSet {
    let representations = set.children("Representation")
    let scope = [set] + representations
    func attribute(_ name: String) -> String? {
      for element in scope {
        if let value = element.attributes[name], !value.isEmpty { return value }
      }
      return nil
    }
    let mimeType = attribute("mimeType")
    let codecs = attribute("codecs")
    var mediaType = set.attributes["contentType"] ?? ""
    if mediaType.isEmpty, let mimeType {
      if mimeType.hasPrefix("audio/") {
        mediaType = "audio"
      } else if mimeType.hasPrefix("video/") {
        mediaType = "video"
      } else if mimeType.hasPrefix("text/") || mimeType == "application/ttml+xml"
        || mimeType == "application/x-rawcc"
      {
        mediaType = "text"
      } else if mimeType.hasPrefix("image/") {
        mediaType = "image"
      } else if mimeType == "application/mp4",
        let codecs, codecs.hasPrefix("stpp") || codecs.hasPrefix("wvtt")
      {
        mediaType = "text"
      }
    }
    let labelText = set.child("Label").map { MenuText.collapsingWhitespace($0.text) }
    let label = (labelText?.isEmpty == false ? labelText : nil) ?? set.attributes["label"]
    let bandwidths = Set(
      representations.compactMap { $0.attributes["bandwidth"].flatMap { Int($0.trimmingSpaces) } }
        .filter { $0 > 0 }
    ).sorted()
    var switchable: [String] = []
    for name in ["SupplementalProperty", "EssentialProperty"] {
      for property in set.children(name)
      where property.attributes["schemeIdUri"]?.trimmingSpaces
        == "urn:mpeg:dash:adaptation-set-switching:2016"
      {
        for id in (property.attributes["value"] ?? "").split(separator: ",") {
          let id = String(id).trimmingSpaces
          if !id.isEmpty { switchable.append(id) }
        }
      }
    }
    let channels = channelConfiguration(set, representations)
    let rate = sampleRate(set, representations)
    return AdaptationSet(
      id: set.attributes["id"], mediaType: mediaType, mimeType: mimeType, codecs: codecs,
      language: set.attributes["lang"]
        ?? representations.lazy.compactMap { $0.attributes["lang"] }.first
        ?? set.children("ContentComponent").lazy.compactMap { $0.attributes["lang"] }.first,
      label: label, roles: descriptors("Role", in: scope),
      accessibility: descriptors("Accessibility", in: scope),
      audioChannelConfiguration: channels.descriptors,
      sampleRate: rate.value, channelCountsDiffer: channels.differ,
      sampleRatesDiffer: rate.differ, bandwidth: bandwidths.last,
      bandwidths: bandwidths,
      representationCount: representations.count, period: period,
      switchableWith: switchable, contentProtection: descriptors("ContentProtection", in: scope),
      properties: ["SupplementalProperty", "EssentialProperty"].flatMap { name in
        [set, representations.first].compactMap { $0 }.flatMap { element in
          element.children(name).map {
            Descriptor(
              scheme: $0.attributes["schemeIdUri"] ?? "", value: $0.attributes["value"] ?? "")
          }
        }
      })
  }

  /// The set's `audioSamplingRate` in Hz: the set's own, else the one its representations
  /// state; `nil` when none states one, or when they state different rates (`differ`: a set of
  /// a 48 kHz and a 44.1 kHz representation has no one rate: which plays is the player's
  /// choice).
  private static func sampleRate(
    _ set: XMLElement, _ representations: [XMLElement]
  ) -> (value: Int?, differ: Bool) {
    func rate(_ element: XMLElement) -> Int? {
      guard let value = element.attributes["audioSamplingRate"], !value.isEmpty else { return nil }
      // One number, or a range "min max" (the first is kept).
      return Int(value.split(separator: " ").first.map(String.init) ?? "").flatMap {
        $0 > 0 ? $0 : nil
      }
    }
    if let own = rate(set) { return (own, false) }
    let stated = Set(representations.compactMap(rate))
    return stated.count == 1 ? (stated.first, false) : (nil, stated.count > 1)
  }

  /// The set's `AudioChannelConfiguration` descriptors: its own, else the first
  /// representation's that states some, when every representation that states some states the
  /// same channel count; none when they state different counts (`differ`: a set of a stereo
  /// and a 5.1 representation has no one count, as for ``sampleRate(_:_:)``).
  private static func channelConfiguration(
    _ set: XMLElement, _ representations: [XMLElement]
  ) -> (descriptors: [Descriptor], differ: Bool) {
    let own = descriptors("AudioChannelConfiguration", in: [set])
    if !own.isEmpty { return (own, false) }
    var first: (descriptors: [Descriptor], count: Int?)? = nil
    for representation in representations {
      let stated = descriptors("AudioChannelConfiguration", in: [representation])
      guard !stated.isEmpty else { continue }
      let count = stated.lazy.compactMap(ManifestParser.channelCount).first
      guard let known = first else {
        first = (stated, count)
        continue
      }
      if known.count != count { return ([], true) }
    }
    return (first?.descriptors ?? [], false)
  }

  /// The segment descriptions one element holds (its first `SegmentTemplate`, `SegmentList`
  /// and `SegmentBase`), found in one pass over its children.
  struct SegmentDescriptions {
    var template: XMLElement?
    var list: XMLElement?
    var base: XMLElement?

    init(_ element: XMLElement?) {
      for child in element?.children ?? [] {
        switch child.name {
        case "SegmentTemplate" where template == nil: template = child
        case "SegmentList" where list == nil: list = child
        case "SegmentBase" where base == nil: base = child
        default: break
        }
      }
    }
  }

  /// The initialization reference of the first `Representation` of `set` (see
  /// ``AdaptationSet/initialization``); `inherited` are the segment descriptions of the
  /// enclosing `Period` and `MPD`, found once for all their sets (so the work per set does not
  /// grow with the number of sets).
  private static func initialization(
    of set: XMLElement, base: String?, inherited: [SegmentDescriptions]
  ) -> String? {
    let representation = set.child("Representation")
    let setBase = joined(base, set.child("BaseURL")?.text)
    let mediaBase = joined(setBase, representation?.child("BaseURL")?.text)
    // The nearest segment description: the Representation's, the set's, the Period's, the MPD's.
    let scopes =
      [SegmentDescriptions(representation), SegmentDescriptions(set)] + inherited
    for scope in scopes {
      if scope.template != nil,
        let pattern = scopes.lazy.compactMap({ $0.template?.attributes["initialization"] }).first
      {
        let filled = filledTemplate(
          pattern, id: representation?.attributes["id"] ?? "",
          bandwidth: representation?.attributes["bandwidth"] ?? "")
        return joined(mediaBase, filled)
      }
      if let list = scope.list {
        if let source = list.child("Initialization")?.attributes["sourceURL"] {
          return joined(mediaBase, source)
        }
        return list.child("SegmentURL")?.attributes["media"].flatMap { joined(mediaBase, $0) }
      }
      if let segmentBase = scope.base {
        if let source = segmentBase.child("Initialization")?.attributes["sourceURL"] {
          return joined(mediaBase, source)
        }
        return mediaBase
      }
    }
    // No segment description: the representation's BaseURL is the whole media file.
    return representation?.child("BaseURL") != nil || set.child("BaseURL") != nil
      ? mediaBase : nil
  }

  /// `reference` relative to `base` (both relative to the manifest, or absolute): a reference
  /// with a scheme or a leading `/` stands alone, else it follows `base`'s folder.
  static func joined(_ base: String?, _ reference: String?) -> String? {
    guard let reference = reference?.trimmingSpaces, !reference.isEmpty else { return base }
    guard let base, !base.isEmpty else { return reference }
    if reference.hasPrefix("/") || RemoteURL.scheme(of: Substring(reference)) != nil {
      return reference
    }
    let folder = base.lastIndex(of: "/").map { String(base[...$0]) } ?? ""
    return folder + reference
  }

  /// A `SegmentTemplate` pattern with `$RepresentationID$`, `$Bandwidth$` (with an optional
  /// `%0Nd` width) and `$$` filled in; other identifiers are left as written.
  static func filledTemplate(_ pattern: String, id: String, bandwidth: String) -> String {
    var out = ""
    var rest = Substring(pattern)
    while let open = rest.firstIndex(of: "$") {
      out += rest[..<open]
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "$") else {
        out += rest[open...]
        return out
      }
      let name = rest[afterOpen..<close]
      if name.isEmpty {
        out += "$"
      } else if name == "RepresentationID" {
        out += id
      } else if name.hasPrefix("Bandwidth") {
        let format = name.dropFirst("Bandwidth".count)
        var value = bandwidth.trimmingSpaces
        if format.hasPrefix("%0"), format.hasSuffix("d"),
          let width = Int(format.dropFirst(2).dropLast())
        {
          value = String(repeating: "0", count: max(0, width - value.count)) + value
        }
        out += value
      } else {
        out += "$" + name + "$"
      }
      rest = rest[rest.index(after: close)...]
    }
    out += rest
    return out
  }

  /// An ISO 8601 duration such as `PT1H2M3.5S` (days allowed; years and months, which have no
  /// fixed length, give `nil` unless they are zero).
  static func seconds(_ text: String) -> Double? {
    var rest = Substring(text.trimmingSpaces)
    guard rest.hasPrefix("P") else { return nil }
    rest = rest.dropFirst()
    var total = 0.0
    var number = ""
    var inTime = false
    for character in rest {
      switch character {
      case "T": inTime = true
      case "0"..."9", ".": number.append(character)
      case "Y", "D", "H", "M", "S":
        guard let value = Double(number) else { return nil }
        number = ""
        switch character {
        case "Y":
          // Zero years or months (`P0Y0M0DT0H3M30S`, as some packagers write) are harmless.
          guard !inTime && value == 0 else { return nil }
        case "D": total += value * 86400
        case "H": total += value * 3600
        case "M":
          guard inTime || value == 0 else { return nil }
          total += value * 60
        default: total += value
        }
      default: return nil
      }
    }
    return number.isEmpty ? total : nil
  }
}

extension DASHManifest {
  /// The files of the text adaptation sets of `bytes` when they are a DASH manifest (each
  /// set's first representation's media file or initialization, as
  /// ``AdaptationSet/initialization`` gives it; none for a set that names none, or a manifest
  /// that cannot be read or is larger than manifests are read), for a subtitle reader to name
  /// instead of reading the manifest as subtitles; `nil` when `bytes` is not a DASH manifest
  /// (recognised by its first 64 KiB: nothing else is parsed then).
  public static func textFiles(ifManifest bytes: [UInt8]) -> [String]? {
    guard InputSignature.manifest(bytes.prefix(1 << 16)) == .dash else { return nil }
    guard bytes.count <= ManifestParser.manifestLimit,
      let manifest = try? DASHManifest(bytes: bytes)
    else { return [] }
    return manifest.adaptationSets.filter { $0.mediaType == "text" }.compactMap(\.initialization)
  }
}
