import Foundation
import Glibc
import Testing

/// tplayer (or another program: an MPD client) in a real terminal: a tmux server of its own runs it, `send-keys` types,
/// `capture-pane` reads the screen, and `stty -g` before and after shows the terminal was put
/// back as it was.
final class Pane {
    let socket = "tplayer-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let folder: URL

    /// Runs tplayer with `arguments` in a `width` × `height` terminal. `stderr` redirects its
    /// stderr (`/dev/null`, a file). With `shell`, an interactive bash runs it as a job, so
    /// Ctrl-Z and `fg` work as they do for a person.
    init(arguments: [String], environment: [String: String] = [:], width: Int = 100, height: Int = 20,
         stderr: String? = nil, shell: Bool = false, executable: String = Harness.binary) throws {
        folder = try Harness.temporaryFolder()
        let quoted = ([executable] + arguments).map { "'\($0)'" }.joined(separator: " ")
            + (stderr.map { " 2>'\($0)'" } ?? "")
        // A saved session of its own, never the user's (`~/.local/state/tplayer`).
        var environment = environment
        if environment["XDG_STATE_HOME"] == nil { environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path }
        // And settings of its own: none unless the test writes some, never the user's.
        if environment["XDG_CONFIG_HOME"] == nil { environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path }
        // And a library of its own (none unless the test scans one), never the user's.
        if environment["XDG_DATA_HOME"] == nil { environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path }
        // `Pane.unset` takes a variable away (NO_COLOR, which this machine runs the tests with).
        let exports = environment.map { $0.value == Pane.unset ? "unset \($0.key)" : "export \($0.key)='\($0.value)'" }
            .joined(separator: "; ")
        let run = "\(exports.isEmpty ? "" : exports + "; ")stty -g > '\(folder.path)/stty.before'; \(quoted); "
            + "echo $? > '\(folder.path)/status'; stty -g > '\(folder.path)/stty.after'"
        if shell {
            try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "env PS1='ready$ ' bash --norc --noprofile -i"])
            // Typed before bash has set up its line editor, the line would be thrown away.
            try waitForLine { $0.hasPrefix("ready$") }
            // In parentheses, the whole line is one job: Ctrl-Z stops it all, not only tplayer.
            try tmux(["send-keys", "-l", "(" + run + ")\n"])
        } else {
            try (run + "\nsleep 60\n").write(to: folder.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
            try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "sh '\(folder.path)/run.sh'"])
        }
    }

    /// An environment value that takes the variable away in the pane.
    static let unset = "\u{0}unset"

    deinit { _ = try? Harness.run("/usr/bin/tmux", ["-L", socket, "kill-server"], detached: true) }

    @discardableResult
    func tmux(_ arguments: String...) throws -> String {
        try Harness.run("/usr/bin/tmux", ["-L", socket] + arguments).stdout
    }

    private func tmux(_ arguments: [String]) throws {
        try Harness.run("/usr/bin/tmux", ["-L", socket] + arguments, detached: true)
    }

    func screen() throws -> String { try tmux("capture-pane", "-p") }

    func lines() throws -> [String] { try screen().split(separator: "\n").map(String.init) }

    func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// Types `text` literally.
    func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    func resize(width: Int) throws { try tmux(["resize-window", "-x", "\(width)"]) }

    /// Waits until the screen shows a line matching `predicate`; fails after `seconds`.
    @discardableResult
    func waitForLine(_ seconds: Double = 10, _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = try lines().first(where: predicate) { return line }
            usleep(50_000)
        }
        throw HarnessError.timedOut("screen never showed the line; it shows:\n\(try screen())")
    }

    /// Waits until the screen shows `text`, which may wrap across lines (a message naming a
    /// long path does); fails after `seconds`.
    func waitForText(_ text: String, _ seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try tmux("capture-pane", "-p", "-J").replacingOccurrences(of: "\n", with: "").contains(text) { return }
            usleep(50_000)
        }
        throw HarnessError.timedOut("screen never showed \(text); it shows:\n\(try screen())")
    }

    /// The status line, once it matches `predicate`.
    @discardableResult
    func waitForStatus(_ seconds: Double = 10, _ predicate: (String) -> Bool) throws -> String {
        try waitForLine(seconds) { Pane.isStatus($0) && predicate($0) }
    }

    static func isStatus(_ line: String) -> Bool {
        ["Playing", "Paused", "Stopped", "Loading", "Ready", "Idle", "End of list", "No device", "Silent"].contains { line.hasPrefix($0) }
    }

    /// The elapsed seconds a status line shows (`Paused  0:17 / 1:00 ...`).
    static func elapsed(_ line: String) -> Int? {
        guard let time = line.split(separator: " ").first(where: { $0.contains(":") }) else { return nil }
        let parts = time.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
    }

    /// The exit status tplayer left, once it has exited.
    func waitForExit(_ seconds: Double = 10) throws -> Int32 {
        let path = folder.appendingPathComponent("status").path
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
               let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                usleep(100_000)  // let the script record stty.after
                return status
            }
            usleep(50_000)
        }
        throw HarnessError.timedOut("tplayer did not exit")
    }

    /// `stty -g` after is what it was before: every setting put back.
    func sttyUnchanged() throws -> Bool {
        let before = try String(contentsOf: folder.appendingPathComponent("stty.before"), encoding: .utf8)
        let after = try String(contentsOf: folder.appendingPathComponent("stty.after"), encoding: .utf8)
        return !before.isEmpty && before == after
    }

    /// tplayer's process id, found among the pane shell's descendants.
    func playerPID() throws -> pid_t {
        let shell = try tmux("display-message", "-p", "#{pane_pid}").trimmingCharacters(in: .whitespacesAndNewlines)
        let found = try Harness.run("/usr/bin/pgrep", ["-f", "-P", shell, "tplayer"]).stdout
        return try #require(found.split(separator: "\n").compactMap { pid_t($0) }.first)
    }
}
