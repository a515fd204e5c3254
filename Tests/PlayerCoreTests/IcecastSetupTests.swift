import PlayerCore
import Testing

/// `icecast =` and `icecast-format =`, read as the untrusted text of a settings file: every
/// part checked, the password never in what is said.
struct IcecastSetupTests {
    @Test func aMountIsReadWithItsCredentials() throws {
        let mount = try IcecastMount.parse("http://source:hackme@127.0.0.1:8000/live.ogg").get()
        #expect(mount == IcecastMount(host: "127.0.0.1", port: 8000, user: "source", password: "hackme", mount: "/live.ogg"))
        #expect("\(mount)" == "http://source@127.0.0.1:8000/live.ogg")
        let named = try IcecastMount.parse("http://dj%20one:p%3Ass%40w@radio.example.org/a/b.mp3").get()
        #expect(named.user == "dj one" && named.password == "p:ss@w" && named.port == 8000 && named.mount == "/a/b.mp3")
        let six = try IcecastMount.parse("http://source:x@[::1]:9000/s.opus").get()
        #expect(six.host == "::1" && six.port == 9000 && "\(six)" == "http://source@[::1]:9000/s.opus")
        // The last @ before the mount ends the credentials: a password may hold one as it is.
        #expect(try IcecastMount.parse("http://source:a@b@host/m").get().password == "a@b")
    }

    @Test(arguments: [
        "", "https://source:x@host/m", "ftp://source:x@host/m", "http://host:8000/m", "http://source:x@host",
        "http://source@host/m", "http://:x@host/m", "http://source:@host/m", "http://source:x@/m",
        "http://source:x@host:0/m", "http://source:x@host:65536/m", "http://source:x@host:80a/m",
        "http://source:x@ho st/m", "http://source:x@host/", "http://source:x@host/a b", "http://source:x@host/a?b",
        "http://source:x%0a@host/m", "http://source:x%zz@host/m", "http://source:x%ff@host/m", "http://source:x@[::1/m",
        "http://source:x@[nothex]:80/m",
    ])
    func whatIsNotAMountIsRefusedWithoutThePassword(text: String) {
        guard case .failure(let problem) = IcecastMount.parse(text) else {
            Issue.record("\(text) was taken")
            return
        }
        #expect(!problem.reason.isEmpty && !problem.reason.contains("x%") && !problem.reason.contains("source:x"))
    }

    @Test func theFormatIsACodecAndABitRate() {
        #expect(IcecastEncoding.parse("vorbis") == IcecastEncoding(codec: .vorbis, kbps: 128))
        #expect(IcecastEncoding.parse("opus") == IcecastEncoding(codec: .opus, kbps: 96))
        #expect(IcecastEncoding.parse("MP3:320") == IcecastEncoding(codec: .mp3, kbps: 320))
        #expect(IcecastEncoding.parse("mp3:16")?.kbps == 16)
        for bad in ["", "flac", "mp3:", "mp3:15", "mp3:321", "mp3:1e3", "mp3:+64", "mp3:64:1", "opus:0064", ":64"] {
            #expect(IcecastEncoding.parse(bad) == nil, "\(bad)")
        }
        #expect(IcecastEncoding.Codec.opus.rate == 48000 && IcecastEncoding.Codec.vorbis.rate == 44100)
    }
}
