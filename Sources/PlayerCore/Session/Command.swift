/// What a person (a key) or a script asks the player to do.
public enum Command: Equatable, Sendable, CustomStringConvertible {
    case play
    case stop
    /// Stop and go back to the song's start (MPRIS's `Stop`); `play` then plays it from there.
    case rewind
    case toggle
    /// Play from the song's start: the song playing or paused starts again (cmus's `x`).
    case playFromStart
    case next
    case previous
    /// The first song of the next album in the play order, of the album before (cmus's `B`
    /// and `Z`): the albums are read first, if they are not known yet.
    case nextAlbum
    case previousAlbum
    /// Play what this path names (a song, folder or playlist) now; the list goes on after it.
    /// A path that cannot be played is reported and the song playing goes on.
    case load(Path)
    case quit
    case toggleRepeat
    case toggleShuffle
    case setRepeat(Bool)
    case setShuffle(Bool)
    /// Shuffle off, by song or by album (`toggleShuffle` goes round the three).
    case setShuffleMode(Shuffle)
    /// Something of the named playlists: save the list as one, open one, add to one…
    case playlist(PlaylistRequest)
    case seek(SeekTarget)
    /// Software volume in percent, 0–100.
    case volume(Int)
    /// The volume up or down by this many percentage points (and unmuted).
    case changeVolume(by: Int)
    case toggleMute
    /// Mute (true) or unmute (false), whatever it was.
    case setMute(Bool)
    /// Turn output `n` (0-based, of several: `output = pulse, snapcast`) on, off, or (`nil`)
    /// the other way (MPD's `enableoutput`, `disableoutput`, `toggleoutput`; a digit in `i`).
    case setOutput(Int, Bool?)
    /// Play this fraction faster (and higher), by playing at another rate (mpg123's `PITCH`).
    case pitch(Double)
    /// Play this many times as fast at the song's own pitch (`--speed`; 1: its own speed).
    case speed(Double)
    /// The speed times this factor (mpv's `[` `]`: 1.1 and its inverse).
    case changeSpeed(by: Double)
    /// libmpg123's equaliser bands (`-R`'s `EQ`, `SEQ`, `EQFILE`): 32 factors, left and right.
    case mpegEqualizer([[Double]])
    /// Ask for a path to load (the terminal shows a prompt).
    case promptLoad
    /// Ask for a command (the terminal's `:` prompt).
    case promptCommand
    /// Show the key list.
    case help
    /// Show the song's details (tags, stream, length, path).
    case info
    /// Show the list view, or go back from it.
    case listView
    /// Play entry `n` of the list (0-based) now (the list view's Enter).
    case playEntry(Int)
    /// Take entry `n` (0-based) out of the list; when it is the one playing, the list goes on
    /// to the next.
    case removeEntry(Int)
    /// Put what this path names (a song, folder or playlist) into the list at entry `at`
    /// (0-based), without playing it (the list view's `l`).
    case add(Path, at: Int)
    /// Empty the list, stopping what plays (MPD's `clear`); the modes stay.
    case clearList
    /// Save the list as a new M3U8 playlist at this path (the list view's `w`).
    case saveList(Path)
    /// Move entry `n` (0-based) up (`by: -1`) or down (`by: 1`) the list.
    case moveEntry(Int, by: Int)
    /// Queue entry `n` (0-based) to play next, after those queued before it; a queued one is
    /// taken out of the queue (cmus's `e`).
    case queueEntry(Int)
    /// Play the song playing again and again (cmus's Ctrl-R, mpv's `L`; MPRIS's `Track`).
    case toggleRepeatOne
    case setRepeatOne(Bool)
    /// Stop when the song playing ends, once (cmus's `C`, MPD's single mode).
    case toggleStopAfter
    case setStopAfter(Bool)
    /// Stop when each song ends (MPD's single mode without repeat).
    case setStopAfterEach(Bool)
    /// Take each song out of the list once it has played (MPD's consume mode).
    case setConsume(Bool)
    /// Shuffle the entries of this range (0-based) in place; the song playing goes first in it.
    case shuffleEntries(Range<Int>)
    /// Give the entries of this range (0-based) a priority: with shuffle on, the higher play first.
    case setPriority(UInt8, entries: Range<Int>)
    /// Play only this part of entry `n` (0-based) from its next opening; `nil`: the whole file.
    case setSpan(Int, TrackSpan?)
    /// Tag entry `n` (0-based) `name: value` besides its own tags (a stream's, from an MPD
    /// client); `value` nil: take the tags `name` given away; `name` nil too: all given.
    case tagEntry(Int, name: String?, value: String?)
    /// Stop at the end of each album, the next song ready (cmus's `m`).
    case toggleAlbumMode
    /// The graphic equaliser on or off (its bands: `setEqualizerBands`).
    case toggleEqualizer
    /// The graphic equaliser's 10 bands in dB, and whether it is on.
    case setGraphicEqualizer([Double], on: Bool)
    /// The graphic equaliser on or off, its bands kept.
    case setEqualizerOn(Bool)
    /// The crossfade at a song's end, in seconds (0: off; `--crossfade`, MPD's `crossfade`).
    case setCrossfade(Double)
    /// The crossfade off, or on at the last one set (`CrossfadeSetting.usual` when none was).
    case toggleCrossfade
    /// The fade a skip makes while crossfade is on, in seconds (0: a skip cuts).
    case setSkipFade(Double)
    /// The sleep timer (`--sleep`, `T`, a script's `sleep`).
    case setSleep(SleepTimer.Request)
    case setAlbumMode(Bool)
    /// Show the library view, or go back from it.
    case libraryView
    /// The now-playing view (the terminal's own).
    case nowPlayingView
    /// Play these songs now, put after the song playing (the library view's Enter); the list
    /// goes on after them.
    case playSongs([Path])
    /// Make these songs the list, and play it (the library view's `P`).
    case replaceWithSongs([Path])
    /// Put these songs at the end of the list (the library view's `a`).
    case appendSongs([Path])
    /// Put these songs at the end of the list and queue them to play next (the library view's `e`).
    case queueSongs([Path])

