import Files
import Inputs
import PlayerCore

/// What a run needs before anything plays, checked: the script read and compiled (one with
/// problems of its own is refused whole; a missing entry in a playlist it names is skipped, as
/// when the playlist is named directly), the inputs expanded into songs, and the `-w` path
/// known to destroy nothing. Nothing is created or changed here.
public struct Launch {
    /// The songs the inputs name, in order.
    public let entries: EntryList
    /// What expanding the inputs and the script's playlists found wrong; said at the start, and
    /// the exit status counts it.
    public let problems: [Diagnostic]
    /// The script's lines, when there is a script.
    public let script: [ScriptLine]?
    /// The rest of the list, when it is long and still being read (`prepare`'s `reading`).
    public let rest: ListRest?

    /// Why a run does not start: the lines to say and the exit status.
    public struct Refusal: Error, Equatable {
        public let lines: [String]
        public let status: Int32
    }

    /// Exit status when a script or playlist has problems (sysexits' EX_DATAERR).
    public static let problemsFound: Int32 = 65

    /// `work`, when given, reads a long list in the background (no script, nothing at stake
    /// in `-w`'s file): the run starts with the first `InputExpander.handOnFirst` entries and
    /// `rest` brings the others as they are read. Without it, every input is read first.
    public static func prepare(inputs: [Path], script: Path?, writing output: (path: Path, overwrite: Bool)?,
                               files: any FileAccess = SystemFiles(), reading work: BackgroundWork? = nil) -> Result<Launch, Refusal> {
        var lines: [ScriptLine]?
        var scriptReads: [Path] = []
        var skipped: [Diagnostic] = []
        if let script {
            let compiled = ScriptCompiler(path: script, files: files)
            guard compiled.problems.isEmpty else {
                return .failure(Refusal(
                    lines: compiled.problems.map(\.located)
                        + ["tplayer: \(script): not run because of the problems above; tplayer --check \(script) lists them"],
                    status: problemsFound))
            }
            lines = compiled.lines
            skipped = compiled.playlistProblems
            scriptReads = [script] + compiled.playlists + compiled.entries.map(\.path)
        }
        // Writing over a file that is there may destroy it: that is checked against every song
        // of the list before anything is written, so such a list is read whole first.
        let atStake = output.map { holdsData($0.path, files: files) } ?? false
        var first: InputExpander.Piece
        var rest: ListRest?
        if let work, script == nil, !atStake {
            (first, rest) = ListRest.start(inputs, files: files, on: work)
        } else {
            var list = InputExpander.expand(inputs, files: files)
            first = list.takeRest()
        }
        if let output {
            if let refusal = WriteGuard.refusal(output: output.path, overwrite: output.overwrite, inputs: inputs,
                                                reads: inputs + first.playlists + scriptReads, songs: first.entries, files: files) {
                rest?.stop()
                return .failure(Refusal(lines: ["tplayer: " + refusal.message], status: refusal.status))
            }
        }
        return .success(Launch(entries: first.entries, problems: first.problems + skipped, script: lines, rest: rest))
    }
}

/// Whether writing to `output` would write over a file's data (a regular file there, or
/// standard output sent to one), rather than make a new file or write into a pipe or device.
private func holdsData(_ output: Path, files: any FileAccess) -> Bool {
    let status = output == Path("-") ? FileSystem.status(ofDescriptor: 1) : files.status(of: output)
    guard case .success(let info) = status else { return false }
    return info.kind == .regular
}

/// The rest of a long list named at start (a playlist, a folder), read in the background
/// while its first songs play: each piece reaches `arrive` on the main loop, in order, the last
/// one saying so.
public final class ListRest {
    /// Gets each piece as it is read, and whether it is the last. Pieces that come before it is
    /// set are kept for it.
    public var arrive: ((_ piece: InputExpander.Piece, _ isLast: Bool) -> Void)? {
        didSet { handOver() }
    }
    /// Whether the list is all read (the last piece has arrived, or reading stopped).
    public private(set) var isComplete = false
    private var waiting: [(piece: InputExpander.Piece, isLast: Bool)] = []
    private let work: BackgroundWork

    private init(work: BackgroundWork) {
        self.work = work
    }

    /// Starts reading `inputs` on `work` and waits for the first piece of the list, or for the
    /// whole of it when it is short (`InputExpander.handOnFirst`): then the rest, if any, is
    /// still being read.
    static func start(_ inputs: [Path], files: any FileAccess, on work: BackgroundWork) -> (InputExpander.Piece, ListRest?) {
        let rest = ListRest(work: work)
        var first: InputExpander.Piece?
        work.start(.launch, { cancel, handOn in
            var expander = InputExpander(files: files)
            expander.isCancelled = { cancel.isSet }
            expander.handOn = handOn
            for input in inputs where !cancel.isSet { expander.add(input) }
            return expander.takeRest()
        }, progress: { (piece: InputExpander.Piece) in
            if first == nil { first = piece } else { rest.received(piece, isLast: false) }
        }, then: { (piece: InputExpander.Piece) in
            if first == nil { first = piece } else { rest.received(piece, isLast: true) }
            rest.isComplete = true
        })
        work.deliver { first != nil }
        guard let first else { return (InputExpander.Piece(), nil) }
        return (first, rest.isComplete && rest.waiting.isEmpty ? nil : rest)
    }

    private func received(_ piece: InputExpander.Piece, isLast: Bool) {
        waiting.append((piece, isLast))
        handOver()
    }

    private func handOver() {
        guard let arrive else { return }
        while !waiting.isEmpty {
            let (piece, isLast) = waiting.removeFirst()
            arrive(piece, isLast)
        }
    }

    /// Stops reading (the run does not start, or is over): nothing more arrives.
    public func stop() {
        work.cancel(.launch)
        isComplete = true
    }
}
