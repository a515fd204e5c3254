import PlayerCore

/// The library view's third layout (`t`): the named playlists, by name, and the one open with
/// its songs under it, as cmus's playlist view shows them beside its library. Enter opens a
/// playlist (a smart one filled from the library as it is shown) or plays it from the song under
/// the cursor; `a` `e` `P` take it as they take an album; `w` saves the list as a new playlist,
/// `r` renames the one under the cursor, `D` deletes it once `y` confirms.
struct PlaylistRows {
    /// The playlists the filter keeps (each word of it in the name), by name.
    private(set) var playlists: [LibraryItem] = []
    /// The playlist open, as it was read, and its songs.
    private(set) var open: (playlist: LibraryItem, songs: [LibraryItem])?

    var count: Int { playlists.count + (open?.songs.count ?? 0) }

    /// The open playlist's row.
    private var openIndex: Int? {
        open.flatMap { opened in playlists.firstIndex { $0.name == opened.playlist.name } }
    }

    /// Looks at the playlists again: one gone is gone from the rows (closed, when open), and
    /// the open one's songs are read again when its file changed.
    mutating func read(_ browser: LibraryBrowser, filter: String) {
        let words = filter.lowercased().split(whereSeparator: \.isWhitespace)
        playlists = browser.playlists().filter { playlist in
            let name = playlist.name.lowercased()
            return words.allSatisfy { name.contains($0) }
        }
        guard let opened = open else { return }
        guard let now = playlists.first(where: { $0.name == opened.playlist.name }) else {
            open = nil
            return
        }
        if now.version != opened.playlist.version { open = (now, browser.songs(ofPlaylist: now)) }
    }

    /// Row `row`: what it shows, its depth, the playlist it is or is in, and a song's place in it.
    func row(_ row: Int) -> (item: LibraryItem, level: Int, playlist: LibraryItem, place: Int?)? {
        guard row >= 0 else { return nil }
        var index = row
        if let opened = open, let at = openIndex, row > at {
            if row <= at + opened.songs.count { return (opened.songs[row - at - 1], 1, opened.playlist, row - at - 1) }
            index -= opened.songs.count
        }
        guard index < playlists.count else { return nil }
        return (playlists[index], 0, playlists[index], nil)
    }

    /// The row of playlist `name`, or of its song at `place` when it is open.
    func row(of name: String, place: Int?) -> Int? {
        guard let index = playlists.firstIndex(where: { $0.name == name }) else { return nil }
        guard let opened = open, let at = openIndex else { return place == nil ? index : nil }
        if let place {
            return opened.playlist.name == name && opened.songs.indices.contains(place) ? at + 1 + place : nil
        }
        return index > at ? index + opened.songs.count : index
    }

    func items(from: Int, to end: Int) -> [(item: LibraryItem, level: Int)] {
        (from..<max(from, end)).compactMap { row($0).map { ($0.item, $0.level) } }
    }

    /// The songs of `playlist`: those shown when it is open, else read.
    func songs(of playlist: LibraryItem, _ browser: LibraryBrowser) -> [LibraryItem] {
        if let opened = open, opened.playlist.name == playlist.name { return opened.songs }
        return browser.songs(ofPlaylist: playlist)
    }

    /// Opens `playlist` (closing the one open) or closes it; the row it is on after.
    mutating func toggle(_ playlist: LibraryItem, _ browser: LibraryBrowser) -> Int {
        if open?.playlist.name == playlist.name {
            open = nil
        } else {
            open = (playlist, browser.songs(ofPlaylist: playlist))
        }
        return playlists.firstIndex { $0.name == playlist.name } ?? 0
    }

    /// Closes the playlist open; the row it is on.
    mutating func close() -> Int? {
        defer { open = nil }
        return openIndex
    }

    /// A song's new rating, shown in its row.
    mutating func rated(place: Int, stars: Int) {
        guard var opened = open, opened.songs.indices.contains(place) else { return }
        opened.songs[place].rating = stars
        open = opened
    }
}

