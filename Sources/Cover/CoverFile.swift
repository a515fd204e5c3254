import Files
import Glibc
import PlayerCore

/// A song's cover as a file a desktop reads (MPRIS's `mpris:artUrl`): its folder's picture as
/// it is, or the picture it holds written into a folder of tplayer's own (`$XDG_RUNTIME_DIR/
/// tplayer`, made private), one file a run, named anew for each song (a client that keeps
/// pictures by their URL would show the song before's), the one before taken away.
public final class CoverFile {
    private let folder: Path?
    private var written: Path?
    private var count = 0
    /// The last song asked about, and its answer: a song's metadata is read many times.
    private var last: (song: Path, url: String?)?

    /// `runtime`: `$XDG_RUNTIME_DIR` (a user's own folder, in memory); none, no picture is written.
    public init(runtime: String?) {
        folder = runtime.flatMap { $0.hasPrefix("/") ? Path($0).appending("tplayer") : nil }
    }

    deinit { remove() }

    /// A `file://` URL of `song`'s cover, when it has one.
    public func url(for song: Path) -> String? {
        if let last, last.song == song { return last.url }
        let url = find(song)
        last = (song, url)
        return url
    }

    private func find(_ song: Path) -> String? {
        guard !StreamURL.looksLikeURL(song) else { return nil }
        remove()
        if let (bytes, format) = CoverPicture.embeddedBytes(in: song), let folder, make(folder) {
            count += 1
            let name = "cover-\(getpid())-\(count).\(format == .jpeg ? "jpg" : format.rawValue.lowercased())"
            let file = folder.appending(Path(name))
            guard case .success(let open) = FileSystem.create(file, overwrite: false, permissions: 0o600),
                  bytes.withUnsafeBytes({ open.write($0) }) == nil else {
                _ = file.withCString { unlink($0) }
                return nil
            }
            written = file
            return FileURL.string(for: file)
        }
        return CoverPicture.folderPicture(beside: song).map { FileURL.string(for: $0.resolved(against: FileSystem.currentFolder())) }
    }

    /// The folder, made private (0700) when missing; refused when it is not a folder of this user's.
    private func make(_ folder: Path) -> Bool {
        _ = folder.withCString { mkdir($0, 0o700) }
        guard case .success(let status) = FileSystem.status(of: folder), status.kind == .directory else { return false }
        var info = stat()
        return folder.withCString { lstat($0, &info) } == 0 && info.st_uid == getuid() && info.st_mode & 0o077 == 0
    }

    private func remove() {
        if let written { _ = written.withCString { unlink($0) } }
        written = nil
    }
}
