import Foundation
import Testing

/// MPRIS as its specification words it, each rule checked with `gdbus` (and `dbus-monitor`)
/// against tplayer running in a real terminal on a private session bus.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MprisSpecTests {
    /// What one run printed: `key value` lines, by key.
    struct Said {
        let lines: [String]
        let all: String

        func values(_ key: String) -> [String] {
            lines.filter { $0.hasPrefix(key + " ") }.map { String($0.dropFirst(key.count + 1)) }
        }

        func value(_ key: String) -> String { values(key).first ?? "(nothing said for \(key))" }
    }

    /// Runs tplayer (`-o null`, in tmux) with `songs` on a private bus, then `body`, a shell
    /// script that has `$CALL` (a method of the player), `$GET` (a player property), `$ROOT`
    /// (a root property), `track` (the current trackid) and `settle` (a short wait) to hand.
    static func run(_ songs: [String], in folder: URL, environment: String = "", _ body: String) throws -> Said {
        // A tmux server of its own: other suites call this too, at the same time.
        let socket = "tplayer-spec-\(getpid())-\(UUID().uuidString.prefix(8))"
        // A name with a `*` is left to the shell (a name that is not UTF-8, by a pattern).
        let quoted = songs.map { $0.contains("*") ? $0 : "'\($0)'" }.joined(separator: " ")
        let script = """
            set -u
            tmux -L \(socket) new-session -d -x 100 -y 8 \\
              "\(environment) XDG_STATE_HOME='\(folder.path)/state' '\(Harness.binary)' -o null --trace \(quoted) 2>'\(folder.path)/trace.txt'"
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -qx tplayer && break; sleep 0.1; done
            SOCKET='\(socket)'
            DEST="--session -d org.mpris.MediaPlayer2.tplayer -o /org/mpris/MediaPlayer2"
            CALL="gdbus call $DEST -m org.mpris.MediaPlayer2.Player."
            GET="gdbus call $DEST -m org.freedesktop.DBus.Properties.Get org.mpris.MediaPlayer2.Player"
            ROOT="gdbus call $DEST -m org.freedesktop.DBus.Properties.Get org.mpris.MediaPlayer2"
            track() { gdbus call $DEST -m org.freedesktop.DBus.Properties.Get org.mpris.MediaPlayer2.Player Metadata | grep -o "/org/tplayer/track/[0-9]*"; }
            settle() { sleep 0.5; }
            sleep 0.3
            \(body)
            tmux -L \(socket) send-keys q; sleep 0.5; tmux -L \(socket) kill-server 2>/dev/null
            true
            """
        let result = try Harness.dbusSession(script)
        let trace = (try? String(contentsOfFile: folder.appendingPathComponent("trace.txt").path, encoding: .utf8)) ?? ""
        return Said(lines: result.stdout.split(separator: "\n").map(String.init),
                    all: "\(result.stdout)\n\(result.stderr)\n\(trace)")
    }

    /// The methods' arguments have the spec's names, which introspection shows.
    @Test func theArgumentsAreNamedAsTheSpecNamesThem() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 10, in: folder)
        let said = try Self.run([song], in: folder, """
            gdbus introspect $DEST | tr -s ' \\n' ' ' | sed 's/^/introspect /'; echo
            """)
        let text = said.value("introspect")
        for signature in ["Seek(in x Offset)", "SetPosition(in o TrackId, in x Position)", "OpenUri(in s Uri)", "Seeked(x Position)"] {
            #expect(text.contains(signature), "\(signature) in \(said.all)")
        }
    }

    /// `DesktopEntry` is there when a `tplayer.desktop` is installed where XDG says, and only then.
    @Test func theDesktopEntryIsOfferedOnlyWhenADesktopFileIsInstalled() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 10, in: folder)
        let data = folder.appendingPathComponent("data").path
        let dirs = folder.appendingPathComponent("dirs").path
        try FileManager.default.createDirectory(atPath: data + "/applications", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dirs + "/applications", withIntermediateDirectories: true)
        let body = "echo \"entry $($ROOT DesktopEntry 2>&1)\""
        let none = try Self.run([song], in: folder, environment: "XDG_DATA_HOME='\(data)' XDG_DATA_DIRS='\(dirs)'", body)
        #expect(none.value("entry").contains("UnknownProperty"), "\(none.all)")
        try Data("[Desktop Entry]\nName=tplayer\n".utf8).write(to: URL(fileURLWithPath: dirs + "/applications/tplayer.desktop"))
        let installed = try Self.run([song], in: folder, environment: "XDG_DATA_HOME='\(data)' XDG_DATA_DIRS='\(dirs)'", body)
        #expect(installed.value("entry") == "(<'tplayer'>,)", "\(installed.all)")
    }

    /// Stop is Stopped (and Play plays from the start); on the last song with LoopStatus None
    /// CanGoNext is false and Next does nothing; SetPosition at or past the end is ignored.
    @Test func stopNextAndSetPositionFollowTheSpec() throws {
        let folder = try Harness.temporaryFolder()
        let first = try Harness.makeSong(seconds: 10, in: folder, name: "first.mp3")
        let last = try Harness.makeSong(seconds: 10, in: folder, name: "last.mp3")
        let said = try Self.run([first, last], in: folder, """
            ${CALL}Stop; settle
            echo "stop $($GET PlaybackStatus) $(playerctl -p tplayer position)"
            ${CALL}Play; settle
            echo "play $($GET PlaybackStatus)"
            ${CALL}Next; settle
            echo "last $($GET CanGoNext) $($GET CanGoPrevious) $(track)"
            ${CALL}Next; settle
            echo "next $($GET PlaybackStatus) $(track)"
            ${CALL}SetPosition "$(track)" 10000000; settle
            ${CALL}SetPosition "$(track)" 40000000; settle
            echo "setposition $($GET PlaybackStatus) $(track)"
            """)
        #expect(said.value("stop") == "(<'Stopped'>,) 0.000000", "\(said.all)")
        #expect(said.value("play") == "(<'Playing'>,)")
        #expect(said.value("last") == "(<false>,) (<true>,) /org/tplayer/track/1", "\(said.all)")
        #expect(said.value("next") == "(<'Playing'>,) /org/tplayer/track/1", "\(said.all)")
        #expect(said.value("setposition") == "(<'Playing'>,) /org/tplayer/track/1", "\(said.all)")
        #expect(!said.all.contains("(seek 10.0s)") && !said.all.contains("(seek 40.0s)"), "\(said.all)")
    }

    /// OpenUri answers once the file is opened: an error for a missing or non-audio file, with
    /// nothing added and the song playing untouched; tplayer's own `xesam:url` of a name that
    /// is not UTF-8 plays that song.
    @Test func openUriAnswersWhetherItPlays() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 10, in: folder, name: "song.mp3")
        let plain = try Harness.makeSong(seconds: 10, in: folder, name: "plain.mp3")
        try Data("not audio\n".utf8).write(to: folder.appendingPathComponent("text.mp3"))
        try Harness.run("/bin/sh", ["-c", "mv '\(plain)' \"$(printf '\(folder.path)/odd-\\377.mp3')\""])
        let said = try Self.run([song, "'\(folder.path)'/odd-*.mp3"], in: folder, """
            ${CALL}Next; settle
            url=$(playerctl -p tplayer metadata xesam:url); echo "url $url"
            ${CALL}Previous; settle
            echo "missing $(${CALL}OpenUri 'file://\(folder.path)/gone.mp3' 2>&1 | tr '\n' ' ')"
            echo "text $(${CALL}OpenUri 'file://\(folder.path)/text.mp3' 2>&1 | tr '\n' ' ')"
            settle
            echo "after $(track)"
            echo "odd $(${CALL}OpenUri "$url" 2>&1)"; settle
            echo "playing $(playerctl -p tplayer metadata xesam:url) $(track)"
            """)
        #expect(said.value("url") == "file://\(folder.path)/odd-%FF.mp3", "\(said.all)")
        #expect(said.value("missing").contains("org.freedesktop.DBus.Error.InvalidArgs: nothing to play, nothing added: \(folder.path)/gone.mp3: no such file"), "\(said.all)")
        #expect(said.value("text").contains("org.freedesktop.DBus.Error.InvalidArgs: nothing to play, nothing added: \(folder.path)/text.mp3:"), "\(said.all)")
        #expect(said.value("after").hasPrefix("/org/tplayer/track/0"), "the same song, the same trackid: \(said.all)")
        #expect(said.value("odd") == "()", "\(said.all)")
        #expect(said.value("playing") == "file://\(folder.path)/odd-%FF.mp3 /org/tplayer/track/1", "a new entry, right after the song that played: \(said.all)")
    }

    /// Each track change is one PropertiesChanged with the new Metadata, never "no track" first.
    @Test func aTrackChangeIsAnnouncedOnce() throws {
        let folder = try Harness.temporaryFolder()
        let first = try Harness.makeSong(seconds: 10, in: folder, name: "first.mp3")
        let second = try Harness.makeSong(seconds: 10, in: folder, name: "second.mp3")
        let monitor = folder.appendingPathComponent("monitor.txt").path
        let said = try Self.run([first, second], in: folder, """
            dbus-monitor "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'" > '\(monitor)' 2>/dev/null & watch=$!
            sleep 0.3
            ${CALL}Next; settle
            kill $watch
            echo "changes $(grep -c 'member=PropertiesChanged' '\(monitor)')"
            echo "notrack $(grep -c 'NoTrack' '\(monitor)')"
            echo "tracks $(grep -o '/org/tplayer/track/[0-9]*' '\(monitor)' | tr '\n' ' ')"
            """)
        #expect(said.value("changes") == "1", "\(said.all)")
        #expect(said.value("notrack") == "0", "\(said.all)")
        #expect(said.value("tracks") == "/org/tplayer/track/1 ", "\(said.all)")
    }

    /// Rate is the speed at the song's pitch: MinimumRate 0.25 and MaximumRate 4; a Rate set is
    /// played (kept within them), announced once in PropertiesChanged, and shown on the status
    /// line; Rate 0 is a pause, as the spec asks.
    @Test func rateIsTheSpeedWithinItsBounds() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 30, in: folder)
        let said = try Self.run([song], in: folder, """
            echo "min $($GET MinimumRate)"; echo "max $($GET MaximumRate)"; echo "before $($GET Rate)"
            dbus-monitor --session "type='signal',interface='org.freedesktop.DBus.Properties'" > '\(folder.path)/monitor.txt' 2>/dev/null & monitor=$!
            sleep 0.3
            SET="gdbus call $DEST -m org.freedesktop.DBus.Properties.Set org.mpris.MediaPlayer2.Player"
            $SET Rate "<1.5>" >/dev/null; settle
            echo "rate $($GET Rate)"
            echo "screen $(tmux -L $SOCKET capture-pane -p | grep -c "1.5×")"
            $SET Rate "<10.0>" >/dev/null; settle
            echo "fastest $($GET Rate)"
            $SET Rate "<0.0>" >/dev/null; settle
            echo "status $($GET PlaybackStatus)"
            kill $monitor
            echo "announced $(grep -c '"Rate"' '\(folder.path)/monitor.txt')"
            """)
        #expect(said.value("min") == "(<0.25>,)", "\(said.all)")
        #expect(said.value("max") == "(<4.0>,)", "\(said.all)")
        #expect(said.value("before") == "(<1.0>,)", "\(said.all)")
        #expect(said.value("rate") == "(<1.5>,)", "\(said.all)")
        #expect(said.value("screen") == "1", "\(said.all)")
        #expect(said.value("fastest") == "(<4.0>,)", "\(said.all)")
        #expect(said.value("status") == "(<'Paused'>,)", "\(said.all)")
        #expect(said.value("announced") == "2", "\(said.all)")
    }
}