extension LibraryView {
    /// What `key` does in the playlists layout; `nil`: what it does in every layout (moving,
    /// `/`, `t`, `u`, Esc).
    mutating func handlePlaylists(_ key: Key, _ browser: LibraryBrowser) -> Outcome? {
        let under = playlistRows.row(cursor)
        if let why = under?.playlist.refused, [.enter, .character("a"), .character("e"), .character("P"), .character("r"), .character("D")].contains(key) {
            message = why
            return .redraw
        }
        switch key {
        case .enter:
            guard let under else { return .redraw }
            guard let place = under.place else {
                cursor = playlistRows.toggle(under.playlist, browser)
                return .redraw
            }
            let paths = playlistRows.songs(of: under.playlist, browser)[place...].compactMap(\.path)
            return paths.isEmpty ? .redraw : .command(.playSongs(paths))
        case .left:
            // The playlist the cursor is in (or on) closes.
            if let under, playlistRows.open?.playlist.name == under.playlist.name, let row = playlistRows.close() { cursor = row }
            return .redraw
        case .character("a"), .character("e"), .character("P"):
            guard let under else { return .redraw }
            if key == .character("P"), under.place == nil { return .command(.playlist(.open(under.playlist.name))) }
            // A playlist's songs whole (those shown stop at 10,000), a song's itself.
            let paths = under.place == nil ? browser.paths(of: under.playlist, filter: "") : under.item.path.map { [$0] } ?? []
            guard !paths.isEmpty else {
                message = "playlist \(under.playlist.name) is empty"
                return .redraw
            }
            return Self.take(paths, by: key)
        case .character("w"):
            startTyping(PromptLine(label: "save the list as playlist: "), for: .save)
            return .redraw
        case .character("r"):
            guard let under else { return .redraw }
            var line = PromptLine(label: "rename \(TerminalText.safe(under.playlist.name)) to: ")
            line.complete(to: under.playlist.name)
            startTyping(line, for: .rename(under.playlist.name))
            return .redraw
        case .character("D"):
            guard let under else { return .redraw }
            guard under.place == nil else {
                message = "D deletes a playlist: put the cursor on one"
                return .redraw
            }
            deleting = under.playlist.name
            message = "delete? y deletes playlist \(under.playlist.name), any other key keeps it"
            return .redraw
        case .character("o"):
            message = "the playlists are in name order (o sorts the songs: t there)"
            return .redraw
        case .character(let digit) where ("0"..."5").contains(digit):
            guard let under, let place = under.place, let stars = digit.wholeNumberValue else {
                message = "a rating is a song's: put the cursor on one"
                return .redraw
            }
            guard under.item.albumKey != nil else {
                message = "only the library's songs are rated: this file is not in it"
                return .redraw
            }
            browser.rate(under.item, stars: stars)
            playlistRows.rated(place: place, stars: stars)
            message = stars == 0 ? "rating cleared" : "rated " + String(repeating: "★", count: stars)
            return .redraw
        default:
            return nil
        }
    }

    /// A message come while the view is open, on its title line: a question `D` asked is
    /// withdrawn with it (the next key would answer a question no longer shown).
    mutating func hold(_ said: String) {
        message = said
        if let name = deleting {
            deleting = nil
            message = said + " (kept playlist \(name): D asks again)"
        }
    }

    /// The key after `D`: `y` deletes the playlist, any other keeps it.
    mutating func confirmDelete(_ key: Key, _ name: String) -> Outcome {
        deleting = nil
        if key == .character("y") { return .command(.playlist(.delete(name))) }
        message = "kept playlist \(name)"
        return .redraw
    }

    /// A name typed for `w` or `r`, given: the playlist command it makes (the cursor goes to
    /// the playlist when it is there).
    mutating func playlistCommand(_ text: String, for typed: Typing) -> Outcome {
        let name = String(String(text.drop(while: \.isWhitespace).reversed()).drop(while: \.isWhitespace).reversed())
        following = name.isEmpty ? nil : name
        switch typed {
        case .save: return name.isEmpty ? .redraw : .command(.playlist(.save(name)))
        // Given as it was offered: nothing to rename (a name with spaces around it kept them).
        case .rename(let old): return name.isEmpty || text == old ? .redraw : .command(.playlist(.rename(old, to: name)))
        case .filter, .sort: return .redraw
        }
    }
}
