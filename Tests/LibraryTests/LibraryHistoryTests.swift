import Foundation
import Library
import PlayerCore
import Testing

/// The play history: each listen a row, the query fields over it (`played:`, `added:`,
/// `plays@SPAN:`, `skips:`), the sort by `added`, and the history carried with a moved song and
/// gone with a song taken out.
struct LibraryHistoryTests {
    static let day: Int64 = 86400

    private func song(_ path: String) -> LibrarySong {
        var song = LibrarySong(path: Path(path), size: 1000, modified: 1_600_000_000 * 1_000_000_000, rate: 44100, channels: 2)
        song.title = String(path.split(separator: "/").last ?? "")
        song.seconds = 200
        return song
    }

    private func listen(_ path: String, _ kind: Listen.Kind, heard: Double = 120) -> Listen {
        Listen(kind: kind, song: SongInfo(path: Path(path), sampleRate: 44100, channels: 2, totalFrames: 44100 * 200, title: nil), heard: heard)
    }

    /// a: played 2, 10 and 40 days ago, skipped yesterday; b: played 100 days ago; c: never
    /// played, skipped three times 5 days ago.
    private func library() throws -> LibraryDatabase {
        let folder = try LibraryFixture.folder()
        let database = try LibraryDatabase.open(at: folder.appending("data/library.sqlite")).get().database
        try database.put([song("/m/a.flac"), song("/m/b.flac"), song("/m/c.flac")]).get()
        let now = Int64(time(nil))
        for days: Int64 in [40, 10, 2] { try database.record(listen("/m/a.flac", .played), at: now - days * Self.day).get() }
        try database.record(listen("/m/a.flac", .skipped, heard: 3), at: now - Self.day).get()
        try database.record(listen("/m/b.flac", .played), at: now - 100 * Self.day).get()
        for _ in 0..<3 { try database.record(listen("/m/c.flac", .skipped, heard: 1), at: now - 5 * Self.day).get() }
        return database
    }

    private func find(_ database: LibraryDatabase, _ text: String) throws -> [String] {
        try database.find(LibraryQuery.parse(text).get()).get().map(\.description)
    }

    @Test func eachListenIsARowAndTheFieldsAskTheHistory() throws {
        let database = try library()
        let history = try database.history(of: "/m/a.flac").get()
        #expect(history.count == 4 && history.map(\.skipped) == [false, false, false, true] && history.last?.heard == 3)
        #expect(try find(database, "played:<30d") == ["/m/a.flac"])
        #expect(try find(database, "played:<1d").isEmpty, "a skip is no play")
        #expect(try find(database, "played:>90d") == ["/m/b.flac", "/m/c.flac"], "not since 90 days: never, too")
        #expect(try find(database, "played:>1w") == ["/m/b.flac", "/m/c.flac"])
        #expect(try find(database, "plays@30d:2..") == ["/m/a.flac"])
        #expect(try find(database, "plays@30d:3..").isEmpty, "the play 40 days ago is out of the window")
        #expect(try find(database, "plays@1y:1") == ["/m/b.flac"])
        #expect(try find(database, "plays@1y:0") == ["/m/c.flac"])
        #expect(try find(database, "skips:3..") == ["/m/c.flac"])
        #expect(try find(database, "skips:1..") == ["/m/a.flac", "/m/c.flac"])
        #expect(try find(database, "added:<7d").count == 3, "put now")
        #expect(try find(database, "added:>7d").isEmpty)
        #expect(try find(database, "played:<30d skips:1..") == ["/m/a.flac"], "terms together")
    }

