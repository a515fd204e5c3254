import AudioEngine
import Foundation
import Library
import PlayerCore
import Testing
import TestSupport

/// Temporary folders, songs made by the tools that judge them (sox, lame, flac, oggenc,
/// opusenc, ffmpeg), and libraries on a real SQLite file.
enum LibraryFixture {
    /// A new empty folder of its own.
    static func folder() throws -> Path {
        Path(try TestFolders.make("tplayer-library").path)
    }

    /// Runs `script` in `folder` (`sh -e`).
    static func sh(_ script: String, in folder: Path, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-ec", script]
        shell.currentDirectoryURL = URL(fileURLWithPath: "\(folder)")
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "\(script)", sourceLocation: sourceLocation)
    }

    /// A second of a tone as WAV, for the encoders: `tone.wav` in `folder`.
    static let tone = "[ -f tone.wav ] || sox -n -b 16 -r 44100 -c 2 tone.wav synth 1 sine 440 vol 0.3"

    /// A library in a new folder, with a scanner that reads tags with the player's own decoder.
    static func library() throws -> (database: LibraryDatabase, scanner: LibraryScanner, folder: Path) {
        let folder = try folder()
        let database = try LibraryDatabase.open(at: folder.appending("data/library.sqlite")).get().database
        return (database, scanner(database), folder)
    }

    /// `ahead`: how far the walk runs ahead of the reading (a few: the two go by turns).
    static func scanner(_ database: LibraryDatabase, ahead: Int = 20_000) -> LibraryScanner {
        LibraryScanner(database: database, ahead: ahead) {
            let checker = SongChecker()
            return { checker.tags(SongSource($0)) }
        }
    }
}
