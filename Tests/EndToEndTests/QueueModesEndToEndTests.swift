import Foundation
import Testing

/// The queue, repeat-one and stop-after from a script, written to a file: which songs play, in
/// which order, known to the sample (the demo songs, decoded by mpg123 as the reference).
@Suite(.timeLimit(.minutes(10))) struct QueueModesEndToEndTests {
    private func reference(_ songs: [Int], in folder: URL) throws -> Data {
        try Harness.referenceDecode(songs.map { Harness.songs[$0] }, in: folder)
    }

    private func play(_ lines: [String], in folder: URL) throws -> Data {
        let adds = Harness.songs.map { "add \($0)" }
        let (ours, result) = try ScriptTests.run(adds + lines, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        return ours
    }

    @Test func aQueuedSongPlaysNextThenTheListGoesOnWhereItWas() throws {
        let folder = try Harness.temporaryFolder()
        let ours = try play(["play", "queue 3", "wait end", "wait end", "wait end", "quit"], in: folder)
        _ = Harness.samePCM(ours, try reference([0, 2, 1], in: folder))
        // Queued before anything plays, it plays first, and the list from its start.
        let first = try play(["queue 3", "play", "wait end", "wait end", "wait end", "quit"], in: folder)
        _ = Harness.samePCM(first, try reference([2, 0, 1], in: folder))
    }

    @Test func repeatOnePlaysTheSongAgainUntilItIsTurnedOff() throws {
        let folder = try Harness.temporaryFolder()
        let ours = try play(["repeat-one on", "play", "wait end", "repeat-one off", "wait end", "wait end", "quit"], in: folder)
        _ = Harness.samePCM(ours, try reference([0, 0, 1], in: folder))
    }

    @Test func stopAfterEndsTheMusicWithTheSongPlaying() throws {
        let folder = try Harness.temporaryFolder()
        let ours = try play(["stop-after on", "play", "wait end", "quit"], in: folder)
        _ = Harness.samePCM(ours, try reference([0], in: folder))
    }
}
