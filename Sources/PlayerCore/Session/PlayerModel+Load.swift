/// Loading while a run plays (`load`, MPRIS's `OpenUri`): a path's songs are read off the main
/// loop (the `.expand` effect), only the newest load plays, and an asker who waits is answered.
extension PlayerModel {
    /// Plays what `path` names now, as `load` does, and (`answered`) answers its asker once it
    /// is known: its first song plays, nothing in it can be played (nothing is added), or a
    /// newer load (or quitting) came first.
    mutating func load(_ path: Path, answered: Bool) {
        guard !isFinished else {
            if answered { emit(.answerLoad(.overtaken)) }
            return
        }
        defer { cueNext() }
        startLoad(path, answered: answered)
    }

    mutating func startLoad(_ path: Path, answered: Bool = false) {
        answerLoad(.overtaken)
        loading.loads += 1
        if answered { loading.awaitingAnswer = loading.loads }
        holds.loadComing = true
        emit(.expand(path, .load(loading.loads)))
    }

    /// The entries load number `load` read: they play now, if it is still the newest and the
    /// player has not quit.
    mutating func loaded(_ entries: consuming EntryList, problems: [String], load: Int) {
        guard load == loading.loads, !isFinished else { return }
        holds.loadComing = false
        let waited = isAtEndOfList && context.state.id != .play
        answerLoad(entries.isEmpty ? .refused(problems) : .playing)
        if entries.isEmpty, waited {
            // Nothing came of it: the list is at its end, as it was (a run that ends with its
            // list ends now).
            return advance(atEnd: .rest)
        }
        playNow(entries, asked: policy.keepsSongOnFailedLoad)
    }

    /// Answers the load whose asker waits, if any.
    mutating func answerLoad(_ outcome: LoadAnswer) {
        guard loading.awaitingAnswer != nil else { return }
        loading.awaitingAnswer = nil
        emit(.answerLoad(outcome))
    }
}
