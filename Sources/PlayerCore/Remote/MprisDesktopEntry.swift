/// MPRIS's `DesktopEntry`: the basename of the desktop file that describes the player, so that
/// a desktop shows its icon and name. `make install` installs one (`Resources/tplayer.desktop`),
/// but a binary may run without it, so the property is offered only when one is there, where the
/// XDG base directories say applications are.
public enum MprisDesktopEntry {
    /// The desktop file's basename, without `.desktop`.
    public static let name = "tplayer"

    /// Where `tplayer.desktop` may be: `$XDG_DATA_HOME/applications` (by default
    /// `~/.local/share/applications`), then each folder of `$XDG_DATA_DIRS` (by default
    /// `/usr/local/share:/usr/share`) followed by `applications`. Relative folders are ignored,
    /// as the XDG spec asks.
    public static func candidates(environment: [String: String]) -> [Path] {
        var folders: [String] = []
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            folders.append(home)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folders.append(home + "/.local/share")
        }
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        folders += dirs.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return folders.map { Path($0).appending("applications").appending(Path(name + ".desktop")) }
    }

    /// `name` when a desktop file is installed (`exists` says so of one candidate), else `nil`.
    public static func find(environment: [String: String], exists: (Path) -> Bool) -> String? {
        candidates(environment: environment).contains(where: exists) ? name : nil
    }
}
