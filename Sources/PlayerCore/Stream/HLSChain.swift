/// The playlists an HLS stream follows, and which named which: a playlist whose entries (its
/// variants, its segments, a rendition's `URI="…"`) name itself or a playlist above it is a
/// cycle, refused, as a served playlist's is (`Session.adopt`). FFmpeg's demuxer never asks: a
/// variant that is itself a master adds its variants to the list it walks, so a master naming
/// itself was walked without end. A live media playlist read again is no cycle: it names its
/// segments, not itself.
public struct HLSChain: Sendable {
    /// Each playlist a master named, by its URL, and that master's URL.
    private var namedBy: [String: String] = [:]
    /// Names kept at most (a master names a few variants; a server may name thousands).
    static let namesKept = 1000

    public init() {}

    /// `body`, a playlist asked for at `url` and answered from `answered` (redirects followed):
    /// `nil` when it may be followed (a master's variants are remembered as its own), else why
    /// not, in one line (the cycle, outermost first; or a chain past `ServedPlaylist.maxDepth`).
    public mutating func follow(_ body: [UInt8], asked url: String, answered: String) -> String? {
        var chain = [url]
        var names: Set<String> = [url, answered]
        var above = namedBy[url] ?? namedBy[answered]
        while let playlist = above {
            guard chain.count <= ServedPlaylist.maxDepth else { return ServedPlaylist.tooDeep }
            chain.append(playlist)
            names.insert(playlist)
            above = namedBy[playlist]
        }
        let references = Self.references(in: body, base: answered)
        if let closing = references.first(where: names.contains) {
            return ServedPlaylist.cycle(chain.reversed() + [closing])
        }
        if Self.isMaster(body) {
            for reference in references where namedBy.count < Self.namesKept && namedBy[reference] == nil {
                namedBy[reference] = url
            }
        }
        return nil
    }

    /// The URLs `body` names, resolved against `base`: each line that is not a tag, and each
    /// tag's `URI="…"`. What is no http or https URL is left out (FFmpeg's side refuses it).
    static func references(in body: [UInt8], base: String) -> [String] {
        let text = String(decoding: body, as: UTF8.self)
        var found: [String] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = line.drop { $0 == " " || $0 == "\t" }
            guard !line.isEmpty else { continue }
            var reference = line
            if line.hasPrefix("#") {
                guard let start = line.firstRange(of: "URI=\"")?.upperBound else { continue }
                reference = line[start...].prefix { $0 != "\"" }
            }
            if let url = StreamURL.resolve(String(reference), against: base) { found.append(url.text) }
        }
        return found
    }

    /// Whether `body` is a master playlist (it names variants or renditions, not segments).
    static func isMaster(_ body: [UInt8]) -> Bool {
        let text = String(decoding: body, as: UTF8.self)
        return ["#EXT-X-STREAM-INF", "#EXT-X-MEDIA:", "#EXT-X-I-FRAME-STREAM-INF"].contains { text.contains($0) }
    }
}
