import Testing
@testable import PlayerCore

/// Where a run is in its list: one value, moved by the session's transitions.
struct ListPlaceTests {
    @Test func aTransitionLeavesTheStartButNotTheEndOrTheFinish() {
        #expect(ListPlace.stoppedAtStart.moved == .inList)
        #expect(ListPlace.atEnd(stoppedAtStart: true).moved == .atEnd(stoppedAtStart: false))
        #expect(ListPlace.inList.moved == .inList)
        #expect(ListPlace.finished.moved == .finished, "nothing leaves the finish")
    }

    @Test func aRewindStopsAtTheStartWhereItStops() {
        #expect(ListPlace.inList.rewound(stopped: true) == .stoppedAtStart)
        #expect(ListPlace.inList.rewound(stopped: false) == .inList, "a rewind while it plays on")
        #expect(ListPlace.atEnd(stoppedAtStart: false).rewound(stopped: true) == .atEnd(stoppedAtStart: true))
        #expect(ListPlace.finished.rewound(stopped: true) == .finished)
    }

    /// `next` on the last song of a list kept open: at the end, stopped at its start (MPRIS's
    /// Stopped); play leaves the start but stays at the end; a quit finishes, and only that.
    @Test func theSessionsPlaceFollowsTheList() {
        let session = Session(engine: FakeEngine(), entries: EntryList([Entry(path: "a.mp3")]), policy: Session.Policy(keepsOpen: true), seams: TestSeams().seams)
        session.start()
        session.settle()
        #expect(session.listPlace == .inList)
        session.perform(.next)
        session.settle()
        #expect(session.listPlace == .atEnd(stoppedAtStart: true))
        #expect(session.isAtEndOfList && session.isStoppedAtStart && !session.isFinished)
        session.perform(.play)
        session.settle()
        #expect(session.listPlace == .atEnd(stoppedAtStart: false))
        session.perform(.quit)
        session.settle()
        #expect(session.listPlace == .finished && !session.isAtEndOfList)
    }
}
