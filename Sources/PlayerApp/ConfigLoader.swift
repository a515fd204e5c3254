import Files
import Glibc
import PlayerCore
import Terminal

/// Finds and reads the configuration file: `--config PATH`, else
/// `$XDG_CONFIG_HOME/tplayer/config`, else `~/.config/tplayer/config`. It is read through the
/// same guard as every input (a regular file, at most 1 MB, never a FIFO or a device); what
/// cannot be read is said in one line, and the player plays with tplayer's own settings.
public enum ConfigLoader {
    public static let maxBytes = 1 << 20

    /// Where the file is looked for without `--config`; `nil` when neither variable says.
    public static func location(environment: [String: String]) -> Path? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {  // a relative one is ignored, as the spec says
            return Path(config).appending("tplayer").appending("config")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return Path(home).appending(".config").appending("tplayer").appending("config")
    }

    /// This process's location.
    public static var location: Path? {
        location(environment: ProcessEnvironment.values(of: ["XDG_CONFIG_HOME", "HOME"]))
    }

    /// The settings, and the lines to say about the file (each problem located in it).
    /// `explicit`: `--config PATH`, which must be there; the default file may be missing.
    public static func load(explicit: Path?, outputs: () -> [String]) -> (settings: Settings, said: [String]) {
        guard let path = explicit ?? location else { return (Settings(), []) }
        switch FileSystem.readAll(path, limit: maxBytes) {
        case .success(let bytes):
            let parsed = Settings.parse(bytes, file: "\(path)", outputs: outputs)
            return (parsed.settings, parsed.problems.map { "tplayer: " + $0.located })
        case .failure(.system(let error)) where explicit == nil && error == .noSuchFileOrDirectory:
            return (Settings(), [])
        case .failure(let error):
            let named = explicit != nil ? "--config \(path)" : "\(path)"
            return (Settings(), ["tplayer: \(named): \(error); playing with tplayer's own settings"])
        }
    }
}
