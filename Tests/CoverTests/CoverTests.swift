import Files
import Foundation
import Glibc
import PlayerCore
import Testing
@testable import Cover
import TestSupport

/// Covers found, decoded and drawn as the now-playing view asks for them: real files made by
/// ffmpeg and flac, decoded by FFmpeg, drawn by libchafa.
@Suite struct CoverTests {
    let folder: URL

    init() throws {
        folder = try TestFolders.make("tplayer-cover")
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs a tool, quietly; its status.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A picture of one colour (`red`, `blue`…) made by ffmpeg.
    func picture(_ name: String, colour: String, size: String = "64x64") throws {
        let status = try Self.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=\(colour):s=\(size)", "-frames:v", "1",
                                                      path(name)])
        #expect(status == 0, "ffmpeg made \(name)")
    }

    /// A second of sound as a WAV.
    func song(_ name: String) throws {
        #expect(try Self.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", path(name), "synth", "1", "sine", "440"]) == 0)
    }

    static func request(_ song: String, album: String? = "Album", columns: Int = 20, rows: Int = 10,
                        style: CoverStyle = .symbols(.truecolor)) -> CoverRequest {
        CoverRequest(song: Path(song), album: album, columns: columns, rows: rows, style: style)
    }

    /// The colours a drawing's cells are painted with (`38;2;r;g;b` and `48;2;r;g;b`), but black:
    /// a cell of one colour is a space on it, whose foreground chafa sets black.
    static func colours(_ art: CoverArt) -> [[Int]] {
        let text = art.lines.joined()
        let pattern = try! NSRegularExpression(pattern: "[34]8;2;([0-9]+);([0-9]+);([0-9]+)")
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1...3).map { Int((text as NSString).substring(with: match.range(at: $0)))! }
        }.filter { $0 != [0, 0, 0] }
    }

    /// The picture a desktop is given as `mpris:artUrl`: a FLAC's `PICTURE` block and an MP3's
    /// `APIC` frame read from the tags alone, exactly; a folder's `cover.png` as it is; none for
    /// a song without.
    @Test func theArtFileIsTheSongsOwnPictureOrItsFoldersExactly() throws {
        try picture("red.png", colour: "red")
        try song("tone.wav")
        #expect(try Self.run("/usr/bin/flac", ["-s", "--picture=\(path("red.png"))", "-o", path("song.flac"), path("tone.wav")]) == 0)
        #expect(try Self.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path("tone.wav"), "-i", path("red.png"), "-map", "0", "-map", "1",
                                                 "-c:a", "libmp3lame", "-id3v2_version", "3", "-metadata:s:v", "title=Album cover",
                                                 "-metadata:s:v", "comment=Cover (front)", path("song.mp3")]) == 0)
        let red = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path("red.png"))))
        #expect(CoverFile.embeddedPicture(in: Path(path("song.flac")))?.bytes == red)
        #expect(CoverFile.embeddedPicture(in: Path(path("song.mp3")))?.bytes == red)
        #expect(CoverFile.embeddedPicture(in: Path(path("tone.wav"))) == nil)
        let runtime = folder.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let covers = CoverFile(runtime: runtime.path)
        let url = try #require(covers.url(for: Self.song(path("song.flac"))))
        #expect(url.hasPrefix("file://\(runtime.path)/tplayer/cover-") && url.hasSuffix(".png"))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: String(url.dropFirst(7))))) == red)
        #expect(covers.url(for: Self.song(path("tone.wav"))) == nil)
        #expect(!FileManager.default.fileExists(atPath: String(url.dropFirst(7))), "the song before's picture is taken away")
        try FileManager.default.copyItem(atPath: path("red.png"), toPath: path("cover.png"))
        #expect(CoverFile(runtime: runtime.path).url(for: Self.song(path("tone.wav"))) == "file://" + path("cover.png"))
        var stream = Self.song("http://radio.example/live.mp3")
        stream.isStream = true
        #expect(covers.url(for: stream) == nil, "a stream has no cover, and none is looked for")
    }

    /// A song as the player opened it, at `path`.
    static func song(_ path: String) -> SongInfo {
        SongInfo(path: Path(path), sampleRate: 44100, channels: 2, totalFrames: nil)
    }

    @Test func aCoverJpgBesideTheSongIsDrawnAsColouredBlocksFillingItsBox() throws {
        try song("song.wav")
        try picture("cover.jpg", colour: "red")
        let art = CoverArtist().draw(Self.request(path("song.wav")))
        #expect(art.failure == nil)
        #expect(art.source == "cover.jpg")
        // Square, in cells twice as tall as wide: 20 × 10 fills the box.
        #expect(art.columns == 20 && art.rows == 10)
        #expect(art.lines.count == 10)
        let colours = Self.colours(art)
        #expect(!colours.isEmpty)
        // JPEG's red, near enough.
        #expect(colours.allSatisfy { $0[0] > 230 && $0[1] < 30 && $0[2] < 30 }, "\(colours.prefix(3))")
    }

    /// NO_COLOR or `colours = off`: the picture in the symbols' shapes alone, light parts inked,
    /// with no sequence at all in the text.
    @Test func withoutColoursTheCoverIsItsShapesAlone() throws {
        try song("song.wav")
        try picture("cover.png", colour: "white")
        let light = CoverArtist().draw(Self.request(path("song.wav"), style: .symbols(.monochrome)))
        #expect(light.failure == nil && light.lines.count == 10)
        #expect(light.lines.allSatisfy { $0 == String(repeating: "█", count: 20) }, "\(light.lines)")
        try FileManager.default.removeItem(atPath: path("cover.png"))
        try picture("cover.png", colour: "black")
        let dark = CoverArtist().draw(Self.request(path("song.wav"), album: "Dark", style: .symbols(.monochrome)))
        #expect(dark.failure == nil && dark.lines.count == 10)
        #expect(dark.lines.allSatisfy { $0 == String(repeating: " ", count: 20) }, "\(dark.lines)")
        // Half light, half dark: the two halves.
        try FileManager.default.removeItem(atPath: path("cover.png"))
        #expect(try Self.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=white:s=32x64", "-f", "lavfi", "-i",
                                                 "color=black:s=32x64", "-filter_complex", "hstack", "-frames:v", "1", path("cover.png")]) == 0)
        let halves = CoverArtist().draw(Self.request(path("song.wav"), album: "Halves", style: .symbols(.monochrome)))
        #expect(halves.lines.allSatisfy { $0 == String(repeating: "█", count: 10) + String(repeating: " ", count: 10) }, "\(halves.lines)")
        #expect(!(light.lines + dark.lines + halves.lines).joined().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        // On a terminal whose background is light, the dark half is inked.
        let onLight = CoverArtist().draw(Self.request(path("song.wav"), album: "Halves", style: .symbols(.monochromeOnLight)))
        #expect(onLight.lines.allSatisfy { $0 == String(repeating: " ", count: 10) + String(repeating: "█", count: 10) }, "\(onLight.lines)")
    }

    /// `COLORFGBG`'s last field is the background's colour: 7 and 9 to 15 are light.
    @Test func theBackgroundIsLightWhereColorfgbgSaysSo() {
        for (value, light) in [("15;0", false), ("0;15", true), ("0;default;15", true), ("0;7", true), ("7;8", false), ("x", false)] {
            #expect((CoverColours.monochrome(["COLORFGBG": value]) == .monochromeOnLight) == light, "\(value)")
        }
        #expect(CoverColours.monochrome([:]) == .monochrome)
    }

    @Test func symbolsAloneLeavesOutEverySequence() {
        #expect(CoverArtist.symbolsAlone("\u{1B}[0m█\u{1B}[38;2;1;2;3m▀\u{1B}[?25l \u{1B}7▄\u{7}\u{9B}x\u{1B}") == "█▀ ▄x")
    }

    @Test func inTwoHundredFiftySixColoursTheCellsUseTheIndexedPalette() throws {
        try song("song.wav")
        try picture("folder.png", colour: "blue")
        let art = CoverArtist().draw(Self.request(path("song.wav"), style: .symbols(.indexed256)))
        #expect(art.failure == nil && art.source == "folder.png")
        let text = art.lines.joined()
        #expect(text.contains("8;5;"), "\(text.prefix(80).debugDescription)")
        #expect(Self.colours(art).isEmpty)
    }

    @Test func eachTerminalsGraphicsAreOneSequence() throws {
        try song("song.wav")
        try picture("cover.png", colour: "red")
        let artist = CoverArtist()
        for (style, start) in [(CoverStyle.kitty, "\u{1B}_G"), (.sixel, "\u{1B}P"), (.iterm, "\u{1B}]1337;File=")] {
            var request = Self.request(path("song.wav"), style: style)
            (request.cellWidth, request.cellHeight) = (8, 16)
            let art = artist.draw(request)
            #expect(art.failure == nil && art.lines.count == 1, "\(style)")
            #expect(art.lines.first?.contains(start) == true, "\(style): \(art.lines.first?.prefix(40).debugDescription ?? "")")
        }
    }

    @Test func aWidePictureKeepsItsShapeWithinTheBox() throws {
        try song("song.wav")
        try picture("Front.PNG", colour: "green", size: "200x50")
        let art = CoverArtist().draw(Self.request(path("song.wav"), columns: 40, rows: 20))
        #expect(art.failure == nil && art.source == "Front.PNG")
        // 4:1 in cells twice as tall: 40 columns, 5 rows.
        #expect(art.columns == 40)
        #expect(art.rows == 5)
    }

    @Test func theSongsOwnPictureComesFirstInEachFormat() throws {
        try song("song.wav")
        try picture("cover.png", colour: "blue")
        try picture("embedded.png", colour: "red")
        let made = [
            ("song.mp3", ["-c:a", "libmp3lame", "-id3v2_version", "3"]),
            ("song.m4a", ["-c:a", "aac", "-disposition:v", "attached_pic"]),
        ]
        for (name, codec) in made {
            let status = try Self.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", path("song.wav"), "-i", path("embedded.png"), "-map", "0:a",
                                                          "-map", "1:v", "-c:v", "png"] + codec + [path(name)])
            #expect(status == 0, "ffmpeg made \(name)")
        }
        #expect(try Self.run("/usr/bin/flac", ["-s", "-f", "--picture=\(path("embedded.png"))", path("song.wav"), "-o", path("song.flac")]) == 0)
        for name in ["song.mp3", "song.m4a", "song.flac"] {
            let art = CoverArtist().draw(Self.request(path(name), album: nil))
            #expect(art.failure == nil && art.source == "embedded", "\(name): \(art.failure ?? "")")
            #expect(!Self.colours(art).isEmpty && Self.colours(art).allSatisfy { $0[0] > 230 && $0[2] < 30 }, "\(name) is drawn in its own picture's red")
        }
        // The WAV holds none: the folder's blue.
        let art = CoverArtist().draw(Self.request(path("song.wav"), album: nil))
        #expect(art.source == "cover.png")
        #expect(!Self.colours(art).isEmpty && Self.colours(art).allSatisfy { $0[2] > 230 && $0[0] < 30 })
    }

    /// Ogg Vorbis keeps its picture as a FLAC picture block in base64, a comment of its own.
    @Test func anOggVorbisPictureCommentIsItsCover() throws {
        try song("song.wav")
        try picture("embedded.png", colour: "red")
        #expect(try Self.run("/usr/bin/oggenc", ["-Q", path("song.wav"), "-o", path("song.ogg")]) == 0)
        let png = try [UInt8](Data(contentsOf: folder.appendingPathComponent("embedded.png")))
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
        let mime = Array("image/png".utf8)
        let block = be32(3) + be32(mime.count) + mime + be32(0) + be32(64) + be32(64) + be32(24) + be32(0) + be32(png.count) + png
        let comment = "METADATA_BLOCK_PICTURE=" + Data(block).base64EncodedString()
        #expect(try Self.run("/usr/bin/vorbiscomment", ["-a", "-t", comment, path("song.ogg")]) == 0)
        let art = CoverArtist().draw(Self.request(path("song.ogg"), album: nil))
        #expect(art.failure == nil && art.source == "embedded", "\(art.failure ?? "")")
        #expect(!Self.colours(art).isEmpty && Self.colours(art).allSatisfy { $0[0] > 230 && $0[2] < 30 })
    }

    /// An MP3 whose ID3 picture is 17 MB: read by FFmpeg with the tag, refused by its size.
    @Test func anEmbeddedPictureOverSixteenMegabytesIsRefused() throws {
        try song("song.wav")
        #expect(try Self.run("/usr/bin/lame", ["--quiet", path("song.wav"), path("bare.mp3")]) == 0)
        let picture: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 17 << 20)
        let body: [UInt8] = [0] + Array("image/png".utf8) + [0, 3, 0] + picture
        func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8(value >> $0 & 0x7F) } }
        let frame = Array("APIC".utf8) + [24, 16, 8, 0].map { UInt8(body.count >> $0 & 0xFF) } + [0, 0] + body
        let tag = Array("ID3".utf8) + [3, 0, 0] + syncsafe(frame.count) + frame
        let audio = try [UInt8](Data(contentsOf: folder.appendingPathComponent("bare.mp3")))
        try Data(tag + audio).write(to: folder.appendingPathComponent("song.mp3"))
        let art = CoverArtist().draw(Self.request(path("song.mp3"), album: nil))
        #expect(art.failure == "song.mp3: its picture is 17 MB, more than tplayer reads (16 MB)", "\(art.failure ?? "drawn")")
    }

    @Test func anAlbumsCoverIsReadOnceForAllItsSongs() throws {
        try song("one.wav")
        try song("two.wav")
        try picture("cover.jpg", colour: "red")
        let artist = CoverArtist()
        #expect(artist.draw(Self.request(path("one.wav"))).failure == nil)
        try FileManager.default.removeItem(atPath: path("cover.jpg"))
        // Another song of the album, at another size: the picture read for the first.
        let art = artist.draw(Self.request(path("two.wav"), columns: 10, rows: 5))
        #expect(art.failure == nil && art.columns == 10)
        // Another album in the folder looks again, and finds none.
        let other = artist.draw(Self.request(path("two.wav"), album: "Another"))
        #expect(other.failure?.hasPrefix("no cover") == true, "\(other.failure ?? "")")
    }

    @Test func aCoverThatIsNotAPictureIsSaidInALine() throws {
        try song("song.wav")
        try Data("this is not a JPEG".utf8).write(to: folder.appendingPathComponent("cover.jpg"))
        let art = CoverArtist().draw(Self.request(path("song.wav")))
        #expect(art.failure == "cover.jpg: not a picture tplayer reads (JPEG, PNG, WebP, GIF or BMP)")
        #expect(art.lines.isEmpty)
    }

    @Test func aDamagedPictureIsSaidInALine() throws {
        try song("song.wav")
        try picture("real.jpg", colour: "red")
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent("real.jpg")))
        try Data(bytes.prefix(200) + [UInt8](repeating: 0x55, count: 300)).write(to: folder.appendingPathComponent("cover.jpg"))
        let art = CoverArtist().draw(Self.request(path("song.wav")))
        #expect(art.failure?.hasPrefix("cover.jpg: a JPEG picture") == true, "\(art.failure ?? "drawn")")
    }

    @Test func aPictureOfThirtyThousandPixelsASideIsRefusedBeforeItIsDecoded() throws {
        try song("song.wav")
        // A PNG's header saying 30,000 × 30,000, then nothing a decoder could use.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        try Data(png + [UInt8](repeating: 0, count: 1000)).write(to: folder.appendingPathComponent("cover.png"))
        let art = CoverArtist().draw(Self.request(path("song.wav")))
        #expect(art.failure == "cover.png: 30000 × 30000 pixels, more than tplayer draws (16 megapixels); a smaller picture would do")
    }

    @Test func sidesOfFourBillionPixelsNeitherOverflowNorPass() throws {
        try song("song.wav")
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 8, 6, 0, 0, 0]
        #expect(PictureHeader.read(png)?.pixels == Int.max)
        try Data(png).write(to: folder.appendingPathComponent("cover.png"))
        let art = CoverArtist().draw(Self.request(path("song.wav")))
        #expect(art.failure?.hasPrefix("cover.png: 4294967295 × 4294967295 pixels, more than tplayer draws") == true, "\(art.failure ?? "drawn")")
    }

    /// A song that reads as an HLS playlist naming a FIFO: FFmpeg never opens what it names (it
    /// would wait for a writer for ever), and no cover is found.
    @Test func aSongThatReadsAsAPlaylistOpensNothingItNames() throws {
        #expect(mkfifo(path("segment.ts"), 0o644) == 0)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n\(path("segment.ts"))\n#EXT-X-ENDLIST\n"
            .write(to: folder.appendingPathComponent("song.mp3"), atomically: true, encoding: .utf8)
        let done = Locked<CoverArt?>(nil)
        let request = Self.request(path("song.mp3"), album: nil)
        Thread.detachNewThread { done.update { $0 = CoverArtist().draw(request) } }
        let deadline = Date().addingTimeInterval(10)
        while done.read({ $0 }) == nil, Date() < deadline { usleep(20_000) }
        let art = try #require(done.read { $0 }, "the cover's thread is still waiting on the FIFO")
        #expect(art.missing)
    }

    /// A 40 MB picture in an ID3 tag: reading stops at the bound, not at its end.
    @Test func aPictureBeyondTheBoundIsNotReadToItsEnd() throws {
        try song("song.wav")
        #expect(try Self.run("/usr/bin/lame", ["--quiet", path("song.wav"), path("bare.mp3")]) == 0)
        let body: [UInt8] = [0] + Array("image/png".utf8) + [0, 3, 0] + [0x89, 0x50, 0x4E, 0x47] + [UInt8](repeating: 0, count: 40 << 20)
        func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8(value >> $0 & 0x7F) } }
        let frame = Array("APIC".utf8) + [24, 16, 8, 0].map { UInt8(body.count >> $0 & 0xFF) } + [0, 0] + body
        let audio = try [UInt8](Data(contentsOf: folder.appendingPathComponent("bare.mp3")))
        try Data(Array("ID3".utf8) + [3, 0, 0] + syncsafe(frame.count) + frame + audio).write(to: folder.appendingPathComponent("song.mp3"))
        let art = CoverArtist().draw(Self.request(path("song.mp3"), album: nil))
        #expect(art.failure == "song.mp3: its tags hold more than tplayer reads for a cover (16 MB)", "\(art.failure ?? "drawn")")
    }

    @Test func aTerminalClaimingHugeCellsGetsABoundedDrawing() throws {
        try song("song.wav")
        try picture("cover.png", colour: "red")
        var request = Self.request(path("song.wav"), columns: 40, rows: 20, style: .kitty)
        (request.cellWidth, request.cellHeight) = (5000, 5000)
        let art = CoverArtist().draw(request)
        #expect(art.failure == nil && (art.lines.first?.utf8.count ?? .max) < 2 << 20, "about 512 × 512 RGBA in base64 at most")
    }

    @Test func aRealPictureOverTheBoundIsRefusedByTheDecoderToo() throws {
        // Its header not read first: the decoder's own bound (max_pixels) stands.
        try picture("big.png", colour: "red", size: "4100x4100")
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent("big.png")))
        let decoded = CoverPicture.decode(bytes, codec: CoverPicture.codec(of: .png), header: nil, source: "big.png")
        guard case .failure(let failure) = decoded else { Issue.record("decoded"); return }
        #expect(failure.line == "big.png: more than 16 megapixels, more than tplayer draws")
    }

    @Test func aCoverThatIsANamedPipeIsNeverOpenedForReading() throws {
        try song("song.wav")
        #expect(mkfifo(path("cover.jpg"), 0o644) == 0)
        let started = ContinuousClock.now
        let art = CoverArtist().draw(Self.request(path("song.wav")))
        #expect(art.failure == "cover.jpg: not a regular file (it is a named pipe (FIFO))")
        #expect(started.duration(to: .now) < .seconds(5), "no writer: a blocking open would wait for ever")
    }

    @Test func aCoverOverSixteenMegabytesIsNotRead() throws {
        try song("song.wav")
        try Data(count: 17 << 20).write(to: folder.appendingPathComponent("cover.jpg"))
        let art = CoverArtist().draw(Self.request(path("song.wav")))
        #expect(art.failure == "cover.jpg: larger than 16 MB, more than a cover needs; tplayer leaves it")
    }

    @Test func aSongWithNoCoverSaysSo() throws {
        try song("song.wav")
        let art = CoverArtist().draw(Self.request(path("song.wav")))
        #expect(art.failure == "no cover: none in the song, nor a cover.jpg, folder.jpg or front.png beside it")
    }

    @Test func headersGiveEachFormatsSize() throws {
        for (name, format) in [("p.jpg", PictureHeader.Format.jpeg), ("p.png", .png), ("p.gif", .gif), ("p.bmp", .bmp), ("p.webp", .webp)] {
            try picture(name, colour: "red", size: "124x46")
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            let header = PictureHeader.read(bytes)
            #expect(header == PictureHeader(format: format, width: 124, height: 46), "\(name)")
        }
        #expect(PictureHeader.read(Array("not a picture".utf8)) == nil)
        #expect(PictureHeader.read([0xFF, 0xD8, 0xFF]) == PictureHeader(format: .jpeg))
    }
}
