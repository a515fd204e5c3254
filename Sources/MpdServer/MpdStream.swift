import PlayerCore

/// A reply too large to build whole (`listallinfo` of a library of a million, a `find` of half
/// of it, a list of 100,000 entries): its items made a chunk at a time as the client reads them,
/// from a snapshot taken when the command ran, its `OK` after the last.
public final class MpdStream {
    /// The next piece of text; `nil` at the end.
    private let next: () -> String?
    /// A piece taken to see whether one is left (`isDone`), not handed on yet.
    private var ahead: String?
    private var ended = false

    /// `next` gives the reply a piece at a time (a few hundred items), `nil` after the last.
    init(next: @escaping () -> String?) {
        self.next = next
    }

    /// `render` gives the text of the items of a range of `0..<count`, `batch` at a time.
    convenience init(count: Int, batch: Int = 256, render: @escaping (Range<Int>) -> String) {
        var index = 0
        self.init {
            guard index < count else { return nil }
            let end = min(index + batch, count)
            defer { index = end }
            return render(index..<end)
        }
    }

    /// The next piece, the one looked at first if there is one.
    private func take() -> String? {
        if let piece = ahead {
            ahead = nil
            return piece
        }
        guard !ended else { return nil }
        guard let piece = next() else {
            ended = true
            return nil
        }
        return piece
    }

    var isDone: Bool {
        if ahead != nil { return false }
        ahead = take()
        return ahead == nil
    }

    /// What is left of it, whole (a reply in a command list).
    var rest: String {
        var text = ""
        while let piece = take() { text += piece }
        return text
    }

    /// Appends pieces until about `limit` bytes are added or none is left.
    func fill(_ output: inout [UInt8], limit: Int) {
        let start = output.count
        while output.count - start < limit, let piece = take() { output += piece.utf8 }
    }
}

extension MpdCatalog {
    /// Everything under `uri` in MPD's order (a folder as it is entered, then its songs, then
    /// each of its folders with what it holds), `batch` items a piece, as a reader takes them:
    /// what is held is the folders still to enter and one folder's songs, never the whole list.
    /// A piece's songs are made together (`songs`: one read of their rows).
    func walk(_ uri: String, batch: Int = 256, folder: @escaping (String) -> String, songs: @escaping ([Int]) -> String) -> () -> String? {
        var folders = [uri]
        var direct: ArraySlice<Int> = []
        return { [self] in
            var text = ""
            var made = 0
            var pending: [Int] = []
            while made < batch {
                if let next = direct.popFirst() {
                    pending.append(next)
                } else if let next = folders.popLast() {
                    if !next.isEmpty {
                        if !pending.isEmpty { text += songs(pending) }
                        pending = []
                        text += folder(next)
                    }
                    let (inside, held) = children(of: next)
                    direct = held[...]
                    folders += inside.reversed()
                } else {
                    break
                }
                made += 1
            }
            if !pending.isEmpty { text += songs(pending) }
            return made == 0 ? nil : text
        }
    }
}
