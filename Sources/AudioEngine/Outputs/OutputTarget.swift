import Files
import PlayerCore

/// Where decoded audio goes, as the command line asked.
public enum OutputTarget: Equatable, Sendable {
    /// A live device through the named libao driver; `nil` is libao's default device.
    case live(driver: String?)
    /// A file written as fast as decoding allows, in the named format (`wav`, `au`, `raw`).
    case file(driver: String, path: Path, overwrite: Bool)

    /// The file driver for `path`, chosen by its extension: `.au`, `.raw`, otherwise WAV.
    public static func fileDriver(forPath path: Path) -> String {
        switch path.lowercasedExtension {
        case "au": "au"
        case "raw", "pcm": "raw"
        default: "wav"
        }
    }

    /// The file, or the driver (`default` for libao's default live device), for messages.
    public var name: String {
        switch self {
        case .live(let driver): driver ?? "default"
        case .file(_, let path, _): "\(path)"
        }
    }

    /// A file output runs as fast as decoding allows; a live one in real time.
    public var isFile: Bool {
        if case .file = self { return true }
        return false
    }
}

extension OutputTarget {
    /// The live outputs tplayer has of its own, beside libao's drivers (`-o NAME`).
    public static let ownDrivers = ["pulse", "ao", "snapcast", "icecast"]
}

/// An output that cannot be set up; `message` is one line for the user.
public struct OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// A mistake in the command line (an unknown driver), as opposed to the system refusing.
    public var isUsageError = true
    public var description: String { message }
}

/// An output driver, for `--list-outputs`.
public struct OutputDriverInfo: Sendable {
    public let shortName: String
    public let name: String
    public let isLive: Bool

    /// Every driver libao has on this machine, live and file.
    public static func all() -> [OutputDriverInfo] {
        AoLibrary.allDrivers().map { OutputDriverInfo(shortName: $0.shortName, name: $0.name, isLive: $0.isLive) }
    }

    /// The driver libao would use by default, if any live one works here.
    public static func defaultLive() -> String? {
        AoLibrary.defaultDriver()?.shortName
    }
}

/// The outputs a target names, checked against the drivers libao has: the one to use, the null
/// device to fall back to when a live one cannot be opened, and why the null device is used
/// from the start, when it is.
struct OutputChoice {
    let primary: AudioOutput
    let fallback: AudioOutput?
    var notice: String?

    init(primary: AudioOutput, fallback: AudioOutput?) {
        self.primary = primary
        self.fallback = fallback
    }

    /// `setup.device`: the PulseAudio sink to play on, when the output is PulseAudio's; the
    /// pipe or port of a Snapcast output.
    init(_ target: OutputTarget, setup: OutputSetup = OutputSetup()) throws(OutputError) {
        let device = setup.device
        switch target {
        case .file(let name, let path, let overwrite):
            // Files are written by tplayer itself: libao is not even loaded.
            guard let kind = FileOutput.Kind(rawValue: name) else {
                throw OutputError(message: "\(name): not a file output driver; use wav, au or raw (see tplayer --list-outputs)")
            }
            self.init(primary: FileOutput(path: path, kind: kind, overwrite: overwrite), fallback: nil)
        case .live(nil):
            // Chosen on the playback thread when the first song plays (a server that is slow to
            // answer never holds the keys): PulseAudio (or PipeWire's) natively, else libao's
            // default device.
            let chosen = DefaultOutput()
            chosen.device = device
            self.init(primary: chosen, fallback: NullOutput())
        case .live("pulse"):
            // Asked for by name: connected when the first song plays; a server that does not
            // answer then gives way to silence in real time, and that is said.
            guard let pulse = PulseOutput.unconnected() else {
                self.init(primary: NullOutput(), fallback: nil)
                notice = "output pulse: libpulse is not installed; playing silently in real time instead"
                return
            }
            pulse.device = device
            self.init(primary: pulse, fallback: NullOutput())
        case .live("snapcast"):
            // snapserver not running yet is waited for (the output is retried), never silence.
            self.init(primary: try Self.snapcast(device ?? setup.snapcast.pipe, setup: setup), fallback: nil)
        case .live("icecast"):
            self.init(primary: try Self.icecast(setup), fallback: nil)
        case .live("ao"):
            try self.init(libao: nil)  // libao's default device, whatever the server: `-o ao`
        case .live(let name):
            try self.init(libao: name)
        }
    }

    /// libao's driver `name`, or its default live device (the null device when there is none).
    private init(libao name: String?) throws(OutputError) {
        var notice: String?
        let primary: AoOutput
        if let name {
            guard let driver = AoLibrary.driver(named: name) else {
                throw OutputError(message: "\(name): no such output driver; see tplayer --list-outputs")
            }
            guard driver.isLive else {
                throw OutputError(message: "\(name): this driver writes a file; use -w PATH instead")
            }
            primary = AoOutput(driver: driver)
        } else if let driver = AoLibrary.defaultDriver() {
            primary = AoOutput(driver: driver)
        } else {
            primary = AoOutput(driver: try Self.nullDriver())
            notice = "output: no live audio device found; playing silently in real time (use -w FILE to write one)"
        }
        let fallsBack = primary.driver.shortName != "null"
        self.init(primary: primary, fallback: fallsBack ? AoOutput(driver: try Self.nullDriver()) : nil)
        self.notice = notice
    }

    /// The default live output, for `DefaultOutput`: libao's default device, or `nil` when it
    /// has none.
    static func defaultLibao() -> AoOutput? {
        AoLibrary.defaultDriver().map { AoOutput(driver: $0) }
    }

    static func nullDriver() throws(OutputError) -> AoLibrary.Driver {
        guard let null = AoLibrary.driver(named: "null") else {
            throw OutputError(message: "output: libao has no null driver", isUsageError: false)
        }
        return null
    }
}

/// The default live output, chosen when it is first opened, on the playback thread: a
/// PulseAudio server that answers (played natively), else libao's default device. Connecting
/// can take as long as a busy server makes it (up to `PulseOutput.connectTimeout`); done at
/// start-up on the main thread, it held every key typed meanwhile.
final class DefaultOutput: AudioOutput {
    private var chosen: AudioOutput?
    /// Handed on to the PulseAudio output (its server's requests for audio wake the playback thread).
    private var wake: @Sendable () -> Void = {}
    /// The PulseAudio sink to play on, handed on too.
    var device: String?

    var name: String { chosen?.name ?? "default" }
    var isFile: Bool { false }
    var pacing: Pacing { chosen?.pacing ?? .realTime }
    /// Before the first song chooses, a sound server's.
    var highestRate: Int { chosen?.highestRate ?? PulseOutput.highestRate }

    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        if let chosen { return try chosen.open(format) }
        let output = try choose()
        chosen = output
        return try output.open(format)
    }

    func wakes(_ wake: @escaping @Sendable () -> Void) { self.wake = wake }

    /// Chooses the output now, where none is yet; a failure is met again when it opens.
    func settleName() {
        if chosen == nil { chosen = try? choose() }
    }

    private func choose() throws(OutputFailure) -> AudioOutput {
        if case .success(let pulse) = PulseOutput.connect() {
            pulse.wakes(wake)
            pulse.device = device
            return pulse
        }
        guard let libao = OutputChoice.defaultLibao(), libao.driver.shortName != "null" else {
            throw OutputFailure(message: "no live audio device found (use -w FILE to write one)")
        }
        return libao
    }
}
