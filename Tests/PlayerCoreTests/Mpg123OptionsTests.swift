import Testing
@testable import PlayerCore

/// mpg123's options as front-ends pass them to "mpg123 -R": honoured where they mean something,
/// otherwise left out with one line each; never a reason to stop.
struct Mpg123OptionsTests {
    private let outputs: (String) -> Bool = { ["pulse", "null", "alsa"].contains($0) }

    @Test func aFrontEndsOptionsAreReadAsMpg123ReadsThem() {
        let read = Mpg123Options.translate(["-R", "--aggressive", "-a", "hw:1", "-f", "16384", "-o", "dummy", "-vvv", "-k5",
                                            "--utf8", "--bogus", "-b", "1024", "--stereo", "-C", "-@", "list.m3u", "x.mp3"],
                                           isOutput: outputs)
        #expect(read.arguments == ["-R", "-o", "null", "x.mp3"])
        #expect(read.device == "hw:1")
        #expect(read.volume == 50)
        #expect(read.notes == [
            "-R: mpg123's --aggressive has no meaning for tplayer; ignored",
            "-R: mpg123's -v has no meaning for tplayer; ignored",
            "-R: -k 5: as in mpg123 -R, every track loads at its start; ignored",
            "-R: mpg123's --utf8 has no meaning for tplayer; ignored",
            "-R: --bogus is an option of neither tplayer nor mpg123; ignored",
            "-R: mpg123's -b 1024 has no meaning for tplayer; ignored",
            "-R: mpg123's --stereo has no meaning for tplayer; ignored",
            "-R: mpg123's -C has no meaning for tplayer; ignored",
            "-R: mpg123's -@ list.m3u has no meaning for tplayer; ignored",
        ])
    }

    @Test func tplayersOwnOptionsPassAndAnUnknownOutputIsTheDefault() {
        let read = Mpg123Options.translate(["-Rq", "--fifo=/tmp/f", "--wav", "out.wav", "-o", "jack", "-g", "150", "--", "-x"],
                                           isOutput: outputs)
        #expect(read.arguments == ["-R", "-q", "--fifo", "/tmp/f", "-w", "out.wav", "--", "-x"])
        #expect(read.volume == 100)
        #expect(read.notes == ["-R: -o jack: not an output tplayer has (see tplayer --list-outputs); the default is used"])
        #expect(Mpg123Options.translate(["-R", "-a"], isOutput: outputs).notes == ["-R: -a needs a value; ignored"])
    }

    @Test func onlyTheRemoteInterfaceReadsThem() {
        #expect(Mpg123Options.asksForRemote(["-R"]) && Mpg123Options.asksForRemote(["-qR"]))
        #expect(Mpg123Options.asksForRemote(["--remote", "--aggressive"]))
        #expect(!Mpg123Options.asksForRemote(["a.mp3", "--", "-R"]))
        #expect(!Mpg123Options.asksForRemote(["--repeat", "x.mp3"]))
    }
}
