import ArgumentParser
import AudioEngine
import Files
import Glibc
import PlayerApp
import PlayerCore
import Terminal

/// The command line: parses the options (declared in `Options.swift`) and hands them to the run.
extension TPlayer {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "tplayer",
        abstract: "Play music in the terminal, gaplessly and exactly.",
        // Laid out only when the help is asked for: its key list was 7 % of every start-up.
        discussion: asksForHelp(CommandLine.arguments) ? discussion : "",
        version: version
    )

    /// The help's text after the usage.
    static var discussion: String {
        """
            An INPUT is a song (MP3, FLAC, Ogg Vorbis, Opus, AAC/M4A, ALAC, WAV, AIFF, \
            WavPack, APE, WMA and more: its first bytes decide, not its name), a folder (its \
            audio files, recursively, in natural order), a playlist (M3U, M3U8, PLS) or a CUE \
            sheet, in any mix. With no INPUT in a terminal, the last session is picked up.
            Keys (when stdin is a terminal; h shows them while playing):
            \(KeyMap.helpLines.joined(separator: "\n"))
            Exit status: 0 when every input played, 1 when one could not be played, 64 for a \
            usage error, 65 when --check finds problems in a script or playlist (--script, in the script itself), or --check a damaged song.
            """
    }

    /// Whether `arguments` may show the whole help (`--help`, `-h` alone or among short flags,
    /// `help`, or the manual page's `--experimental-dump-help`).
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.dropFirst().contains { argument in
            ["--help", "help", "--experimental-dump-help"].contains(argument)
                || argument.hasPrefix("-") && !argument.hasPrefix("--") && argument.contains("h")
        }
    }

    func validate() throws {
        try invocation.validate()
    }

    func run() throws {
        try invocation.run(mpg123: Mpg123Options.Translation())
    }

    /// Parses and runs; usage errors become one line on stderr and exit status 64.
    static func main() {
        // Before anything can write: a closed stdout or stderr (`| head`, a closed terminal) is
        // never fatal; each write just fails and the exit status stays the one promised.
        signal(SIGPIPE, SIG_IGN)
        // Before tplayer opens anything of its own: `-w /dev/fd/N` may name only these.
        OpenedFiles.shared.noteInheritedDescriptors()
        var arguments = RawArguments.prepare(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
        // A front-end starting "mpg123 -R" passes mpg123's options: read as mpg123 would, never
        // a reason to stop.
        var mpg123Options = Mpg123Options.Translation()
        if Mpg123Options.asksForRemote(arguments) {
            mpg123Options = Mpg123Options.translate(arguments) { name in
                (OutputTarget.ownDrivers + ["null", "wav", "au", "raw"]).contains(name) || OutputDriverInfo.all().contains { $0.shortName == name }
            }
            mpg123Options.notes.forEach { printError("tplayer: " + $0) }
            arguments = mpg123Options.arguments
        }
        // `--mpd` alone serves where the settings say (`--mpd=ADDRESS` names one).
        let optionsEnd = arguments.firstIndex(of: "--") ?? arguments.endIndex
        for index in arguments.indices where index < optionsEnd && arguments[index] == "--mpd" {
            arguments[index] = "--mpd=" + Invocation.settingsAddresses
        }
        if arguments.contains("--version"), arguments.count > 1 {
            printError("tplayer: --version takes nothing else (see tplayer --help)")
            Glibc.exit(64)
        }
        do {
            // The usual command lines are read without the argument parser's reflection (half
            // of a start-up); anything else, help and every mistake included, goes to it.
            if let invocation = QuickArguments.parse(arguments), (try? invocation.validate()) != nil {
                try invocation.run(mpg123: mpg123Options)
            } else {
                var command = try parseAsRoot(arguments)
                if let player = command as? TPlayer {
                    try player.invocation.run(mpg123: mpg123Options)
                } else {
                    try command.run()
                }
            }
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
