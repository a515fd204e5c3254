/// The list's order as the session walks it: the next and previous entries that play.
extension Session {
    /// Advances `queue` to the next entry that has not failed, and returns it; `nil` past the
    /// end (the queue is then left wherever it stopped).
    func nextPlayable(advancing queue: inout PlayQueue) -> Int? {
        for _ in 0...entries.count {
            guard let entry = queue.advance() else { return nil }
            if !skips(entry) { return entry }
        }
        return nil
    }

    /// What plays when the song playing ends by itself: the same one again with `repeatsOne`,
    /// else the next that plays.
    func following(advancing queue: inout PlayQueue) -> Int? {
        if repeatsOne, let current = queue.current, !skips(current) { return current }
        return nextPlayable(advancing: &queue)
    }

    /// Moves `queue` back to the previous entry that has not failed, and returns it; `nil` at
    /// the start of the list (without repeat).
    func previousPlayable(retreating queue: inout PlayQueue) -> Int? {
        for _ in 0..<entries.count {
            let before = queue.cursor
            guard let entry = queue.retreat(), queue.cursor != before else { return nil }
            if !skips(entry) { return entry }
        }
        return nil
    }
}
