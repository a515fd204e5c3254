import PlayerCore

/// What the loop says of the song playing: its events once adopted, a stream's titles as
/// they are heard (`EngineShared.titles`).
extension PlaybackLoop {
    /// Reports `event` of `song`, once the session has adopted it (`Song.token`).
    func report(of song: Song, _ event: (Int) -> EngineEvent) {
        if let token = song.token { report(event(token)) }
    }

    /// A stream's titles whose frames are heard now are said; those of a song no longer
    /// playing are dropped.
    func sayHeardTitles() {
        guard shared.read({ !$0.titles.isEmpty }) else { return }
        let heard = EngineShared.heard(shared)
        let path = song?.source.path
        let due = shared.update { state in
            state.titles.removeAll { $0.path != path }
            let due = state.titles.prefix { $0.frame <= heard }
            defer { state.titles.removeFirst(due.count) }
            return due.map { ($0.path, $0.title) }
        }
        for (path, title) in due { report(.stream(path: path, news: .title(title))) }
    }
}
