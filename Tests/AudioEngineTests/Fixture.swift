import Foundation
import Testing
import TestSupport

/// Songs made for the decoder tests, by the tools that judge them (sox, lame, flac, oggenc…).
enum Fixture {
    /// Runs `script` with `$0` a new file's path in a temporary folder of its own; returns the path.
    static func make(_ name: String, _ script: String) throws -> String {
        let folder = try TestFolders.make("tplayer-decoder")
        let path = folder.appendingPathComponent(name).path
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script, path]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "\(script)")
        return path
    }
}
