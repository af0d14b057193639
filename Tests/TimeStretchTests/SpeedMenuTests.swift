import Testing
import TimeStretch

@Test func menuFromAPlayersConfiguration() throws {
  let menu = try SpeedMenu(speeds: [2, 0.5, 1], labels: ["Fast", "Slow", "Normal"])
  #expect(menu.speeds == [0.5, 1, 2])
  #expect(menu.entries.map(\.label) == ["Slow", "Normal", "Fast"])
  #expect(menu.defaultSpeed == 1)
  #expect(menu.label(for: 2) == "Fast")
  #expect(menu.label(for: 3) == nil)
}

@Test func defaultLabels() throws {
  #expect(SpeedMenu.defaultLabel(for: 1.5) == "1.5×")
  #expect(SpeedMenu.defaultLabel(for: 1) == "1×")
  #expect(SpeedMenu.defaultLabel(for: 0.75) == "0.75×")
  #expect(SpeedMenu.defaultLabel(for: 10) == "10×")
  let menu = try SpeedMenu(speeds: [0.75, 1.5])
  #expect(menu.entries.map(\.label) == ["0.75×", "1.5×"])
  #expect(menu.defaultSpeed == 0.75)
  #expect(SpeedMenu.standard.speeds.count == 7)
}

@Test func steppingAndNearest() throws {
  let menu = try SpeedMenu(speeds: [0.5, 0.75, 1, 1.5, 2], defaultSpeed: 1)
  #expect(menu.stepUp(from: 1) == 1.5)
  #expect(menu.stepUp(from: 1.2) == 1.5)
  #expect(menu.stepUp(from: 2) == 2)
  #expect(menu.stepUp(from: 9) == 2)
  #expect(menu.stepDown(from: 1) == 0.75)
  #expect(menu.stepDown(from: 0.5) == 0.5)
  #expect(menu.stepDown(from: 0.1) == 0.5)
  #expect(menu.nearest(to: 1.2) == 1)
  #expect(menu.nearest(to: 1.25) == 1)
  #expect(menu.nearest(to: 1.3) == 1.5)
  #expect(menu.nearest(to: 100) == 2)
  #expect(menu.nearest(to: .nan) == 1)
  #expect(menu.stepUp(from: .nan) == 1)
}

@Test func invalidMenusNameTheBadEntry() {
  let range = TimeStretcher.supportedSpeeds
  #expect(throws: StretchError.emptyMenu) { try SpeedMenu(speeds: []) }
  #expect(throws: StretchError.invalidMenuSpeed(index: 1, value: 0, supported: range)) {
    try SpeedMenu(speeds: [1, 0])
  }
  #expect(throws: StretchError.invalidMenuSpeed(index: 2, value: -1, supported: range)) {
    try SpeedMenu(speeds: [1, 2, -1])
  }
  #expect(throws: StretchError.invalidMenuSpeed(index: 0, value: .infinity, supported: range)) {
    try SpeedMenu(speeds: [.infinity])
  }
  #expect(throws: StretchError.invalidMenuSpeed(index: 1, value: 20, supported: range)) {
    try SpeedMenu(speeds: [1, 20])
  }
  #expect(throws: StretchError.duplicateMenuSpeed(index: 2, value: 1)) {
    try SpeedMenu(speeds: [1, 2, 1])
  }
  #expect(throws: StretchError.labelCountMismatch(speeds: 2, labels: 1)) {
    try SpeedMenu(speeds: [1, 2], labels: ["x"])
  }
  #expect(throws: StretchError.defaultSpeedNotInMenu(1.25)) {
    try SpeedMenu(speeds: [1, 2], defaultSpeed: 1.25)
  }
  do {
    _ = try SpeedMenu(speeds: [1, .nan])
    Issue.record("NaN accepted")
  } catch {
    guard case .invalidMenuSpeed(let i, let v, _) = error else {
      Issue.record("wrong error \(error)")
      return
    }
    #expect(i == 1 && v.isNaN)
    #expect(error.description.contains("#1"))
  }
}
