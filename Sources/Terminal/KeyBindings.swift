import PlayerCore

/// What a key can be bound to: an action everywhere (play / pause, next…), or one of the list
/// view's own (the cursor, the search, the edits). Each has the name a configuration file
/// binds it by (`bind x next`) and the line the help shows for it.
public enum Action: Hashable, Sendable {
    case playPause, play, pause
    case seekForward, seekBack, seekForwardLong, seekBackLong, restart
    /// To this percent of the song (0–99).
    case jump(percent: Int)
    case next, previous, volumeUp, volumeDown, mute, toggleRepeat, toggleShuffle
    case info, load, help, quit, list
    // The list view's own.
    case cursorUp, cursorDown, pageUp, pageDown, first, last, playEntry
    case search, searchNext, searchPrevious, remove, moveUp, moveDown, add, save, closeList

    /// Every action but `jump`, in the order the help lists them.
    public static let plain: [Action] = [
        .playPause, .play, .pause, .seekForward, .seekBack, .seekForwardLong, .seekBackLong, .restart,
        .next, .previous, .volumeUp, .volumeDown, .mute, .toggleRepeat, .toggleShuffle, .info, .load, .list, .help, .quit,
        .cursorUp, .cursorDown, .pageUp, .pageDown, .first, .last, .playEntry, .search, .searchNext, .searchPrevious,
        .remove, .moveUp, .moveDown, .add, .save, .closeList,
    ]

    /// The name a configuration file uses (`jump 30%` for a jump).
    public var name: String {
        switch self {
        case .playPause: "play-pause"
        case .play: "play"
        case .pause: "pause"
        case .seekForward: "seek-forward"
        case .seekBack: "seek-back"
        case .seekForwardLong: "seek-forward-long"
        case .seekBackLong: "seek-back-long"
        case .restart: "restart"
        case .jump(let percent): "jump \(percent)%"
        case .next: "next"
        case .previous: "previous"
        case .volumeUp: "volume-up"
        case .volumeDown: "volume-down"
        case .mute: "mute"
        case .toggleRepeat: "repeat"
        case .toggleShuffle: "shuffle"
        case .info: "info"
        case .load: "load"
        case .help: "help"
        case .quit: "quit"
        case .list: "list-view"
        case .cursorUp: "cursor-up"
        case .cursorDown: "cursor-down"
        case .pageUp: "page-up"
        case .pageDown: "page-down"
        case .first: "first"
        case .last: "last"
        case .playEntry: "play-entry"
        case .search: "search"
        case .searchNext: "search-next"
        case .searchPrevious: "search-previous"
        case .remove: "remove"
        case .moveUp: "move-up"
        case .moveDown: "move-down"
        case .add: "add"
        case .save: "save"
        case .closeList: "close-list"
        }
    }

    /// The action a configuration file names: one of `plain`'s names, or `jump N%`.
    public static func named(_ text: String) -> Action? {
        if let action = plain.first(where: { $0.name == text }) { return action }
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, words[0] == "jump", words[1].hasSuffix("%"),
              let percent = Int(words[1].dropLast()), (0...99).contains(percent) else { return nil }
        return .jump(percent: percent)
    }

    /// Whether it is the list view's own (it means something only there).
    public var isListAction: Bool {
        switch self {
        case .cursorUp, .cursorDown, .pageUp, .pageDown, .first, .last, .playEntry, .search, .searchNext,
             .searchPrevious, .remove, .moveUp, .moveDown, .add, .save, .closeList: true
        case .playPause, .play, .pause, .seekForward, .seekBack, .seekForwardLong, .seekBackLong, .restart, .jump,
             .next, .previous, .volumeUp, .volumeDown, .mute, .toggleRepeat, .toggleShuffle, .info, .load, .help, .quit,
             .list: false
        }
    }

