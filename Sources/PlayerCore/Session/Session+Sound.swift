/// What the listener hears of the song, not which song plays: the volume and mute, the pitch,
/// the speed, ReplayGain and the two equalisers (libmpg123's, from `-R`; the graphic one, for every format).
extension Session {
    /// The commands that change the sound (`perform` hands them here).
    func performSound(_ command: Command) {
        switch command {
        case .volume(let percent):
            sound.volume = min(max(percent, 0), 100)
            applyVolume()
        case .changeVolume(let step):
            sound.volume = min(max(sound.volume + step, 0), 100)
            sound.muted = false
            applyVolume()
        case .toggleMute:
            sound.muted.toggle()
            applyVolume()
        case .setMute(let on):
            sound.muted = on
            applyVolume()
        case .pitch(let value):
            engine.perform(.setPitch(value))
        case .speed(let value):
            setSpeed(value)
        case .changeSpeed(let factor):
            setSpeed(sound.speed * factor)
        case .mpegEqualizer(let bands):
            engine.perform(.setEqualizer(bands))
        case .toggleEqualizer:
            performSound(.setEqualizerOn(!sound.equalizerOn))
        case .setEqualizerOn(let on):
            guard sound.equalizerBands != nil || !on else {
                return seams.report("no equalizer set: :equalizer PRESET sets one now (" + EqualizerPresets.names.joined(separator: " ") + ")")
            }
            sound.equalizerOn = on
            engine.perform(.setGraphicEqualizer(sound.equalizerOn ? sound.equalizerBands : nil))
        case .setGraphicEqualizer(let bands, let on):
            sound.equalizerBands = bands
            sound.equalizerOn = on
            engine.perform(.setGraphicEqualizer(on ? bands : nil))
        case .play, .stop, .rewind, .toggle, .playFromStart, .next, .previous, .load, .quit, .toggleRepeat, .toggleShuffle, .setRepeat,
             .setShuffle, .seek, .promptLoad, .promptCommand, .help, .info, .listView, .libraryView, .nowPlayingView, .playEntry,
             .removeEntry, .add, .saveList, .moveEntry, .queueEntry, .toggleRepeatOne, .setRepeatOne, .toggleStopAfter, .setStopAfter,
             .toggleAlbumMode, .setAlbumMode, .playSongs, .replaceWithSongs, .appendSongs, .queueSongs:
            break  // not the sound's: `perform` hands only the sound's commands here
        }
    }

    /// The speed as it is played (`SpeedValue.played`), unless the engine cannot play it.
    private func setSpeed(_ value: Double) {
        guard value.isFinite else { return }
        let wanted = SpeedValue.played(value)
        if wanted != 1, let refusal = engine.speedRefusal { return seams.report(refusal) }
        sound.speed = wanted
        engine.perform(.setSpeed(sound.speed))
    }

    func applyVolume() {
        engine.perform(.setVolume(sound.muted ? 0 : Double(sound.volume) / 100))
    }

    func applyReplayGain() {
        engine.perform(.setReplayGain(replayGain.choice(shuffled: queue.shuffles)))
    }
}
