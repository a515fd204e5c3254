import Foundation
import Glibc

/// What the output tests share: a run kept to its own folder, a settings file, and a socket
/// that listens (and may never read or answer).
extension Harness {
    /// HOME and the XDG folders inside `folder`: nothing of the user's is read or written.
    static func isolated(_ folder: URL) -> [String: String] {
        ["HOME": folder.path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
         "XDG_STATE_HOME": folder.appendingPathComponent("state").path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path]
    }

    /// A settings file in `folder` holding `text`; its path.
    static func settingsFile(_ folder: URL, _ text: String) throws -> String {
        let path = folder.appendingPathComponent("settings").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A socket listening on a free port of 127.0.0.1 (`receiveBuffer`: its size, so that a
    /// sender fills it soon), and the port.
    static func listening(receiveBuffer: Int32? = nil) -> (descriptor: Int32, port: UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        if var size = receiveBuffer { _ = setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        listen(listener, 4)
        return (listener, UInt16(bigEndian: address.sin_port))
    }
}
