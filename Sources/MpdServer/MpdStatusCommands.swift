import Files
import PlayerCore

/// What the player is doing, as MPD's `status`, `currentsong` and `stats` say it: read from the
/// one player status.
struct MpdStatusCommands: MpdCommandGroup {
    let responder: MpdResponder

    func respond(_ name: String, client: MpdClientState) -> String {
        switch name {
        case "currentsong": currentSong(client)
        case "stats": stats()
        default: statusText()  // status
        }
    }

    /// MPD's `state`, with the song's place in the list (none once the list is cleared). A song
    /// opened and waiting at its start (paused as it opened) is paused, as MPD's would be; one
    /// taken back to its start by `stop`, or at the end of the list, is stopped.
    static func state(_ status: PlayerStatus) -> String {
        guard status.entry != nil else { return "stop" }
        switch status.playback {
        case .playing: return "play"
        case .paused: return "pause"
        case .stopped: return status.state == .prepare && !status.atEndOfList && !status.stoppedAtStart ? "pause" : "stop"
        }
    }

    private func statusText() -> String {
        let status = session.status
        let marks = session.marks
        var text = "volume: \(status.muted ? 0 : status.volume)\n"
        text += "repeat: \(status.repeats ? 1 : 0)\nrandom: \(status.shuffles ? 1 : 0)\n"
        let single = status.repeatsOne || status.stopsAfterEach ? "1" : status.stopsAfter ? "oneshot" : "0"
        text += "single: \(single)\nconsume: \(status.consumes ? 1 : 0)\npartition: default\n"
        text += "playlist: \(session.listVersion)\nplaylistlength: \(status.entryCount)\nmixrampdb: 0\n"
        let state = Self.state(status)
        text += "state: \(state)\n"
        if status.crossfade.isOn { text += "xfade: \(Int(status.crossfade.seconds.rounded()))\n" }
        if let entry = status.entry, marks.ids.indices.contains(entry) {
            text += "song: \(entry)\nsongid: \(marks.ids[entry])\n"
        }
        if state != "stop", let song = status.song {
            let elapsed = Double(max(link.position(), 0)) / Double(max(song.sampleRate, 1))
            let total = song.totalFrames.map { Double($0) / Double(max(song.sampleRate, 1)) }
            text += "time: \(Self.whole(elapsed)):\(Self.whole(total ?? 0))\n"
            text += "elapsed: \(Self.decimal(elapsed))\nbitrate: \(Self.bitrate(song))\n"
            if let total { text += "duration: \(Self.decimal(total))\n" }
            text += "audio: \(Self.format(song))\n"
        }
        if let updating = responder.updates.running { text += "updating_db: \(updating)\n" }
        if let failure = status.failure { text += "error: \(UntrustedText.shown(failure))\n" }
        if status.entry != nil, let next = session.nextEntry, marks.ids.indices.contains(next) {
            text += "nextsong: \(next)\nnextsongid: \(marks.ids[next])\n"
        }
        return text
    }

    /// Seconds with three decimals, as MPD writes them (`{:1.3f}`).
    /// Seconds a file or a decoder says, as a number that can be printed: none below 0 or
    /// past 10^12 (30,000 years; a header's frame count over a rate of 1 can say 10^18).
    static func bounded(_ seconds: Double) -> Double { seconds.isFinite ? min(max(seconds, 0), 1e12) : 0 }

    /// Whole seconds, rounded (MPD's `Time:` and `time:`).
    static func whole(_ seconds: Double) -> Int { Int(bounded(seconds).rounded()) }

    static func decimal(_ seconds: Double) -> String {
        var bytes: [UInt8] = []
        decimal(seconds, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same, after `output`'s bytes.
    static func decimal(_ seconds: Double, into output: inout [UInt8]) {
        let millis = Int((bounded(seconds) * 1000).rounded())
        output += String(millis / 1000).utf8
        output += [0x2E, 0x30 + UInt8(millis % 1000 / 100), 0x30 + UInt8(millis % 100 / 10), 0x30 + UInt8(millis % 10)]
    }

    /// The song's bit rate in kbit/s, as MPD gives it (0 when not known).
    static func bitrate(_ song: SongInfo) -> Int {
        if let stream = song.stream { return stream.averageBitrate ?? stream.bitrate }
        return 0
    }

    /// `RATE:BITS:CHANNELS`, bits `f` for a song decoded to floating point (MPD's audio format).
    static func format(_ song: SongInfo) -> String {
        "\(song.sampleRate):\(song.bits.map(String.init) ?? "f"):\(song.channels)"
    }

    private func currentSong(_ client: MpdClientState) -> String {
        let status = session.status
        guard let entry = status.entry, entry < session.entries.count else { return "" }
        return songs([entry], client: client)
    }

    /// MPD's `stats`: how long it has served, then the catalog's artists and albums (each name
    /// once, as MPD counts its tags), songs, their length, and when the library last changed
    /// (its file's time).
    private func stats() -> String {
        var text = "uptime: \(Int(responder.started.duration(to: .now).components.seconds))\nplaytime: \(responder.playedSeconds)\n"
        guard let catalog = catalog() else { return text + "artists: 0\nalbums: 0\nsongs: 0\n" }
        let totals = catalog.totals
        text += "artists: \(totals.artists)\nalbums: \(totals.albums)\nsongs: \(catalog.count)\n"
        text += "db_playtime: \(Int(totals.seconds))\n"
        if let path = link.library()?.path {
            let times = [path, Path(bytes: path.bytes + Array("-wal".utf8))].compactMap { file -> Int64? in
                if case .success(let status) = FileSystem.status(of: file) { return status.modified / 1_000_000_000 }
                return nil
            }
            if let latest = times.max() { text += "db_update: \(latest)\n" }
        }
        return text
    }
}
