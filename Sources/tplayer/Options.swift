import ArgumentParser
import PlayerCore

// Every option of tplayer's command line is declared in this file and nowhere else: its names,
// its value's name and its help once (`CommandOption`), and so read by the argument parser's
// declarations (`TPlayer`), the quick reader (`QuickArguments`, through `CommandOption.set`)
// and the run (`Invocation`). A new option is a case of `CommandOption`: every switch over it
// then asks for it, and the tests hold the two readers to each other on every case.

/// One option of the command line.
enum CommandOption: CaseIterable {
    case output, device, write, force, bits, speed, crossfade, sleep, volume, start, listOutputs, quiet, noFade, replaygain, replaygainPreamp
    case keepOpen, repeats, shuffle, shuffleAlbums, seed, script, check, scan, verbose, find, playFind, noMpris, resume, remote
    case fifo, remoteErr, mpd, config, noConfig, trace, printStates

    /// What it is called and what it does, as `--help` says it.
    struct Facts {
        /// `--output`.
        let long: String
        /// `-o`, for the few that have one.
        let short: Character?
        /// The name of its value in the help (`DRIVER`); `nil` for a flag, which takes none.
        let value: String?
        let help: String
    }

    var facts: Facts {
        switch self {
        case .output:
            Facts(long: "--output", short: "o", value: "DRIVER",
                  help: "pulse (PulseAudio or PipeWire, natively), ao (libao's default device), snapcast (snapserver's pipe, -a), icecast (a broadcast to the settings' icecast =), or a libao driver by short name (alsa, oss, sndio, null: --list-outputs lists them); with -w, the file's format: wav, au, raw (default: pulse when a server answers, else ao).")
        case .device:
            Facts(long: "--audiodevice", short: "a", value: "DEVICE",
                  help: "The device to play on: PulseAudio's sink (-o pulse); snapserver's pipe (-o snapcast; default /tmp/snapfifo) or tcp://HOST:PORT for its tcp source.")
        case .write:
            Facts(long: "--write", short: "w", value: "PATH",
                  help: "Write the decoded audio to PATH (WAV; .au/.raw by extension) as fast as decoding allows; several inputs go into one file, back to back.")
        case .force:
            Facts(long: "--force", short: nil, value: nil,
                  help: "Allow -w to overwrite an existing file (never a song, playlist or script).")
        case .bits:
            Facts(long: "--bits", short: nil, value: "N",
                  help: "Write every song in 16, 24 or 32 bits, to the file (-w) or the device, whatever its own depth (default: each song's own, as its file holds it). Narrowing rounds to the nearest, without dither.")
        case .speed:
            Facts(long: "--speed", short: nil, value: "X",
                  help: "Play this many times as fast, 0.25 to 4, at the songs' own pitch (librubberband), to the device or the file (-w); [ and ] change it as it plays. Position and times stay the song's.")
        case .crossfade:
            Facts(long: "--crossfade", short: nil, value: "SECONDS",
                  help: "Fade each song's last SECONDS into the next one's first (0 to 60; 0: off), except between consecutive tracks of an album played in order, into or out of a song shorter than twice that, and across a stop; X turns it on and off. A skip then fades by the settings' crossfade-skip (default 1 s).")
        case .sleep:
            Facts(long: "--sleep", short: nil, value: "TIME",
                  help: "Stop playing after TIME (30m, 1h30m, 90s; a number alone is minutes), the last 30 s fading out, or at the end of the album playing (album); T sets it as it plays.")
        case .volume:
            Facts(long: "--volume", short: nil, value: "N",
                  help: "Start at this volume, 0 to 100 (percent), whatever the settings or the saved session say.")
        case .start:
            Facts(long: "--start", short: nil, value: "TIME",
                  help: "Start the first song at TIME: 1:30, 90, 45.5s, or 25% of it (as mpv's --start).")
        case .listOutputs:
            Facts(long: "--list-outputs", short: nil, value: nil,
                  help: "List the output drivers available here, live or file.")
        case .quiet:
            Facts(long: "--quiet", short: "q", value: nil,
                  help: "No status line; errors only.")
        case .noFade:
            Facts(long: "--no-fade", short: nil, value: nil,
                  help: "On a live device, no 10 ms fades on stop, play, seek, next and load (files never fade).")
        case .replaygain:
            Facts(long: "--replaygain", short: nil, value: "MODE",
                  help: "ReplayGain from the songs' tags; off, the default, plays every sample as decoded, and auto is the album's gain while the list plays in order, each track's when shuffled.")
        case .replaygainPreamp:
            Facts(long: "--replaygain-preamp", short: nil, value: "DB",
                  help: "dB added to every ReplayGain gain (-15 to 15; default 0). The loudest sample never clips when the tags give the peak.")
        case .keepOpen:
            Facts(long: "--keep-open", short: nil, value: nil,
                  help: "Accepted for old command lines: in a terminal the list always stays open at its end (q quits); with no terminal a run ends with its list.")
        case .repeats:
            Facts(long: "--repeat", short: nil, value: nil,
                  help: "Play the list again and again (key r toggles it).")
        case .shuffle:
            Facts(long: "--shuffle", short: nil, value: nil,
                  help: "Play the list in random order, each entry once per round (key z: by song, by album, off).")
        case .shuffleAlbums:
            Facts(long: "--shuffle-albums", short: nil, value: nil,
                  help: "Play the list's albums in random order, each album's songs together in disc and track order (as their tags say; untagged songs by folder).")
        case .seed:
            Facts(long: "--seed", short: nil, value: "N",
                  help: "Seed for shuffling (--shuffle, a script's shuffle on, the z key), so the order is the same on every run; without it each run shuffles anew.")
        case .script:
            Facts(long: "--script", short: nil, value: "FILE",
                  help: "Run a scripted playlist file: one command per line (add PATH, load PATH, play, stop, next, previous, wait 1.5s, wait end, seek 1:30, seek +10s, seek 50%, volume 80%, repeat on, shuffle off, seed 42, quit).")
        case .check:
            Facts(long: "--check", short: nil, value: nil,
                  help: "Check the inputs without playing: scripts, playlists and CUE sheets (problems as FILE:LINE:COLUMN), and songs, decoded whole (each damaged one as 'PATH: damaged at M:SS.CC: reason').")
        case .scan:
            Facts(long: "--scan", short: nil, value: nil,
                  help: "Index the music library: its folders (the settings' `library = PATH` lines, else ~/Music) and the FOLDERs named, which it keeps from then on. New and changed files are read, gone ones taken out.")
        case .verbose:
            Facts(long: "--verbose", short: nil, value: nil,
                  help: "With --scan: name each file that could not be read, and why.")
        case .find:
            Facts(long: "--find", short: nil, value: "QUERY",
                  help: "Print the paths of the library's songs that QUERY matches, one a line, in album order: words that must all match (bjork post), a field's (artist:björk album:\"debut\"), numbers (year:1990..1999 rating:4..). Exit status 1 when none does.")
        case .playFind:
            Facts(long: "--play-find", short: nil, value: "QUERY",
                  help: "Play the library's songs that QUERY matches (as --find takes it), in album order, after the INPUTs.")
        case .noMpris:
            Facts(long: "--no-mpris", short: nil, value: nil,
                  help: "Do not offer MPRIS (media keys, desktop widgets, playerctl) on the D-Bus session bus.")
        case .resume:
            Facts(long: "--resume", short: nil, value: nil,
                  help: "Pick up where the last interactive run left off: its list, song, sample, volume and modes (also what tplayer with no inputs does in a terminal, when a session is saved).")
        case .remote:
            Facts(long: "--remote", short: "R", value: nil,
                  help: "mpg123's remote interface (protocol v10) for front-ends: commands on stdin (LOAD, PAUSE, JUMP, ...; send HELP), replies on stdout as @-lines. Inputs are ignored, as mpg123 ignores them.")
        case .fifo:
            Facts(long: "--fifo", short: nil, value: "PATH",
                  help: "With -R: read commands from this named pipe (created when missing) instead of stdin.")
        case .remoteErr:
            Facts(long: "--remote-err", short: nil, value: nil,
                  help: "With -R: send the replies to stderr instead of stdout.")
        case .mpd:
            Facts(long: "--mpd", short: nil, value: "ADDRESS",
                  help: "Serve MPD's protocol (0.23) beside the keys, for mpc, ncmpcpp, phones and status bars: --mpd alone on the settings' mpd = addresses, else 127.0.0.1:6600; --mpd=HOST:PORT, --mpd=[::1]:PORT or --mpd=/path/socket (repeatable) there. An address beyond this machine needs mpd-password = in the settings. With no terminal, tplayer runs as a service until SIGTERM or MPD's kill.")
        case .config:
            Facts(long: "--config", short: nil, value: "PATH",
                  help: "Read the settings from this file instead of $XDG_CONFIG_HOME/tplayer/config (~/.config/tplayer/config): output, volume, steps, ReplayGain, colours, resume, the library's folders and key bindings (see tplayer(1)).")
        case .noConfig:
            Facts(long: "--no-config", short: nil, value: nil,
                  help: "Read no settings file: tplayer's own settings and keys.")
        case .trace:
            Facts(long: "--trace", short: nil, value: nil,
                  help: "Print each state transition to stderr, e.g. 'Prepare -> Play (play)'.")
        case .printStates:
            Facts(long: "--print-states", short: nil, value: nil,
                  help: "Print the state transition table (Markdown) and exit.")
        }
    }

