import PlayerCore
import Terminal
import Testing
@testable import PlayerApp

/// What the list view knows of songs: read a batch at a time, what is known kept, bounded.
struct SongFactsBookTests {
    @Test func asksAreReadABatchAtATimeAndWhatIsKnownStays() {
        var book = SongFactsBook()
        #expect(book.nextBatch() == nil)
        let sources = (0..<100).map { SongSource(Path("/m/\($0).mp3")) }
        book.ask(sources)
        #expect(book.nextBatch() == Array(sources.prefix(SongFactsBook.batch)))
        #expect(book.nextBatch() == Array(sources.dropFirst(SongFactsBook.batch)))
        #expect(book.nextBatch() == nil)
        book[sources[0]] = SongFacts(tags: SongInfo.Tags(title: "Opened"), seconds: 10)
        book.learn([sources[0]: SongFacts(tags: SongInfo.Tags(title: "Read"), seconds: 9), sources[1]: SongFacts(tags: SongInfo.Tags(title: "B"), seconds: 1)])
        #expect(book[sources[0]]?.tags.title == "Opened" && book[sources[1]]?.tags.title == "B")
    }

    @Test func whatIsKnownIsBounded() {
        var book = SongFactsBook()
        let facts = Dictionary(uniqueKeysWithValues: (0..<SongFactsBook.limit).map { (SongSource(Path("/m/\($0).mp3")), SongFacts(tags: SongInfo.Tags(), seconds: 1)) })
        book.learn(facts)
        #expect(book.known.count == SongFactsBook.limit)
        book.learn([SongSource("/new.mp3"): SongFacts(tags: SongInfo.Tags(), seconds: 2)])
        #expect(book.known.count == 1, "forgotten whole past the bound, the new kept")
    }
}
