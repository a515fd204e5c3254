import PlayerCore

/// Controlling playback and its options, as MPD's `PlayerCommands.cxx` reads them.
struct MpdPlaybackCommands: MpdCommandGroup {
    let responder: MpdResponder

    func playback(_ name: String, _ arguments: [String]) -> Result<String, MpdAck> {
        let status = session.status
        switch name {
        case "play", "playid":
            let number: Int
            switch arguments.first.map({ MpdArguments.int($0) }) ?? .success(-1) {
            case .success(let value): number = value
            case .failure(let ack): return .failure(ack)
            }
            guard number >= 0 else { return playCurrent(status) }
            if name == "playid" {
                guard let position = session.marks.position(of: UInt32(clamping: number)) else { return .failure(Self.noSuchSong) }
                perform(.playEntry(position))
            } else {
                guard number < status.entryCount else { return .failure(Self.badIndex) }
                perform(.playEntry(number))
            }
        case "pause":
            let pause: Bool
            if let argument = arguments.first {
                switch MpdArguments.bool(argument) {
                case .success(let value): pause = value
                case .failure(let ack): return .failure(ack)
                }
            } else {
                pause = MpdStatusCommands.state(status) == "play"
            }
            switch (MpdStatusCommands.state(status), pause) {
            case ("play", true): perform(.stop)
            case ("pause", false): perform(.play)
            default: break
            }
        case "stop": if status.entry != nil { perform(.rewind) }
        case "next": if MpdStatusCommands.state(status) != "stop" { perform(.next) }
        case "previous": if MpdStatusCommands.state(status) != "stop" { perform(.previous) }
        case "seek", "seekid":
            let number = MpdArguments.unsigned(arguments[0])
            let time = MpdArguments.songTime(arguments[1])
            guard case .success(let place) = number else { return number.map { _ in "" } }
            guard case .success(let seconds) = time else { return time.map { _ in "" } }
            let position = name == "seekid" ? session.marks.position(of: UInt32(clamping: place)) : place < status.entryCount ? place : nil
            guard let position else { return .failure(name == "seekid" ? Self.noSuchSong : Self.badIndex) }
            if position != status.entry || status.song == nil { perform(.playEntry(position)) }
            perform(.seek(.to(Self.time(seconds))))
        default:  // seekcur
            let text = arguments[0]
            let relative = text.hasPrefix("+") || text.hasPrefix("-")
            let parsed = relative ? MpdArguments.float(text) : MpdArguments.songTime(text)
            guard case .success(let seconds) = parsed else { return parsed.map { _ in "" } }
            guard MpdStatusCommands.state(status) != "stop" else { return .failure(MpdAck(.playerSync, "Not playing")) }
            perform(.seek(relative ? .by(Self.time(seconds)) : .to(Self.time(seconds))))
        }
        return .success("")
    }

    /// `play` with no song named: a paused song plays on, a stopped one from its start, with
    /// none the list from its first.
    private func playCurrent(_ status: PlayerStatus) -> Result<String, MpdAck> {
        switch MpdStatusCommands.state(status) {
        case "play": break
        case "pause": perform(.play)
        default:
            guard status.entryCount > 0 else { break }
            perform(.playEntry(status.entry ?? 0))
        }
        return .success("")
    }

    /// Seconds (checked finite by the reader) as a time, within a day's ten thousand.
    static func time(_ seconds: Double) -> AudioTime {
        let bounded = min(max(seconds, -864_000_000), 864_000_000)
        return AudioTime(microseconds: Int64(bounded * 1_000_000)) ?? .zero
    }

    /// MPD's single mode on or off: with repeat on the song plays again, without the list
    /// stops after it, each time.
    private func single(on: Bool, repeats: Bool) {
        perform(.setRepeatOne(on && repeats))
        perform(.setStopAfterEach(on && !repeats))
    }

    func option(_ name: String, _ arguments: [String]) -> Result<String, MpdAck> {
        func flag(_ apply: (Bool) -> Command) -> Result<String, MpdAck> {
            MpdArguments.bool(arguments[0]).map { perform(apply($0)); return "" }
        }
        let status = session.status
        switch name {
        case "repeat":
            // MPD's single mode is tplayer's repeat-one with repeat on, stop-after-each without.
            return MpdArguments.bool(arguments[0]).map { on in
                perform(.setRepeat(on))
                if status.repeatsOne || status.stopsAfterEach { single(on: true, repeats: on) }
                return ""
            }
        case "random": return flag { .setShuffle($0) }
        case "single":
            switch arguments[0] {
            case "0":
                single(on: false, repeats: status.repeats)
                perform(.setStopAfter(false))
            case "1":
                single(on: true, repeats: status.repeats)
                perform(.setStopAfter(false))
            case "oneshot":
                single(on: false, repeats: status.repeats)
                perform(.setStopAfter(true))
            default: return .failure(MpdAck(.argument, "Unrecognized single mode, expected 0, 1, or oneshot"))
            }
        case "consume": return flag { .setConsume($0) }
        case "crossfade":
            return MpdArguments.unsigned(arguments[0]).map { seconds in
                perform(.setCrossfade(Double(seconds)))
                return ""
            }
        case "mixrampdb": return MpdArguments.float(arguments[0]).map { _ in "" }
        case "mixrampdelay": return MpdArguments.float(arguments[0]).map { _ in "" }
        case "setvol":
            return MpdArguments.unsigned(arguments[0], max: 100).map { level in
                if status.muted { perform(.setMute(false)) }
                perform(.volume(level))
                return ""
            }
        case "volume":
            return MpdArguments.int(arguments[0], in: -100, 100).map { step in
                perform(.changeVolume(by: step))
                return ""
            }
        case "getvol": return .success("volume: \(status.muted ? 0 : status.volume)\n")
        case "replay_gain_mode":
            guard let mode = ReplayGainMode(rawValue: arguments[0]) else { return .failure(MpdAck(.argument, "Unrecognized replay gain mode")) }
            session.replayGain = ReplayGainSetting(mode: mode, preamp: session.replayGain.preamp)
        default:  // replay_gain_status
            return .success("replay_gain_mode: \(session.replayGain.mode.rawValue)\n")
        }
        return .success("")
    }
}
