import Library
@testable import MpdServer
import PlayerCore
import Testing

/// `listall`'s walk of the catalog, a piece at a time as a reader takes it: the same lines, in
/// MPD's order (a folder as it is entered, its songs, then each of its folders with what it
/// holds), whatever the pieces' size, and whatever a reader takes each time.
struct MpdCatalogWalkTests {
    /// Songs in nested folders: `a/` with songs and folders, a folder `a.b/` beside it (a URI
    /// order that puts `a.b/x` before `a/y`), and songs at the top.
    private func catalog() -> MpdCatalog {
        var paths: [String] = []
        for index in 0..<300 { paths.append("/m/a/\(String(format: "%03d", index)).flac") }
        for index in 0..<5 { paths.append("/m/a/deep/er/\(index).flac") }
        paths += ["/m/a/deep/1.flac", "/m/a.b/x.flac", "/m/top.flac", "/m/z/1.flac", "/m/a/zz/1.flac"]
        let records = paths.map { LibrarySong(path: Path($0), size: 1, modified: 0, rate: 44100, channels: 2) }
        return MpdCatalog(records, roots: MpdRoots([Path("/m")]))
    }

    /// The order as MPD prints it, made by recursion.
    private func expected(_ catalog: MpdCatalog, _ uri: String) -> [String] {
        var lines = uri.isEmpty ? [] : ["directory: \(uri)"]
        func walk(_ folder: String) {
            let (folders, songs) = catalog.children(of: folder)
            lines += songs.map { "file: \(catalog.uri($0))" }
            for inner in folders {
                lines.append("directory: \(inner)")
                walk(inner)
            }
        }
        walk(uri)
        return lines
    }

    private static func files(_ catalog: MpdCatalog, _ songs: [Int]) -> String {
        songs.map { "file: \(catalog.uri($0))\n" }.joined()
    }

    @Test(arguments: [1, 7, 256, 10_000])
    func theWalkGivesMPDsOrderAPieceAtATime(batch: Int) {
        let catalog = catalog()
        for uri in ["", "a", "a/deep"] {
            let next = catalog.walk(uri, batch: batch, folder: { "directory: \($0)\n" }, songs: { Self.files(catalog, $0) })
            var pieces: [String] = []
            while let piece = next() { pieces.append(piece) }
            #expect(pieces.joined().split(separator: "\n").map(String.init) == expected(catalog, uri), "\(uri), \(batch) a piece")
            if batch == 1 {
                // One item a piece: a line each (the top folder, entered, has none).
                #expect(pieces.count == expected(catalog, uri).count + (uri.isEmpty ? 1 : 0))
            }
            #expect(next() == nil, "ended, it stays ended")
        }
        #expect(expected(catalog, "").count == 300 + 5 + 5 + 6, "every song and folder: \(expected(catalog, "").count)")
    }

    /// A reader taking a few bytes at a time, or all that is left, gets the same reply.
    @Test func aStreamFilledAFewBytesAtATimeIsTheWholeReply() {
        let catalog = catalog()
        let whole = MpdStream(next: catalog.walk("", folder: { "directory: \($0)\n" }, songs: { Self.files(catalog, $0) })).rest
        let stream = MpdStream(next: catalog.walk("", batch: 3, folder: { "directory: \($0)\n" }, songs: { Self.files(catalog, $0) }))
        var output: [UInt8] = []
        var fills = 0
        while !stream.isDone {
            stream.fill(&output, limit: 50)
            fills += 1
        }
        #expect(String(decoding: output, as: UTF8.self) == whole && fills > 10)
        #expect(stream.isDone && stream.rest.isEmpty)
    }
}
