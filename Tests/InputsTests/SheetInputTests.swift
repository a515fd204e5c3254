import Files
import PlayerCore
import Testing
@testable import Inputs

/// CUE sheets among the inputs: named, in a playlist, in a folder.
struct SheetInputTests {
    static let sheet = """
        PERFORMER "The Band"
        TITLE "The Album"
        FILE "album.flac" WAVE
          TRACK 01 AUDIO
            TITLE "One"
            INDEX 01 00:00:00
          TRACK 02 AUDIO
            TITLE "Two"
            INDEX 00 02:58:00
            INDEX 01 03:00:00

        """

    private func library() -> MemoryFiles {
        let files = MemoryFiles()
        files.add("/music/Album/album.cue", text: Self.sheet)
        files.add("/music/Album/album.flac", text: "x")
        files.add("/music/Album/bonus.flac", text: "x")
        files.add("/music/Album/cover.jpg", text: "x")
        files.add("/music/list.m3u", text: "Album/album.cue\nAlbum/bonus.flac\n")
        files.add("/music/Lost/lost.cue", text: "FILE \"gone.flac\" WAVE\n TRACK 01 AUDIO\n  INDEX 01 00:00:00\n")
        files.add("/music/Lost/other.flac", text: "x")
        return files
    }

    /// A sheet saved in UTF-16 with its byte-order mark (either order) is read as its text;
    /// without one it is said to be UTF-16 (it was "binary data, not a CUE sheet").
    @Test func aUTF16SheetIsRead() {
        let files = library()
        let units = Array(Self.sheet.replacingOccurrences(of: "\"One\"", with: "\"Ünø 日本\"").utf16)
        let little: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        let big: [UInt8] = [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        files.add("/music/Album/little.cue", .file(little))
        files.add("/music/Album/big.cue", .file(big))
        files.add("/music/Album/bare.cue", .file(Array(little.dropFirst(2))))
        for name in ["little", "big"] {
            let expanded = InputExpander.expand([Path("/music/Album/\(name).cue")], files: files)
            #expect(expanded.problems.isEmpty, "\(expanded.problems)")
            #expect(expanded.entries.map(\.title) == ["Ünø 日本", "Two"], "\(name)")
        }
        let bare = InputExpander.expand(["/music/Album/bare.cue"], files: files)
        #expect(bare.entries.isEmpty && bare.problems.map(\.located) == ["/music/Album/bare.cue: UTF-16 without a byte-order mark; save it as UTF-8"])
    }

    @Test func aSheetGivesOneEntryPerTrackEachASpanOfItsImageNamedByTheSheet() {
        let expanded = InputExpander.expand(["/music/Album/album.cue"], files: library())
        #expect(expanded.problems.isEmpty)
        #expect(expanded.entries.map(\.path) == ["/music/Album/album.flac", "/music/Album/album.flac"])
        #expect(expanded.entries.map(\.span) == [TrackSpan(start: 0, end: 13_500), TrackSpan(start: 13_500)])
        #expect(expanded.entries.map(\.title) == ["One", "Two"])
        #expect(expanded.entries.map { $0.sheetTags?.artist } == ["The Band", "The Band"])
        #expect(expanded.entries.map { $0.sheetTags?.album } == ["The Album", "The Album"])
        #expect(expanded.entries.map { $0.origin?.brief } == ["/music/Album/album.cue:4", "/music/Album/album.cue:7"])
        #expect(expanded.playlists == ["/music/Album/album.cue"], "-w never writes over a sheet")
    }

    @Test func aSheetInAPlaylistIsExpandedInPlace() {
        let expanded = InputExpander.expand(["/music/list.m3u"], files: library())
        #expect(expanded.entries.map(\.path.lastComponent) == ["album.flac", "album.flac", "bonus.flac"])
        #expect(expanded.entries.map { $0.span != nil } == [true, true, false])
    }

    /// The folder rule: a sheet stands for the image it names (listed once, as its tracks);
    /// other audio files are listed as usual.
    @Test func aFolderListsTheSheetsTracksAndNotItsImageAgain() {
        let expanded = InputExpander.expand(["/music/Album"], files: library())
        #expect(expanded.problems.isEmpty)
        #expect(expanded.entries.map(\.path.lastComponent) == ["album.flac", "album.flac", "bonus.flac"])
        #expect(expanded.entries.map(\.title) == ["One", "Two", nil])
    }

    @Test func aCopyOfTheSheetInTheSameFolderDoesNotListTheTracksTwice() {
        let files = library()
        files.add("/music/Album/CDImage.cue", text: Self.sheet)
        let expanded = InputExpander.expand(["/music/Album"], files: files)
        #expect(expanded.entries.map(\.title) == ["One", "Two", nil])
    }

    @Test func aMissingImageIsSaidAtItsFileLineAndTheFolderGoesOn() {
        let expanded = InputExpander.expand(["/music/Lost"], files: library())
        #expect(expanded.problems.map(\.located) == ["/music/Lost/lost.cue:1:1: no such file: gone.flac"])
        #expect(expanded.entries.map(\.path) == ["/music/Lost/other.flac"])
        let named = InputExpander.expand(["/music/Lost/lost.cue"], checksEntries: true, files: library())
        #expect(named.problems.map(\.brief) == ["/music/Lost/lost.cue:1: no such file: gone.flac"])
        #expect(named.entries.isEmpty)
    }

    @Test func aBrokenSheetLeavesItsImageListedInAFolder() {
        let files = library()
        files.add("/music/Album/album.cue", text: "FILE \"album.flac\" WAVE\n TRACK 01 AUDIO\n")
        let expanded = InputExpander.expand(["/music/Album"], files: files)
        #expect(expanded.problems.map(\.located) == ["/music/Album/album.cue:2:2: TRACK 01: no INDEX 01; the track is left out"])
        #expect(expanded.entries.map(\.path.lastComponent) == ["album.flac", "bonus.flac"])
        #expect(expanded.entries.allSatisfy { $0.span == nil })
    }

    @Test func aBinaryOrHugeFileNamedCueIsRefusedInOneLine() {
        let files = library()
        files.add("/music/x.cue", .file([0x46, 0x00, 0x01]))
        files.add("/music/big.cue", .file([UInt8](repeating: 0x20, count: CueSheet.maxBytes + 1)))
        #expect(InputExpander.expand(["/music/x.cue"], files: files).problems.map(\.brief) == ["/music/x.cue: binary data, not a CUE sheet"])
        let big = InputExpander.expand(["/music/big.cue"], files: files).problems.map(\.brief)
        #expect(big.count == 1 && big[0].hasSuffix("is it really a CUE sheet?"))
    }
}