    /// What it asks of the player, with the steps the settings give; `nil` for the list view's
    /// own actions (the view does them).
    public func command(_ steps: Steps) -> Command? {
        switch self {
        case .playPause: .toggle
        case .play: .play
        case .pause: .stop
        case .seekForward: .seek(.by(Steps.time(steps.seek)))
        case .seekBack: .seek(.by(Steps.time(-steps.seek)))
        case .seekForwardLong: .seek(.by(Steps.time(steps.longSeek)))
        case .seekBackLong: .seek(.by(Steps.time(-steps.longSeek)))
        case .restart: .seek(.to(.zero))
        case .jump(let percent): .seek(.fraction(permyriad: Int64(percent) * 100))
        case .next: .next
        case .previous: .previous
        case .volumeUp: .changeVolume(by: steps.volume)
        case .volumeDown: .changeVolume(by: -steps.volume)
        case .mute: .toggleMute
        case .toggleRepeat: .toggleRepeat
        case .toggleShuffle: .toggleShuffle
        case .info: .info
        case .load: .promptLoad
        case .help: .help
        case .quit: .quit
        case .list: .listView
        case .cursorUp, .cursorDown, .pageUp, .pageDown, .first, .last, .playEntry, .search, .searchNext,
             .searchPrevious, .remove, .moveUp, .moveDown, .add, .save, .closeList: nil
        }
    }

    /// The help's line for it.
    public func help(_ steps: Steps) -> String {
        switch self {
        case .playPause: "play / pause"
        case .play: "play"
        case .pause: "pause (the place is kept)"
        case .seekForward: "\(Steps.seconds(steps.seek)) forward (past the end: the next song)"
        case .seekBack: "\(Steps.seconds(steps.seek)) back"
        case .seekForwardLong: steps.longSeek == 60 ? "a minute forward" : "\(Steps.seconds(steps.longSeek)) forward"
        case .seekBackLong: steps.longSeek == 60 ? "a minute back" : "\(Steps.seconds(steps.longSeek)) back"
        case .restart: "back to the start of the song"
        case .jump(let percent): "jump to \(percent) % of the song"
        case .next: "next in the list"
        case .previous: "previous in the list"
        case .volumeUp: "volume up \(steps.volume) %"
        case .volumeDown: "volume down \(steps.volume) %"
        case .mute: "mute on / off"
        case .toggleRepeat: "repeat the list on / off"
        case .toggleShuffle: "shuffle on / off"
        case .info: "the song's details (tags, stream, length, path)"
        case .load: "load a song, folder or playlist (Tab completes, Esc cancels)"
        case .list: "the list view, full screen (the same key goes back)"
        case .help: "show these keys"
        case .quit: "quit"
        case .cursorUp, .cursorDown: "move the cursor (in the list view arrows move, they do not seek)"
        case .pageUp, .pageDown: "a page up, down"
        case .first, .last: "the first, the last entry"
        case .playEntry: "play the entry under the cursor"
        case .search: "search as you type (title, artist, album, path; any case or accent)"
        case .searchNext, .searchPrevious: "the next, the previous match"
        case .remove: "take the entry out of the list (the playing one: the next plays)"
        case .moveUp, .moveDown: "move the entry up, down"
        case .add: "add a song, folder or playlist after the entry (Tab completes)"
        case .save: "save the list as a new .m3u8 playlist (never over a file)"
        case .closeList: "back from the list view"
        }
    }

    /// Actions that share a help line (↑ ↓: the cursor), by the first of them.
    var sharesLineWith: Action? {
        switch self {
        case .cursorDown: .cursorUp
        case .pageDown: .pageUp
        case .last: .first
        case .searchPrevious: .searchNext
        case .moveDown: .moveUp
        case .playPause, .play, .pause, .seekForward, .seekBack, .seekForwardLong, .seekBackLong, .restart, .jump,
             .next, .previous, .volumeUp, .volumeDown, .mute, .toggleRepeat, .toggleShuffle, .info, .load, .help, .quit,
             .list, .cursorUp, .pageUp, .first, .playEntry, .search, .searchNext, .remove, .moveUp, .add, .save,
             .closeList: nil
        }
    }
}

/// How far the step keys go: the volume in percentage points, the seeks in seconds.
public struct Steps: Equatable, Sendable {
    public var volume = 5
    public var seek = 5.0
    public var longSeek = 60.0

