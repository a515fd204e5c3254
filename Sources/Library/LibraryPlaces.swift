import Files
import PlayerCore

/// Where the library is kept and which folders it holds.
public enum LibraryPlaces {
    /// `$XDG_DATA_HOME/tplayer/library.sqlite`, else `~/.local/share/tplayer/library.sqlite`:
    /// play counts and ratings are the user's data, not a cache.
    public static func database(environment: [String: String]) -> Path? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return Path(data).appending("tplayer/library.sqlite")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return Path(home).appending(".local/share/tplayer/library.sqlite")
    }

    /// The folders of the settings' `library =` lines (`~/` is `HOME`'s); none given, the XDG
    /// music folder (`XDG_MUSIC_DIR` in the environment, else in `~/.config/user-dirs.dirs`),
    /// else `~/Music`, when it is a folder.
    public static func folders(configured: [String], environment: [String: String], userDirs: [UInt8]?,
                               isFolder: (Path) -> Bool) -> [Path] {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? Path($0) : nil }
        func expanded(_ text: String) -> Path? {
            if text == "~" { return home }
            if text.hasPrefix("~/") { return home?.appending(Path(String(text.dropFirst(2)))) }
            return text.hasPrefix("/") ? Path(text) : nil
        }
        if !configured.isEmpty { return configured.compactMap(expanded) }
        let set = environment["XDG_MUSIC_DIR"].flatMap { musicFolder(value: Substring($0), home: home) }
        let music = set ?? userDirs.flatMap { musicFolder(in: $0, home: home) } ?? home?.appending("Music")
        return music.map { isFolder($0) ? [$0] : [] } ?? []
    }

    /// `XDG_MUSIC_DIR="$HOME/Music"` from a user-dirs.dirs file, `$HOME` put in.
    static func musicFolder(in file: [UInt8], home: Path?) -> Path? {
        let text = String(decoding: file, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("XDG_MUSIC_DIR=") {
            return musicFolder(value: line.dropFirst("XDG_MUSIC_DIR=".count), home: home)
        }
        return nil
    }

    /// `XDG_MUSIC_DIR`'s value (quoted or not, from the file or the environment), `$HOME` put in.
    static func musicFolder(value: Substring, home: Path?) -> Path? {
        var value = value
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
        if value.hasPrefix("$HOME") {
            guard let home else { return nil }
            let rest = value.dropFirst("$HOME".count).drop { $0 == "/" }
            return rest.isEmpty ? nil : home.appending(Path(String(rest)))  // "$HOME/" alone is no music folder
        }
        return value.hasPrefix("/") ? Path(String(value)) : nil
    }
}
