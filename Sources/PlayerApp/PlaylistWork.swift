import Files
import Library
import PlayerCore

/// What a playlist request (`:playlist save Road trip`) does, off the main loop: the named
/// playlists changed or read (`NamedPlaylists`), a smart one filled from the library; and what
/// comes of it, for the main loop: the lines to say, the songs an opened playlist plays, and
/// whether the playlists changed (MPD's clients are told).
public enum PlaylistWork {
    public struct Outcome: Sendable {
        public var lines: [String] = []
        public var songs: [Path]?
        public var changed = false
    }

    public static func run(_ request: PlaylistRequest, store: NamedPlaylists, entries: EntryList, playing: Path?,
                           library: SharedLibrary) -> Outcome {
        var outcome = Outcome()
        func said(_ result: Result<Void, NamedPlaylists.Failure>, _ name: String, done: String) {
            switch result {
            case .success:
                outcome.lines.append(done)
                outcome.changed = true
            case .failure(let failure): outcome.lines.append("tplayer: " + failure.said(about: name))
            }
        }
        func count(_ songs: Int) -> String { songs == 1 ? "1 song" : "\(songs) songs" }
        switch request {
        case .save(let name):
            let songs = entries.map(\.path)
            said(store.write(name, songs, new: true), name, done: "Saved the list (\(count(songs.count))) as playlist \(UntrustedText.shown(name))")
        case .open(let name):
            switch store.read(name) {
            case .failure(let failure): outcome.lines.append("tplayer: " + failure.said(about: name))
            case .success(let found):
                guard let query = found.query else {
                    if found.songs.isEmpty { outcome.lines.append("tplayer: playlist \(UntrustedText.shown(name)) is empty") }
                    outcome.songs = found.songs.isEmpty ? nil : found.songs
                    break
                }
                // Smart: the library's songs the query matches now, written back as its songs.
                let filled = fill(query, library: library)
                switch filled {
                case .failure(let why): outcome.lines.append("tplayer: smart playlist \(UntrustedText.shown(name)): \(why)")
                case .success(let songs):
                    if case .failure(let failure) = store.write(name, songs, new: false, query: query) {
                        outcome.lines.append("tplayer: " + failure.said(about: name))
                    }
                    outcome.changed = true
                    if songs.isEmpty {
                        outcome.lines.append("tplayer: smart playlist \(UntrustedText.shown(name)): no song in the library matches \(UntrustedText.shown(query))")
                    } else {
                        outcome.songs = songs
                    }
                }
            }
        case .append(let name):
            guard let playing else {
                outcome.lines.append("tplayer: playlist append adds the song playing: nothing plays")
                break
            }
            let result = store.change(name, creates: true, { (songs: inout [Path]) -> Result<Void, NamedPlaylists.Failure> in
                songs.append(playing)
                return .success(())
            }, failure: { $0 })
            said(result, name, done: "Added \(UntrustedText.shown("\(playing.lastComponent)")) to playlist \(UntrustedText.shown(name))")
        case .rename(let name, let new):
            let result = NamedPlaylists.refusal(new).map { .failure(.badName($0)) } ?? store.rename(name, to: new)
            said(result, NamedPlaylists.refusal(new) == nil ? name : new,
                 done: "Renamed playlist \(UntrustedText.shown(name)) to \(UntrustedText.shown(new))")
        case .delete(let name):
            said(store.remove(name), name, done: "Deleted playlist \(UntrustedText.shown(name))")
        case .smart(let name, let query):
            if case .failure(let error) = LibraryQuery.parse(query) {
                outcome.lines.append("tplayer: smart playlist \(UntrustedText.shown(name)): \(error)")
                break
            }
            let songs = (try? fill(query, library: library).get()) ?? []
            said(store.write(name, songs, new: true, query: query), name,
                 done: "Saved smart playlist \(UntrustedText.shown(name)) (\(count(songs.count)) now; filled again each time it is opened)")
        case .list:
            let all = store.all().map { UntrustedText.shown($0.name) }
            outcome.lines.append(all.isEmpty ? "No playlists yet (playlist save NAME saves the list as one)" : "Playlists: " + all.joined(separator: ", "))
        }
        return outcome
    }

    /// The library's songs `query` matches, in album order.
    static func fill(_ query: String, library: SharedLibrary) -> Result<[Path], Why> {
        switch LibraryQuery.parse(query) {
        case .failure(let error): return .failure(Why(error.description))
        case .success(let parsed):
            guard let database = library.database else { return .failure(Why("no library yet: tplayer --scan FOLDER makes one")) }
            return database.find(parsed, limit: Entry.listLimit).mapError { Why("\($0)") }
        }
    }

    /// Why a smart playlist cannot be filled, in words.
    struct Why: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }
}
