import Foundation
import PlayerCore
import Testing
@testable import PlayerApp
import Terminal

/// The configuration file: every setting, bindings and the ready-made sets, and a located line
/// for each problem with the rest read.
struct SettingsTests {
    static func parse(_ text: String) -> Settings.Parsed {
        Settings.parse(Array(text.utf8), file: "config", outputs: { ["pulse", "ao", "null", "alsa"] })
    }

    @Test func everySettingIsRead() {
        let parsed = Self.parse("""
            # tplayer settings
            output = alsa
            volume = 80
            volume-step = 10
            seek-step = 2.5
            long-seek-step = 30s
            replaygain = auto
            replaygain-preamp = -3 dB
            colours = off
            resume = no   # and a comment
            """)
        #expect(parsed.problems.isEmpty, "\(parsed.problems.map(\.located))")
        let settings = parsed.settings
        #expect(settings.output == "alsa" && settings.volume == 80 && settings.steps == Steps(volume: 10, seek: 2.5, longSeek: 30))
        #expect(settings.replayGain == .auto && settings.replayGainPreamp == -3 && !settings.colours && !settings.resume)
        #expect(settings.bindings == .standard)
        let defaults = Self.parse("").settings
        #expect(defaults == Settings() && defaults.colours && defaults.resume && defaults.volume == nil)
    }

