import SubtitleParser

/// JSON for documents and cues, written piece by piece so big files never build a tree.
enum CueJSON {
  /// Writes `{"format","header","regions","styles","cues","diagnostics","timestampMap"}` with
  /// the cues at `cues` (indices into `document.cues`).
  static func writeDocument(
    _ document: SubtitleDocument, cues: [Int], tree: Bool, to sink: inout OutputSink
  ) {
    var out = "{\"format\":"
    JSON.appendQuoted(document.format.rawValue, to: &out)
    out += ",\"header\":"
    JSON.appendQuoted(document.header, to: &out)
    out += ",\"regions\":["
    for (i, region) in document.regions.enumerated() {
      if i > 0 { out += "," }
      appendRegion(region, to: &out)
    }
    out += "],\"styles\":["
    for (i, style) in document.styles.enumerated() {
      if i > 0 { out += "," }
      JSON.appendQuoted(style, to: &out)
    }
    out += "],\"cues\":["
    sink.write(out)
    for (n, index) in cues.enumerated() {
      out = n > 0 ? "," : ""
      appendCue(document, document.cues[index], tree: tree, to: &out)
      sink.write(out)
    }
    out = "],\"diagnostics\":["
    for (i, diagnostic) in document.diagnostics.enumerated() {
      if i > 0 { out += "," }
      out += "{\"line\":\(diagnostic.line),\"offset\":\(diagnostic.offset),\"reason\":"
      JSON.appendQuoted(diagnostic.reason, to: &out)
      out += ",\"count\":\(diagnostic.count)}"
      if out.utf8.count > 1 << 16 {
        sink.write(out)
        out = ""
      }
    }
    out += "],\"timestampMap\":"
    if let map = document.timestampMap {
      out += "{\"mpegts\":\(map.mpegts),\"local\":\(JSON.number(map.local))}"
    } else {
      out += "null"
    }
    out += "}\n"
    sink.write(out)
  }

  /// Appends one cue with the VTTCue attribute names and value conventions.
  static func appendCue(
    _ document: SubtitleDocument, _ cue: Cue, tree: Bool, to out: inout String
  ) {
    let s = cue.settings
    out += "{\"id\":"
    JSON.appendQuoted(document.id(of: cue), to: &out)
    out += ",\"startTime\":" + JSON.number(cue.startTime)
    out += ",\"endTime\":" + JSON.number(cue.endTime)
    out += ",\"text\":"
    JSON.appendQuoted(document.text(of: cue), to: &out)
    out += ",\"vertical\":\"\(s.vertical.rawValue)\""
    out += ",\"snapToLines\":\(s.snapToLines)"
    out += ",\"line\":" + (s.line.map(JSON.number) ?? "\"auto\"")
    out += ",\"lineAlign\":\"\(s.lineAlign.rawValue)\""
    out += ",\"position\":" + (s.position.map(JSON.number) ?? "\"auto\"")
    out += ",\"positionAlign\":\"\(s.positionAlign.rawValue)\""
    out += ",\"size\":" + JSON.number(s.size)
    out += ",\"align\":\"\(s.align.rawValue)\""
    out += ",\"region\":"
    if let region = document.region(of: cue) {
      appendRegion(region, to: &out)
    } else {
      out += "null"
    }
    if tree {
      out += ",\"tree\":"
      appendTree(CueNode.html(document.cueTree(of: cue)), to: &out)
    }
    out += "}"
  }

  static func appendRegion(_ region: Region, to out: inout String) {
    out += "{\"id\":"
    JSON.appendQuoted(region.id, to: &out)
    out += ",\"width\":" + JSON.number(region.width)
    out += ",\"lines\":" + JSON.number(region.lineCount)
    out += ",\"regionAnchorX\":" + JSON.number(region.regionAnchorX)
    out += ",\"regionAnchorY\":" + JSON.number(region.regionAnchorY)
    out += ",\"viewportAnchorX\":" + JSON.number(region.viewportAnchorX)
    out += ",\"viewportAnchorY\":" + JSON.number(region.viewportAnchorY)
    out += ",\"scroll\":"
    JSON.appendQuoted(region.scroll, to: &out)
    out += "}"
  }

