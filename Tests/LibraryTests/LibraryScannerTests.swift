import AudioEngine
import Files
import Foundation
import Library
import PlayerCore
import Testing

/// Scans of real files, tags read by the player's own decoders, into a real SQLite file.
@Suite(.serialized) struct LibraryScannerTests {
    /// Four songs of one album in four formats, and one MP3 of another.
    private func makeSongs(in folder: Path) throws {
        try LibraryFixture.sh("""
            mkdir -p Post Other
            \(LibraryFixture.tone)
            lame --quiet --tt "Army of Me" --ta "Björk" --tl Post --ty 1995 --tn 1/11 --tv TPOS=1/1 --tv TPE2=Björk tone.wav Post/01.mp3
            flac -s -T TITLE=Hyperballad -T ARTIST=Björk -T ALBUMARTIST=Björk -T ALBUM=Post -T DATE=1995 -T TRACKNUMBER=2 \
                 -T ARTIST=Tricky -T GENRE=Pop -T GENRE=Electronic tone.wav -o Post/02.flac
            oggenc -Q -t "The Modern Things" -a Björk -l Post -d 1995 -N 3 -c ALBUMARTIST=Björk tone.wav -o Post/03.ogg
            opusenc --quiet --title "It's Oh So Quiet" --artist Björk --album Post --date 1995 --tracknumber 4 \
                 --comment ALBUMARTIST=Björk tone.wav Post/04.opus
            lame --quiet --tt "Zeta Waves" --ta "Middle Ground" --tl "Other" --ty 2001 tone.wav Other/zeta.mp3
            rm tone.wav
            """, in: folder)
    }

    @Test func aScanHoldsTheTagsThePlayerShowsAndFindsThemInAlbumOrder() throws {
        let (database, scanner, folder) = try LibraryFixture.library()
        try makeSongs(in: folder)
        let summary = try scanner.scan([folder]).get()
        #expect(summary.read == 5 && summary.failures.isEmpty && summary.problems.isEmpty, "\(summary)")
        #expect(summary.counts == LibraryDatabase.Counts(songs: 5, albums: 2, artists: 2))
        let post = try database.find(LibraryQuery.parse("album:post").get()).get()
        #expect(post.map(\.lastComponent.description) == ["01.mp3", "02.flac", "03.ogg", "04.opus"])
        // The same title, artist and album the player shows, from the same decoders.
        let checker = SongChecker()
        for song in try database.songs(at: post).get() {
            let shown = try checker.info(SongSource(song.path)).get().tags
            #expect(song.title == shown.title && song.artists.first == shown.artist && song.album == shown.album, "\(song.path)")
            #expect(song.albumArtists == ["Björk"] && song.year == 1995, "\(song.path): \(song.albumArtists)")
            #expect((song.seconds ?? 0) > 0.9 && (song.seconds ?? 0) < 1.1, "\(song.path): \(String(describing: song.seconds))")
        }
        let flac = try #require(try database.songs(at: [folder.appending("Post/02.flac")]).get().first)
        #expect(flac.artists == ["Björk", "Tricky"] && flac.genres == ["Pop", "Electronic"] && flac.bits == 16)
        let mp3 = try #require(try database.songs(at: [folder.appending("Post/01.mp3")]).get().first)
        #expect(mp3.disc == 1 && mp3.track == 1 && mp3.format == "MP3")
    }

    @Test func aRescanReadsOnlyWhatChangedAndTakesOutWhatIsGone() throws {
        let (database, scanner, folder) = try LibraryFixture.library()
        try makeSongs(in: folder)
        _ = try scanner.scan([folder]).get()
        let again = try scanner.scan([folder]).get()
        #expect(again.read == 0 && again.unchanged == 5 && again.removed == 0)
        try LibraryFixture.sh("""
            rm Post/03.ogg
            \(LibraryFixture.tone)
            lame --quiet --tt "Zeta Waves (Remix)" --ta "Middle Ground" --tl Other tone.wav Other/zeta.mp3
            touch -d '2001-01-01' Other/zeta.mp3
            rm tone.wav
            """, in: folder)
        let third = try scanner.scan([folder]).get()
        #expect(third.read == 1 && third.unchanged == 3 && third.removed == 1, "\(third)")
        #expect(try database.find(LibraryQuery.parse("remix").get()).get() == [folder.appending("Other/zeta.mp3")])
        #expect(try database.find(LibraryQuery.parse("modern").get()).get().isEmpty)
    }

    @Test func aMovedFileKeepsItsPlaysAndRating() throws {
        let (database, scanner, folder) = try LibraryFixture.library()
        try makeSongs(in: folder)
        _ = try scanner.scan([folder]).get()
        var played = try #require(try database.songs(at: [folder.appending("Post/02.flac")]).get().first)
        played.playCount = 12
        played.rating = 5
        try database.retire([], carrying: [(played, played.path)]).get()
        try LibraryFixture.sh("mkdir Moved && mv Post/02.flac Moved/hyperballad.flac", in: folder)
        let summary = try scanner.scan([folder]).get()
        #expect(summary.moved == 1 && summary.removed == 0 && summary.read == 1, "\(summary)")
        let moved = try #require(try database.songs(at: [folder.appending("Moved/hyperballad.flac")]).get().first)
        #expect(moved.playCount == 12 && moved.rating == 5)
    }

