import Testing
@testable import PlayerCore

/// A session over the fake engine with `names`, its first song playing.
private func playing(_ names: [Path], repeats: Bool = false) -> Session {
    let session = Session(engine: FakeEngine(), entries: EntryList(names.map { Entry(path: $0) }),
                          policy: Session.Policy(keepsOpen: true), seams: TestSeams().seams)
    session.perform(.setRepeat(repeats))
    session.start()
    session.settle()
    return session
}

private func commands(_ request: MprisRequest, _ session: Session) -> [Command]? {
    try? MprisMapping.commands(for: request, in: session).get()
}

/// The MPRIS specification's rules that tplayer's pure side decides.
struct MprisRulesTests {
    /// CanGoNext and CanGoPrevious say whether Next and Previous change the track; when they
    /// say no, the method does nothing (Next on the last song stopped and rewound it).
    @Test func nextAndPreviousMoveOnlyWhereTheyCan() {
        let session = playing(["a.mp3", "b.mp3"])
        var now = MprisProperties(session.status)
        #expect(now.canGoNext && !now.canGoPrevious, "the first of two")
        #expect(commands(.previous, session) == [])
        session.perform(.next)
        session.settle()
        now = MprisProperties(session.status)
        #expect(!now.canGoNext && now.canGoPrevious, "the last, LoopStatus None")
        #expect(commands(.next, session) == [])
        #expect(commands(.previous, session) == [.previous])
        session.perform(.setRepeat(true))
        now = MprisProperties(session.status)
        #expect(now.canGoNext && now.canGoPrevious, "LoopStatus Playlist goes round")
        #expect(commands(.next, session) == [.next])
    }

    @Test func aSingleSongHasNoNextOrPreviousUnlessItRepeats() {
        let one = playing(["a.mp3"])
        #expect(!MprisProperties(one.status).canGoNext && !MprisProperties(one.status).canGoPrevious)
        #expect(commands(.next, one) == [] && commands(.previous, one) == [])
        #expect(MprisProperties(playing(["a.mp3"], repeats: true).status).canGoNext)
    }

    /// A song that cannot be opened is not a next track.
    @Test func aFailedEntryIsNoNextTrack() {
        let session = Session(engine: FakeEngine(goodPaths: ["a.mp3"]), entries: [Entry(path: "a.mp3"), Entry(path: "bad.mp3")],
                              policy: Session.Policy(keepsOpen: true), seams: TestSeams().seams)
        session.start()
        session.settle()
        #expect(MprisProperties(session.status).canGoNext, "not yet known to fail")
        session.perform(.next)
        session.settle()
        session.perform(.previous)
        session.settle()
        #expect(session.state.song?.path == "a.mp3")
        #expect(!MprisProperties(session.status).canGoNext)
    }

    /// The end of the list after `n` (stopped, rewound) is Stopped, as after MPRIS's Stop.
    @Test func theEndOfTheListIsStopped() {
        let session = playing(["a.mp3"])
        session.perform(.next)
        #expect(session.state.id == .stop && session.isAtEndOfList)
        #expect(MprisProperties(session.status).playbackStatus == "Stopped")
    }

    /// Each entry keeps one trackid, however often it is opened again.
    @Test func anEntryKeepsOneTrackID() throws {
        let session = playing(["a.mp3", "b.mp3"])
        let first = MprisMetadata(session, folder: "/").trackID
        let token = try #require(session.state.token)
        session.perform(.next)
        session.settle()
        #expect(MprisMetadata(session, folder: "/").trackID != first)
        session.perform(.previous)
        session.settle()
        #expect(session.state.token != token, "opened again")
        #expect(MprisMetadata(session, folder: "/").trackID == first)
        #expect(first == "/org/tplayer/track/0")
    }

    /// A track change is one announcement, made when the new song is open: while it loads the
    /// song before is still shown (no "no track" in between).
    @Test func aTrackChangeIsAnnouncedOnce() {
        let session = playing(["a.mp3", "b.mp3"])
        var announcer = MprisAnnouncer(folder: "/")
        #expect(announcer.changes(in: session).isEmpty, "the first look announces nothing")
        session.perform(.next)
        #expect(session.state.id == .loading)
        #expect(announcer.changes(in: session).isEmpty)
        #expect(announcer.metadata(of: session).title == "a.mp3", "still the song before")
        #expect(announcer.properties(of: session).playbackStatus == "Playing")
        session.settle()
        #expect(announcer.changes(in: session) == ["Metadata", "CanGoNext", "CanGoPrevious"])
        #expect(announcer.metadata(of: session).trackID == "/org/tplayer/track/1")
        #expect(announcer.changes(in: session).isEmpty)
    }

    /// OpenUri's answer: nothing for a song that plays, InvalidArgs naming the problems when
    /// nothing can be played, Failed when a newer load came first.
    @Test func anOpenUriThatPlaysNothingIsAnError() {
        #expect(MprisMapping.refusal(for: .playing) == nil)
        #expect(MprisMapping.refusal(for: .refused(["/m/gone.mp3: no such file"]))
            == .invalidArguments("nothing to play, nothing added: /m/gone.mp3: no such file"))
        guard case .failed = MprisMapping.refusal(for: .overtaken) else { Issue.record("not Failed"); return }
    }

    /// The desktop file is looked for where the XDG base directories say, relative ones ignored.
    @Test func theDesktopFileIsLookedForWhereXDGSays() {
        #expect(MprisDesktopEntry.candidates(environment: ["HOME": "/home/u"]) == [
            "/home/u/.local/share/applications/tplayer.desktop",
            "/usr/local/share/applications/tplayer.desktop", "/usr/share/applications/tplayer.desktop",
        ])
        #expect(MprisDesktopEntry.candidates(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/a:rel:/b"])
            == ["/d/applications/tplayer.desktop", "/a/applications/tplayer.desktop", "/b/applications/tplayer.desktop"])
        #expect(MprisDesktopEntry.find(environment: ["HOME": "/home/u"], exists: { _ in false }) == nil)
        #expect(MprisDesktopEntry.find(environment: ["HOME": "/home/u"],
                                       exists: { $0 == "/usr/share/applications/tplayer.desktop" }) == "tplayer")
    }
}
