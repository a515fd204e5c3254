import Testing
@testable import PlayerCore

/// mpg123's remote protocol: lines parsed as mpg123 parses them, and replies no file can forge.
struct RemoteCommandTests {
    func parse(_ line: String) -> RemoteCommand? { RemoteCommand.parse(Array(line.utf8)) }

    @Test func commandsAreCaseInsensitiveInLongAndShortForms() {
        #expect(parse("load a b.mp3") == .load(Path("a b.mp3")))
        #expect(parse("L  x.mp3") == .load(Path(" x.mp3")))  // the rest of the line, as it is
        #expect(parse("LP x.mp3") == .loadPaused(Path("x.mp3")))
        #expect(parse("loadlist 2  list.m3u") == .loadList(entry: 2, Path("list.m3u")))
        #expect(parse("p") == .pause)
        #expect(parse("Stop") == .stop)
        #expect(parse("J +10") == .jump(.frames(10, relative: true)))
        #expect(parse("jump 100") == .jump(.frames(100, relative: false)))
        #expect(parse("J -1.5s") == .jump(.seconds(-1.5, relative: true)))
        #expect(parse("K 44100") == .seek(to: 44100, relative: false))
        #expect(parse("seek -500") == .seek(to: -500, relative: true))
        #expect(parse("V 30.5") == .volume(30.5))
        #expect(parse("") == nil)
        for (line, command) in [("MUTE", RemoteCommand.mute), ("unmute", .unmute), ("SILENCE", .silence),
                                ("progress", .progress), ("SAMPLE", .sample), ("format", .format), ("STATE", .state),
                                ("T", .tag), ("h", .help), ("QUIT", .quit)] {
            #expect(parse(line) == command)
        }
    }

    @Test func whatMpg123CannotTakeIsOneErrorLine() {
        #expect(parse("FOO") == .invalid("Unknown command or no arguments: FOO"))
        #expect(parse("FOO bar") == .invalid("Unknown command with arguments: FOO bar"), "as mpg123 words it")
        #expect(parse("  P") == .invalid("Unknown command or no arguments:   P"))
        #expect(parse("p ") == .invalid("Unknown command or no arguments: p"))
        #expect(parse("LL 1") == .invalid("empty list name"))
        if case .invalid = parse("J abc") {} else { Issue.record("J abc") }
        #expect(parse("SAMPLE x") == .invalid("Unknown command with arguments: SAMPLE x"))
        #expect(parse("  V   50 ") == .volume(50), "blanks before and between skipped, as mpg123 reads them")
        #expect(parse(" LOAD /x.mp3") == .load("/x.mp3"))
        #expect(parse("EQ 1 2 0.5") == .equalizer(channel: 1, band: 2, value: 0.5))
        #expect(parse("EQ 2 5 abc") == .invalid("invalid arguments for EQ: 2 5 abc"))
        #expect(parse("SEQ 1 1.5 2x") == .simpleEqualizer(bass: 1, mid: 1.5, treble: 2), "each number read as sscanf reads it")
        #expect(parse("PITCH +0.1") == .pitch(0.1))
        #expect(parse("PITCH abc") == .invalid("invalid arguments for PITCH: abc"))
        #expect(parse("RVA mix") == .rva("mix"))
        #expect(parse("SCAN") == .scan && parse("SHOWEQ") == .showEqualizer)
        if case .invalid(let why) = RemoteCommand.parse(Array(repeating: UInt8(ascii: "L"), count: 3000)) {
            #expect(why == "line too long (longer than 2048 bytes): ignored", "not a length the reader never saw")
        } else { Issue.record("long line") }
        if case .invalid(let why) = RemoteCommand.parse([0x4C, 0x20, 0x00, 0x1B, 0x41]) {
            #expect(why.contains("binary"))
        } else { Issue.record("binary line") }
    }

    @Test func hugeNumbersAreClampedNotOverflowed() {
        if case .invalid = parse("K 99999999999999999999") {} else { Issue.record("beyond Int64") }
        #expect(parse("K 999999999999999") == .seek(to: RemoteCommand.numberLimit, relative: false))
        #expect(parse("J -999999999999999") == .jump(.frames(-RemoteCommand.numberLimit, relative: true)))
        if case .invalid = parse("J 1e300s") {} else { Issue.record("absurd seconds") }
    }

    @Test func aTagCannotForgeAReply() {
        var song = SongInfo(path: "/music/x.mp3", sampleRate: 44100, channels: 2, totalFrames: 44100)
        var v2 = SongInfo.ID3.V2()
        v2.title = "Nice\n@P 0\r\n\u{1B}[2Jtitle"
        song.id3.v2 = v2
        let lines = RemoteReplies.info(song)
        #expect(lines == ["I {", "I ID3v2.title:Nice", "I ID3v2.title:@P 0", "I ID3v2.title: [2Jtitle", "I }"])
        #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") && !$0.contains("\u{1B}") })
    }

