import Foundation
import Testing
import TimeStretch

@Test func menuRoundTripsThroughJSONAndIsValidatedWhenDecoded() throws {
  let menu = try SpeedMenu(rates: [0.5, 1, 2], labels: ["Slow", "Normal", "Fast"], defaultRate: 2)
  let data = try JSONEncoder().encode(menu)
  #expect(try JSONDecoder().decode(SpeedMenu.self, from: data) == menu)
  let bad = Data(
    #"{"entries":[{"rate":1,"label":"a"},{"rate":1,"label":"b"}],"defaultRate":1}"#.utf8)
  #expect(throws: DecodingError.self) { try JSONDecoder().decode(SpeedMenu.self, from: bad) }
}
