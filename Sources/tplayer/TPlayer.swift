import ArgumentParser
import AudioEngine
import Glibc
import PlayerCore
import Terminal

/// The command line: parses the options and hands them to `PlayerRun`.
@main
struct TPlayer: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "tplayer",
        abstract: "Play MP3 files in the terminal, gaplessly and exactly.",
        discussion: """
            Keys (when stdin is a terminal): space play/stop, p play, s stop, n next, b previous, \
            l load a song, h or ? help, q quit.
            Exit status: 0 when every input played, 1 when one could not be played, 64 for a \
            usage error.
            """,
        version: version
    )

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("libao driver by short name: pulse, alsa, oss, sndio, null, wav, au, raw (default: libao's default live device).", valueName: "DRIVER"))
    var output: String?

    @Option(name: [.short, .customLong("write")],
            help: ArgumentHelp("Write the decoded audio to PATH (WAV; .au/.raw by extension) as fast as decoding allows; several inputs go into one file, back to back.", valueName: "PATH"))
    var write: String?

    @Flag(help: "Allow -w to overwrite an existing file.")
    var force = false

    @Flag(help: "List the output drivers available here, live or file.")
    var listOutputs = false

    @Flag(name: .shortAndLong, help: "No status line; errors only.")
    var quiet = false

    @Flag(help: "Print each state transition to stderr, e.g. 'Prepare -> Play (play)'.")
    var trace = false

    @Flag(help: "Print the state transition table (Markdown) and exit.")
    var printStates = false

    @Argument(help: ArgumentHelp("MP3 files or .m3u playlists to play, in order.", valueName: "INPUT"))
    var inputs: [String] = []

    func validate() throws {
        if inputs.isEmpty && !listOutputs && !printStates {
            throw ValidationError("no INPUT given: name an MP3 file or an .m3u playlist")
        }
        if force && write == nil {
            throw ValidationError("--force only applies with -w PATH")
        }
    }

    /// Where the audio goes, from `-o` and `-w`.
    func outputTarget() throws(ValidationError) -> OutputTarget {
        guard let path = write else {
            if let output, ["wav", "au", "raw"].contains(output) {
                throw ValidationError("-o \(output) writes a file: give its path with -w PATH")
            }
            return .live(driver: output)
        }
        let driver = output ?? OutputTarget.fileDriver(forPath: path)
        return .file(driver: driver, path: path, overwrite: force)
    }

    func run() throws {
        if printStates {
            Swift.print(TransitionTable.markdown(), terminator: "")
            return
        }
        if listOutputs {
            let fallback = OutputDriverInfo.defaultLive()
            for driver in OutputDriverInfo.all() {
                let kind = driver.isLive ? "live" : "file"
                let mark = driver.shortName == fallback ? "  (default)" : ""
                Swift.print("\(driver.shortName.padding(toLength: 8)) \(kind)  \(driver.name)\(mark)")
            }
            return
        }
        let status = try PlayerRun(
            inputs: inputs, output: outputTarget(), quiet: quiet, trace: trace
        ).run()
        if status != 0 { throw ExitCode(status) }
    }

    /// Parses and runs; usage errors become one line on stderr and exit status 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Glibc.exit(exit.rawValue)
        } catch {
            guard exitCode(for: error) != .success else { self.exit(withError: error) }
            let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            printError("tplayer: \(message) (see tplayer --help)")
            Glibc.exit(64)
        }
    }
}
