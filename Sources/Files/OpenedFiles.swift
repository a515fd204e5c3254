import Glibc
import PlayerCore

/// What this process reads and writes, by identity (device and inode): the guard that keeps
/// `-w` from ever writing over a file the run reads, whatever path leads to it.
///
/// A path says little: a symbolic link, a hard link, `/proc/self/fd/7` or `/dev/stdout` may
/// each lead to a song, and what they lead to can change between a check at launch and the
/// moment a file is opened. So the guard compares what is really opened, when it is opened:
/// every file opened for reading (`FileSystem.openRegularFile`) is noted here and refused if it
/// is the file being written; the output is refused if it is a file the run has read, or a
/// descriptor of tplayer's own (a pipe, the song being decoded) rather than one it was started
/// with.
///
/// It is process-wide, as the kernel's table of descriptors is.
public final class OpenedFiles: Sendable {
    private struct Known {
        /// Every file opened for reading so far, with the path it was opened by (for messages).
        var reads: [FileStatus.ID: Path] = [:]
        /// The files written (the one `-w` writes, once it is open).
        var outputs: Set<FileStatus.ID> = []
        /// The descriptors open when the process started (stdin, stdout, stderr, and whatever
        /// the caller handed down, as `3>out.wav`): the only ones `-w /dev/fd/N` may name.
        var inherited: Set<Int32> = [0, 1, 2]
    }

    private let known = Locked(Known())

    public static let shared = OpenedFiles()

    /// Notes the descriptors open now as the ones the process was started with: called first
    /// thing in `main`, before tplayer opens anything of its own.
    public func noteInheritedDescriptors() {
        let open = Self.openDescriptors()
        known.update { $0.inherited = open }
    }

    /// Notes a file opened for reading; false when it is the file being written (it must not be
    /// read: it would grow while it plays, and never end).
    func noteRead(_ id: FileStatus.ID, path: Path) -> Bool {
        known.update { known in
            if known.outputs.contains(id) { return false }
            known.reads[id] = known.reads[id] ?? path
            return true
        }
    }

    /// Why the open output `file` must not be written, or `nil` (and it is noted as the output).
    /// `existed`: the file was there before (one created just now cannot be anything the run read).
    func claimOutput(_ file: OpenFile, existed: Bool) -> OutputRefusal? {
        guard case .success(let info) = file.status() else { return nil }
        if existed {
            if let read = known.read({ $0.reads[info.id] }) { return .isRead(read) }
            // A device (`/dev/null`, a terminal) keeps nothing that writing could destroy.
            let keepsData = [.regular, .fifo, .socket].contains(info.kind)
            for fd in Self.openDescriptors() where keepsData && fd != file.descriptor {
                var other = stat()
                guard fstat(fd, &other) == 0, FileStatus(other).id == info.id else { continue }
                if !known.read({ $0.inherited.contains(fd) }) { return .isOwnDescriptor }
            }
        }
        known.update { _ = $0.outputs.insert(info.id) }
        return nil
    }

    /// The file being written is closed: nothing is refused as it any more.
    public func releaseOutput(_ file: OpenFile) {
        guard case .success(let info) = file.status() else { return }
        known.update { _ = $0.outputs.remove(info.id) }
    }

    /// Why an output may not be written.
    public enum OutputRefusal: Equatable, Sendable {
        /// It is a file the run has read (a song, a playlist, a script).
        case isRead(Path)
        /// It is one of tplayer's own descriptors (`/proc/self/fd/N` of a pipe or a song).
        case isOwnDescriptor
    }

    /// The descriptors open in this process, from /proc/self/fd (or, without /proc, by asking
    /// each one up to the limit).
    static func openDescriptors() -> Set<Int32> {
        var found = Set<Int32>()
        if let directory = opendir("/proc/self/fd") {
            let own = dirfd(directory)
            while let entry = readdir(directory) {
                let name = String(decoding: FileSystem.entryName(entry), as: UTF8.self)
                if let fd = Int32(name), fd != own { found.insert(fd) }
            }
            closedir(directory)
            return found
        }
        let limit = min(Int32(clamping: sysconf(Int32(_SC_OPEN_MAX))), 65_536)
        for fd in 0..<max(limit, 3) where fcntl(fd, F_GETFD) >= 0 { found.insert(fd) }
        return found
    }
}
