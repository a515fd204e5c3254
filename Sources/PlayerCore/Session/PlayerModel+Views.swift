/// What the model tells its front-ends about itself, read from its public state.
extension PlayerModel {
    /// Where the run is now, the engine at `frame` of the song playing, to pick up from next
    /// time (`--resume`).
    public func saved(atFrame frame: Int64) -> SavedSession {
        let status = status(navigation: false)
        let position = status.song.map { AudioTime(frames: frame, rate: $0.sampleRate) } ?? .zero
        // A song still loading when the run ends is the one to pick up, from its start.
        let current = status.song != nil || status.state == .loading ? status.entry : nil
        var saved = SavedSession(status, current: current, entries: entries, order: queue.order.elementsEqual(0..<queue.count) ? nil : queue.order.array,
                                 position: position)
        for (entry, priority) in marks.priorities.enumerated() where priority != 0 { saved.priorities[entry] = priority }
        return saved
    }

    /// What the status line names the current song: its tags, else the playlist's title for
    /// it, else its file name.
    public var songName: String? {
        guard let song = context.state.song else { return nil }
        // A stream: its station and title, as they come.
        if song.title == nil, let name = stream?.name { return name }
        if song.title == nil && song.artist == nil, let index, let title = entries[index].title {
            return title
        }
        return song.displayName
    }

    /// What is loading, before its tags are read: the playlist's title for it, or its file name.
    public var loadingName: String? {
        guard context.state.id == .loading, let index else { return nil }
        return entries[index].title ?? "\(entries[index].path.lastComponent)"
    }

    /// Whether `next` goes to another entry (one that has not failed follows in the queue's
    /// order; with repeat the list starts again) rather than stopping at the end.
    public var hasNext: Bool {
        var ahead = queue
        return !isFinished && nextPlayable(advancing: &ahead) != nil
    }

    /// The entry that plays when the song playing ends by itself (MPD's `nextsong`): itself
    /// with repeat-one; none when the list ends there.
    public var nextEntry: Int? {
        var ahead = queue
        return isFinished ? nil : following(advancing: &ahead)
    }

    /// Whether `previous` goes to another entry rather than back to the song's start.
    public var hasPrevious: Bool {
        var behind = queue
        return !isFinished && queue.current != nil && previousPlayable(retreating: &behind) != nil
    }
}
