import Foundation
import Glibc
import PlayerCore
import Testing
@testable import Files
import TestSupport

/// What tplayer writes beside a user's files (the list view's `w`, the saved session): only
/// what it made is ever removed, only a regular file is ever replaced, and any name the file
/// system allows can be written.
struct WritingTests {
    /// The file `-w` writes is refused as an input while it is written, and only then: once it is
    /// closed its identity is let go (a file made later may be given the same inode).
    @Test func theOutputIsRefusedAsAnInputOnlyWhileItIsWritten() throws {
        let path = Path(try Self.folder() + "/out.wav")
        guard case .success(let output) = FileSystem.openOutput(path, overwrite: false) else { Issue.record("not opened"); return }
        guard case .failure(.isOutput) = FileSystem.openRegularFile(path) else { Issue.record("read while written"); return }
        OpenedFiles.shared.releaseOutput(output)
        guard case .success = FileSystem.openRegularFile(path) else { Issue.record("still refused once closed"); return }
    }

    static func folder() throws -> String {
        try TestFolders.make("tplayer-writing").path
    }

    static func contents(_ folder: String) throws -> [String: String] {
        var found: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            found[name] = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "?"
        }
        return found
    }

    /// Files named like a temporary file (`NAME.N.tmp` with a number that is no process, or a
    /// negative one, and tplayer's own hidden name with this very process's number) are the
    /// user's: writing beside them, with a file that has a name or one that has none while it
    /// is written, leaves every one as it was (they were unlinked).
    @Test(arguments: [true, false])
    func filesThatLookTemporaryAreNeverRemoved(unnamed: Bool) throws {
        let folder = try Self.folder()
        let theirs = ["mix.m3u8.77777.tmp": "notes", "mix.m3u8.-77.tmp": "x", "last-session.99999999.tmp": "mine",
                      ".tplayer-\(getpid())-0.tmp": "named like ours", "last-session": "old"]
        for (name, text) in theirs { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        #expect(FileSystem.writeBeside(Path(folder + "/mix.m3u8"), Array("#EXTM3U\n".utf8), permissions: 0o644,
                                       replacing: false, unnamed: unnamed) == nil)
        #expect(FileSystem.writeBeside(Path(folder + "/last-session"), Array("new".utf8), permissions: 0o600,
                                       replacing: true, unnamed: unnamed) == nil)
        var expected = theirs
        expected["mix.m3u8"] = "#EXTM3U\n"
        expected["last-session"] = "new"
        #expect(try Self.contents(folder) == expected)
    }

    /// A name of 255 bytes (NAME_MAX) is saved: the temporary file's name was the name and
    /// `.PID.tmp`, which no file system takes ("File name too long").
    @Test(arguments: [true, false])
    func theLongestNameIsWritten(unnamed: Bool) throws {
        let folder = try Self.folder()
        let name = String(repeating: "é", count: 125) + "x.m3u8"  // 250 + 6 bytes… less one
        let longest = String(name.utf8.count == 256 ? name.dropFirst() : Substring(name))
        #expect(longest.utf8.count <= 255 && longest.utf8.count >= 250)
        #expect(FileSystem.writeBeside(Path(folder + "/" + longest), [1, 2, 3], permissions: 0o644,
                                       replacing: false, unnamed: unnamed) == nil)
        #expect(FileSystem.writeBeside(Path(folder + "/" + longest), [4], permissions: 0o644,
                                       replacing: true, unnamed: unnamed) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [longest])
        #expect(FileManager.default.contents(atPath: folder + "/" + longest) == Data([4]))
    }

    /// Replacing through a symbolic link writes the regular file it leads to, or makes a
    /// missing one; a named pipe there, or at the end of the link, is left alone.
    @Test func onlyARegularFileIsReplaced() throws {
        let folder = try Self.folder()
        #expect(mkfifo(folder + "/pipe", 0o600) == 0)
        symlink("pipe", folder + "/to-pipe")
        #expect(FileSystem.replace(Path(folder + "/to-pipe"), with: [1], permissions: 0o600) == .notAFile(Path(folder + "/pipe"), .fifo))
        #expect(FileSystem.replace(Path(folder + "/pipe"), with: [1], permissions: 0o600) == .notAFile(Path(folder + "/pipe"), .fifo))
        var info = stat()
        #expect(lstat(folder + "/pipe", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        symlink("missing", folder + "/to-missing")
        #expect(FileSystem.replace(Path(folder + "/to-missing"), with: [7], permissions: 0o600) == nil)
        #expect(FileManager.default.contents(atPath: folder + "/missing") == Data([7]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["missing", "pipe", "to-missing", "to-pipe"])
    }
}
