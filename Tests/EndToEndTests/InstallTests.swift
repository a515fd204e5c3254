import Foundation
import Glibc
import Testing

/// `make install` as users of a terminal program expect it: under PREFIX, staged under DESTDIR,
/// the binary, a manual page `man` shows (usage, keys, settings, scripts, files, exit status),
/// bash, zsh and fish completions, the desktop entry MPRIS names and the systemd user unit that
/// runs it as a service; `make uninstall` takes
/// them all away again. The test builds nothing: it installs the binary under test.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct InstallTests {
    static let installed = ["bin/tplayer", "share/man/man1/tplayer.1", "share/applications/tplayer.desktop",
                            "share/bash-completion/completions/tplayer", "share/zsh/site-functions/_tplayer",
                            "share/fish/vendor_completions.d/tplayer.fish", "lib/systemd/user/tplayer.service",
                            "share/tplayer/snapcast/tplayer-snapcast"]

    static func make(_ target: String, into stage: URL) throws -> Harness.Result {
        try Harness.run("/usr/bin/make", ["--no-print-directory", "-C", Harness.root.path, target, "BIN=\(Harness.binary)",
                                          "DESTDIR=\(stage.path)", "PREFIX=/usr"])
    }

    @Test func installPutsEveryPieceUnderPrefixAndUninstallTakesThemAway() throws {
        let stage = try Harness.temporaryFolder().appendingPathComponent("a stage")  // a space in DESTDIR too
        let install = try Self.make("install-files", into: stage)
        #expect(install.status == 0, "\(install.stderr)")
        let prefix = stage.appendingPathComponent("usr")
        for file in Self.installed {
            let path = prefix.appendingPathComponent(file).path
            var info = stat()
            #expect(stat(path, &info) == 0, "\(file) is installed")
            #expect(info.st_mode & 0o777 == (file.hasPrefix("bin/") || file.hasSuffix("/tplayer-snapcast") ? 0o755 : 0o644), "\(file)'s mode")
            #expect(info.st_size > 0, "\(file) is not empty")
        }
        // The service runs the installed binary as MPD's protocol's server.
        let unit = try String(contentsOf: prefix.appendingPathComponent("lib/systemd/user/tplayer.service"), encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/tplayer --mpd\n") && unit.contains("\nWantedBy=default.target\n"), "\(unit)")
        let version = try Harness.run(prefix.appendingPathComponent("bin/tplayer").path, ["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty)
        let uninstall = try Self.make("uninstall", into: stage)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        for file in Self.installed {
            #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) is removed")
        }
    }

    /// systemd itself reads the installed unit as sound (`systemd-analyze verify`: its keys, its
    /// `ExecStart` an executable, its documentation a manual page `man` finds); the same unit
    /// naming a binary that is not there is refused, so the check is one that can fail. (No
    /// user manager runs in a container: it is what systemd says of the file.)
    @Test func systemdReadsTheInstalledUnitAsSound() throws {
        let prefix = try Harness.temporaryFolder().appendingPathComponent("prefix")
        let install = try Harness.run("/usr/bin/make", ["--no-print-directory", "-C", Harness.root.path, "install-files",
                                                        "BIN=\(Harness.binary)", "PREFIX=\(prefix.path)"])
        #expect(install.status == 0, "\(install.stderr)")
        let unit = prefix.appendingPathComponent("lib/systemd/user/tplayer.service")
        let environment = ["MANPATH": prefix.appendingPathComponent("share/man").path, "PATH": "/usr/bin:/bin"]
        let verified = try Harness.run("/usr/bin/systemd-analyze", ["verify", unit.path], environment: environment)
        #expect(verified.status == 0 && verified.stderr.isEmpty, "\(verified.stderr)")
        let broken = unit.deletingLastPathComponent().appendingPathComponent("broken.service")
        try String(contentsOf: unit, encoding: .utf8).replacingOccurrences(of: "/bin/tplayer", with: "/bin/nothing")
            .write(to: broken, atomically: true, encoding: .utf8)
        let refused = try Harness.run("/usr/bin/systemd-analyze", ["verify", broken.path], environment: environment)
        #expect(refused.status != 0 && refused.stderr.contains("is not executable"), "\(refused.stderr)")
    }

    /// `man -l` shows the installed page without a warning: every section a user looks for,
    /// every option `--help` lists (and none it does not), the key table, and the desktop entry
    /// where PREFIX put it.
    @Test func theManualPageShowsUsageKeysSettingsScriptsFilesAndExitStatus() throws {
        let stage = try Harness.temporaryFolder().appendingPathComponent("stage")
        #expect(try Self.make("install-files", into: stage).status == 0)
        let page = stage.appendingPathComponent("usr/share/man/man1/tplayer.1").path
        let shown = try Harness.run("/usr/bin/man", ["--warnings", "-l", page],
                                    environment: ["MANWIDTH": "1000", "LC_ALL": "C.UTF-8", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(shown.status == 0)
        #expect(shown.stderr.isEmpty, "man warns: \(shown.stderr)")
        let text = shown.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            .joined(separator: "\n")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "KEYS", "SETTINGS", "SCRIPTS", "ENVIRONMENT", "FILES",
                        "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(text.contains("\n\(section)\n"), "the \(section) section")
        }
        #expect(text.contains("tplayer — play music in the terminal, gaplessly and exactly"))
        #expect(text.contains("space play / pause") && text.contains("w save the list as a new .m3u8 playlist (never over a file)"))
        #expect(text.contains("/usr/share/applications/tplayer.desktop"), "PREFIX is put in")
        let help = try Harness.tplayer("--help").stdout
        let helpOptions = help.split(separator: "\n").drop { !$0.hasPrefix("OPTIONS:") }.filter { $0.hasPrefix("  -") }
        let helped = Self.longOptions(helpOptions.joined(separator: "\n"))
        let manualOptions = text.split(separator: "\n").drop { $0 != "OPTIONS" }.prefix { $0 != "KEYS" }.filter { $0.hasPrefix("-") }
        let listed = Self.longOptions(manualOptions.joined(separator: "\n"))
        #expect(helped.count > 20)
        #expect(helped.subtracting(listed).isEmpty, "options --help lists that the manual does not")
        #expect(listed.subtracting(helped) == ["--generate-completion-script"], "options the manual lists that --help does not")
    }

    /// The `--long-options` named in `text`.
    static func longOptions(_ text: String) -> Set<String> {
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "-") }
        return Set(words.filter { $0.hasPrefix("--") && $0.dropFirst(2).first?.isLetter == true }.map(String.init))
    }

    /// bash completes options and the output drivers (the scripts are ArgumentParser's own);
    /// zsh's and fish's are installed where those shells look.
    @Test func theCompletionsCompleteOptionsAndDrivers() throws {
        let stage = try Harness.temporaryFolder().appendingPathComponent("stage")
        #expect(try Self.make("install-files", into: stage).status == 0)
        let share = stage.appendingPathComponent("usr/share")
        let bash = share.appendingPathComponent("bash-completion/completions/tplayer").path
        let script = """
            shopt -s extglob; source '\(bash)'
            complete -p tplayer
            COMP_LINE='tplayer --rep'; COMP_WORDS=(tplayer --rep); COMP_CWORD=1; COMP_POINT=${#COMP_LINE}
            _tplayer tplayer --rep tplayer; echo "${COMPREPLY[*]}"
            COMP_LINE='tplayer -o '; COMP_WORDS=(tplayer -o ''); COMP_CWORD=2; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            _tplayer tplayer '' -o; echo "${COMPREPLY[*]}"
            """
        let completed = try Harness.run("/bin/bash", ["-c", script])
        #expect(completed.stdout.split(separator: "\n").map(String.init) == [
            "complete -o filenames -F _tplayer tplayer",
            "--repeat --replaygain --replaygain-preamp",
            "pulse ao snapcast icecast alsa oss sndio null wav au raw",
        ], "\(completed.stderr)")
        let zsh = try String(contentsOf: share.appendingPathComponent("zsh/site-functions/_tplayer"), encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef tplayer"))
        let fish = try String(contentsOf: share.appendingPathComponent("fish/vendor_completions.d/tplayer.fish"), encoding: .utf8)
        #expect(fish.contains("complete -c 'tplayer'") || fish.contains("complete -c tplayer"))
    }

    /// The desktop entry is valid, runs tplayer in a terminal, and is the one MPRIS's
    /// `DesktopEntry` names: with it installed where XDG looks, the player says `tplayer`.
    @Test func theDesktopEntryIsValidAndMprisNamesIt() throws {
        let stage = try Harness.temporaryFolder().appendingPathComponent("stage")
        #expect(try Self.make("install-files", into: stage).status == 0)
        let share = stage.appendingPathComponent("usr/share")
        let entry = share.appendingPathComponent("applications/tplayer.desktop").path
        let valid = try Harness.run("/usr/bin/desktop-file-validate", [entry])
        #expect(valid.status == 0 && valid.stdout.isEmpty && valid.stderr.isEmpty, "\(valid.stdout)\(valid.stderr)")
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        #expect(text.contains("\nExec=tplayer %F\n") && text.contains("\nTerminal=true\n"))
        let script = """
            '\(Harness.binary)' -o null '\(Harness.songs[0])' > /dev/null 2>&1 < /dev/null & pid=$!
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -q tplayer && break; sleep 0.1; done
            gdbus call --session --dest org.mpris.MediaPlayer2.tplayer --object-path /org/mpris/MediaPlayer2 \\
              --method org.freedesktop.DBus.Properties.Get org.mpris.MediaPlayer2 DesktopEntry
            kill $pid
            """
        let asked = try Harness.dbusSession(script, environment: ["XDG_DATA_HOME": "/nonexistent", "XDG_DATA_DIRS": share.path])
        #expect(asked.stdout.contains("(<'tplayer'>,)"), "\(asked.stdout) \(asked.stderr)")
    }
}
