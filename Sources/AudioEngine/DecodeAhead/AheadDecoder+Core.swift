import Files
import Glibc
import PlayerCore

extension AheadDecoder {
    /// The queue, and the decoder underneath: what the decoder's thread and the playback thread
    /// share, behind one lock. Whoever uses the decoder underneath marks it `busy`; the queue
    /// is only touched under the lock.
    struct State {
        var queued: [Item] = []
        /// Chunks not in the queue, to be filled again.
        var free: [UnsafeMutableRawPointer] = []
        /// Chunks allocated: never more than the bound.
        var allocated = 0
        /// How many chunks may hold PCM now: the whole bound for the song playing, a few for the
        /// song opened ahead (enough to start it while the thread decodes more).
        var bound: Int
        var song: Song?
        var opening: Opening?
        var busy = false
        /// Calls of the playback thread waiting to use the decoder underneath: the decoder's
        /// thread starts nothing new until they have.
        var callersWaiting = 0
        /// Changes whenever the queue is dropped: what a read begun before then decoded is stale.
        var generation = 0
        /// The thread decodes until the queue is full, then waits until a quarter has played.
        var refilling = true
        /// A read found the queue empty: the reader is to be woken when it is not.
        var readerWaiting = false
        /// The decoder's thread waits for something to do, and nothing has woken it since.
        var idle = false
        var quit = false

        /// Forgets the queue and anything asked of the decoder's thread.
        mutating func drop() {
            generation += 1
            for case .pcm(let chunk) in queued { free.append(chunk.memory) }
            queued.removeAll(keepingCapacity: true)
            opening = nil
            refilling = true
        }

        /// The decoder underneath moved (to `landed`, if it says): what comes next is decoded
        /// from there, in the format it decodes in now.
        mutating func restart(at landed: Int64?) {
            guard var song else { return }
            if let landed { song.read = landed }
            song.format = song.decoding
            song.ended = false
            self.song = song
        }

        /// Chunks holding PCM (those in the queue, and one being filled).
        var chunksInUse: Int { allocated - free.count }

        /// Frees the chunks beyond the bound that nothing holds.
        mutating func trim() {
            while allocated > bound, let memory = free.popLast() {
                memory.deallocate()
                allocated -= 1
            }
        }

        /// A chunk filled from the decoder underneath, queued: its PCM, then what stopped it.
        mutating func append(_ filled: Filled, in memory: UnsafeMutableRawPointer) {
            if filled.bytes > 0 {
                queued.append(.pcm(Chunk(memory: memory, start: 0, end: filled.bytes)))
            } else {
                free.append(memory)
            }
            switch filled.then {
            case .newFormat(let format):
                queued.append(.format(format))
                song?.decoding = format
            case .skipped(let seconds):
                queued.append(.skipped(seconds))
            case .done:
                queued.append(.end(.done))
                song?.ended = true
            case .damaged(_, let reason):
                queued.append(.end(.damaged(bytes: 0, reason: reason)))
                song?.ended = true
            case .data, .pending, nil:
                break
            }
        }

        /// A chunk to decode into, if the bound allows one.
        mutating func takeChunk() -> UnsafeMutableRawPointer? {
            guard chunksInUse < bound else { return nil }
            if let memory = free.popLast() { return memory }
            guard allocated < bound else { return nil }
            allocated += 1
            return .allocate(byteCount: AheadDecoder.chunkBytes, alignment: 16)
        }

        /// What the decoder's thread is to do next, if anything.
        func job() -> Job? {
            if quit { return .quit }
            guard !busy, callersWaiting == 0 else { return nil }
            if let opening, opening.result == nil, !opening.started { return .open(opening.source) }
            guard let song, !song.ended, refilling, chunksInUse < bound else { return nil }
            return .decode(song.decoding)
        }
    }

    /// What filling a chunk gave: `bytes` of PCM, then what stopped it short of full, if
    /// anything did (a format change, a skip, the end; `.damaged` has its bytes in `bytes`).
    struct Filled {
        var bytes: Int
        var then: DecodeResult?

