import AudioEngine
import Files
import Foundation
import Library
import PlayerCore
import Testing

/// The tags MPD's clients ask for beyond the library's own columns (sort names, the original
/// date, performers, label, MusicBrainz ids…), read from Vorbis comments and ID3v2 frames as
/// MPD reads them; a library made before it had them reads its songs again at the next scan,
/// their statistics kept.
@Suite(.serialized) struct LibraryOtherTagsTests {
    private func makeSongs(in folder: Path) throws {
        try LibraryFixture.sh("""
            \(LibraryFixture.tone)
            flac -s -T TITLE=One -T ARTIST="The Band" -T ArtistSort="Band, The" -T ORIGINALDATE=1969-01-01 -T PERFORMER=Drums \\
                 -T PERFORMER=Bass -T LABEL=Apple -T MUSICBRAINZ_TRACKID=abc -T DESCRIPTION="not kept" -T COMMENT="not kept" \\
                 tone.wav -o one.flac
            lame --quiet --tt Two --ta "The Band" --tv "TSOP=Band, The" --tv TPUB=Parlophone --tv TPE3=Martin --tv TIT1=Hits \\
                 --tv "TXXX=MusicBrainz Album Id=def" --tv "TXXX=Other=ignored" --tc "not kept" tone.wav two.mp3
            rm tone.wav
            """, in: folder)
    }

    @Test func theyAreReadAsMPDReadsThem() throws {
        let (database, scanner, folder) = try LibraryFixture.library()
        try makeSongs(in: folder)
        _ = try scanner.scan([folder]).get()
        let flac = try #require(try database.songs(at: [folder.appending("one.flac")]).get().first)
        #expect(flac.otherTags == [.init(.artistSort, "Band, The"), .init(.originalDate, "1969-01-01"), .init(.performer, "Drums"),
                                   .init(.performer, "Bass"), .init(.label, "Apple"), .init(.musicBrainzTrack, "abc")])
        let mp3 = try #require(try database.songs(at: [folder.appending("two.mp3")]).get().first)
        #expect(Set(mp3.otherTags.map { "\($0.name.rawValue)=\($0.value)" })
            == ["ArtistSort=Band, The", "Label=Parlophone", "Conductor=Martin", "Grouping=Hits", "MUSICBRAINZ_ALBUMID=def"])
    }

    @Test func aLibraryMadeBeforeReadsItsSongsAgainKeepingTheirStatistics() throws {
        let (database, scanner, folder) = try LibraryFixture.library()
        try makeSongs(in: folder)
        _ = try scanner.scan([folder]).get()
        try database.setStatistics(of: folder.appending("one.flac"), plays: 7, skips: 2).get()
        // As an older tplayer left it: no column for them, and its migration not yet made.
        let path = folder.appending("data/library.sqlite")
        try LibraryFixture.sh("""
            sqlite3 data/library.sqlite "ALTER TABLE song DROP COLUMN others; ALTER TABLE song DROP COLUMN tagversion; \\
            DELETE FROM grdb_migrations WHERE identifier = 'other-tags'"
            """, in: folder)
        let reopened = try LibraryDatabase.open(at: path).get().database
        #expect(try reopened.songs(at: [folder.appending("one.flac")]).get().first?.otherTags == [])
        let again = try LibraryFixture.scanner(reopened).scan([folder]).get()
        #expect(again.read == 2 && again.unchanged == 0, "\(again)")
        let read = try #require(try reopened.songs(at: [folder.appending("one.flac")]).get().first)
        #expect(read.otherTags.first == .init(.artistSort, "Band, The") && read.playCount == 7 && read.skipCount == 2)
        #expect(try LibraryFixture.scanner(reopened).scan([folder]).get().unchanged == 2, "read once, not at every scan")
        _ = scanner
    }
}
