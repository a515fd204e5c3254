/// What an internet stream has said as it plays: its station, its title, whether it is
/// reconnecting. Untrusted text, every string of it: it leaves only through `UntrustedText`.
public struct StreamState: Equatable, Sendable {
    public var station: IcyMetadata.Station?
    public var title: String?
    /// The connection dropped: which try to make it again this is, of how many.
    public var reconnecting: Reconnection?

    public struct Reconnection: Equatable, Sendable {
        public var attempt: Int
        public var of: Int
    }

    public init() {}

    /// What `news` says, kept.
    public mutating func hear(_ news: StreamNews) {
        switch news {
        case .station(let station): self.station = station
        case .title(let title): self.title = title
        case .reconnecting(let attempt, let of, _): reconnecting = Reconnection(attempt: attempt, of: of)
        case .resumed: reconnecting = nil
        }
    }

    /// The station and the title as one name: "Station — Title", either alone.
    public var name: String? {
        let parts = [station?.name, title].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " — ")
    }
}

extension PlayerModel {
    /// A live stream just paused: what that does, said once per pause (the broadcast goes on
    /// without it: it resumes from where it paused while the buffer lasts).
    mutating func sayPausedStream() {
        guard context.state.id == .stop, let song = context.state.song, !song.isSeekable, song.totalFrames == nil else { return }
        let mebibytes = StreamURL.bufferBytes >> 20
        var lasts = "its \(mebibytes) MiB buffer lasts"
        if let kbps = song.stream?.bitrate, kbps > 0 {
            let minutes = Double(StreamURL.bufferBytes) * 8 / (Double(kbps) * 1000) / 60
            lasts += " (about \(minutes < 1.5 ? "a minute" : "\(Int(minutes.rounded())) minutes") at \(kbps) kbit/s)"
        }
        emit(.report("\(song.path): paused: a live stream resumes from here while \(lasts), then from the broadcast as it is then"))
    }

    /// What the stream playing (or being opened) has said; `nil` for a file.
    public var stream: StreamState? {
        guard let said = streams.said else { return nil }
        let current = context.state.song?.path ?? index.map { entries[$0].path }
        return said.path == current ? said.state : nil
    }

    /// A stream's news: kept for the song it is of (the one playing, or opening: its station
    /// comes before it has opened).
    mutating func heard(_ news: StreamNews, from path: Path) {
        var state = streams.said?.path == path ? streams.said!.state : StreamState()
        state.hear(news)
        streams.said = (path, state)
    }
}

extension PlayerModel {
    /// Why the playlist served over http that entry `entry` turned out to be is not played in
    /// its place (no stream in it, or it names a playlist that named it); `nil` when it is.
    func refusal(of served: ServedPlaylist, at entry: Int) -> LoadFailure? {
        let url = entries[entry].path
        // Named as asked for, and as it answered (redirects followed): a cycle shows in either.
        let names: Set<Path> = [url, Path(served.url)]
        let parent = entries[entry].origin.map { Path($0.file) }
        var chain = [url]
        var above = parent
        while let playlist = above, chain.count <= ServedPlaylist.maxDepth {
            chain.append(playlist)
            if names.contains(playlist) { return .network(ServedPlaylist.cycle(chain.reversed().map { "\($0)" })) }
            above = streams.servedFrom[playlist]
        }
        guard chain.count <= ServedPlaylist.maxDepth else { return .network(ServedPlaylist.tooDeep) }
        guard !served.entries.isEmpty else { return .network("a playlist with no stream in it") }
        guard streams.servedFrom.count < 10_000 else { return .network("more than 10,000 playlists opened over http; not followed") }
        return nil
    }

    /// Entry `entry`, being opened, was a playlist served over http that is played (`refusal`
    /// says none): its entries take its place and the first is opened, moving as it would have.
    mutating func adopt(_ served: ServedPlaylist, at entry: Int, moving move: Move) {
        let url = entries[entry].path
        let parent = entries[entry].origin.map { Path($0.file) }
        for name in [url, Path(served.url)] { streams.servedFrom[name] = parent }
        streams.adopted = url
        let map = replace(entry, with: EntryList(served.entries))
        var move = move
        if case .instead(let resume) = move {
            move = .instead(of: Resume(entry: map(resume.entry), at: resume.at, playing: resume.playing))
        }
        // Its first stream, where it stands (the queue's next may be another: one queued).
        queue.select(entry)
        open(entry, moving: move)
    }
}
