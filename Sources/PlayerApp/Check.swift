import Files
import Inputs
import PlayerCore

/// `tplayer --check PATH...`: scripts and playlists checked, and songs (named, in folders, in
/// playlists) decoded whole, as fast as the decoder goes, without playing or writing anything.
public struct Check: Equatable {
    /// Every problem, one line each (for stderr): `FILE:LINE:COLUMN: message` for scripts and
    /// playlists, `album/07.mp3: damaged at 3:41.20: reason` for songs.
    public var problems: [String] = []
    /// `FILE: ok, N commands` per clean script or playlist, then the count of songs (stdout).
    public var summary: [String] = []
    /// 0 when clean, 65 when there is any problem.
    public var status: Int32 = 0

    /// What decoding one song found; it says how far into the song it is (0 to 1) as it goes.
    public typealias Decode = (Path, _ within: (Double) -> Void) -> SongVerdict
    /// How far the run is (songs done, songs in all, how far into the one decoding now, which
    /// one): for a progress bar.
    public typealias Progress = (_ done: Int, _ total: Int, _ within: Double, _ path: Path) -> Void

    /// What listening to an internet stream for a few seconds found: a line of what it is, or
    /// why it cannot be opened.
    public typealias Listen = (Path) -> Result<String, LoadFailure>

