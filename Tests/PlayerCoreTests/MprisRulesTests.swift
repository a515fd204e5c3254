import Testing
@testable import PlayerCore

/// The MPRIS specification's rules that tplayer's pure side decides.
struct MprisRulesTests {
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
