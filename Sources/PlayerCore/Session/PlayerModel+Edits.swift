/// The list's edits: entries played, put in, taken out and moved, with the queue and every
/// entry index the session holds (failures, set-aside entries, the song being opened) following.
extension PlayerModel {
    /// Plays entry `entry` now (chosen in the list view), even one that failed before. If it
    /// cannot be opened, the song that was playing goes on from where it was.
    mutating func play(_ entry: Int) {
        guard entries.indices.contains(entry) else { return }
        outcome.failures[entry] = nil
        outcome.setAside.remove(entry)
        let resume = resumePoint()
        queue.select(entry)
        open(entry, moving: resume.map { .instead(of: $0) } ?? .forward(.rewind))
    }

    /// Puts `added` into the list at entry `at`, to play where they stand (in list order; with
    /// shuffle, at random places still to come).
    mutating func insert(_ added: consuming EntryList, at: Int) {
        guard !added.isEmpty, (0...entries.count).contains(at) else { return }
        defer { cueNext() }
        _ = place(added, at: at, playNext: false)
        keepPrioritiesFirst()
    }

    /// Puts `added` into the list and the queue at entry `at`, the indices held outside the
    /// list following; returns how an index from before maps to one after. The longer of the
    /// two lists is the one changed in place (`added` is handed over): a list of 1,000,000
    /// loaded into a list of ten is never copied, nor ten into a million.
    private mutating func place(_ added: consuming EntryList, at: Int, playNext: Bool) -> (Int) -> Int {
        let count = added.count
        if count > entries.count {
            var merged = added
            merged.insert(contentsOf: entries[..<at], at: 0)
            merged.append(contentsOf: entries[at...])
            entries = merged
        } else {
            entries.insert(contentsOf: added, at: at)
        }
        marks.insert(count, at: at, version: listVersion)
        queue.insert(count, at: at, playNext: playNext)
        let shift = { (entry: Int) in entry >= at ? entry + count : entry }
        renumber(shift)
        return shift
    }

    /// Puts `added` in the place of entry `entry`, the one being opened (a playlist served over
    /// http): they play next, in their order, whatever the mode. Returns how an index from before
    /// maps to one after (`entry` to the first of them).
    mutating func replace(_ entry: Int, with added: consuming EntryList) -> (Int) -> Int {
        entries.remove(at: entry)
        marks.remove(at: entry, version: listVersion)
        queue.remove(entry)
        renumber { $0 == entry ? nil : $0 > entry ? $0 - 1 : $0 }
        let shift = place(added, at: entry, playNext: true)
        return { $0 == entry ? entry : shift($0 > entry ? $0 - 1 : $0) }
    }

    /// Takes entry `entry` out of the list. The one playing (or loading) gives way to the next,
    /// as if it had ended; past the end of the list the run ends as it does there. Unless
    /// `goingOn` is false: the caller says what plays then.
    mutating func remove(_ entry: Int, goingOn: Bool = true) {
        guard entries.indices.contains(entry) else { return }
        let wasCurrent = entry == queue.current && context.state.id != .idle
        entries.remove(at: entry)
        marks.remove(at: entry, version: listVersion)
        queue.remove(entry)
        renumber { $0 == entry ? nil : $0 > entry ? $0 - 1 : $0 }
        if wasCurrent, goingOn {
            if context.state.id != .idle { apply(.stop) }
            advance(atEnd: .rewind)
        }
    }

    /// Empties the list: what plays stops where it is, and the run waits for a new list, its
    /// modes kept (MPD's `clear`).
    mutating func clear() {
        guard !entries.isEmpty else { return }
        if context.state.id != .idle { apply(.stop) }
        entries = EntryList()
        marks.replaceAll(count: 0, version: listVersion)
        queue.replace(count: 0)
        outcome.failures = [:]
        outcome.setAside = []
        loading.opening = nil
        listPlace = .stoppedAtStart
    }