  /// The `expected_tree` shape of the WebVTT conformance data: `{"type":"text","value"}`,
  /// `{"type":"timestamp","value"}`, `{"type":"element","name","attributes","children"}`.
  static func appendTree(_ nodes: [CueHTMLNode], to out: inout String) {
    out += "["
    for (i, node) in nodes.enumerated() {
      if i > 0 { out += "," }
      switch node {
      case .text(let text):
        out += "{\"type\":\"text\",\"value\":"
        JSON.appendQuoted(text, to: &out)
        out += "}"
      case .processingInstruction(_, let data):
        out += "{\"type\":\"timestamp\",\"value\":"
        JSON.appendQuoted(data, to: &out)
        out += "}"
      case .element(let name, let attributes, let children):
        out += "{\"type\":\"element\",\"name\":"
        JSON.appendQuoted(name, to: &out)
        out += ",\"attributes\":{"
        for (k, key) in attributes.keys.sorted().enumerated() {
          if k > 0 { out += "," }
          JSON.appendQuoted(key, to: &out)
          out += ":"
          JSON.appendQuoted(attributes[key] ?? "", to: &out)
        }
        out += "},\"children\":"
        appendTree(children, to: &out)
        out += "}"
      }
    }
    out += "]"
  }
}

/// The human-readable listing.
enum CueListing {
  /// `#N id  00:00:01.000 --> 00:00:02.000  settings` and the text lines indented.
  static func entry(_ document: SubtitleDocument, index: Int, tree: Bool) -> String {
    let cue = document.cues[index]
    var out = "#\(index + 1)"
    let id = document.id(of: cue)
    if !id.isEmpty { out += " " + displayText(id) }
    out += "  " + timestamp(cue.startTime) + " --> " + timestamp(cue.endTime)
    let settings = settingsText(cue.settings, document)
    if !settings.isEmpty { out += "  " + displayText(settings) }
    out += "\n"
    for line in document.text(of: cue).split(separator: "\n", omittingEmptySubsequences: false) {
      // Escape sequences in cue text (OSC, CSI) are shown, never sent to the terminal.
      out += "    " + displayText(String(line)) + "\n"
    }
    if tree {
      var json = ""
      CueJSON.appendTree(CueNode.html(document.cueTree(of: cue)), to: &json)
      out += "    tree: " + displayText(json) + "\n"
    }
    return out
  }

  static func timestamp(_ seconds: Double) -> String {
    // Times come from the parsers (at most 2^53 ms, the largest WebVTT timestamp, which an
    // unbounded cue ends at), but a caller's document may hold any: clamped where Int64 holds
    // it, so the listing shows the value the JSON does.
    let millis = seconds.isFinite ? Int64(min(0x1p62, max(0, (seconds * 1000).rounded()))) : 0
    let h = millis / 3_600_000
    let m = millis / 60_000 % 60
    let s = millis / 1000 % 60
    let ms = millis % 1000
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let three = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
    return "\(two(h)):\(two(m)):\(two(s)).\(three)"
  }

  static func settingsText(_ s: CueSettings, _ document: SubtitleDocument) -> String {
    var parts: [String] = []
    if s.vertical != .horizontal { parts.append("vertical:\(s.vertical.rawValue)") }
    if let line = s.line {
      var text = "line:" + JSON.number(line) + (s.snapToLines ? "" : "%")
      if s.lineAlign != .start { text += ",\(s.lineAlign.rawValue)" }
      parts.append(text)
    }
    if let position = s.position {
      var text = "position:" + JSON.number(position) + "%"
      if s.positionAlign != .auto { text += ",\(s.positionAlign.rawValue)" }
      parts.append(text)
    }
    if s.size != 100 { parts.append("size:" + JSON.number(s.size) + "%") }
    if s.align != .center { parts.append("align:\(s.align.rawValue)") }
    if let region = s.region, document.regions.indices.contains(region) {
      parts.append("region:\(document.regions[region].id)")
    }
    return parts.joined(separator: " ")
  }
}
