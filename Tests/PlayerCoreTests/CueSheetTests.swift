import Testing
@testable import PlayerCore

private func parse(_ text: String) -> CueSheet {
    CueSheet.parse(Array(text.utf8), file: "album.cue")
}

/// A sheet as EAC writes one for a single-file rip.
let albumSheet = """
    REM GENRE "Progressive Rock"
    REM DATE 1973
    REM REPLAYGAIN_ALBUM_GAIN -7.12 dB
    REM REPLAYGAIN_ALBUM_PEAK 0.988
    CATALOG 0724384260927
    PERFORMER "The Band"
    TITLE "The Album"
    FILE "The Band - The Album.flac" WAVE
      TRACK 01 AUDIO
        TITLE "Speak"
        REM REPLAYGAIN_TRACK_GAIN -6.50 dB
        INDEX 01 00:00:00
      TRACK 02 AUDIO
        TITLE "Breathe"
        PERFORMER "Guest"
        ISRC GBAYE0601234
        FLAGS DCP
        INDEX 00 01:07:50
        INDEX 01 01:09:00
      TRACK 03 AUDIO
        TITLE "Run"
        INDEX 01 03:57:74

    """

struct CueSheetTests {
    @Test func anAlbumSheetGivesEachTrackItsStartAndTheNextTracksIndex01AsItsEnd() {
        let sheet = parse(albumSheet)
        #expect(sheet.problems.isEmpty)
        #expect(sheet.tracks.map(\.number) == [1, 2, 3])
        let second: Int64 = (60 + 9) * 75
        let third: Int64 = (3 * 60 + 57) * 75 + 74
        #expect(sheet.tracks.map(\.start) == [0, second, third])
        // The pregap (INDEX 00 at 1:07:50) is the end of track 1, not a gap between tracks.
        #expect(sheet.tracks.map(\.end) == [second, third, nil])
        #expect(sheet.tracks[1].pregap == Int64(100), "INDEX 00 at 1:07:50, INDEX 01 at 1:09:00")
        #expect(sheet.tracks.allSatisfy { $0.file == "The Band - The Album.flac" })
        #expect(sheet.tracks[0].fileLocation.line == 8)
        #expect(sheet.tracks.map(\.location.line) == [9, 13, 20])
    }

    @Test func sheetFieldsAreTheAlbumsAndTrackFieldsWin() {
        let sheet = parse(albumSheet)
        #expect(sheet.title == "The Album" && sheet.performer == "The Band" && sheet.catalog == "0724384260927")
        #expect(sheet.genre == "Progressive Rock" && sheet.date == "1973")
        let tags = sheet.tracks.map(sheet.tags(of:))
        #expect(tags.map(\.title) == ["Speak", "Breathe", "Run"])
        #expect(tags.map(\.artist) == ["The Band", "Guest", "The Band"])
        #expect(tags.allSatisfy { $0.album == "The Album" && $0.year == "1973" && $0.genre == "Progressive Rock" })
        #expect(tags.map(\.track) == ["1", "2", "3"])
        #expect(sheet.tracks[1].isrc == "GBAYE0601234" && sheet.tracks[1].flags == "DCP")
        #expect(sheet.tracks[0].replayGain == ReplayGain(trackGain: -6.5, albumGain: -7.12, albumPeak: 0.988))
        #expect(sheet.tracks[2].replayGain == ReplayGain(albumGain: -7.12, albumPeak: 0.988))
    }

    @Test func cdFramesBecomeSampleFramesExactlyAt44100AndRoundedDownElsewhere() {
        let track = parse(albumSheet).tracks[2]
        let frames: Int64 = (3 * 60 + 57) * 75 + 74
        #expect(track.samples(at: 44100).start == frames * 588)
        #expect(track.samples(at: 48000).start == frames * 640)
        #expect(TrackSpan(start: 1).samples(at: 22050).start == 294)
        #expect(TrackSpan(start: 1).samples(at: 11025).start == 147)
        #expect(TrackSpan(start: 1).samples(at: 8000).start == 106, "8000 / 75 = 106.67, rounded down")
    }

    @Test func eachFileHasItsOwnTracksAndTheLastOfAFilePlaysToItsEnd() {
        // EAC's "gaps appended to the previous track" sheet: track 2's INDEX 00 is in file 1.
        let sheet = parse("""
            FILE "01.wav" WAVE
              TRACK 01 AUDIO
                INDEX 01 00:00:00
              TRACK 02 AUDIO
                INDEX 00 04:10:12
            FILE "02.wav" WAVE
                INDEX 01 00:00:00
              TRACK 03 AUDIO
                INDEX 01 03:00:00
            """)
        #expect(sheet.problems.isEmpty)
        #expect(sheet.tracks.map(\.file) == ["01.wav", "02.wav", "02.wav"])
        let three: Int64 = 3 * 60 * 75
        #expect(sheet.tracks.map(\.end) == [nil, three, nil])
        #expect(sheet.tracks[1].fileLocation.line == 6)
    }

    @Test func quotedAndUnquotedValuesTabsAndEveryLineEnd() {
        let text = "\u{FEFF}title My Album\r\nperformer\t\"Say \"Hi\"\"\rFILE my album.wav WAVE\n\tTRACK 1 AUDIO\r\n\t\tINDEX 01 0:2:3\r\n\t\tTITLE\t\"\"\r\n"
        let sheet = parse(text)
        #expect(sheet.problems.isEmpty)
        #expect(sheet.title == "My Album")
        #expect(sheet.performer == "Say \"Hi\"", "a title may hold quotes: the value ends at the last one")
        #expect(sheet.tracks.map(\.file) == ["my album.wav"], "an unquoted name ends before the type")
        #expect(sheet.tracks.map(\.start) == [153])
        #expect(sheet.tracks.first?.title == nil, "an empty title is none")
    }