    @Test func id3v1FieldsAreFixedWidthWithGenreAndTrack() {
        var fields = [UInt8](repeating: 0, count: 124)
        for (offset, text) in [(0, "Title"), (30, "Artist"), (60, "Album"), (90, "1999")] {
            fields.replaceSubrange(offset..<offset + text.utf8.count, with: Array(text.utf8))
        }
        fields[94 + 29] = 7
        fields[1] = 0x0A  // a line break in a v1 field becomes a space
        var song = SongInfo(path: "/music/x.mp3", sampleRate: 44100, channels: 2, totalFrames: 44100)
        song.id3.v1 = SongInfo.ID3.V1(fields: fields, genre: 17)
        let lines = RemoteReplies.info(song)
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("I ID3:T tle" + String(repeating: " ", count: 25) + "Artist"))
        #expect(lines[1].hasSuffix("Rock"))
        #expect(lines[2] == "I ID3.genre:17")
        #expect(lines[3] == "I ID3.track:7")
    }

    /// Latin-1 text is sent as UTF-8, and every field stays as many bytes wide as mpg123's: a
    /// front-end that cuts the line by bytes finds each field where mpg123 puts it.
    @Test func id3v1FieldsKeepTheirWidthInBytes() {
        var fields = [UInt8](repeating: 0x20, count: 124)
        fields.replaceSubrange(0..<5, with: [0x43, 0x61, 0x66, 0xE9, 0x21])  // "Café!" in Latin-1
        fields.replaceSubrange(30..<60, with: [UInt8](repeating: 0xE9, count: 30))  // 30 × é: 60 bytes in UTF-8
        fields.replaceSubrange(60..<65, with: Array("Album".utf8))
        var song = SongInfo(path: "/music/x.mp3", sampleRate: 44100, channels: 2, totalFrames: 44100)
        song.id3.v1 = SongInfo.ID3.V1(fields: fields, genre: 255)
        let line = Array(RemoteReplies.info(song)[1].utf8.dropFirst("I ID3:".utf8.count))
        #expect(String(decoding: line[0..<30], as: UTF8.self) == "Café!" + String(repeating: " ", count: 24))
        #expect(String(decoding: line[30..<60], as: UTF8.self) == String(repeating: "é", count: 15))
        #expect(String(decoding: line[60..<65], as: UTF8.self) == "Album")
        #expect(String(decoding: line[124...], as: UTF8.self) == "Unknown")
    }

    @Test func aSongWithoutTagsIsNamedByItsFileName() {
        let song = SongInfo(path: "/music/dir.x/Song One.mp3", sampleRate: 44100, channels: 2, totalFrames: 1)
        #expect(RemoteReplies.info(song) == ["I Song One"])
    }

    @Test func framesAndSamplesConvertAsMpg123CountsThem() {
        var song = SongInfo(path: "/x.mp3", sampleRate: 44100, channels: 2, totalFrames: 441000)
        var stream = SongInfo.Stream(layer: 3, bitrate: 192)
        stream.header.vbr = 1
        stream.header.mode = 1
        stream.startDelay = 1105
        stream.frameCount = 384
        song.stream = stream
        #expect(RemoteReplies.sample(ofMPEGFrame: 100, in: song) == 114_095)
        #expect(RemoteReplies.mpegFrame(of: 114_095, in: song) == 100)
        #expect(RemoteReplies.sample(ofMPEGFrame: 0, in: song) == 0)
        #expect(RemoteReplies.mpegFrames(inSeconds: 10, of: song) == 382)
        #expect(RemoteReplies.mpegFrames(inSeconds: -3, of: song) == -114)
        #expect(RemoteReplies.progress(song, position: 0) == "F 0 384 0.00 10.03")
        #expect(RemoteReplies.volume(50) == "V 50.000000%")
        #expect(RemoteReplies.fixed(3.14159, 2) == "3.14")
        #expect(RemoteReplies.fixed(-0.001, 2) == "0.00")
        #expect(RemoteReplies.fixed(12.5, 6) == "12.500000")
        // Past 64 bits of decimals, every digit as C's %f prints it (it said "1e+308").
        #expect(RemoteReplies.fixed(1e308, 6) == "100000000000000001097906362944045541740492309677311846336810682903157585404911491537163328978494688899061249669721172515611590283743140088328307009198146046031271664502933027185697489699588559043338384466165001178426897626212945177628091195786707458122783970171784415105291802893207873272974885715430223118336.000000")
        #expect(RemoteReplies.fixed(-123456789012.5, 6) == "-123456789012.500000")
        #expect(RemoteReplies.fixed(.infinity, 6) == "inf" && RemoteReplies.fixed(-.infinity, 2) == "-inf")
    }

    /// `J 500399958598` trapped (frames × samples × flicks overflowed): every step saturates.
    @Test func absurdJumpsSaturate() {
        let song = SongInfo(path: "/x.mp3", sampleRate: 44100, channels: 2, totalFrames: 441000)
        #expect(RemoteReplies.sample(ofMPEGFrame: 1 << 62, in: song) == .max)
        #expect(RemoteReplies.sample(ofMPEGFrame: -(1 << 62), in: song) == 0)
        #expect(RemoteReplies.mpegFrames(inSeconds: 1e300, of: song) == 1 << 62)
        #expect(RemoteReplies.mpegFrames(inSeconds: -.infinity, of: song) == 0)
        #expect(RemoteReplies.mpegFrames(inSeconds: .nan, of: song) == 0)
        let sample = RemoteReplies.sample(ofMPEGFrame: 500_399_958_598, in: song)
        #expect(SeekTarget.to(AudioTime(frames: sample, rate: 44100)).frame(in: song, from: 0) == 441000)
    }
}

