import Files
import Inputs
import PlayerCore

/// The audio files under one of the library's folders, found as the player's folder walk finds
/// them (hidden files passed by, /proc, /sys and /dev never walked, a folder met twice, a link
/// back up, walked once), one at a time and in the library's order of paths (`SongPlace`: a
/// folder's songs by their names' bytes, then the folders in it by theirs), the order the
/// library reads its rows back in, so that the scan compares them with the rows it holds as it
/// goes (`LibraryScanner`), and holds no more than the folders on the way down to the file it
/// is at.
struct LibraryWalk {
    struct Found: Sendable {
        let path: Path
        let size: Int64
        let modified: Int64
        /// A CUE sheet's track (its path `x.cue/track0002`): where it lies in its image, and
        /// what the sheet names it. Its size is the sheet's, its time the later of the sheet's
        /// and the image's: either changed, it is read again.
        var cue: CueTrackPath.Track?
    }

    /// What a folder holds that is still to come: a file, or a folder to walk.
    private enum Entry {
        case file(Found)
        case folder(Path)

    }

    /// One line each: a folder or file that could not be read.
    var problems: [String] = []
    /// Folders that could not be listed: the songs the library holds under them are kept.
    var unlisted: [Path] = []
    /// Each folder listed, the last entry next: the folders from the root down to the one the
    /// walk is in.
    private var stack: [[Entry]] = []
    private var visited = Set<FileStatus.ID>()
    /// The images CUE sheets play (`CD1/image.flac` named by a sheet above it): tracks of the
    /// sheet, never songs of their own, whichever folder they are met in.
    private var claimed = Set<Path>()

    /// The walk of `root` begins (a walk of several folders walks each once, a folder met in
    /// two of them in the first).
    mutating func start(_ root: Path) {
        stack = [[.folder(root)]]
        isRoot = true
    }

    private var isRoot = false

    /// The next file, in the library's order of paths; `nil` at the end of the root's walk or
    /// when `isCancelled`.
    mutating func next(isCancelled: () -> Bool) -> Found? {
        while !stack.isEmpty {
            if isCancelled() { return nil }
            guard let entry = stack[stack.count - 1].popLast() else {
                stack.removeLast()
                continue
            }
            switch entry {
            case .file(let found): return found
            case .folder(let folder):
                let root = isRoot
                isRoot = false
                if let (files, folders) = list(folder, isRoot: root, isCancelled: isCancelled) {
                    // A folder's files, by their paths' bytes, then the folders in it, each sorting
                    // as `path/` (as the folders' rows of the library do); backwards: the first is
                    // taken last off the end (each key made once, not at each comparison).
                    let laterFolders = folders.map { ($0.bytes + [UInt8(ascii: "/")], $0) }.sorted { $1.0.lexicographicallyPrecedes($0.0) }
                    let laterFiles = files.sorted { $1.path.bytes.lexicographicallyPrecedes($0.path.bytes) }
                    stack.append(laterFolders.map { Entry.folder($0.1) } + laterFiles.map(Entry.file))
                }
            }
        }
        return nil
    }

    /// A folder's songs (a CUE sheet's tracks in place of its images) and folders; `nil` when
    /// it is not walked.
    private mutating func list(_ folder: Path, isRoot: Bool, isCancelled: () -> Bool) -> (files: [Found], folders: [Path])? {
        if FileSystem.isSystemFolder(folder) {
            if isRoot { problems.append("\(folder): the system's own files, not music; not walked") }
            return nil
        }
        let listed = FileSystem.status(of: folder).flatMap { info in
            FileSystem.list(folder, includingHidden: false, isCancelled: isCancelled).map { (info, $0) }
        }
        let items: [FileSystem.DirectoryItem]
        switch listed {
        case .success(let (info, found)):
            guard visited.insert(info.id).inserted else { return nil }
            items = found
        case .failure(let error):
            unlisted.append(folder)
            if error != .canceled { problems.append("\(folder): cannot read the folder: \(error.reason)") }
            return nil
        }
        var files: [Found] = []
        var folders: [Path] = []
        var sheets: [Path] = []
        for item in items {
            if isCancelled() { return nil }
            let path = folder.appending(item.name)
            if !item.isDirectory, item.problem == nil, CueSheet.isSheet(item.name) { sheets.append(path) }
            if let problem = item.problem {
                problems.append("\(path): cannot read: \(problem.reason)")
            } else if item.isDirectory {
                folders.append(path)
            } else if InputExpander.isAudioFile(item.name) {
                switch FileSystem.status(of: path) {
                case .success(let status) where status.kind == .regular:
                    files.append(Found(path: path, size: status.size, modified: status.modified))
                case .success(let status):
                    problems.append("\(path): a \(status.kind.rawValue), not a song file; left out")
                case .failure(let error) where error.isMissing:
                    continue  // gone since the listing, or a dangling link
                case .failure(let error):
                    problems.append("\(path): cannot read: \(error.reason)")
                }
            }
        }
        for sheet in sheets where !isCancelled() { addSheet(sheet, to: &files) }
        // A sheet that gives one track number twice names one path twice: one song.
        if !sheets.isEmpty {
            var seen = Set<Path>()
            files.removeAll { !seen.insert($0.path).inserted }
        }
        if !claimed.isEmpty { files.removeAll { $0.cue == nil && claimed.contains($0.path) } }
        return (files, folders)
    }

    /// The tracks of the CUE sheet at `sheet`, each a song (`x.cue/track0002`), in place of
    /// the images of its folder it names (one file of many songs: it was one "Unknown Artist"
    /// song 40 minutes long).
    private mutating func addSheet(_ sheet: Path, to files: inout [Found]) {
        guard case .success(let status) = FileSystem.status(of: sheet), status.kind == .regular else { return }
        let parsed: CueSheet
        switch CueTrackPath.sheet(at: sheet) {
        case .success(let read): parsed = read
        case .failure(let reason):
            problems.append("\(sheet): cannot read: \(reason)")
            return
        }
        // Each image's modification time; those not there, said once, their tracks left out.
        var imageTimes: [Path: Int64] = [:]
        var missing = Set<Path>()
        for (_, path, track) in CueTrackPath.tracks(of: parsed, at: sheet) where !missing.contains(track.image) {
            if imageTimes[track.image] == nil {
                guard case .success(let info) = FileSystem.status(of: track.image), info.kind == .regular else {
                    missing.insert(track.image)
                    problems.append("\(sheet): its image \(track.image.lastComponent) is not there; its tracks are left out")
                    continue
                }
                imageTimes[track.image] = info.modified
                claimed.insert(track.image)
            }
            files.append(Found(path: path, size: status.size, modified: max(status.modified, imageTimes[track.image] ?? 0), cue: track))
        }
        // The images the sheet plays are its tracks, not songs of their own.
        files.removeAll { $0.cue == nil && imageTimes[$0.path] != nil }
    }

    /// Whether `path` lies under `folder` (or is it).
    static func isUnder(_ path: Path, _ folder: Path) -> Bool {
        let prefix = folder.bytes.last == UInt8(ascii: "/") ? folder.bytes : folder.bytes + [UInt8(ascii: "/")]
        return path.bytes.starts(with: prefix) || path == folder
    }
}
