import PlayerCore

/// The list as the session has it at one moment: what the list view shows.
public struct ListSnapshot {
    public var entries: EntryList
    /// The entry playing, paused or loading.
    public var current: Int?
    /// The entries that could not be played, and why.
    public var failures: [Int: String]
    /// What is known of the songs (their tags and length) without decoding them: the songs
    /// opened this run, and those read for the view.
    public var known: [SongSource: SongFacts]
    /// Changes whenever the entries do (an edit, a load): what the search's folded text is kept by.
    public var edits: Int
    /// The entries queued to play next, in their order.
    public var upNext: [Int]

    public init(entries: EntryList = [], current: Int? = nil, failures: [Int: String] = [:],
                known: [SongSource: SongFacts] = [:], edits: Int = 0, upNext: [Int] = []) {
        self.entries = entries
        self.current = current
        self.failures = failures
        self.known = known
        self.edits = edits
        self.upNext = upNext
    }
}

/// What the list view shows of a song it knows: its tags and length.
public struct SongFacts: Equatable, Sendable {
    public var tags: SongInfo.Tags
    public var seconds: Double?

    public init(tags: SongInfo.Tags, seconds: Double?) {
        self.tags = tags
        self.seconds = seconds
    }

    public init(_ song: SongInfo) {
        self.init(tags: song.tags, seconds: song.totalFrames.map(song.seconds))
    }
}

/// The full-screen list view: a cursor over the list, a search, and the keys that edit it.
///
/// It knows nothing of playback: a key that changes the list or what plays becomes a command
/// (`playEntry`, `removeEntry`, `moveEntry`) for the session, like every other key. What it
/// keeps is its own: the cursor, the first row shown, and the search.
public struct ListView {
    /// The entry under the cursor (0-based).
    public private(set) var cursor: Int
    /// The entry on the first row shown.
    private(set) var top = 0
    /// The entries on screen at the last redraw: the ones whose tags and length are worth reading.
    public private(set) var shown: Range<Int> = 0..<0
    /// The search being typed after `/`, where the cursor was when it started, and whether the
    /// cursor has yet to go to what it finds (`settleSearch`).
    private(set) var search: (prompt: PromptLine, from: Int, unsettled: Bool)?
    /// The last search made, for `n` and `N`.
    private(set) var query: String?
    private var searches: [String] = []
    /// Each entry's text as a search compares it, made as a search or a redraw comes to it and
    /// kept until the list changes.
    private var folded = FoldedTexts()

    /// What a key did in the view.
    public enum Outcome: Equatable {
        /// The view changed (the cursor moved, the search): draw it again.
        case redraw
        /// A command for the session (and the view drawn again).
        case command(Command)
        /// Said on the bottom line for a moment (`/x: not found`).
        case say(String)
        /// The view is left.
        case close
        /// Ask for a path to put into the list after the cursor (`l`).
        case askToAdd(at: Int)
        /// Ask for a name to save the list as (`w`).
        case askToSave
    }

    public init(list: ListSnapshot) {
        cursor = list.current ?? 0
    }

    /// A view whose cursor starts on entry `cursor` (the song playing), before it has the list.
    public init(cursor: Int) {
        self.cursor = cursor
    }

    /// Whether the search prompt has the bottom line.
    public var isSearching: Bool { search != nil }

    /// What `key` does in the view with `rows` entry rows on screen, by tplayer's own keys.
    public mutating func handle(_ key: Key, in list: ListSnapshot, rows: Int) -> Outcome? {
        handle(key, action: KeyBindings.standard.listAction(for: key), in: list, rows: rows)
    }