    /// Moves entry `entry` up or down the list by `step` places (one at a time).
    mutating func move(_ entry: Int, by step: Int) {
        let target = entry + step
        guard entries.indices.contains(entry), entries.indices.contains(target), step != 0 else { return }
        var entry = entry
        while entry != target {
            let next = entry + (step < 0 ? -1 : 1)
            entries.swapAt(entry, next)
            marks.swapAt(entry, next, version: listVersion)
            queue.swap(entry, next)
            let (a, b) = (entry, next)
            renumber { $0 == a ? b : $0 == b ? a : $0 }
            entry = next
        }
    }

    /// Entry indices held outside the list follow an edit of it: `map` gives each its new
    /// index, `nil` for one taken out.
    mutating func renumber(_ map: (Int) -> Int?) {
        outcome.failures = Dictionary(uniqueKeysWithValues: outcome.failures.compactMap { entry, why in map(entry).map { ($0, why) } })
        outcome.setAside = Set(outcome.setAside.compactMap(map))
        if let (entry, move) = loading.opening {
            guard let moved = map(entry) else {
                loading.opening = nil
                return
            }
            var newMove = move
            if case .instead(let resume) = move {
                newMove = map(resume.entry).map { .instead(of: Resume(entry: $0, at: resume.at, playing: resume.playing)) } ?? .forward(.rewind)
            }
            loading.opening = (moved, newMove)
        }
    }

    /// Makes `replacement` the list and plays its first song (the library view's `P`): the modes
    /// stay, what was queued and what failed go with the old list.
    mutating func replaceList(_ replacement: consuming EntryList) {
        guard !replacement.isEmpty else { return }
        defer { cueNext() }
        entries = replacement
        marks.replaceAll(count: entries.count, version: listVersion)
        queue.replace(count: entries.count)
        outcome.failures = [:]
        outcome.setAside = []
        loading.opening = nil
        listPlace = .inList
        if queue.byAlbum { return start() }  // once the new list's albums are known
        if let first = queue.advance() { open(first, moving: .forward(.rewind)) }
    }

    /// Adds entries at the end of the list (in shuffle mode, at random places still to come).
    mutating func append(_ added: consuming EntryList) {
        let at = entries.count
        entries += added
        marks.insert(entries.count - at, at: at, version: listVersion)
        queue.append(added.count)
        keepPrioritiesFirst()
        cueNext()
    }

    /// Says that more of the list is being read and will `arrive`.
    public mutating func expectMore() {
        holds.listComing = true
    }

    /// More of the list, read since it started playing, goes at its end (`isLast`: the list
    /// is all there). If the list had played to the end of what was there, it goes on with
    /// them; with nothing more to come, a run that ends with its list ends there.
    mutating func arrive(_ added: consuming EntryList, isLast: Bool) {
        guard !isFinished else { return }
        let waited = isAtEndOfList && context.state.id != .play
        if isLast { holds.listComing = false }
        if !added.isEmpty {
            let at = entries.count
            entries.append(contentsOf: added)
            marks.insert(entries.count - at, at: at, version: listVersion)
            queue.append(entries.count - queue.count)
        }
        if waited { return advance(atEnd: .rest) }
        cueNext()
    }

    /// Adds entries and plays them now; the list goes on after them from where it was. When a
    /// person `asked` (the load prompt) and the first cannot be opened, the song that was playing
    /// goes on from where it was.
    mutating func playNow(_ added: consuming EntryList, asked: Bool = false) {
        guard !added.isEmpty else { return }
        defer { cueNext() }
        var resume = asked ? resumePoint() : nil
        // They go into the list after the current entry, so that in list order the list shows
        // them where they play.
        let shift = place(added, at: (queue.current ?? -1) + 1, playNext: true)
        resume = resume.map { Resume(entry: shift($0.entry), at: $0.at, playing: $0.playing) }
        guard let resume, let next = queue.advance() else { return advance(atEnd: .rewind) }
        open(next, moving: .instead(of: resume))
    }
}

extension PlayerModel {
    /// Asks for `request` of the named playlists, with the list and the song playing (the
    /// list's current entry, opening or not); the answer (`.playlistDone`) brings an opened
    /// playlist's songs.
    mutating func ask(_ request: PlaylistRequest) {
        modes.playlistAsked = true
        emit(.playlist(request, entries, playing: index.map { entries[$0].path } ?? context.state.song?.path))
    }
}
