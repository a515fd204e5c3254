/// What MPRIS shows of the session, and which of its properties to announce after a turn of the
/// main loop. While a song loads it goes on showing what it showed before: a track change is
/// then announced once, when the new song is open, not first as "no track" and then again.
public struct MprisAnnouncer {
    /// What was shown when no song was loading: the properties and the `Metadata`.
    private var shown: (properties: MprisProperties, metadata: MprisMetadata)?
    /// The folder relative paths are taken from (`xesam:url` is absolute).
    private let folder: Path

    public init(folder: Path) {
        self.folder = folder
    }

    /// Whether `session` is between songs, a song loading.
    private static func isLoading(_ session: Session) -> Bool { session.state.id == .loading }

    /// The player properties to answer a read with.
    public func properties(of session: Session) -> MprisProperties {
        if Self.isLoading(session), let shown { return shown.properties }
        return MprisProperties(session.status)
    }

    /// The `Metadata` to answer a read with.
    public func metadata(of session: Session) -> MprisMetadata {
        if Self.isLoading(session), let shown { return shown.metadata }
        return MprisMetadata(session, folder: folder)
    }

    /// The names of the properties that changed since the last announcement, for one
    /// `PropertiesChanged`; none while a song loads (or the first time, when nothing was shown).
    public mutating func changes(in session: Session) -> [String] {
        if Self.isLoading(session), shown != nil { return [] }
        let now = (properties: MprisProperties(session.status), metadata: MprisMetadata(session, folder: folder))
        defer { shown = now }
        guard let before = shown else { return [] }
        var names = now.properties.changed(since: before.properties)
        if now.metadata != before.metadata, !names.contains("Metadata") { names.append("Metadata") }
        return names
    }
}
