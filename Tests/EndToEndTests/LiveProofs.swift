import Foundation
import Glibc
import Testing

/// What a live suite proves on its sound server, each the same on every server it is run on
/// (`BareSinkLiveTests`, `PipeWireLiveTests`): `record` starts the server and its recording.
enum LiveProofs {
    /// The songs played (`-q`, no terminal, or in a tmux pane) are heard whole: the recording
    /// is `-w`'s frames from the first on, nothing missing or added. `frameBytes`: 4 for 16-bit
    /// stereo, 6 for 24-bit.
    static func whole(_ songs: [String], frameBytes: Int = 4, options: [String] = [], playing: [String] = [], inTerminal: Bool = false,
                      record: () throws -> MonitorRecording) throws {
        let folder = try Harness.temporaryFolder()
        let reference = folder.appendingPathComponent("reference.raw")
        let written = try Harness.tplayer(["-q", "-w", reference.path] + options + songs)
        try #require(written.status == 0, "\(written.stderr)")
        let recording = try record()
        if inTerminal {
            let pane = try Pane(arguments: ["-o", "pulse"] + options + playing + songs, environment: recording.server.environment, width: 150)
            // In a terminal the list stays open at its end: the last song's end is its status.
            try pane.waitForStatus(60) { $0.hasPrefix("End of list") || $0.hasPrefix("Stopped") }
            try pane.send("q")
            #expect(try pane.waitForExit() == 0)
        } else {
            let played = try Harness.tplayer(["-q", "-o", "pulse"] + options + playing + songs, environment: recording.server.environment)
            #expect(played.status == 0, "\(played.stderr)")
        }
        let expected = try Data(contentsOf: reference)
        let recorded = recording.stopRaw()
        let heard = frameBytes == 4 ? try Heard.compare(Heard.frames(recorded), with: Heard.frames(expected))
                                    : try Heard.compare(Heard.frames(recorded, bytes: frameBytes), with: Heard.frames(expected, bytes: frameBytes))
        #expect(heard.start == 0, "nothing missing at the start: the recording starts \(heard.start) frames in")
        #expect(heard.gaps.isEmpty, "no silence anywhere: \(heard.gaps); the server said: \(recording.server.dropouts)")
        #expect(heard.difference == nil, "the recording is the file, frame for frame: the first difference at frame \(heard.difference ?? 0)")
    }

    /// Paused (`--no-fade`) 1.2 s into the song as heard, and resumed 0.8 s later: the recording
    /// with the pause's silence cut out is the file, not a frame lost or repeated.
    static func pauseLosesNothing(record: () throws -> MonitorRecording) throws {
        let folder = try Harness.temporaryFolder()
        let song = Harness.songs[1]
        let reference = folder.appendingPathComponent("reference.raw")
        try Harness.tplayer(["-q", "-w", reference.path, song])
        let ours = Heard.frames(try Data(contentsOf: reference))
        let recording = try record()
        let player = try RemotePlayer(["-o", "pulse", "--no-fade"], environment: recording.server.environment)
        player.send("LOAD \(song)")
        try player.waitFor("@P 2")
        // A bare sink may have rendered up to 2 s of silence ahead before the stream came (its
        // recorder asks for that much): the song is heard only after it.
        try player.waitUntilHeard(seconds: 1.2)
        player.send("PAUSE")
        try player.waitFor("@P 1")
        // The pause heard before it is timed: a loaded machine's player may reach its sound
        // server late, and a pause and a resume that arrive together are no silence (CI once
        // heard none).
        try player.waitUntilStill()
        usleep(800_000)
        player.send("PAUSE")
        try player.waitFor("@P 2")
        try player.waitFor("@P 0")
        #expect(player.quit() == 0)
        let heard = try Heard.compare(recording.stop(), with: ours)
        #expect(heard.start == 0, "nothing missing at the start: \(heard.start) frames")
        #expect(heard.difference == nil, "the first difference is at frame \(heard.difference ?? 0) of \(ours.count)")
        #expect(heard.gaps.count == 1, "one silence, the pause: \(heard.gaps)")
        #expect(heard.gaps.first.map { $0.frames >= 44100 / 2 } == true, "the pause is heard as one: \(heard.gaps)")
    }

    /// A seek forward and back, a pause, the next song and quitting, each with its 10 ms fades,
    /// on a steady tone, the first keys before the sound is heard: the recording never jumps (a
    /// fade the sink rendered again was lost on the monitor, and the sound was cut: a click).
    static func keysWithoutAClick(record: () throws -> MonitorRecording) throws {
        let folder = try Harness.temporaryFolder()
        let tone = folder.appendingPathComponent("tone.flac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-b", "16", "-c", "2", tone, "synth", "8", "sine", "440", "gain", "-6"])
        let recording = try record()
        let player = try RemotePlayer(["-o", "pulse"], environment: recording.server.environment)
        player.send("LOAD \(tone)")
        try player.waitFor("@P 2")
        for command in ["JUMP +2s", "JUMP -1s", "PAUSE", "PAUSE", "LOAD \(tone)"] {
            usleep(600_000)
            player.send(command)
        }
        usleep(600_000)
        #expect(player.quit() == 0)
        let left = recording.stopLeft()
        let loudest = left.map(abs).max() ?? 0
        try #require(loudest > 8000, "the tone was heard")
        let steps = zip(left, left.dropFirst()).enumerated().filter { abs($0.element.1 - $0.element.0) > loudest / 10 }
        #expect(steps.isEmpty, "no step over a tenth of the tone's height (a sine's is 6 %): \(steps.prefix(5).map { ($0.offset, $0.element) })")
    }
}
