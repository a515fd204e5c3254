extension EntryList {
    /// A stretch of the list. Each entry is written as bytes into a chunk, and the segment
    /// holds where (`places`, 8 bytes an entry). What an entry refers to, the playlist that
    /// named it and its rarer fields, is held by the chunk it is written in, so chunks move
    /// between segments as they are (`append(contentsOf:)`).
    struct Segment: Sendable {
        /// Where each entry is written: its chunk in the high 32 bits, its offset in the low.
        private var places: [UInt64] = []
        private var chunks: [Chunk] = []
        /// The offset in the last chunk of the entry the next ones share their first bytes
        /// with (an entry written whole); `nil` before the first of a chunk.
        private var anchor: Int?
        /// Bytes of `chunks`, and rarer fields, that entries use, and that no entry uses any more.
        private var heldBytes = 0
        private var unusedBytes = 0
        private var extras = 0
        private var unusedExtras = 0

        var count: Int { places.count }
        /// The bytes its entries are written in (what `places` and the rarer fields take aside),
        /// and the bytes its chunks hold, those left behind by edits included.
        var bytesHeld: Int { heldBytes }
        var bytesWritten: Int { chunks.reduce(0) { $0 + $1.bytes.count } }

        private func written(_ position: Int) -> (chunk: Chunk, entry: Chunk.Written) {
            let place = places[position]
            let chunk = chunks[Int(place >> 32)]
            return (chunk, chunk.read(at: Int(place & 0xFFFF_FFFF)))
        }

        func entry(at position: Int) -> Entry {
            let (chunk, written) = written(position)
            return chunk.entry(written)
        }

        func path(at position: Int) -> Path {
            let (chunk, written) = written(position)
            return Path(bytes: chunk.path(written))
        }

        func source(at position: Int) -> SongSource {
            let (chunk, written) = written(position)
            return SongSource(Path(bytes: chunk.path(written)), span: written.extra >= 0 ? chunk.extras[written.extra].span : nil)
        }

        mutating func reserveCapacity(_ count: Int) {
            places.reserveCapacity(count)
        }

        mutating func append(_ entry: Entry) {
            places.append(write(entry))  // grows as an array does
        }

        /// Appends `other`'s entries as they are written: its chunks become this segment's, its
        /// places are copied (8 bytes an entry), and no entry is made whole.
        mutating func append(contentsOf other: Segment) {
            guard other.count > 0 else { return }
            let base = UInt64(chunks.count) << 32
            chunks += other.chunks
            places.append(contentsOf: other.places.lazy.map { $0 + base })
            anchor = other.anchor  // an offset in the last chunk, now other's last
            heldBytes += other.heldBytes
            unusedBytes += other.unusedBytes
            extras += other.extras
            unusedExtras += other.unusedExtras
        }

        mutating func replaceSubrange<C: Collection<Entry>>(_ range: Range<Int>, with new: C) {
            var removed = 0
            for position in range {
                let (_, written) = written(position)
                removed += written.length
                if written.extra >= 0 { unusedExtras += 1 }
            }
            heldBytes -= removed
            unusedBytes += removed
            places.replaceSubrange(range, with: new.map { write($0) })
            if unusedBytes > 4096, unusedBytes > heldBytes || unusedExtras > Swift.max(extras / 2, 64) { compact() }
        }

        /// Writes `entry` at the end of the last chunk (or of a new one), and says where.
        private mutating func write(_ entry: Entry) -> UInt64 {
            let title = entry.title.map { Array($0.utf8) }
            let bound = entry.path.bytes.count + (title?.count ?? 0) + Chunk.headerBound
            if chunks.isEmpty || (!chunks[chunks.count - 1].bytes.isEmpty
                                  && chunks[chunks.count - 1].bytes.count + bound > EntryList.chunkSize) {
                chunks.append(Chunk())
                anchor = nil
            }
            let last = chunks.count - 1
            let (offset, whole, extra) = chunks[last].write(entry, title: title, sharingWith: anchor)
            if whole { anchor = offset }
            heldBytes += chunks[last].bytes.count - offset
            if extra { extras += 1 }
            return UInt64(last) << 32 | UInt64(offset)
        }

        /// Takes back the bytes and rare fields no entry uses: each entry is written again, in
        /// order, into fresh chunks.
        private mutating func compact() {
            let old = self
            self = Segment()
            places.reserveCapacity(old.count)
            for position in 0..<old.count { places.append(write(old.entry(at: position))) }
        }
    }

    /// Entries written as bytes, with the playlists they came from and their rarer fields.
    ///
    /// An entry is a byte of flags, then numbers (LEB128), then its path's and title's bytes.
    /// An entry may share its path's and title's first bytes with one written whole before it
    /// in the chunk (an anchor): the songs of a folder, or of a playlist's run of one artist,
    /// hold only what differs from the first of them.
    struct Chunk: Sendable {
        var bytes: [UInt8] = []
        /// The playlists this chunk's entries came from, and each one's folder as the bytes its
        /// entries' paths start with (with the last `/`).
        var files: [String] = []
        var folders: [[UInt8]] = []
        var extras: [Extra] = []

        /// What only some entries have: a CUE track's span, tags and sheet, a URL as written, a
        /// column or a line past what the chunk writes.
        struct Extra: Sendable {
            var origin: SourceLocation?
            var written: String?
            var span: TrackSpan?
            var sheetTags: SongInfo.Tags?
            var sheet: Path?
        }

        private enum Flag {
            static let title: UInt8 = 1, inFolder: UInt8 = 2, file: UInt8 = 4, extra: UInt8 = 8, shares: UInt8 = 16
        }

        /// The most an entry's flags and numbers take: eight numbers of at most 10 bytes.
        static let headerBound = 81

        /// An entry as read at an offset.
        struct Written {
            var flags: UInt8 = 0
            /// The anchor's offset, and how many of its path's and title's bytes come first; -1: none.
            var anchor = -1
            var pathShared = 0
            var titleShared = 0
            /// The playlist (in `files`) and its line; -1: none. An entry sharing an anchor's bytes
            /// is written with its line's distance from the anchor's.
            var file = -1
            var line = 0
            /// Its rarer fields, in `extras`; -1: none.
            var extra = -1
            /// The path's and title's own bytes.
            var path = 0..<0
            var title: Range<Int>?
            /// The bytes it takes.
            var length = 0
        }

        func read(at offset: Int) -> Written {
            var written = Written(flags: bytes[offset])
            var at = offset + 1
            func number() -> Int {
                var value = 0, shift = 0
                while true {
                    let byte = bytes[at]
                    at += 1
                    value |= Int(byte & 0x7F) << shift
                    if byte < 0x80 { return value }
                    shift += 7
                }
            }
            let flags = written.flags
            var lineBase = 0
            if flags & Flag.shares != 0 {
                written.anchor = offset - number()
                written.pathShared = number()
                if flags & Flag.title != 0 { written.titleShared = number() }
                lineBase = read(at: written.anchor).line
            }
            if flags & Flag.file != 0 {
                written.file = number()
                // Zigzag: 0, -1, 1, -2… as 0, 1, 2, 3…
                let line = UInt(bitPattern: number())
                written.line = lineBase &+ (Int(bitPattern: line >> 1) ^ -Int(bitPattern: line & 1))
            }
            if flags & Flag.extra != 0 { written.extra = number() }
            let pathCount = number()
            written.path = at..<(at + pathCount)
            at += pathCount
            if flags & Flag.title != 0 {
                let titleCount = number()
                written.title = at..<(at + titleCount)
                at += titleCount
            }
            written.length = at - offset
            return written
        }

        /// The path's bytes: its playlist's folder, what it shares with its anchor, its own.
        func path(_ written: Written) -> [UInt8] {
            var path = written.flags & Flag.inFolder != 0 ? folders[written.file] : []
            if written.anchor >= 0 {
                let start = read(at: written.anchor).path.lowerBound
                path += bytes[start..<(start + written.pathShared)]
            }
            path += bytes[written.path]
            return path
        }

        func entry(_ written: Written) -> Entry {
            var entry = Entry(path: Path(bytes: path(written)))
            if let own = written.title {
                if written.anchor >= 0, written.titleShared > 0, let start = read(at: written.anchor).title?.lowerBound {
                    entry.title = String(decoding: bytes[start..<(start + written.titleShared)] + bytes[own], as: UTF8.self)
                } else {
                    entry.title = String(decoding: bytes[own], as: UTF8.self)
                }
            }
            if written.file >= 0 { entry.origin = SourceLocation(file: files[written.file], line: written.line) }
            if written.extra >= 0 {
                let extra = extras[written.extra]
                if let origin = extra.origin { entry.origin = origin }
                entry.written = extra.written
                entry.span = extra.span
                entry.sheetTags = extra.sheetTags
                entry.sheet = extra.sheet
            }
            return entry
        }

        /// Writes `entry` at the end, sharing its first bytes with the entry at `anchor` when
        /// they are at least half of it; says where, whether it was written whole (an anchor for
        /// the next), and whether it has rarer fields.
        mutating func write(_ entry: Entry, title: [UInt8]?, sharingWith anchor: Int?) -> (offset: Int, whole: Bool, extra: Bool) {
            var flags: UInt8 = 0
            var file = -1, line = 0
            var extra = Extra(written: entry.written, span: entry.span, sheetTags: entry.sheetTags, sheet: entry.sheet)
            if let origin = entry.origin {
                if origin.column == 1, origin.line >= 0 {
                    if files.last.map({ $0.utf8.elementsEqual(origin.file.utf8) }) != true {
                        // By bytes: names equal only as Strings (NFC and NFD) are two folders on Linux.
                        files.append(origin.file)
                        let name = Array(origin.file.utf8)
                        folders.append(name.lastIndex(of: UInt8(ascii: "/")).map { Array(name[...$0]) } ?? [])
                    }
                    file = files.count - 1
                    line = origin.line
                    flags |= Flag.file
                } else {
                    extra.origin = origin
                }
            }
            let hasExtra = extra.origin != nil || extra.written != nil || extra.span != nil || extra.sheetTags != nil || extra.sheet != nil
            if hasExtra {
                flags |= Flag.extra
                extras.append(extra)
            }
            var path = entry.path.bytes[...]
            if file >= 0, case let folder = folders[file], !folder.isEmpty, path.count > folder.count, path.starts(with: folder) {
                path = path.dropFirst(folder.count)
                flags |= Flag.inFolder
            }
            if title != nil { flags |= Flag.title }
            let offset = bytes.count
            var pathShared = 0, titleShared = 0
            var lineBase = 0
            if let anchor, offset - anchor < 1 << 14 {  // two bytes
                let shared = read(at: anchor)
                pathShared = Self.common(bytes[shared.path], path)
                if let title, let sharedTitle = shared.title { titleShared = Self.common(bytes[sharedTitle], title[...]) }
                let own = path.count + (title?.count ?? 0)
                if (pathShared + titleShared) * 2 >= own, pathShared + titleShared >= 4 {
                    flags |= Flag.shares
                    bytes.append(flags)
                    append(offset - anchor)
                    append(pathShared)
                    if title != nil { append(titleShared) }
                    lineBase = shared.line
                } else {
                    pathShared = 0
                    titleShared = 0
                }
            }
            let whole = flags & Flag.shares == 0
            if whole { bytes.append(flags) }
            if file >= 0 {
                append(file)
                let distance = line &- lineBase
                append((distance << 1) ^ (distance >> (Int.bitWidth - 1)))
            }
            if hasExtra { append(extras.count - 1) }
            append(path.count - pathShared)
            bytes += path.dropFirst(pathShared)
            if let title {
                append(title.count - titleShared)
                bytes += title.dropFirst(titleShared)
            }
            return (offset, whole, hasExtra)
        }

        private mutating func append(_ number: Int) {
            var value = UInt(bitPattern: number)
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        /// How many first bytes `a` and `b` have in common.
        private static func common(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
            var count = 0
            var i = a.startIndex, j = b.startIndex
            while i < a.endIndex, j < b.endIndex, a[i] == b[j] {
                count += 1
                i += 1
                j += 1
            }
            return count
        }
    }
}
