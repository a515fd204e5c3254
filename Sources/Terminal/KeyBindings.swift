import PlayerCore

/// Which key does what: the bindings everywhere, and the list view's own (which win over them
/// in the view). Built from a ready-made set (`keys = mpv`) and changed by `bind` and `unbind`.
public struct KeyBindings: Equatable, Sendable {
    private var main = BindingTable()
    private var list = BindingTable()

    /// The bindings in the order they were made: the help lists each action's keys so.
    public var everywhere: [(key: Key, action: Action)] { main.pairs }
    public var inList: [(key: Key, action: Action)] { list.pairs }

    public init() {}

    /// What `key` does outside the list view.
    public func action(for key: Key) -> Action? {
        main.action(for: key)
    }

    /// What `key` does in the list view: its own binding, else what it does everywhere.
    public func listAction(for key: Key) -> Action? {
        list.action(for: key) ?? action(for: key)
    }

    /// The first key bound to `action` outside the list view (what a hint names).
    public func firstKey(for action: Action) -> Key? {
        main.firstKey(for: action)
    }

    /// Binds `key` to `action` (the list view's actions in the view only), in place of what it
    /// did there.
    public mutating func bind(_ key: Key, to action: Action) {
        if action.isListAction {
            list.bind(key, to: action)
        } else {
            main.bind(key, to: action)
        }
    }

    /// `key` does nothing any more, anywhere.
    public mutating func unbind(_ key: Key) {
        main.unbind(key)
        list.unbind(key)
    }

    /// The ready-made sets, by the name `keys =` gives.
    public static func preset(_ name: String) -> KeyBindings? {
        switch name {
        case "tplayer": standard
        case "mpv": mpv
        case "cmus": cmus
        default: nil
        }
    }

    public static let presetNames = ["tplayer", "mpv", "cmus"]

    /// tplayer's own keys.
    public static let standard: KeyBindings = {
        var keys = KeyBindings()
        keys.bindAll([
            (.character(" "), .playPause), (.character("p"), .play), (.character("s"), .pause),
            (.right, .seekForward), (.left, .seekBack), (.up, .seekForwardLong), (.down, .seekBackLong),
            (.character("g"), .restart),
        ])
        for digit in 0...9 { keys.bind(.character(Character("\(digit)")), to: .jump(percent: digit * 10)) }
        keys.bindAll([
            (.character("n"), .next), (.character("b"), .previous), (.character("N"), .nextAlbum), (.character("B"), .previousAlbum),
            (.character("+"), .volumeUp), (.character("="), .volumeUp), (.character("-"), .volumeDown),
            (.character("m"), .mute), (.character("r"), .toggleRepeat), (.character("z"), .toggleShuffle),
            (.character("R"), .repeatOne), (.character("C"), .stopAfter), (.character("A"), .albumMode), (.character("E"), .equalizer), (.character("X"), .crossfade), (.character("T"), .sleep), (.character("i"), .info), (.character("l"), .load),
            (.character("["), .slower), (.character("]"), .faster), (.backspace, .normalSpeed),
            (.tab, .list), (.character("v"), .list), (.character("L"), .library), (.character("o"), .nowPlaying),
            (.character("h"), .help), (.character("?"), .help), (.character("q"), .quit), (.character(":"), .commandLine),
        ])
        keys.bindListKeys(remove: [.character("d"), .delete], moveUp: .character("K"), moveDown: .character("J"))
        return keys
    }()

    /// mpv's habits: space and p pause, ← → 5 s, ↑ ↓ a minute, < > the list, 9 0 the volume,
    /// m mute, i the details, L repeat the file, q quit; F8 and Tab the list view (mpv's F8 shows the
    /// playlist). tplayer's digits 1–8 and its other letters stay where mpv leaves them free.
    public static let mpv: KeyBindings = {
        var keys = standard
        keys.unbind(.character("0"))
        keys.unbind(.character("9"))
        keys.bindAll([
            (.character("p"), .playPause), (.character("<"), .previous), (.character(">"), .next),
            (.enter, .next), (.character("9"), .volumeDown), (.character("0"), .volumeUp),
            (.character("/"), .volumeDown), (.character("*"), .volumeUp), (.character("L"), .repeatOne),
            (.character("I"), .info), (.escape, .quit), (.function(8), .list), (.function(7), .library), (.function(9), .nowPlaying),
        ])
        return keys
    }()

