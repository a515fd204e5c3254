@testable import PlayerCore
import Testing

/// The HLS playlists a stream follows: one whose entries name itself or a playlist above it is a
/// cycle, said in one line; a live playlist read again, naming new segments, is none.
struct HLSChainTests {
    private static let base = "http://radio.example/hls/"
    private func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func itsReferencesAreItsLinesAndItsTagsURIs() {
        let text = "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",URI=\"alt/en.m3u8\"\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\n"
            + "  low.m3u8\n\n#EXTINF:2,\n/seg/1.ts\nfile:///etc/passwd\n"
        #expect(HLSChain.references(in: body(text), base: Self.base + "master.m3u8")
                == [Self.base + "alt/en.m3u8", Self.base + "low.m3u8", "http://radio.example/seg/1.ts"])
    }

    @Test func aPlaylistNamingItselfIsACycle() {
        var chain = HLSChain()
        let url = Self.base + "self.m3u8"
        #expect(chain.follow(body("#EXTM3U\n#EXTINF:2,\nself.m3u8\n"), asked: url, answered: url)
                == "playlist cycle: \(url) -> \(url); not followed")
    }

    /// Named as asked for or as it answered (a redirect): a cycle shows in either.
    @Test func aVariantNamingItsMasterIsACycleWhateverTheRedirects() {
        var chain = HLSChain()
        let ping = Self.base + "ping.m3u8", pong = Self.base + "pong.m3u8", moved = Self.base + "moved/pong.m3u8"
        #expect(chain.follow(body("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\npong.m3u8\n"), asked: ping, answered: ping) == nil)
        #expect(chain.follow(body("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n../ping.m3u8\n"), asked: pong, answered: moved)
                == "playlist cycle: \(ping) -> \(pong) -> \(ping); not followed")
    }

    /// A live media playlist is read again and again, each time naming its newest segments.
    @Test func aLivePlaylistReadAgainIsNoCycle() {
        var chain = HLSChain()
        let master = Self.base + "master.m3u8", live = Self.base + "live.m3u8"
        #expect(chain.follow(body("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlive.m3u8\n"), asked: master, answered: master) == nil)
        for first in 0..<20 {
            let segments = (first..<first + 3).map { "#EXTINF:2,\nseg\($0).ts\n" }.joined()
            #expect(chain.follow(body("#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + segments), asked: live, answered: live) == nil)
        }
    }

    /// Masters naming new masters without end: refused past `ServedPlaylist.maxDepth`.
    @Test func mastersNestedWithoutEndAreRefused() {
        var chain = HLSChain()
        var refusal: String?
        for depth in 0..<40 where refusal == nil {
            refusal = chain.follow(body("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nm\(depth + 1).m3u8\n"),
                                   asked: Self.base + "m\(depth).m3u8", answered: Self.base + "m\(depth).m3u8")
        }
        #expect(refusal == "playlists nested more than 16 deep; not followed")
    }
}
