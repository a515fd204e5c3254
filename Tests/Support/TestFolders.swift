import Foundation

/// Folders the tests make for their files, each removed when the test process ends (runs of
/// `make test` had left hundreds of them in /tmp each time).
public enum TestFolders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [String] = []
    private static let removedAtExit: Void = { atexit { TestFolders.removeAll() } }()

    /// A new folder in the temporary directory, named `prefix`, this process and a unique part.
    public static func make(_ prefix: String) throws -> URL {
        _ = removedAtExit
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        lock.withLock { made.append(folder.path) }
        return folder
    }

    private static func removeAll() {
        for folder in lock.withLock({ made }) { try? FileManager.default.removeItem(atPath: folder) }
    }
}