/// The status line's tags come from the same stored tags the remote protocol sends.
struct TagsFromID3Tests {
    @Test func version2FirstThenVersion1() {
        var fields = [UInt8](repeating: 0, count: 124)
        fields.replaceSubrange(0..<7, with: Array("Title  ".utf8))
        fields.replaceSubrange(30..<33, with: [0x41, 0xE9, 0x20])  // "Aé " in Latin-1
        fields[123] = 9
        let v1 = SongInfo.ID3.V1(fields: fields, genre: 1)
        let fromV1 = SongInfo.Tags(SongInfo.ID3(v1: v1))
        #expect(fromV1.title == "Title" && fromV1.artist == "Aé" && fromV1.album == nil && fromV1.track == "9")
        var v2 = SongInfo.ID3.V2()
        v2.title = "Two"
        v2.frames = [SongInfo.ID3.Frame(id: "TRCK", text: "3/12")]
        let fromV2 = SongInfo.Tags(SongInfo.ID3(v1: v1, v2: v2))
        #expect(fromV2.title == "Two" && fromV2.artist == nil && fromV2.track == "3/12")
        v2.title = nil
        #expect(SongInfo.Tags(SongInfo.ID3(v1: v1, v2: v2)).title == "Title")  // no v2 title or artist
        #expect(SongInfo.Tags(SongInfo.ID3()) == SongInfo.Tags())
    }

    /// ID3v2.4 keeps the date in TDRC, as Picard and mutagen write it: the year is read from
    /// it when libmpg123 gives none (it reads v2.3's TYER), and from TDOR when that is all.
    @Test func anID3v24DateIsTheYear() {
        var v2 = SongInfo.ID3.V2()
        v2.title = "Army of Me"
        v2.frames = [SongInfo.ID3.Frame(id: "TDOR", text: "1994"), SongInfo.ID3.Frame(id: "TDRC", text: "1995-03-13")]
        #expect(SongInfo.Tags(SongInfo.ID3(v2: v2)).year == "1995-03-13")
        v2.frames = [SongInfo.ID3.Frame(id: "TDOR", text: "1994")]
        #expect(SongInfo.Tags(SongInfo.ID3(v2: v2)).year == "1994")
        v2.year = "1997"
        #expect(SongInfo.Tags(SongInfo.ID3(v2: v2)).year == "1997", "TYER as libmpg123 gives it first")
    }

    /// ID3v2.3's date is TYER with TDAT's day and month (DDMM): the same date a v2.4 copy keeps
    /// in TDRC; a TDAT that is no day is left out; TORY is the original year, as TDOR.
    @Test func anID3v23DateIsItsYearAndDay() {
        var v2 = SongInfo.ID3.V2()
        v2.title = "Isobel"
        v2.year = "1995"
        v2.frames = [SongInfo.ID3.Frame(id: "TDAT", text: "1303")]
        #expect(SongInfo.Tags(SongInfo.ID3(v2: v2)).year == "1995-03-13")
        for day in ["3213", "1313", "13", "x303", "0003"] {
            v2.frames = [SongInfo.ID3.Frame(id: "TDAT", text: day)]
            #expect(SongInfo.Tags(SongInfo.ID3(v2: v2)).year == "1995", "\(day)")
        }
        v2.year = nil
        v2.frames = [SongInfo.ID3.Frame(id: "TORY", text: "1994")]
        #expect(SongInfo.Tags(SongInfo.ID3(v2: v2)).year == "1994")
    }

