import Files
import PlayerCore

/// The settings of the live output beyond its driver: the device (`device =`, as `-a`), and
/// what a Snapcast output asks its server (`snapcast-control`, `snapcast-format`,
/// `snapcast-buffer`), and where an Icecast output broadcasts (`icecast`, `icecast-format`).
extension Settings {
    static let outputNames = ["device", "snapcast-pipe", "snapcast-control", "snapcast-format", "snapcast-buffer", "icecast", "icecast-format"]

    /// Sets `name` when it is one of these: `nil` when it is not one, else why it cannot be set
    /// (`.some(nil)`: it was).
    mutating func setOutputSetting(_ name: String, to value: String) -> String?? {
        switch name {
        case "device":
            guard !value.isEmpty else { return "give a device: PulseAudio's sink, or snapserver's pipe (e.g. /tmp/snapfifo)" }
            outputSetup.device = value
        case "snapcast-pipe":
            guard !value.isEmpty, !value.contains("\0") else { return "give snapserver's pipe (e.g. /tmp/snapfifo) or tcp://HOST:PORT" }
            outputSetup.snapcast.pipe = value
        case "snapcast-control":
            if value == "off" {
                outputSetup.snapcast.control = nil
            } else if case .failure(let problem) = SocketAddress.parse(value, defaultPort: 1705) {
                return .some(problem.reason + ", e.g. snapcast-control = 127.0.0.1:1705 (or off)")
            } else {
                outputSetup.snapcast.control = value
            }
        case "snapcast-format":
            guard let format = SnapcastFormat.parse(value) else { return .some(SnapcastFormat.hint) }
            outputSetup.snapcast.format = format
        case "snapcast-buffer":
            let number = value.hasSuffix("ms") ? String(value.dropLast(2)) : value
            guard let milliseconds = Int(number), (0...60_000).contains(milliseconds) else {
                return .some("give snapserver's buffer in milliseconds, 0 to 60000 (its own default: 1000)")
            }
            outputSetup.snapcast.bufferSeconds = Double(milliseconds) / 1000
        case "icecast":
            switch IcecastMount.parse(value) {
            case .success(let mount): outputSetup.icecast.mount = mount
            case .failure(let problem): return .some(problem.reason)
            }
        case "icecast-format":
            guard let encoding = IcecastEncoding.parse(value) else { return .some(IcecastEncoding.hint) }
            outputSetup.icecast.encoding = encoding
        default:
            return nil
        }
        return .some(nil)
    }

    /// The outputs that can follow the first (`output = pulse, snapcast`).
    static let followers = ["snapcast", "icecast"]

    /// `value` as a problem may quote it: a password never (`mpd-password`'s whole value, the
    /// password in `icecast`'s URL), in its place `…`.
    static func withoutSecret(_ name: String, _ value: String) -> String {
        switch name {
        case "mpd-password":
            return "…"
        case "icecast":
            // Whatever it is: after the scheme, all up to the last @ but the user (before a
            // colon) is hidden; without an @, all after the scheme.
            let start = value.range(of: "://")?.upperBound ?? value.startIndex
            guard let at = value[start...].lastIndex(of: "@") else { return String(value[..<start]) + "…" }
            let user = value[start..<at].firstIndex(of: ":").map { value[start...$0] } ?? ""
            return String(value[..<start]) + user + "…" + String(value[at...])
        default:
            return value
        }
    }
}
