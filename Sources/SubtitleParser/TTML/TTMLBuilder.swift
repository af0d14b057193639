/// Turns a parsed TTML tree into a ``SubtitleDocument`` (see ``TTML`` for the rules).
struct TTMLBuilder {
  /// A style: `tts:` properties by local name.
  typealias Style = [String: String]

  /// One timed element of the body, with its computed interval and style. A class: the tree
  /// is built once and then only read, and walking it passes each node by one reference.
  final class Timed {
    let element: TTMLXML.Element
    /// The active interval in seconds (`end` may be infinite).
    let begin: Double
    let end: Double
    /// The computed style (inherited, then referenced, then inline).
    let style: Style
    /// What the cue-text writer reads of ``style``, looked up once.
    let look: TextLook
    /// The region in effect (own or inherited), or nil.
    let region: String?
    /// Whether white space is preserved (`xml:space="preserve"`, inherited).
    let preserve: Bool
    /// The language in effect (`xml:lang`, inherited).
    let language: String
    /// Timed children and text, in order.
    let children: [Content]

    init(
      element: TTMLXML.Element, begin: Double, end: Double, style: Style, look: TextLook,
      region: String?, preserve: Bool, language: String, children: [Content]
    ) {
      self.element = element
      self.begin = begin
      self.end = end
      self.style = style
      self.look = look
      self.region = region
      self.preserve = preserve
      self.language = language
      self.children = children
    }
  }

  enum Content {
    case element(Timed)
    case text(String)
  }

  let root: TTMLXML.Element
  let timing: TTMLTiming
  /// Whether every time counts from the start of the document rather than from the parent's
  /// begin: Apple's lyrics files (an `itunes:timing` attribute on `tt`) write each `div`, `p`
  /// and `span` with its absolute time, as Apple's players read them. Read as TTML says, their
  /// times added up: every line far later than sung, every word beyond its line's end. Their
  /// `span` times (when each word is sung) are not read: each line shows whole for its `p`.
  let absoluteTimes: Bool
  var styles: [String: Style] = [:]
  /// The regions by `xml:id`, each worked out once (a paragraph looks its region up once).
  var regions: [String: Region] = [:]

  /// What a region of `layout` gives the content flowed into it.
  struct Region {
    /// Its computed style.
    var style: Style
    /// The part of ``style`` that the content flowed into it inherits (see
    /// ``emitParagraph(_:ancestorSets:only:)``).
    var inherited: Style
    /// Its origin and extent in percent of the root container (`nil` when it states neither
    /// in a form this reader takes).
    var geometry: (origin: (Double, Double), extent: (Double, Double))?
    /// Its `set` elements, timed from the document's start.
    var sets: [Timed]
    /// Its active interval in seconds from the document's start (`begin`, `end` and `dur` on
    /// the region element; always active without them): content shows in a region only while
    /// it is active.
    var interval: (begin: Double, end: Double)
  }
  /// The root's `tts:extent` in pixels, when stated.
  var rootExtent: (width: Double, height: Double)? = nil
  /// `ttp:cellResolution` (columns, rows), default 32 by 15.
  var cells: (columns: Double, rows: Double) = (32, 15)
  var document = SubtitleDocument(format: .ttml, text: [])
  /// The writer of every cue's text, reset for each (its storage is kept).
  var cueWriter = TTMLCueText()
  /// The times of a paragraph at which what it shows may change (storage kept between them).
  var paragraphTimes: [Double] = []
  var log = DiagnosticLog()
  /// Notes already given, so each dropped feature is noted once.
  var noted: Set<String> = []

  /// The largest end a cue gets when the document gives it none (WebVTT's largest timestamp).
  static let unbounded = Double(VTTSyntax.maxMilliseconds) / 1000

  /// Apple's namespace for its lyrics files' own attributes (`itunes:timing`).
  static let appleLyricsNamespace = "http://music.apple.com/lyric-ttml-internal"

