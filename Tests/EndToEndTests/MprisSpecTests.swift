import Foundation
import Testing

/// MPRIS as its specification words it, each rule checked with `gdbus` (and `dbus-monitor`)
/// against tplayer running in a real terminal on a private session bus.
@Suite(.serialized)
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
        let socket = "tplayer-spec-\(getpid())"
        let quoted = songs.map { "'\($0)'" }.joined(separator: " ")
        let script = """
            set -u
            tmux -L \(socket) new-session -d -x 100 -y 8 \\
              "\(environment) XDG_STATE_HOME='\(folder.path)/state' '\(Harness.binary)' -o null --trace \(quoted) 2>'\(folder.path)/trace.txt'"
            for i in $(seq 50); do playerctl -l 2>/dev/null | grep -qx tplayer && break; sleep 0.1; done
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
        let result = try Harness.run("/usr/bin/dbus-run-session", ["--", "sh", "-c", script])
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
}