    /// The command as a script writes it (`repeat on`, `seek +5.0s`).
    public var description: String {
        switch self {
        case .play: "play"
        case .stop: "stop"
        case .rewind: "rewind"
        case .toggle: "toggle"
        case .playFromStart: "play from start"
        case .next: "next"
        case .previous: "previous"
        case .load(let path): "load \(path)"
        case .quit: "quit"
        case .toggleRepeat: "repeat toggle"
        case .toggleShuffle: "shuffle toggle"
        case .setRepeat(let on): "repeat " + (on ? "on" : "off")
        case .setShuffle(let on): "shuffle " + (on ? "on" : "off")
        case .setShuffleMode(let mode): "shuffle \(mode.rawValue)"
        case .nextAlbum: "next-album"
        case .playlist(let request): "\(request)"
        case .previousAlbum: "previous-album"
        case .seek(let target): "seek \(target)"
        case .volume(let percent): "volume \(percent)%"
        case .changeVolume(let step): "volume \(step < 0 ? "" : "+")\(step)%"
        case .toggleMute: "mute toggle"
        case .setMute(let on): "mute " + (on ? "on" : "off")
        case .setOutput(let index, let on): "output \(index + 1) " + (on.map { $0 ? "on" : "off" } ?? "toggle")
        case .pitch(let value): "pitch \(value)"
        case .speed(let value): "speed \(value)"
        case .changeSpeed(let factor): "speed ×\(factor)"
        case .mpegEqualizer: "equalizer"
        case .promptLoad: "prompt"
        case .promptCommand: "command prompt"
        case .help: "help"
        case .info: "info"
        case .listView: "list"
        case .saveList(let path): "save \(path)"
        case .add(let path, let at): "add \(path) at \(at + 1)"
        case .playEntry(let entry): "play entry \(entry + 1)"
        case .removeEntry(let entry): "remove entry \(entry + 1)"
        case .clearList: "clear"
        case .moveEntry(let entry, let step): "move entry \(entry + 1) \(step < 0 ? "up" : "down")"
        case .queueEntry(let entry): "queue \(entry + 1)"
        case .toggleRepeatOne: "repeat-one toggle"
        case .setRepeatOne(let on): "repeat-one " + (on ? "on" : "off")
        case .toggleStopAfter: "stop-after toggle"
        case .setStopAfter(let on): "stop-after " + (on ? "on" : "off")
        case .setStopAfterEach(let on): "stop-after-each " + (on ? "on" : "off")
        case .setConsume(let on): "consume " + (on ? "on" : "off")
        case .shuffleEntries(let range): "shuffle entries \(range.lowerBound + 1)–\(range.upperBound)"
        case .setPriority(let priority, let range): "priority \(priority) entries \(range.lowerBound + 1)–\(range.upperBound)"
        case .setSpan(let entry, let span): "span entry \(entry + 1) \(span.map { "\($0)" } ?? "whole")"
        case .tagEntry(let entry, let name, let value): "tag entry \(entry + 1) \(name ?? "all")\(value.map { " = \($0)" } ?? " cleared")"
        case .toggleAlbumMode: "album-mode toggle"
        case .toggleEqualizer: "equalizer toggle"
        case .setGraphicEqualizer(let gains, let on): "equalizer \(gains) \(on ? "on" : "off")"
        case .setEqualizerOn(let on): "equalizer " + (on ? "on" : "off")
        case .setCrossfade(let seconds): "crossfade \(seconds)"
        case .toggleCrossfade: "crossfade toggle"
        case .setSkipFade(let seconds): "crossfade-skip \(seconds)"
        case .setSleep(let request): "sleep \(request)"
        case .setAlbumMode(let on): "album-mode " + (on ? "on" : "off")
        case .libraryView: "library"
        case .nowPlayingView: "now-playing"
        case .playSongs(let paths): "play \(paths.count) songs"
        case .appendSongs(let paths): "add \(paths.count) songs"
        case .replaceWithSongs(let paths): "play only \(paths.count) songs"
        case .queueSongs(let paths): "queue \(paths.count) songs"
        }
    }
}

extension String {
    /// `self` padded with spaces to at least `length` characters.
    public func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
