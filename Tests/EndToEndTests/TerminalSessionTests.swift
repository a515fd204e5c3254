import Foundation
import Glibc
import Testing

/// tplayer in a real terminal, as a person uses it: every key, the prompt, the status line at
/// several widths, Ctrl-Z and `fg`, stderr sent away; each run ends with the terminal as it was.
@Suite(.serialized, .timeLimit(.minutes(10))) struct TerminalSessionTests {
    @Test func spaceStopsAndPlaysAndQQuitsAndTheTerminalIsAsBefore() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]])
        let playing = try pane.waitForStatus { $0.hasPrefix("Playing ") }
        #expect(playing.contains("tplayer demo band – Night Drive"))
        #expect(playing.contains("/ 0:10"))
        try pane.send("Space")
        // Stopped: the position holds still.
        let held = try pane.waitForStatus { $0.hasPrefix("Paused ") }
        usleep(1_200_000)
        #expect(try pane.waitForStatus { $0.hasPrefix("Paused ") } == held)
        try pane.send("Space")
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
        #expect(!(try pane.screen()).contains("Playing "), "the status line is cleared on exit")
    }

    @Test func sigtermMidSongRestoresTheTerminal() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]])
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        kill(try pane.playerPID(), SIGTERM)
        #expect(try pane.waitForExit() == 128 + SIGTERM)
        #expect(try pane.sttyUnchanged())
    }

    /// A 60 s song (for seeks a person can see) and a second one after it.
    static func minute() throws -> (URL, String) {
        let folder = try Harness.temporaryFolder()
        return (folder, try Harness.makeSong(seconds: 60, in: folder, name: "minute.mp3"))
    }

    @Test func arrowsDigitsAndGMoveInTheSongAndSeeksAddUp() throws {
        let (_, minute) = try Self.minute()
        let pane = try Pane(arguments: ["-o", "null", minute, Harness.songs[0]])
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("Space")
        let start = try #require(Pane.elapsed(try pane.waitForStatus { $0.hasPrefix("Paused ") }))
        try pane.send("Right")
        try pane.send("Right")
        try pane.send("Right")
        try pane.waitForStatus { $0.hasPrefix("Paused ") && abs((Pane.elapsed($0) ?? 0) - (start + 15)) <= 1 }
        try pane.send("Left")
        try pane.waitForStatus { abs((Pane.elapsed($0) ?? 0) - (start + 10)) <= 1 }
        try pane.send("5")
        try pane.waitForStatus { $0.contains(" 0:30 / 1:00") }
        try pane.send("Down")
        try pane.send("Down")
        try pane.waitForStatus { $0.contains(" 0:00 / 1:00") }  // before the start: 0:00
        try pane.send("Up")
        try pane.waitForStatus { $0.contains(" 1:00 / 1:00") }
        try pane.send("g")
        try pane.waitForStatus { $0.hasPrefix("Paused ") && $0.contains(" 0:00 / 1:00") }
        // Playing, a minute on from 0:0x is past the end: the next song.
        try pane.send("Space")
        try pane.send("Up")
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains(" 2/2 ") && $0.contains("Morning Arpeggio") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func volumeAndMuteShowInTheStatusLine() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]])
        try pane.waitForStatus { $0.contains("vol 100%") }
        try pane.send("-")
        try pane.send("-")
        try pane.waitForStatus { $0.contains("vol 90%") }
        try pane.send("+")
        try pane.send("=")
        try pane.send("+")
        try pane.waitForStatus { $0.contains("vol 100%") }
        try pane.send("m")
        try pane.waitForStatus { $0.contains("muted") && !$0.contains("vol") }
        try pane.send("m")
        try pane.waitForStatus { $0.contains("vol 100%") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    @Test func helpListsExactlyTheKeyMapAndInfoTheSongsDetailsUntilTheNextKey() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]], height: 40)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("h")
        try pane.waitForLine { $0 == "Keys (the list view's and the library view's own: h there):" }
        let help = try pane.lines().drop { $0 != "Keys (the list view's and the library view's own: h there):" }.dropFirst().prefix { !Pane.isStatus($0) }
        #expect(help.map { $0.trimmingCharacters(in: .whitespaces) } == Self.keyMapLines)
        try pane.send("i")
        try pane.waitForLine { $0 == "Title    Morning Arpeggio" }
        #expect(try pane.lines().contains("Stream   MPEG 1 layer III, 128 kbit/s CBR, 44100 Hz, joint stereo"))
        #expect(try pane.lines().contains("Length   0:09.00 (396,900 samples)"))
        #expect(!(try pane.lines()).contains("Keys (the list view's and the library view's own: h there):"), "the help went when the next key came")
        try pane.send("s")
        try pane.waitForStatus { $0.hasPrefix("Paused ") }
        #expect(!(try pane.screen()).contains("Title    Morning Arpeggio"), "and so did the details")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    /// The key map's help lines outside the list view (whose own keys `h` shows in it), trimmed.
    static let keyMapLines = [
        "space     play / pause", "p         play", "s         pause (the place is kept)",
        "→         5 s forward (past the end: the next song)", "←         5 s back", "↑         a minute forward",
        "↓         a minute back", "g         back to the start of the song", "0 … 9     jump to 0 %, 10 %, … 90 % of the song",
        "n N       next in the list; the next album's first song", "b B       previous in the list; the first song of the album before", "+ =       volume up 5 %", "-         volume down 5 %",
        "m         mute on / off", "r R       repeat the list, the song playing (each on / off)", "z         shuffle: by song, by album, off (in turn; the status line says which)",
        "C         stop when the song playing ends (once)",
        "A         album mode on / off: stop at the end of each album",
        "E         equalizer on / off (the settings' equalizer = or equalizer-preset =)",
        "X         crossfade on / off (--crossfade, the settings' crossfade =; 5 s when none is set)",
        "T         sleep timer: 15, 30, 45, 60, 90 min, the album's end, off (the last 30 s fade out)",
        "[ ] Backspace slower, faster at the same pitch (÷ or × 1.1, from 0.25 to 4), its own speed",
        "i         the song's details (tags, stream, length, path)",
        "l         load a song, folder or playlist (Tab completes, Esc cancels)",
        ":         a command, as a script says it: volume 50, seek 1:30, add PATH, scan [FOLDER]",
        "Tab v     the list view, full screen (Tab, v or Esc goes back)",
        "L         the library: artists, albums, songs; / filters (tplayer --scan fills it)",
        "o         now playing, full screen: the cover, the lyrics as they are sung, the next songs",
        "h ?       show these keys", "q         quit",
    ]

    @Test func aKeyThatMeansNothingSaysWhereTheKeysAreForAMoment() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]])
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("x")
        try pane.waitForLine { $0 == "press h for keys" }
        try pane.waitForStatus(4) { $0.hasPrefix("Playing ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    @Test func theLoadPromptCompletesEditsAndABadPathKeepsTheSongPlaying() throws {
        let folder = try Harness.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("album"), withIntermediateDirectories: true)
        for name in ["beta one.mp3", "betamax.mp3"] {
            try FileManager.default.copyItem(atPath: Harness.songs[2], toPath: folder.appendingPathComponent(name).path)
        }
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]], width: 120)
        try pane.waitForStatus { $0.contains("Morning Arpeggio") }
        try pane.send("l")
        try pane.type("nothing")
        try pane.waitForLine { $0 == "Load: nothing_" }
        try pane.send("Escape")
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("Morning Arpeggio") }
        // A wrong path: one line, and the song goes on.
        try pane.send("l")
        try pane.type(folder.path + "/nope.mp3")
        try pane.send("Enter")
        try pane.waitForLine { $0 == "tplayer: \(folder.path)/nope.mp3: no such file" }
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("Morning Arpeggio") && $0.contains(" 1/1 ") }
        // Tab: as far as the names agree, the choices listed; a folder gets its slash.
        try pane.send("l")
        try pane.type(folder.path + "/b")
        try pane.send("Tab")
        try pane.waitForLine { $0 == "Load: \(folder.path)/beta_" }
        try pane.waitForLine { $0 == "beta one.mp3  betamax.mp3" }
        try pane.send("BSpace")
        try pane.send("BSpace")
        try pane.send("BSpace")
        try pane.send("BSpace")
        try pane.type("al")
        try pane.send("Tab")
        try pane.waitForLine { $0 == "Load: \(folder.path)/album/_" }
        // Editing: ↑ brings back the last entry; Home and quotes around it; Enter plays it.
        try pane.send("C-u")  // not a key tplayer knows: ignored at the prompt
        try pane.send("Escape")
        try pane.send("l")
        try pane.type("'" + folder.path + "/beta one.mp3'")
        try pane.send("Enter")
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("Tiny Waltz") && $0.contains(" 2/2 ") }
        try pane.send("l")
        try pane.send("Up")
        try pane.waitForLine { $0 == "Load: '\(folder.path)/beta one.mp3'_" }
        try pane.send("Escape")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    /// Two loads of files that are not MP3, typed one after the other: each is said, the song
    /// plays on untouched, and the list stays as it was (they were added to it, 1/1 → 1/3, and
    /// the song was stopped and reopened for each).
    @Test func refusedLoadsLeaveTheSongAndTheListAlone() throws {
        let folder = try Harness.temporaryFolder()
        let flac = folder.appendingPathComponent("song.flac").path
        let ogg = folder.appendingPathComponent("song.ogg").path
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 100)).write(to: URL(fileURLWithPath: flac))
        try Data("just some words, no audio\n".utf8).write(to: URL(fileURLWithPath: ogg))
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]], width: 200)
        // Keys typed before the terminal is the player's are the shell's (flushed as it takes it).
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        for path in [flac, ogg] {
            try pane.send("l")
            try pane.waitForLine { $0 == "Load: _" }
            try pane.type(path)
            try pane.waitForLine { $0 == "Load: \(path)_" }
            try pane.send("Enter")
        }
        try pane.waitForLine { $0 == "tplayer: \(flac): not an audio format tplayer plays (it looks like a PNG image)" }
        try pane.waitForLine { $0 == "tplayer: \(ogg): not an audio format tplayer plays (no MPEG audio or other format found in it)" }
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("Morning Arpeggio") && $0.contains(" 1/1 ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    @Test func theListStaysOpenAtItsEndAndQQuits() throws {
        let folder = try Harness.temporaryFolder()
        let short = try Harness.makeSong(seconds: 1, in: folder)
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0], short])
        try pane.waitForStatus { $0.contains(" 1/2 ") }
        try pane.send("n")
        try pane.waitForStatus { $0.contains(" 2/2 ") && $0.contains("short.mp3") }
        // The last song waits, rewound: on a busy machine the first status drawn at the end may
        // come before the engine has taken the song back (it says where the song ended), and the
        // next, as soon as it has, says its start.
        try pane.waitForStatus { $0.hasPrefix("End of list") && $0.contains(" 0:00 / 0:01") }
        // `n` at the end stays there; space plays the last song again from 0:00.
        try pane.send("n")
        try pane.waitForStatus { $0.hasPrefix("End of list") && $0.contains(" 2/2 ") }
        try pane.send("Space")
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains(" 2/2 ") }
        try pane.waitForStatus { $0.hasPrefix("End of list") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func repeatAndShuffleKeysShowInTheStatusLine() throws {
        let pane = try Pane(arguments: ["-o", "null"] + Harness.songs, width: 120)
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains(" 1/3 ") }
        try pane.send("r")
        try pane.waitForStatus { $0.contains(" 1/3  vol 100% [repeat]  ") }
        try pane.send("z")
        // Shuffle keeps the song playing; it stays 1 of the (new) order.
        try pane.waitForStatus { $0.contains(" 1/3  vol 100% [repeat shuffle]  tplayer demo band – Morning") }
        try pane.send("r")
        try pane.send("z")
        // Then by album: the demo album in its order, the song playing where it was.
        try pane.waitForStatus { $0.contains(" 1/3  vol 100% [shuffle albums]  tplayer demo band – Morning") }
        try pane.send("z")
        try pane.waitForStatus { $0.contains(" 1/3  vol 100%  tplayer demo band – Morning") }
        try pane.send("n")
        try pane.send("n")
        try pane.waitForStatus { $0.contains(" 3/3 ") && $0.contains("Tiny Waltz") }
        try pane.send("b")
        try pane.waitForStatus { $0.contains(" 2/3 ") && $0.contains("Night Drive") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func aKeyTakesOverFromAScript() throws {
        let folder = try Harness.temporaryFolder()
        let script = folder.appendingPathComponent("long.tps")
        try Data("add \(Harness.songs[0])\nadd \(Harness.songs[1])\nplay\nwait 1m\nquit\n".utf8).write(to: script)
        let pane = try Pane(arguments: ["-o", "null", "--script", script.path])
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("Morning Arpeggio") }
        try pane.send("n")
        try pane.waitForLine { $0.contains("the script stops before line 5; the keys have control") }
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("Night Drive") }
        try pane.send("Space")
        try pane.waitForStatus { $0.hasPrefix("Paused ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func tagsThatTryToTakeOverTheTerminalAreShownInstead() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        let song = folder.appendingPathComponent("evil.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "3", "sine", "440"])
        // The title retitles the window (OSC 2) and clears the screen (ED 2) if sent raw.
        try Harness.run("/usr/bin/lame", ["--quiet", "--add-id3v2", "--tt", "\u{1B}]2;pwned\u{07}\u{1B}[2Jevil",
                                          "--ta", "band\u{9B}7m", wav, song])
        let pane = try Pane(arguments: ["-o", "null", song], width: 140)
        let line = try pane.waitForStatus { $0.hasPrefix("Playing ") }
        #expect(line.contains("band\\u{9b}7m – \\e]2;pwned\\x07\\e[2J"))
        let title = try pane.tmux("display-message", "-p", "#{pane_title}")
        #expect(!title.contains("pwned"), "the window title is untouched")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    /// A song titled with 200 wide characters (or emoji), for the status line at every width.
    static func wideSong(_ piece: String) throws -> String {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        let song = folder.appendingPathComponent("wide.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "30", "sine", "440"])
        let title = String(String(repeating: piece, count: 200).prefix(200))
        try Harness.run("/usr/bin/lame", ["--quiet", "--add-id3v2", "--tt", title, wav, song])
        return song
    }

    @Test(arguments: ["日本語のタイトル", "🎵🎸🥁🎹"])
    func wideTitlesStayOnOneLineAtEveryWidthAndLeaveNothingBehind(piece: String) throws {
        let song = try Self.wideSong(piece)
        let first = String(piece.prefix(1))
        let pane = try Pane(arguments: ["-o", "null", song], width: 200, height: 10)
        for width in [200, 80, 40, 80] {
            try pane.resize(width: width)
            let line = try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.hasSuffix("…") && $0.contains(first) }
            #expect(Self.columns(line) <= width - 1, "\(Self.columns(line)) columns at \(width)")
            let lines = try pane.lines()
            #expect(lines.filter { $0.contains(first) }.count == 1, "one line only, no wrapped or stale ones: \(lines)")
        }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(!(try pane.screen()).contains(first), "nothing left behind on exit")
        #expect(try pane.sttyUnchanged())
    }

    /// Columns as the terminal counts them: these titles' characters are all two wide.
    static func columns(_ line: String) -> Int {
        line.reduce(0) { $0 + ($1.unicodeScalars.first.map { $0.value >= 0x1100 && $0.value != 0x2013 && $0.value != 0x2026 } == true ? 2 : 1) }
    }

    @Test func keysWorkWithStderrSentAwayAndTheStatusLineStillShows() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]], stderr: "/dev/null")
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("Space")
        try pane.waitForStatus { $0.hasPrefix("Paused ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func ctrlZSuspendsAndFgTakesUpWhereItWas() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]], shell: true)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("Space")
        let held = try pane.waitForStatus { $0.hasPrefix("Paused ") }
        try pane.send("C-z")
        try pane.waitForLine { $0.contains("Stopped") && $0.contains("tplayer") && !Pane.isStatus($0) }
        try pane.type("fg\n")
        try pane.waitForStatus { $0 == held }
        try pane.send("Space")
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }
}
