import Glibc

/// An open file descriptor, closed exactly once, when the object goes.
public final class OpenFile {
    public let descriptor: Int32

    init(fd: Int32) {
        descriptor = fd
    }

    private var closed = false

    deinit { if !closed { Glibc.close(descriptor) } }

    /// `count` bytes at `offset` (`pread`: the descriptor's offset is not moved); `nil` when
    /// fewer are there.
    public func read(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let got = bytes.withUnsafeMutableBytes { read(into: $0.baseAddress!, count: count, at: Int64(offset)) }
        return got == count ? bytes : nil
    }

    /// Reads up to `count` bytes at `offset` into `buffer` (`pread`, again when a signal
    /// interrupts it): how many were read, 0 at the end, -1 with errno set.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        while true {
            let got = pread(descriptor, buffer, count, off_t(offset))
            if got < 0, errno == EINTR { continue }
            return got
        }
    }

    /// What the open file is now (`fstat`): its size shrinks if someone truncates it.
    public func status() -> Result<FileStatus, SystemError> {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? .success(FileStatus(info)) : .failure(.current)
    }

    /// Writes all of `bytes` at the current position (or at `offset`), whatever the system
    /// takes at a time; the reason when it cannot (`ESPIPE` for an offset in a pipe).
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int? = nil) -> SystemError? {
        var done = 0
        while done < bytes.count {
            let rest = bytes.baseAddress! + done
            let count = offset.map { pwrite(descriptor, rest, bytes.count - done, off_t($0 + done)) }
                ?? Glibc.write(descriptor, rest, bytes.count - done)
            if count < 0 && SystemError.current == .interrupted { continue }
            guard count > 0 else { return count < 0 ? .current : .ioError }
            done += count
        }
        return nil
    }

    /// Where the next write goes, in a file that can be rewound and written there again (not a
    /// pipe, not a file opened for appending, where a write at an offset goes to the end).
    public func rewritablePosition() -> Int? {
        guard fcntl(descriptor, F_GETFL) & O_APPEND == 0, let offset else { return nil }
        return Int(offset)
    }

    /// Where the next read or write goes (`lseek`); `nil` for a pipe.
    public var offset: Int64? {
        let position = lseek(descriptor, 0, SEEK_CUR)
        return position >= 0 ? Int64(position) : nil
    }

    /// Cuts the file to `length` bytes (`ftruncate`).
    public func truncate(to length: Int) -> SystemError? {
        ftruncate(descriptor, off_t(length)) == 0 ? nil : .current
    }

    /// Waits until what was written is on the disk (`fsync`).
    public func sync() -> SystemError? {
        fsync(descriptor) == 0 ? nil : .current
    }

    /// Closes the file now, with the reason if the system could not finish writing it.
    public func close() -> SystemError? {
        guard !closed else { return nil }
        closed = true
        return Glibc.close(descriptor) == 0 ? nil : .current
    }
}
