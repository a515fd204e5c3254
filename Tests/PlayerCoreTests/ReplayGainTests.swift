import Testing
@testable import PlayerCore

struct ReplayGainTests {
    @Test func tagsAreReadAsTaggersWriteThem() {
        var gain = ReplayGain()
        let read = [gain.read(key: "REPLAYGAIN_TRACK_GAIN", value: "-6.50 dB"), gain.read(key: "replaygain_album_gain", value: "+2.1dB"),
                    gain.read(key: "REPLAYGAIN_TRACK_PEAK", value: "0.988"), gain.read(key: "Replaygain_Album_Peak", value: " 1.02 ")]
        #expect(read == [true, true, true, true])
        #expect(gain == ReplayGain(trackGain: -6.5, trackPeak: 0.988, albumGain: 2.1, albumPeak: 1.02))
        // Nonsense is left out, not taken as 0 or as an absurd gain.
        for (key, value) in [("REPLAYGAIN_TRACK_GAIN", "loud"), ("REPLAYGAIN_TRACK_GAIN", "-900 dB"), ("REPLAYGAIN_TRACK_PEAK", "-1"),
                             ("REPLAYGAIN_TRACK_PEAK", "nan"), ("REPLAYGAIN_REFERENCE_LOUDNESS", "89.0 dB"), ("TITLE", "x")] {
            var other = ReplayGain()
            let taken = other.read(key: key, value: value)
            #expect(!taken, "\(key)=\(value)")
            #expect(other.isEmpty)
        }
    }

    @Test func vorbisCommentsGiveTagsAndGain() {
        let comments = VorbisComments(raw: ["TITLE=Night Drive", "artist=Band", "ALBUM=Nights", "TRACKNUMBER=2", "DATE=2024",
                                            "REPLAYGAIN_TRACK_GAIN=-3.00 dB", "no equals sign", "=empty name"].map { Array($0.utf8) }
                                        + [[0x43, 0x4F, 0x4D, 0x4D, 0x45, 0x4E, 0x54, 0x3D, 0xFF, 0x41]])
        #expect(comments.fields.count == 7)
        let tags = comments.tags
        #expect(tags.title == "Night Drive" && tags.artist == "Band" && tags.album == "Nights")
        #expect(tags.track == "2" && tags.year == "2024")
        #expect(tags.comment == "\u{FFFD}A")  // not UTF-8: repaired, never trusted
        #expect(comments.replayGain.trackGain == -3)
    }

    @Test func autoIsTheAlbumsGainInOrderAndTheTracksShuffled() {
        let auto = ReplayGainSetting(mode: .auto, preamp: 3)
        #expect(auto.choice(shuffled: false) == ReplayGainChoice(gain: .album, preamp: 3))
        #expect(auto.choice(shuffled: true) == ReplayGainChoice(gain: .track, preamp: 3))
        #expect(ReplayGainSetting(mode: .track).choice(shuffled: false).gain == .track)
        #expect(ReplayGainSetting(mode: .off).choice(shuffled: true).gain == .off)
    }

    @Test func theSessionTellsTheEngineWhenShuffleChangesAutosChoice() {
        let engine = FakeEngine()
        let session = Session(engine: engine, entries: [Entry(path: "a.mp3"), Entry(path: "b.mp3")], seams: TestSeams().seams)
        session.replayGain = ReplayGainSetting(mode: .auto)
        session.start()
        session.perform(.toggleShuffle)
        session.perform(.setShuffle(false))
        #expect(engine.replayGains.map(\.gain) == [.album, .track, .album])
    }

    @Test func mp3TXXXFramesGiveTheGain() {
        var id3 = SongInfo.ID3(v2: SongInfo.ID3.V2())
        id3.v2?.frames = [SongInfo.ID3.Frame(id: "TXXX", description: "replaygain_track_gain", text: "-4.50 dB"),
                          SongInfo.ID3.Frame(id: "TXXX", description: "REPLAYGAIN_ALBUM_PEAK", text: "0.5"),
                          SongInfo.ID3.Frame(id: "TIT2", text: "replaygain_track_gain")]
        #expect(ReplayGain(id3) == ReplayGain(trackGain: -4.5, albumPeak: 0.5))
    }
}

struct OtherFormatTagsTests {
    /// A FLAC's or an Opus file's tags reach mpg123's remote protocol as ID3v2 fields.
    @Test func tagsOfAnotherFormatAreSaidAsID3v2() {
        var tags = SongInfo.Tags(title: "Night Drive", artist: "Band", album: "Nights")
        tags.track = "2"
        var song = SongInfo(path: "/m/02.flac", sampleRate: 44100, channels: 2, totalFrames: 1, tags: tags)
        song.id3.v2 = SongInfo.ID3.V2(tags)
        #expect(RemoteReplies.info(song) == ["I {", "I ID3v2.title:Night Drive", "I ID3v2.artist:Band", "I ID3v2.album:Nights", "I }"])
        #expect(RemoteReplies.tag(song).contains("T ID3v2.TRCK:"))
    }
}

struct OtherFormatProgressTests {
    /// `@F` of a FLAC: frames of 1,152 samples, and what is left from its length (it said 0 left).
    @Test func progressOfAnotherFormatCountsWhatIsLeft() {
        let song = SongInfo(path: "/m/a.flac", sampleRate: 44100, channels: 2, totalFrames: 441_000)
        #expect(RemoteReplies.progress(song, position: 44100) == "F 38 345 0.99 9.01")
    }
}