    /// What `key`, bound to `action` in the view, does there; `nil`: the view has no use for
    /// it, and it means what it means everywhere (space pauses, `+` turns the volume up). While
    /// the search is typed, keys edit it, whatever they are bound to.
    public mutating func handle(_ key: Key, action: Action?, in list: ListSnapshot, rows: Int) -> Outcome? {
        if search != nil { return edit(key, in: list) }
        let count = list.entries.count
        let page = max(rows - 1, 1)
        switch action {
        case .cursorUp?: moveCursor(to: cursor - 1, count: count)
        case .cursorDown?: moveCursor(to: cursor + 1, count: count)
        case .pageUp?: moveCursor(to: cursor - page, count: count)
        case .pageDown?: moveCursor(to: cursor + page, count: count)
        case .first?: moveCursor(to: 0, count: count)
        case .last?: moveCursor(to: count - 1, count: count)
        case .playEntry?:
            guard cursor < count else { return .redraw }
            return .command(.playEntry(cursor))
        case .remove?:
            guard cursor < count else { return .redraw }
            return .command(.removeEntry(cursor))
        case .queue?:
            guard cursor < count else { return .redraw }
            return .command(.queueEntry(cursor))
        case .moveUp?:
            guard cursor > 0, cursor < count else { return .redraw }
            cursor -= 1
            return .command(.moveEntry(cursor + 1, by: -1))
        case .moveDown?:
            guard cursor + 1 < count else { return .redraw }
            cursor += 1
            return .command(.moveEntry(cursor - 1, by: 1))
        case .search?:
            search = (PromptLine(label: "/", history: searches), cursor, false)
        case .searchNext?, .searchPrevious?:
            guard let query else { return .say("no search yet: / searches") }
            return find(query, in: list, from: cursor, forward: action == .searchNext, skippingStart: true)
        case .add?:
            return .askToAdd(at: min(cursor + 1, count))
        case .save?:
            return .askToSave
        case .closeList?, .list?:
            return .close
        case .playPause?, .play?, .pause?, .stop?, .playFromStart?, .seekForward?, .seekBack?, .seekForwardLong?, .seekBackLong?, .restart?, .jump?,
             .next?, .previous?, .nextAlbum?, .previousAlbum?, .volumeUp?, .volumeDown?, .mute?, .toggleRepeat?, .toggleShuffle?, .repeatOne?, .stopAfter?, .albumMode?, .equalizer?, .crossfade?, .sleep?, .slower?, .faster?, .normalSpeed?,
             .info?, .load?, .commandLine?, .help?, .library?, .nowPlaying?,
             .quit?, nil:
            return nil  // what it means everywhere
        }
        return .redraw
    }

    /// A key typed at the search prompt: the cursor goes to the first match of what is typed,
    /// when the view is next drawn (each search starts from where the cursor was, so of keys
    /// that come together, a paste, only the last text is searched for); Enter keeps it there,
    /// Esc goes back to where it was.
    private mutating func edit(_ key: Key, in list: ListSnapshot) -> Outcome {
        guard let (typed, from, unsettled) = search else { return .redraw }
        var prompt = typed
        switch prompt.apply(key) {
        case .cancelled:
            search = nil
            cursor = min(from, max(list.entries.count - 1, 0))
            return .redraw
        case .submitted(let text):
            if unsettled { settleSearch(in: list) }
            search = nil
            guard !text.isEmpty else { return .redraw }
            query = text
            if searches.last != text { searches.append(text) }
            return SearchFold.fold(text).isEmpty ? .redraw : matches(cursor, text, in: list) ? .redraw : .say("/\(text): not found")
        case .editing, .complete:
            search = (prompt, from, true)
            return .redraw
        }
    }

    /// Moves the cursor to the first match of the search typed, from where it started (back
    /// there when nothing matches).
    private mutating func settleSearch(in list: ListSnapshot) {
        guard let (prompt, from, unsettled) = search, unsettled else { return }
        search = (prompt, from, false)
        let text = prompt.text
        guard !text.isEmpty, find(text, in: list, from: from, forward: true, skippingStart: false) == .redraw else {
            cursor = from
            return
        }
    }

