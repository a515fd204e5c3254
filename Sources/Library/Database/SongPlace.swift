import Files
import Foundation
import PlayerCore

/// Where a song's row lies: its folder, a row of `dir` (the folder's path with a "/" at its
/// end, held once for all its songs), and its name in it. A CUE sheet's track
/// (`x.cue/track0002`) lies in the sheet's folder, named `x.cue/track0002`: the folder a scan
/// lists it in.
///
/// Places are in the library's order of paths (`<`): a folder's songs by their names' bytes,
/// then the folders in it, each in turn, by theirs. It is the order a scan walks in
/// (`LibraryWalk`), beside the rows it reads back a page at a time, and MPD's for the songs
/// under a folder.
public struct SongPlace: Comparable, Hashable, Sendable {
    public let folder: [UInt8]
    public let name: [UInt8]

    public init(_ path: Path) {
        let bytes = path.bytes
        let slash = UInt8(ascii: "/")
        var cut = bytes.lastIndex(of: slash).map { $0 + 1 } ?? 0
        // (A name that is no "track…" is no sheet's track: told without reading it whole.)
        if cut > 1, bytes[cut...].starts(with: Self.track), CueTrackPath.parse(path) != nil,
           let sheet = bytes[..<(cut - 1)].lastIndex(of: slash) { cut = sheet + 1 }
        folder = Array(bytes[..<cut])
        name = Array(bytes[cut...])
    }

    private static let track = Array("track".utf8)

    init(folder: Data, name: Data) {
        self.folder = Array(folder)
        self.name = Array(name)
    }

    init(folder: [UInt8], name: Data) {
        self.folder = folder
        self.name = Array(name)
    }

    public var path: Path { Path(bytes: folder + name) }

    public static func < (lhs: SongPlace, rhs: SongPlace) -> Bool {
        lhs.folder == rhs.folder ? lhs.name.lexicographicallyPrecedes(rhs.name) : lhs.folder.lexicographicallyPrecedes(rhs.folder)
    }

    /// Its folder's path and its name, as `SongPlace.row`'s arguments are given.
    var arguments: [Data] { [Data(folder), Data(name)] }

    /// The condition that finds a song's row (of `song`, or the table `song` names) by its place,
    /// whose arguments are `arguments`.
    static func row(of song: String = "song") -> String {
        "\(song).dirid = (SELECT place.id FROM dir AS place WHERE place.path = ?) AND \(song).name = ?"
    }

    /// The places under `folder` (or in it): its own folder's row and every folder's whose path
    /// begins with it, from "FOLDER/" up to "FOLDER0" ("0" follows "/"), the latter left out.
    static func range(under folder: Path) -> (low: Data, high: Data) {
        var prefix = folder.bytes
        if prefix.last != UInt8(ascii: "/") { prefix.append(UInt8(ascii: "/")) }
        return (Data(prefix), Data(prefix.dropLast() + [UInt8(ascii: "/") + 1]))
    }
}
