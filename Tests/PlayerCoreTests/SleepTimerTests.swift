import Testing
@testable import PlayerCore

/// The sleep timer: its times as people write them, the key's cycle, its fade as a volume (the
/// listener's own kept) and its stop, as a pause stops, at its moment or at the album's end.
struct SleepTimerTests {
    @Test func timesAreReadAsPeopleWriteThem() {
        #expect(SleepTimer.parse("30m") == .after(seconds: 1800))
        #expect(SleepTimer.parse("1h30m") == .after(seconds: 5400))
        #expect(SleepTimer.parse(" 90s ") == .after(seconds: 90))
        #expect(SleepTimer.parse("45") == .after(seconds: 2700), "minutes alone")
        #expect(SleepTimer.parse("1.5h") == .after(seconds: 5400))
        #expect(SleepTimer.parse("album") == .afterAlbum && SleepTimer.parse("off") == .off && SleepTimer.parse("0") == .off)
        for bad in ["", "soon", "-5m", "30x", "1e400", "25h", "m", "30m5", "nan", "1..5m"] {
            #expect(SleepTimer.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func theKeyCyclesThroughTheUsualTimesTheAlbumAndOff() {
        var timer = SleepTimer()
        let now = ContinuousClock.now
        var seen: [String] = []
        for _ in 0..<7 {
            timer.set(.next, now: now)
            seen.append(timer.describe(at: now) ?? "off")
        }
        #expect(seen == ["sleep 15:00", "sleep 30:00", "sleep 45:00", "sleep 1:00:00", "sleep 1:30:00", "sleep album", "off"])
    }

    private func model(_ paths: [String]) -> PlayerModel {
        PlayerModel(entries: paths.reduce(into: EntryList()) { $0.append(Entry(path: Path($1))) }, policy: PlayerModel.Policy(keepsOpen: true))
    }

    private func song(_ path: String, album: String? = nil) -> SongInfo {
        SongInfo(path: Path(path), sampleRate: 44100, channels: 2, totalFrames: 441_000, title: nil, album: album)
    }

    private func engineCalls(_ effects: [PlayerModel.Effect]) -> [String] {
        effects.compactMap { if case .engine(let call) = $0 { "\(call)" } else { nil } }
    }

    /// Set for 60 s: nothing changes for 30 s, then the volume falls (the gain's square of the
    /// time left over 30 s) and at 60 s playback is paused, the volume back where it was.
    @Test func theLastThirtySecondsFadeOutThenPlaybackPauses() {
        var model = model(["a.mp3"])
        let start = ContinuousClock.now
        func at(_ seconds: Double) -> PlayerModel.EngineReading {
            .init(position: 44100, now: start.advanced(by: .milliseconds(Int64(seconds * 1000))))
        }
        _ = model.handle(.start)
        _ = model.handle(.event(.opened(song("a.mp3"), token: model.state.token ?? -1)))
        _ = model.handle(.command(.volume(80)))
        _ = model.handle(.command(.setSleep(.after(seconds: 60))), engine: at(0))
        #expect(engineCalls(model.handle(.observe, engine: at(29))).isEmpty)
        #expect(engineCalls(model.handle(.observe, engine: at(45))) == ["volume 0.2"], "0.8 × (15/30)²")
        #expect(model.status.volume == 80, "the listener's volume is kept")
        let stopped = model.handle(.observe, engine: at(60.01))
        #expect(engineCalls(stopped) == ["volume 0.8", "stop"])
        #expect(stopped.contains { if case .report(let line) = $0 { line.hasPrefix("the sleep timer stopped playback") } else { false } })
        #expect(model.state.id == .stop && model.modes.sleep.setting == .off)
        #expect(engineCalls(model.handle(.observe, engine: at(90))).isEmpty, "once")
    }

    @Test func aTimerTurnedOffMidFadeGivesTheVolumeBack() {
        var model = model(["a.mp3"])
        let start = ContinuousClock.now
        _ = model.handle(.start)
        _ = model.handle(.event(.opened(song("a.mp3"), token: model.state.token ?? -1)))
        _ = model.handle(.command(.setSleep(.after(seconds: 20))), engine: .init(now: start))
        // 20 s set: the fade (the last 30 s) is under way from the start; 10 s left is (10/30)².
        #expect(engineCalls(model.handle(.observe, engine: .init(now: start.advanced(by: .seconds(10))))) == ["volume \(1.0 / 9)"])
        let off = engineCalls(model.handle(.command(.setSleep(.off)), engine: .init(now: start.advanced(by: .seconds(11)))))
        #expect(off.last { $0.hasPrefix("volume") } == "volume 1.0")
        #expect(engineCalls(model.handle(.observe, engine: .init(now: start.advanced(by: .seconds(30))))).isEmpty)
        #expect(model.state.id == .play)
    }

    /// "Stop after this album": as album mode, once. The list stops where the album ends (the
    /// next song ready), and the timer is off after.
    @Test func atTheAlbumsEndTheListStopsOnce() {
        var model = model(["a1.mp3", "a2.mp3", "b1.mp3", "c1.mp3"])
        _ = model.handle(.command(.setSleep(.afterAlbum)))
        _ = model.handle(.start)
        _ = model.handle(.event(.opened(song("a1.mp3", album: "A"), token: model.state.token ?? -1)))
        _ = model.handle(.album("A", of: SongSource("a2.mp3")))
        _ = model.handle(.event(.ended(token: model.state.token ?? -1)))
        _ = model.handle(.event(.opened(song("a2.mp3", album: "A"), token: model.state.token ?? -1)))
        #expect(model.state.id == .play && model.index == 1, "a2 is the same album's: on")
        _ = model.handle(.album("B", of: SongSource("b1.mp3")))
        _ = model.handle(.event(.ended(token: model.state.token ?? -1)))
        _ = model.handle(.event(.opened(song("b1.mp3", album: "B"), token: model.state.token ?? -1)))
        #expect(model.state.id == .prepare && model.index == 2, "stopped at the album's end, b1 ready")
        #expect(model.modes.sleep.setting == .off)
        _ = model.handle(.command(.play))
        _ = model.handle(.event(.ended(token: model.state.token ?? -1)))
        #expect(model.index == 3, "the next album's end goes on: the timer was once")
    }
}