    /// Moves the cursor to the next entry (or previous, `forward: false`) whose text holds
    /// `text`, from `start` (itself too unless `skippingStart`), round the end of the list.
    private mutating func find(_ text: String, in list: ListSnapshot, from start: Int, forward: Bool,
                               skippingStart: Bool) -> Outcome {
        let count = list.entries.count
        guard count > 0 else { return .say("/\(text): not found") }
        let needle = SearchFold.fold(text)
        for step in (skippingStart ? 1 : 0)...count {
            let entry = ((forward ? start + step : start - step) % count + count) % count
            if SearchFold.contains(foldedText(entry, in: list), needle) {
                cursor = entry
                return .redraw
            }
        }
        return .say("/\(text): not found")
    }

    private mutating func matches(_ entry: Int, _ text: String, in list: ListSnapshot) -> Bool {
        list.entries.indices.contains(entry) && SearchFold.contains(foldedText(entry, in: list), SearchFold.fold(text))
    }

    /// Entry `entry`'s searchable text (name, album, path), folded: made once, and again after
    /// the list changes, or once its tags are known when they were not.
    private mutating func foldedText(_ entry: Int, in list: ListSnapshot) -> ArraySlice<UInt8> {
        if folded.edits != list.edits || folded.count != list.entries.count {
            folded = FoldedTexts(edits: list.edits, count: list.entries.count)
        }
        switch folded.state(of: entry, known: list.known.count) {
        case .made(let text): return text
        case .madeBeforeMoreWereKnown(let text):
            // The tags read since may name it now (`/album` finds what the view shows).
            if list.known[list.entries[entry].source] == nil {
                folded.checked(entry, known: list.known.count)
                return text
            }
        case .notMade: break
        }
        // The fields one by one, not the row's text: 100,000 of them are folded for a search.
        let item = list.entries[entry]
        let facts = list.known[item.source]
        var text: [UInt8] = []
        func add(_ field: String?) {
            guard let field else { return }
            SearchFold.fold(field, into: &text)
            text.append(0x0A)
        }
        if let tags = facts?.tags {
            add(tags.artist)
            add(tags.title)
            add(tags.album)
        }
        if let sheet = item.sheetTags {
            add(sheet.artist)
            add(sheet.title)
            add(sheet.album)
        }
        add(item.title)
        SearchFold.fold(path: item.path.bytes, into: &text)
        return folded.store(entry, text, known: facts != nil || item.sheetTags != nil ? nil : list.known.count)
    }

    /// Folds up to `budget` more entries ahead of a search, a little at each tick of the status
    /// line (a few milliseconds), so that the first search of a long list finds them made.
    private mutating func foldAhead(_ list: ListSnapshot, budget: Int) {
        guard folded.edits != list.edits || folded.missing > 0 else { return }
        var done = 0
        var entry = 0
        while done < budget, entry < list.entries.count {
            if folded.edits != list.edits || folded.count != list.entries.count || !folded.isMade(entry) {
                _ = foldedText(entry, in: list)
                done += 1
            }
            entry += 1
        }
    }

    private mutating func moveCursor(to entry: Int, count: Int) {
        cursor = min(max(entry, 0), max(count - 1, 0))
    }

    /// The view as `height` lines of `width` columns: a title line, the entry rows, and the
    /// bottom line (`bottom`: the status line, or the search prompt while it is open).
    /// `foldingAhead`: a redraw no key waits for (the status line's tick) also folds the next
    /// entries' search text, so a key's redraw never pays for it.
    public mutating func lines(_ list: ListSnapshot, width: Int, height: Int, bottom: StyledLine,
                               foldingAhead: Bool = false, keys bindings: KeyBindings = .standard) -> [StyledLine] {
        let rows = max(height - 2, 1)
        let count = list.entries.count
        settleSearch(in: list)
        if count > 0 { cursor = min(cursor, count - 1) }  // none yet: the list is on its way
        // The cursor stays in view, a little way from the edges when it can.
        if cursor < top { top = cursor }
        if cursor >= top + rows { top = cursor - rows + 1 }
        top = max(min(top, count - rows), 0)
        let room = width - 1
        var title = StyledLine(TextWidth.fit(" tplayer: \(count) in the list", room), .bold)
        let keys = "  " + bindings.listHint
        if title.columns + TextWidth.columns(keys) <= room { title.append(keys, .dim) }
        var lines = [title]
        let layout = ListRow.Layout(width: room, count: count)
        shown = top..<min(top + rows, count)
        for entry in shown {
            lines.append(ListRow(list, entry).rendered(layout, underCursor: entry == cursor))
        }
        if count == 0 { lines.append(StyledLine("  " + bindings.emptyListHint, .dim)) }
        if foldingAhead { foldAhead(list, budget: 2_500) }
        while lines.count < height - 1 { lines.append(StyledLine()) }
        let bottomLine = search.map { StyledLine($0.prompt.rendered(width: room)) } ?? bottom
        return Array(lines.prefix(max(height - 1, 0))) + [bottomLine]
    }
}

