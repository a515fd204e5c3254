import AudioEngine
import Files
import Glibc
import Inputs
import PlayerApp
import PlayerCore
import Terminal

/// `tplayer -R`: mpg123's generic remote interface. Commands come from stdin or a named pipe,
/// replies go to stdout (or stderr with `--remote-err`); inputs on the command line are ignored,
/// as mpg123 ignores them (front-ends pass a placeholder).
struct RemoteRun {
    let fifo: Path?
    let repliesToStderr: Bool
    let output: OutputTarget
    let fades: Bool
    let trace: Bool
    /// What mpg123's options honoured here asked for (`-a`, `-f`/`-g`).
    var setup: OutputSetup
    var volume: Int?

    func run() -> Int32 {
        // The same guard as every other run: what `LOAD` opens later is checked again when the
        // file is opened (`OpenedFiles`).
        if case .file(_, let path, let overwrite) = output,
           let refusal = WriteGuard.refusal(output: path, overwrite: overwrite, inputs: [], reads: [Path]()) {
            printError("tplayer: " + refusal.message)
            return refusal.status
        }
        let engine: Engine
        let signals: SignalWatcher
        let work: BackgroundWork
        switch Startup.start(output: output, fades: fades, measuresStartDelay: true, setup: setup) {
        case .success(let started): (engine, signals, work) = started
        case .failure(let failure): return failure.status
        }
        defer { work.cancelAll() }
        // Commands from stdin, or from a named pipe (`--fifo`), which tplayer removes at the end
        // if it made it.
        var pipe: CommandPipe?
        if let fifo {
            switch CommandPipe.open(fifo) {
            case .success(let opened): pipe = opened
            case .failure(let failure):
                printError("tplayer: --fifo \(fifo): \(failure)")
                return failure.status
            }
        }
        defer { pipe?.close() }
        // LOAD plays one stream, as in mpg123; LOADLIST's playlist is read off the main loop
        // (`readList`). The list view, which saves lists, is not there to ask.
        let seams = Session.Seams(report: { printError("tplayer: " + $0) }, expand: Session.Seams.oneSong,
                                  saveList: { path, _ in printError("tplayer: \(path): a list is not saved over -R") },
                                  onTransition: trace ? { printError("\($0)") } : nil,
                                  listened: { _ in },  // a front-end keeps its own statistics
                                  albums: { sources, _, answer in answer(sources.map { AlbumTrack(unreadable: $0.path) }) },  // and has no album mode
                                  playlists: { _, _, _, done in
                                      printError("tplayer: -R keeps no named playlists")
                                      done(nil)
                                  })
        let session = Session(engine: engine, entries: [], policy: .remote, seams: seams)
        if let volume { session.perform(.volume(volume)) }
        let replies = repliesToStderr ? STDERR_FILENO : STDOUT_FILENO
        let controls = Controls(session: session)
        let remote = RemoteControl(
            controls: controls, position: { engine.position },
            send: { writeAll(replies, "@" + $0 + "\n") },
            readList: { path, done in
                // A playlist served over http is the one entry it is named by: loaded, its
                // streams take its place.
                if !StreamURL.looksLikeURL(path), case .failure(let error) = FileSystem.status(of: path) {
                    printError("tplayer: \(path): \(error.reason)")
                    return done([])
                }
                work.start(.list, { cancel in
                    var expander = InputExpander()
                    expander.isCancelled = { cancel.isSet }
                    expander.keepsURLs = true
                    expander.add(path)
                    return expander
                }, then: { expanded in
                    expanded.problems.forEach { printError("tplayer: " + $0.brief) }
                    done(expanded.entries)
                })
            }, onLine: trace ? { printError($0) } : nil)
        var io = Player.IO(engine: engine, screen: nil, keys: pipe?.descriptor ?? STDIN_FILENO, signals: signals, log: printError,
                           remote: remote)
        io.work = work
        return Player(controls: controls, io: io, options: Player.Options(quiet: true, trace: trace)).run()
    }
}
