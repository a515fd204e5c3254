import Testing
@testable import PlayerCore

/// The array held as runs: every edit an array takes gives the same values as an array's,
/// a list read at once stays a run or a few, and a shuffled one is held plainly.
struct RunArrayTests {
    /// Random edits of every kind, each checked against an array's, over types, steps and the
    /// ends of each type (a run never passes them).
    /// The run limit is 1,024, and also 8, to go over to values held plainly midway.
    @Test(arguments: [(0, 1024), (1, 1024), (2, 8), (3, 8)])
    func everyEditGivesAnArraysValues(seed: UInt64, runLimit: Int) {
        var random = SplitMix64(seed: seed)
        func check<T: FixedWidthInteger & Sendable>(_ type: T.Type, step: T, edge: T) {
            var runs = RunArray<T>(step: step)
            runs.runLimit = runLimit
            var model: [T] = []
            func value() -> T {
                switch random.next(below: 4) {
                case 0: return edge &+ T(truncatingIfNeeded: random.next(below: 3))
                case 1: return T.max &- T(truncatingIfNeeded: random.next(below: 3))
                default: return T(truncatingIfNeeded: random.next(below: 40))
                }
            }
            for round in 0..<600 {
                let position = Int(random.next(below: UInt64(model.count + 1)))
                switch random.next(below: 8) {
                case 0:
                    let start = value(), count = Int(random.next(below: 30))
                    let added = (0..<count).map { start &+ T(truncatingIfNeeded: $0) &* step }
                    runs.insert(contentsOf: added, at: position)
                    model.insert(contentsOf: added, at: position)
                case 1 where position < model.count:
                    #expect(runs.remove(at: position) == model.remove(at: position))
                case 2 where position < model.count:
                    let new = value()
                    runs[position] = new
                    model[position] = new
                case 3:
                    let end = min(model.count, position + Int(random.next(below: 20)))
                    let new = repeatElement(value(), count: Int(random.next(below: 5)))
                    runs.replaceSubrange(position..<end, with: new)
                    model.replaceSubrange(position..<end, with: new)
                case 4 where model.count > 1:
                    let other = Int(random.next(below: UInt64(model.count)))
                    let at = min(position, model.count - 1)
                    runs.swapAt(at, other)
                    model.swapAt(at, other)
                case 5:
                    // An entry inserted or removed before others: values from a threshold on move.
                    let threshold = value(), delta: T = random.next(below: 2) == 0 ? 1 : (T.isSigned ? 0 &- 1 : 2)
                    guard model.allSatisfy({ $0 < threshold || !$0.addingReportingOverflow(delta).overflow }) else { break }
                    runs.shift(valuesFrom: threshold, by: delta)
                    model = model.map { $0 >= threshold ? $0 + delta : $0 }
                default:
                    let new = value()
                    runs.append(new)
                    model.append(new)
                }
                #expect(runs.count == model.count)
                if round % 50 == 0 || round == 599 {
                    #expect(Array(runs) == model, "\(T.self) step \(step), round \(round)")
                    #expect(runs.indices.map { runs[$0] } == model)
                    for probe in model.prefix(8) + [edge, T.max, 3] {
                        #expect(runs.firstIndex(of: probe) == model.firstIndex(of: probe), "\(T.self) \(probe)")
                    }
                }
            }
        }
        check(UInt8.self, step: 0, edge: 0)
        check(UInt32.self, step: 1, edge: 0)
        check(UInt32.self, step: 0, edge: UInt32.max - 2)
        check(Int.self, step: 1, edge: Int.min)
        check(Int8.self, step: 1, edge: Int8.min)
    }

    /// A run of a signed type longer than half the type: each value is found where it is.
    @Test func aValueIsFoundInARunWiderThanHalfItsType() {
        var runs = RunArray<Int8>(step: 1)
        runs.append(contentsOf: -100...100)
        #expect(runs.runCount == 1)
        #expect(runs.firstIndex(of: 100) == 200 && runs.firstIndex(of: -100) == 0 && runs.firstIndex(of: 0) == 100)
        #expect(runs.firstIndex(of: 101) == nil && runs.firstIndex(of: -101) == nil)
    }

    /// A list's order and ids read at once are one run, a version marked on the tail adds one;
    /// a shuffled order is held plainly, with the same values.
    @Test func aListReadAtOnceIsARunAndAShuffledOneIsHeldPlainly() {
        var order = RunArray<Int>(counting: 100_000)
        #expect(order.runCount == 1 && order[99_999] == 99_999 && order.firstIndex(of: 54_321) == 54_321)
        order.append(contentsOf: 100_000..<150_000)
        #expect(order.runCount == 1 && order.count == 150_000)
        order.insert(7, at: 10)  // an entry queued next
        #expect(order.runCount == 3 && order[10] == 7 && order[11] == 10)
        order.remove(at: 10)
        #expect(order.runCount == 1, "joined again")
        order.shift(valuesFrom: 500, by: 3)  // three entries inserted at 500
        order.insert(contentsOf: 500..<503, at: 500)
        #expect(order.runCount == 1 && order.count == 150_003 && order[150_002] == 150_002)
        var versions = RunArray<UInt32>(repeatElement(1, count: 100_000), step: 0)
        versions.replaceSubrange(50_000..<100_000, with: repeatElement(2, count: 50_000))
        #expect(versions.runCount == 2 && versions[49_999] == 1 && versions[50_000] == 2)
        var random = SplitMix64(seed: 9)
        var shuffled = Array(0..<10_000)
        shuffled.shuffle(using: &random)
        var held = RunArray<Int>(counting: 10_000)
        for (index, value) in shuffled.enumerated() { held[index] = value }
        #expect(held.runCount == 0 && held.isPlain && Array(held) == shuffled)
        #expect(held == shuffled && held != RunArray(counting: 10_000))
    }
}
