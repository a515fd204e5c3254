/// What the listener hears of the song, not which song plays: the volume and mute, the pitch,
/// the speed, ReplayGain and the two equalisers (libmpg123's, from `-R`; the graphic one, for every format).
extension Session {
    /// The commands that change the sound (`perform` hands them here).
    func performSound(_ command: Command) {
        switch command {
        case .volume(let percent):
            volume = min(max(percent, 0), 100)
            applyVolume()
        case .changeVolume(let step):
            volume = min(max(volume + step, 0), 100)
            muted = false
            applyVolume()
        case .toggleMute:
            muted.toggle()
            applyVolume()
        case .setMute(let on):
            muted = on
            applyVolume()
        case .pitch(let value):
            engine.perform(.setPitch(value))
        case .speed(let value):
            setSpeed(value)
        case .changeSpeed(let factor):
            setSpeed(speed * factor)
        case .mpegEqualizer(let bands):
            engine.perform(.setEqualizer(bands))
        case .toggleEqualizer:
            performSound(.setEqualizerOn(!equalizerOn))
        case .setEqualizerOn(let on):
            guard equalizerBands != nil || !on else {
                return report("no equalizer set: :equalizer PRESET sets one now (" + EqualizerPresets.names.joined(separator: " ") + ")")
            }
            equalizerOn = on
            engine.perform(.setGraphicEqualizer(equalizerOn ? equalizerBands : nil))
        case .setGraphicEqualizer(let bands, let on):
            equalizerBands = bands
            equalizerOn = on
            engine.perform(.setGraphicEqualizer(on ? bands : nil))
        default:
            break
        }
    }

    /// The speed as it is played (`SpeedValue.played`), unless the engine cannot play it.
    private func setSpeed(_ value: Double) {
        guard value.isFinite else { return }
        let wanted = SpeedValue.played(value)
        if wanted != 1, let refusal = engine.speedRefusal { return report(refusal) }
        speed = wanted
        engine.perform(.setSpeed(speed))
    }

    func applyVolume() {
        engine.perform(.setVolume(muted ? 0 : Double(volume) / 100))
    }

    func applyReplayGain() {
        engine.perform(.setReplayGain(replayGain.choice(shuffled: queue.shuffles)))
    }
}
