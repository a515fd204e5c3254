import AudioEngine
import Foundation
import ParserChecks
import PlayerCore
import Testing

/// The saved cases of the tag fuzz target (`Fuzz/Corpus/FuzzTags/`), replayed as it replays
/// them: each opened by libmpg123 as a song, whose tags must keep `ParserChecks.songInfo`.
struct TagFuzzCaseTests {
    @Test func savedTagCasesKeepEveryPromise() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/FuzzTags")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        let checker = SongChecker()
        var opened = 0
        for name in names {
            guard case .success(let song) = checker.info(SongSource(Path(folder.appendingPathComponent(name).path))) else { continue }
            opened += 1
            #expect(ParserChecks.songInfo(song) == [], "\(name)")
        }
        #expect(opened > 0, "the seeds are songs")
    }
}
