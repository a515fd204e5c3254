import Files
import Inputs
import PlayerCore

/// The audio files under the library's folders, found as the player's folder walk finds them:
/// hidden files passed by, /proc, /sys and /dev never walked, a folder met twice (a link back
/// up) walked once. In the order the folders list them: the library orders its songs by their
/// tags, and sorting 10,000 names naturally was a quarter of a rescan's time.
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

    var files: [Found] = []
    /// One line each: a folder or file that could not be read.
    var problems: [String] = []
    /// Folders that could not be listed: the songs the library holds under them are kept.
    var unlisted: [Path] = []
    private var visited = Set<FileStatus.ID>()

    static func walk(_ roots: [Path], isCancelled: () -> Bool) -> LibraryWalk {
        var walk = LibraryWalk()
        for root in roots where !isCancelled() { walk.walk(root, isRoot: true, isCancelled: isCancelled) }
        return walk
    }

    private mutating func walk(_ folder: Path, isRoot: Bool, isCancelled: () -> Bool) {
        if FileSystem.isSystemFolder(folder) {
            if isRoot { problems.append("\(folder): the system's own files, not music; not walked") }
            return
        }
        let listed = FileSystem.status(of: folder).flatMap { info in
            FileSystem.list(folder, includingHidden: false, isCancelled: isCancelled).map { (info, $0) }
        }
        let items: [FileSystem.DirectoryItem]
        switch listed {
        case .success(let (info, found)):
            guard visited.insert(info.id).inserted else { return }
            items = found
        case .failure(let error):
            unlisted.append(folder)
            if error != .canceled { problems.append("\(folder): cannot read the folder: \(error.reason)") }
            return
        }
        let firstHere = files.count
        var sheets: [Path] = []
        for item in items {
            if isCancelled() { return }
            let path = folder.appending(item.name)
            if !item.isDirectory, item.problem == nil, CueSheet.isSheet(item.name) { sheets.append(path) }
            if let problem = item.problem {
                problems.append("\(path): cannot read: \(problem.reason)")
            } else if item.isDirectory {
                walk(path, isRoot: false, isCancelled: isCancelled)
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
        for sheet in sheets where !isCancelled() { addSheet(sheet, filesFrom: firstHere) }
    }

    /// The tracks of the CUE sheet at `sheet`, each a song (`x.cue/track0002`), in place of
    /// the images of this folder it names (one file of many songs: it was one "Unknown Artist"
    /// song 40 minutes long). `filesFrom`: where this folder's files start in `files`.
    private mutating func addSheet(_ sheet: Path, filesFrom: Int) {
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
            }
            files.append(Found(path: path, size: status.size, modified: max(status.modified, imageTimes[track.image] ?? 0), cue: track))
        }
        // The images the sheet plays are its tracks, not songs of their own.
        let here = files[filesFrom...].filter { $0.cue != nil || imageTimes[$0.path] == nil }
        files.replaceSubrange(filesFrom..., with: here)
    }

    /// Whether `path` lies under `folder` (or is it).
    static func isUnder(_ path: Path, _ folder: Path) -> Bool {
        let prefix = folder.bytes.last == UInt8(ascii: "/") ? folder.bytes : folder.bytes + [UInt8(ascii: "/")]
        return path.bytes.starts(with: prefix) || path == folder
    }
}
