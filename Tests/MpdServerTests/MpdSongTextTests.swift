import Library
@testable import MpdServer
import PlayerCore
import Testing

/// A song as MPD prints it, its tags from files passed through the one sanitiser.
struct MpdSongTextTests {
    @Test func timesAreUTCAsMPDWritesThem() {
        #expect(MpdSongText.utc(seconds: 0) == "1970-01-01T00:00:00Z")
        #expect(MpdSongText.utc(seconds: 951_782_400) == "2000-02-29T00:00:00Z")
        #expect(MpdSongText.utc(seconds: 1_798_761_599) == "2026-12-31T23:59:59Z")
        #expect(MpdSongText.utc(seconds: -1) == "1969-12-31T23:59:59Z")
        #expect(MpdSongText.utc(seconds: -62_135_596_801) == "0-12-31T23:59:59Z")
        // A time from a damaged file or library, at either end: said, never a crash.
        #expect(MpdSongText.utc(seconds: .max).hasSuffix("Z") && MpdSongText.utc(seconds: .min).hasSuffix("Z"))
    }

    /// A length a file's header says, past what a number of milliseconds holds, or none.
    @Test func anyLengthCanBePrinted() {
        var song = LibrarySong(path: "/m/a.flac", size: 1, modified: 0, rate: 44100, channels: 2)
        for seconds in [1e300, 9.3e18, -5, .nan, .infinity] {
            song.seconds = seconds
            _ = MpdSongText(song, uri: "a.flac").text(MpdTag.served)
        }
        #expect(MpdStatusCommands.decimal(1e300) == "1000000000000.000" && MpdStatusCommands.whole(.nan) == 0)
    }

    @Test func aTagCannotForgeALineOfTheReply() {
        var song = LibrarySong(path: "/m/a.flac", size: 1, modified: 0, rate: 44100, channels: 2)
        song.title = "Evil\nfile: /etc/passwd"
        song.artists = ["A\rB"]
        song.bits = 16
        song.seconds = 61.25
        let text = MpdSongText(song, uri: "a.flac").text(MpdTag.served)
        #expect(text.split(separator: "\n").allSatisfy { !$0.hasPrefix("file: /etc") })
        #expect(text.contains("Title: Evil\\nfile: /etc/passwd\n") && text.contains("Artist: A\\rB\n"))
        #expect(text.hasPrefix("file: a.flac\nLast-Modified: 1970-01-01T00:00:00Z\nFormat: 44100:16:2\n"))
        #expect(text.hasSuffix("Time: 61\nduration: 61.250\n"))
        #expect(MpdSongText(song, uri: "a.flac").text([]).contains("Title") == false)
    }

    @Test func decimalsHaveThreePlaces() {
        #expect(MpdStatusCommands.decimal(0) == "0.000" && MpdStatusCommands.decimal(1.0005) == "1.001" && MpdStatusCommands.decimal(62.5) == "62.500")
    }
}
