import CAv
import PlayerCore

/// FFmpeg's encoding functions, loaded the first time a broadcast starts (`encode.h`).
enum BroadcastLibrary {
    nonisolated(unsafe) static let api: UnsafePointer<tp_avenc>? = {
        let api = UnsafeMutablePointer<tp_avenc>.allocate(capacity: 1)
        api.initialize(to: tp_avenc())
        guard tp_avenc_load(api) == 0 else {
            api.deallocate()
            return nil
        }
        return UnsafePointer(api)
    }()
}

/// A broadcast's encoder: 16-bit samples in, the stream's bytes out (`take`). The reference
/// encoders through libavcodec (libvorbis, libopus, libmp3lame), Vorbis and Opus in Ogg pages.
/// Each song starts a new Ogg link with its own comments (`startLink`), as an Ogg radio names
/// its songs; MP3 is one stream throughout (its titles go to Icecast by its admin request).
final class BroadcastEncoder {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let encoding: IcecastEncoding
    let channels: Int
    /// The C encoder's state, at an address of its own: libavformat keeps it for its writes.
    private let state: UnsafeMutablePointer<tp_enc> = {
        let state = UnsafeMutablePointer<tp_enc>.allocate(capacity: 1)
        state.initialize(to: tp_enc())
        return state
    }()
    private var open = false

    /// Opens the encoder, the stream named by `title` (an Ogg link's comments).
    init(encoding: IcecastEncoding, channels: Int, title: BroadcastTitle) throws(Failure) {
        self.encoding = encoding
        self.channels = channels
        try start(title)
    }

    deinit {
        if open { _ = tp_enc_finish(state) }
        tp_enc_release(state)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var isOgg: Bool { encoding.codec != .mp3 }

    private func start(_ title: BroadcastTitle) throws(Failure) {
        guard let api = BroadcastLibrary.api else {
            throw Failure(description: "FFmpeg's libavcodec (\(String(cString: tp_av_library()))) could not be loaded to encode")
        }
        let codec = switch encoding.codec {
        case .vorbis: "libvorbis"
        case .opus: "libopus"
        case .mp3: "libmp3lame"
        }
        let pairs = title.comments.flatMap { [$0.name, $0.value] }
        let result = withCStrings(pairs) { tags in
            tp_enc_open(state, api, codec, isOgg ? 1 : 0, Int32(encoding.codec.rate), Int32(channels), encoding.kbps * 1000, tags)
        }
        guard result == 0 else { throw Failure(description: "\(codec): " + error) }
        open = true
    }

    private var error: String {
        withUnsafeBytes(of: state.pointee.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Encodes `frames` frames of interleaved 16-bit samples (`nil`: silence).
    func write(_ samples: UnsafePointer<Int16>?, frames: Int) throws(Failure) {
        guard open else { return }
        guard tp_enc_write(state, samples, frames) == 0 else { throw Failure(description: error) }
    }

    /// Ends the Ogg link and starts the next, named `title` (the bytes of both wait in `take`).
    /// MP3 goes on as it was.
    func startLink(_ title: BroadcastTitle) throws(Failure) {
        guard isOgg else { return }
        if open {
            open = false
            guard tp_enc_finish(state) == 0 else { throw Failure(description: error) }
        }
        try start(title)
    }

    /// Ends the stream (an Ogg link's last page); its bytes wait in `take`.
    func end() {
        guard open else { return }
        open = false
        _ = tp_enc_finish(state)
    }

    /// Hands the bytes encoded so far to `body`, and lets go of them.
    func take(_ body: (UnsafeRawBufferPointer) -> Void) {
        guard state.pointee.out_length > 0 else { return }
        body(UnsafeRawBufferPointer(start: state.pointee.out, count: state.pointee.out_length))
        tp_enc_taken(state)
    }

    /// The C strings of `texts`, then a NULL, for as long as `body` runs.
    private func withCStrings<T>(_ texts: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies = texts.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// What a broadcast says of the song it plays: an Ogg link's comments, an MP3 stream's title.
/// Tags are untrusted: they leave through the sanitiser (a listener shows them in a terminal).
struct BroadcastTitle: Equatable {
    var title: String?
    var artist: String?
    var album: String?

    init(title: String? = nil, artist: String? = nil, album: String? = nil) {
        let clean = { (text: String?) in text.map(UntrustedText.flattened).flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } }
        self.title = clean(title)
        self.artist = clean(artist)
        self.album = clean(album)
    }

    /// The song as the player names it: its tags, else its file's name.
    init(_ info: SongInfo) {
        self.init(title: info.tags.title ?? info.displayName, artist: info.tags.artist, album: info.tags.album)
    }

    var comments: [(name: String, value: String)] {
        [("title", title), ("artist", artist), ("album", album)].compactMap { name, value in value.map { (name, $0) } }
    }

    /// "Artist - Title", as a radio's StreamTitle names a song.
    var streamTitle: String {
        [artist, title].compactMap { $0 }.joined(separator: " - ")
    }
}