    /// MPRIS's `xesam:contentCreated` is ISO 8601: a tagged date as it is when it is one, cut to
    /// its day, else its year; none without a year.
    @Test func aTaggedDateIsAnISODate() {
        let cases: [(String, String?)] = [("1995", "1995"), ("1995-03", "1995-03"), ("1995-03-13", "1995-03-13"),
                                          ("1995-03-13T10:00:00", "1995-03-13"), ("1995/03/13", "1995"), ("95", nil), ("199x", nil),
                                          ("1995-3", "1995"), ("", nil)]
        for (tagged, iso) in cases { #expect(MprisMetadata.isoDate(tagged) == iso, "\(tagged)") }
        #expect(SongInfo.Tags.leadingNumber("3/12") == 3 && SongInfo.Tags.leadingNumber("x") == nil)
    }

    /// TCON's genres by name, however a tagger wrote them: v2.4's numbers and NUL-separated
    /// values, v2.3's references with or without refining text, `((` for a plain `(`.
    @Test func genresByNumberAreNamed() {
        let cases: [(String, [String])] = [
            ("17", ["Rock"]), ("(17)", ["Rock"]), ("(17)Rock & Roll", ["Rock & Roll"]), ("(4)(17)", ["Disco", "Rock"]),
            ("(RX)", ["Remix"]), ("(CR)(17)", ["Cover", "Rock"]), ("((17) and more", ["(17) and more"]),
            ("Electronic\0Pop", ["Electronic", "Pop"]), ("17\0Pop\0Rock", ["Rock", "Pop"]), ("999", ["999"]),
            ("(999)", ["(999)"]), ("(17", ["(17"]), ("", []), ("Trip-Hop", ["Trip-Hop"]), ("0", ["Blues"]),
        ]
        for (text, names) in cases {
            #expect(SongInfo.ID3.genres(text) == names, "\(text)")
        }
        var v2 = SongInfo.ID3.V2()
        v2.artist = "Björk\0Nellee Hooper"
        v2.genre = "(17)"
        let tags = SongInfo.Tags(SongInfo.ID3(v2: v2))
        #expect(tags.artist == "Björk" && tags.genre == "Rock")
    }
}

/// What mpg123 answers to its equaliser and RVA commands, kept as it keeps them.
struct RemoteEqualizerTests {
    @Test func bandsSetAreShownAndAFileSetsThemAll() {
        var equalizer = RemoteEqualizer()
        let answer1 = equalizer.answer(.equalizer(channel: 2, band: 31, value: 0.25))
        #expect(answer1 == ["2 : 31 : 0.250000"])
        let answer2 = equalizer.answer(.equalizer(channel: 4, band: 1, value: 1))
        #expect(answer2?.first?.hasPrefix("E failed to set eq") == true)
        let answer3 = equalizer.answer(.showEqualizer)
        #expect(answer3?.contains("SHOWEQ 2 : 31 : 0.250000") == true)
        let answer4 = equalizer.answer(.showEqualizer)
        #expect(answer4?.contains("SHOWEQ 1 : 31 : 1.000000") == true, "the left band untouched")
        let file = "# comment\n" + (0..<32).map { "\(Double($0) / 10) 0.5" }.joined(separator: "\r\n")
        let loaded5 = equalizer.load(file)
        #expect(loaded5)
        let answer6 = equalizer.answer(.showEqualizer)
        #expect(answer6?.contains("SHOWEQ 1 : 3 : 0.300000") == true)
        let loaded7 = equalizer.load("1 1\n2 2\n")
        #expect(!loaded7, "fewer than 32 bands is no eq file")
        let loaded8 = equalizer.load(String(repeating: "x y\n", count: 32))
        #expect(!loaded8)
        let answer9 = equalizer.answer(.rva("audiophile"))
        #expect(answer9 == ["RVA album"])
        let answer10 = equalizer.answer(.rva("loud"))
        #expect(answer10 == ["RVA album"], "a word mpg123 does not know keeps the mode")
        let answer11 = equalizer.answer(.pitch(0.1))
        #expect(answer11 == nil)
    }

    /// `@F` for a song whose length a file claims to be Int64.max (an Ogg's last granule, an
    /// FFmpeg duration): the frames left are counted without overflowing (it added first).
    @Test func progressOfAnAbsurdLengthDoesNotTrap() {
        let song = SongInfo(path: "a.ogg", sampleRate: 48000, channels: 2, totalFrames: .max)
        #expect(RemoteReplies.progress(song, frame: 0).hasPrefix("F 0 \(Int64.max / 1152 + 1) 0.00 "))
    }
}
