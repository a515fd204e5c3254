import PlayerCore
import Testing

/// A stream's body with ICY blocks cut in, taken apart (`IcyDemuxer`), and what names a stream
/// (`StreamURL`).
struct StreamInputTests {
    /// `audio` with a block after every `interval` bytes, each the next of `blocks` (L, then
    /// L × 16 bytes, NUL-padded); an empty one is a lone 0.
    private func interleave(_ audio: [UInt8], interval: Int, blocks: [String]) -> [UInt8] {
        var body: [UInt8] = []
        var next = 0
        for start in stride(from: 0, to: audio.count, by: interval) {
            let chunk = audio[start..<min(start + interval, audio.count)]
            body += chunk
            guard chunk.count == interval else { break }
            var block = Array(blocks[next % blocks.count].utf8)
            block += [UInt8](repeating: 0, count: (16 - block.count % 16) % 16)
            body += [UInt8(block.count / 16)] + block
            next += 1
        }
        return body
    }

    private func demux(_ body: [UInt8], interval: Int?, piece: Int) -> (audio: [UInt8], titles: [String?]) {
        var demuxer = IcyDemuxer(interval: interval)
        var audio: [UInt8] = []
        var titles: [String?] = []
        var at = 0
        while at < body.count {
            let end = min(at + piece, body.count)
            body[at..<end].withUnsafeBytes { demuxer.feed($0, audio: { audio += $0 }, metadata: { titles.append(IcyMetadata.title($0)) }) }
            at = end
        }
        return (audio, titles)
    }

    @Test(arguments: [1, 2, 7, 16, 100, 8192, 100_000])
    func theAudioAndTheTitlesComeOutWhateverPiecesTheNetworkGives(piece: Int) {
        let audio = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let body = interleave(audio, interval: 8192, blocks: ["StreamTitle='One';", "", "StreamTitle='Two ☃';StreamUrl='x';"])
        let (out, titles) = demux(body, interval: 8192, piece: piece)
        #expect(out == audio, "the audio, byte for byte")
        // Six blocks: the empty one (L = 0) says nothing.
        #expect(titles == ["One", "Two ☃", "One", "Two ☃"])
    }

    @Test func withNoIntervalTheBodyIsAllAudio() {
        let body: [UInt8] = Array("StreamTitle='x';".utf8)
        #expect(demux(body, interval: nil, piece: 3).audio == body)
        // An interval past the bound (a server's 4 GB) is no interval: nothing is gathered.
        #expect(IcyDemuxer(interval: 1 << 32).interval == nil)
        #expect(IcyDemuxer(interval: 0).interval == nil)
    }

    @Test func aBlockIsBoundedByItsLengthByte() {
        // L = 255: 4,080 bytes, the most there can be; then audio again.
        var body = [UInt8](repeating: 1, count: 4) + [255] + [UInt8](repeating: 0x41, count: 4080) + [2, 2, 2, 2]
        body += [0]
        var blocks: [[UInt8]] = []
        var audio: [UInt8] = []
        var demuxer = IcyDemuxer(interval: 4)
        body.withUnsafeBytes { demuxer.feed($0, audio: { audio += $0 }, metadata: { blocks.append($0) }) }
        #expect(blocks.map(\.count) == [4080])
        #expect(audio == [1, 1, 1, 1, 2, 2, 2, 2])
    }

    @Test(arguments: [
        ("http://127.0.0.1:8000/radio.mp3", true),
        ("HTTPS://example.org/a?b=c#d", true),
        ("https://user@host/x", true),
        ("http://a b/", false),
        ("http:///x", false),
        ("http://", false),
        ("http://@x", false),
        ("http://:80/", false),
        ("ftp://host/x", false),
        ("file:///etc/passwd", false),
        ("http://host/\u{1B}[2J", false),
        ("http://hôst/", false),
    ])
    func onlyAWellFormedHttpUrlIsAStream(text: String, taken: Bool) {
        #expect((StreamURL(Path(text)) != nil) == taken, "\(text)")
        #expect(StreamURL(Path(text))?.text == (taken ? text : nil))
    }

    @Test func aNameThatStartsAsAUrlIsNeverLookedForAsAFile() {
        #expect(StreamURL.looksLikeURL(Path("http://a b/")))
        #expect(StreamURL.looksLikeURL(Path("Http://x")))
        #expect(!StreamURL.looksLikeURL(Path("http:/x")))
        #expect(!StreamURL.looksLikeURL(Path("music/http.mp3")))
        #expect(StreamURL(Path("http://" + String(repeating: "a", count: StreamURL.maximumLength))) == nil, "bounded")
        // Known once, where a path becomes something to play: the source says it from then on.
        #expect(SongSource("http://a b/").isStream && SongSource("Http://x").isStream)
        #expect(!SongSource("music/http.mp3").isStream && !SongSource("http:/x").isStream)
    }
}