  init(root: TTMLXML.Element) {
    self.root = root
    timing = TTMLTiming(root: root)
    absoluteTimes = root.attribute("timing", in: Self.appleLyricsNamespace) != nil
  }

  mutating func note(_ key: String, line: Int, _ reason: String) {
    guard noted.insert(key).inserted else { return }
    log.add(line: line, offset: document.text.count, reason)
  }

  /// The seconds of the `name` attribute's value `text` (on an element at `line`): a time
  /// expression's; else, with a note, a plain number of seconds or minutes and seconds
  /// (``TTMLTiming/lenientSeconds(_:)``), as Apple's lyrics files write them; else `nil`, and
  /// the attribute is ignored, with a note. Each such attribute gets its own entry (the log
  /// bounds them).
  mutating func time(_ name: String, _ text: String, line: Int) -> Double? {
    if let value = timing.seconds(text) { return value }
    if let value = timing.lenientSeconds(text) {
      log.add(
        line: line, offset: document.text.count,
        "TTML \(name) '\(text)' is not a time expression (it has no unit); read as "
          + "\(value) s, as Apple's files mean it")
      return value
    }
    log.add(
      line: line, offset: document.text.count,
      "TTML \(name) '\(text)' is not a time expression; the attribute is ignored")
    return nil
  }

  mutating func build() {
    readParameters()
    // `styling` and `layout` belong in `head`; placed straight in `tt` (as some writers do)
    // they are read as if they were there.
    let misplaced = root.children.filter {
      if case .element(let element) = $0 {
        ["styling", "layout"].contains(element.name)
      } else {
        false
      }
    }
    var head = root.elements.first { $0.name == "head" }
    if let first = misplaced.first, case .element(let element) = first {
      note(
        "misplacedHead", line: element.line,
        "TTML '\(element.name)' placed in 'tt' rather than in 'head'; read as if in 'head'")
      if head == nil {
        head = TTMLXML.Element(
          namespace: root.namespace, name: "head", attributes: [], children: [], line: element.line)
      }
      head?.children += misplaced
    }
    if let head { readHead(head) }
    if absoluteTimes {
      note(
        "absoluteTimes", line: root.line,
        "TTML from Apple's lyrics format (itunes:timing): times read as counted from the start "
          + "of the document, as Apple's players read them")
    }
    let rootStyle = inlineStyle(root).filter { Self.inherited.contains($0.key) }
    let language = root.attribute("lang", in: TTMLXML.xmlNamespace) ?? ""
    if let body = root.elements.first(where: { $0.name == "body" }) {
      let timed = time(
        body, parentBegin: 0, parentEnd: .infinity, base: 0, parentStyle: rootStyle,
        parentLook: TextLook(rootStyle), region: nil,
        preserve: root.attribute("space", in: TTMLXML.xmlNamespace) == "preserve",
        language: language)
      emitCues(in: timed, ancestorSets: [])
    }
    document.cues.sort { ($0.startTime, $0.endTime) < ($1.startTime, $1.endTime) }
    document.diagnostics = log.list
  }

  // MARK: - Parameters, styles and regions

  mutating func readParameters() {
    if let extent = root.attributes.first(where: {
      $0.name == "extent" && TTML.isStyling($0.namespace)
    })?
    .value {
      let parts = extent.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if parts.count == 2, parts[0].hasSuffix("px"), parts[1].hasSuffix("px"),
        let width = Double(parts[0].dropLast(2)), let height = Double(parts[1].dropLast(2)),
        width > 0, height > 0
      {
        rootExtent = (width, height)
      }
    }
    if let resolution = root.attributes.first(where: {
      $0.name == "cellResolution" && TTML.isParameter($0.namespace)
    })?.value {
      let parts = resolution.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap {
        Double($0)
      }
      if parts.count == 2, parts[0] > 0, parts[1] > 0 { cells = (parts[0], parts[1]) }
    }
  }

  /// An element's `xml:id`, or the plain `id` that DFXP drafts used.
  static func identifier(_ element: TTMLXML.Element) -> String? {
    element.attribute("id", in: TTMLXML.xmlNamespace) ?? element.attribute("id")
  }

