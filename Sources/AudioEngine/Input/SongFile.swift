import Files
import PlayerCore

/// Opening a song's file, for every decoder: only a regular, non-empty file that is not the file
/// `-w` writes, and what its first bytes say it holds. What is opened is checked, not what was
/// named: the decoders read the file opened here (a `ByteSource`), never the name again.
enum SongFile {
    /// Opens `path` as a song: a regular file, not empty.
    static func open(_ path: Path) throws(LoadFailure) -> OpenFile {
        let opened: OpenFile
        switch FileSystem.openRegularFile(path) {
        case .success(let file): opened = file
        case .failure(.system(let error)): throw error.isMissing ? .missing : .notReadable(error.reason)
        case .failure(.notRegular(.directory)): throw .isDirectory
        case .failure(.notRegular(let kind)): throw .notRegular(kind.rawValue)
        case .failure(.tooLarge): throw .notReadable("too large")
        case .failure(.isOutput): throw .isOutput
        case .failure(.holdsOther(let what)): throw .notReadable("it holds something else than \(what)")
        }
        guard let size = opened.length, size > 0 else { throw .empty }
        return opened
    }

    /// What the file's first bytes say it is, past an ID3v2 tag (which FLAC, WAV and AAC files
    /// can carry too): `nil` when they say nothing known. A tag followed by nothing known is
    /// taken as MPEG audio (frames may follow junk; libmpg123 decides).
    static func content(of source: ByteSource) -> FileContent? {
        let head = source.bytes(FileContent.headLength, at: 0)
        guard head.count >= 10, head.starts(with: Array("ID3".utf8)), head[6...9].allSatisfy({ $0 < 0x80 }) else {
            return FileContent.sniff(head)
        }
        let footer = head[5] & 0x10 != 0 ? 10 : 0
        let tag = 10 + footer + (Int(head[6]) << 21 | Int(head[7]) << 14 | Int(head[8]) << 7 | Int(head[9]))
        let after = source.bytes(FileContent.headLength, at: Int64(tag))
        return FileContent.sniff(after).flatMap { $0 == .mpegAudio ? nil : $0 } ?? .mpegAudio
    }
}