    /// A flag takes no value.
    var isFlag: Bool { facts.value == nil }

    /// The option named `name`, long (`--output`) or short (`-o`); `nil` for none. (A switch,
    /// not a table: a table's types cost the runtime more to set up than a whole quick parse.)
    init?(name: String) {
        switch name {
        case "--output", "-o": self = .output
        case "--audiodevice", "-a": self = .device
        case "--write", "-w": self = .write
        case "--force": self = .force
        case "--bits": self = .bits
        case "--speed": self = .speed
        case "--crossfade": self = .crossfade
        case "--sleep": self = .sleep
        case "--volume": self = .volume
        case "--start": self = .start
        case "--list-outputs": self = .listOutputs
        case "--quiet", "-q": self = .quiet
        case "--no-fade": self = .noFade
        case "--replaygain": self = .replaygain
        case "--replaygain-preamp": self = .replaygainPreamp
        case "--keep-open": self = .keepOpen
        case "--repeat": self = .repeats
        case "--shuffle": self = .shuffle
        case "--shuffle-albums": self = .shuffleAlbums
        case "--seed": self = .seed
        case "--script": self = .script
        case "--check": self = .check
        case "--scan": self = .scan
        case "--verbose": self = .verbose
        case "--find": self = .find
        case "--play-find": self = .playFind
        case "--no-mpris": self = .noMpris
        case "--resume": self = .resume
        case "--remote", "-R": self = .remote
        case "--fifo": self = .fifo
        case "--remote-err": self = .remoteErr
        case "--mpd": self = .mpd
        case "--config": self = .config
        case "--no-config": self = .noConfig
        case "--trace": self = .trace
        case "--print-states": self = .printStates
        default: return nil
        }
    }

