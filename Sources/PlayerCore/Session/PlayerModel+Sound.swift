/// What the listener hears of the song, not which song plays: the volume and mute, the pitch,
/// the speed and the two equalisers (libmpg123's, from `-R`; the graphic one, for every format).
/// `Sound` is a value that takes a command and returns what to do: the engine calls that make it
/// heard, or the one line that says why not. It does no I/O; the model passes them on.
extension Sound {
    /// What a sound command asks of the player.
    enum Effect: Equatable {
        case engine(EngineCall)
        /// Said in one line; nothing changed.
        case refused(String)
    }

    /// Applies `command` when it is a sound command (`nil` when it is not the sound's);
    /// `speedRefusal` says why the engine cannot play at another speed, if it cannot (asked only
    /// for another speed: it loads librubberband).
    mutating func handle(_ command: Command, speedRefusal: @autoclosure () -> String?) -> [Effect]? {
        switch command {
        case .volume(let percent):
            volume = min(max(percent, 0), 100)
            return [.engine(.setVolume(engineVolume))]
        case .changeVolume(let step):
            volume = min(max(volume + step, 0), 100)
            muted = false
            return [.engine(.setVolume(engineVolume))]
        case .toggleMute:
            muted.toggle()
            return [.engine(.setVolume(engineVolume))]
        case .setMute(let on):
            muted = on
            return [.engine(.setVolume(engineVolume))]
        case .setOutput(let index, let on):
            guard (0..<Self.outputsAtMost).contains(index) else { return [.refused("no output \(index + 1)")] }
            let enabled = on ?? outputsOff.contains(index)
            if enabled { outputsOff.remove(index) } else { outputsOff.insert(index) }
            return [.engine(.setOutputEnabled(index, enabled))]
        case .pitch(let value):
            return [.engine(.setPitch(value))]
        case .speed(let value):
            return setSpeed(value, refusal: speedRefusal)
        case .changeSpeed(let factor):
            return setSpeed(speed * factor, refusal: speedRefusal)
        case .mpegEqualizer(let bands):
            return [.engine(.setEqualizer(bands))]
        case .toggleEqualizer:
            return handle(.setEqualizerOn(!equalizerOn), speedRefusal: nil)
        case .setEqualizerOn(let on):
            guard equalizerBands != nil || !on else {
                return [.refused("no equalizer set: :equalizer PRESET sets one now (" + EqualizerPresets.names.joined(separator: " ") + ")")]
            }
            equalizerOn = on
            return [.engine(.setGraphicEqualizer(equalizerOn ? equalizerBands : nil))]
        case .setGraphicEqualizer(let bands, let on):
            equalizerBands = bands
            equalizerOn = on
            return [.engine(.setGraphicEqualizer(on ? bands : nil))]
        case .setCrossfade(let seconds):
            crossfade.seconds = CrossfadeSetting.bounded(seconds)
            if crossfade.isOn { crossfadeLastOn = crossfade.seconds }
            return [.engine(.setCrossfade(crossfade))]
        case .toggleCrossfade:
            return handle(.setCrossfade(crossfade.isOn ? 0 : crossfadeLastOn), speedRefusal: nil)
        case .setSkipFade(let seconds):
            crossfade.skipSeconds = CrossfadeSetting.bounded(seconds)
            return [.engine(.setCrossfade(crossfade))]
        case .play, .stop, .rewind, .toggle, .playFromStart, .next, .previous, .load, .quit, .toggleRepeat, .toggleShuffle, .setRepeat,
             .setShuffle, .setShuffleMode, .nextAlbum, .previousAlbum, .playlist, .seek, .promptLoad, .promptCommand, .help, .info, .listView, .libraryView, .nowPlayingView, .playEntry,
             .removeEntry, .clearList, .add, .saveList, .moveEntry, .queueEntry, .toggleRepeatOne, .setRepeatOne, .toggleStopAfter, .setStopAfter,
             .toggleAlbumMode, .setAlbumMode, .playSongs, .replaceWithSongs, .appendSongs, .queueSongs, .setStopAfterEach, .setConsume,
             .shuffleEntries, .setPriority, .setSpan, .tagEntry, .setSleep:
            return nil
        }
    }

    /// The speed as it is played (`SpeedValue.played`), unless the engine cannot play it.
    private mutating func setSpeed(_ value: Double, refusal: () -> String?) -> [Effect] {
        guard value.isFinite else { return [] }
        let wanted = SpeedValue.played(value)
        if wanted != 1, let refusal = refusal() { return [.refused(refusal)] }
        speed = wanted
        return [.engine(.setSpeed(speed))]
    }
}

extension PlayerModel {
    /// The commands that change the sound (`perform` hands them here): the sound's effects made.
    mutating func performSound(_ command: Command) {
        if case .setSleep(let request) = command { return setSleep(request) }
        for effect in sound.handle(command, speedRefusal: turn.engine.speedRefusal()) ?? [] {
            switch effect {
            case .engine(let call): emit(.engine(call))
            case .refused(let line): emit(.report(line))
            }
        }
    }

    mutating func applyVolume() {
        emit(.engine(.setVolume(sound.engineVolume)))
    }

    /// The sleep timer set as asked; its fade, if under way, undone.
    mutating func setSleep(_ request: SleepTimer.Request) {
        modes.sleep.set(request, now: turn.engine.now)
        if sound.sleepGain != 1 {
            sound.sleepGain = 1
            applyVolume()
        }
    }

    /// The sleep timer at this turn: its fade heard (as a volume, the listener's own kept), and at
    /// its moment playback stopped as a pause stops it.
    mutating func checkSleep() {
        let (gain, stops) = modes.sleep.tick(at: turn.engine.now)
        if abs(gain - sound.sleepGain) >= 0.002 || gain == 1 && sound.sleepGain != 1 {
            sound.sleepGain = gain
            applyVolume()
        }
        guard stops, context.state.isPlaying else { return }
        apply(.stop)
        emit(.report("the sleep timer stopped playback (play goes on from here)"))
    }

    mutating func applyReplayGain() {
        emit(.engine(.setReplayGain(sound.replayGain.choice(shuffled: queue.shuffle == .songs))))
    }
}
