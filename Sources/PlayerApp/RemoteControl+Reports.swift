import Files
import PlayerCore

/// What `-R` says of the engine's reports: mpg123's lines for a song opened, ended or failed,
/// a seek's landing and a stream's title.
extension RemoteControl {
    /// An engine report, after the session has handled it.
    public func observe(_ event: EngineEvent) {
        switch event {
        case .opened(let song, let token) where status.token == token:
            loading = nil
            closed = false
            announced = (token, false)
            RemoteReplies.info(status.song ?? song).forEach(reply)  // as the session names it (a CUE track)
            status.stream?.station.map { RemoteReplies.station($0).forEach(reply) }  // after the track's lines, as mpg123
            reply("P \(mode.rawValue)")
            status.stream?.title.map { reply(RemoteReplies.icyMeta(title: $0)) }
            sendHeaderIfPlaying()
            finishLoadWait()
        case .openFailed(let error, let token):
            refusedOpen(error.path, token: token)
        case .servedPlaylist(_, let path, let token) where session.adoptedPlaylist != path:
            // A playlist served over http opens its first stream in its place; one refused
            // (no stream in it, a cycle) is a song that could not be opened.
            refusedOpen(path, token: token)
        case .ended(let token) where token == announced?.token:
            closeTrack()
            reply("P 3")
            reply("P 0")
        case .decodeFailed(let token, let message) where token == announced?.token:
            closeTrack()
            reply("E \(RemoteReplies.line(message))")
            reply("P 0")
        case .damaged(let token, _, let reason) where token == announced?.token:
            closeTrack()
            reply("E Corrupted file: \(RemoteReplies.line(reason))")
            reply("P 0")
        case .seeked(_, let frame, _):
            guard case .seek(let jump, _) = awaiting else { return }
            awaiting = nil
            sendSeekReply(jump: jump, landed: frame)
            runLines()
        case .outputFailed(let message):
            reply("E \(RemoteReplies.line(message))")
        case .stream(let path, .title(let title)) where announced != nil && path == status.song?.path:
            reply(RemoteReplies.icyMeta(title: title))
        case .opened, .ended, .decodeFailed, .damaged, .deviceLost, .deviceRestored, .outputFallback, .outputNotice, .budgetSpent,
             .damageSkipped, .playback, .deviceBuffer, .stream, .servedPlaylist:
            break  // another song's, or nothing mpg123 says
        }
    }

    /// What was loaded with `token` (`path`) could not be opened. A song loaded before the last
    /// load is not said (a stream stopped for the next).
    private func refusedOpen(_ path: Path, token: Int) {
        guard let loading, token >= loading else { return }
        self.loading = nil
        reply("E Error opening stream: \(RemoteReplies.line("\(path)"))")
        closeTrack()
        reply("P 0")
        finishLoadWait()
    }
}
