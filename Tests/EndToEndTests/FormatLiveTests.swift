import Foundation
import Glibc
import Testing

/// Every format, gapless on a live device: three tracks cut from one continuous sweep, each
/// encoded by its format's reference encoder, played on a real sound server: the null sink's
/// monitor records exactly what `tplayer -w` writes for them (the sink at the format's rate, so
/// the server resamples nothing).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct FormatLiveTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil), arguments: ["flac", "ogg", "opus", "m4a"])
    func eachFormatReachesTheServerExactlyAsAFileGetsIt(format: String) throws {
        let folder = try Harness.temporaryFolder()
        let (_, paths) = try FormatTests.sweep(format, in: folder)
        let rate = format == "opus" ? 48000 : 44100
        try GaplessLiveTests.proveGapless(paths, rate: rate)
    }
}
