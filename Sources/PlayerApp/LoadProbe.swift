import PlayerCore

/// What a load (the `l` prompt, MPRIS `OpenUri`) brings, from its first song that opens: the
/// entries before it that cannot be opened (an image, a missing song in a playlist) are
/// said and dropped before the list or the song playing is touched. A refused load then leaves
/// both as they were: nothing added, no pause, no reopen of the song.
public enum LoadProbe {
    public static func playable(_ entries: EntryList, opens: (SongSource) -> LoadFailure?,
                                isCancelled: () -> Bool = { false }) -> (entries: EntryList, refused: [String]) {
        var refused: [String] = []
        for (index, entry) in entries.enumerated() {
            guard !isCancelled() else { return ([], refused) }
            guard let failure = opens(entry.source) else {
                // The whole list as it came (no copy) when its first opens, as a load mostly does.
                return (index == 0 ? entries : EntryList(entries[index...]), refused)
            }
            refused.append(entry.describe(LoadError(path: entry.path, reason: failure)))
        }
        return ([], refused)
    }
}
