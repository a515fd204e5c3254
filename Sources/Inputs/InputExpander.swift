import Files
import PlayerCore

/// Turns what the user names (files, directories, playlists, in any mix) into the list of songs.
///
/// - A directory gives its audio files (`audioExtensions`, any case), recursively, in
///   natural order (`track2` before `track10`), hidden entries skipped; a directory reached
///   twice through symbolic links is walked once.
/// - A playlist (M3U, M3U8, PLS) gives its entries, resolved against its own folder; an entry
///   may be another playlist or a directory. A playlist that includes itself, directly or not,
///   is reported at the line that would close the cycle and not followed.
/// - A CUE sheet gives one entry per track, each a span of its image file (`addSheet`); in a
///   folder, a sheet stands for the image files it names, which are not listed again.
/// - An entry that does not exist is reported (`list.m3u:12: no such file: x.mp3`) and skipped:
///   by the loader when it is reached, or here already with `checksEntries` (`--check`, scripts).
///   Not checking here keeps a 100,000-entry list from costing 100,000 `stat` calls at start.
///
/// Paths stay bytes throughout, so names that are not UTF-8 play. Only regular files are read
/// as playlists, a playlist is read in chunks (never whole), and the list stops at
/// `Entry.listLimit`: no input, however hostile, makes memory grow without bound.
///
/// Songs named directly are not checked here: loading them reports what is wrong.
public struct InputExpander: Sendable {
    /// The songs found, in order (less those handed on already: `handOn`).
    public private(set) var entries = EntryList()
    public internal(set) var problems: [Diagnostic] = []
    /// Entries handed on to `handOn` so far.
    public private(set) var handedOn = 0
    /// Every entry found so far: those handed on, and those held.
    public var found: Int { handedOn + entries.count }
    /// When set, the entries found are handed on while the walk goes on, in order, so a long
    /// list can play before it is all read: each time `handOnEvery` are held (the first time,
    /// `handOnFirst`), they are given to it, with the problems and playlists found since the
    /// hand before, and no longer held here.
    public var handOn: (@Sendable (_ piece: Piece) -> Void)?
    /// How many entries make the first piece handed on: a list shorter than that is read whole
    /// before anything is handed on, as without `handOn`.
    public var handOnFirst = 4096
    /// How many entries make each later piece.
    public var handOnEvery = 65_536
    /// Problems and playlists handed on with the pieces so far.
    private var problemsHandedOn = 0
    private var playlistsHandedOn = 0

    /// A stretch of the list handed on (`handOn`), with what was found wrong and the
    /// playlists read since the stretch before.
    public struct Piece: Sendable {
        public var entries: EntryList
        public var problems: [Diagnostic]
        public var playlists: [Path]

        public init(entries: EntryList = [], problems: [Diagnostic] = [], playlists: [Path] = []) {
            self.entries = entries
            self.problems = problems
            self.playlists = playlists
        }
    }
    /// Every playlist and CUE sheet read: `-w` must never write over one.
    public internal(set) var playlists: [Path] = []
    /// Playlists being read, outermost first, as canonical paths: the cycle check.
    private var openPlaylists: [Path] = []
    private var isFull = false
    /// Playlists nest at most this deep (a guard against absurd but acyclic chains).
    public static let maxDepth = 32
    /// A playlist larger than this is refused before it is read (100,000 entries of long paths
    /// take a few megabytes).
    public static let maxPlaylistBytes = 64 << 20
    /// The list stops here, whatever the playlists say (`Entry.listLimit`).
    public let maxEntries: Int

    /// The names a folder's songs have: every format a decoder plays (the content decides how a
    /// file is decoded; the name only which files of a folder are songs).
    public static let audioExtensions: Set<String> = [
        "mp3", "mp2", "mp1", "mpga", "flac", "fla", "ogg", "oga", "opus", "m4a", "m4b", "mp4", "aac", "wav", "aif", "aiff",
        "aifc", "au", "snd", "ape", "wv", "wma", "asf", "mka", "webm", "tta", "mpc", "caf",
    ]
    /// How the message about a folder without songs names them.
    public static let audioExtensionsSaid = ".mp3 .flac .ogg .opus .m4a .wav and other audio extensions"

