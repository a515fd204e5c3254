import AudioEngine
import Glibc
import PlayerApp
import PlayerCore
import Terminal

/// `tplayer --check PATH...` on the real decoder: problems on stderr as they are found, the
/// summary on stdout, and a progress bar on stderr while songs decode, when it is a terminal.
struct CheckRun {
    let inputs: [Path]

    func run() -> Int32 {
        let checker = SongChecker()
        var bar = ProgressBar(fd: STDERR_FILENO, enabled: isatty(STDERR_FILENO) == 1)
        let result = Check.run(inputs, decode: { checker.check(SongSource($0), progress: $1) }, listen: { checker.listen($0) },
                               progress: { done, total, within, path in
            bar.show(done: done, total: total, within: within, name: "\(path)")
        }, found: { line in
            bar.clear()
            printError(line)
        })
        bar.clear()
        result.summary.forEach(printOutput)
        return result.status
    }
}