  /// The `tts:` attributes of `element`.
  func inlineStyle(_ element: TTMLXML.Element) -> Style {
    var style: Style = [:]
    for attribute in element.attributes where TTML.isStyling(attribute.namespace) {
      style[attribute.name] = attribute.value.trimmingASCIISpaces
    }
    return style
  }

  mutating func readHead(_ head: TTMLXML.Element) {
    var raw: [String: TTMLXML.Element] = [:]
    for styling in head.elements where styling.name == "styling" {
      for style in styling.elements where style.name == "style" {
        if let id = Self.identifier(style) { raw[id] = style }
      }
    }
    // Referential styles, resolved with cycles cut.
    func resolve(_ id: String, _ visiting: inout Set<String>) -> Style {
      if let done = styles[id] { return done }
      guard let element = raw[id], visiting.insert(id).inserted else { return [:] }
      var style: Style = [:]
      for reference in (element.attribute("style") ?? "").split(separator: " ") {
        style.merge(resolve(String(reference), &visiting)) { $1 }
      }
      style.merge(inlineStyle(element)) { $1 }
      styles[id] = style
      return style
    }
    for id in raw.keys {
      var visiting: Set<String> = []
      _ = resolve(id, &visiting)
    }
    // Regions in `layout`, or (as some writers put them) straight in `head`.
    let regionElements =
      head.elements.filter { $0.name == "region" }
      + head.elements.filter { $0.name == "layout" }.flatMap { $0.elements }
      .filter { $0.name == "region" }
    for region in regionElements {
      guard let id = Self.identifier(region) else { continue }
      var style = referencedStyle(region)
      for nested in region.elements where nested.name == "style" {
        style.merge(inlineStyle(nested)) { $1 }
      }
      style.merge(inlineStyle(region)) { $1 }
      // A left-out (or `auto`) origin is the root container's, 0 0, and a left-out (or `auto`)
      // extent the root container's, clipped at its edges (TTML 2, 10.2.37 and 10.2.16): such
      // a region still places its text, by its display alignment. A value this reader cannot
      // take places nothing.
      let isAuto = { (text: String) in text.filter { $0 != " " && $0 != "\t" } == "auto" }
      var origin: (Double, Double)? = (0, 0)
      if let text = style["origin"], !isAuto(text) { origin = pair(text) }
      var extent: (Double, Double)? = nil
      if let origin {
        extent = (100 - origin.0, 100 - origin.1)
        if let text = style["extent"], !isAuto(text) { extent = pair(text) }
      }
      var geometry: (origin: (Double, Double), extent: (Double, Double))? = nil
      if let origin, let extent { geometry = (origin, extent) }
      let sets = region.elements.filter { $0.name == "set" }.map {
        time(
          $0, parentBegin: 0, parentEnd: .infinity, base: 0, parentStyle: [:],
          parentLook: TextLook(), region: nil, preserve: false, language: "")
      }
      // Times that cannot be read are ignored, as on other elements (see `time`).
      var seconds: [Double?] = []
      for name in ["begin", "end", "dur"] {
        guard let text = region.attribute(name) else {
          seconds.append(nil)
          continue
        }
        seconds.append(time(name, text, line: region.line))
      }
      let start = seconds[0] ?? 0
      let interval = (
        begin: start, end: min(seconds[1] ?? .infinity, start + (seconds[2] ?? .infinity))
      )
      regions[id] = Region(
        style: style, inherited: style.filter { Self.inherited.contains($0.key) },
        geometry: geometry, sets: sets, interval: interval)
    }
  }

  /// The styles `element` references with `style`, merged in order.
  func referencedStyle(_ element: TTMLXML.Element) -> Style {
    Self.referencedStyle(element, in: styles)
  }

  /// The styles `element` references with `style`, merged in order, from `styles` (by id).
  static func referencedStyle(_ element: TTMLXML.Element, in styles: [String: Style]) -> Style {
    var style: Style = [:]
    for reference in (element.attribute("style") ?? "").split(separator: " ") {
      style.merge(styles[String(reference)] ?? [:]) { $1 }
    }
    return style
  }

