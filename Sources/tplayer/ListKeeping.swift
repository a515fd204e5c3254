import Files
import Inputs
import PlayerApp
import PlayerCore

/// Where a run keeps lists: the list saved as an M3U8 beside the user's files (the list view's
/// `w`, a script's `save`), and the named playlists (`:playlist save NAME`, MPD's stored
/// playlists too) in `folder`. Each written off the main loop and said in one line; MPD's
/// clients are told (`changed`) when the stored playlists change.
struct ListKeeping {
    let work: BackgroundWork
    let library: SharedLibrary
    let say: (String) -> Void
    let changed: () -> Void

    /// Where the named playlists are kept: `$XDG_DATA_HOME/tplayer/playlists`, else
    /// `~/.local/share/tplayer/playlists`.
    static var folder: Path? {
        let environment = ProcessEnvironment.values(of: ["XDG_DATA_HOME", "HOME"])
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return Path(data).appending("tplayer").appending("playlists") }
        return environment["HOME"].map { Path($0).appending(".local/share/tplayer/playlists") }
    }

    /// Saves `entries` as a new M3U8 at `typed` (never over a file).
    func saveList(_ typed: Path, _ entries: EntryList) {
        let path = WriteGuard.listPath(typed)
        if let refusal = WriteGuard.listRefusal(path) { return say("tplayer: " + refusal) }
        let folder = FileSystem.currentFolder()
        let (say, changed) = (say, changed)
        work.start(.save, { _ in
            let written = PlaylistWriter.m3u8(entries, folder: folder)
            let failure = FileSystem.publish(path, bytes: written.bytes, permissions: 0o666)
            return (failure.map(\.reason), written)
        }, then: { (failure: String?, written: PlaylistWriter.Written) in
            if let failure { return say("tplayer: \(path): could not save the list: \(failure)") }
            let count = entries.count - written.leftOut.count
            changed()
            say("Saved the list (\(count) \(count == 1 ? "entry" : "entries")) to \(path)")
            written.leftOut.forEach { say("tplayer: \($0): a name with a line break cannot go in an M3U; left out") }
            written.wholeImages.forEach { say("tplayer: \($0): its CUE sheet is not known (the list was saved by an older tplayer); "
                + "its tracks are saved as the whole file") }
        })
    }

    /// Does `request` of the named playlists (`Session.Seams.playlists`).
    func playlist(_ request: PlaylistRequest, entries: EntryList, playing: Path?, done: @escaping ([Path]?) -> Void) {
        guard let folder = Self.folder else {
            say("tplayer: no folder for playlists: set HOME or XDG_DATA_HOME")
            return done(nil)
        }
        let (library, say, changed) = (library, say, changed)
        work.start(.playlist, { _ in
            PlaylistWork.run(request, store: NamedPlaylists(folder: folder), entries: entries, playing: playing, library: library)
        }, then: { (outcome: PlaylistWork.Outcome) in
            outcome.lines.forEach(say)
            if outcome.changed { changed() }
            done(outcome.songs)
        })
    }
}
