import CAv
import Files
import PlayerCore

/// A song's cover, found and decoded: the picture it holds (ID3 `APIC`, FLAC `PICTURE`, MP4
/// `covr`, Vorbis `METADATA_BLOCK_PICTURE`), else `cover.jpg`, `folder.jpg`, `front.png`… in its
/// folder; decoded by FFmpeg into RGBA of at most `maxSide` pixels a side. Every file is opened as
/// a song is (a regular file, checked before a byte is read: a FIFO is refused), and bounded: an
/// embedded picture or a file over `maxBytes`, or a picture over `maxPixels`, is refused in a line.
struct CoverPicture: Sendable {
    var width: Int
    var height: Int
    /// `width` × `height` RGBA pixels.
    var rgba: [UInt8]
    /// Where it came from: `embedded`, or the file's name.
    var source: String

    static let maxBytes = 16 << 20
    static let maxPixels = 4096 * 4096
    /// The most pixels a side kept: enough for a cover filling a 4K terminal's cells.
    static let maxSide = 512

    /// The names looked for in the song's folder, in this order, any case; each with any of
    /// `extensions`.
    static let names = ["cover", "folder", "front", "album", "albumart"]
    static let extensions = ["jpg", "jpeg", "png", "webp", "gif", "bmp"]

    /// Why a song has no cover to draw, in a line naming the file.
    struct Failure: Error, Equatable, Sendable {
        var line: String
    }

    /// The cover of `song`: its own picture, else its folder's; `nil` when it has none.
    static func find(for song: Path) -> Result<CoverPicture, Failure>? {
        if let embedded = embedded(in: song) { return embedded }
        guard let file = folderPicture(beside: song) else { return nil }
        let name = "\(file.lastComponent)"
        switch FileSystem.readAll(file, limit: maxBytes) {
        case .success(let bytes):
            guard let header = PictureHeader.read(bytes) else {
                return .failure(Failure(line: "\(name): not a picture tplayer reads (JPEG, PNG, WebP, GIF or BMP)"))
            }
            return decode(bytes, codec: codec(of: header.format), header: header, source: name)
        case .failure(.tooLarge):
            return .failure(Failure(line: "\(name): larger than \(maxBytes >> 20) MB, more than a cover needs; tplayer leaves it"))
        case .failure(let error):
            return .failure(Failure(line: "\(name): \(error)"))
        }
    }

