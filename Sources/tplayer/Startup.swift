import AudioEngine
import Files
import PlayerApp
import PlayerCore
import Terminal

/// What every playing run starts with: the engine on its output, the signal watcher, and the
/// helper for work done off the main loop. A failure is said in one line; the caller exits
/// with its status.
enum Startup {
    struct Failure: Error {
        /// 64 for a mistake in the command line (an unknown driver), 1 when the system refused.
        let status: Int32
    }

    static func start(output: OutputTarget, fades: Bool, measuresStartDelay: Bool = false, setup: OutputSetup = OutputSetup(),
                      bits: Int? = nil, reconnects: Int? = nil, work: BackgroundWork? = nil)
        -> Result<(engine: Engine, signals: SignalWatcher, work: BackgroundWork), Failure> {
        let engine: Engine
        do {
            engine = try Engine(output: output, fades: fades, measuresStartDelay: measuresStartDelay, setup: setup, bits: bits,
                                reconnects: reconnects)
        } catch {
            printError("tplayer: \(error.message)")
            return .failure(Failure(status: error.isUsageError ? 64 : 1))
        }
        do throws(SystemError) {
            let signals = try SignalWatcher()
            if let work { return .success((engine, signals, work)) }
            return .success((engine, signals, try BackgroundWork()))
        } catch {
            printError("tplayer: cannot start: \(error.reason)")
            return .failure(Failure(status: 1))
        }
    }
}