    /// Checks `paths`; `found` hears each problem as soon as it is found (a library takes a while).
    /// A stream's URL is listened to (`listen`), not decoded whole: a live one never ends.
    public static func run(_ paths: [Path], decode: Decode, listen: Listen? = nil, progress: Progress? = nil,
                           found: ((String) -> Void)? = nil, files: any FileAccess = SystemFiles()) -> Check {
        var check = Check()
        func report(_ lines: [String]) {
            lines.forEach { found?($0) }
            check.problems += lines
        }
        // What to decode, in order, and the playlist each song came from (whose "ok" waits for
        // its songs).
        var songs: [(path: Path, playlist: Int?)] = []
        var playlists: [(line: String, clean: Bool)] = []
        /// The tracks CUE sheets play from each image: checked against its length once decoded.
        var tracks: [Path: [Entry]] = [:]
        for path in paths {
            if let listen, StreamURL.looksLikeURL(path) {
                switch listen(path) {
                case .success(let line): check.summary.append("\(path): \(line)")
                case .failure(.playlist(let served)):
                    // A playlist served over http: its problems, and each of its streams listened to.
                    report(served.problems.map(\.located))
                    check.summary.append("\(path): ok, a playlist of \(served.entries.count) \(served.entries.count == 1 ? "stream" : "streams")")
                    for entry in served.entries {
                        switch listen(entry.path) {
                        case .success(let line): check.summary.append("\(entry.path): \(line)")
                        case .failure(let reason): report(["\(entry.origin?.brief ?? "\(path)"): \(reason): \(entry.path)"])
                        }
                    }
                case .failure(let reason): report(["\(path): \(reason)"])
                }
            } else if path.lowercasedExtension == "lrc" {
                // Lyrics: every line that cannot be read, at its line and column.
                switch files.readAll(path, limit: Lyrics.maxBytes) {
                case .failure(let error):
                    let reason = error == .tooLarge(limit: Lyrics.maxBytes) ? "\(error); is it really an LRC file?" : "\(error)"
                    report(["\(path): \(reason)"])
                case .success(let bytes):
                    let lyrics = Lyrics.parse(bytes, file: "\(path)")
                    report(lyrics.problems.map(\.located))
                    if lyrics.problems.isEmpty {
                        let count = lyrics.isSynced ? lyrics.lines.count : lyrics.unsynced.count
                        check.summary.append("\(path): ok, \(count) \(lyrics.isSynced ? "timed" : "unsynced") \(count == 1 ? "line" : "lines") of lyrics")
                    }
                }
            } else if Self.isSongByContent(path, files: files) {
                // Audio whatever its name (song.flac, a WAV named .mp3): said as a song, not as a
                // script that is binary.
                songs.append((path, nil))
            } else if Playlist.isPlaylist(path) || CueSheet.isSheet(path) || InputExpander.isAudioFile(path) || files.isDirectory(path) {
                let expanded = InputExpander.expand([path], checksEntries: true, files: files)
                var problems = expanded.problems.map(\.located)
                if expanded.entries.isEmpty && problems.isEmpty { problems.append("\(path): no entries in it") }
                report(problems)
                var playlist: Int?
                if Playlist.isPlaylist(path) || CueSheet.isSheet(path) {
                    playlist = playlists.count
                    let count = expanded.entries.count
                    let what = CueSheet.isSheet(path) ? (count == 1 ? "track" : "tracks") : (count == 1 ? "song" : "songs")
                    playlists.append(("\(path): ok, \(count) \(what)", problems.isEmpty))
                }
                // A CUE sheet's tracks share their image: it is decoded once, whole.
                for entry in expanded.entries where entry.span != nil { tracks[entry.path, default: []].append(entry) }
                var images = Set<Path>()
                songs += expanded.entries.filter { $0.span == nil || images.insert($0.path).inserted }.map { ($0.path, playlist) }
            } else {
                let script = ScriptCompiler(path: path, files: files)
                report(script.allProblems.map(\.located))
                if script.allProblems.isEmpty {
                    check.summary.append("\(path): ok, \(script.lines.count) \(script.lines.count == 1 ? "command" : "commands")")
                }
            }
        }
        var seconds = 0.0
        var failed = 0
        for (done, song) in songs.enumerated() {
            progress?(done, songs.count, 0, song.path)
            let verdict = decode(song.path) { within in progress?(done, songs.count, within, song.path) }
            if case .clean(let length) = verdict {
                seconds += length
                let past = pastTheEnd(tracks[song.path] ?? [], of: song.path, length: length)
                report(past)
                failed += past.isEmpty ? 0 : 1
                if !past.isEmpty, let playlist = song.playlist { playlists[playlist].clean = false }
            }
            guard let line = verdict.report(for: song.path) else { continue }
            report([line])
            failed += 1
            if let playlist = song.playlist { playlists[playlist].clean = false }
        }
        progress?(songs.count, songs.count, 0, Path(""))
        check.summary += playlists.filter(\.clean).map(\.line)
        if !songs.isEmpty {
            let count = "\(songs.count) song\(songs.count == 1 ? "" : "s") decoded"
            check.summary.append(failed == 0
                ? "\(count) (\(TimeFormat.clock(seconds))): none damaged"
                : "\(count): \(failed) damaged or not playable")
        }
        if !check.problems.isEmpty { check.status = Launch.problemsFound }
        return check
    }

    /// The sheet's tracks that start past the end of their image (`length` seconds): a sheet
    /// made for another rip of the album, said at each track's line.
    private static func pastTheEnd(_ tracks: [Entry], of image: Path, length: Double) -> [String] {
        tracks.compactMap { track in
            guard let span = track.span, let origin = track.origin,
                  Double(span.start) / Double(TrackSpan.framesPerSecond) >= length else { return nil }
            return Diagnostic(origin, "starts at \(TrackSpan.time(span.start)), past the end of \(image.lastComponent) (\(TimeFormat.clock(length)))").located
        }
    }

    /// A file not named as a song whose first bytes say what it is (other audio, an image, an
    /// archive): checked as a song, which says so. Not one named as a playlist (checked as one, as
    /// playing it does) or a folder.
    private static func isSongByContent(_ path: Path, files: any FileAccess) -> Bool {
        guard !InputExpander.isAudioFile(path), !Playlist.isPlaylist(path), !CueSheet.isSheet(path), !files.isDirectory(path),
              let head = files.peek(path, count: FileContent.headLength), let content = FileContent.sniff(head)
        else { return false }
        return content != .m3u && content != .pls
    }
}
