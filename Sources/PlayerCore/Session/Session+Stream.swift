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

    /// The station and the title as one name: "Station — Title", either alone.
    public var name: String? {
        let parts = [station?.name, title].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " — ")
    }
}

extension Session {
    /// What the stream playing (or being opened) has said; `nil` for a file.
    public var stream: StreamState? {
        guard let said = streamSaid else { return nil }
        let current = context.state.song?.path ?? index.map { entries[$0].path }
        return said.path == current ? said.state : nil
    }

    /// A stream's news: kept for the song it is of (the one playing, or opening: its station
    /// comes before it has opened).
    func heard(_ news: StreamNews, from path: Path) {
        var state = streamSaid?.path == path ? streamSaid!.state : StreamState()
        switch news {
        case .station(let station): state.station = station
        case .title(let title): state.title = title
        case .reconnecting(let attempt, let of, _): state.reconnecting = StreamState.Reconnection(attempt: attempt, of: of)
        case .resumed: state.reconnecting = nil
        }
        streamSaid = (path, state)
    }
}
