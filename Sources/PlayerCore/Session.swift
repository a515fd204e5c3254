/// Plays a list of inputs through a `PlayerContext`: the command loop's brain.
///
/// It turns commands (keys, later scripts) and engine reports into context events, moves
/// through the list, skips inputs that cannot be loaded, and knows when the run is over and
/// with which exit status. It does no I/O: messages go to `report`, one line each.
public final class Session {
    public let context: PlayerContext
    public private(set) var inputs: [String]
    /// The list entry playing or last played; `nil` before the first.
    public private(set) var index: Int?
    /// True once the list has been played through or `quit` was asked for.
    public private(set) var isFinished = false
    /// Receives each problem as `"<input>: <what went wrong>"`.
    public var report: (String) -> Void = { _ in }
    private var failedInputs = Set<Int>()
    private var outputFailed = false

    public init(context: PlayerContext, inputs: [String]) {
        self.context = context
        self.inputs = inputs
    }

    /// 0 when every input played, 1 when at least one could not be played.
    public var exitStatus: Int32 { failedInputs.isEmpty && !outputFailed ? 0 : 1 }

    /// Loads and plays the first input that can be played.
    public func start() {
        playEntry(from: 0, step: 1)
    }

    public func perform(_ command: Command) {
        guard !isFinished else { return }
        switch command {
        case .play: context.handle(.play)
        case .stop: context.handle(.stop)
        case .toggle: context.handle(.toggle)
        case .next: playEntry(from: (index ?? -1) + 1, step: 1)
        case .previous: playEntry(from: max((index ?? 0) - 1, 0), step: -1)
        case .load(let path): loadAndPlay(path, entry: nil)
        case .quit: finish()
        case .promptLoad, .help: break  // the terminal's own business
        }
    }

    public func handle(_ event: EngineEvent) {
        guard !isFinished else { return }
        switch event {
        case .ended(let token):
            guard token == context.token else { return }
            context.handle(.ended)
            playEntry(from: (index ?? -1) + 1, step: 1)
        case .decodeFailed(let token, let message):
            guard token == context.token else { return }
            report("\(context.state.song?.path ?? "?"): \(message)")
            if let index { failedInputs.insert(index) }
            context.handle(.ended)
            playEntry(from: (index ?? -1) + 1, step: 1)
        case .deviceLost(let token, let message):
            guard token == context.token else { return }
            report("output: \(message); will resume when it is back")
            context.handle(.deviceLost)
        case .deviceRestored(let token):
            guard token == context.token else { return }
            context.handle(.deviceRestored)
        case .outputFallback(let message):
            report(message)
        case .outputFailed(let message):
            report(message)
            outputFailed = true
            finish()
        }
    }

    /// Plays entry `start`, or the first playable one after it in the direction of `step`.
    /// Past the end of the list the session is finished; before its start it stays put.
    private func playEntry(from start: Int, step: Int) {
        var candidate = start
        while inputs.indices.contains(candidate) {
            if loadAndPlay(inputs[candidate], entry: candidate) { return }
            candidate += step
        }
        if step > 0 { finish() }
    }

    @discardableResult
    private func loadAndPlay(_ path: String, entry: Int?) -> Bool {
        if case .loadFailed(let error) = context.handle(.load(path)) {
            report(error.description)
            if let entry { failedInputs.insert(entry) }
            return false
        }
        if let entry { index = entry }
        context.handle(.play)
        return true
    }

    private func finish() {
        guard !isFinished else { return }
        context.handle(.stop)
        isFinished = true
    }
}
