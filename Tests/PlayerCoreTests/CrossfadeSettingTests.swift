import Testing
@testable import PlayerCore

/// The crossfade's setting as the front-ends give it, and the rule that keeps an album's joins
/// gapless: which songs are consecutive tracks of one album played in order.
struct CrossfadeSettingTests {
    @Test func secondsAreReadAsTheSettingsAndOptionsWriteThem() {
        #expect(CrossfadeSetting.parse("5") == 5)
        #expect(CrossfadeSetting.parse(" 2.5s ") == 2.5)
        #expect(CrossfadeSetting.parse("800ms") == 0.8)
        #expect(CrossfadeSetting.parse("0") == 0)
        for bad in ["", "-1", "soon", "1e400", "nan", "61", "5 s", "0x10", "1.2.3", "ms"] {
            #expect(CrossfadeSetting.parse(bad) == nil, "\(bad)")
        }
        #expect(CrossfadeSetting(seconds: .nan).seconds == 0)
        #expect(CrossfadeSetting(seconds: 1e308).seconds == CrossfadeSetting.longest)
        #expect(CrossfadeSetting(seconds: -3, skipSeconds: -1) == CrossfadeSetting(seconds: 0, skipSeconds: 0))
        #expect(CrossfadeSetting.describe(5) == "5 s" && CrossfadeSetting.describe(2.5) == "2.5 s")
    }

    @Test func aSkipFadesOnlyWhileCrossfadeIsOn() {
        #expect(CrossfadeSetting(seconds: 0).skipFade == 0)
        #expect(CrossfadeSetting(seconds: 4).skipFade == CrossfadeSetting.usualSkip)
        #expect(CrossfadeSetting(seconds: 4, skipSeconds: 0).skipFade == 0)
    }

    @Test func theKeyTurnsTheLastCrossfadeOnAndOff() {
        var sound = Sound()
        #expect(sound.handle(.toggleCrossfade, speedRefusal: nil) == [.engine(.setCrossfade(CrossfadeSetting(seconds: 5)))])
        #expect(sound.handle(.setCrossfade(3), speedRefusal: nil) == [.engine(.setCrossfade(CrossfadeSetting(seconds: 3)))])
        #expect(sound.handle(.toggleCrossfade, speedRefusal: nil) == [.engine(.setCrossfade(CrossfadeSetting(seconds: 0)))])
        #expect(sound.handle(.setSkipFade(0.25), speedRefusal: nil) == [.engine(.setCrossfade(CrossfadeSetting(seconds: 0, skipSeconds: 0.25)))])
        #expect(sound.handle(.toggleCrossfade, speedRefusal: nil) == [.engine(.setCrossfade(CrossfadeSetting(seconds: 3, skipSeconds: 0.25)))])
        #expect(sound.handle(.setCrossfade(.infinity), speedRefusal: nil) == [.engine(.setCrossfade(CrossfadeSetting(seconds: 60, skipSeconds: 0.25)))])
    }

    static func song(_ path: String, album: String?, track: String?, disc: String? = nil, albumArtist: String? = nil) -> SongInfo {
        var info = SongInfo(path: Path(path), sampleRate: 44100, channels: 2, totalFrames: 441000,
                            tags: SongInfo.Tags(title: "t", artist: "a", album: album))
        info.tags.track = track
        var comments = VorbisComments()
        if let disc { comments.fields.append(("DISCNUMBER", disc)) }
        if let albumArtist { comments.fields.append(("ALBUMARTIST", albumArtist)) }
        info.comments = comments
        return info
    }

    @Test func onlyTheNextTrackOfTheSameAlbumJoinsWithoutAFade() {
        let one = Self.song("/m/A/01.flac", album: "A", track: "1")
        #expect(AlbumTrack.joins(one, Self.song("/m/A/02.flac", album: "A", track: "2/12")))
        #expect(!AlbumTrack.joins(one, Self.song("/m/A/03.flac", album: "A", track: "3")), "a track left out fades")
        #expect(!AlbumTrack.joins(Self.song("/m/A/02.flac", album: "A", track: "2"), one), "backwards fades")
        #expect(!AlbumTrack.joins(one, Self.song("/m/B/02.flac", album: "A", track: "2")), "another folder's album of that name")
        #expect(AlbumTrack.joins(Self.song("/m/A/CD1/09.flac", album: "A", track: "9", disc: "1", albumArtist: "X"),
                                 Self.song("/m/A/CD2/01.flac", album: "A", track: "1", disc: "2/2", albumArtist: "X")), "the next disc")
        #expect(!AlbumTrack.joins(one, Self.song("/m/A/02.flac", album: "B", track: "2")))
        #expect(!AlbumTrack.joins(Self.song("/m/x.mp3", album: nil, track: "1"), Self.song("/m/y.mp3", album: nil, track: "2")))
        #expect(AlbumTrack.joins(Self.song("/m/A/a.flac", album: "A", track: nil), Self.song("/m/A/b.flac", album: "A", track: nil)),
                "untagged tracks of one album in one folder are taken as in order")
    }
}
