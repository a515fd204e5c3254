/// Where a run is in its list, beside what the state machine says the song does.
public enum ListPlace: Equatable, Sendable {
    /// At a song of the list (playing, paused, being opened), or before the first.
    case inList
    /// Stopped and taken back to the start (`rewind`): what MPRIS calls Stopped, where a stop
    /// that keeps its place is Paused. The next transition leaves it.
    case stoppedAtStart
    /// The list has played to its end and waits there on its last song (`keepsOpen`), rewound
    /// and stopped when it ended with `next` (the next transition leaves that).
    case atEnd(stoppedAtStart: Bool)
    /// The run is over: the list played through, or `quit`. Nothing leaves it.
    case finished

    /// After a transition of the state machine: no longer at the start.
    var moved: ListPlace {
        switch self {
        case .stoppedAtStart: .inList
        case .atEnd: .atEnd(stoppedAtStart: false)
        case .inList, .finished: self
        }
    }

    /// After the song was taken back to its start, stopped there or not.
    func rewound(stopped: Bool) -> ListPlace {
        switch self {
        case .inList, .stoppedAtStart: stopped ? .stoppedAtStart : .inList
        case .atEnd: .atEnd(stoppedAtStart: stopped)
        case .finished: .finished
        }
    }
}