    /// Whether every playlist entry is checked for existence while expanding.
    public var checksEntries: Bool
    /// Asked between folder entries and playlist pieces: true stops the walk where it is (a
    /// newer load, or the player quitting). What was found so far is kept.
    public var isCancelled: @Sendable () -> Bool = { false }
    /// Playlist entries that name no local file (`http://…`) are kept, as written, rather than
    /// said and left out: mpg123's `LOADLIST` numbers every entry.
    public var keepsURLs = false
    /// Where the files, folders and playlists are read: the disk, or memory in tests.
    public let files: any FileAccess

    public init(checksEntries: Bool = false, maxEntries: Int = Entry.listLimit, files: any FileAccess = SystemFiles()) {
        self.checksEntries = checksEntries
        self.maxEntries = maxEntries
        self.files = files
    }

    /// Expands every input, in order.
    public static func expand(_ inputs: [Path], checksEntries: Bool = false, maxEntries: Int = Entry.listLimit,
                              files: any FileAccess = SystemFiles()) -> InputExpander {
        var expander = InputExpander(checksEntries: checksEntries, maxEntries: maxEntries, files: files)
        for input in inputs { expander.add(input) }
        return expander
    }

    /// A path loaded while the player runs (the load prompt, MPRIS): like a command-line
    /// input, but a path that does not exist is a problem right away (the song playing goes
    /// on), not left for the loader. The walk stops early when `isCancelled` says so.
    public static func expandLoaded(_ path: Path, isCancelled: @escaping @Sendable () -> Bool = { false },
                                    files: any FileAccess = SystemFiles()) -> InputExpander {
        var expander = InputExpander(files: files)
        expander.isCancelled = isCancelled
        if StreamURL.looksLikeURL(path) {
            expander.append(Entry(path: path, title: nil, origin: nil))  // a stream: opening it says what is wrong
        } else if case .failure = files.status(of: path), let track = CueTrackPath.resolve(path) {
            expander.addTrack(path, track, title: nil, from: nil)
        } else if case .failure(let error) = files.status(of: path) {
            expander.problems.append(Diagnostic(SourceLocation(file: "\(path)"), error.reason))
        } else {
            expander.add(path)
        }
        return expander
    }

    /// Adds what `input` names, as typed on the command line (relative to the working folder).
    public mutating func add(_ input: Path) {
        add(input, title: nil, from: nil)
    }

    /// Adds what `location` names; `place` is the playlist line it came from, if any.
    public mutating func add(_ location: Path, title: String?, from place: SourceLocation?) {
        // An internet stream is never looked for on the disk.
        if StreamURL.looksLikeURL(location) { return append(Entry(path: location, title: title, origin: place)) }
        let status = files.status(of: location)
        if case .failure = status, let track = CueTrackPath.resolve(location) { return addTrack(location, track, title: title, from: place) }
        switch status {
        case .success(let info) where info.kind == .directory:
            addDirectory(location, from: place)
        case .success where Playlist.isPlaylist(location):
            addPlaylist(location, from: place)
        case .success where CueSheet.isSheet(location):
            addSheet(location, from: place)
        case .failure(let error) where place != nil:
            report(place, "\(error.reason): \(location)")
        default:
            append(Entry(path: location, title: title, origin: place))
        }
    }

