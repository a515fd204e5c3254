import PlayerCore

/// A `PlaybackEngine` that records what it is asked and opens only the paths it is told are good.
final class FakeEngine: PlaybackEngine {
    var calls: [String] = []
    var position: Int64 = 0
    /// Paths that open; anything else fails with "no such file".
    var goodPaths: Set<Path>
    /// Script pacing as asked: `nil` unlimited, else the audio time left to play.
    var budget: AudioTime?
    var grantID = 0

    init(goodPaths: Set<Path> = ["a.mp3", "b.mp3", "c.mp3"]) {
        self.goodPaths = goodPaths
    }

    func open(_ path: Path, token: Int) throws(LoadError) -> SongInfo {
        calls.append("open \(path)")
        guard goodPaths.contains(path) else { throw LoadError(path: path, reason: .missing) }
        position = 0
        current = SongInfo(path: path, sampleRate: 44100, channels: 2, totalFrames: 441000, title: "\(path)")
        return current!
    }

    func play() { calls.append("play") }
    func stop() { calls.append("stop") }
    /// The song open, for relative and percentage seeks.
    var current: SongInfo?

    func seek(_ target: SeekTarget) {
        let frame = current.map { target.frame(in: $0, from: position) } ?? 0
        calls.append("seek \(frame)")
        position = frame
    }
    func setVolume(_ fraction: Double) { calls.append("volume \(fraction)") }
    func limitPlayback(_ limited: Bool) {
        calls.append("limit \(limited)")
        budget = limited ? .zero : nil
    }
    func grant(_ time: AudioTime, id: Int) {
        calls.append("grant \(time.frames(rate: 44100))")
        budget = time
        grantID = id
    }
    func revokeGrant() -> AudioTime {
        defer { budget = budget == nil ? nil : .zero }
        return budget ?? .zero
    }
}
