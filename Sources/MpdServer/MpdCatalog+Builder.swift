import Library
import PlayerCore

extension MpdCatalog {
    /// Songs taken a row at a time, each keeping only what the catalog holds of it, read from
    /// the row's bytes where SQLite holds them (`SongRow`): a million songs' read makes no
    /// record and no string but the artists' and albums' names it counts.
    struct Builder {
        let roots: MpdRoots
        let uriBytes = GrowingList<UInt8>(), uriEnds: GrowingList<UInt32>, ids: GrowingList<Int64>, times: GrowingList<Int64>
        let formats: GrowingList<UInt64>, lengths: GrowingList<Double>
        var columns: MpdTagColumns.Builder
        /// What `stats` counts: each name once (a name is looked up only when it is not the
        /// last one seen), and the songs' length.
        private(set) var artists = Set<String>(), albums = Set<String>(), seconds = 0.0
        private var lastArtist: [UInt8]?, lastAlbum: [UInt8]?

        init(roots: MpdRoots, expected: Int) {
            self.roots = roots
            (uriEnds, ids, times) = (GrowingList(expected: expected), GrowingList(expected: expected), GrowingList(expected: expected))
            (formats, lengths) = (GrowingList(expected: expected), GrowingList(expected: expected))
            columns = MpdTagColumns.Builder(expected: expected)
        }

        /// The song of `row` (read by `LibraryDatabase.eachRow`), if it lies in the library
        /// folder `folder` (the first that holds it, as its URI says).
        mutating func add(_ row: SongRow, in folder: (path: Path, name: String)) {
            guard let id = row.integer(.id), let directory = row.bytes(.folder), let name = row.bytes(.name) else { return }
            let format = (row.integer(.rate).flatMap(Int.init(exactly:)) ?? 0, row.integer(.bits).flatMap(Int.init(exactly:)),
                          row.integer(.channels).flatMap(Int.init(exactly:)) ?? 0)
            add(directory, name, in: folder, id: id, modified: row.integer(.modified) ?? 0, format: format, seconds: row.real(.seconds)) {
                MpdRowText.visit(row, $0)
            }
        }

        /// The song `record`, of row `id` (a catalog made from records).
        mutating func add(_ record: LibrarySong, id: Int64, in folder: (path: Path, name: String)) {
            record.path.bytes.withUnsafeBufferPointer { path in
                add(path, UnsafeBufferPointer(start: nil, count: 0), in: folder, id: id, modified: record.modified,
                    format: (record.rate, record.bits, record.channels), seconds: record.seconds) { give in
                    MpdSongText.visit(record) { tag, value in
                        var value = value
                        value.withUTF8 { give(tag, $0) }
                    }
                }
            }
        }

        /// The song whose path is `directory` then `name`.
        private mutating func add(_ directory: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>, in folder: (path: Path, name: String),
                                  id: Int64, modified: Int64, format: (rate: Int, bits: Int?, channels: Int), seconds length: Double?,
                                  tags: (_ give: (MpdTag, UnsafeBufferPointer<UInt8>) -> Void) -> Void) {
            let top = folder.path.bytes == [0x2F] ? [] : folder.path.bytes
            let count = directory.count + name.count
            guard count > top.count + 1, Self.byte(top.count, of: directory, name) == 0x2F,
                  (0..<top.count).allSatisfy({ Self.byte($0, of: directory, name) == top[$0] }) else { return }
            if roots.folders.count > 1 {
                let path = Array(directory) + Array(name)
                guard roots.folders.first(where: { Self.holds($0.path, path) })?.path == folder.path else { return }
            }
            let start = top.count + 1
            guard uriBytes.count + count - start + folder.name.utf8.count + 1 <= Int(UInt32.max) else { return }
            if !folder.name.isEmpty {
                var named = folder.name + "/"
                named.withUTF8(uriBytes.append)
            }
            if start < directory.count { uriBytes.append(contentsOf: UnsafeBufferPointer(rebasing: directory[start...])) }
            uriBytes.append(contentsOf: UnsafeBufferPointer(rebasing: name[max(start - directory.count, 0)...]))
            uriEnds.append(UInt32(uriBytes.count))
            ids.append(id)
            times.append(modified / 1_000_000_000)
            let bits = format.bits.map { min(UInt64(clamping: $0), 0xFFFE) } ?? 0xFFFF
            formats.append(format.rate > 0
                           ? UInt64(UInt32(clamping: format.rate)) << 32 | bits << 16 | UInt64(UInt16(clamping: format.channels)) : 0)
            lengths.append(length ?? .nan)
            seconds += max(length ?? 0, 0)
            tags { tag, value in
                columns.value(tag, value)
                if tag == .artist, lastArtist.map({ !$0.elementsEqual(value) }) ?? true {
                    artists.insert(String(decoding: value, as: UTF8.self))
                    lastArtist = Array(value)
                } else if tag == .album, lastAlbum.map({ !$0.elementsEqual(value) }) ?? true {
                    albums.insert(String(decoding: value, as: UTF8.self))
                    lastAlbum = Array(value)
                }
            }
            columns.endSong()
        }

        /// Byte `place` of `first` then `second`.
        private static func byte(_ place: Int, of first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> UInt8 {
            place < first.count ? first[place] : second[place - first.count]
        }

        private static func holds(_ folder: Path, _ path: [UInt8]) -> Bool {
            let inner = folder.bytes == [0x2F] ? [] : folder.bytes
            return path.count > inner.count && path.starts(with: inner) && path[inner.count] == 0x2F
        }
    }
}