    @Test func theOutputsDeviceAndSnapcastsServerAreRead() {
        let parsed = Self.parse("""
            device = /run/snapserver/fifo
            snapcast-control = 127.0.0.1:17705
            snapcast-format = 96000:24:2
            snapcast-buffer = 400ms
            """)
        #expect(parsed.problems.isEmpty, "\(parsed.problems.map(\.located))")
        let setup = parsed.settings.outputSetup
        #expect(setup.device == "/run/snapserver/fifo" && setup.snapcast.control == "127.0.0.1:17705")
        #expect(setup.snapcast.format == SnapcastFormat(rate: 96000, bits: 24, channels: 2) && setup.snapcast.bufferSeconds == 0.4)
        #expect(Self.parse("snapcast-control = off").settings.outputSetup.snapcast.control == nil)
        let bad = Self.parse("""
            snapcast-control = snapserver.local:1705
            snapcast-format = 44100:20:2
            snapcast-buffer = -1
            device =
            """)
        #expect(bad.problems.map(\.located) == [
            "config:1:20: snapcast-control = snapserver.local:1705: snapserver.local is not an address: name it by number (127.0.0.1, [::1]), or a Unix socket's path (/run/…), e.g. snapcast-control = 127.0.0.1:1705 (or off)",
            "config:2:19: snapcast-format = 44100:20:2: " + SnapcastFormat.hint,
            "config:3:19: snapcast-buffer = -1: give snapserver's buffer in milliseconds, 0 to 60000 (its own default: 1000)",
            "config:4:9: device = : give a device: PulseAudio's sink, or snapserver's pipe (e.g. /tmp/snapfifo)",
        ], "\(bad.problems.map(\.located))")
        #expect(bad.settings.outputSetup == OutputSetup())
    }

    /// Where `-o icecast` broadcasts, and as what; a line that cannot be used is quoted with the
    /// password left out (`mpd-password`'s whole value too).
    @Test func theIcecastMountAndFormatAreReadAndNoPasswordIsQuoted() {
        let parsed = Self.parse("""
            icecast = http://source:s%40cret@radio.example.org:8443/tplayer.ogg
            icecast-format = OPUS:64
            """)
        #expect(parsed.problems.isEmpty, "\(parsed.problems.map(\.located))")
        let icecast = parsed.settings.outputSetup.icecast
        #expect(icecast.mount == IcecastMount(host: "radio.example.org", port: 8443, user: "source", password: "s@cret", mount: "/tplayer.ogg"))
        #expect(icecast.encoding == IcecastEncoding(codec: .opus, kbps: 64))
        let bad = Self.parse("""
            icecast = http://source:hush-4711@127.0.0.1:8000
            icecast = http://hush-4711@127.0.0.1/a.ogg
            icecast-format = flac
            mpd-password = hush-4711@everything
            icecast = source:pa/hush-4711@127.0.0.1/a.ogg
            icecast = http://hush-4711
            """)
        #expect(bad.problems.map(\.located) == [
            "config:1:11: icecast = http://source:…@127.0.0.1:8000: " + IcecastMount.hint,
            "config:2:11: icecast = http://…@127.0.0.1/a.ogg: name the source's user and password before the @: " + IcecastMount.hint,
            "config:3:18: icecast-format = flac: " + IcecastEncoding.hint,
            "config:4:16: mpd-password = …: unknown permission \"everything\": give read, add, control, admin or player",
            "config:5:11: icecast = source:…@127.0.0.1/a.ogg: " + IcecastMount.hint,
            "config:6:11: icecast = http://…: " + IcecastMount.hint,
        ], "\(bad.problems.map(\.located))")
        #expect(bad.settings.outputSetup == OutputSetup())
    }

    /// A settings file of 1 MB of `bind` lines (72,806 of them, keys of every script, each
    /// bound twice) is read at once: each bind searched every binding (46 s of CPU before the
    /// first song). The last binding of a key wins and the help's order is the order of binding.
    /// (The limit is for a hang: a test's time counts while it waits for a thread behind the
    /// end-to-end tests, minutes on a busy machine; alone it takes under a second.)
    @Test(.timeLimit(.minutes(10)))
    func manyBindingsAreReadAtOnce() {
        // CJK ideographs, then those of Extension B.
        let keys: [String] = (0..<36_403).map { (index: Int) -> String in
            let value: UInt32 = index < 20_000 ? 0x4E00 + UInt32(index) : 0x20000 + UInt32(index - 20_000)
            return String(Character(Unicode.Scalar(value)!))
        }
        var text = ""
        for key in keys { text += "bind \(key) next\n" }
        for key in keys { text += "bind \(key) quit\n" }
        let parsed = Self.parse(text)
        #expect(parsed.problems.count == 0, "\(parsed.problems.prefix(2).map(\.located))")
        let bindings = parsed.settings.bindings
        #expect(bindings.action(for: .character(Character(keys[0]))) == .quit)
        #expect(bindings.action(for: .character(Character(keys[36_402]))) == .quit)
        let added = bindings.everywhere.filter { $0.action == .quit }.map(\.key)
        #expect(added.count == 36_404, "each key once, q's own too")
        #expect(added.dropFirst().elementsEqual(keys.map { Key.character(Character($0)) }), "in the order they were bound")
        #expect(bindings.firstKey(for: .help) == .character("h"))
        var changed = bindings
        for key in keys { changed.unbind(.character(Character(key))) }
        #expect(changed == .standard)
    }

    /// A combining mark is a key of its own (a dead key sends one): it joined the space before
    /// it, and the line was "cannot read this line"; a long value is cut in the message.
    @Test func aCombiningMarkBindsAndALongValueIsCut() {
        let parsed = Self.parse("bind \u{301} next\nbind \u{1F3FD} quit\nvolume = " + String(repeating: "9", count: 4_000) + "\n")
        #expect(parsed.settings.bindings.action(for: .character("\u{301}")) == .next)
        #expect(parsed.settings.bindings.action(for: .character("\u{1F3FD}")) == .quit)
        #expect(parsed.problems.map(\.located) == ["config:3:10: volume = " + String(repeating: "9", count: 59) + "…: give a volume from 0 to 100"])
    }

    @Test func theStepsChangeWhatTheKeysDoAndTheHelpSays() {
        let steps = Self.parse("volume-step = 10\nseek-step = 2.5\nlong-seek-step = 30").settings.steps
        #expect(Action.volumeUp.command(steps) == .changeVolume(by: 10))
        #expect(Action.seekBack.command(steps) == .seek(.by(AudioTime(microseconds: -2_500_000)!)))
        #expect(Action.seekForwardLong.command(steps) == .seek(.by(.seconds(30))))
        #expect(KeyMap.helpLines(inListView: false, bindings: .standard, steps: steps).contains("  →         2.5 s forward (past the end: the next song)"))
    }

    @Test func bindUnbindAndJumpsChangeTheKeys() {
        let parsed = Self.parse("""
            bind x next  # x: next
            bind # previous
            bind space pause
            bind F play-pause
            bind 5 jump 55%
            unbind q
            bind D remove
            """)
        // No key left to quit with: said once (Ctrl-C still quits, and the help says so).
        #expect(parsed.problems.map(\.located) == ["config: no key quits now; Ctrl-C still does (bind q quit to have one)"])
        #expect(parsed.settings.bindings.rows(Steps()).contains { $0.keys == "Ctrl-C" && $0.help == "quit" })
        let keys = parsed.settings.bindings
        #expect(keys.action(for: .character("x")) == .next && keys.action(for: .character(" ")) == .pause)
        #expect(keys.action(for: .character("#")) == .previous, "# as a key is not a comment")
        #expect(keys.action(for: .character("F")) == .playPause && keys.action(for: .character("5")) == .jump(percent: 55))
        #expect(keys.action(for: .character("q")) == nil, "unbound")
        #expect(keys.listAction(for: .character("D")) == .remove && keys.action(for: .character("D")) == nil, "a list view action works there only")
        #expect(keys.listAction(for: .character("d")) == .remove, "the old key stays too")
        #expect(keys.listAction(for: .character("x")) == .next, "in the view, a key not its own means what it means everywhere")
    }

    @Test func theReadyMadeSetsAreTheOtherPlayersHabitsAndBindsChangeThemWhereverKeysIs() {
        let mpv = Self.parse("bind z quit\nkeys = mpv").settings.bindings
        #expect(mpv.action(for: .character(">")) == .next && mpv.action(for: .character("<")) == .previous)
        #expect(mpv.action(for: .character("9")) == .volumeDown && mpv.action(for: .character("0")) == .volumeUp)
        #expect(mpv.action(for: .character("p")) == .playPause && mpv.action(for: .character("5")) == .jump(percent: 50))
        #expect(mpv.action(for: .character("z")) == .quit, "bind after the set, wherever keys = is")
        let cmus = Self.parse("keys = cmus").settings.bindings
        #expect(cmus.action(for: .character("z")) == .previous && cmus.action(for: .character("x")) == .playFromStart)
        #expect(cmus.action(for: .character("c")) == .playPause && cmus.action(for: .character("v")) == .stop, "cmus: x restarts, v stops and rewinds")
        #expect(cmus.action(for: .character("b")) == .next && cmus.action(for: .character("s")) == .toggleShuffle)
        #expect(cmus.action(for: .character("5")) == nil && cmus.action(for: .character("3")) == .list)
        #expect(cmus.listAction(for: .character("D")) == .remove && cmus.listAction(for: .character("p")) == .moveDown)
        #expect(Self.parse("keys = tplayer").settings.bindings == .standard)
    }

    @Test func everyProblemIsOneLocatedLineAndTheRestIsRead() {
        let parsed = Self.parse("""
            volume = 70
            bind x nxt
            volum = 50
            colours = maybe
            bind ctrl-1 next
            keys = mvp
            output = plse
            just words here
            seek-step = -1
            bind y
            \u{1B}[2J = 1
            volume-step = 20
            """)
        #expect(parsed.problems.map(\.located) == [
            "config:2:8: unknown action \"nxt\"; did you mean \"next\"?",
            "config:3:1: unknown setting \"volum\"; did you mean \"volume\"?",
            "config:4:11: colours = maybe: give on or off",
            "config:5:6: unknown key \"ctrl-1\"; a key is one character or a name such as space, enter, up, pgdn, f5, ctrl-n, alt-x, shift-up",
            "config:6:8: keys = mvp: no such set of keys; did you mean \"mpv\"?; give tplayer, mpv or cmus",
            "config:7:10: output = plse: no such output here; did you mean \"pulse\"?; tplayer --list-outputs lists them",
            "config:8:1: cannot read this line; write \"setting = value\", \"bind KEY ACTION\" or \"unbind KEY\"",
            "config:9:13: seek-step = -1: give seconds from 0.1 to 3600, e.g. 5 or 2.5",
            "config:10:6: bind y: which action? e.g. bind y next",
            "config:11:1: unknown setting \"\\u{1b}[2J\"",
        ])
        #expect(parsed.settings.volume == 70 && parsed.settings.steps.volume == 20, "the good lines are read")
        #expect(parsed.settings.bindings.action(for: .character("x")) == nil)
    }

    /// The README's example file is read whole, without a problem, and sets what it says.
    @Test func theReadmesExampleIsAGoodFile() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "# ~/.config/tplayer/config"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let parsed = Self.parse(String(readme[start.lowerBound..<end.lowerBound]))
        #expect(parsed.problems.isEmpty, "\(parsed.problems.map(\.located))")
        #expect(parsed.settings.output == "pulse" && parsed.settings.volume == 80)
        #expect(parsed.settings.bindings.action(for: .character("q")) == nil && parsed.settings.bindings.action(for: .pageDown) == .seekForward)
    }

    @Test func aFileOfProblemsIsCutShortAndBinaryIsSaidOnce() {
        let parsed = Self.parse(String(repeating: "nonsense\n", count: 500))
        #expect(parsed.problems.count == Settings.maxProblems + 1 && parsed.problems.last?.message == "480 more problems not shown")
        let binary = Settings.parse([0xFF, 0xFE, 0x0A, 0x00, 0x41], file: "config", outputs: { [] })
        #expect(binary.problems.count == 2 && binary.settings == Settings())
    }
}

