import Files
import Glibc

/// Where a song's bytes come from: a file (`OpenFile`, opened and checked by `SongFile`), an
/// internet stream (`NetworkStream`, or `HLSInput` for an HLS stream), or bytes held in memory
/// (`HeldBytes`). The decoder libraries read it through their I/O callbacks (`SourceReading`).
/// A read may wait: while a song plays on a live output it is read on the decoder's own thread
/// (`AheadDecoder`), not the playback thread. The playback thread reads it itself to open a
/// song or seek in it, and for the whole song when it writes a file (`-w`).
protocol ByteSource: AnyObject {
    /// Reads up to `count` bytes at `offset` into `buffer`: how many were read, 0 at the end,
    /// -1 with errno set.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int
    /// Its length now (a file shrinks when someone truncates it); `nil` when it is not known.
    var length: Int64? { get }
    /// What it is, as a decoder needs to know it: a stream says what its server named and
    /// sent besides the audio, and an HLS list is opened by FFmpeg itself.
    var kind: ByteSourceKind { get }
}

/// What a `ByteSource` is.
enum ByteSourceKind {
    /// A song's file, read where asked.
    case file
    /// Bytes held in memory.
    case held
    /// An internet stream: its Content-Type, its ICY titles, why it failed, its connection.
    case stream(NetworkStream)
    /// An HLS list, whose segments FFmpeg opens through it.
    case hls(HLSInput)
}

extension ByteSource {
    /// The internet stream it is, when it is one.
    var stream: NetworkStream? {
        switch kind {
        case .stream(let stream): stream
        case .file, .held, .hls: nil
        }
    }
}

extension ByteSource {
    /// Up to `count` bytes from `offset`; fewer at the end, none when it cannot be read.
    func bytes(_ count: Int, at offset: Int64) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(count, 0))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(into: $0.baseAddress! + done, count: $0.count - done, at: offset + Int64(done)) }
            guard got > 0 else { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }
}

/// A song's file: read where asked (`pread`: the descriptor's offset is never moved).
extension OpenFile: ByteSource {
    // `read(into:count:at:)` is OpenFile's own (a `pread`).

    var length: Int64? {
        guard case .success(let info) = status() else { return nil }
        return info.size
    }

    var kind: ByteSourceKind { .file }
}

/// A `ByteSource` as the C libraries' callbacks see it (`tp_source`, CLinux/byte_source.h): two
/// functions and a context. The decoder keeps it for as long as the library may read.
final class SourceReading {
    let source: ByteSource

    init(_ source: ByteSource) {
        self.source = source
    }

    /// What the callbacks are given: this object, not retained (the decoder holds it).
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static let read: @convention(c) (UnsafeMutableRawPointer?, Int64, UnsafeMutableRawPointer?, Int) -> Int = { context, offset, buffer, count in
        guard let context, let buffer else {
            errno = EINVAL
            return -1
        }
        return Unmanaged<SourceReading>.fromOpaque(context).takeUnretainedValue().source.read(into: buffer, count: count, at: offset)
    }

    static let length: @convention(c) (UnsafeMutableRawPointer?) -> Int64 = { context in
        guard let context, let length = Unmanaged<SourceReading>.fromOpaque(context).takeUnretainedValue().source.length else {
            errno = ESPIPE
            return -1
        }
        return length
    }
}
