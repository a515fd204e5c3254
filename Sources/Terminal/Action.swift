import PlayerCore

/// What a key can be bound to: an action everywhere (play / pause, next…), or one of the list
/// view's own (the cursor, the search, the edits). Each has the name a configuration file
/// binds it by (`bind x next`) and the line the help shows for it.
public enum Action: Hashable, Sendable {
    case playPause, play, pause, stop, playFromStart
    case seekForward, seekBack, seekForwardLong, seekBackLong, restart
    /// To this percent of the song (0–99).
    case jump(percent: Int)
    case next, previous, nextAlbum, previousAlbum, volumeUp, volumeDown, mute, toggleRepeat, toggleShuffle, repeatOne, stopAfter, albumMode, equalizer, crossfade, sleep
    case slower, faster, normalSpeed
    case info, load, commandLine, help, quit, list, library, nowPlaying
    // The list view's own.
    case cursorUp, cursorDown, pageUp, pageDown, first, last, playEntry
    case search, searchNext, searchPrevious, remove, moveUp, moveDown, queue, add, save, closeList

    /// The factor `slower` and `faster` change the speed by (mpv's `[` `]`).
    public static let speedStep = 1.1

    /// Every action but `jump`, in the order the help lists them.
    public static let plain: [Action] = [
        .playPause, .play, .pause, .stop, .playFromStart, .seekForward, .seekBack, .seekForwardLong, .seekBackLong, .restart,
        .next, .previous, .nextAlbum, .previousAlbum, .volumeUp, .volumeDown, .mute, .toggleRepeat, .toggleShuffle, .repeatOne, .stopAfter, .albumMode, .equalizer, .crossfade, .sleep, .slower, .faster, .normalSpeed,
        .info, .load, .commandLine, .list, .library, .nowPlaying, .help, .quit,
        .cursorUp, .cursorDown, .pageUp, .pageDown, .first, .last, .playEntry, .search, .searchNext, .searchPrevious,
        .remove, .moveUp, .moveDown, .queue, .add, .save, .closeList,
    ]

    /// The name a configuration file uses (`jump 30%` for a jump).
    public var name: String {
        switch self {
        case .playPause: "play-pause"
        case .play: "play"
        case .pause: "pause"
        case .stop: "stop"
        case .playFromStart: "play-from-start"
        case .seekForward: "seek-forward"
        case .seekBack: "seek-back"
        case .seekForwardLong: "seek-forward-long"
        case .seekBackLong: "seek-back-long"
        case .restart: "restart"
        case .jump(let percent): "jump \(percent)%"
        case .next: "next"
        case .previous: "previous"
        case .nextAlbum: "next-album"
        case .previousAlbum: "previous-album"
        case .volumeUp: "volume-up"
        case .volumeDown: "volume-down"
        case .mute: "mute"
        case .toggleRepeat: "repeat"
        case .toggleShuffle: "shuffle"
        case .repeatOne: "repeat-one"
        case .stopAfter: "stop-after"
        case .albumMode: "album-mode"
        case .equalizer: "equalizer"
        case .crossfade: "crossfade"
        case .sleep: "sleep-timer"
        case .slower: "speed-down"
        case .faster: "speed-up"
        case .normalSpeed: "speed-reset"
        case .info: "info"
        case .load: "load"
        case .commandLine: "command-line"
        case .help: "help"
        case .quit: "quit"
        case .list: "list-view"
        case .library: "library-view"
        case .nowPlaying: "now-playing-view"
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
        case .queue: "queue"
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
             .searchPrevious, .remove, .moveUp, .moveDown, .queue, .add, .save, .closeList: true
        case .playPause, .play, .pause, .stop, .playFromStart, .seekForward, .seekBack, .seekForwardLong, .seekBackLong, .restart, .jump,
             .next, .previous, .nextAlbum, .previousAlbum, .volumeUp, .volumeDown, .mute, .toggleRepeat, .toggleShuffle, .repeatOne, .stopAfter, .albumMode, .equalizer, .crossfade, .sleep,
             .slower, .faster, .normalSpeed, .info, .load, .commandLine, .help, .quit, .list, .library, .nowPlaying: false
        }
    }

