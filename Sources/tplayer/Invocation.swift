import ArgumentParser
import AudioEngine
import Files
import Glibc
import MpdServer
import PlayerApp
import PlayerCore
import Terminal

extension Invocation {
    /// The options' combinations that make no sense, each said in one line.
    func validate() throws(ValidationError) {
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
        if let bits, ![16, 24, 32].contains(bits) {
            throw ValidationError("--bits \(bits): give 16, 24 or 32")
        }
        if bits != nil, remote {
            throw ValidationError("--bits applies to what tplayer plays itself: leave it out with -R")
        }
        if let speed, SpeedValue.parse(speed) == nil {
            throw ValidationError("--speed \(speed): \(SpeedValue.hint)")
        }
        if let sleep, SleepTimer.parse(sleep) == nil {
            throw ValidationError("--sleep \(sleep): give a time (30m, 1h30m, 90s; minutes alone: 45), at most a day, or album")
        }
        if let crossfade, CrossfadeSetting.parse(crossfade) == nil {
            throw ValidationError("--crossfade \(crossfade): give the seconds, 0 to 60 (e.g. 5 or 2.5; 0: off)")
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
        if !mpd.isEmpty {
            if write != nil || remote || check || scan || find != nil || listOutputs || printStates {
                throw ValidationError("--mpd serves the player as it plays aloud: leave out -w, -R, --check, --scan, --find and the other modes")
            }
            for text in mpd where text != Self.settingsAddresses {
                if case .failure(let problem) = SocketAddress.parse(text, defaultPort: 6600) {
                    throw ValidationError("--mpd \(text): \(problem.reason)")
                }
            }
        }
    }

    /// What `--mpd` alone stands for: the settings' addresses, else 127.0.0.1:6600.
    static let settingsAddresses = "default"

    /// Where `--mpd` serves: the addresses named, and the settings' for `--mpd` alone.
    func mpdAddresses(_ settings: Settings) -> [SocketAddress] {
        var addresses: [SocketAddress] = []
        for text in mpd {
            let named = text == Self.settingsAddresses
                ? (settings.mpd.isEmpty ? [.inet4(host: "127.0.0.1", port: 6600)] : settings.mpd)
                : [try? SocketAddress.parse(text, defaultPort: 6600).get()].compactMap { $0 }
            for address in named where !addresses.contains(address) { addresses.append(address) }
        }
        return addresses
    }

    /// Where the audio goes, from `-o` and `-w` (and the settings' `output`).
    func outputTarget(_ settings: Settings) throws(ValidationError) -> OutputTarget {
        let first = outputNames.first
        guard let path = write else {
            if let first, ["wav", "au", "raw"].contains(first) {
                throw ValidationError("-o \(first) writes a file: give its path with -w PATH")
            }
            return .live(driver: first ?? settings.output)
        }
        let file = RawArguments.path(path)
        let driver = first ?? OutputTarget.fileDriver(forPath: file)
        return .file(driver: driver, path: file, overwrite: force)
    }

    /// `-o pulse,snapcast`: the first output, then those that follow it.
    private var outputNames: [String] {
        output.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    /// The device (`-a`, else a front-end's mpg123 `-a`, else the settings') and Snapcast's server.
    func outputSetup(_ settings: Settings, device front: String? = nil) -> OutputSetup {
        var setup = settings.outputSetup
        if let chosen = device ?? front { setup.device = chosen }
        // `-o` names every output; a file (`-w`) is written alone, whatever the settings say.
        if output != nil || write != nil { setup.also = Array(outputNames.dropFirst()) }
        return setup
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
            printOutput("\("snapcast".padding(toLength: 8)) live  snapserver's pipe or tcp source (-a), for every room")
            printOutput("\("icecast".padding(toLength: 8)) live  a broadcast to Icecast (the settings' icecast =)")
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
                                   setup: outputSetup(settings, device: mpg123.device), volume: mpg123.volume).run()
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
        let serving = mpdAddresses(settings)
        if let open = serving.first(where: { !$0.isLocal }), settings.mpdPasswords.isEmpty {
            printError("tplayer: --mpd \(open): a server beyond this machine needs a password: add mpd-password = SECRET to the "
                       + "settings (~/.config/tplayer/config), or serve on 127.0.0.1")
            throw ExitCode(64)
        }
        // A service (--mpd with no inputs) picks up its saved list, as MPD its state file.
        let resumes = resume || (inputs.isEmpty && script == nil
            && (Self.resumesByDefault(settings) || !serving.isEmpty && (SessionStore.location.map(FileSystem.exists) ?? false)))
        // `tplayer` alone, with nothing to resume, opens the library in a terminal, as cmus does.
        let opensLibrary = inputs.isEmpty && script == nil && !resumes && write == nil && isatty(STDIN_FILENO) == 1
            && LibraryRun.holdsSongs(LibraryRun.existingLibrary())
        // Checked after the options are parsed, so that an unknown option is what is said.
        if inputs.isEmpty && script == nil && !resumes && !opensLibrary && serving.isEmpty {
            throw ValidationError("no INPUT given: name a song, a folder, a playlist or a CUE sheet; "
                                  + "or tplayer --scan FOLDER, and tplayer alone opens the library")
        }
        var options = PlayerRun.Options(
            repeats: repeats, shuffle: shuffleAlbums ? .albums : shuffle ? .songs : settings.shuffle ?? .off, fades: !noFade,
            replayGain: ReplayGainSetting(mode: replaygain ?? settings.replayGain ?? .off,
                                          preamp: replaygainPreamp ?? settings.replayGainPreamp ?? 0),
            seed: seed ?? UInt64.random(in: 0...UInt64.max), quiet: quiet, trace: trace, mpris: !noMpris,
            resume: resumes, opensLibrary: opensLibrary, settings: settings)
        options.volume = volume.flatMap(Self.percent)
        options.start = start.flatMap { try? ScriptParser.seekTarget($0).get() }
        options.bits = bits
        options.setup = outputSetup(settings)
        if !serving.isEmpty {
            options.mpd = MpdServer.Settings(addresses: serving, passwords: settings.mpdPasswords.map { ($0.secret, $0.permission) },
                                             maximumClients: settings.mpdMaxConnections)
        }
        options.speed = speed.flatMap(SpeedValue.parse) ?? settings.speed
        options.crossfade = crossfade.flatMap(CrossfadeSetting.parse) ?? settings.crossfade
        options.skipFade = settings.skipFade
        options.sleep = sleep.flatMap(SleepTimer.parse)
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
            OutputTarget.ownDrivers + OutputDriverInfo.all().map(\.shortName).filter { !["wav", "au", "raw"].contains($0) }
        }
        loaded.said.forEach(printError)
        return loaded.settings
    }
}