        /// Fills `memory` (a chunk) from `decoder`, which decodes in `format`: read after read,
        /// as a decoder may give one codec frame a read (1,024 frames of AAC), until the chunk
        /// is full or the stream says something other than PCM.
        static func from(_ decoder: AudioDecoder, into memory: UnsafeMutableRawPointer, format: PCMFormat) -> Filled {
            let capacity = AheadDecoder.chunkBytes / format.bytesPerFrame * format.bytesPerFrame
            var filled = 0
            while filled < capacity {
                switch decoder.read(into: memory + filled, capacity: capacity - filled) {
                case .data(let bytes) where bytes > 0:
                    filled += bytes
                case .data:
                    return Filled(bytes: filled)
                case .damaged(let bytes, let reason):
                    return Filled(bytes: filled + bytes, then: .damaged(bytes: 0, reason: reason))
                case let other:
                    return Filled(bytes: filled, then: other)
                }
            }
            return Filled(bytes: filled)
        }
    }

    enum Job {
        case quit
        case open(SongSource)
        case decode(PCMFormat)
    }

    /// The shared state and the two sides that use it: the decoder's thread (`run`) and the
    /// calls of the playback thread.
    final class Core: @unchecked Sendable {
        // `@unchecked Sendable`: `value` is only touched inside `lock`; `inner` only by whoever
        // has marked it busy.
        let inner: AudioDecoder
        /// `inner`'s, taken once: thread-safe, for any thread.
        let streams: StreamInterruption
        /// The bound for the song playing, in chunks.
        let chunks: Int
        private let wake: () -> Void
        private let lock = ConditionLock()
        private var value: State

        init(inner: AudioDecoder, chunks: Int, wake: @escaping () -> Void) {
            self.inner = inner
            streams = inner.streams
            self.chunks = chunks
            self.wake = wake
            value = State(bound: chunks)
        }

        deinit {
            for case .pcm(let chunk) in value.queued { chunk.memory.deallocate() }
            for memory in value.free { memory.deallocate() }
        }

        /// Reads or changes the state under the lock, then wakes every waiter.
        @discardableResult
        func state<T>(_ body: (inout State) -> T) -> T {
            lock.withLock {
                defer { wakeAll() }
                return body(&value)
            }
        }

        /// Reads the state under the lock, waking no one.
        func peek<T>(_ body: (State) -> T) -> T {
            lock.withLock { body(value) }
        }

        /// Wakes every waiter; under the lock.
        private func wakeAll() {
            value.idle = false
            lock.broadcast()
        }

        /// The decoder's thread: opens songs cued ahead, and decodes until the queue is full.
        func run() {
            while true {
                let (job, generation, memory) = lock.withLock { () -> (Job, Int, UnsafeMutableRawPointer?) in
                    var job = value.job()
                    while job == nil {
                        value.idle = true
                        lock.wait()
                        job = value.job()
                    }
                    value.busy = true
                    var memory: UnsafeMutableRawPointer?
                    switch job {
                    case .open: value.opening?.started = true
                    case .decode: memory = value.takeChunk()
                    case .quit, nil: break
                    }
                    return (job ?? .quit, value.generation, memory)
                }
                switch job {
                case .quit:
                    return
                case .open(let source):
                    let result = Self.open(source, on: inner)
                    state { state in
                        state.busy = false
                        guard state.generation == generation else { return }
                        state.opening?.result = result
                        state.song = (try? result.get()).map { Song(format: $0.format, read: 0, decoding: $0.format) }
                    }
                case .decode(let format):
                    guard let memory else { continue }
                    let result = Filled.from(inner, into: memory, format: format)
                    let wakesReader = state { state in
                        state.busy = false
                        guard state.generation == generation else {
                            state.free.append(memory)
                            return false
                        }
                        state.append(result, in: memory)
                        if state.chunksInUse >= state.bound { state.refilling = false }
                        defer { state.readerWaiting = false }
                        return state.readerWaiting
                    }
                    if wakesReader { wake() }
                }
            }
        }