    public init(volume: Int = 5, seek: Double = 5, longSeek: Double = 60) {
        self.volume = volume
        self.seek = seek
        self.longSeek = longSeek
    }

    /// `seconds` as a span to seek by (whole seconds exactly as `.seconds` makes them).
    static func time(_ seconds: Double) -> AudioTime {
        if seconds == seconds.rounded(), abs(seconds) < 1e9 { return .seconds(Int64(seconds)) }
        return AudioTime(microseconds: Int64((seconds * 1_000_000).rounded())) ?? .zero
    }

    /// `5 s`, `2.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

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
            (.character("n"), .next), (.character("b"), .previous),
            (.character("+"), .volumeUp), (.character("="), .volumeUp), (.character("-"), .volumeDown),
            (.character("m"), .mute), (.character("r"), .toggleRepeat), (.character("z"), .toggleShuffle),
            (.character("i"), .info), (.character("l"), .load), (.tab, .list), (.character("v"), .list),
            (.character("h"), .help), (.character("?"), .help), (.character("q"), .quit),
        ])
        keys.bindListKeys(remove: [.character("d"), .delete], moveUp: .character("K"), moveDown: .character("J"))
        return keys
    }()

    /// mpv's habits: space and p pause, ← → 5 s, ↑ ↓ a minute, < > the list, 9 0 the volume,
    /// m mute, i the details, L repeat, q quit; F8 and Tab the list view (mpv's F8 shows the
    /// playlist). tplayer's digits 1–8 and its other letters stay where mpv leaves them free.
    public static let mpv: KeyBindings = {
        var keys = standard
        keys.unbind(.character("0"))
        keys.unbind(.character("9"))
        keys.bindAll([
            (.character("p"), .playPause), (.character("<"), .previous), (.character(">"), .next),
            (.enter, .next), (.character("9"), .volumeDown), (.character("0"), .volumeUp),
            (.character("/"), .volumeDown), (.character("*"), .volumeUp), (.character("L"), .toggleRepeat),
            (.character("I"), .info), (.escape, .quit), (.function(8), .list),
        ])
        return keys
    }()

    /// cmus's habits: z x c v b are previous, play, pause, stop, next; ← → 5 s, , . a minute;
    /// r repeat, s shuffle, + - the volume; 1 … 7 are cmus's views, so the digits do not jump,
    /// and 2 or 3 (the playlist, sorted view) opens the list view, where D removes and p P move.
    public static let cmus: KeyBindings = {
        var keys = standard
        for digit in 0...9 { keys.unbind(.character(Character("\(digit)"))) }
        keys.unbind(.character("g"))
        keys.bindAll([
            (.character("z"), .previous), (.character("x"), .play), (.character("c"), .playPause),
            (.character("v"), .pause), (.character("b"), .next), (.character("s"), .toggleShuffle),
            (.character(","), .seekBackLong), (.character("."), .seekForwardLong),
            (.character("2"), .list), (.character("3"), .list), (.character("m"), .mute),
        ])
        keys.unbind(.character("n"))
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
        bindAll([(.character("l"), .add), (.character("w"), .save), (.escape, .closeList)])
    }

    /// The help's rows: each action's keys and what it does, in the help's order, the digits'
    /// jumps on one line when they are the ten of them. `inList`: the list view's own first.
    public func rows(_ steps: Steps, inListView: Bool? = nil) -> [(keys: String, help: String)] {
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
        switch inListView {
        case true?: return list + [("", "Everywhere:")] + main
        case false?: return main
        case nil: return main + [("", "In the list view:")] + list
        }
    }

    /// The list view's title hint, from the keys in force: `↑↓ Enter / n d K J l w, Tab back,
    /// h keys` with tplayer's own keys, `… D P p …` with cmus's.
    public var listHint: String {
        func first(_ action: Action) -> String? {
            (list.firstKey(for: action) ?? main.firstKey(for: action)).map(KeyBindings.name)
        }
        let cursor = [first(.cursorUp), first(.cursorDown)].compactMap { $0 }.joined()
        let keys = ([cursor] + [Action.playEntry, .search, .searchNext, .remove, .moveUp, .moveDown, .add, .save].compactMap(first))
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
