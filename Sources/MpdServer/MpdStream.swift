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
