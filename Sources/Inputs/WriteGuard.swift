import Files
import PlayerCore

/// Decides whether `-w PATH` may be written, before anything is created or changed.
///
/// `-w` writes decoded audio, so its path must never be a song, a playlist or a script: not by
/// its name (`tplayer -w a.mp3 b.mp3` is a forgotten output name, and writing would destroy
/// a.mp3), and not by identity (a hard link, a symbolic link, `./b.mp3`, or a file a playlist or a
/// folder leads to). Both hold even with `--force`; `--force` only allows replacing some other
/// existing file.
public enum WriteGuard {
    /// Names `-w` refuses whatever `--force` says: audio, playlists and scripts.
    public static let inputExtensions: [String: String] = {
        var kinds = ["m3u": "playlist", "m3u8": "playlist", "pls": "playlist", "cue": "CUE sheet", "tps": "script"]
        // The songs tplayer plays (but WAV and AU, which it writes), and a few more a music folder holds.
        let songs = InputExpander.audioExtensions.subtracting(["wav", "au", "snd"]).union(["alac", "dsf", "spx"])
        for song in songs {
            kinds[song] = "song"
        }
        return kinds
    }()

    /// Why writing to `output` must be refused, as one line (without the `tplayer: ` prefix);
    /// `nil` when it may be written. `inputs` are the paths as typed; `reads` and `songs` are
    /// everything the run reads: the inputs, the playlists and script read, and the songs they
    /// lead to.
    ///
    /// This is the early check, with the friendliest messages; the file is checked again by
    /// identity when it is opened (`FileSystem.openOutput`), since what a path leads to can
    /// change in between.
    public static func refusal(output: Path, overwrite: Bool, inputs: [Path], reads: [Path], songs: EntryList = EntryList(),
                               files: any FileAccess = SystemFiles()) -> Refusal? {
        if let ext = output.lowercasedExtension, let kind = inputExtensions[ext] {
            guard files.exists(output) else {
                return .usage("-w \(output): tplayer writes WAV, AU or raw audio, not .\(ext); name the output e.g. out.wav")
            }
            // `-w a.mp3 b.mp3` means a.mp3 was meant as an input too, unless it is one already.
            let meant = inputs.contains(output) ? inputs : [output] + inputs
            return .usage("-w \(output): that is a \(kind), not an output file, and writing would destroy it; "
                + "did you forget the output name? e.g. tplayer -w out.wav " + preview(meant))
        }
        let status = output == Path("-") ? FileSystem.status(ofDescriptor: 1) : files.status(of: output)
        guard case .success(let target) = status else { return nil }
        if target.kind == .directory {
            return .usage("-w \(output): is a folder; name a file in it, e.g. -w \(output.appending("out.wav"))")
        }
        // Plain loops over an array and the list: a sequence joined from type-erased parts cost
        // the runtime about a millisecond of type lookups at every -w start.
        func isTarget(_ path: Path) -> Bool { (try? files.status(of: path).get().id) == target.id }
        var same = reads.first(where: isTarget)
        var index = 0
        while same == nil, index < songs.count {
            let path = songs.path(at: index)
            if isTarget(path) { same = path }
            index += 1
        }
        if let read = same {
            let what = output == Path("-") ? "standard output is" : "that is"
            return .usage("-w \(output): \(what) the same file as the input \(read); writing would destroy it: "
                + "name a new file, e.g. tplayer -w out.wav" + (inputs.isEmpty ? "" : " " + preview(inputs)))
        }
        guard output != Path("-"), target.kind == .regular else { return nil }
        // A link that leads to a song or a playlist, or a file that holds one under another name.
        if let real = files.canonicalPath(output), let ext = real.lowercasedExtension, let kind = inputExtensions[ext] {
            return .usage("-w \(output): that leads to \(real), a \(kind); writing would destroy it: name a new file, e.g. out.wav")
        }
        if let head = files.peek(output, count: FileContent.headLength), let kind = FileContent.sniff(head), kind.isKeptMedia {
            return .usage("-w \(output): that file holds \(kind), not audio tplayer wrote; writing would destroy it: "
                + "name a new file, e.g. out.wav")
        }
        if !overwrite {
            return .exists("\(output): file exists; add --force to overwrite it")
        }
        return nil
    }

    /// Where the list view saves the list when `typed` is asked for: `.m3u8` added to a name
    /// without an extension (not to a folder's: `sub/`, `.`, `..`).
    public static func listPath(_ typed: Path) -> Path {
        guard typed.lowercasedExtension == nil, !namesFolder(typed) else { return typed }
        return Path(bytes: typed.bytes + Array(".m3u8".utf8))
    }

    /// Whether `path` can only be a folder: it ends in `/`, or in `.` or `..`.
    private static func namesFolder(_ path: Path) -> Bool {
        path.bytes.last == UInt8(ascii: "/") || [".", ".."].contains(path.lastComponent)
    }

    /// Why the list may not be saved at `path`, as one line; `nil` when it may. A list is saved
    /// only as a new `.m3u8` or `.m3u` file: never over anything that is there (a song, the
    /// playlist that was read, any file, a link), so saving can lose nothing. `publish` makes
    /// the same check again as it writes (`link` does not replace).
    public static func listRefusal(_ path: Path, files: any FileAccess = SystemFiles()) -> String? {
        if namesFolder(path) || files.isDirectory(path) {
            return "\(path): that is a folder; name a new file in it, e.g. \(path.appending("list.m3u8"))"
        }
        let ext = path.lowercasedExtension ?? ""
        if ext != "m3u8" && ext != "m3u" {
            let kind = inputExtensions[ext].map { "a \($0)" } ?? "not a playlist"
            return "\(path): that name is \(kind); save the list as a new .m3u8, e.g. list.m3u8"
        }
        if files.exists(path) {
            return "\(path): a file is there already; the list is saved only as a new file: name another"
        }
        return nil
    }

    /// Why `-w` is refused: a mistake in the command line (exit 64), or an existing file that
    /// `--force` may replace (exit 1).
    public enum Refusal: Equatable, Sendable {
        case usage(String)
        case exists(String)

        public var message: String {
            switch self {
            case .usage(let message), .exists(let message): message
            }
        }

        /// The exit status: 64 for a mistake in the command line, 1 for an existing file.
        public var status: Int32 {
            switch self {
            case .usage: 64
            case .exists: 1
            }
        }
    }

    /// The first few inputs, for a suggested command line.
    private static func preview(_ inputs: [Path]) -> String {
        inputs.prefix(3).map { "\($0)" }.joined(separator: " ") + (inputs.count > 3 ? " ..." : "")
    }
}