    /// A CUE sheet's track named by its path (`x.cue/track0002`, as `--find` prints it), named
    /// by the sheet; why not, when the sheet cannot be read.
    private mutating func addTrack(_ path: Path, _ track: Result<CueTrackPath.Track, LoadFailure>, title: String?,
                                   from place: SourceLocation?) {
        switch track {
        case .success(let track):
            // Kept by that path (the engine opens the image at the track): the library counts
            // its plays by it.
            var entry = Entry(path: path, title: title ?? track.tags.title, origin: place)
            entry.sheetTags = track.tags
            append(entry)
        case .failure(let failure):
            problems.append(Diagnostic(place ?? SourceLocation(file: "\(path)"), "\(failure)"))
        }
    }

    mutating func append(_ entry: Entry) {
        // Past the cap, or past what memory `ulimit -v` leaves (asked now and then): the list
        // ends there, said once.
        let outOfMemory = found % 1024 == 1023 && MemoryLimit.isNearlyExhausted
        guard found < maxEntries, !outOfMemory else {
            if !isFull {
                isFull = true
                let why = outOfMemory ? "no memory for more songs (\(MemoryLimit.description))" : "the list is full (\(maxEntries) songs)"
                problems.append(Diagnostic(entry.origin ?? SourceLocation(file: "\(entry.path)"),
                                           "\(why): this and later entries are left out"))
            }
            return
        }
        entries.append(entry)
        if handOn != nil, entries.count >= (handedOn == 0 ? handOnFirst : handOnEvery) { handOnHeld() }
    }

    /// Hands on the entries held, with the problems and playlists found since the hand before.
    private mutating func handOnHeld() {
        handOn?(takeRest())
    }

    /// What is held and not handed on yet (the end of the list, once the walk is over), with
    /// the problems and playlists found since the last piece handed on.
    public mutating func takeRest() -> Piece {
        var piece = Piece(entries: EntryList(), problems: Array(problems[problemsHandedOn...]),
                          playlists: Array(playlists[playlistsHandedOn...]))
        swap(&piece.entries, &entries)
        handedOn += piece.entries.count
        problemsHandedOn = problems.count
        playlistsHandedOn = playlists.count
        return piece
    }

    /// Adds a problem about `place` (or, with none, the whole of `path`).
    mutating func report(_ place: SourceLocation?, _ message: String, about path: Path? = nil) {
        problems.append(Diagnostic(place ?? SourceLocation(file: path.map { "\($0)" } ?? ""), message))
    }

    // MARK: Playlists

    private mutating func addPlaylist(_ path: Path, from place: SourceLocation?) {
        let canonical = files.canonicalPath(path) ?? path
        if openPlaylists.contains(canonical) {
            let chain = (openPlaylists.drop { $0 != canonical } + [canonical]).map { "\($0.lastComponent)" }
            return report(place, "playlist cycle: \(chain.joined(separator: " -> ")); not followed", about: path)
        }
        guard openPlaylists.count < Self.maxDepth else {
            return report(place, "playlists nested more than \(Self.maxDepth) deep; not followed", about: path)
        }
        playlists.append(path)
        openPlaylists.append(canonical)
        defer { openPlaylists.removeLast() }
        let folder = path.directory
        let file = "\(path)"
        guard let format = Playlist.format(of: path) else { return }
        var parser = Playlist.Parser(format: format, file: file)
        parser.keepsURLs = keepsURLs
        let read = files.read(path, limit: Self.maxPlaylistBytes) { chunk in
            parser.feed(chunk, item: { addItem($0, folder: folder) }, problem: { problems.append($0) }) && !isFull && !isCancelled()
        }
        if case .failure(let error) = read {
            let reason = error == .tooLarge(limit: Self.maxPlaylistBytes) ? "\(error); is it really a playlist?" : "\(error)"
            return report(place, place == nil ? reason : "cannot read playlist \(path): \(reason)", about: path)
        }
        // A full list or a cancel stopped the reading midway: what is left is a piece of a line.
        guard !isFull, !isCancelled() else { return }
        parser.finish(item: { addItem($0, folder: folder) }, problem: { problems.append($0) })
    }