    /// cmus's habits: z x c v b are previous, play (the song playing from its start), pause,
    /// stop (back to the song's start), next; B Z the next album, the album before; ← → 5 s, , . a minute;
    /// r repeat, s shuffle, Ctrl-R repeat the song, C stop after it, + - the volume; e queues in
    /// the list view; 1 … 7 are cmus's views, so the digits do not jump,
    /// and 2 or 3 (the playlist, sorted view) opens the list view, where D removes and p P move.
    public static let cmus: KeyBindings = {
        var keys = standard
        for digit in 0...9 { keys.unbind(.character(Character("\(digit)"))) }
        keys.unbind(.character("g"))
        keys.bindAll([
            (.character("z"), .previous), (.character("x"), .playFromStart), (.character("c"), .playPause),
            (.character("v"), .stop), (.character("b"), .next), (.character("s"), .toggleShuffle),
            (.character(","), .seekBackLong), (.character("."), .seekForwardLong),
            (.character("2"), .list), (.character("3"), .list), (.character("m"), .mute),
            (.control("r"), .repeatOne), (.character("1"), .library), (.character("8"), .nowPlaying),
            (.character("B"), .nextAlbum), (.character("Z"), .previousAlbum),
        ])
        keys.unbind(.character("n"))
        keys.unbind(.character("N"))
        keys.bindListKeys(remove: [.character("D"), .delete], moveUp: .character("P"), moveDown: .character("p"))
        return keys
    }()

    private mutating func bindAll(_ pairs: [(Key, Action)]) {
        for (key, action) in pairs { bind(key, to: action) }
    }

    private mutating func bindListKeys(remove: [Key], moveUp: Key, moveDown: Key) {
        list = BindingTable()
        bindAll([
            (.up, .cursorUp), (.down, .cursorDown), (.pageUp, .pageUp), (.pageDown, .pageDown),
            (.home, .first), (.end, .last), (.enter, .playEntry), (.character("/"), .search),
            (.character("n"), .searchNext), (.character("N"), .searchPrevious),
        ])
        bindAll(remove.map { ($0, .remove) } + [(moveUp, .moveUp), (moveDown, .moveDown)])
        bindAll([(.character("e"), .queue), (.character("l"), .add), (.character("w"), .save), (.escape, .closeList)])
    }

    /// The help's rows: each action's keys and what it does, in the help's order, the digits'
    /// jumps on one line when they are the ten of them. `inList`: the list view's own first.
    /// The help's rows: in the list view (`inListView`) or the library view (`inLibraryView`),
    /// its own keys first, then those that work everywhere; outside them, those alone; `nil`:
    /// every view's, by view (the README's and the manual's).
    public func rows(_ steps: Steps, inListView: Bool? = nil, inLibraryView: Bool = false) -> [(keys: String, help: String)] {
        func row(_ bindings: [(key: Key, action: Action)], _ action: Action) -> (String, String)? {
            var actions = [action]
            actions += Action.plain.filter { $0.sharesLineWith == action }
            let keys = actions.flatMap { one in bindings.filter { $0.action == one }.map(\.key) }
            guard !keys.isEmpty, action.sharesLineWith == nil || !bindings.contains(where: { $0.action == action.sharesLineWith }) else { return nil }
            return (keys.map(KeyBindings.name).joined(separator: " "), action.help(steps))
        }
        var main: [(String, String)] = []
        for action in Action.plain where !action.isListAction {
            if action == .next {
                main += jumpRows(steps)
            }
            if var row = row(everywhere, action) {
                if action == .list { row.1 = "the list view, full screen (\(backKeys) goes back)" }
                main.append(row)
            }
        }
        var list: [(String, String)] = []
        for action in Action.plain where action.isListAction && action != .closeList {
            if let row = row(inList, action) { list.append(row) }
        }
        // Ctrl-C always quits (a signal, not a binding): said where no key is bound to quit.
        if firstKey(for: .quit) == nil { main.append(("Ctrl-C", Action.quit.help(steps))) }
        // Every view's keys, as cmus's `7` lists every binding by view (the list view's and
        // the library view's were said only in their one-line headers).
        if inLibraryView { return Self.libraryRows + [("", "Every other key means what it means everywhere (h there lists them).")] }
        switch inListView {
        case true?: return list + [("", "Everywhere:")] + main
        case false?: return main
        case nil: return main + [("", "In the list view:")] + list + [("", "In the library view:")] + Self.libraryRows
        }
    }

