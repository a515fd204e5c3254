import CChafa
import Files
import PlayerCore

/// Draws songs' covers for the now-playing view with libchafa: the picture found and decoded
/// once per album (`CoverPicture`, cached), then drawn at the size and in the style asked for.
/// Called off the main loop; safe from any thread.
public final class CoverArtist: Sendable {
    /// Decoded pictures (or why there is none) by album: the songs of an album share one. Held
    /// while a picture is found and decoded: one at a time, so that the requests a resize makes
    /// for one album (each box size a request) decode it once, not once each.
    private let pictures = Locked<[AlbumKey: Result<CoverPicture, CoverPicture.Failure>?]>([:])
    /// The most albums' pictures kept (each at most 512 × 512 RGBA, 1 MB).
    static let albumsKept = 32

    public init() {}

    /// The run's artist (its cache of pictures shared by every cover drawn).
    public static let shared = CoverArtist()

    /// An album: its folder and its name (a song with no album tag is its own).
    struct AlbumKey: Hashable {
        var folder: Path
        var album: String
    }

    /// The cover of `request.song`, drawn for its box.
    public func draw(_ request: CoverRequest) -> CoverArt {
        guard request.columns > 0, request.rows > 0 else { return .none(request, "no room for a cover") }
        guard !request.isStream else { return .none(request, "a stream has no cover", missing: true) }
        let key = AlbumKey(folder: request.song.directory, album: request.album.map { "album:" + $0 } ?? "song:\(request.song)")
        let found = pictures.update { cache -> Result<CoverPicture, CoverPicture.Failure>? in
            if let cached = cache[key] { return cached }
            let found = CoverPicture.find(for: request.song)
            if cache.count >= Self.albumsKept { cache.removeAll() }
            cache[key] = found
            return found
        }
        switch found {
        case nil: return .none(request, "no cover: none in the song, nor a cover.jpg, folder.jpg or front.png beside it", missing: true)
        case .failure(let failure)?: return .none(request, failure.line)
        case .success(let picture)?: return Self.render(picture, request)
        }
    }

    /// `picture` drawn by libchafa, as large as fits the box keeping its shape (a cell is about
    /// twice as tall as it is wide).
    static func render(_ picture: CoverPicture, _ request: CoverRequest) -> CoverArt {
        guard let api = Self.api else { return .none(request, "libchafa (libchafa.so.0) could not be loaded to draw the cover") }
        var columns = Int32(clamping: request.columns), rows = Int32(clamping: request.rows)
        api.calc_canvas_geometry(Int32(picture.width), Int32(picture.height), &columns, &rows, 0.5, 1, 0)
        columns = max(1, min(columns, Int32(clamping: request.columns)))
        rows = max(1, min(rows, Int32(clamping: request.rows)))
        let (pixelMode, canvasMode): (Int32, Int32) = switch request.style {
        case .symbols(.truecolor): (Int32(TP_CHAFA_PIXEL_MODE_SYMBOLS), Int32(TP_CHAFA_CANVAS_MODE_TRUECOLOR))
        case .symbols(.indexed256): (Int32(TP_CHAFA_PIXEL_MODE_SYMBOLS), Int32(TP_CHAFA_CANVAS_MODE_INDEXED_256))
        case .symbols(.indexed16): (Int32(TP_CHAFA_PIXEL_MODE_SYMBOLS), Int32(TP_CHAFA_CANVAS_MODE_INDEXED_16))
        case .symbols(.monochrome), .symbols(.monochromeOnLight): (Int32(TP_CHAFA_PIXEL_MODE_SYMBOLS), Int32(TP_CHAFA_CANVAS_MODE_FGBG))
        case .kitty: (Int32(TP_CHAFA_PIXEL_MODE_KITTY), Int32(TP_CHAFA_CANVAS_MODE_TRUECOLOR))
        case .sixel: (Int32(TP_CHAFA_PIXEL_MODE_SIXELS), Int32(TP_CHAFA_CANVAS_MODE_TRUECOLOR))
        case .iterm: (Int32(TP_CHAFA_PIXEL_MODE_ITERM2), Int32(TP_CHAFA_CANVAS_MODE_TRUECOLOR))
        }
        // A cell's pixels as the terminal says, within reason (a terminal claiming 5,000-pixel cells
        // would make a canvas of gigapixels); graphics kept to about the picture's own 512 × 512
        // (more pixels would add no detail, only bytes to send).
        var cell = (width: request.cellWidth > 0 ? min(max(request.cellWidth, 4), 64) : 10,
                    height: request.cellHeight > 0 ? min(max(request.cellHeight, 4), 64) : 20)
        while Int(columns) * cell.width * Int(rows) * cell.height > 1 << 18, cell.width > 2, cell.height > 2 {
            cell = (cell.width * 3 / 4, cell.height * 3 / 4)
        }
        var text: UnsafeMutablePointer<CChar>?
        var length = 0
        let drawn = withUnsafePointer(to: api) { api in
            picture.rgba.withUnsafeBufferPointer {
                tp_chafa_draw(api, $0.baseAddress, Int32(picture.width), Int32(picture.height), columns, rows, pixelMode,
                              canvasMode, request.style == .symbols(.monochromeOnLight) ? 1 : 0, Int32(cell.width), Int32(cell.height),
                              &text, &length)
            }
        }
        defer { free(text) }
        guard drawn == 0, let text else { return .none(request, "\(picture.source): libchafa could not draw it") }
        let printed = String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
        let lines: [String]
        if request.style == .symbols(.monochrome) || request.style == .symbols(.monochromeOnLight) {
            // A line a row, the symbols alone: whatever sequence chafa adds is left out.
            lines = printed.split(separator: "\n", omittingEmptySubsequences: false).prefix(Int(rows)).map(Self.symbolsAlone)
        } else if case .symbols = request.style {
            // A line a row, each ending with its colours reset.
            lines = printed.split(separator: "\n", omittingEmptySubsequences: false).prefix(Int(rows)).map { String($0) + "\u{1B}[0m" }
        } else {
            lines = [printed]
        }
        return CoverArt(request: request, lines: lines, columns: Int(columns), rows: Int(rows), source: picture.source)
    }

    /// `line` without its control sequences (CSI, and any other escape with the byte after it)
    /// and control characters.
    static func symbolsAlone(_ line: Substring) -> String {
        var kept = String.UnicodeScalarView()
        var scalars = line.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "\u{1B}" {
                // CSI: parameters and intermediates up to the final byte (0x40–0x7E).
                if scalars.next() == "[" { while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {} }
            } else if scalar.value >= 0x20, scalar.value != 0x7F, !(0x80..<0xA0).contains(scalar.value) {
                kept.append(scalar)
            }
        }
        return String(kept)
    }

    /// libchafa, loaded once; `nil` when it could not be.
    private static let api: tp_chafa? = {
        var api = tp_chafa()
        guard tp_chafa_load(&api) == 0 else { return nil }
        api.set_n_threads(1)  // a cover is small; no pool of threads kept for it
        return api
    }()
}
