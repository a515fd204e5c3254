import PlayerCore

/// An Icecast source (`-o icecast`): tplayer broadcasts to an Icecast mount (`icecast =
/// http://source:PASSWORD@HOST:PORT/mount`) through libshout, as MPD's shout output does,
/// encoded as Ogg Vorbis, Opus or MP3 (`icecast-format`); each song's title goes with it (an
/// Ogg link's comments, or Icecast's StreamTitle for MP3). Icecast is the broadcast engine;
/// this is only its source.
///
/// Every song is converted to the stream's one format (44.1 kHz, 48 kHz for Opus; stereo;
/// 16 bits) and held to real time, a little ahead (`lead`). The encoding and the connection
/// run on a thread of their own (`Broadcaster`): the playback thread never waits on the server.
final class IcecastOutput: AudioOutput {
    let setup: IcecastSetup
    let mount: IcecastMount
    /// Notices from a broadcast that has ended (the sink let go), not yet said.
    private var broadcaster: Broadcaster?

    static let lead = 0.2
    static let channels = 2

    init(mount: IcecastMount, setup: IcecastSetup) {
        self.mount = mount
        self.setup = setup
    }

    var name: String { "icecast (\(mount))" }
    var isFile: Bool { false }
    var pacing: Pacing { .realTime }
    var lead: Double { Self.lead }
    var highestRate: Int { setup.encoding.codec.rate }
    var fixedFormat: PCMFormat? { PCMFormat(rate: setup.encoding.codec.rate, channels: Self.channels, encoding: .s16) }

    func encoding(toPlay encoding: SampleEncoding) -> SampleEncoding { .s16 }
    func wakes(_ wake: @escaping @Sendable () -> Void) {}
    func settleName() {}

    func takeNotice() -> String? {
        broadcaster?.takeNotice()
    }

    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        guard format == fixedFormat else {
            throw OutputFailure(message: "the stream is \(fixedFormat.map { "\($0)" } ?? "") only", refusesFormat: true)
        }
        guard ShoutLibrary.api != nil else { throw OutputFailure(message: "libshout is not installed (apt install libshout3)") }
        guard BroadcastLibrary.api != nil else {
            throw OutputFailure(message: "FFmpeg's libavcodec could not be loaded to encode (apt install libavcodec59)")
        }
        // An encoding the encoder refuses (a bit rate libvorbis does not take at this rate) is
        // said here, once, not at every connection.
        do {
            _ = try BroadcastEncoder(encoding: setup.encoding, channels: Self.channels, title: BroadcastTitle())
        } catch {
            throw OutputFailure(message: "\(setup.encoding) cannot be encoded: \(error)")
        }
        let broadcaster = try Broadcaster(mount: mount, encoding: setup.encoding, channels: Self.channels)
        self.broadcaster = broadcaster
        return IcecastSink(format: format, broadcaster: broadcaster)
    }
}

/// The playback loop's side of a broadcast: what it writes is handed to the broadcast's thread,
/// never waited on; each song's title goes before its first samples (`nowPlaying`).
final class IcecastSink: BlockingSink {
    let format: PCMFormat
    private let broadcaster: Broadcaster

    init(format: PCMFormat, broadcaster: Broadcaster) {
        self.format = format
        self.broadcaster = broadcaster
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool {
        let samples = bytes.count / 2
        guard samples > 0 else { return false }
        broadcaster.add([Int16](unsafeUninitializedCapacity: samples) { buffer, count in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(samples * 2)))
            count = samples
        })
        return false
    }

    func nowPlaying(_ info: SongInfo) {
        broadcaster.announce(BroadcastTitle(info))
    }

    /// Turned off: the broadcast ends, not waited for.
    func close() throws(OutputFailure) {
        broadcaster.close(within: 0)
    }

    /// The run ends: its last page sent, `seconds` at most.
    func close(within seconds: Double) throws(OutputFailure) {
        broadcaster.close(within: seconds)
    }
}