    /// What it asks of the player, with the steps the settings give; `nil` for the list view's
    /// own actions (the view does them).
    public func command(_ steps: Steps) -> Command? {
        switch self {
        case .playPause: .toggle
        case .play: .play
        case .pause: .stop
        case .stop: .rewind
        case .playFromStart: .playFromStart
        case .seekForward: .seek(.by(Steps.time(steps.seek)))
        case .seekBack: .seek(.by(Steps.time(-steps.seek)))
        case .seekForwardLong: .seek(.by(Steps.time(steps.longSeek)))
        case .seekBackLong: .seek(.by(Steps.time(-steps.longSeek)))
        case .restart: .seek(.to(.zero))
        case .jump(let percent): .seek(.fraction(permyriad: Int64(percent) * 100))
        case .next: .next
        case .previous: .previous
        case .nextAlbum: .nextAlbum
        case .previousAlbum: .previousAlbum
        case .volumeUp: .changeVolume(by: steps.volume)
        case .volumeDown: .changeVolume(by: -steps.volume)
        case .mute: .toggleMute
        case .toggleRepeat: .toggleRepeat
        case .toggleShuffle: .toggleShuffle
        case .repeatOne: .toggleRepeatOne
        case .stopAfter: .toggleStopAfter
        case .albumMode: .toggleAlbumMode
        case .equalizer: .toggleEqualizer
        case .crossfade: .toggleCrossfade
        case .sleep: .setSleep(.next)
        case .slower: .changeSpeed(by: 1 / Self.speedStep)
        case .faster: .changeSpeed(by: Self.speedStep)
        case .normalSpeed: .speed(1)
        case .info: .info
        case .load: .promptLoad
        case .commandLine: .promptCommand
        case .help: .help
        case .quit: .quit
        case .list: .listView
        case .library: .libraryView
        case .nowPlaying: .nowPlayingView
        case .cursorUp, .cursorDown, .pageUp, .pageDown, .first, .last, .playEntry, .search, .searchNext,
             .searchPrevious, .remove, .moveUp, .moveDown, .queue, .add, .save, .closeList: nil
        }
    }

    /// The help's line for it.
    public func help(_ steps: Steps) -> String {
        switch self {
        case .playPause: "play / pause"
        case .play: "play"
        case .pause: "pause (the place is kept)"
        case .stop: "stop, back to the song's start (play starts it again)"
        case .playFromStart: "play; the song playing or paused from its start"
        case .seekForward: "\(Steps.seconds(steps.seek)) forward (past the end: the next song)"
        case .seekBack: "\(Steps.seconds(steps.seek)) back"
        case .seekForwardLong: steps.longSeek == 60 ? "a minute forward" : "\(Steps.seconds(steps.longSeek)) forward"
        case .seekBackLong: steps.longSeek == 60 ? "a minute back" : "\(Steps.seconds(steps.longSeek)) back"
        case .restart: "back to the start of the song"
        case .jump(let percent): "jump to \(percent) % of the song"
        case .next, .nextAlbum: "next in the list; the next album's first song"
        case .previous, .previousAlbum: "previous in the list; the first song of the album before"
        case .volumeUp: "volume up \(steps.volume) %"
        case .volumeDown: "volume down \(steps.volume) %"
        case .mute: "mute on / off"
        case .toggleRepeat, .repeatOne: "repeat the list, the song playing (each on / off)"
        case .toggleShuffle: "shuffle: by song, by album, off (in turn; the status line says which)"
        case .stopAfter: "stop when the song playing ends (once)"
        case .albumMode: "album mode on / off: stop at the end of each album"
        case .equalizer: "equalizer on / off (the settings' equalizer = or equalizer-preset =)"
        case .crossfade: "crossfade on / off (--crossfade, the settings' crossfade =; 5 s when none is set)"
        case .sleep: "sleep timer: 15, 30, 45, 60, 90 min, the album's end, off (the last 30 s fade out)"
        case .slower, .faster, .normalSpeed: "slower, faster at the same pitch (÷ or × 1.1, from 0.25 to 4), its own speed"
        case .info: "the song's details (tags, stream, length, path)"
        case .load: "load a song, folder or playlist (Tab completes, Esc cancels)"
        case .commandLine: "a command, as a script says it: volume 50, seek 1:30, add PATH, scan [FOLDER]"
        case .list: "the list view, full screen (the same key goes back)"
        case .library: "the library: artists, albums, songs; / filters (tplayer --scan fills it)"
        case .nowPlaying: "now playing, full screen: the cover, the lyrics as they are sung, the next songs"
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
        case .queue: "queue the entry to play next, after those queued (again: out of the queue)"
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
        case .faster, .normalSpeed: .slower
        case .repeatOne: .toggleRepeat
        case .nextAlbum: .next
        case .previousAlbum: .previous
        case .playPause, .play, .pause, .stop, .playFromStart, .seekForward, .seekBack, .seekForwardLong, .seekBackLong, .restart, .jump,
             .next, .previous, .volumeUp, .volumeDown, .mute, .toggleRepeat, .toggleShuffle, .stopAfter, .albumMode, .equalizer, .crossfade, .sleep,
             .slower, .info, .load, .commandLine, .help, .quit, .list, .library, .nowPlaying, .cursorUp, .pageUp, .first, .playEntry, .search, .searchNext, .remove,
             .moveUp, .queue, .add, .save, .closeList: nil
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