    /// Sets this option in `invocation`: a flag on, or the value `text` read as the argument
    /// parser reads it. False when `text` is no value of it (the argument parser is to say why).
    func set(_ text: String?, in invocation: inout Invocation) -> Bool {
        switch self {
        case .output:
            guard let text else { return false }
            invocation.output = text
        case .device:
            guard let text else { return false }
            invocation.device = text
        case .write:
            guard let text else { return false }
            invocation.write = text
        case .force: invocation.force = true
        case .bits:
            guard let value = text.flatMap(Int.init) else { return false }
            invocation.bits = value
        case .speed:
            guard let text else { return false }
            invocation.speed = text
        case .crossfade:
            guard let text else { return false }
            invocation.crossfade = text
        case .sleep:
            guard let text else { return false }
            invocation.sleep = text
        case .volume:
            guard let text else { return false }
            invocation.volume = text
        case .start:
            guard let text else { return false }
            invocation.start = text
        case .listOutputs: invocation.listOutputs = true
        case .quiet: invocation.quiet = true
        case .noFade: invocation.noFade = true
        case .replaygain:
            guard let value = text.flatMap(ReplayGainMode.init(rawValue:)) else { return false }
            invocation.replaygain = value
        case .replaygainPreamp:
            guard let value = text.flatMap(Double.init) else { return false }
            invocation.replaygainPreamp = value
        case .keepOpen: invocation.keepOpen = true
        case .repeats: invocation.repeats = true
        case .shuffle: invocation.shuffle = true
        case .shuffleAlbums: invocation.shuffleAlbums = true
        case .seed:
            guard let value = text.flatMap(UInt64.init) else { return false }
            invocation.seed = value
        case .script:
            guard let text else { return false }
            invocation.script = text
        case .check: invocation.check = true
        case .scan: invocation.scan = true
        case .verbose: invocation.verbose = true
        case .find:
            guard let text else { return false }
            invocation.find = text
        case .playFind:
            guard let text else { return false }
            invocation.playFind = text
        case .noMpris: invocation.noMpris = true
        case .resume: invocation.resume = true
        case .remote: invocation.remote = true
        case .fifo:
            guard let text else { return false }
            invocation.fifo = text
        case .remoteErr: invocation.remoteErr = true
        case .mpd:
            guard let text else { return false }
            invocation.mpd.append(text)
        case .config:
            guard let text else { return false }
            invocation.config = text
        case .noConfig: invocation.noConfig = true
        case .trace: invocation.trace = true
        case .printStates: invocation.printStates = true
        }
        return true
    }

