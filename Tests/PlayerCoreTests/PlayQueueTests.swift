import Testing
@testable import PlayerCore

private func drain(_ queue: inout PlayQueue, _ steps: Int) -> [Int] {
    (0..<steps).compactMap { _ in queue.advance() }
}

struct PlayQueueTests {
    @Test func inOrderItEndsAfterTheLastEntry() {
        var queue = PlayQueue(count: 3, seed: 1)
        #expect(drain(&queue, 5) == [0, 1, 2])
        #expect(queue.current == 2)
    }

    /// A resumed list plays in the order it was saved in, from the song it was on.
    @Test func aQueueMadeFromAnOrderPlaysInIt() {
        var queue = PlayQueue(order: [2, 0, 3, 1], shuffle: true, repeats: false, seed: 1)
        #expect(queue.count == 4 && queue.shuffles && queue.current == nil)
        queue.select(3)
        #expect(drain(&queue, 3) == [1])
        var fresh = PlayQueue(order: [2, 0, 3, 1], shuffle: false, repeats: false, seed: 1)
        #expect(drain(&fresh, 5) == [2, 0, 3, 1])
    }

    @Test func repeatStartsOverForever() {
        var queue = PlayQueue(count: 2, repeats: true, seed: 1)
        #expect(drain(&queue, 5) == [0, 1, 0, 1, 0])
    }

    @Test func shufflePlaysEveryEntryOncePerRoundAndTheSeedFixesTheOrder() {
        var a = PlayQueue(count: 50, shuffle: true, repeats: true, seed: 42)
        var b = PlayQueue(count: 50, shuffle: true, repeats: true, seed: 42)
        var c = PlayQueue(count: 50, shuffle: true, repeats: true, seed: 43)
        let first = drain(&a, 100)
        #expect(first == drain(&b, 100), "same seed, same order")
        #expect(first != drain(&c, 100), "another seed, another order")
        #expect(Set(first[0..<50]) == Set(0..<50) && Set(first[50..<100]) == Set(0..<50), "each round plays all")
        #expect(first[0..<50] != first[50..<100], "each round is shuffled anew")
        #expect(Array(first[0..<50]) != Array(0..<50))
    }

    /// A script's `seed N`: whatever the run started with, the shuffles after it are the same.
    @Test func reseedingFixesTheShufflesThatFollow() {
        var a = PlayQueue(count: 30, seed: 1)
        var b = PlayQueue(count: 30, seed: 2)
        _ = drain(&a, 3)
        _ = drain(&b, 3)
        a.seed(99)
        b.seed(99)
        a.setShuffle(true)
        b.setShuffle(true)
        let order = drain(&a, 27)
        #expect(order == drain(&b, 27))
        var c = PlayQueue(count: 30, seed: 1)
        _ = drain(&c, 3)
        c.seed(100)
        c.setShuffle(true)
        #expect(order != drain(&c, 27), "another seed, another order")
    }

    @Test func togglingShuffleKeepsTheCurrentEntry() {
        var queue = PlayQueue(count: 10, seed: 9)
        _ = drain(&queue, 4)
        #expect(queue.current == 3)
        queue.setShuffle(true)
        #expect(queue.current == 3)
        let rest = drain(&queue, 20)
        #expect(Set(rest) == Set(0..<10).subtracting([3]), "the rest of the round: every other entry once")
        queue.setShuffle(false)
        #expect(queue.current == rest.last)
    }

    @Test func retreatStopsAtTheFirstOrWrapsWithRepeat() {
        var queue = PlayQueue(count: 3, seed: 1)
        _ = drain(&queue, 2)
        #expect(queue.retreat() == 0)
        #expect(queue.retreat() == 0)
        queue.repeats = true
        #expect(queue.retreat() == 2)
    }

    @Test func entriesInsertedNextPlayBeforeTheRestOfTheList() {
        var queue = PlayQueue(count: 3, seed: 1)
        _ = drain(&queue, 1)
        queue.insert(2, at: 1, playNext: true)
        #expect(drain(&queue, 10) == [1, 2, 3, 4])
    }

    @Test func aHundredThousandEntriesShuffleQuickly() {
        var queue = PlayQueue(count: 100_000, shuffle: true, seed: 5)
        #expect(Set(drain(&queue, 100_000)).count == 100_000)
    }
}

/// The list view's edits: entries inserted, taken out and moved, the current one kept current.
struct PlayQueueEditTests {
    @Test func insertedEntriesPlayWhereTheyStandInListOrder() {
        var queue = PlayQueue(count: 4, seed: 1)
        _ = drain(&queue, 2)  // on entry 1
        queue.insert(2, at: 1)
        #expect(queue.order == Array(0..<6) && queue.current == 3, "the current entry moved down with its song")
        queue.insert(1, at: 4)
        #expect(queue.order == Array(0..<7) && drain(&queue, 9) == [4, 5, 6])
    }

    @Test func entriesToPlayNextGoAfterTheCurrentOneInEitherMode() {
        var listOrder = PlayQueue(count: 3, seed: 1)
        _ = drain(&listOrder, 2)
        listOrder.insert(2, at: 2, playNext: true)
        #expect(drain(&listOrder, 9) == [2, 3, 4])
        var shuffled = PlayQueue(count: 5, shuffle: true, seed: 3)
        let first = drain(&shuffled, 1)[0]
        shuffled.insert(2, at: first + 1, playNext: true)
        #expect(drain(&shuffled, 2) == [first + 1, first + 2])
        #expect(Set(shuffled.order) == Set(0..<7))
    }

    @Test func takingOutTheCurrentEntryGoesOnToTheOneAfterIt() {
        var queue = PlayQueue(count: 4, seed: 1)
        _ = drain(&queue, 2)  // on entry 1
        queue.remove(1)
        #expect(queue.order == [0, 1, 2] && queue.current == 0)
        #expect(queue.advance() == 1, "what was entry 2 is entry 1 now, and plays next")
        queue.remove(0)
        #expect(queue.current == 0 && queue.order == [0, 1], "an entry before the cursor: it stays on its song")
        var first = PlayQueue(count: 2, seed: 1)
        _ = first.advance()
        first.remove(0)
        #expect(first.cursor == nil && first.advance() == 0)
    }

    @Test func takingOutAShuffledEntryRenumbersTheRest() {
        var queue = PlayQueue(count: 6, shuffle: true, seed: 9)
        let played = drain(&queue, 3)
        queue.remove(played[1])
        let renumbered = { (entry: Int) in entry > played[1] ? entry - 1 : entry }
        #expect(Set(queue.order) == Set(0..<5) && queue.current == renumbered(played[2]))
    }

    @Test func aMovedEntryKeepsItsSongCurrentAndTheListOrderIsThePlayOrder() {
        var queue = PlayQueue(count: 4, seed: 1)
        _ = drain(&queue, 2)  // on entry 1
        queue.swap(1, 2)
        #expect(queue.current == 2 && queue.order == [0, 1, 2, 3])
        #expect(queue.advance() == 3)
        var shuffled = PlayQueue(count: 4, shuffle: true, seed: 5)
        let before = shuffled.order
        let current = shuffled.advance()!
        shuffled.swap(0, 1)
        let swapped = { (entry: Int) in entry == 0 ? 1 : entry == 1 ? 0 : entry }
        #expect(shuffled.order == before.map(swapped) && shuffled.current == swapped(current))
    }
}
