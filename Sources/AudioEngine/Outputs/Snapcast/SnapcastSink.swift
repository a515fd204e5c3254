import Files
import Glibc
import PlayerCore

/// snapserver's pipe or `tcp` connection, open for one format. What a pipe holds unread can be
/// taken back (`SnapcastSink+TakeBack`), so that a pause, a seek or a new volume reaches the
/// rooms at once, as on a sound server. Nothing here waits on the
/// server for long, and nothing stops for it: a server that is not there, stops reading or
/// goes away is said once, and the song plays on unheard (what nobody reads is taken out of
/// the pipe again; a lost connection is made again, once a second) until it is back, as MPD's
/// fifo output plays on; then that is said too.
/// What it says it still holds (`queuedFrames`) is what the rooms have not heard yet: what
/// snapserver has not read, and what it read within its buffer's length (`HeardSpans`), so
/// that the time shown is the time heard in the rooms.
final class SnapcastSink: BlockingSink {
    enum Conduit {
        case pipe(OutboundPipe)
        case socket(StreamSocket)

        var descriptor: Int32 {
            switch self {
            case .pipe(let pipe): pipe.descriptor
            case .socket(let socket): socket.descriptor
            }
        }

        /// How many of `bytes` it took now (0: full); `nil`: the reader is gone.
        func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
            switch self {
            case .pipe(let pipe): pipe.write(bytes)
            case .socket(let socket): socket.write(bytes)
            }
        }

        /// Bytes written that the server has not taken yet.
        var unread: Int {
            switch self {
            case .pipe(let pipe): pipe.unread ?? 0
            case .socket(let socket): socket.unsent ?? 0
            }
        }