    /// Its names, for the argument parser.
    var names: NameSpecification {
        let long = NameSpecification.Element.customLong(String(facts.long.dropFirst(2)))
        return facts.short.map { [.customShort($0), long] } ?? [long]
    }

    /// Its help, for the argument parser.
    var help: ArgumentHelp {
        ArgumentHelp(facts.help, valueName: facts.value)
    }

    /// What a shell completes its value with.
    var completion: CompletionKind? {
        switch self {
        case .output: .list(["pulse", "ao", "snapcast", "icecast", "alsa", "oss", "sndio", "null", "wav", "au", "raw"])
        case .device: .file()
        case .write, .fifo, .config: .file()
        case .script: .file(extensions: ["tps"])
        case .force, .bits, .speed, .crossfade, .sleep, .volume, .start, .listOutputs, .quiet, .noFade, .replaygain, .replaygainPreamp,
             .keepOpen, .repeats, .shuffle, .shuffleAlbums, .seed, .check, .scan, .verbose, .find, .playFind, .noMpris, .resume,
             .remote, .remoteErr, .mpd, .noConfig, .trace, .printStates:
            nil
        }
    }
}

/// The command line as the argument parser reads it: each option declared with its facts.
@main
struct TPlayer: ParsableCommand {
    @Option(name: CommandOption.output.names, help: CommandOption.output.help, completion: CommandOption.output.completion) var output: String?
    @Option(name: CommandOption.device.names, help: CommandOption.device.help, completion: CommandOption.device.completion) var device: String?
    @Option(name: CommandOption.write.names, help: CommandOption.write.help, completion: CommandOption.write.completion) var write: String?
    @Flag(name: CommandOption.force.names, help: CommandOption.force.help) var force = false
    @Option(name: CommandOption.bits.names, help: CommandOption.bits.help) var bits: Int?
    @Option(name: CommandOption.speed.names, help: CommandOption.speed.help) var speed: String?
    @Option(name: CommandOption.crossfade.names, help: CommandOption.crossfade.help) var crossfade: String?
    @Option(name: CommandOption.sleep.names, help: CommandOption.sleep.help) var sleep: String?
    @Option(name: CommandOption.volume.names, help: CommandOption.volume.help) var volume: String?
    @Option(name: CommandOption.start.names, help: CommandOption.start.help) var start: String?
    @Flag(name: CommandOption.listOutputs.names, help: CommandOption.listOutputs.help) var listOutputs = false
    @Flag(name: CommandOption.quiet.names, help: CommandOption.quiet.help) var quiet = false
    @Flag(name: CommandOption.noFade.names, help: CommandOption.noFade.help) var noFade = false
    @Option(name: CommandOption.replaygain.names, help: CommandOption.replaygain.help) var replaygain: ReplayGainMode?
    @Option(name: CommandOption.replaygainPreamp.names, help: CommandOption.replaygainPreamp.help) var replaygainPreamp: Double?
    @Flag(name: CommandOption.keepOpen.names, help: CommandOption.keepOpen.help) var keepOpen = false
    @Flag(name: CommandOption.repeats.names, help: CommandOption.repeats.help) var repeats = false
    @Flag(name: CommandOption.shuffle.names, help: CommandOption.shuffle.help) var shuffle = false
    @Flag(name: CommandOption.shuffleAlbums.names, help: CommandOption.shuffleAlbums.help) var shuffleAlbums = false
    @Option(name: CommandOption.seed.names, help: CommandOption.seed.help) var seed: UInt64?
    @Option(name: CommandOption.script.names, help: CommandOption.script.help, completion: CommandOption.script.completion) var script: String?
    @Flag(name: CommandOption.check.names, help: CommandOption.check.help) var check = false
    @Flag(name: CommandOption.scan.names, help: CommandOption.scan.help) var scan = false
    @Flag(name: CommandOption.verbose.names, help: CommandOption.verbose.help) var verbose = false
    @Option(name: CommandOption.find.names, help: CommandOption.find.help) var find: String?
    @Option(name: CommandOption.playFind.names, help: CommandOption.playFind.help) var playFind: String?
    @Flag(name: CommandOption.noMpris.names, help: CommandOption.noMpris.help) var noMpris = false
    @Flag(name: CommandOption.resume.names, help: CommandOption.resume.help) var resume = false
    @Flag(name: CommandOption.remote.names, help: CommandOption.remote.help) var remote = false
    @Option(name: CommandOption.fifo.names, help: CommandOption.fifo.help, completion: CommandOption.fifo.completion) var fifo: String?
    @Flag(name: CommandOption.remoteErr.names, help: CommandOption.remoteErr.help) var remoteErr = false
    @Option(name: CommandOption.mpd.names, help: CommandOption.mpd.help) var mpd: [String] = []
    @Option(name: CommandOption.config.names, help: CommandOption.config.help, completion: CommandOption.config.completion) var config: String?
    @Flag(name: CommandOption.noConfig.names, help: CommandOption.noConfig.help) var noConfig = false
    @Flag(name: CommandOption.trace.names, help: CommandOption.trace.help) var trace = false
    @Flag(name: CommandOption.printStates.names, help: CommandOption.printStates.help) var printStates = false

