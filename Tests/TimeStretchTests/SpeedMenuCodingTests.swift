import Foundation
import Testing
import TimeStretch

@Test func menuRoundTripsThroughJSONAndIsValidatedWhenDecoded() throws {
  let menu = try SpeedMenu(
    speeds: [0.5, 1, 2], labels: ["Slow", "Normal", "Fast"], defaultSpeed: 2)
  let data = try JSONEncoder().encode(menu)
  #expect(try JSONDecoder().decode(SpeedMenu.self, from: data) == menu)
  let bad = Data(
    #"{"entries":[{"rate":1,"label":"a"},{"rate":1,"label":"b"}],"defaultRate":1}"#.utf8)
  #expect(throws: DecodingError.self) { try JSONDecoder().decode(SpeedMenu.self, from: bad) }
}

@Test func menuIsWrittenWithSpeedKeysAndReadWithEitherKeys() throws {
  let menu = try SpeedMenu(speeds: [0.5, 1], labels: ["Slow", "Normal"], defaultSpeed: 1)
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  let text = String(decoding: try encoder.encode(menu), as: UTF8.self)
  #expect(
    text
      == #"{"defaultSpeed":1,"entries":[{"label":"Slow","speed":0.5},{"label":"Normal","speed":1}]}"#
  )
  // Menus written before the rename name the speed `rate` and the default `defaultRate`.
  let old = Data(
    #"{"entries":[{"rate":0.5,"label":"Slow"},{"rate":1,"label":"Normal"}],"defaultRate":1}"#.utf8)
  #expect(try JSONDecoder().decode(SpeedMenu.self, from: old) == menu)
  let missing = Data(#"{"entries":[{"label":"Slow"}],"defaultSpeed":1}"#.utf8)
  #expect(throws: DecodingError.self) { try JSONDecoder().decode(SpeedMenu.self, from: missing) }
}
