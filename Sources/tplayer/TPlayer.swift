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

    func validate() throws {
        let modes = [listOutputs ? "--list-outputs" : nil, printStates ? "--print-states" : nil, check ? "--check" : nil,
                     scan ? "--scan" : nil, find != nil ? "--find" : nil].compactMap { $0 }
        if modes.count > 1 {
            throw ValidationError("\(modes.joined(separator: " and ")) do different things: give one")
        }
        if check {
            if script != nil || write != nil {
                throw ValidationError("--check plays nothing: name what to check as inputs (--check a.tps b.mp3), without --script or -w")
            }
            if inputs.isEmpty {
                throw ValidationError("--check needs something to check: songs, folders, playlists, CUE sheets or scripts")
            }
        } else if scan {
            if script != nil || write != nil {
                throw ValidationError("--scan plays nothing: name the folders to add to the library, if any (--scan ~/Music)")
            }
        } else if !modes.isEmpty, !inputs.isEmpty || script != nil || write != nil {
            throw ValidationError("\(modes[0]) plays nothing: leave out the inputs, --script and -w")
        }
        if remote {
            if script != nil || check || listOutputs || printStates || scan || find != nil {
                throw ValidationError("-R takes its commands from stdin or --fifo: leave out --script, --check and the other modes")
            }
        } else if fifo != nil || remoteErr {
            throw ValidationError("\(fifo != nil ? "--fifo" : "--remote-err") only applies with -R")
        }
        if resume && (!inputs.isEmpty || script != nil || write != nil || check || remote || scan || find != nil) {
            throw ValidationError("--resume plays the saved list: leave out the inputs, --script, -w, --check, --scan, --find and -R")
        }
        if let volume, Self.percent(volume) == nil {
            throw ValidationError("--volume \(volume): give a volume from 0 to 100")
        }
        if let start {
            guard case .success(let target) = ScriptParser.seekTarget(start), Self.isPlace(target) else {
                throw ValidationError("--start \(start): give a time in the song, e.g. 1:30, 90, 45.5s or 25%")
            }
            if script != nil || resume || remote || check {
                throw ValidationError("--start applies to the inputs' first song: leave out --script, --resume, -R and --check")
            }
        }
        if let replaygainPreamp, !(-15...15).contains(replaygainPreamp) {
            throw ValidationError("--replaygain-preamp \(replaygainPreamp): give a number of dB from -15 to 15")
        }
        if noConfig && config != nil {
            throw ValidationError("--config and --no-config say different things: give one")
        }
        if playFind != nil, check || scan || find != nil || remote || resume || listOutputs || printStates {
            throw ValidationError("--play-find plays the library's songs: leave out --check, --scan, --find, -R, --resume and the other modes")
        }
        if verbose && !scan {
            throw ValidationError("--verbose only applies with --scan")
        }
        if force && write == nil {
            throw ValidationError("--force only applies with -w PATH")
        }
    }

    /// Where the audio goes, from `-o` and `-w` (and the settings' `output`).
    func outputTarget(_ settings: Settings) throws(ValidationError) -> OutputTarget {
        guard let path = write else {
            if let output, ["wav", "au", "raw"].contains(output) {
                throw ValidationError("-o \(output) writes a file: give its path with -w PATH")
            }
            return .live(driver: output ?? settings.output)
        }
        let file = RawArguments.path(path)
        let driver = output ?? OutputTarget.fileDriver(forPath: file)
        return .file(driver: driver, path: file, overwrite: force)
    }

    /// `50` or `50%`, from 0 to 100.
    static func percent(_ text: String) -> Int? {
        Int(text.hasSuffix("%") ? String(text.dropLast()) : text).flatMap { (0...100).contains($0) ? $0 : nil }
    }

    /// Whether `target` names a place in the song (not a step from where it is).
    static func isPlace(_ target: SeekTarget) -> Bool {
        switch target {
        case .to, .fraction: true
        case .by, .sequence, .resume: false
        }
    }

    func run() throws {
        try run(mpg123: Mpg123Options.Translation())
    }

    /// Runs, with mpg123's options as read before parsing (`-R` from a front-end: the device,
    /// the volume).
    func run(mpg123: Mpg123Options.Translation) throws {
        if printStates {
            writeAll(STDOUT_FILENO, TransitionTable.markdown())
            return
        }
        if listOutputs {
            // tplayer's own: PulseAudio natively, and libao's default device by name.
            printOutput("\("pulse".padding(toLength: 8)) live  PulseAudio or PipeWire, natively  (default when a server answers)")
            printOutput("\("ao".padding(toLength: 8)) live  libao's default device")
            let fallback = OutputDriverInfo.defaultLive()
            for driver in OutputDriverInfo.all() where driver.shortName != "pulse" {  // `-o pulse` is the native one
                let kind = driver.isLive ? "live" : "file"
                let mark = driver.shortName == fallback ? "  (libao's default)" : ""
                printOutput("\(driver.shortName.padding(toLength: 8)) \(kind)  \(driver.name)\(mark)")
            }
            return
        }
        if check {
            let status = CheckRun(inputs: inputs.map(RawArguments.path)).run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        // Read once, here, and handed down (its problems said now, one line each).
        let settings = readSettings()
        if scan || find != nil {
            let library = LibraryRun(settings: settings)
            let status = find.map(library.find) ?? library.scan(inputs.map(RawArguments.path), verbose: verbose)
            if status != 0 { throw ExitCode(status) }
            return
        }
        if remote {
            let status = RemoteRun(fifo: fifo.map(RawArguments.path), repliesToStderr: remoteErr,
                                   output: try outputTarget(settings), fades: !noFade, trace: trace,
                                   device: mpg123.device, volume: mpg123.volume).run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        var inputs = inputs.map(RawArguments.path)
        if let playFind {
            // The songs found are inputs as named ones are: checked and opened the same way.
            switch LibraryRun(settings: settings).songs(matching: playFind, for: "--play-find") {
            case .success(let found): inputs += found
            case .failure(let status): throw ExitCode(status.code)
            }
        }
        let resumes = resume || (inputs.isEmpty && script == nil && Self.resumesByDefault(settings))
        // Checked after the options are parsed, so that an unknown option is what is said.
        if inputs.isEmpty && script == nil && !resumes {
            throw ValidationError("no INPUT given: name a song, a folder, a playlist or a CUE sheet")
        }
        var options = PlayerRun.Options(
            repeats: repeats, shuffles: shuffle, fades: !noFade,
            replayGain: ReplayGainSetting(mode: replaygain ?? settings.replayGain ?? .off,
                                          preamp: replaygainPreamp ?? settings.replayGainPreamp ?? 0),
            seed: seed ?? UInt64.random(in: 0...UInt64.max), quiet: quiet, trace: trace, mpris: !noMpris,
            resume: resumes, settings: settings)
        options.volume = volume.flatMap(Self.percent)
        options.start = start.flatMap { try? ScriptParser.seekTarget($0).get() }
        let status = PlayerRun(
            inputs: inputs, script: script.map(RawArguments.path),
            output: try outputTarget(settings), options: options
        ).run()
        if status != 0 { throw ExitCode(status) }
    }

    /// `tplayer` alone in a terminal resumes, when a session is saved (and the settings do
    /// not say `resume = off`).
    static func resumesByDefault(_ settings: Settings) -> Bool {
        guard isatty(STDIN_FILENO) == 1, settings.resume else { return false }
        return SessionStore.location.map(FileSystem.exists) ?? false
    }

    /// The configuration file's settings (its problems said, one line each); tplayer's own
    /// with `--no-config`.
    func readSettings() -> Settings {
        guard !noConfig else { return Settings() }
        let loaded = ConfigLoader.load(explicit: config.map(RawArguments.path)) {
            ["pulse", "ao"] + OutputDriverInfo.all().map(\.shortName).filter { !["wav", "au", "raw"].contains($0) }
        }
        loaded.said.forEach(printError)
        return loaded.settings
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
            var command = try parseAsRoot(arguments)
            if let player = command as? TPlayer {
                try player.run(mpg123: mpg123Options)
            } else {
                try command.run()
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
