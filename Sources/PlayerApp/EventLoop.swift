import Files
import Glibc

/// Waits, without spinning, for whatever the player must answer next: keys on stdin, signals,
/// engine reports, or the next status-line tick.
public struct EventLoop {
    public enum Input {
        case keys([UInt8])
        /// stdin reached its end or failed: stop reading keys.
        case keysClosed
        case signals
        case engine
        /// The outside control's descriptor (the D-Bus connection) is readable or closed.
        case control
        /// Work done off the main loop has finished.
        case work
        /// Some of `sockets` are ready: each with what it is ready for (`revents`).
        case sockets([pollfd])
    }

    private var keyFD: Int32?
    private let signalFD: Int32
    private let engineFD: Int32
    private let workFD: Int32?
    /// Watched for readability when set (MPRIS's bus connection).
    public var controlFD: Int32?
    /// Watched for what each asks (`events`) when set: the MPD server's listeners and clients.
    public var sockets: [pollfd] = []

    /// Watches `keyFD` for keys when given (only when stdin is a terminal).
    public init(keyFD: Int32?, signalFD: Int32, engineFD: Int32, workFD: Int32? = nil) {
        self.keyFD = keyFD
        self.signalFD = signalFD
        self.engineFD = engineFD
        self.workFD = workFD
    }

    /// Blocks until something is ready or `timeout` seconds pass (`nil`: no timeout). An empty
    /// result means the timeout passed.
    public mutating func wait(timeout: Double?) -> [Input] {
        var fds = [pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: engineFD, events: Int16(POLLIN), revents: 0)]
        if let keyFD { fds.append(pollfd(fd: keyFD, events: Int16(POLLIN), revents: 0)) }
        let controlIndex = fds.count
        if let controlFD { fds.append(pollfd(fd: controlFD, events: Int16(POLLIN), revents: 0)) }
        let workIndex = fds.count
        if let workFD { fds.append(pollfd(fd: workFD, events: Int16(POLLIN), revents: 0)) }
        let socketsIndex = fds.count
        fds += sockets
        // Rounded up, so a wait never wakes just before its deadline and polls again at once.
        let milliseconds = timeout.map { Int32(min(max($0 * 1000, 0), 86_400_000).rounded(.up)) } ?? -1
        let ready = Waiting.poll(&fds, milliseconds: milliseconds)
        guard ready > 0 else { return [] }
        var inputs: [Input] = []
        if fds[0].revents != 0 { inputs.append(.signals) }
        if fds[1].revents != 0 { inputs.append(.engine) }
        if controlFD != nil, fds[controlIndex].revents != 0 { inputs.append(.control) }
        if workFD != nil, fds[workIndex].revents != 0 { inputs.append(.work) }
        let readySockets = fds[socketsIndex...].filter { $0.revents != 0 }
        if !readySockets.isEmpty { inputs.append(.sockets(readySockets)) }
        if let keyFD, fds.count > 2, fds[2].revents != 0 {
            var bytes = [UInt8](repeating: 0, count: 256)
            let count = read(keyFD, &bytes, bytes.count)
            if count > 0 {
                inputs.append(.keys(Array(bytes[0..<count])))
            } else if count == 0 || ![.interrupted, .resourceTemporarilyUnavailable].contains(SystemError.current) {
                self.keyFD = nil
                inputs.append(.keysClosed)
            }
        }
        return inputs
    }
}