/// One entry as a row of the list view: its place, "artist – title", album and length.
struct ListRow {
    let place: Int
    let name: String
    let album: String
    let length: String
    let isCurrent: Bool
    /// Its place in the queue, from 1, when it is queued.
    let queued: Int?
    let failure: String?

    /// Where each column starts and how wide it is, for `width` columns and `count` entries.
    struct Layout {
        let placeWidth: Int
        let nameWidth: Int
        let albumWidth: Int
        static let lengthWidth = 8

        init(width: Int, count: Int) {
            placeWidth = String(max(count, 1)).count
            // The mark, the place, the gaps and the length take what they need; the name gets
            // two thirds of the rest and the album a third, or the name all of it when narrow.
            let rest = width - 2 - placeWidth - 2 - Self.lengthWidth
            if rest >= 36 {
                albumWidth = rest / 3
                nameWidth = rest - albumWidth - 2
            } else {
                albumWidth = 0
                nameWidth = max(rest, 4)
            }
        }
    }

    init(_ list: ListSnapshot, _ entry: Int, withLength: Bool = true) {
        let item = list.entries[entry]
        place = entry + 1
        isCurrent = entry == list.current
        failure = list.failures[entry]
        let facts = list.known[item.source]
        // A CUE sheet's fields win over its image's tags, as when the track plays.
        let tags = item.sheetTags.map { (facts?.tags ?? SongInfo.Tags()).overridden(by: $0) } ?? facts?.tags ?? SongInfo.Tags()
        name = tags.displayName(or: item.title ?? "\(item.path.lastComponent)")
        queued = list.upNext.firstIndex(of: entry).map { $0 + 1 }
        album = tags.album ?? ""
        length = withLength ? facts?.seconds.map { TimeFormat.clock($0) } ?? "" : ""
    }

    func rendered(_ layout: Layout, underCursor: Bool) -> StyledLine {
        var line = StyledLine()
        let style: StyledLine.Style = underCursor ? .reverse : isCurrent ? .green : failure != nil ? .red : .plain
        let mark = (underCursor ? ">" : " ") + (isCurrent ? "▶" : failure != nil ? "✗" : " ")
        let number = String(place)
        var text = mark + String(repeating: " ", count: layout.placeWidth - number.count) + number + "  "
        // A queued entry leads with its place in the queue: `(1) Artist – Title`.
        let shownName = queued.map { "(\($0)) " } ?? ""
        text += TextWidth.pad(TextWidth.fit(shownName + TerminalText.safe(name), layout.nameWidth), to: layout.nameWidth)
        let second = failure.map { "can't play: " + $0 } ?? album
        if layout.albumWidth > 0 {
            text += "  " + TextWidth.pad(TextWidth.fit(TerminalText.safe(second), layout.albumWidth), to: layout.albumWidth)
        }
        let shownLength = TextWidth.fit(length, ListRow.Layout.lengthWidth)
        text += String(repeating: " ", count: ListRow.Layout.lengthWidth - shownLength.count) + shownLength
        line.append(text, style)
        return line
    }
}
