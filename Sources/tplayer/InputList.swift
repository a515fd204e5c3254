import Glibc
import PlayerCore

/// Turns the command line's inputs into the list of songs to play: playlists are expanded in
/// place, everything else is taken as a song (and checked when it loads).
struct InputList {
    private(set) var songs: [String] = []
    /// Inputs that could not be expanded, as `"<input>: <what went wrong>"`.
    private(set) var problems: [String] = []

    init(_ inputs: [String]) {
        for input in inputs {
            guard Playlist.isPlaylist(input) else {
                songs.append(input)
                continue
            }
            switch Self.readText(input) {
            case .success(let text):
                songs += Playlist.m3uEntries(text, directory: Self.directory(of: input))
            case .failure(let reason):
                problems.append("\(input): cannot read playlist: \(reason)")
            }
        }
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private struct ReadFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// A small text file read whole (playlists only; songs are streamed by the decoder).
    private static func readText(_ path: String) -> Result<String, ReadFailure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ReadFailure(reason: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(ReadFailure(reason: String(cString: strerror(errno)))) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }
}