    /// The library view's own keys (its moving, filtering and rating keys are fixed).
    static let libraryRows: [(String, String)] = [
        ("↑ ↓ PgUp PgDn Home End", "move"),
        ("Enter", "open or close an artist, an album or a playlist; on a song, play its album or playlist from it"),
        ("←", "close the artist or the playlist the cursor is in"),
        ("a", "add what is under the cursor to the end of the list"),
        ("e", "the same, queued to play next"),
        ("P", "make it the list, and play it (a smart playlist filled again)"),
        ("/", "filter as you type (Enter keeps it, Esc clears it)"),
        ("t", "the tree, all songs sorted, or the playlists"),
        ("w", "in the playlists: save the list as a new playlist"),
        ("r D", "in the playlists: rename the one under the cursor; delete it (y confirms)"),
        ("o", "sort the songs by other fields (↑ recalls the order in force)"),
        ("u", "bring the library up to date (:scan FOLDER adds a folder)"),
        ("0 … 5", "rate the song under the cursor (0 clears it)"),
        ("Esc", "clear the filter; again, back"),
    ]

    /// The list view's title hint, from the keys in force: `↑↓ Enter / n d K J l w, Tab back,
    /// h keys` with tplayer's own keys, `… D P p …` with cmus's.
    public var listHint: String {
        func first(_ action: Action) -> String? {
            (list.firstKey(for: action) ?? main.firstKey(for: action)).map(KeyBindings.name)
        }
        let cursor = [first(.cursorUp), first(.cursorDown)].compactMap { $0 }.joined()
        let keys = ([cursor] + [Action.playEntry, .search, .searchNext, .remove, .moveUp, .moveDown, .queue, .add, .save].compactMap(first))
            .filter { !$0.isEmpty }.joined(separator: " ")
        let back = [first(.list), first(.closeList)].compactMap { $0 }.first.map { ", \($0) back" } ?? ""
        let help = main.firstKey(for: .help).map { ", \(KeyBindings.name($0)) keys" } ?? ""
        return keys + back + help
    }

    /// What the list view says when the list is empty, naming the key that adds.
    public var emptyListHint: String {
        guard let add = list.firstKey(for: .add) ?? main.firstKey(for: .load) else { return "The list is empty." }
        return "The list is empty: \(KeyBindings.name(add)) loads a song, folder or playlist."
    }

    /// The keys that leave the list view, as the help says them: `Tab, v or Esc`.
    private var backKeys: String {
        let names = (everywhere.filter { $0.action == .list } + inList.filter { $0.action == .closeList }).map { KeyBindings.name($0.key) }
        guard names.count > 1 else { return names.first ?? "the same key" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// The jumps: one line when the ten digits jump to 0 … 90 %, else a line each.
    private func jumpRows(_ steps: Steps) -> [(String, String)] {
        let jumps = everywhere.filter { if case .jump = $0.action { true } else { false } }
        let tens = (0...9).map { (Key.character(Character("\($0)")), Action.jump(percent: $0 * 10)) }
        if jumps.count == 10, tens.allSatisfy({ ten in jumps.contains { $0.key == ten.0 && $0.action == ten.1 } }) {
            return [("0 … 9", "jump to 0 %, 10 %, … 90 % of the song")]
        }
        return jumps.map { (KeyBindings.name($0.key), $0.action.help(steps)) }
    }
}

/// Keys bound to actions, each key once, in the order they were bound (a key bound again moves
/// to the end): a binding, a rebinding and a look-up each take about the same time however many
/// there are (a settings file of 70,000 `bind` lines took 46 s when each bind searched them all).
struct BindingTable: Equatable, Sendable {
    /// The bindings in order; nil where one was replaced or taken away.
    private var slots: [(key: Key, action: Action)?] = []
    /// Where each key's binding is in `slots`.
    private var places: [Key: Int] = [:]

    static func == (a: BindingTable, b: BindingTable) -> Bool {
        a.pairs.map(\.key) == b.pairs.map(\.key) && a.pairs.map(\.action) == b.pairs.map(\.action)
    }

    var pairs: [(key: Key, action: Action)] { slots.compactMap { $0 } }

    func action(for key: Key) -> Action? {
        places[key].flatMap { slots[$0]?.action }
    }

    func firstKey(for action: Action) -> Key? {
        for slot in slots { if let slot, slot.action == action { return slot.key } }
        return nil
    }

    mutating func bind(_ key: Key, to action: Action) {
        unbind(key)
        places[key] = slots.count
        slots.append((key, action))
    }

    mutating func unbind(_ key: Key) {
        guard let place = places.removeValue(forKey: key) else { return }
        slots[place] = nil
        // Gaps are closed once they are half the slots: each binding moves a bounded number of times.
        if slots.count > 64, places.count < slots.count / 2 {
            slots = slots.filter { $0 != nil }
            for (place, slot) in slots.enumerated() { if let slot { places[slot.key] = place } }
        }
    }
}
