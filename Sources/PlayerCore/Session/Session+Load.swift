/// Loading while a run plays (`load`, MPRIS's `OpenUri`): a path's songs are read off the main
/// loop (`Seams.expand`), only the newest load plays, and an asker who waits is answered.
extension Session {
    /// Plays what `path` names now, as `load` does, and answers `answer` once it is known: its
    /// first song plays, nothing in it can be played (nothing is added), or a newer load (or
    /// quitting) came first. For a front-end that must answer its caller (MPRIS's `OpenUri`).
    public func load(_ path: Path, answer: @escaping (LoadAnswer) -> Void) {
        guard !isFinished else { return answer(.overtaken) }
        defer { cueNext() }
        startLoad(path, answer: answer)
    }

    func startLoad(_ path: Path, answer: ((LoadAnswer) -> Void)? = nil) {
        answerLoad(.overtaken)
        loading.loads += 1
        let load = loading.loads
        if let answer { loading.awaitingAnswer = (load, answer) }
        holds.loadComing = true
        seams.expand(path) { [weak self] entries, problems in
            // Only the newest load plays; one the player quit before is dropped.
            guard let self, load == self.loading.loads, !self.isFinished else { return }
            self.holds.loadComing = false
            let waited = self.isAtEndOfList && self.context.state.id != .play
            self.answerLoad(entries.isEmpty ? .refused(problems) : .playing)
            if entries.isEmpty, waited {
                // Nothing came of it: the list is at its end, as it was (a run that ends with
                // its list ends now).
                return self.advance(atEnd: .rest)
            }
            self.playNow(entries, asked: self.policy.keepsSongOnFailedLoad)
        }
    }

    /// Answers the load whose asker waits, if any.
    func answerLoad(_ outcome: LoadAnswer) {
        guard let waiting = loading.awaitingAnswer else { return }
        loading.awaitingAnswer = nil
        waiting.answer(outcome)
    }
}
