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
        for item in items {
            if isCancelled() { return }
            let path = folder.appending(item.name)
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
    }

    /// Whether `path` lies under `folder` (or is it).
    static func isUnder(_ path: Path, _ folder: Path) -> Bool {
        let prefix = folder.bytes.last == UInt8(ascii: "/") ? folder.bytes : folder.bytes + [UInt8(ascii: "/")]
        return path.bytes.starts(with: prefix) || path == folder
    }
}