    @Test func windows1252SheetsAreReadAsWindows1252AndUTF8AsUTF8() {
        // “Café” – as EAC writes it on a Western Windows: 0x93 and 0x94 are curly quotes.
        let latin: [UInt8] = Array("TITLE \"".utf8) + [0x93] + Array("Caf".utf8) + [0xE9, 0x94, 0x80] + Array("\"\n".utf8)
        #expect(CueSheet.parse(latin).title == "\u{201C}Café\u{201D}€")
        #expect(parse("TITLE \"“Café”\"\n").title == "“Café”")
        // File names stay bytes, to be found on the disk as they are.
        let name: [UInt8] = Array("FILE \"caf".utf8) + [0xE9] + Array(".flac\" WAVE\nTRACK 01 AUDIO\nINDEX 01 00:00:00\n".utf8)
        #expect(CueSheet.parse(name).tracks.first?.file == Path(bytes: Array("caf".utf8) + [0xE9] + Array(".flac".utf8)))
    }

    @Test func everyProblemIsLocatedAndOnlyItsTrackIsLeftOut() throws {
        let sheet = parse("""
            TRACK 01 AUDIO
            FILE "a.flac" WAVE
              TRACK 02 AUDIO
                INDEX 01 00:10:00
              TRACK 03 AUDIO
                INDEX 01 02:61:00
              TRACK 04 AUDIO
                INDEX 01 00:05:00
              TRACK 05 AUDIO
                TITLE "no start"
              TRACK 100 AUDIO
                INDEX 01 09:00:00
              TRACK 06 MODE1/2352
                INDEX 01 09:30:00
              TRACK 07 AUDIO
                INDEX 01 10:00:75
              TRACK 08 AUDIO
                PREGAP 00:02:00
                INDEX 01 11:00:00
                INDEX 01 12:00:00
              WHATEVER "x"
              TRACK 09 AUDIO
                INDEX 00 13:00:00
                INDEX 01 12:59:00
            """)
        #expect(sheet.problems.map(\.located) == [
            "album.cue:1:1: TRACK 01 AUDIO: a track before any FILE; left out",
            "album.cue:6:5: INDEX 01 02:61:00: seconds past 59; the track is left out",
            "album.cue:8:5: INDEX 01 00:05:00: before the index above it (00:10:00); indexes go forward; the track is left out",
            "album.cue:9:3: TRACK 05: no INDEX 01; the track is left out",
            "album.cue:11:3: TRACK 100 AUDIO: not a track number from 1 to 99; the track is left out",
            "album.cue:13:3: TRACK 06 MODE1/2352: not an audio track (MODE1/2352); left out",
            "album.cue:16:5: INDEX 01 10:00:75: frames past 74 (75 a second); the track is left out",
            "album.cue:20:5: INDEX 01 12:00:00: a second INDEX 01 in the track; ignored",
            "album.cue:21:3: WHATEVER \"x\": unknown command WHATEVER; ignored",
            "album.cue:24:5: INDEX 01 12:59:00: before the index above it (13:00:00); indexes go forward; the track is left out",
        ])
        #expect(sheet.tracks.map(\.number) == [2, 8])
        let eleven: Int64 = 11 * 60 * 75
        #expect(sheet.tracks.map(\.end) == [eleven, nil])
        try #require(sheet.tracks.count == 2)
        #expect(sheet.tracks[1].pregap == Int64(150), "PREGAP is noted (silence a burner adds), no audio added")
    }

    @Test func aTrackStartingWhereThePreviousStartsIsLeftOutSoEveryTrackHasLength() {
        let sheet = parse("FILE a.wav WAVE\nTRACK 01 AUDIO\nINDEX 01 00:10:00\nTRACK 02 AUDIO\nINDEX 01 00:10:00\n")
        #expect(sheet.problems.map(\.located) == ["album.cue:5:1: INDEX 01 00:10:00: not after track 1's start (00:10:00); the track is left out"])
        #expect(sheet.tracks.map(\.number) == [1])
        #expect(sheet.tracks.first?.end == nil)
    }

    @Test func aHugeLineOrBinaryLineIsSaidAndTheSheetReadOn() {
        let long = "TITLE \"" + String(repeating: "x", count: 5000) + "\"\n"
        let sheet = parse(long + "FILE a.wav WAVE\nTRACK 01 AUDIO\nINDEX 01 00:00:00\n")
        #expect(sheet.problems.map(\.located) == ["album.cue:1:1: line too long (5008 bytes; at most 4096)"])
        #expect(sheet.tracks.count == 1)
    }

    @Test func aSheetOfNothingButProblemsIsCutOff() {
        let sheet = parse(String(repeating: "NONSENSE\n", count: 500))
        #expect(sheet.problems.count == CueSheet.maxProblems + 1)
        #expect(sheet.problems.last?.message.hasPrefix("more than 50 problems") == true)
    }

    @Test func cdTextFileAndRemCommentsAreIgnoredQuietly() {
        let sheet = parse("CDTEXTFILE \"x.cdt\"\nREM COMMENT \"ExactAudioCopy v1.6\"\nrem discid 12345\nfile a.wav wave\ntrack 01 audio\nindex 01 00:00:00\n")
        #expect(sheet.problems.isEmpty)
        #expect(sheet.tracks.count == 1, "commands are read in any case")
    }
}