extension SettingsTests {
    /// `reconnect = N`: the tries in a row to connect to a dropped stream again, 0 to 100.
    @Test func theTriesToReconnectAreASetting() {
        #expect(Self.parse("reconnect = 0").settings.reconnects == 0)
        #expect(Self.parse("reconnect = 25").settings.reconnects == 25)
        #expect(Self.parse("").settings.reconnects == nil, "the default (10) is the engine's")
        for bad in ["101", "-1", "ten", "1.5"] {
            let parsed = Self.parse("reconnect = \(bad)")
            #expect(parsed.problems.map(\.located) == ["config:1:13: reconnect = \(bad): give the tries in a row, 0 to 100 (0: never)"],
                    "\(parsed.problems.map(\.located))")
        }
    }
}

/// The now-playing view's settings.
struct NowPlayingSettingsTests {
    @Test func viewCoverAndSpectrumAreRead() {
        let parsed = Settings.parse(Array("view = now-playing\ncover = symbols\nspectrum = 48\nspectrum-style = ascii\n".utf8), file: "config", outputs: { [] })
        #expect(parsed.problems.isEmpty)
        #expect(parsed.settings.view == .nowPlaying)
        let options = parsed.settings.nowPlaying(["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"])
        #expect(options.cover == .symbols(.indexed256) && options.spectrum == SpectrumStyle(bars: 48, glyphs: .ascii))
        #expect(Settings.parse(Array("".utf8), file: "config", outputs: { [] }).settings.nowPlaying(["TERM": "xterm-kitty"]).cover == .kitty)
        #expect(Settings.parse(Array("".utf8), file: "config", outputs: { [] }).settings.nowPlaying(["TERM": "screen", "TMUX": "x"]).cover == .symbols(.indexed16))
        #expect(Settings.parse(Array("".utf8), file: "config", outputs: { [] }).settings.nowPlaying(["TERM": "xterm"]).spectrum == nil, "off by default")
        // Without colours (NO_COLOR, `colours = off`: the screen's), the cover is drawn in the
        // symbols' shapes alone, even where the terminal has graphics, unless they are named.
        func cover(_ text: String, _ environment: [String: String], colours: Bool) -> CoverStyle? {
            Settings.parse(Array(text.utf8), file: "config", outputs: { [] }).settings.nowPlaying(environment, colours: colours).cover
        }
        #expect(cover("", ["TERM": "xterm"], colours: false) == .symbols(.monochrome))
        #expect(cover("", ["TERM": "xterm-kitty"], colours: false) == .symbols(.monochrome))
        #expect(cover("cover = symbols\n", ["TERM": "xterm-256color"], colours: false) == .symbols(.monochrome))
        #expect(cover("cover = kitty\n", ["TERM": "xterm-kitty"], colours: false) == .kitty)
        #expect(cover("cover = off\n", ["TERM": "xterm"], colours: false) == nil)
        #expect(cover("", ["TERM": "rxvt", "COLORFGBG": "0;15"], colours: false) == .symbols(.monochromeOnLight))
        #expect(Settings().nowPlaying(["TERM": "xterm"], colours: false).plain && !Settings().nowPlaying(["TERM": "xterm"]).plain)
        let bad = Settings.parse(Array("view = now\nspectrum = 1000\ncover = ascii\n".utf8), file: "config", outputs: { [] }).problems.map(\.message)
        #expect(bad.count == 3)
        #expect(bad[0].contains("give status, library, now-playing"))
        #expect(bad[1].contains("give on, off or the number of bars (4 to 256)"))
    }
}
