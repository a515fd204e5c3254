import CLinux
import Glibc

/// The address space `ulimit -v` (RLIMIT_AS) leaves this process. Memory that runs out cannot
/// be caught in Swift (an allocation that fails ends the process), so what grows with its
/// input (a folder's listing, the list) asks first, and stops with a reason while there is
/// room left to say it and to play.
public enum MemoryLimit {
    /// Hands the heap's free pages back to the system (`malloc_trim`): for work that frees
    /// much between small allocations it keeps (a scan opening thousands of songs).
    public static func returnFreeHeap() {
        _ = malloc_trim(0)
    }

    /// What a run keeps free for everything else (threads, the decoder, the output).
    public static let reserve = 24 << 20

    /// The limit in bytes, or `nil` when there is none.
    public static var limit: Int? {
        var value = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &value) == 0, value.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: value.rlim_cur)
    }

    /// Whether the address space in use has come within `reserve` of the limit.
    public static var isNearlyExhausted: Bool {
        guard let limit, let used = addressSpaceInUse else { return false }
        return used + reserve > limit
    }

    /// The address space in use now (`/proc/self/statm`'s first field), in bytes.
    static var addressSpaceInUse: Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0, let pages = Int(String(decoding: buffer[0..<count].prefix { $0 != 0x20 }, as: UTF8.self)) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// "the address space is limited to 29 MB by ulimit -v", for messages.
    public static var description: String {
        "the address space is limited to \((limit ?? 0) >> 20) MB by ulimit -v"
    }
}