    /// What FFmpeg finds of the picture `song` holds: how it went (`TP_PICTURE_…`), the
    /// picture's bytes when it was read, its size and codec. `nil`: the song cannot be opened.
    static func embeddedPicture(in song: Path) -> (result: Int, bytes: [UInt8]?, size: Int, codec: Int32)? {
        guard let api = Self.api, case .success(let file) = FileSystem.openRegularFile(song),
              case .success(let status) = file.status() else { return nil }
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        var codec: Int32 = 0
        let result = withUnsafePointer(to: api) {
            tp_picture_embedded($0, file.descriptor, status.size, maxBytes, &data, &size, &codec)
        }
        defer { free(data) }
        let bytes = Int(result) == TP_PICTURE_OK ? data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } : nil
        return (Int(result), bytes, size, codec)
    }

    /// The picture `song` holds, when it holds one.
    static func embedded(in song: Path) -> Result<CoverPicture, Failure>? {
        guard let found = embeddedPicture(in: song) else { return nil }
        switch found.result {
        case TP_PICTURE_OK:
            guard let bytes = found.bytes else { return nil }
            return decode(bytes, codec: found.codec, header: PictureHeader.read(bytes), source: "embedded")
        case TP_PICTURE_TOO_LARGE where found.size > maxBytes + (4 << 20):
            // Reading stopped where the bound is: its tags are larger still.
            return .failure(Failure(line: "\(song.lastComponent): its tags hold more than tplayer reads for a cover (\(maxBytes >> 20) MB)"))
        case TP_PICTURE_TOO_LARGE:
            return .failure(Failure(line: "\(song.lastComponent): its picture is \(found.size >> 20) MB, more than tplayer reads (\(maxBytes >> 20) MB)"))
        default:
            return nil
        }
    }

    /// The first of the folder's pictures by `names`' order, matched in any case.
    static func folderPicture(beside song: Path) -> Path? {
        let folder = song.directory.isEmpty ? Path(".") : song.directory
        guard case .success(let items) = FileSystem.list(folder) else { return nil }
        var found: [String: Path] = [:]
        for item in items.prefix(10_000) where !item.isDirectory {
            let name = String(decoding: item.name.bytes, as: UTF8.self).lowercased()
            guard let dot = name.lastIndex(of: "."), extensions.contains(String(name[name.index(after: dot)...])) else { continue }
            let base = String(name[..<dot])
            if names.contains(base), found[base] == nil { found[base] = item.name }
        }
        return names.lazy.compactMap { found[$0] }.first.map { folder.appending($0) }
    }

    /// Decodes `bytes` (a picture in `codec`), refusing one whose header says it is too large.
    static func decode(_ bytes: [UInt8], codec: Int32, header: PictureHeader?, source: String) -> Result<CoverPicture, Failure> {
        if let header, let width = header.width, let height = header.height, let pixels = header.pixels, pixels > maxPixels {
            return .failure(Failure(line: "\(source): \(width) × \(height) pixels, more than tplayer draws (\(maxPixels / 1_000_000) megapixels); a smaller picture would do"))
        }
        guard let api = Self.api else {
            return .failure(Failure(line: "\(source): FFmpeg (\(String(cString: tp_av_library()))) could not be loaded to decode it"))
        }
        var rgba: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, sourceWidth: Int32 = 0, sourceHeight: Int32 = 0
        let result = withUnsafePointer(to: api) { api in
            bytes.withUnsafeBufferPointer {
                tp_picture_decode(api, $0.baseAddress, $0.count, codec, Int64(maxPixels), Int32(maxSide), &rgba, &width, &height,
                                  &sourceWidth, &sourceHeight)
            }
        }
        defer { free(rgba) }
        guard Int(result) == TP_PICTURE_OK, let rgba, width > 0, height > 0 else {
            let format = header.map { "a \($0.format.rawValue) picture" } ?? "a picture"
            switch Int(result) {
            case TP_PICTURE_TOO_LARGE where sourceWidth > 0 && sourceHeight > 0:
                return .failure(Failure(line: "\(source): \(sourceWidth) × \(sourceHeight) pixels, more than tplayer draws (\(maxPixels / 1_000_000) megapixels)"))
            case TP_PICTURE_TOO_LARGE:
                return .failure(Failure(line: "\(source): more than \(maxPixels / 1_000_000) megapixels, more than tplayer draws"))
            case TP_PICTURE_UNSUPPORTED:
                return .failure(Failure(line: "\(source): \(format) in a form FFmpeg here does not decode"))
            default:
                return .failure(Failure(line: "\(source): \(format) that could not be decoded (damaged?)"))
            }
        }
        let count = Int(width) * Int(height) * 4
        return .success(CoverPicture(width: Int(width), height: Int(height), rgba: Array(UnsafeBufferPointer(start: rgba, count: count)), source: source))
    }

    static func codec(of format: PictureHeader.Format) -> Int32 {
        let id: AVCodecID = switch format {
        case .jpeg: AV_CODEC_ID_MJPEG
        case .png: AV_CODEC_ID_PNG
        case .gif: AV_CODEC_ID_GIF
        case .bmp: AV_CODEC_ID_BMP
        case .webp: AV_CODEC_ID_WEBP
        }
        return Int32(bitPattern: id.rawValue)
    }

    /// FFmpeg, loaded once; `nil` when it could not be.
    private static let api: tp_picture_api? = {
        var api = tp_picture_api()
        return tp_picture_load(&api) == 0 ? api : nil
    }()
}

/// A song's cover as the bytes of its file, undecoded, for MPD's `albumart` (the picture beside
/// the song) and `readpicture` (the one it holds): found as the now-playing view finds them,
/// bounded as it bounds them.
public enum CoverBytes {
    /// The picture file beside `song`, when there is one.
    public static func beside(_ song: Path) -> [UInt8]? {
        guard let file = CoverPicture.folderPicture(beside: song),
              case .success(let bytes) = FileSystem.readAll(file, limit: CoverPicture.maxBytes) else { return nil }
        return bytes
    }

    /// The picture `song` holds, and its MIME type when its header says.
    public static func embedded(in song: Path) -> (bytes: [UInt8], type: String?)? {
        guard let bytes = CoverPicture.embeddedPicture(in: song)?.bytes else { return nil }
        return (bytes, PictureHeader.read(bytes).map { type(of: $0.format) })
    }

    /// A picture format's MIME type.
    public static func type(of format: PictureHeader.Format) -> String {
        switch format {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .bmp: "image/bmp"
        case .webp: "image/webp"
        }
    }
}
