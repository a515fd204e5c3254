import ArgumentParser
import AudioEngine
import Files
import Glibc
import PlayerApp
import PlayerCore
import Terminal

/// The command line: parses the options and hands them to `PlayerRun`.
@main
struct TPlayer: ParsableCommand {
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

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("pulse (PulseAudio or PipeWire, natively), ao (libao's default device), or a libao driver by short name (alsa, oss, sndio, null: --list-outputs lists them); with -w, the file's format: wav, au, raw (default: pulse when a server answers, else ao).", valueName: "DRIVER"),
            completion: .list(["pulse", "ao", "alsa", "oss", "sndio", "null", "wav", "au", "raw"]))
    var output: String?

    @Option(name: [.short, .customLong("write")],
            help: ArgumentHelp("Write the decoded audio to PATH (WAV; .au/.raw by extension) as fast as decoding allows; several inputs go into one file, back to back.", valueName: "PATH"),
            completion: .file())
    var write: String?

    @Flag(help: "Allow -w to overwrite an existing file (never a song, playlist or script).")
    var force = false

    @Option(help: ArgumentHelp("Write every song in 16, 24 or 32 bits, to the file (-w) or the device, whatever its own depth (default: each song's own, as its file holds it). Narrowing rounds to the nearest, without dither.", valueName: "N"))
    var bits: Int?

    @Option(help: ArgumentHelp("Play this many times as fast, 0.25 to 4, at the songs' own pitch (librubberband), to the device or the file (-w); [ and ] change it as it plays. Position and times stay the song's.", valueName: "X"))
    var speed: String?

    @Option(help: ArgumentHelp("Start at this volume, 0 to 100 (percent), whatever the settings or the saved session say.", valueName: "N"))
    var volume: String?

    @Option(help: ArgumentHelp("Start the first song at TIME: 1:30, 90, 45.5s, or 25% of it (as mpv's --start).", valueName: "TIME"))
    var start: String?

    @Flag(help: "List the output drivers available here, live or file.")
    var listOutputs = false

    @Flag(name: .shortAndLong, help: "No status line; errors only.")
    var quiet = false

    @Flag(help: "On a live device, no 10 ms fades on stop, play, seek, next and load (files never fade).")
    var noFade = false

    @Option(help: ArgumentHelp("ReplayGain from the songs' tags; off, the default, plays every sample as decoded, and auto is the album's gain while the list plays in order, each track's when shuffled.", valueName: "MODE"))
    var replaygain: ReplayGainMode?

    @Option(help: ArgumentHelp("dB added to every ReplayGain gain (-15 to 15; default 0). The loudest sample never clips when the tags give the peak.", valueName: "DB"))
    var replaygainPreamp: Double?

    @Flag(help: "Accepted for old command lines: in a terminal the list always stays open at its end (q quits); with no terminal a run ends with its list.")
    var keepOpen = false

    @Flag(name: .customLong("repeat"), help: "Play the list again and again (key r toggles it).")
    var repeats = false

    @Flag(help: "Play the list in random order, each entry once per round (key z toggles it).")
    var shuffle = false

    @Option(help: ArgumentHelp("Seed for shuffling (--shuffle, a script's shuffle on, the z key), so the order is the same on every run; without it each run shuffles anew.", valueName: "N"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Run a scripted playlist file: one command per line (add PATH, load PATH, play, stop, next, previous, wait 1.5s, wait end, seek 1:30, seek +10s, seek 50%, volume 80%, repeat on, shuffle off, seed 42, quit).", valueName: "FILE"),
            completion: .file(extensions: ["tps"]))
    var script: String?

    @Flag(help: "Check the inputs without playing: scripts, playlists and CUE sheets (problems as FILE:LINE:COLUMN), and songs, decoded whole (each damaged one as 'PATH: damaged at M:SS.CC: reason').")
    var check = false

    @Flag(help: "Index the music library: its folders (the settings' `library = PATH` lines, else ~/Music) and the FOLDERs named, which it keeps from then on. New and changed files are read, gone ones taken out.")
    var scan = false

    @Flag(help: "With --scan: name each file that could not be read, and why.")
    var verbose = false

    @Option(help: ArgumentHelp("Print the paths of the library's songs that QUERY matches, one a line, in album order: words that must all match (bjork post), a field's (artist:björk album:\"debut\"), numbers (year:1990..1999 rating:4..). Exit status 1 when none does.", valueName: "QUERY"))
    var find: String?

    @Option(help: ArgumentHelp("Play the library's songs that QUERY matches (as --find takes it), in album order, after the INPUTs.", valueName: "QUERY"))
    var playFind: String?

    @Flag(help: "Do not offer MPRIS (media keys, desktop widgets, playerctl) on the D-Bus session bus.")
    var noMpris = false

    @Flag(help: "Pick up where the last interactive run left off: its list, song, sample, volume and modes (also what tplayer with no inputs does in a terminal, when a session is saved).")
    var resume = false

    @Flag(name: [.customShort("R"), .customLong("remote")],
          help: "mpg123's remote interface (protocol v10) for front-ends: commands on stdin (LOAD, PAUSE, JUMP, ...; send HELP), replies on stdout as @-lines. Inputs are ignored, as mpg123 ignores them.")
    var remote = false

    @Option(help: ArgumentHelp("With -R: read commands from this named pipe (created when missing) instead of stdin.", valueName: "PATH"),
            completion: .file())
    var fifo: String?

    @Flag(help: "With -R: send the replies to stderr instead of stdout.")
    var remoteErr = false

    @Option(help: ArgumentHelp("Read the settings from this file instead of $XDG_CONFIG_HOME/tplayer/config (~/.config/tplayer/config): output, volume, steps, ReplayGain, colours, resume, the library's folders and key bindings (see tplayer(1)).", valueName: "PATH"),
            completion: .file())
    var config: String?

    @Flag(help: "Read no settings file: tplayer's own settings and keys.")
    var noConfig = false

    @Flag(help: "Print each state transition to stderr, e.g. 'Prepare -> Play (play)'.")
    var trace = false

    @Flag(help: "Print the state transition table (Markdown) and exit.")
    var printStates = false

    @Argument(help: ArgumentHelp("Songs, folders, playlists (.m3u .m3u8 .pls) and CUE sheets to play, in order.", valueName: "INPUT"),
              completion: .file())
    var inputs: [String] = []

    /// The values parsed, as the run takes them.
    var invocation: Invocation {
        Invocation(output: output, write: write, force: force, volume: volume, start: start, listOutputs: listOutputs,
                   quiet: quiet, noFade: noFade, replaygain: replaygain, replaygainPreamp: replaygainPreamp,
                   keepOpen: keepOpen, repeats: repeats, shuffle: shuffle, seed: seed, script: script, check: check,
                   scan: scan, verbose: verbose, find: find, playFind: playFind, noMpris: noMpris, resume: resume,
                   remote: remote, fifo: fifo, remoteErr: remoteErr, config: config, noConfig: noConfig, trace: trace,
                   printStates: printStates, bits: bits, speed: speed, inputs: inputs)
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
                ["pulse", "ao", "null", "wav", "au", "raw"].contains(name) || OutputDriverInfo.all().contains { $0.shortName == name }
            }
            mpg123Options.notes.forEach { printError("tplayer: " + $0) }
            arguments = mpg123Options.arguments
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

extension ReplayGainMode: ExpressibleByArgument {}