  /// The computed style of `element` below a parent whose computed style is `parent`: what
  /// the parent passes on, then the styles `element` references, then its own `tts:`
  /// attributes (as ``time(_:parentBegin:parentEnd:base:parentStyle:parentLook:region:preserve:language:)``
  /// works it out, for a parent whose style in effect differs from the one it was timed with).
  static func computedStyle(
    of element: TTMLXML.Element, below parent: Style, styles: [String: Style]
  ) -> Style {
    var style = parent.filter { inherited.contains($0.key) }
    var own = referencedStyle(element, in: styles)
    for attribute in element.attributes where TTML.isStyling(attribute.namespace) {
      own[attribute.name] = attribute.value.trimmingASCIISpaces
    }
    for (name, value) in own { state(name, value, in: &style) }
    return style
  }

  /// Sets the `tts:` property `name` that an element (or a `set` on it) states to `value` in
  /// `style`, its computed style so far. `textDecoration` keeps what `value` does not name
  /// (see ``decoration(_:over:)``).
  static func state(_ name: String, _ value: String, in style: inout Style) {
    if name == "textDecoration", let inherited = style[name] {
      style[name] = decoration(value, over: inherited)
    } else {
      style[name] = value
    }
  }

  /// `tts:textDecoration` `own` over the value inherited: its underline, line-through and
  /// overline parts are inherited separately (TTML 2, 10.2.44), so `own` replaces only those it
  /// names (`none` all three). The result names each part either states, in a fixed order
  /// (`underline noLineThrough`).
  static func decoration(_ own: String, over inherited: String) -> String {
    var parts: [Bool?] = [nil, nil, nil]
    for value in [inherited, own] {
      for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
        switch word {
        case "none": parts = [false, false, false]
        case "underline": parts[0] = true
        case "noUnderline": parts[0] = false
        case "lineThrough": parts[1] = true
        case "noLineThrough": parts[1] = false
        case "overline": parts[2] = true
        case "noOverline": parts[2] = false
        default: break
        }
      }
    }
    let names = [
      ("underline", "noUnderline"), ("lineThrough", "noLineThrough"), ("overline", "noOverline"),
    ]
    return zip(parts, names).compactMap { part, name in part.map { $0 ? name.0 : name.1 } }
      .joined(separator: " ")
  }

  /// Properties a child inherits from its parent (TTML 2's inheritable styles that this
  /// reader uses).
  static let inherited: Set<String> = [
    "color", "fontStyle", "fontWeight", "textDecoration", "textAlign", "direction",
    "fontFamily", "fontSize", "lineHeight", "visibility", "writingMode",
  ]

  // MARK: - Timing

  /// The timed tree of `element`: its interval from its parent's (`base` is where its times
  /// count from: the parent's begin in a `par` container, the previous sibling's end in a
  /// `seq` one), its style and its children's. `parentLook` is `TextLook(parentStyle)`, passed
  /// down rather than looked up again for every element that states no style of its own.
  mutating func time(
    _ element: TTMLXML.Element, parentBegin: Double, parentEnd: Double, base: Double,
    parentStyle: Style, parentLook: TextLook, region: String?, preserve: Bool, language: String
  ) -> Timed {
    // The attributes this reads, found in one pass (the first of each name counts).
    var beginText: String? = nil
    var endText: String? = nil
    var durText: String? = nil
    var styleText: String? = nil
    var regionText: String? = nil
    var spaceText: String? = nil
    var langText: String? = nil
    var containerText: String? = nil
    var hasStyling = false
    for attribute in element.attributes {
      if attribute.namespace.isEmpty {
        switch attribute.name {
        case "begin": if beginText == nil { beginText = attribute.value }
        case "end": if endText == nil { endText = attribute.value }
        case "dur": if durText == nil { durText = attribute.value }
        case "style": if styleText == nil { styleText = attribute.value }
        case "region": if regionText == nil { regionText = attribute.value }
        case "timeContainer": if containerText == nil { containerText = attribute.value }
        default: break
        }
      } else if attribute.namespace == TTMLXML.xmlNamespace {
        if attribute.name == "space", spaceText == nil { spaceText = attribute.value }
        if attribute.name == "lang", langText == nil { langText = attribute.value }
      } else if TTML.isStyling(attribute.namespace) {
        hasStyling = true
      }
    }
    // A time that cannot be read is ignored, as if the attribute were not there (as ttconv
    // does; imsc.js uses the default too): the element and its content stay, with a note.
    func expression(_ name: String, _ text: String?) -> Double? {
      guard let text else { return nil }
      return time(name, text, line: element.line)
    }
    let base = absoluteTimes ? 0 : base
    if absoluteTimes && element.name == "span" {
      // Apple's word timing (`itunes:timing="Word"`) says when each word is sung, for a
      // karaoke highlight; the whole line shows for its paragraph's time, as in Apple Music.
      (beginText, endText, durText) = (nil, nil, nil)
    }
    let begin = max(parentBegin, base + (expression("begin", beginText) ?? 0))
    var explicitEnd: Double? = expression("end", endText).map { base + $0 }
    if let duration = expression("dur", durText) {
      explicitEnd = min(explicitEnd ?? .infinity, begin + duration)
    }
    // `parentStyle` holds only what children inherit.
    var style = parentStyle
    if styleText != nil { style.merge(referencedStyle(element)) { $1 } }
    if hasStyling {
      for attribute in element.attributes where TTML.isStyling(attribute.namespace) {
        style[attribute.name] = attribute.value.trimmingASCIISpaces
      }
    }
    if styleText != nil || hasStyling, let own = style["textDecoration"],
      let inherited = parentStyle["textDecoration"], own != inherited
    {
      style["textDecoration"] = Self.decoration(own, over: inherited)
    }
    // `parentStyle` is inheritable throughout: only what this element adds needs checking.
    let unstyled = styleText == nil && !hasStyling
    let look = unstyled ? parentLook : TextLook(style)
    let inheritable: Style
    let inheritableLook: TextLook
    if unstyled || style.keys.allSatisfy({ Self.inherited.contains($0) }) {
      inheritable = style
      inheritableLook = look
    } else {
      inheritable = style.filter { Self.inherited.contains($0.key) }
      inheritableLook = TextLook(inheritable)
    }
    if let regionText, regions[regionText] == nil {
      note(
        "region:" + regionText, line: element.line,
        "TTML region '\(regionText)' is not defined; its content is placed as if in no region")
    }
    let ownRegion = regionText ?? region
    let preserveHere = spaceText.map { $0 == "preserve" } ?? preserve
    let languageHere = langText ?? language
    let limit = min(parentEnd, explicitEnd ?? .infinity)
    let sequential = containerText == "seq"
    var children: [Content] = []
    var cursor = begin
    var latestChildEnd = begin
    var hasTimedChild = false
    for node in element.children {
      switch node {
      case .text(let text):
        // Text in a sequence is an anonymous span whose implicit duration is 0 (TTML 2,
        // 10.4): it is never shown, and it does not move the sequence's cursor.
        if !sequential { children.append(.text(text)) }
      case .element(let child):
        guard
          child.namespace == element.namespace || TTML.namespaces.contains(child.namespace)
            || child.namespace.isEmpty
        else { continue }
        switch child.name {
        case "div", "p", "span", "br", "set":
          let timed = time(
            child, parentBegin: begin, parentEnd: limit, base: sequential ? cursor : begin,
            parentStyle: inheritable, parentLook: inheritableLook, region: ownRegion,
            preserve: preserveHere,
            language: languageHere)
          cursor = timed.end
          latestChildEnd = max(latestChildEnd, timed.end)
          hasTimedChild = true
          children.append(.element(timed))
        case "metadata": break
        case "animate":
          note("animate", line: child.line, "TTML animate elements are not kept")
        default:
          note(
            "element:" + child.name, line: child.line, "TTML element '\(child.name)' is not kept")
        }
      }
    }
    // The implicit duration (TTML 2, 10.4): a `set` or `br` lasts as long as its parent; text
    // in a `p` or `span` (an anonymous span) is indefinite in a parallel container and lasts 0
    // in a sequence; a container lasts as long as its children (in a sequence, up to the end
    // of the last one), and an empty element 0.
    var end: Double
    if let explicitEnd {
      end = explicitEnd
    } else if element.name == "set" || element.name == "br" {
      end = .infinity
    } else if sequential {
      end = cursor
    } else if ["p", "span"].contains(element.name),
      children.contains(where: {
        if case .text(let text) = $0 { text.hasNonXMLSpace } else { false }
      })
    {
      end = .infinity
    } else {
      end = hasTimedChild ? latestChildEnd : begin
    }
    end = min(end, parentEnd)
    if element.attribute(
      "backgroundImage", in: "http://www.smpte-ra.org/schemas/2052-1/2010/smpte-tt") != nil
    {
      note("image", line: element.line, "TTML image content (smpte:backgroundImage) is not kept")
    }
    return Timed(
      element: element, begin: begin, end: max(begin, end), style: style, look: look,
      region: ownRegion, preserve: preserveHere, language: languageHere, children: children)
  }

  // MARK: - Cues

  /// Emits the cues of every `p` under `node`; `ancestorSets` are the `set` elements of its
  /// ancestors, which change what a `p` shows while they are active.
  mutating func emitCues(in node: Timed, ancestorSets: [Timed]) {
    let sets =
      ancestorSets
      + node.children.compactMap {
        if case .element(let child) = $0, child.element.name == "set" { child } else { nil }
      }
    for content in node.children {
      guard case .element(let child) = content else { continue }
      switch child.element.name {
      case "p": emitParagraph(child, ancestorSets: sets)
      case "div", "body": emitCues(in: child, ancestorSets: sets)
      default: break
      }
    }
  }

  /// The times inside `node` at which something in it starts or stops.
  func boundaries(_ node: Timed, into times: inout [Double]) {
    for content in node.children {
      guard case .element(let child) = content else { continue }
      times.append(child.begin)
      times.append(child.end)
      boundaries(child, into: &times)
    }
  }

  /// The regions named inside `node` (its descendants' own `region` attributes).
  func descendantRegions(_ node: Timed, into regions: inout [String]) {
    for content in node.children {
      guard case .element(let child) = content else { continue }
      if let id = child.element.attribute("region"), !regions.contains(id) { regions.append(id) }
      descendantRegions(child, into: &regions)
    }
  }

  mutating func emitParagraph(_ paragraph: Timed, ancestorSets: [Timed]) {
    // A paragraph without a region whose spans name regions shows in each of them, with the
    // content flowed into it only (TTML 2, 11.3.1.3); its other content is in no region.
    if paragraph.region == nil, !regions.isEmpty {
      var named: [String] = []
      descendantRegions(paragraph, into: &named)
      if !named.isEmpty {
        for id in named { emitParagraph(paragraph, ancestorSets: ancestorSets, only: id) }
        return
      }
    }
    emitParagraph(paragraph, ancestorSets: ancestorSets, only: nil)
  }

  /// Emits the cues of `paragraph`; with `only`, the content flowed into that region alone,
  /// placed there.
  mutating func emitParagraph(_ paragraph: Timed, ancestorSets: [Timed], only: String?) {
    let region = only ?? paragraph.region
    let facts = region.flatMap { regions[$0] }
    // A timed region shows its content only while it is active.
    let active = facts?.interval ?? (0, .infinity)
    let from = max(paragraph.begin, active.begin)
    let to = min(paragraph.end, active.end)
    guard from < to else { return }
    var ancestorSets = ancestorSets
    if let sets = facts?.sets, !sets.isEmpty { ancestorSets += sets }
    // The distinct times within the paragraph, in order (in storage kept between paragraphs).
    var cuts = paragraphTimes
    paragraphTimes = []
    defer { paragraphTimes = cuts }
    cuts.removeAll(keepingCapacity: true)
    cuts.append(from)
    cuts.append(to)
    boundaries(paragraph, into: &cuts)
    for set in ancestorSets {
      cuts.append(set.begin)
      cuts.append(set.end)
    }
    cuts.removeAll { !($0 >= from && $0 <= to) }
    cuts.sort()
    var distinct = 0
    for index in cuts.indices where distinct == 0 || cuts[distinct - 1] != cuts[index] {
      cuts[distinct] = cuts[index]
      distinct += 1
    }
    cuts.removeSubrange(distinct...)
    // Content flowed into a region inherits the region's styles (TTML 2, 10.4.4 and 11.3.1.3:
    // the region is the parent of the `body` copied into it), below everything the paragraph
    // and its ancestors state themselves.
    let fromRegion = facts?.inherited ?? [:]
    var paragraphStyle =
      fromRegion.isEmpty ? paragraph.style : fromRegion.merging(paragraph.style) { $1 }
    if let own = paragraph.style["textDecoration"], let inherited = fromRegion["textDecoration"] {
      paragraphStyle["textDecoration"] = Self.decoration(own, over: inherited)
    }
    for index in cuts.indices.dropLast() {
      let start = cuts[index]
      let stop = cuts[index + 1]
      guard start < stop else { continue }
      var style = paragraphStyle
      var restyled = !fromRegion.isEmpty
      for set in ancestorSets where set.begin <= start && start < set.end {
        for (name, value) in inlineStyle(set.element) { Self.state(name, value, in: &style) }
        restyled = true
      }
      // The writer is taken out of `self` while it writes into the document's text.
      var writer = TTMLCueText()
      swap(&writer, &cueWriter)
      writer.reset()
      writer.paragraph(
        paragraph, at: start, style: style, only: only, styles: styles,
        restyled: restyled && style != paragraph.style)
      let textStart = document.text.count
      let visible = writer.finish(into: &document.text)
      swap(&writer, &cueWriter)
      guard visible else { continue }
      appendCue(
        textStart: textStart, start: start, end: stop, paragraph: paragraph, region: facts,
        style: style)
    }
  }

  /// Appends the cue of `paragraph` whose text is in the document's text from `textStart` on.
  mutating func appendCue(
    textStart: Int, start: Double, end: Double, paragraph: Timed, region: Region?, style: Style
  ) {
    // A paragraph that begins past the largest timestamp is never shown: it is dropped, its
    // text with it (its end, clamped, would come before its start).
    guard start <= Self.unbounded else {
      document.text.removeSubrange(textStart...)
      note(
        "beyond", line: paragraph.element.line,
        "a paragraph begins after the largest timestamp; it is dropped")
      return
    }
    var cueEnd = end
    if !cueEnd.isFinite || cueEnd > Self.unbounded {
      cueEnd = Self.unbounded
      note(
        "unbounded", line: paragraph.element.line,
        "a paragraph has no end; its cue lasts to the largest timestamp")
    }
    let idText = Self.identifier(paragraph.element) ?? ""
    let idStart = document.text.count
    document.text.append(contentsOf: idText.utf8)
    var cue = Cue(
      idRange: idStart..<document.text.count, textRange: textStart..<idStart,
      startTime: (start * 1000).rounded() / 1000, endTime: (cueEnd * 1000).rounded() / 1000)
    cue.line = paragraph.element.line
    cue.settings = settings(for: paragraph, in: region, style: style)
    document.cues.append(cue)
  }

  // MARK: - Layout

  /// A length along one axis as a percentage of the root container: `N%`, `Npx` (of the
  /// root's pixel extent) or `Nc` (cells).
  func percent(_ text: Substring, horizontal: Bool) -> Double? {
    if text.hasSuffix("%") { return Double(text.dropLast()) }
    if text.hasSuffix("px"), let pixels = Double(text.dropLast(2)), let rootExtent {
      return pixels / (horizontal ? rootExtent.width : rootExtent.height) * 100
    }
    if text.hasSuffix("c"), let count = Double(text.dropLast()) {
      return count / (horizontal ? cells.columns : cells.rows) * 100
    }
    return nil
  }

  func pair(_ text: String?) -> (Double, Double)? {
    guard let parts = text?.split(whereSeparator: { $0 == " " || $0 == "\t" }), parts.count == 2,
      let x = percent(parts[0], horizontal: true), let y = percent(parts[1], horizontal: false)
    else { return nil }
    return (x, y)
  }

  /// WebVTT cue settings for `paragraph`: from its region's origin, extent and display
  /// alignment, and the text alignment and writing mode in effect. `region` is the one it
  /// shows in (`nil`: none, or one the head does not define), `style` its computed style.
  func settings(for paragraph: Timed, in region: Region?, style: Style) -> CueSettings {
    var settings = CueSettings()
    switch style["textAlign"] {
    case "left": settings.align = .left
    case "right": settings.align = .right
    case "start": settings.align = .start
    case "end": settings.align = .end
    default: settings.align = .center
    }
    // `writingMode` applies to regions (TTML 2, 10.2.47); a paragraph's own is read too.
    if let mode = region?.style["writingMode"] ?? style["writingMode"], mode.hasPrefix("tb") {
      settings.vertical = mode == "tblr" ? .leftToRight : .rightToLeft
    }
    guard let region, let (origin, extent) = region.geometry else { return settings }
    let clamp: (Double) -> Double = { min(100, max(0, $0)) }
    // The region's box along the text's lines (the inline axis) and across them (the block
    // axis). WebVTT's `position` and `size` are along the lines and its `line` across them
    // (WebVTT, "apply WebVTT cue settings"): for horizontal text `position` is the x position
    // and `size` the width in percent of the viewport's width, and `line` the y position in
    // percent of its height; for vertical text (`vertical:rl`/`lr`) `position` is the y
    // position and `size` the height (viewport height), and `line` the x position (viewport
    // width).
    let vertical = settings.vertical != .horizontal
    let inline = vertical ? (origin.1, extent.1) : (origin.0, extent.0)
    let block = vertical ? (origin.0, extent.0) : (origin.1, extent.1)
    settings.size = clamp(inline.1)
    // `textAlign` `left`/`start` is the line's start (the top for vertical text, as CSS's
    // line-left is), `right`/`end` its end.
    switch settings.align {
    case .left, .start:
      settings.position = clamp(inline.0)
      settings.positionAlign = .lineLeft
    case .right, .end:
      settings.position = clamp(inline.0 + inline.1)
      settings.positionAlign = .lineRight
    default:
      settings.position = clamp(inline.0 + inline.1 / 2)
      settings.positionAlign = .center
    }
    settings.snapToLines = false
    // `displayAlign` places the lines at the region's edge where they start (`before`), at the
    // other (`after`) or in its middle. Lines stack top to bottom for horizontal text, right to
    // left for `tbrl` (`vertical:rl`) and left to right for `tblr` (`vertical:lr`). A
    // percentage `line` names the cue box's top (`lineAlign` start), middle or bottom (end)
    // edge for horizontal text, and for vertical text its left (start), middle or right (end)
    // edge whichever way lines stack (WebVTT moves a vertical box left by its width for
    // `end`).
    let displayAlign = region.style["displayAlign"] ?? style["displayAlign"]
    if displayAlign == "center" {
      settings.line = clamp(block.0 + block.1 / 2)
      settings.lineAlign = .center
    } else {
      // Whether the lines sit at the region's top or left edge: `before` where lines start
      // there, `after` where they start at the other edge (`tbrl`, from the right).
      let nearEdge = (displayAlign == "after") == (settings.vertical == .rightToLeft)
      settings.line = clamp(nearEdge ? block.0 : block.0 + block.1)
      settings.lineAlign = nearEdge ? .start : .end
    }
    return settings
  }
}
