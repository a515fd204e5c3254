import Foundation
import ParserChecks
import PlayerCore
import Testing

/// Every saved fuzz case (`Fuzz/Corpus/<target>/`: the seeds and the inputs that found defects)
/// replayed through the same checks the fuzz targets make, on every `make test`.
struct FuzzCaseTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    static let checks: [String: @Sendable ([UInt8]) -> [String]] = [
        "FuzzM3U": { ParserChecks.playlist($0, format: .m3u) },
        "FuzzPLS": { ParserChecks.playlist($0, format: .pls) },
        "FuzzScript": ParserChecks.script,
        "FuzzDuration": ParserChecks.duration,
        "FuzzSeekTarget": ParserChecks.seekTarget,
        "FuzzRemote": ParserChecks.remoteLine,
        "FuzzSavedSession": ParserChecks.savedSession,
        "FuzzRemoteSeek": ParserChecks.remoteSeek,
        "FuzzMprisTime": ParserChecks.mprisTime,
        "FuzzCue": ParserChecks.cue,
        "FuzzConfig": ParserChecks.config,
        "FuzzPrompt": ParserChecks.promptLine,
        "FuzzIcy": ParserChecks.icy,
        "FuzzIcyStream": ParserChecks.icyStream,
        "FuzzStreamURL": ParserChecks.streamURL,
        "FuzzServedList": ParserChecks.servedPlaylist,
        "FuzzLyrics": ParserChecks.lyrics,
        "FuzzNowPlaying": ParserChecks.nowPlaying,
        "FuzzMpd": ParserChecks.mpdBytes,
    ]

    /// The targets whose fuzzing found defects: their inputs are kept as `regress-` cases.
    static let withFindings: Set = ["FuzzM3U", "FuzzPLS", "FuzzScript", "FuzzDuration", "FuzzSeekTarget", "FuzzRemote", "FuzzSavedSession", "FuzzPrompt",
                                    "FuzzMpd"]

    @Test(arguments: checks.keys.sorted())
    func savedCasesKeepEveryPromise(target: String) throws {
        let folder = Self.corpus.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        if Self.withFindings.contains(target) {
            #expect(names.contains { $0.hasPrefix("regress-") }, "the inputs that found defects are kept")
        }
        let check = try #require(Self.checks[target])
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(check(bytes) == [], "\(target)/\(name)")
        }
    }
}
