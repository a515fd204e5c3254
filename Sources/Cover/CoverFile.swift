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

    /// A `file://` URL of `song`'s cover, when it has one (a stream has none).
    public func url(for song: SongInfo) -> String? {
        guard !song.isStream else { return nil }
        if let last, last.song == song.path { return last.url }
        let url = find(song.path)
        last = (song.path, url)
        return url
    }

    private func find(_ song: Path) -> String? {
        remove()
        if let (bytes, format) = Self.embeddedPicture(in: song), let folder, make(folder) {
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

    /// The picture an MP3 (ID3v2 `APIC`) or a FLAC (`PICTURE`) holds, read from its tags alone,
    /// bounded (`ID3Frame.maxBytes`): a desktop's cover costs no decoder (FFmpeg, loaded for
    /// the now-playing view, is 20 MB a run that shows none).
    static func embeddedPicture(in song: Path) -> (bytes: [UInt8], format: PictureHeader.Format)? {
        guard case .success(let file) = FileSystem.openRegularFile(song) else { return nil }
        func read(_ offset: Int, _ count: Int) -> [UInt8]? {
            count <= ID3Frame.maxRead ? file.read(at: offset, count: count) : nil
        }
        let data: [UInt8]?
        if let head = read(0, 4), head == Array("fLaC".utf8) {
            data = flacPicture(read)
        } else {
            data = ID3Frame.content("APIC", reading: read).flatMap(apicPicture)
        }
        guard let data, let header = PictureHeader.read(data) else { return nil }
        return (data, header.format)
    }

    /// An `APIC` frame's picture: after its encoding, MIME type, picture type and description.
    static func apicPicture(_ frame: [UInt8]) -> [UInt8]? {
        guard frame.count > 4 else { return nil }
        let wide = frame[0] == 1 || frame[0] == 2
        guard var at = frame[1...].firstIndex(of: 0) else { return nil }
        at += 2  // the MIME type's NUL, the picture type
        // The description ends at a NUL (two, on a two-byte boundary, in UTF-16).
        while at < frame.count {
            if wide {
                guard at + 1 < frame.count else { return nil }
                if frame[at] == 0, frame[at + 1] == 0 { return Array(frame[(at + 2)...]) }
                at += 2
            } else {
                if frame[at] == 0 { return Array(frame[(at + 1)...]) }
                at += 1
            }
        }
        return nil
    }

    /// The first front cover (else the first picture) of a FLAC's metadata blocks.
    static func flacPicture(_ read: (Int, Int) -> [UInt8]?) -> [UInt8]? {
        var offset = 4
        var first: [UInt8]?
        for _ in 0..<128 {
            guard let header = read(offset, 4) else { return first }
            let last = header[0] & 0x80 != 0, type = header[0] & 0x7F
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            if type == 6, length <= ID3Frame.maxBytes, let block = read(offset + 4, length) {
                func number(_ at: Int) -> Int? {
                    guard at >= 0, at + 4 <= block.count else { return nil }
                    return block[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
                }
                if let kind = number(0), let mime = number(4), let description = number(8 + mime),
                   let size = number(8 + mime + 4 + description + 16) {
                    let start = 8 + mime + 4 + description + 20
                    if start + size <= block.count {
                        let picture = Array(block[start..<start + size])
                        if kind == 3 { return picture }
                        if first == nil { first = picture }
                    }
                }
            }
            if last { return first }
            offset += 4 + length
        }
        return first
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
