import Testing
@testable import PlayerCore

/// ICY as stations send it: the headers' station, the metadata blocks' titles, text repaired as
/// mpg123's icy2utf8 repairs it, and every number and length from the network bounded.
struct IcyMetadataTests {
    static func block(_ text: String, padTo size: Int = 64) -> [UInt8] {
        let bytes = Array(text.utf8)
        return bytes + [UInt8](repeating: 0, count: max(size - bytes.count, 0))
    }

    @Test func aBlocksFieldsAndItsTitle() {
        let block = Self.block("StreamTitle='Artist - Title';StreamUrl='http://example.org/';")
        let fields = IcyMetadata.fields(block)
        #expect(fields.map(\.key) == ["StreamTitle", "StreamUrl"])
        #expect(fields.map(\.value) == ["Artist - Title", "http://example.org/"])
        #expect(IcyMetadata.title(block) == "Artist - Title")
    }

    @Test func aTitleMayHoldAnApostropheAndTheLastSemicolonMayBeMissing() {
        #expect(IcyMetadata.title(Self.block("StreamTitle='Guns N' Roses - Patience';")) == "Guns N' Roses - Patience")
        #expect(IcyMetadata.title(Self.block("StreamTitle='No semicolon'")) == "No semicolon")
        #expect(IcyMetadata.title(Self.block("StreamTitle='';")) == "", "an empty title: none now")
        #expect(IcyMetadata.title(Self.block("StreamUrl='x';")) == nil)
    }

    @Test func textIsUTF8WhenItIsAndWindows1252Otherwise() {
        #expect(IcyMetadata.text(Array("Björk – Jóga".utf8)) == "Björk – Jóga")
        #expect(IcyMetadata.text([0x42, 0x6A, 0xF6, 0x72, 0x6B]) == "Björk", "Latin-1")
        #expect(IcyMetadata.text([0x93, 0x51, 0x94, 0x20, 0x80, 0x20, 0x99]) == "\u{201C}Q\u{201D} € ™", "Windows-1252")
        // Its unassigned bytes stay controls, which every door escapes.
        let unassigned = IcyMetadata.text([0x41, 0x81, 0x42])
        #expect(UntrustedText.shown(unassigned) == "A\\u{81}B")
    }

    /// A title that holds terminal commands is kept as sent; the sanitiser shows them escaped.
    @Test func aHostileTitleIsKeptForTheSanitiser() throws {
        let title = try #require(IcyMetadata.title(Self.block("StreamTitle='\u{1B}]0;owned\u{07}\u{1B}[2JNews';", padTo: 80)))
        #expect(title == "\u{1B}]0;owned\u{07}\u{1B}[2JNews")
        #expect(!UntrustedText.shown(title).unicodeScalars.contains { UntrustedText.isControl($0) })
    }

    @Test func whatIsNotKeyValuePairsStopsTheFields() {
        #expect(IcyMetadata.fields(Self.block("garbage")).isEmpty)
        #expect(IcyMetadata.fields(Self.block("='x';")).isEmpty, "no key")
        #expect(IcyMetadata.fields(Self.block("StreamTitle=x;")).isEmpty, "no quote")
        #expect(IcyMetadata.fields(Self.block("StreamTitle='A';junk")).map(\.value) == ["A"])
        #expect(IcyMetadata.fields([]).isEmpty)
    }

    @Test func aBlockLongerThanTheProtocolAllowsIsCut() {
        let huge = Array("StreamTitle='".utf8) + [UInt8](repeating: 0x41, count: 100_000) + Array("';".utf8)
        let title = IcyMetadata.title(huge)
        #expect(title.map { $0.utf8.count <= IcyMetadata.maximumBlock } == true)
    }

    @Test func theStationsHeadersAreBounded() {
        let headers: [(name: String, value: [UInt8])] = [
            ("ICY-Name", Array(" Radio \u{1B}[2J One ".utf8)), ("icy-genre", Array("Jazz".utf8)), ("icy-url", Array("http://r.example/".utf8)),
            ("icy-br", Array("128,128".utf8)), ("icy-metaint", Array("16000".utf8)), ("icy-name", Array("second".utf8)),
            ("Content-Type", Array("audio/mpeg".utf8)),
        ]
        let station = IcyMetadata.station(headers: headers)
        #expect(station == IcyMetadata.Station(name: "Radio \u{1B}[2J One", genre: "Jazz", url: "http://r.example/", bitrate: 128, interval: 16000))
        for bad in ["0", "-5", "99999999999999999999", "2000000", "x", ""] {
            #expect(IcyMetadata.station(headers: [("icy-metaint", Array(bad.utf8))]).interval == nil, "\(bad)")
            #expect(IcyMetadata.station(headers: [("icy-br", Array(bad.utf8))]).bitrate == nil, "\(bad)")
        }
        let long = IcyMetadata.station(headers: [("icy-name", [UInt8](repeating: 0x41, count: 1 << 20))])
        #expect(long.name?.utf8.count == IcyMetadata.maximumValue)
    }
}
