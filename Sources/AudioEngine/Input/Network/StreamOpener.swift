import PlayerCore

/// Opens an internet stream's URL as what it turns out to be: a stream of audio, or an HLS
/// list (FFmpeg reads its segments, each opened by the network side); a playlist served over
/// http (a radio's `.pls`) is read whole and thrown as `LoadFailure.playlist`, for the session to
/// play its entries in its place.
enum StreamOpener {
    enum Opened {
        case stream(NetworkStream)
        case hls(HLSInput)
    }

    static func open(_ path: Path, limits: StreamLimits, interruption: StreamInterruption,
                     news: @escaping @Sendable (StreamNews) -> Void) throws(LoadFailure) -> Opened {
        guard let url = StreamURL(path) else { throw .network("not a URL tplayer can open (http:// or https://, a host, no spaces)") }
        let stream = try NetworkStream.open(url.text, limits: limits, interruption: interruption, news: news)
        do throws(LoadFailure) {
            switch try servedPlaylist(stream) {
            case .playlist(let served)?: throw .playlist(served)
            case .hls?:
                stream.close()
                return .hls(HLSInput(url: stream.finalURL, limits: limits, interruption: interruption))
            case nil: return .stream(stream)
            }
        } catch {
            stream.close()
            throw error
        }
    }

    /// A playlist served over http: of streams, or HLS's (of segments).
    private enum Served {
        case playlist(ServedPlaylist)
        case hls
    }

    /// The playlist `stream` is, read whole, when its type, first bytes or name say it is one
    /// (a radio's `.pls`); `nil` when it is not.
    private static func servedPlaylist(_ stream: NetworkStream) throws(LoadFailure) -> Served? {
        let head = stream.bytes(FileContent.headLength, at: 0)
        let url = stream.finalURL
        guard !head.isEmpty, let format = ServedPlaylist.format(contentType: stream.contentType, head: head, url: url) else {
            return nil
        }
        let body = try stream.playlist()
        if ServedPlaylist.isHLS(body) { return .hls }
        return .playlist(ServedPlaylist.parse(body, format: format, url: url))
    }
}