    /// 1,200 played and rated songs moved, the scan stopped after its first batch of 500 (the
    /// new paths it read are kept, the gone ones not yet taken out), then a whole scan: every
    /// play count and rating is where the songs went. (The second scan matched only the files
    /// it read itself, and dropped 700 songs' statistics with the gone rows.)
    @Test func aMoveScannedInTwoGoesKeepsEveryPlayAndRating() throws {
        let (database, scanner, folder) = try LibraryFixture.library()
        let count = 1200
        try LibraryFixture.sh("""
            mkdir -p Old New
            \(LibraryFixture.tone)
            lame --quiet --tt Same --ta Same --tl Same tone.wav same.mp3
            i=0; while [ $i -lt \(count) ]; do cp same.mp3 Old/$i.mp3; i=$((i+1)); done
            rm tone.wav same.mp3
            """, in: folder)
        _ = try scanner.scan([folder]).get()
        let songs = try database.songs(at: (0..<count).map { folder.appending(Path("Old/\($0).mp3")) }).get()
        try database.retire([], carrying: songs.enumerated().map { index, song in
            var rated = song
            rated.playCount = index + 1
            rated.rating = index % 5 + 1
            return (rated, song.path)
        }).get()
        try LibraryFixture.sh("mv Old/* New/", in: folder)
        let stopped = Locked(false)
        let first = try scanner.scan([folder], progress: { done, _, _ in if done >= LibraryScanner.batch { stopped.update { $0 = true } } },
                                     isCancelled: { stopped.read { $0 } }).get()
        #expect(first.cancelled && first.read >= LibraryScanner.batch && first.read < count, "\(first)")
        let second = try scanner.scan([folder]).get()
        #expect(second.moved == count && second.removed == 0, "\(second)")
        let moved = try database.songs(at: (0..<count).map { folder.appending(Path("New/\($0).mp3")) }).get()
        #expect(moved.count == count)
        let counts: [Int] = moved.map { $0.playCount }.sorted()
        #expect(counts == Array(1...count), "every play count kept")
        let ratings: Int = moved.map { Int($0.rating) }.reduce(0, +)
        let given: Int = (0..<count).map { $0 % 5 + 1 }.reduce(0, +)
        #expect(ratings == given, "every rating kept")
        #expect(second.line(seconds: 1, verbose: false).contains("1,200 moved, their plays and ratings kept"))
    }

    /// The walk meets the library's rows in the order of their paths' bytes, whatever the names
    /// (a folder `a` beside `a.mp3`, `a-b`, `a0.mp3`, capitals, accents, a CUE sheet's tracks):
    /// a rescan finds every file as it was, none gone and none new, also with the walk and the
    /// reading going by turns a few files at a time, and with a folder named twice or inside
    /// another.
    @Test func theWalkMeetsTheRowsInTheirOrderWhateverTheNames() throws {
        let (database, _, folder) = try LibraryFixture.library()
        try LibraryFixture.sh("""
            mkdir -p x/a x/a-b x/a.d "x/A b" x/é x/z/deep/deeper
            \(LibraryFixture.tone)
            lame --quiet --tt One --ta Some --tl Thing tone.wav one.mp3
            for path in x/a.mp3 x/a/1.mp3 x/a-b/2.mp3 x/a0.mp3 x/A.mp3 "x/A b/3.mp3" x/é/4.mp3 x/é.mp3 x/a.d/5.mp3 \
                        x/z/deep/deeper/6.mp3 x/z/deep.mp3 x/z0.mp3 x/a/b.mp3; do cp one.mp3 "$path"; done
            flac -s tone.wav -o x/a/image.flac
            printf 'FILE "image.flac" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n  TRACK 02 AUDIO\n    INDEX 01 00:00:50\n' > x/a/sheet.cue
            rm tone.wav one.mp3
            """, in: folder)
        let scanner = LibraryFixture.scanner(database, ahead: 2)
        let first = try scanner.scan([folder]).get()
        #expect(first.read == 15 && first.failures.isEmpty && first.problems.isEmpty, "\(first)")
        let again = try scanner.scan([folder]).get()
        #expect(again.unchanged == 15 && again.read == 0 && again.removed == 0, "\(again)")
        // A folder named twice, or inside another named: walked once, nothing taken out.
        let twice = try scanner.scan([folder.appending("x/z"), folder, folder.appending("x/a"), folder]).get()
        #expect(twice.unchanged == 15 && twice.read == 0 && twice.removed == 0, "\(twice)")
        // One file changed, one gone, one new, far apart in the order.
        try LibraryFixture.sh("cp x/a0.mp3 x/a/new.mp3; rm x/é.mp3; printf x >> x/z0.mp3", in: folder)
        let changed = try scanner.scan([folder]).get()
        #expect(changed.read == 2 && changed.unchanged == 13 && changed.removed == 1, "\(changed)")
        #expect(try database.counts().get().songs == 15)
    }