    @Test func aMonthADayAndAYearAreOfTheLocalCalendarAndAnyPlayThenCounts() throws {
        let folder = try LibraryFixture.folder()
        let database = try LibraryDatabase.open(at: folder.appending("data/library.sqlite")).get().database
        try database.put([song("/m/a.flac"), song("/m/b.flac")]).get()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        func moment(_ year: Int, _ month: Int, _ day: Int, _ hour: Int) -> Int64 {
            Int64(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!.timeIntervalSince1970)
        }
        // a: played on the first of November at 00:30, and again in December (its last play).
        try database.record(listen("/m/a.flac", .played), at: moment(2025, 11, 1, 0)).get()
        try database.record(listen("/m/a.flac", .played), at: moment(2025, 12, 3, 12)).get()
        // b: the last moment of October, and a skip in November.
        try database.record(listen("/m/b.flac", .played), at: moment(2025, 11, 1, 0) - 1).get()
        try database.record(listen("/m/b.flac", .skipped), at: moment(2025, 11, 20, 12)).get()
        #expect(try find(database, "played:2025-11") == ["/m/a.flac"], "any play that month, not only the last; a skip is none")
        // A last play from before the history (or an MPD client's sticker) counts too.
        var older = song("/m/c.flac")
        older.lastPlayed = moment(2025, 11, 15, 12)
        try database.put([older]).get()
        #expect(try find(database, "played:2025-11") == ["/m/a.flac", "/m/c.flac"])
        try database.retire(["/m/c.flac"], carrying: []).get()
        #expect(try find(database, "played:2025-10") == ["/m/b.flac"])
        #expect(try find(database, "played:2025-10-31") == ["/m/b.flac"])
        #expect(try find(database, "played:2025-12-03") == ["/m/a.flac"])
        #expect(try find(database, "played:2025") == ["/m/a.flac", "/m/b.flac"])
        #expect(try find(database, "played:2024").isEmpty)
    }

    @Test func theNewFieldsAreReadOrRefusedInOneLine() throws {
        let month = try LibraryQuery.parse("played:2026-11").get()
        guard case .time(.played, .between(let start, let end)) = month.terms.first else {
            Issue.record("\(month)")
            return
        }
        #expect(end - start >= 30 * Self.day - 3600 && end - start <= 30 * Self.day + 3600, "November: 30 days")
        #expect(try LibraryQuery.parse("played:<30d").get().terms == [.time(.played, .within(seconds: 30 * Self.day))])
        #expect(try LibraryQuery.parse("added:>12h").get().terms == [.time(.added, .before(seconds: 12 * 3600))])
        #expect(try LibraryQuery.parse("PLAYS@2w:5..").get().terms == [.recentPlays(seconds: 14 * Self.day, 5...999_999_999)])
        #expect(try LibraryQuery.parse("skips:3..").get().terms == [.number(.skips, 3...999_999_999)])
        #expect(try LibraryQuery.parse("played:").get().terms.isEmpty, "an empty value is left out, as being typed")
        for bad in ["played:soon", "played:<30", "played:<30x", "played:2026-13", "played:2026-02-30", "played:26-11", "played:<9999999999d",
                    "added:2026-11-05-01", "plays@30d:many", "plays@month:3", "plays@:3"] {
            guard case .failure(let error) = LibraryQuery.parse(bad) else {
                Issue.record("\(bad) was read")
                continue
            }
            #expect(!error.description.contains("\n") && error.description.contains("give"), "\(bad): \(error)")
        }
    }

    @Test func aMovedSongKeepsItsHistoryAndOneTakenOutTakesItsOwn() throws {
        let database = try library()
        let a = try #require(try database.songs(at: ["/m/a.flac"]).get().first)
        try database.put([song("/n/moved-a.flac")]).get()
        try database.retire(["/m/a.flac"], carrying: [(a, "/n/moved-a.flac")]).get()
        #expect(try database.history(of: "/n/moved-a.flac").get().count == 4)
        #expect(try find(database, "played:<30d") == ["/n/moved-a.flac"])
        #expect(try find(database, "plays@30d:2") == ["/n/moved-a.flac"])
        try database.retire(["/m/b.flac"], carrying: []).get()
        #expect(try database.history(of: "/m/b.flac").get().isEmpty)
        #expect(try find(database, "plays@1y:1..").count == 1, "b's play went with it")
    }

    @Test func theSortedViewSortsByWhenAdded() throws {
        let sort = try LibrarySort.parse("-added title").get()
        #expect(sort.keys.map(\.field) == [.added, .title] && sort.keys.map(\.descending) == [true, false])
    }
}
