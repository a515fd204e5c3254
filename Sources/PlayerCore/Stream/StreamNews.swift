/// What a stream's network side says as it goes, for the status line, `-R`, MPRIS and stderr.
public enum StreamNews: Equatable, Sendable {
    /// The station, as the answer's ICY headers describe it (each connection's, when it changed).
    case station(IcyMetadata.Station)
    /// A new `StreamTitle` (repaired to UTF-8; not yet made safe to show).
    case title(String)
    /// The connection dropped (`reason`): the `attempt`th try of `of` to make it again follows.
    case reconnecting(attempt: Int, of: Int, reason: String)
    /// Connected again: the stream goes on.
    case resumed
}
