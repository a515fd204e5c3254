import CAo
import Files
import Glibc
import PlayerCore

/// A libao error opening a live device, named by libao's errno code, with what it means for the
/// user (files are `FileOutput`'s, which never goes through libao).
struct AoError: Error, CustomStringConvertible {
    let code: Int32

    var description: String {
        switch code {
        case AO_ENODRIVER: "no such output driver"
        case AO_ENOTLIVE: "this driver writes files: give a path with -w"
        case AO_EBADOPTION: "the driver rejected an option"
        case AO_EOPENDEVICE: "cannot open the audio device"
        case AO_EBADFORMAT: "the driver does not take this sample format"
        default: "the output failed (libao error \(code))"
        }
    }
}

/// The libao library: initialised once per process, before any thread uses it.
enum AoLibrary {
    /// A driver as libao describes it.
    struct Driver: Equatable {
        let id: Int32
        let shortName: String
        let name: String
        let isLive: Bool
    }

    /// The latency tplayer asks of PulseAudio, in milliseconds, unless the user has set
    /// `PULSE_LATENCY_MSEC` (theirs wins). libao's own request (`buffer_time`) cannot be used:
    /// its pulse plugin computes the buffer in 32-bit arithmetic that overflows above ~48 ms at
    /// 44.1 kHz, and at its default of 20 ms the server asks for 5 ms at a time, waking the
    /// player ~200 times a second. At 200 ms the playback thread measures a 120 ms buffer and
    /// keeps 45–85 ms of it filled (`WritePacer`), a wake-up every 40 ms: at 120 ms it measured
    /// 80 and kept 30–70, too thin a margin, which a recording caught running dry mid-song once
    /// in a few runs. A stop is still heard within ~85 ms. See README, "Latency".
    static let pulseLatencyMilliseconds = 200

    private static let initialized: Bool = {
        // Read by libpulse when the pulse plugin connects; set before any thread that could
        // read the environment exists (this runs once, on the main thread, at start-up).
        setenv("PULSE_LATENCY_MSEC", "\(pulseLatencyMilliseconds)", 0)
        ao_initialize()
        // libao prints its own warnings to stderr; ours are one line each and name the driver.
        ao_append_global_option("quiet", "yes")
        tp_silence_alsa_errors()
        return true
    }()

    static func ensureInitialized() { _ = initialized }

    static func driver(named shortName: String) -> Driver? {
        ensureInitialized()
        let id = ao_driver_id(shortName)
        return id >= 0 ? driver(id: id) : nil
    }

    /// libao's default live driver: the first that works here, per its config and priorities.
    static func defaultDriver() -> Driver? {
        ensureInitialized()
        let id = ao_default_driver_id()
        return id >= 0 ? driver(id: id) : nil
    }

    static func allDrivers() -> [Driver] {
        ensureInitialized()
        var count: Int32 = 0
        guard let list = ao_driver_info_list(&count) else { return [] }
        return (0..<Int(count)).compactMap { index in
            guard let info = list[index]?.pointee else { return nil }
            return driver(id: ao_driver_id(info.short_name))
        }
    }

    private static func driver(id: Int32) -> Driver? {
        guard let info = ao_driver_info(id)?.pointee else { return nil }
        return Driver(
            id: id,
            shortName: info.short_name.map { String(cString: $0) } ?? "?",
            name: info.name.map { String(cString: $0) } ?? "?",
            isLive: info.type == AO_TYPE_LIVE
        )
    }
}

/// A live libao driver to open: what `-o` names (files are `FileOutput`'s).
final class AoOutput: AudioOutput {
    let driver: AoLibrary.Driver

    init(driver: AoLibrary.Driver) {
        self.driver = driver
    }

    var name: String { driver.shortName }
    var isFile: Bool { false }
    var pacing: Pacing { driver.shortName == "null" ? .realTime : .device }

    /// libao takes signed integers of 8, 16, 24 or 32 bits: unsigned 8-bit samples go as 16,
    /// float as 32.
    func encoding(toPlay encoding: SampleEncoding) -> SampleEncoding {
        switch encoding {
        case .u8: .s16
        case .float32: .s32
        case .s16, .s24, .s32: encoding
        }
    }

    /// Its writes wait until there is room: nothing to wake.
    func wakes(_ wake: @escaping @Sendable () -> Void) {}
    func settleName() {}

    /// A device that refuses the samples' depth (many take no packed 24-bit) is opened at 32
    /// bits (exact), then at 16, and the samples rewritten for it.
    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        let tries: [SampleEncoding] = switch format.encoding {
        case .s24: [.s24, .s32, .s16]
        case .s32: [.s32, .s16]
        default: [format.encoding]
        }
        var failure: AoError?
        for encoding in tries {
            do {
                return try AoSink(driver: driver, format: format, deviceEncoding: encoding)
            } catch {
                failure = failure ?? error
            }
        }
        throw OutputFailure(message: failure.map { "\($0)" } ?? "cannot open the device")
    }
}

/// One open libao device. Opened in `init`, closed exactly once (by `close()` or `deinit`).
final class AoSink: BlockingSink {
    let driver: AoLibrary.Driver
    let format: PCMFormat
    /// The samples the device was opened for, when not `format`'s: each write rewritten so.
    private let deviceEncoding: SampleEncoding
    private let reencoder = Reencoder()
    private var device: OpaquePointer?

    init(driver: AoLibrary.Driver, format: PCMFormat, deviceEncoding: SampleEncoding? = nil) throws(AoError) {
        self.driver = driver
        self.format = format
        self.deviceEncoding = deviceEncoding ?? format.encoding
        var sample = ao_sample_format()
        sample.bits = Int32(self.deviceEncoding.bytes * 8)
        sample.rate = Int32(format.rate)
        sample.channels = Int32(format.channels)
        sample.byte_format = AO_FMT_NATIVE
        let matrix = format.channels == 1 ? "M" : format.channels == 2 ? "L,R" : nil
        errno = 0
        let opened: OpaquePointer? = matrix.withOptionalCString { matrixPointer in
            sample.matrix = matrixPointer
            return ao_open_live(driver.id, &sample, nil)
        }
        guard let opened else { throw AoError(code: errno) }
        device = opened
    }

    deinit { try? close() }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool {
        let bytes = deviceEncoding == format.encoding ? bytes : reencoder.convert(bytes, from: format.encoding, to: deviceEncoding)
        guard let device, let base = bytes.baseAddress else { return false }
        let waitsBefore = Self.threadWaits()
        let start = Monotonic.now()
        guard ao_play(device, UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self)), UInt32(bytes.count)) != 0 else {
            throw OutputFailure(message: "the \(driver.shortName) device stopped taking audio")
        }
        // Blocked on a full buffer: the thread slept in the write (a wait, not a preemption)
        // for longer than taking a lock can.
        return Self.threadWaits() > waitsBefore && Monotonic.now().seconds(since: start) >= 0.002
    }

    /// How many times the calling thread has given up the CPU to wait.
    private static func threadWaits() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD, which Glibc does not export to Swift
        return usage.ru_nvcsw
    }

    /// Drains and closes the device.
    func close() throws(OutputFailure) {
        guard let device else { return }
        self.device = nil
        ao_close(device)
    }
}

extension Optional where Wrapped == String {
    fileprivate func withOptionalCString<R>(_ body: (UnsafeMutablePointer<CChar>?) -> R) -> R {
        guard let self else { return body(nil) }
        var bytes = Array(self.utf8CString)
        return bytes.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }
}