        static func open(_ source: SongSource, on decoder: AudioDecoder) -> Result<OpenedSong, LoadFailure> {
            do throws(LoadFailure) { return .success(try decoder.open(source)) } catch { return .failure(error) }
        }

        /// Drops the queue and waits for the decoder's thread to let go of the decoder; runs
        /// `body` on it here; then `settle` under the lock; then, if a song is open, decodes its
        /// next chunk here, so that the next read finds audio at once.
        @discardableResult
        func exclusive<T>(_ body: (AudioDecoder) -> T, settle: (inout State, T) -> Void) -> T {
            lock.withLock {
                value.drop()
                claim()
            }
            let result = body(inner)
            let (format, memory) = lock.withLock { () -> (PCMFormat?, UnsafeMutableRawPointer?) in
                settle(&value, result)
                guard let song = value.song, !song.ended else { return (nil, nil) }
                return (song.decoding, value.takeChunk())
            }
            var primed: Filled?
            if let format, let memory {
                primed = Filled.from(inner, into: memory, format: format)
            }
            state { state in
                if let primed, let memory { state.append(primed, in: memory) }
                state.busy = false
            }
            return result
        }

        /// Runs `body` on the decoder underneath once the decoder's thread has let go of it,
        /// keeping the queue.
        func withDecoder<T>(_ body: (AudioDecoder) -> T) -> T {
            lock.withLock { claim() }
            defer { state { $0.busy = false } }
            return body(inner)
        }

        /// Waits for the decoder underneath to be free, and marks it busy; under the lock.
        private func claim() {
            value.callersWaiting += 1
            while value.busy { lock.wait() }
            value.callersWaiting -= 1
            value.busy = true
        }

        /// Waits for the song asked for by `startOpening` to be opened on the decoder's thread.
        func waitForOpening() -> Result<OpenedSong, LoadFailure>? {
            lock.withLock {
                while let opening = value.opening, opening.result == nil { lock.wait() }
                return value.opening?.result
            }
        }

        /// What is queued, up to `capacity` bytes, or where the stream changes format or ends;
        /// `.pending` when nothing is queued yet.
        func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
            lock.withLock {
                var copied = 0
                var freed = false
                gathering: while copied < capacity, let first = value.queued.first {
                    switch first {
                    case .pcm(var chunk):
                        let count = min(chunk.end - chunk.start, capacity - copied)
                        memcpy(buffer + copied, chunk.memory + chunk.start, count)
                        copied += count
                        chunk.start += count
                        if chunk.start == chunk.end {
                            value.queued.removeFirst()
                            value.free.append(chunk.memory)
                            freed = true
                        } else {
                            value.queued[0] = .pcm(chunk)
                        }
                    case .format(let format):
                        guard copied == 0 else { break gathering }
                        value.queued.removeFirst()
                        value.song?.format = format
                        return .newFormat(format)
                    case .skipped(let seconds):
                        guard copied == 0 else { break gathering }
                        value.queued.removeFirst()
                        return .skipped(seconds: seconds)
                    case .end(let result):
                        guard copied == 0 else { break gathering }
                        return result  // stays queued: read again, the same
                    }
                }
                if freed {
                    if !value.refilling, value.chunksInUse <= value.bound * 3 / 4 { value.refilling = true }
                    // Whenever a chunk is free to refill, not only when refilling starts again:
                    // `promoted` may have set it while the queue was full and the thread waited.
                    if value.refilling, value.idle { wakeAll() }
                }
                if copied > 0 {
                    if let format = value.song?.format { value.song?.read += Int64(copied / format.bytesPerFrame) }
                    return .data(bytes: copied)
                }
                guard value.song != nil || value.opening != nil else { return .done }
                value.readerWaiting = true
                return .pending
            }
        }
    }
}
