import Files
import Glibc
import PlayerCore
import Testing

/// Where `--mpd` and `mpd =` listen, read, and listening sockets that leave a user's files alone.
struct SocketAddressTests {
    @Test func addressesAreReadAsPortsHostsAndPaths() {
        func parsed(_ text: String) -> SocketAddress? { try? SocketAddress.parse(text, defaultPort: 6600).get() }
        #expect(parsed("127.0.0.1:6601") == .inet4(host: "127.0.0.1", port: 6601))
        #expect(parsed("6602") == .inet4(host: "127.0.0.1", port: 6602))
        #expect(parsed(":6603") == .inet4(host: "127.0.0.1", port: 6603))
        #expect(parsed("localhost") == .inet4(host: "127.0.0.1", port: 6600))
        #expect(parsed("any:7000") == .inet4(host: "0.0.0.0", port: 7000))
        #expect(parsed("[::1]:6604") == .inet6(host: "::1", port: 6604))
        #expect(parsed("/run/user/1000/tplayer.socket") == .unix("/run/user/1000/tplayer.socket"))
        for bad in ["example.org", "1.2.3.4:0", "1.2.3.4:70000", "::1:6600", "[::1", "[nope]:1", "127.0.0.1:", "1.2.3.4:x"] {
            #expect(parsed(bad) == nil, "\(bad)")
        }
        #expect(SocketAddress.inet4(host: "127.0.0.2", port: 1).isLocal && SocketAddress.inet6(host: "::1", port: 1).isLocal)
        #expect(!SocketAddress.inet4(host: "0.0.0.0", port: 1).isLocal && !SocketAddress.inet6(host: "::", port: 1).isLocal)
    }

    @Test func aUnixSocketIsMadeRemovedAndNeverPutOverAFile() throws {
        let folder = "/tmp/tplayer-socket-test-\(getpid())"
        mkdir(folder, 0o700)
        defer { rmdir(folder) }
        let path = Path(folder + "/s")
        let listener = try ListeningSocket.listen(on: .unix(path)).get()
        #expect(FileSystem.exists(path))
        // Another server there: refused, and the socket left as it is.
        #expect(throws: SocketProblem.self) { try ListeningSocket.listen(on: .unix(path)).get() }
        listener.close()
        #expect(!FileSystem.exists(path))
        // A file of the user's at the path is never replaced.
        let file = open(folder + "/s", O_CREAT | O_WRONLY, 0o600)
        close(file)
        #expect(throws: SocketProblem("something other than a socket is there; name a new path")) {
            try ListeningSocket.listen(on: .unix(path)).get()
        }
        #expect(FileSystem.exists(path))
        unlink(folder + "/s")
    }
}
