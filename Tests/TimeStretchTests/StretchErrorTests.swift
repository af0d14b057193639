import Testing
import TimeStretch

@Test func speedErrorNamesTheRange() {
  let error = StretchError.speedOutOfRange(0, supported: 0.1...10)
  #expect(error.description.contains("0.1...10.0"))
}
