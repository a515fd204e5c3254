/// The list's edits that MPD's clients make beside those of the keys: the list shuffled in
/// place, an entry's priority, its part of the file, the tags a client gave it; and consume
/// mode, which takes each song out of the list once it has played.
extension PlayerModel {
    /// Shuffles the entries of `range` in place (MPD's `shuffle`). The song playing (or paused)
    /// goes first in it and plays on; the rest are put in a random order after it.
    mutating func shuffle(_ range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= entries.count, range.count >= 2 else { return }
        var slots = Array(range)
        var fixed = 0
        if context.state.id != .idle, let current = queue.current, range.contains(current) {
            slots.swapAt(0, current - range.lowerBound)
            fixed = 1
        }
        slots.replaceSubrange(fixed..., with: queue.randomOrder(Array(slots[fixed...])))
        var moved: [Int: Int] = [:]
        for (offset, from) in slots.enumerated() where from != range.lowerBound + offset { moved[from] = range.lowerBound + offset }
        guard !moved.isEmpty else { return }
        let reordered = EntryList(slots.map { entries[$0] })
        entries.replaceSubrange(range, with: reordered)
        marks.permute(range, into: slots, version: listVersion)
        let map = { (entry: Int) in moved[entry] ?? entry }
        queue.permute(map)
        renumber(map)
    }

    /// Gives the entries of `range` priority `priority` (MPD's `prio`): with shuffle on, the
    /// higher play first of those still to play.
    mutating func setPriority(_ priority: UInt8, of range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= entries.count, !range.isEmpty else { return }
        let before = marks.priorities
        marks.setPriority(priority, in: range, version: editedListVersion)
        guard marks.priorities != before else { return }
        edits = turn.editsBefore + 1
        // Only those raised may play again this round (MPD's `Queue::SetPriority`).
        queue.prioritize(raised: range.filter { marks.priorities[$0] > before[$0] }) { marks.priorities[$0] }
    }

    /// With shuffle on, the entries still to play go in order of their priorities, after the
    /// shuffle is turned on and as entries come in (MPD orders those by priority too).
    mutating func keepPrioritiesFirst() {
        guard queue.shuffles, marks.prioritized > 0 else { return }
        queue.prioritize { marks.priorities[$0] }
    }

    /// Plays only `span` of entry `entry` from its next opening (MPD's `rangeid`; `nil`: the
    /// whole file). The song playing or paused is not changed under it; one stopped in it is
    /// opened again with its new span, ready to play.
    mutating func setSpan(_ span: TrackSpan?, of entry: Int) {
        let isCurrent = entry == queue.current && context.state.song != nil
        guard entries.indices.contains(entry), entries[entry].span != span, !isCurrent || status.playback == .stopped else { return }
        entries[entry].span = span
        marks.touch(entry, version: listVersion)
        guard isCurrent else { return }
        let place = listPlace  // stopped where it was: the opening moves nothing on
        loading.opening = (entry, .forward(.rest))
        apply(.load(entries[entry].source))
        listPlace = place
    }

    /// Tags entry `entry` `name: value` besides its own tags, or takes the ones given away
    /// (MPD's `addtagid`, `cleartagid`).
    mutating func tag(_ entry: Int, name: String?, value: String?) {
        guard entries.indices.contains(entry) else { return }
        let before = marks.versions
        marks.tag(entry, name: name, value: value, version: editedListVersion)
        if marks.versions != before { edits = turn.editsBefore + 1 }
    }

    /// With consume on, `played` (the entry that was current before the list moved on) leaves
    /// the list: once another is current, or at the end of the list.
    mutating func consume(_ played: Int?) {
        guard modes.consumes, let played, entries.indices.contains(played) else { return }
        guard played == queue.current else { return remove(played) }
        // The last song played and the list waits at its end: it leaves the list, and the list
        // waits at its start, stopped, its first song ready (or empty, as after `clear`).
        guard isAtEndOfList else { return }
        remove(played, goingOn: false)
        if context.state.id != .idle { apply(.stop) }
        queue.replace(count: entries.count)
        guard let first = nextPlayable(advancing: &queue) else { return listPlace = .stoppedAtStart }
        loading.opening = (first, .forward(.rest))
        apply(.load(entries[first].source))
        listPlace = .stoppedAtStart
    }

    /// The version the list has once this input has changed it.
    var editedListVersion: UInt32 { UInt32(truncatingIfNeeded: turn.editsBefore + 2) & 0x7FFF_FFFF }
}
