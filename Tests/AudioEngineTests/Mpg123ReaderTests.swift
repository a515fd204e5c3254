import CMpg123
import Foundation
import Glibc
import Testing

/// The buffered reader libmpg123 reads songs through (`tp_mpg123_open_source`): every read and
/// seek gives exactly the source's bytes, with a read-ahead small enough here to cross its edges
/// often. The source here is a file read with pread, as `SourceReading` reads an `OpenFile`.
struct Mpg123ReaderTests {
    /// A file's descriptor as a source: the context is the descriptor plus one (never NULL).
    private static func source(_ fd: Int32) -> tp_source {
        tp_source(read: { context, offset, buffer, count in
            pread(Int32(Int(bitPattern: context) - 1), buffer, count, off_t(offset))
        }, length: { context in
            var info = stat()
            return fstat(Int32(Int(bitPattern: context) - 1), &info) == 0 ? Int64(info.st_size) : -1
        }, context: UnsafeMutableRawPointer(bitPattern: Int(fd) + 1))
    }

    private static func file(_ bytes: [UInt8]) throws -> Int32 {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-reader-\(getpid())-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        unlink(path)
        try #require(fd >= 0)
        return fd
    }

    @Test(arguments: [1, 7, 4096])
    func readsAndSeeksGiveTheFilesBytes(capacity: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let fd = try Self.file(bytes)
        defer { close(fd) }
        let reader = try #require(tp_mpg123_reader_new(Self.source(fd), capacity))
        defer { free(reader) }
        var position = 0
        func read(_ count: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: count)
            let got = out.withUnsafeMutableBytes { tp_mpg123_reader_read(reader, $0.baseAddress, count) }
            guard got >= 0 else { return [] }
            position += got
            return Array(out.prefix(got))
        }
        func expected(_ count: Int) -> [UInt8] {
            Array(bytes[min(position, bytes.count)..<min(position + count, bytes.count)])
        }
        // Header-sized reads, a byte at a time (a resync), frames, and one larger than the buffer.
        for count in [4, 1, 1, 1, 417, 4, 9000, 3, 5000] {
            let want = expected(count)
            #expect(read(count) == want, "read \(count) at \(position)")
        }
        #expect(tp_mpg123_reader_seek(reader, 10, SEEK_SET) == 10)
        position = 10
        #expect(read(6) == Array(bytes[10..<16]), "back into what was read before")
        #expect(tp_mpg123_reader_seek(reader, 1000, SEEK_CUR) == 1016)
        position = 1016
        #expect(read(3) == Array(bytes[1016..<1019]))
        #expect(tp_mpg123_reader_seek(reader, -10, SEEK_END) == 19_990)
        position = 19_990
        #expect(read(100) == Array(bytes[19_990...]), "a short read at the end")
        #expect(read(100).isEmpty, "then the end of the file")
        #expect(tp_mpg123_reader_seek(reader, 50_000, SEEK_SET) == 50_000, "past the end, as lseek allows")
        #expect(read(10).isEmpty)
        #expect(tp_mpg123_reader_seek(reader, -1, SEEK_SET) == -1, "before the start: refused")
        #expect(tp_mpg123_reader_seek(reader, Int.max, SEEK_END) == -1, "beyond what an offset holds: refused")
    }

    @Test func aReadErrorIsAnError() throws {
        let reader = try #require(tp_mpg123_reader_new(Self.source(-1), 64))
        defer { free(reader) }
        var byte: UInt8 = 0
        #expect(tp_mpg123_reader_read(reader, &byte, 1) == -1)
    }
}
