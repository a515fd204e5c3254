import Glibc

/// The few file-system calls input expansion needs, over Glibc.
enum FileSystem {
    /// Playlists larger than this are refused rather than read whole (100,000 entries of long
    /// paths fit in a few megabytes).
    static let maxPlaylistBytes = 256 << 20

    struct Failure: Error {
        let reason: String

        static func errno() -> Failure { Failure(reason: String(cString: strerror(Glibc.errno))) }
    }

    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    struct DirectoryItem {
        let name: String
        let isDirectory: Bool
    }

    static func fileID(_ path: String) -> FileID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The visible entries of a folder (names starting with a dot are skipped). Symbolic links
    /// are followed to learn whether they lead to a folder.
    static func list(_ path: String) -> Result<[DirectoryItem], Failure> {
        guard let directory = opendir(path) else { return .failure(.errno()) }
        defer { closedir(directory) }
        var items: [DirectoryItem] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            var isDirectory = Int32(entry.pointee.d_type) == DT_DIR
            if Int32(entry.pointee.d_type) == DT_LNK || Int32(entry.pointee.d_type) == DT_UNKNOWN {
                var info = stat()
                let full = (path.hasSuffix("/") ? path : path + "/") + name
                isDirectory = stat(full, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            items.append(DirectoryItem(name: name, isDirectory: isDirectory))
        }
        return .success(items)
    }

    /// The whole file, refusing one over `limit` bytes.
    static func readFile(_ path: String, limit: Int) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.errno()) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(.errno()) }
            if count == 0 { return .success(bytes) }
            bytes += chunk[0..<count]
            if bytes.count > limit {
                return .failure(Failure(reason: "larger than \(limit >> 20) MB; is it really a playlist?"))
            }
        }
    }

    static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder part of `path`: `""` for a bare name, `"/"` for a file at the root.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// Natural sort order: runs of digits compare by their number (`track2` < `track10`), the rest
/// case-insensitively, with the exact text as the final tie-break so the order is total.
public enum NaturalOrder {
    public static func less(_ a: String, _ b: String) -> Bool {
        let order = compare(Array(a.unicodeScalars), Array(b.unicodeScalars))
        return order == 0 ? a < b : order < 0
    }

    private static func compare(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                let startA = i
                let startB = j
                while i < a.count, isDigit(a[i]) { i += 1 }
                while j < b.count, isDigit(b[j]) { j += 1 }
                let digitsA = a[startA..<i].drop { $0 == "0" }
                let digitsB = b[startB..<j].drop { $0 == "0" }
                if digitsA.count != digitsB.count { return digitsA.count < digitsB.count ? -1 : 1 }
                for (x, y) in zip(digitsA, digitsB) where x != y { return x.value < y.value ? -1 : 1 }
                continue
            }
            let x = folded(a[i])
            let y = folded(b[j])
            if x != y { return x < y ? -1 : 1 }
            i += 1
            j += 1
        }
        return (a.count - i) - (b.count - j) < 0 ? -1 : ((a.count - i) == (b.count - j) ? 0 : 1)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 48 && scalar.value <= 57
    }

    private static func folded(_ scalar: Unicode.Scalar) -> UInt32 {
        scalar.value >= 65 && scalar.value <= 90 ? scalar.value + 32 : scalar.value
    }
}
