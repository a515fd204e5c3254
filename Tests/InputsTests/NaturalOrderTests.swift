import Testing
@testable import Inputs

struct NaturalOrderTests {
    @Test func numbersCompareByValue() {
        let names = ["track10.mp3", "Track2.mp3", "track1.mp3", "track02b.mp3", "a.mp3", "track2.mp3"]
        #expect(names.sorted(by: NaturalOrder.less) == ["a.mp3", "track1.mp3", "Track2.mp3", "track2.mp3", "track02b.mp3", "track10.mp3"])
    }
}