    /// One playlist entry, resolved against the playlist's folder.
    private mutating func addItem(_ item: Playlist.Item, folder: Path) {
        guard !isFull else { return }
        if let written = item.written, !FileURL.isFileURL(written) {
            // Kept for its number (`keepsURLs`): said when it is chosen, as it cannot be opened.
            var entry = Entry(path: item.path, title: item.title, origin: item.location)
            entry.written = written
            return append(entry)
        }
        let path = resolve(item.path, against: folder)
        if !checksEntries, Self.isAudioFile(item.path) {
            // The common case, without a system call: the loader reports it if it is missing.
            var entry = Entry(path: path, title: item.title, origin: item.location)
            entry.written = item.written
            append(entry)
        } else {
            add(path, title: item.title, from: item.location)
        }
    }

    /// `written` (a playlist's or a sheet's entry) resolved against the list's folder. An old
    /// list in Latin-1 may name files that were renamed to UTF-8 since.
    func resolve(_ written: Path, against folder: Path) -> Path {
        FileSystem.resolve(written, against: folder, exists: files.exists)
    }

    // MARK: Directories

    private mutating func addDirectory(_ path: Path, from place: SourceLocation?) {
        var visited = Set<FileStatus.ID>()
        let before = (found, problems.count)
        walk(path, root: path, visited: &visited, place: place)
        // Problems found on the way say why; "no audio" only when there were none.
        if found == before.0, problems.count == before.1, !isCancelled() {
            let what = place == nil ? "no audio files in it" : "no audio files in \(path)"
            report(place, "\(what) (looked for \(Self.audioExtensionsSaid))", about: path)
        }
    }

    /// Adds the audio files under `path`; problems are about `root`, the folder the user named.
    private mutating func walk(_ path: Path, root: Path, visited: inout Set<FileStatus.ID>, place: SourceLocation?) {
        guard !isFull, !isCancelled() else { return }
        // /proc, /sys, /dev: the system's, not music (and /proc never ends). Named by the user,
        // it is said; met on the way (a walk of /), it is passed by.
        if files.isSystemFolder(path) {
            if path == root { report(place, "\(place == nil ? "" : "\(path): ")the system's own files, not music; not walked", about: root) }
            return
        }
        let items: [FileSystem.DirectoryItem]
        // The listing itself stops on a cancel too: a folder of 200,000 files is long to list.
        let isCancelled = isCancelled
        switch files.status(of: path).flatMap({ info in files.list(path, includingHidden: false, isCancelled: isCancelled).map { (info, $0) } }) {
        case .success(let (info, listed)):
            guard visited.insert(info.id).inserted else { return }
            items = listed
        case .failure where isCancelled():
            return
        case .failure(let error):
            let which = path == root && place == nil ? "" : " " + path.abbreviated()
            return report(place, "cannot read folder\(which): \(error.reason)", about: root)
        }
        let sorted = items.sorted(by: { NaturalOrder.less($0.name, $1.name) })
        let sheets = folderSheets(sorted, in: path, place: place)
        for item in sorted {
            if isCancelled() { return }
            let child = path.appending(item.name)
            if let tracks = sheets.tracks[item.name] {
                tracks.forEach { append($0) }
            } else if sheets.images.contains(item.name) {
                continue  // the sheet's tracks stand for it
            } else if let problem = item.problem {
                report(place, "cannot read \(child.abbreviated()): \(problem.reason)", about: root)
            } else if item.isDirectory {
                walk(child, root: root, visited: &visited, place: place)
            } else if Self.isAudioFile(item.name) {
                append(Entry(path: child))
            }
        }
    }

    /// Whether `name` ends in an audio extension, any case (`x.mp3/` is a folder).
    public static func isAudioFile(_ name: Path) -> Bool {
        name.bytes.last != UInt8(ascii: "/") && name.lowercasedExtension.map(audioExtensions.contains) ?? false
    }
}
