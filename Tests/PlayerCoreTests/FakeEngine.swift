import PlayerCore

/// A `PlaybackEngine` that records what it is asked and opens only the paths it is told are good.
final class FakeEngine: PlaybackEngine {
    var calls: [String] = []
    var position: Int64 = 0
    /// Paths that open; anything else fails with "no such file".
    var goodPaths: Set<String>

    init(goodPaths: Set<String> = ["a.mp3", "b.mp3", "c.mp3"]) {
        self.goodPaths = goodPaths
    }

    func open(_ path: String, token: Int) throws(LoadError) -> SongInfo {
        calls.append("open \(path)")
        guard goodPaths.contains(path) else { throw LoadError(path: path, reason: "no such file") }
        position = 0
        return SongInfo(path: path, sampleRate: 44100, channels: 2, totalFrames: 441000, title: path)
    }

    func play() { calls.append("play") }
    func stop() { calls.append("stop") }
    func seek(toFrame frame: Int64) {
        calls.append("seek \(frame)")
        position = frame
    }
}