    /// New files among more rows than a page of the path index holds, read and put in while
    /// the walk goes on (a few at a time): none of them is taken for a row that was there, and
    /// none of the rows for a file gone.
    @Test func newFilesPutInAsTheWalkGoesAreNeverSeenAsGone() throws {
        let (database, _, folder) = try LibraryFixture.library()
        try LibraryFixture.sh("""
            mkdir -p Old
            \(LibraryFixture.tone)
            lame --quiet --tt Same --ta Same --tl Same tone.wav .same.mp3
            i=0; while [ $i -lt 2100 ]; do ln .same.mp3 Old/$i.mp3; i=$((i+1)); done
            rm tone.wav
            """, in: folder)
        let scanner = LibraryFixture.scanner(database, ahead: 3)
        #expect(try scanner.scan([folder]).get().read == 2100)
        try LibraryFixture.sh("i=0; while [ $i -lt 2100 ]; do ln .same.mp3 Old/${i}a.mp3; i=$((i+7)); done", in: folder)
        // Another scan puts a song in meanwhile (the watcher's, another tplayer's), past the
        // first page: not this walk's to judge, it stays.
        let other = folder.appending("Old/zzz-elsewhere.mp3")
        let once = Locked(false)
        let meanwhile = LibraryScanner(database: database, ahead: 3) {
            let checker = SongChecker()
            return { path in
                if !once.update({ done in defer { done = true }; return done }) {
                    _ = database.put([LibrarySong(path: other, size: 1, modified: 1, rate: 44100, channels: 2)])
                }
                return checker.tags(SongSource(path))
            }
        }
        let again = try meanwhile.scan([folder]).get()
        #expect(again.read == 300 && again.unchanged == 2100 && again.removed == 0, "\(again)")
        #expect(try database.counts().get().songs == 2401 && database.songs(at: [other]).get().count == 1)
    }

    /// A library folder inside another behind a hidden folder (`~/.music` in `~`), which the
    /// outer walk passes by, keeps its songs; a stop in the middle of the walk takes nothing out;
    /// a CUE sheet's image in a folder below it is the sheet's tracks, not a song of its own.
    @Test func aHiddenInnerFolderAStopMidWalkAndAnImageBelowItsSheet() throws {
        let (database, _, folder) = try LibraryFixture.library()
        try LibraryFixture.sh("""
            mkdir -p .music/a b cue/CD1
            \(LibraryFixture.tone)
            lame --quiet --tt One --ta Some --tl Thing tone.wav .music/a/1.mp3
            cp .music/a/1.mp3 .music/a/2.mp3; cp .music/a/1.mp3 b/3.mp3; cp .music/a/1.mp3 b/4.mp3
            flac -s tone.wav -o cue/CD1/image.flac
            printf 'FILE "CD1/image.flac" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n  TRACK 02 AUDIO\n    INDEX 01 00:00:50\n' > cue/sheet.cue
            rm tone.wav
            """, in: folder)
        let scanner = LibraryFixture.scanner(database, ahead: 1)
        let roots = [folder, folder.appending(".music")]
        let first = try scanner.scan(roots).get()
        #expect(first.read == 6 && first.failures.isEmpty, "\(first)")
        #expect(try database.songs(at: [folder.appending("cue/CD1/image.flac")]).get().isEmpty, "the image is its sheet's tracks")
        let again = try scanner.scan(roots).get()
        #expect(again.unchanged == 6 && again.removed == 0, "\(again)")
        // Stopped as the first file found is read: nothing is taken out, whatever was not walked.
        try LibraryFixture.sh("cp b/3.mp3 b/0.mp3", in: folder)
        let stop = Locked(false)
        let stopped = try scanner.scan(roots, progress: { _, _, _ in stop.update { $0 = true } }, isCancelled: { stop.read { $0 } }).get()
        #expect(stopped.cancelled && stopped.removed == 0, "\(stopped)")
        #expect(try database.counts().get().songs >= 6)
    }

    @Test func whatCannotBeReadIsNamedAndWhatCannotBeListedIsKept() throws {
        let (database, scanner, folder) = try LibraryFixture.library()
        try makeSongs(in: folder)
        try LibraryFixture.sh("head -c 3000 /dev/urandom > Other/noise.mp3; printf 'not flac' > Other/text.flac; mkfifo Other/pipe.ogg",
                              in: folder)
        let summary = try scanner.scan([folder]).get()
        #expect(summary.read == 5 && summary.failures.count == 2, "\(summary.failures)")
        #expect(summary.problems.count == 1 && summary.problems[0].contains("pipe.ogg"), "\(summary.problems)")
        // A folder that cannot be listed (gone from under the scan) keeps its songs.
        let walkedOnce = try database.counts().get().songs
        let missing = folder.appending("Nowhere")
        let other = try scanner.scan([missing]).get()
        #expect(other.removed == 0 && other.problems.count == 1)
        #expect(try database.counts().get().songs == walkedOnce)
    }
}