        func close() {
            switch self {
            case .pipe(let pipe): pipe.close()
            case .socket(let socket): socket.close()
            }
        }
    }

    let format: PCMFormat
    /// The stream's bits: 24 are narrowed from the 32-bit samples given, into 4 bytes each.
    private let bits: Int
    /// `nil` while a connection is lost (`connect` makes it again).
    private(set) var conduit: Conduit?
    private let connect: () -> Conduit?
    private let place: String
    private let notices: SnapcastNotices
    let spans = Locked(HeardSpans())
    /// The last bytes written to a pipe (`SnapcastSink+TakeBack`): what is written again of
    /// what is taken back and not replaced.
    var recent: [UInt8] = []
    private let bufferSeconds: Double
    private var narrowed: [Int32] = []
    let clock = MonotonicClock()
    /// What the server held unread after the last write, and when it was last seen to read.
    private var unreadAfterWrite = 0
    private var lastRead: Double
    private var nextConnect = 0.0
    private var connectedAt = 0.0
    private var firstWrite: Double?
    /// Seconds of silence a new connection begins with (`SnapcastOutput.settling`).
    private var silenceOwed = 0.0
    /// Whether the server is taking what is written (said when that changes).
    private(set) var reading = true

    /// The longest a write waits for room, in milliseconds (snapserver reads every 20 ms).
    static let longestWait: Int32 = 30
    /// A server that takes nothing for this long is not reading.
    static let stallLimit = 0.5
    /// A connection made again that takes audio this long without a stall is read.
    static let proof = 2.0

    /// `connect` makes the conduit again once it is lost (`nil` for a pipe, which is never lost:
    /// tplayer holds its reading end too).
    /// Not before `firstWrite` (`SnapcastOutput.settling`).
    init(format: PCMFormat, bits: Int, conduit: Conduit?, connect: @escaping () -> Conduit?, place: String,
         notices: SnapcastNotices, bufferSeconds: Double, firstWrite: Double) {
        self.firstWrite = firstWrite
        if case .socket? = conduit { silenceOwed = SnapcastOutput.settling }
        self.format = format
        self.bits = bits
        self.conduit = conduit
        self.connect = connect
        self.place = place
        self.notices = notices
        self.bufferSeconds = bufferSeconds
        lastRead = clock.now
        if conduit == nil { stopped("nothing listens there") }
    }

    deinit { conduit?.close() }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool {
        let frames = bytes.count / format.bytesPerFrame
        if let first = firstWrite {
            firstWrite = nil
            let wait = first - clock.now
            if wait > 0 { usleep(UInt32(min(wait, SnapcastOutput.settling) * 1_000_000)) }
        }
        let now = clock.now
        if conduit == nil, now >= nextConnect {
            nextConnect = now + 1
            conduit = connect()
            lastRead = now
            connectedAt = now
            unreadAfterWrite = 0
            if conduit != nil { silenceOwed = SnapcastOutput.settling }
        }
        var waited = false
        if let conduit {
            let unread = conduit.unread
            if unread < unreadAfterWrite || unread == 0 { lastRead = now }  // it took some, or nothing waits
            switch conduit {
            case .pipe:
                // Only a reader empties a pipe (tplayer's own end takes out only what it says).
                if unread < unreadAfterWrite { readsAgain() }
            case .socket:
                // The system takes what is sent whether or not snapserver reads it: a connection
                // that has taken audio without a stall for a while is a server that reads.
                if now - connectedAt >= Self.proof { readsAgain() }
            }
            // A pipe left unread is seen here; a connection, when the system will take no more.
            if case .pipe = conduit, now - lastRead > Self.stallLimit {
                stopped("snapserver stopped reading")
                takeBack(conduit)
                lastRead = now
            }
            if silenceOwed > 0 {
                let silence = [UInt8](repeating: 0, count: Int(silenceOwed * Double(format.rate)) * format.bytesPerFrame)
                waited = silence.withUnsafeBytes { put($0, into: conduit) }
                spans.update { $0.wrote(seconds: silenceOwed, at: now, keeping: bufferSeconds) }
                silenceOwed = 0
            }
            if bits == 24, format.encoding == .s32 {
                narrow(bytes)
                waited = narrowed.withUnsafeBytes { put($0, into: conduit) } || waited
                narrowed.withUnsafeBytes { remember($0) }
            } else {
                waited = put(bytes, into: conduit) || waited
                remember(bytes)
            }
            unreadAfterWrite = self.conduit?.unread ?? 0
        }
        spans.update { $0.wrote(seconds: Double(frames) / Double(format.rate), at: now, keeping: bufferSeconds) }
        return waited
    }

    /// Writes `bytes`, waiting a little for room; what nobody makes room for is taken out of a
    /// pipe, and a connection that takes nothing is let go. Whether it waited.
    func put(_ bytes: UnsafeRawBufferPointer, into conduit: Conduit) -> Bool {
        var offset = 0, waited = false, cleared = false
        while offset < bytes.count {
            guard let taken = conduit.write(UnsafeRawBufferPointer(rebasing: bytes[offset...])) else {
                stopped("snapserver closed the connection")
                drop()
                return waited
            }
            offset += taken
            guard taken == 0 else { continue }
            if Waiting.writable(conduit.descriptor, within: Self.longestWait) {
                waited = true
            } else if case .pipe = conduit, !cleared {
                cleared = true
                stopped("snapserver stopped reading (its pipe is full)")
                takeBack(conduit)
            } else {
                stopped("snapserver stopped reading")
                if case .socket = conduit { drop() }
                return true
            }
        }
        return waited
    }

    /// What the server holds unread is not going to be heard: taken out of a pipe, or the
    /// connection let go (made again a second later).
    private func takeBack(_ conduit: Conduit) {
        switch conduit {
        case .pipe(let pipe): pipe.discard(keeping: 0, unit: format.bytesPerFrame)
        case .socket: drop()
        }
    }

    private func drop() {
        conduit?.close()
        conduit = nil
        nextConnect = clock.now + 1
        connectedAt = .infinity
    }

    private func readsAgain() {
        guard !reading else { return }
        reading = true
        notices.say("snapcast: snapserver reads \(place) again")
    }

    private func stopped(_ why: String) {
        guard reading else { return }
        reading = false
        notices.say("snapcast: \(why) (\(place)); playing on unheard until it is back")
    }

    /// 32-bit samples to 24 bits in 4 bytes (the low 3 carry them, as snapserver reads them),
    /// rounded to the nearest.
    private func narrow(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count / 4
        if narrowed.count != count { narrowed = [Int32](repeating: 0, count: count) }
        for index in 0..<count {
            let sample = Int64(bytes.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
            narrowed[index] = Int32(min((sample + 128) >> 8, 0x7F_FFFF)).littleEndian
        }
    }

    func close() throws(OutputFailure) {
        conduit?.close()
        conduit = nil
    }

    /// Closes it as the run ends: what snapserver has not read yet (what was written ahead,
    /// the end of the list or the fade out of a quit) is waited for, while it reads, and then a
    /// little more: snapserver reads in chunks of 20 ms, and the last one, read short when the
    /// pipe has ended, it drops, where one read short while the pipe is still open it plays,
    /// padded with silence. Within the half second the engine gives its thread to close.
    func close(within seconds: Double) throws(OutputFailure) {
        if let conduit, reading, case .socket = conduit {
            // A connection's end is its stream's: snapserver drops the last chunk it reads short.
            // The end is silence, so that what it drops is.
            let silence = [UInt8](repeating: 0, count: Int(Self.endPadding * Double(format.rate)) * format.bytesPerFrame)
            _ = silence.withUnsafeBytes { put($0, into: conduit) }
            let now = clock.now
            spans.update { $0.wrote(seconds: Self.endPadding, at: now, keeping: bufferSeconds) }
        }
        if conduit != nil, reading, let readBy = spans.read(\.readBy) {
            // When snapserver, reading in real time, has read all it was given; then 60 ms more.
            let end = min(clock.now + Self.lastReads, readBy + 0.06)
            while true {
                let left = end - clock.now
                if left <= 0 { break }
                usleep(UInt32(min(left, 0.01) * 1_000_000) + 1)
            }
        }
        try close()
    }

    /// The silence a connection ends with.
    static let endPadding = 0.06

    /// The longest a closing waits for snapserver to read what it was given.
    static let lastReads = SnapcastOutput.lead + 0.15

    /// Frames written that the rooms have not heard yet.
    var queuedFrames: Int? {
        let now = clock.now
        let seconds = spans.read { $0.unheard(at: now, buffer: bufferSeconds) }
        return Int(min(seconds, 3600) * Double(format.rate))
    }
}
