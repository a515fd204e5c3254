import PlayerCore

/// A reply too large to build whole (`listallinfo` of a library of a million, a `find` of half
/// of it, a list of 100,000 entries): its items made a chunk at a time as the client reads them,
/// from a snapshot taken when the command ran, its `OK` after the last.
public final class MpdStream {
    private let count: Int
    private var index = 0
    private let render: (Range<Int>) -> String
    /// How many items each call renders.
    private let batch: Int

    /// `render` gives the text of the items of a range of `0..<count`.
    init(count: Int, batch: Int = 256, render: @escaping (Range<Int>) -> String) {
        self.count = count
        self.batch = batch
        self.render = render
    }

    var isDone: Bool { index >= count }

    /// What is left of it, whole (a reply in a command list).
    var rest: String {
        defer { index = count }
        return index < count ? render(index..<count) : ""
    }

    /// Appends items until about `limit` bytes are added or none is left.
    func fill(_ output: inout [UInt8], limit: Int) {
        let start = output.count
        while index < count, output.count - start < limit {
            let end = min(index + batch, count)
            output += render(index..<end).utf8
            index = end
        }
    }
}

extension MpdResponder {
    /// The commands whose replies are streamed when they come alone (in a command list, a reply
    /// is built whole, as MPD builds it, within its 8 MiB).
    static let streamed: Set = ["listall", "listallinfo", "find", "search", "playlistinfo"]

    /// `command`'s reply as a stream, or why it failed; `nil` for a command not streamed, or a
    /// form of it that is small (it is answered as any other).
    func stream(_ name: String, _ arguments: [String], client: MpdClientState) -> Result<MpdStream, MpdAck>? {
        switch name {
        case "playlistinfo":
            guard arguments.isEmpty else { return nil }
            let entries = session.entries
            return .success(MpdStream(count: entries.count) { [self] range in songs(range, client: client, entries: entries) })
        case "find", "search":
            guard let catalog = catalog() else { return .failure(Self.noDatabase) }
            return selection(arguments, foldCase: name == "search", catalog).map { found in
                MpdStream(count: found.count) { range in found[range].map { catalog.text($0, client.tags) }.joined() }
            }
        case "listall", "listallinfo":
            guard let catalog = catalog() else { return .failure(Self.noDatabase) }
            let uri = Self.folder(arguments.first ?? "")
            guard catalog.song(uri) == nil else { return nil }
            guard uri.isEmpty || !catalog.under(uri).isEmpty else { return .failure(MpdAck(.noExist, "No such directory")) }
            let info = name == "listallinfo"
            var items: [MpdCatalog.Item] = uri.isEmpty ? [] : [.folder(uri)]
            catalog.walk(uri, into: &items)
            return .success(MpdStream(count: items.count) { [self] range in
                var text = ""
                for item in items[range] {
                    switch item {
                    case .folder(let folder): text += folderLines(folder, catalog, modified: info)
                    case .song(let song):
                        text += info ? catalog.text(song, client.tags) : "file: \(UntrustedText.shown(song.uri))\n"
                    }
                }
                return text
            })
        default:
            return nil
        }
    }
}

extension MpdCatalog {
    /// What a recursive listing holds, in MPD's order: a folder as it is entered, a song.
    enum Item {
        case folder(String)
        case song(Song)
    }

    /// Everything under `uri`: each folder's songs, then its folders, each followed by what it holds.
    func walk(_ uri: String, into items: inout [Item]) {
        let (folders, direct) = children(of: uri)
        items += direct.map(Item.song)
        for folder in folders {
            items.append(.folder(folder))
            walk(folder, into: &items)
        }
    }
}
