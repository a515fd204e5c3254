import Glibc
import PlayerCore
import Testing
@testable import Terminal

struct TerminalTextTests {
    @Test(arguments: [
        ("plain title", "plain title"),
        ("日本語のタイトル 🎵 café", "日本語のタイトル 🎵 café"),
        ("\u{1B}]2;pwned\u{07}", "\\e]2;pwned\\x07"),
        ("\u{1B}[2Jgone", "\\e[2Jgone"),
        ("two\nlines\r\tand", "two\\nlines\\r\\tand"),
        ("\u{00}\u{7F}", "\\x00\\x7f"),
        ("\u{9B}31m C1 CSI", "\\u{9b}31m C1 CSI"),
        ("evil\u{202E}3pm.mp3", "evil\\u{202e}3pm.mp3"),
        ("\u{2066}isolate\u{2069}", "\\u{2066}isolate\\u{2069}"),
    ])
    func controlCharactersAreShownNeverInterpreted(text: String, shown: String) {
        #expect(TerminalText.safe(text) == shown)
        #expect(TerminalText.safe(shown) == shown, "what it shows is already safe")
    }

    @Test func everyScalarAFileCanHoldComesOutPrintable() {
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let shown = TerminalText.safe(String(Character(scalar)))
            #expect(!shown.unicodeScalars.contains(where: UntrustedText.isControl), "U+\(String(value, radix: 16))")
        }
    }

    /// What `-R` and MPRIS send: each control a space, every other character as it was.
    @Test func flattenedTextHasNoControlAndKeepsTheRest() {
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let flat = UntrustedText.flattened("a" + String(Character(scalar)))
            #expect(!flat.unicodeScalars.contains(where: UntrustedText.isControl), "U+\(String(value, radix: 16))")
            #expect(flat.unicodeScalars.count == 2)
        }
        #expect(UntrustedText.flattened("line\u{2028}break\u{2029}") == "line break ")
    }

    @Test func theStatusLineShowsATitlesControlCharactersVisibly() {
        let song = SongInfo(path: "/m/a.mp3", sampleRate: 44100, channels: 2, totalFrames: 441_000,
                            title: "\u{1B}]2;pwned\u{07}\u{1B}[2Jevil", artist: "art\nist")
        let line = StatusLine.render(StatusSnapshot(state: .play, song: song, position: 0, entry: 0, entryCount: 1), width: 120).text
        #expect(line.hasSuffix("art\\nist – \\e]2;pwned\\x07\\e[2Jevil"))
        #expect(!line.unicodeScalars.contains(where: UntrustedText.isControl))
    }
}

struct SignalWatcherTests {
    @Test func theHandlerLeavesErrnoAsItFoundIt() throws {
        let watcher = try SignalWatcher()
        // Fill the pipe, so the handler's own write fails (EAGAIN) and would change errno.
        for _ in 0..<70_000 { raise(SIGWINCH) }
        errno = ERANGE
        raise(SIGWINCH)  // handled at once, on this thread
        let after = errno
        #expect(after == ERANGE)
        let taken = watcher.take()
        #expect(!taken.isEmpty && taken.allSatisfy { $0 == SIGWINCH })
    }
}
