import Foundation
import Testing
import Glibc

/// A real Icecast 2 server (`icecast2`) on 127.0.0.1, on a port of its own, with ffmpeg as its
/// source playing `song` again and again at its own pace (`-re`), as a radio's encoder does (no
/// song: no source, the mounts are tplayer's to make: `-o icecast`). It can be killed and
/// started again on the same port (`restart`), and a title set through its admin API
/// (`setTitle`). Stopped when released.
final class IcecastServer {
    let port: Int
    let mount = "/radio.mp3"
    private let folder: URL
    private let song: String?
    private var server: Process?
    private var source: Process?
    static let password = "tplayer-source"
    static let admin = "tplayer-admin"

    var url: String { "http://127.0.0.1:\(port)\(mount)" }

    init(song: String?) throws {
        folder = try Harness.temporaryFolder()
        self.song = song
        port = try Self.freePort()
        let logs = folder.appendingPathComponent("log")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        chmod(logs.path, 0o777)
        // Icecast refuses to run as root unless told whom to become.
        let owner = getuid() == 0 ? "<changeowner><user>nobody</user><group>nogroup</group></changeowner>" : ""
        let config = """
            <icecast>
              <limits><clients>20</clients><sources>2</sources><queue-size>524288</queue-size><client-timeout>30</client-timeout>
                <header-timeout>15</header-timeout><source-timeout>10</source-timeout><burst-size>65536</burst-size></limits>
              <authentication><source-password>\(Self.password)</source-password><admin-user>admin</admin-user>
                <admin-password>\(Self.admin)</admin-password></authentication>
              <hostname>127.0.0.1</hostname>
              <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
              <paths><logdir>\(logs.path)</logdir><webroot>/usr/share/icecast2/web</webroot>
                <adminroot>/usr/share/icecast2/admin</adminroot></paths>
              <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
              <security><chroot>0</chroot>\(owner)</security>
            </icecast>
            """
        try config.write(to: folder.appendingPathComponent("icecast.xml"), atomically: true, encoding: .utf8)
        try start()
    }

    deinit { stop() }

    /// A port nothing listens on now (the kernel's choice, let go at once).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw RemotePlayer.Failure(message: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts the server, then its source, and waits until the mount plays.
    func start() throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/icecast2")
        server.arguments = ["-c", folder.appendingPathComponent("icecast.xml").path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        self.server = server
        try waitFor(path: "/", status: [200, 404])
        guard let song else { return }
        let source = Process()
        source.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        source.arguments = ["-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", song, "-c", "copy",
                            "-content_type", "audio/mpeg", "-ice_name", "Test FM", "-ice_genre", "Tests", "-f", "mp3",
                            "icecast://source:\(Self.password)@127.0.0.1:\(port)\(mount)"]
        source.standardOutput = FileHandle.nullDevice
        source.standardError = FileHandle.nullDevice
        try source.run()
        self.source = source
        try waitFor(path: mount, status: [200])
    }

    /// Kills the server and its source at once (as a crash would).
    func stop() {
        for process in [source, server].compactMap({ $0 }) where process.isRunning {
            // SIGKILL: a child may inherit SIGTERM blocked from the test process.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit(within: BoundedWait.defaultSeconds)
        }
        source = nil
        server = nil
    }

    /// The stream's title, as a source's encoder would set it.
    func setTitle(_ title: String) throws {
        let song = title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let status = try LocalHTTP.get("http://127.0.0.1:\(port)/admin/metadata?mount=\(mount)&mode=updinfo&song=\(song)",
                                       user: "admin:\(Self.admin)", bodyBytes: 0).status
        guard status == 200 else { throw RemotePlayer.Failure(message: "the admin API answered \(status)") }
    }

    /// Waits (10 s at most) until a source plays on `mount`.
    func waitForMount(_ mount: String) throws {
        try waitFor(path: mount, status: [200])
    }

    /// Waits (10 s at most) until GET `path` answers one of `status`.
    private func waitFor(path: String, status: Set<Int>) throws {
        for _ in 0..<100 {
            if let answer = try? LocalHTTP.get("http://127.0.0.1:\(port)\(path)", bodyBytes: 0), status.contains(answer.status) { return }
            usleep(100_000)
        }
        throw RemotePlayer.Failure(message: "Icecast on \(port) never answered \(path)")
    }
}

/// GET on a server of the tests' own on 127.0.0.1, with Python's urllib: the status, and at most
/// `bodyBytes` of the body (a mount's body never ends: 0 reads none).
enum LocalHTTP {
    static func get(_ url: String, user: String? = nil, bodyBytes: Int = 1 << 20) throws -> (status: Int, body: String) {
        let auth = user.map { "r.add_header('Authorization', 'Basic ' + base64.b64encode(b'\($0)').decode())" } ?? "pass"
        let script = """
            import base64, urllib.request, urllib.error, sys
            r = urllib.request.Request('\(url)')
            \(auth)
            try:
                a = urllib.request.urlopen(r, timeout=5)
                print(a.status); print(a.read(\(bodyBytes)).decode(errors='replace'))
            except urllib.error.HTTPError as e:
                print(e.code)
            """
        let run = try Harness.run("/usr/bin/python3", ["-c", script])
        let lines = run.stdout.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = lines.first, let status = Int(first.trimmingCharacters(in: .whitespaces)) else {
            throw RemotePlayer.Failure(message: "no answer from \(url): \(run.stderr)")
        }
        return (status, lines.count > 1 ? String(lines[1]) : "")
    }
}
