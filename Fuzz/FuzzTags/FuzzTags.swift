import AudioEngine
import Glibc
import ParserChecks
import PlayerCore

/// The bytes become a file that the decoders open as a song (its format told by its first bytes:
/// libmpg123, libFLAC, vorbisfile, opusfile or FFmpeg read its tags, stream and length), and the
/// song read from it must keep the promises of `ParserChecks.songInfo`.
private let file = Path("/tmp/tplayer-fuzz-tags-\(getpid()).mp3")
nonisolated(unsafe) private let checker = SongChecker()

/// libFuzzer's entry point (built only by `make fuzz`, with `--sanitize=fuzzer`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ParserChecks.fuzz(data, size) { bytes in
        let fd = file.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { fatalError("cannot write \(file)") }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard case .success(let song) = checker.info(SongSource(file)) else { return [] }
        return ParserChecks.songInfo(song)
    }
}
