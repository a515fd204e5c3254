import Foundation
import Testing

/// MPRIS2 on a private session bus (`dbus-run-session`), driven by the real client `playerctl`
/// while tplayer runs in a real terminal (tmux).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MprisTests {
    /// A song the library holds, rated 4 stars: MPRIS says `xesam:userRating` 0.8.
    @Test func theLibrarysRatingIsTheSongsUserRating() throws {
        let folder = try Harness.temporaryFolder()
        let long = try Harness.makeSong(seconds: 30, in: folder, name: "long.mp3")
        let data = folder.appendingPathComponent("data").path
        let scan = try Harness.tplayer(["--scan", folder.path], environment: ["XDG_DATA_HOME": data])
        #expect(scan.status == 0, "\(scan.stderr)")
        let rated = try Harness.run("/usr/bin/python3", ["-c", """
            import sqlite3; c = sqlite3.connect('\(data)/tplayer/library.sqlite'); c.execute("UPDATE song SET rating = 4"); c.commit()
            """])
        #expect(rated.status == 0, "\(rated.stderr)")
        let socket = "tplayer-rating-\(getpid())"
        let script = """
            tmux -L \(socket) new-session -d -x 100 -y 8 \\
              "XDG_DATA_HOME='\(data)' XDG_STATE_HOME='\(folder.path)/state' '\(Harness.binary)' -o null '\(long)'"
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -qx tplayer && break; sleep 0.1; done
            sleep 0.3
            echo "rating $(playerctl -p tplayer metadata xesam:userRating)"
            tmux -L \(socket) send-keys -t 0 q; sleep 0.5; tmux -L \(socket) kill-server 2>/dev/null
            true
            """
        let result = try Harness.dbusSession(script)
        #expect(result.stdout.contains("rating 0.8"), "\(result.stdout)\(result.stderr)")
    }

    /// The spec's fields for a song tagged as Picard tags it, held by the library and holding a
    /// cover: its album artist, track and disc, its date, its plays and rating, and its cover as
    /// a file (written into XDG_RUNTIME_DIR/tplayer, taken away when the run ends). Only title,
    /// artist, album, length, URL and rating were sent.
    @Test func theMetadataHoldsEveryFieldTheSpecNames() throws {
        let folder = try Harness.temporaryFolder()
        let music = folder.appendingPathComponent("Music")
        try TaggedCopies.write(from: try Harness.makeSong(seconds: 30, in: folder, name: "long.mp3"), into: music)
        let made = try Harness.run("/bin/sh", ["-ec", """
            ffmpeg -v error -f lavfi -i color=red:s=8x8 -frames:v 1 cover.png
            /usr/bin/python3 -c "from mutagen.id3 import ID3, APIC; t = ID3('Music/v24-1995-03-13.mp3'); \
            t.add(APIC(encoding=3, mime='image/png', type=3, desc='', data=open('cover.png', 'rb').read())); t.save()"
            mkdir -m 700 run
            """], in: folder)
        try #require(made.status == 0, "\(made.stderr)")
        let data = folder.appendingPathComponent("data").path
        let scan = try Harness.tplayer(["--scan", music.path], environment: ["XDG_DATA_HOME": data])
        #expect(scan.status == 0, "\(scan.stderr)")
        let rated = try Harness.run("/usr/bin/sqlite3", ["\(data)/tplayer/library.sqlite", "UPDATE song SET rating = 4, playcount = 3"])
        #expect(rated.status == 0, "\(rated.stderr)")
        let socket = "tplayer-metadata-\(getpid())"
        let song = music.appendingPathComponent("v24-1995-03-13.mp3").path
        let script = """
            tmux -L \(socket) new-session -d -x 100 -y 8 \\
              "XDG_RUNTIME_DIR='\(folder.path)/run' XDG_DATA_HOME='\(data)' XDG_STATE_HOME='\(folder.path)/state' '\(Harness.binary)' -o null '\(song)'"
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -qx tplayer && break; sleep 0.1; done
            sleep 0.3
            playerctl -p tplayer metadata
            art=$(playerctl -p tplayer metadata mpris:artUrl)
            cmp "${art#file://}" cover.png && echo "art is the cover"
            tmux -L \(socket) send-keys -t 0 q; sleep 0.5; tmux -L \(socket) kill-server 2>/dev/null
            echo "left: $(ls run/tplayer)"
            true
            """
        let result = try Harness.dbusSession("cd '\(folder.path)'\n" + script)
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().joined(separator: " ") }
        for field in ["xesam:albumArtist Björk", "xesam:trackNumber 3", "xesam:discNumber 1", "xesam:contentCreated 1995-03-13",
                      "xesam:useCount 3", "xesam:artist Björk", "xesam:title Isobel"] {
            #expect(lines.contains(field), "\(field): \(result.stdout)\(result.stderr)")
        }
        #expect(lines.contains { $0.hasPrefix("xesam:userRating 0.8") }, "\(result.stdout)")
        #expect(result.stdout.contains("mpris:artUrl") && result.stdout.contains("file://\(folder.path)/run/tplayer/cover-"))
        #expect(result.stdout.contains("art is the cover") && result.stdout.contains("left: \n"), "\(result.stdout)")
    }

    @Test func playerctlControlsTplayer() throws {
        let folder = try Harness.temporaryFolder()
        let long = try Harness.makeSong(seconds: 30, in: folder, name: "long.mp3")
        let plain = try Harness.makeSong(seconds: 3, in: folder, name: "plain.mp3")
        let trace = folder.appendingPathComponent("trace.txt").path
        let socket = "tplayer-mpris-\(getpid())"
        // The second song's name is not UTF-8 and it has no tags: its title is the repaired name.
        let script = """
            set -u
            mv '\(plain)' "$(printf '\(folder.path)/odd-\\377.mp3')"
            tmux -L \(socket) new-session -d -x 100 -y 8 \\
              "XDG_STATE_HOME='\(folder.path)/state' '\(Harness.binary)' -o null --trace '\(long)' '\(folder.path)'/odd-*.mp3 2>'\(trace)'"
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -qx tplayer && break; sleep 0.1; done
            playerctl -p tplayer --follow status > '\(folder.path)/follow.txt' 2>/dev/null & follow=$!
            dbus-monitor "type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'" > '\(folder.path)/seeked.txt' 2>/dev/null & monitor=$!
            sleep 0.3
            echo "status $(playerctl -p tplayer status)"
            playerctl -p tplayer play-pause; sleep 0.4
            echo "status $(playerctl -p tplayer status)"
            echo "screen $(tmux -L \(socket) capture-pane -p | grep -v '^ *$' | tail -1)"
            playerctl -p tplayer play-pause; sleep 0.4
            echo "status $(playerctl -p tplayer status)"
            playerctl -p tplayer position 10; sleep 0.4
            echo "position $(playerctl -p tplayer position)"
            echo "metadata $(playerctl -p tplayer metadata --format '{{title}}|{{artist}}|{{mpris:length}}|{{xesam:url}}')"
            playerctl -p tplayer volume 0.5; sleep 0.4
            echo "volume $(playerctl -p tplayer volume)"
            echo "screen $(tmux -L \(socket) capture-pane -p | grep -v '^ *$' | tail -1)"
            playerctl -p tplayer next; sleep 0.6
            echo "next $(playerctl -p tplayer metadata --format '{{title}}|{{xesam:url}}')"
            tmux -L \(socket) new-window "XDG_STATE_HOME='\(folder.path)/state2' '\(Harness.binary)' -o null '\(long)' 2>/dev/null"
            for i in $(seq 300); do [ "$(playerctl -l 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.1; done
            echo "players $(playerctl -l | sort | tr '\\n' ' ')"
            kill $follow $monitor
            tmux -L \(socket) send-keys -t 0 q; tmux -L \(socket) send-keys -t 1 q
            sleep 0.5; tmux -L \(socket) kill-server 2>/dev/null
            true
            """
        let result = try Harness.dbusSession(script)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func values(_ key: String) -> [String] {
            lines.filter { $0.hasPrefix(key + " ") }.map { String($0.dropFirst(key.count + 1)) }
        }
        let log = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        #expect(values("status") == ["Playing", "Paused", "Playing"], "\(result.stdout)\n\(result.stderr)\n\(log)")
        // The status line and the trace agree with what playerctl says.
        #expect(values("screen").first?.hasPrefix("Paused ") == true, "\(values("screen"))")
        #expect(log.contains("mpris: on the session bus as org.mpris.MediaPlayer2.tplayer"))
        #expect(log.contains("Play -> Stop (toggle)") && log.contains("Stop -> Play (toggle)"))
        let position = Double(values("position").first ?? "") ?? -1
        #expect(position >= 9.9 && position < 10.8, "position \(position)")
        // playerctl sends SetPosition with 10,000,000 µs: exactly 10 s, sample 441000.
        #expect(log.contains("(seek 10.0s)") && log.contains("engine: seeked to 0:10.00 (sample 441000)"), "\(log)")
        // No tags: the title is the file name; no artist; the length in microseconds.
        #expect(values("metadata") == ["long.mp3||30000000|file://\(folder.path)/long.mp3"], "\(values("metadata"))")
        #expect(values("volume") == ["0.500000"])
        #expect(values("screen").last?.contains("50%") == true, "\(values("screen"))")
        #expect(values("next") == ["odd-\u{FFFD}.mp3|file://\(folder.path)/odd-%FF.mp3"], "\(values("next"))")
        // PropertiesChanged on each change (what --follow prints), and Seeked after the seek.
        let follow = (try? String(contentsOfFile: folder.appendingPathComponent("follow.txt").path, encoding: .utf8)) ?? ""
        #expect(follow.split(separator: "\n").prefix(3) == ["Playing", "Paused", "Playing"], "\(follow)")
        let seeked = (try? String(contentsOfFile: folder.appendingPathComponent("seeked.txt").path, encoding: .utf8)) ?? ""
        #expect(seeked.contains("member=Seeked") && seeked.contains("int64 "), "\(seeked)")
        let players = values("players").first?.split(separator: " ").map(String.init) ?? []
        #expect(players.count == 2 && players.contains("tplayer") && players.contains { $0.hasPrefix("tplayer.instance") },
                "\(players)")
    }

    /// A 16 TB sparse MP3 at 8 kHz claims 1.4e14 samples (555 years): past what a length is
    /// believed (`SongDecoder.longestLength`), it is sent as unknown (it crashed tplayer with
    /// SIGILL as the song opened, and then was sent saturated).
    @Test func anAbsurdLengthIsSentSaturatedNotACrash() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("t.wav").path
        let song = folder.appendingPathComponent("huge.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "8000", "-c", "1", "-b", "16", wav, "synth", "30", "sine", "440"])
        // 30 s of audio: the length is read while it plays, however slow the start on a busy machine.
        try Harness.run("/usr/bin/lame", ["--quiet", "-b", "8", "--resample", "8", wav, song])
        try #require(truncate(song, 16_000_000_000_000) == 0, "a sparse 16 TB file")
        let socket = "tplayer-huge-\(getpid())"
        let script = """
            tmux -L \(socket) new-session -d -x 100 -y 8 \\
              "XDG_STATE_HOME='\(folder.path)/state' '\(Harness.binary)' -o null '\(song)' 2>/dev/null; echo \\$? > '\(folder.path)/status'"
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -qx tplayer && break; sleep 0.1; done
            sleep 0.5
            echo "length $(playerctl -p tplayer metadata --format '{{mpris:length}}')"
            tmux -L \(socket) send-keys q
            # Until it has ended and said how (a sanitized build takes its time).
            for i in $(seq 200); do [ -s '\(folder.path)/status' ] && break; sleep 0.1; done
            tmux -L \(socket) kill-server 2>/dev/null
            true
            """
        let result = try Harness.dbusSession(script)
        #expect(result.stdout.contains("length \n"), "\(result.stdout)")
        let status = try String(contentsOfFile: folder.appendingPathComponent("status").path, encoding: .utf8)
        #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "not SIGILL (132)")
    }

    /// Tags reach a client through the one sanitiser: `playerctl metadata` in a terminal
    /// retitled its window and cleared the screen with a title's ESC ] 2 ; … BEL and ESC [ 2 J.
    @Test func tagsReachClientsWithoutControlCharacters() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("t.wav").path
        let song = folder.appendingPathComponent("evil.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "10", "sine", "440"])
        try Harness.run("/usr/bin/lame", ["--quiet", "--id3v2-only", "--id3v2-utf16", "--tt", "\u{1B}]2;pwned\u{07}\u{1B}[2Jtitle\u{202E}",
                                          "--ta", "art\r\nist\u{9B}1m", wav, song])
        let script = """
            '\(Harness.binary)' -o null '\(song)' >/dev/null 2>&1 & player=$!
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -qx tplayer && break; sleep 0.1; done
            sleep 0.5
            playerctl -p tplayer metadata --format '{{title}}|{{artist}}'
            kill $player
            """
        let result = try Harness.dbusSession(script)
        #expect(result.stdout == " ]2;pwned  [2Jtitle |art  ist 1m\n", "\(result.stdout.debugDescription) \(result.stderr)")
    }

    /// No session bus (a console, CI): MPRIS is off and nothing is said about it.
    @Test func withoutABusNothingIsSaid() throws {
        let song = try Harness.makeSong(seconds: 0.5, in: try Harness.temporaryFolder())
        let result = try Harness.tplayer(["-o", "null", "--trace", song],
                                         environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus",
                                                       "XDG_RUNTIME_DIR": "/nonexistent"])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("mpris"))
        #expect(!result.stderr.lowercased().contains("bus"))
    }
}