    @Argument(help: ArgumentHelp("Songs, folders, playlists (.m3u .m3u8 .pls) and CUE sheets to play, in order.", valueName: "INPUT"),
              completion: .file())
    var inputs: [String] = []

    /// The values parsed, as the run takes them.
    var invocation: Invocation {
        Invocation(output: output, device: device, write: write, force: force, bits: bits, speed: speed, crossfade: crossfade, sleep: sleep, volume: volume,
                   start: start, listOutputs: listOutputs, quiet: quiet, noFade: noFade, replaygain: replaygain,
                   replaygainPreamp: replaygainPreamp, keepOpen: keepOpen, repeats: repeats, shuffle: shuffle, shuffleAlbums: shuffleAlbums,
                   seed: seed, script: script, check: check, scan: scan, verbose: verbose, find: find,
                   playFind: playFind, noMpris: noMpris, resume: resume, remote: remote, fifo: fifo,
                   remoteErr: remoteErr, mpd: mpd, config: config, noConfig: noConfig, trace: trace, printStates: printStates,
                   inputs: inputs)
    }
}

/// What the command line asks for: the options' values, whichever parser read them
/// (`QuickArguments` for the usual forms, the argument parser for the rest).
struct Invocation: Equatable {
    var output: String?
    var device: String?
    var write: String?
    var force = false
    var bits: Int?
    var speed: String?
    var crossfade: String?
    var sleep: String?
    var volume: String?
    var start: String?
    var listOutputs = false
    var quiet = false
    var noFade = false
    var replaygain: ReplayGainMode?
    var replaygainPreamp: Double?
    var keepOpen = false
    var repeats = false
    var shuffle = false
    var shuffleAlbums = false
    var seed: UInt64?
    var script: String?
    var check = false
    var scan = false
    var verbose = false
    var find: String?
    var playFind: String?
    var noMpris = false
    var resume = false
    var remote = false
    var fifo: String?
    var remoteErr = false
    /// `--mpd`: the addresses to serve MPD's protocol on (`default`: the settings', else 127.0.0.1:6600).
    var mpd: [String] = []
    var config: String?
    var noConfig = false
    var trace = false
    var printStates = false
    var inputs: [String] = []
}

extension ReplayGainMode: ExpressibleByArgument {}
