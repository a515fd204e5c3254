import Library
import Testing

struct LibraryQueryTests {
    private func terms(_ text: String) throws -> [LibraryQuery.Term] {
        try LibraryQuery.parse(text).get().terms
    }

    @Test func wordsAreFoldedAndEachIsATerm() throws {
        #expect(try terms("  Björk   POST ") == [.words("bjork", field: nil), .words("post", field: nil)])
        #expect(try terms("Straße") == [.words("strasse", field: nil)])
    }

    @Test func aFieldNamesItsColumnAndQuotesHoldWholeWords() throws {
        #expect(try terms("artist:björk album:\"Homo Sapiens\"")
            == [.words("bjork", field: .artist), .phrase("homo sapiens", field: .album)])
        #expect(try terms("ALBUMARTIST:\"Various Artists\" path:flac \"the end\"")
            == [.phrase("various artists", field: .albumartist), .words("flac", field: .path), .phrase("the end", field: nil)])
    }

    @Test func aNameThatIsNoFieldIsPartOfTheWords() throws {
        #expect(try terms("Re:Zero") == [.words("re:zero", field: nil)])
    }

    @Test func numbersTakeOneValueOrARange() throws {
        #expect(try terms("year:1990..1999 rating:4.. plays:..3 disc:2")
            == [.number(.year, 1990...1999), .number(.rating, 4...999_999_999), .number(.plays, 0...3), .number(.disc, 2...2)])
    }

    @Test func textBeingTypedNeverFails() throws {
        #expect(try terms("album:\"Homo Sa") == [.words("homo sa", field: .album)], "an open quote runs to the end")
        #expect(try terms("artist: year: - \"\"").isEmpty, "empty values and values of no word ask for nothing")
        #expect(try terms("").isEmpty)
    }

    @Test func aNumberFieldsValueThatIsNoNumberIsSaid() {
        #expect(throws: LibraryQuery.ParseError.self) { try LibraryQuery.parse("year:abc").get() }
        #expect(throws: LibraryQuery.ParseError.self) { try LibraryQuery.parse("year:1999..1990").get() }
        #expect(throws: LibraryQuery.ParseError.self) { try LibraryQuery.parse("year:99999999999999999999").get() }
        #expect(throws: LibraryQuery.ParseError.self) { try LibraryQuery.parse("year:..").get() }
    }
}
